//! `--fields`: one tab-separated row per listed record, like tshark's
//! `-T fields -e ...`.
//!
//! Contract: a row holds the asked fields in the asked order; a field the
//! record lacks is an empty column. Numbers print as integers when they
//! are, times with microseconds, named values by name, flags as `1`/`0`.

use std::io::{self, Write};

use crate::filter::records::RequestFields;
use crate::filter::{Field, Fields, Value};
use crate::model::Event;
use crate::report::Print;
use crate::report::timeline::{End, Looked};

/// Writes one row of `fields` of `record`.
pub fn write_row(out: &mut dyn Write, fields: &[Field], record: &dyn Fields) -> io::Result<()> {
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.write_all(b"\t")?;
        }
        match record.field(*f) {
            None => {}
            Some(Value::Number(n)) if *f == Field::Time => write!(out, "{n:.6}")?,
            Some(Value::Number(n)) if n.fract() == 0.0 && n.abs() < 9.0e15 => write!(out, "{}", n as i64)?,
            Some(Value::Number(n)) => write!(out, "{n}")?,
            Some(Value::Named(_, name)) | Some(Value::Text(name)) => out.write_all(name.as_bytes())?,
            Some(Value::Ip(ip)) => write!(out, "{ip}")?,
            Some(Value::Bool(b)) => out.write_all(if b { b"1" } else { b"0" })?,
        }
    }
    out.write_all(b"\n")
}

/// A timeline printed as field columns: one row per change and per look.
pub struct Columns {
    /// The columns.
    pub fields: Vec<Field>,
}

impl Print<Event> for Columns {
    fn print(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        write_row(out, &self.fields, e)
    }
}

impl Print<Looked<'_>> for Columns {
    fn print(&mut self, l: &Looked<'_>, out: &mut dyn Write) -> io::Result<()> {
        write_row(out, &self.fields, &looked_fields(l))
    }
}

impl Print<End<'_>> for Columns {
    fn print(&mut self, _: &End<'_>, _: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

/// The fields of a look as a timeline item.
pub fn looked_fields<'a>(l: &Looked<'a>) -> RequestFields<'a> {
    RequestFields {
        asked: l.asked,
        packet: l.packet,
        ts: l.ts,
        look: true,
    }
}

/// What a field holds, as `nlorder -G fields` and the man pages say it.
pub fn describe(field: Field) -> &'static str {
    match field {
        Field::Packet => "the capture record's number, 1-based (as decode numbers them)",
        Field::Time => "when the record was captured, seconds since the epoch",
        Field::Offset => "byte offset of the message in the input",
        Field::Type => "netlink message type: RTM_NEWADDR, NLMSG_DONE, ... or its number",
        Field::Family => "address family: inet, inet6, unspec, bridge, ... or its number",
        Field::Ifindex => "interface index the message or change is about",
        Field::Dev => "interface name, as the link messages before it named it",
        Field::Port => "netlink port id (nlmsg_pid; for who, the requester's port)",
        Field::Seq => "netlink sequence number",
        Field::Len => "message length (nlmsg_len)",
        Field::Dir => "request, reply or notification (each also a test alone)",
        Field::Multi => "NLM_F_MULTI is set",
        Field::Dump => "a dump request, or a request that asked for a dump",
        Field::Errno => "the error an NLMSG_ERROR or NLMSG_DONE carries (ENOENT, ...); absent on an ACK",
        Field::Addr => "the address of an address message or change",
        Field::Dst => "a route's destination (absent for a default route)",
        Field::Gateway => "a route's gateway",
        Field::Prefixlen => "prefix length of that address or destination",
        Field::Table => "route table: main, local, default, unspec or its number",
        Field::Scope => "address or route scope: global, site, link, host, nowhere or its number",
        Field::Change => "what a timeline item is: added, removed, expired, changed, dump, refused, unnotified, look",
        Field::Object => "what a timeline item is about: link, addr or route",
        Field::Program => "the program a request's shape points to (go-net, glibc-getaddrinfo, ...)",
    }
}

fn kind_word(field: Field) -> &'static str {
    use crate::filter::Kind;
    match field.kind() {
        Kind::Number => "number",
        Kind::Named => "named number",
        Kind::Text => "name",
        Kind::Ip => "address",
        Kind::Bool => "flag",
    }
}

/// The listings (`decode`, `timeline`, `who`) that have `field`.
fn listings(field: Field) -> String {
    let mut v = Vec::new();
    for (name, offered) in [
        ("decode", Field::MESSAGE),
        ("timeline", Field::CHANGE),
        ("who", Field::REQUEST),
    ] {
        if offered.contains(&field) {
            v.push(name);
        }
    }
    v.join(",")
}

/// `nlorder -G fields`: one tab-separated line per field (as tshark's `-G
/// fields` does): its name, what kind of value it has, the listings that
/// have it, tshark's names also accepted, and what it holds.
pub fn write_glossary(out: &mut dyn Write) -> io::Result<()> {
    for &f in Field::ALL {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}",
            f.name(),
            kind_word(f),
            listings(f),
            f.tshark_names().join(","),
            describe(f)
        )?;
    }
    Ok(())
}

/// `nlorder -G values`: one tab-separated line per named value of each
/// field (as tshark's `-G values`): the field, the number (empty for a
/// keyword) and the name filters take.
pub fn write_values(out: &mut dyn Write) -> io::Result<()> {
    for &f in Field::ALL {
        for (n, name) in f.values().unwrap_or_default() {
            match n {
                Some(n) => writeln!(out, "{}\t{n}\t{name}", f.name())?,
                None => writeln!(out, "{}\t\t{name}", f.name())?,
            }
        }
    }
    Ok(())
}
