//! Printers for `nlorder decode`: one line (text) or one JSON object per
//! message.
//!
//! Contract: both printers are fed the same [`MessageFields`] (a message
//! and the interface names the link messages before it gave) in capture
//! order and only format them: address and route lines name their
//! interface the way `ip monitor` does. With `attrs` on, they also print the attribute list
//! `netlink::attr_text` gives for each message.

use std::io::{self, Write};
use std::net::IpAddr;

use crate::netlink::values::AddressFamily;
use serde::Serialize;

use crate::capture::Timestamp;
pub use crate::filter::records::{LinkNames, MessageFields};
use crate::model::{AddrEntry, Origin, RouteEntry, RuleEntry, RuleOrigin};
use crate::netlink::attr_text::{AttrText, attr_texts};
pub use crate::netlink::names::escape_bytes;
use crate::netlink::names::{self, *};
use crate::netlink::rtnl::Netns;
use crate::netlink::rtnl::{Addr, Body, CacheInfo, ErrorMsg, Link, Request, Route};
use crate::netlink::rule::Rule;
use crate::netlink::wire::Header;
use crate::report::Print;
use crate::report::style::Style;
use crate::report::table;

/// Last second humantime can print (9999-12-31T23:59:59Z); its Display
/// panics beyond, and a corrupt pcapng timestamp can be anything.
/// `2024-03-13T21:53:37.678556Z` (seconds.nanoseconds outside years 1970-9999).
pub fn format_ts(ts: Option<Timestamp>) -> String {
    ts.map_or_else(|| "-".into(), |t| t.rfc3339())
}

fn direction(h: &Header) -> &'static str {
    if crate::netlink::from_user_space(h.kind, h.flags) {
        "U>K"
    } else {
        "K>U"
    }
}

/// `ip monitor`-like lines, one per message (interface names learnt from
/// the link messages before it).
pub struct TextMessages {
    style: Style,
    attrs: bool,
}

impl TextMessages {
    /// A printer coloured as `style` says; with `attrs`, each message is
    /// followed by its attributes.
    pub fn new(style: Style, attrs: bool) -> Self {
        Self { style, attrs }
    }

    fn describe(&self, names: &LinkNames, body: &Body<'_>, kind: u16, from_user: bool) -> String {
        let ifname = |index: u32| names.get(index).map_or_else(|| format!("if{index}"), str::to_owned);
        let s = &self.style;
        match body {
            Body::Link(l) => describe_link(l, s),
            Body::Addr(a) => {
                // no link message named the index yet: the address's own
                // label does (IPv4: the device's name, `:alias` after it)
                let name = names
                    .get(a.index)
                    .map(str::to_owned)
                    .or_else(|| crate::filter::records::label_device(a))
                    .unwrap_or_else(|| ifname(a.index));
                describe_addr(a, &name, s)
            }
            Body::Route(r) => describe_route(r, &ifname, s),
            Body::Rule(r) => describe_rule(r, kind, from_user),
            Body::Request(q) => describe_request(q, kind, &ifname),
            Body::Done { error } => {
                if *error == 0 {
                    "end of dump".into()
                } else {
                    s.bad(format!("dump failed: {} ({})", error, names::errno(*error)))
                }
            }
            Body::Error(e) => describe_error(e, s),
            Body::Noop => String::new(),
            Body::Other => "(not decoded)".into(),
            Body::Truncated => s.bad("(body too short to decode)"),
        }
    }
}

impl Print<MessageFields<'_, '_>> for TextMessages {
    fn print(&mut self, named: &MessageFields<'_, '_>, out: &mut dyn Write) -> io::Result<()> {
        let m = named.message;
        let h = &m.decoded.header;
        let s = self.style;
        let mut flags = String::new();
        if h.flags & NLM_F_MULTI != 0 {
            flags.push_str(" multi");
        }
        if h.flags & NLM_F_DUMP_INTR != 0 {
            flags.push_str(&s.bad(" DUMP_INTR(inconsistent dump)"));
        }
        if names::is_dump_request(h.kind, h.flags) {
            flags.push_str(" dump");
        }
        write!(
            out,
            "{} {} {} {}{} {} {}",
            s.dim(format!("{:>6}", m.packet)),
            format_ts(m.ts),
            direction(h),
            s.kind(names::message_type(h.kind)),
            flags,
            s.dim(format!("seq={} pid={}", h.seq, h.pid)),
            self.describe(named.names, &m.decoded.body, h.kind, m.decoded.from_user_space()),
        )?;
        if let Some(p) = &m.decoded.problem {
            write!(out, " {}", s.bad(format!("[{p}]")))?;
        }
        writeln!(out)?;
        if self.attrs {
            for a in attr_texts(&m.message).attrs {
                match a.name {
                    Some(name) => writeln!(out, "         {name} {}", a.value)?,
                    None => writeln!(out, "         attr {} {}", a.kind, a.value)?,
                }
            }
        }
        Ok(())
    }
}

fn describe_link(l: &Link<'_>, s: &Style) -> String {
    let name = l.name.map(escape_bytes).unwrap_or_else(|| "?".into());
    let mut out = format!("{}: {}", l.index, s.value(&name));
    if l.family == AddressFamily::Bridge {
        out.push_str(" (bridge port event)");
    }
    out.push_str(&format!(" <{}>", names::link_flags(l.flags).join(",")));
    if let Some(mtu) = l.mtu {
        out.push_str(&format!(" mtu {mtu}"));
    }
    if let Some(k) = l.kind {
        out.push_str(&format!(" type {}", escape_bytes(k)));
    }
    if let Some(m) = l.master {
        out.push_str(&format!(" master {m}"));
    }
    if let Some(o) = l.operstate {
        out.push_str(&format!(" state {}", names::operstate(o)));
    }
    if let Some(id) = l.link_netnsid {
        out.push_str(&format!(" link-netnsid {id}"));
    }
    if let Some(p) = &l.peer {
        let name = p.name.map(escape_bytes).unwrap_or_else(|| "?".into());
        out.push_str(&format!(" peer {name}"));
        if let Some(ns) = p.netns {
            out.push_str(&format!(" {}", netns_words(ns)));
        }
    }
    if let Some(ns) = l.netns {
        out.push_str(&format!(" {}", netns_words(ns)));
    }
    for (word, a) in [("local", l.tunnel_local), ("remote", l.tunnel_remote)] {
        if let Some(ip) = a.and_then(|b| <[u8; 4]>::try_from(b).ok()) {
            out.push_str(&format!(" {word} {}", std::net::Ipv4Addr::from(ip)));
        }
    }
    out
}

/// A namespace as `ip` spells the option that names it.
fn netns_words(ns: Netns) -> String {
    match ns {
        Netns::Pid(p) => format!("netns pid {p}"),
        Netns::Fd(d) => format!("netns fd {d}"),
        Netns::Id(i) => format!("target-netnsid {i}"),
    }
}

fn describe_addr(a: &Addr<'_>, ifname: &str, s: &Style) -> String {
    let Some(entry) = AddrEntry::from_message(a, Origin::Dump(0)) else {
        return format!("{}: {ifname} {} (no address)", a.index, a.family.name());
    };
    let mut out = table::addr_line(&entry, ifname, s);
    if let Some(c) = a.cacheinfo {
        let life = |v: u32| {
            if v == u32::MAX {
                "forever".to_string()
            } else {
                format!("{v}sec")
            }
        };
        out.push_str(&format!(
            " valid_lft {} preferred_lft {}",
            life(c.valid),
            life(c.preferred)
        ));
    }
    out
}

fn describe_route(r: &Route, ifname: &dyn Fn(u32) -> String, s: &Style) -> String {
    table::route_line(&RouteEntry::from_message(r, Origin::Dump(0), 0), ifname, s)
}

/// A rule as `ip monitor rule` prints it (its priority first when the
/// message has one; a request may leave it to the kernel), or the family a
/// rule dump asks for.
fn describe_rule(r: &Rule<'_>, kind: u16, from_user: bool) -> String {
    if kind == crate::netlink::rule::RTM_GETRULE {
        return format!("rules family {}", r.family.name());
    }
    let line = crate::report::rule::rule_line(&RuleEntry::from_message(r, RuleOrigin::Default));
    // The kernel leaves FRA_PRIORITY out for priority 0; a request that
    // leaves it out lets the kernel choose.
    match r.priority {
        Some(p) => format!("{p}: {line} ({})", r.family.name()),
        None if !from_user => format!("0: {line} ({})", r.family.name()),
        None => format!("{line} ({})", r.family.name()),
    }
}

fn describe_request(q: &Request<'_>, kind: u16, ifname: &dyn Fn(u32) -> String) -> String {
    let what = match kind {
        RTM_GETLINK => "links",
        RTM_GETADDR => "addresses",
        _ => "routes",
    };
    let mut out = format!("{what} family {}", q.family.name());
    match (q.index, q.name) {
        (_, Some(n)) => out.push_str(&format!(" name {}", escape_bytes(n))),
        (Some(i), None) if i != 0 => out.push_str(&format!(" dev {}", ifname(i))),
        _ => {}
    }
    if let Some(t) = q.table {
        out.push_str(&format!(" table {}", t.name()));
    }
    if let Some(i) = q.oif {
        out.push_str(&format!(" dev {}", ifname(i)));
    }
    if q.short_form {
        out.push_str(&format!(" (rtgenmsg, {}-byte body)", q.body_len));
    }
    out
}

fn describe_error(e: &ErrorMsg<'_>, s: &Style) -> String {
    let mut out = if e.error == 0 {
        "ACK".to_string()
    } else {
        s.bad(format!("error {} {}", e.error, names::errno(e.error)))
    };
    if let Some(q) = e.quoted {
        out.push_str(&format!(" for {} seq={}", names::message_type(q.kind), q.seq));
    }
    if let Some(m) = e.ext_message {
        out.push_str(&format!(": {}", escape_bytes(m)));
    }
    out
}

// ---------------------------------------------------------------- JSON ----

#[derive(Serialize)]
struct JsonMessage<'a> {
    packet: u64,
    ts: Option<f64>,
    ts_ns: Option<i128>,
    offset: u64,
    netlink_family: u16,
    #[serde(rename = "type")]
    kind: std::borrow::Cow<'static, str>,
    type_id: u16,
    len: u32,
    flags: u16,
    flag_names: Vec<&'static str>,
    seq: u32,
    pid: u32,
    request: bool,
    dump_interrupted: bool,
    /// Address family of the body, when it has one.
    family: Option<std::borrow::Cow<'static, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    link: Option<JsonLink>,
    #[serde(skip_serializing_if = "Option::is_none")]
    addr: Option<JsonAddr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    route: Option<JsonRoute<'a>>,
    /// A rule, as `ip -j rule` prints it (`priority` absent when the
    /// message leaves it to the kernel).
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<crate::report::rule::IpRule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dump_request: Option<JsonRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    done: Option<JsonDone>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<JsonError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attrs: Option<Vec<AttrText>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attrs_error: Option<String>,
}

#[derive(Serialize)]
struct JsonLink {
    index: u32,
    name: Option<String>,
    kind: Option<String>,
    port_kind: Option<String>,
    master: Option<u32>,
    link: Option<u32>,
    operstate: Option<std::borrow::Cow<'static, str>>,
    mtu: Option<u32>,
    flags: Vec<&'static str>,
    flags_raw: u32,
    dev_type: u16,
    hwaddr: Option<String>,
    /// The namespace a request puts the link in (`{"fd": 4}`, `{"pid": N}`, `{"id": N}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    netns: Option<crate::netlink::rtnl::Netns>,
    /// IFLA_LINK is a device of the namespace with this id.
    #[serde(skip_serializing_if = "Option::is_none")]
    link_netnsid: Option<i32>,
    /// The veth peer a request creates.
    #[serde(skip_serializing_if = "Option::is_none")]
    peer: Option<JsonPeer>,
    /// An IPv4 tunnel's endpoints as the request gives them.
    #[serde(skip_serializing_if = "Option::is_none")]
    tunnel_local: Option<std::net::Ipv4Addr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tunnel_remote: Option<std::net::Ipv4Addr>,
}

#[derive(Serialize)]
struct JsonPeer {
    index: u32,
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    netns: Option<crate::netlink::rtnl::Netns>,
}

#[derive(Serialize)]
struct JsonAddr {
    index: u32,
    ifname: Option<String>,
    address: Option<IpAddr>,
    local: Option<IpAddr>,
    prefix_len: u8,
    label: Option<String>,
    broadcast: Option<IpAddr>,
    scope: std::borrow::Cow<'static, str>,
    flags: Vec<&'static str>,
    flags_raw: u32,
    cacheinfo: Option<CacheInfo>,
    proto: Option<u8>,
}

#[derive(Serialize)]
struct JsonRoute<'a> {
    table: std::borrow::Cow<'static, str>,
    table_id: u32,
    dst: String,
    dst_len: u8,
    gateway: Option<IpAddr>,
    oif: Option<u32>,
    oif_name: Option<&'a str>,
    prefsrc: Option<IpAddr>,
    priority: Option<u32>,
    protocol: std::borrow::Cow<'static, str>,
    scope: std::borrow::Cow<'static, str>,
    #[serde(rename = "type")]
    kind: std::borrow::Cow<'static, str>,
    flags: u32,
    multipath: bool,
}

#[derive(Serialize)]
struct JsonRequest {
    index: Option<u32>,
    name: Option<String>,
    /// The route dump's table filter (RTA_TABLE or rtm_table).
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<u32>,
    /// The route dump's device filter (RTA_OIF).
    #[serde(skip_serializing_if = "Option::is_none")]
    oif: Option<u32>,
    short_form: bool,
    body_len: usize,
}

#[derive(Serialize)]
struct JsonDone {
    error: i32,
}

#[derive(Serialize)]
struct JsonError {
    error: i32,
    errno: std::borrow::Cow<'static, str>,
    ack: bool,
    quoted: Option<JsonQuoted>,
    ext_message: Option<String>,
}

#[derive(Serialize)]
struct JsonQuoted {
    len: u32,
    #[serde(rename = "type")]
    kind: std::borrow::Cow<'static, str>,
    flags: u16,
    seq: u32,
    pid: u32,
}

fn family_of(body: &Body<'_>) -> Option<AddressFamily> {
    match body {
        Body::Link(l) => Some(l.family),
        Body::Addr(a) => Some(a.family),
        Body::Route(r) => Some(r.family),
        Body::Request(q) => Some(q.family),
        Body::Rule(r) => Some(r.family),
        _ => None,
    }
}

fn json_rule(r: &Rule<'_>, kind: u16, from_user: bool) -> Option<crate::report::rule::IpRule> {
    if kind == crate::netlink::rule::RTM_GETRULE {
        return None;
    }
    let mut v = crate::report::rule::rule_object(&RuleEntry::from_message(r, RuleOrigin::Default));
    if r.priority.is_none() && from_user {
        v.priority = None;
    }
    Some(v)
}

/// NDJSON: one object per message.
pub struct JsonMessages {
    attrs: bool,
    /// The lines made and not yet written: serde_json writes a line in
    /// dozens of small pieces, each a call through `dyn Write` otherwise,
    /// and copying each line on into the output's buffer moved every byte
    /// twice; they go out [`GATHER`] bytes at a time, and at
    /// [`Print::flush`].
    lines: Vec<u8>,
}

impl JsonMessages {
    /// A printer; with `attrs`, each object also lists the message's
    /// attributes (`attrs`, and `attrs_error` when they could not be
    /// decoded).
    pub fn new(attrs: bool) -> Self {
        Self {
            attrs,
            lines: Vec::with_capacity(GATHER + 4096),
        }
    }
}

impl Print<MessageFields<'_, '_>> for JsonMessages {
    fn print(&mut self, named: &MessageFields<'_, '_>, out: &mut dyn Write) -> io::Result<()> {
        let m = named.message;
        let h = &m.decoded.header;
        let body = &m.decoded.body;
        let (attrs, attrs_error) = if self.attrs {
            let l = attr_texts(&m.message);
            (Some(l.attrs), l.error)
        } else {
            (None, None)
        };
        let names_ref = named.names;
        let obj = JsonMessage {
            packet: m.packet,
            ts: m.ts.map(|t| t.as_secs_f64()),
            ts_ns: m.ts.map(|t| t.as_nanos()),
            offset: m.offset,
            netlink_family: NETLINK_ROUTE,
            kind: names::message_type(h.kind),
            type_id: h.kind,
            len: h.len,
            flags: h.flags,
            flag_names: names::message_flags(h.kind, h.flags),
            seq: h.seq,
            pid: h.pid,
            request: h.flags & NLM_F_REQUEST != 0,
            dump_interrupted: h.flags & NLM_F_DUMP_INTR != 0,
            family: family_of(body).map(AddressFamily::name),
            link: match body {
                Body::Link(l) => Some(JsonLink {
                    index: l.index,
                    name: l.name.map(escape_bytes),
                    kind: l.kind.map(escape_bytes),
                    port_kind: l.port_kind.map(escape_bytes),
                    master: l.master,
                    link: l.link,
                    operstate: l.operstate.map(names::operstate),
                    mtu: l.mtu,
                    flags: names::link_flags(l.flags),
                    flags_raw: l.flags,
                    dev_type: l.dev_type,
                    hwaddr: l
                        .hwaddr
                        .map(|b| b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(":")),
                    netns: l.netns,
                    link_netnsid: l.link_netnsid,
                    tunnel_local: l.tunnel_local.and_then(|b| <[u8; 4]>::try_from(b).ok()).map(Into::into),
                    tunnel_remote: l
                        .tunnel_remote
                        .and_then(|b| <[u8; 4]>::try_from(b).ok())
                        .map(Into::into),
                    peer: l.peer.map(|p| JsonPeer {
                        index: p.index,
                        name: p.name.map(escape_bytes),
                        netns: p.netns,
                    }),
                }),
                _ => None,
            },
            addr: match body {
                Body::Addr(a) => Some(JsonAddr {
                    index: a.index,
                    ifname: names_ref.get(a.index).map(str::to_owned),
                    address: a.address,
                    local: a.local,
                    prefix_len: a.prefix_len,
                    label: a.label.map(escape_bytes),
                    broadcast: a.broadcast,
                    scope: a.scope.name(),
                    flags: names::address_flags(a.family, a.flags),
                    flags_raw: a.flags,
                    cacheinfo: a.cacheinfo,
                    proto: a.proto,
                }),
                _ => None,
            },
            route: match body {
                Body::Route(r) => Some(JsonRoute {
                    table: r.table.name(),
                    table_id: r.table.into(),
                    dst: table::route_dst(&RouteEntry::from_message(r, Origin::Dump(0), 0)),
                    dst_len: r.dst_len,
                    gateway: r.gateway,
                    oif: r.oif,
                    oif_name: r.oif.and_then(|i| names_ref.get(i)),
                    prefsrc: r.prefsrc,
                    priority: r.priority,
                    protocol: r.protocol.name(),
                    scope: r.scope.name(),
                    kind: r.kind.name(),
                    flags: r.flags,
                    multipath: r.multipath,
                }),
                _ => None,
            },
            rule: match body {
                Body::Rule(r) => json_rule(r, h.kind, m.decoded.from_user_space()),
                _ => None,
            },
            dump_request: match body {
                Body::Request(q) => Some(JsonRequest {
                    index: q.index,
                    name: q.name.map(escape_bytes),
                    table: q.table.map(u32::from),
                    oif: q.oif,
                    short_form: q.short_form,
                    body_len: q.body_len,
                }),
                _ => None,
            },
            done: match body {
                Body::Done { error } => Some(JsonDone { error: *error }),
                _ => None,
            },
            error: match body {
                Body::Error(e) => Some(JsonError {
                    error: e.error,
                    errno: names::errno(e.error),
                    ack: e.error == 0,
                    quoted: e.quoted.map(|q| JsonQuoted {
                        len: q.len,
                        kind: names::message_type(q.kind),
                        flags: q.flags,
                        seq: q.seq,
                        pid: q.pid,
                    }),
                    ext_message: e.ext_message.map(escape_bytes),
                }),
                _ => None,
            },
            problem: m.decoded.problem.map(|p| p.to_string()),
            attrs,
            attrs_error,
        };
        serde_json::to_writer(&mut self.lines, &obj).map_err(io::Error::from)?;
        self.lines.push(b'\n');
        if self.lines.len() >= GATHER {
            self.flush(out)?;
        }
        Ok(())
    }

    fn flush(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let written = out.write_all(&self.lines);
        self.lines.clear();
        written
    }
}

/// How many bytes of JSON lines [`JsonMessages`] gathers before writing
/// them: as many as the output's buffer holds, which then passes them on
/// without copying them.
const GATHER: usize = 1 << 16;

/// The line closing the listing of a cut capture: text `# the end of the
/// capture, truncated after record N: ...`; JSON a last line
/// `{"truncated": true, "truncated_after": N, "text": ...}`.
pub fn write_truncated(out: &mut dyn Write, format: super::Format, last_whole: u64) -> io::Result<()> {
    let text = super::moment::end_of_capture(last_whole);
    match format {
        super::Format::Json => {
            let line = JsonTruncated {
                truncated: true,
                truncated_after: last_whole,
                text,
            };
            serde_json::to_writer(&mut *out, &line).map_err(io::Error::other)?;
            writeln!(out)
        }
        super::Format::Text => writeln!(out, "# {text}"),
    }
}

#[derive(Serialize)]
struct JsonTruncated {
    truncated: bool,
    truncated_after: u64,
    text: String,
}
