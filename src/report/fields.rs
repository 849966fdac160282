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
