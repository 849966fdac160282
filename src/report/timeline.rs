//! Printers for `nlorder timeline`: one line (or JSON object) per change.
//!
//! Contract: formatting only, fed [`Event`]s in capture order. JSON Lines:
//! one object per change (`packet`, `ts`, `change` and `object` as the
//! filters name them — `added`, `dump`, `look`; `link`, `addr`, `route` —,
//! `event`, the precise kind — `link_renamed`, `dump_applied` —, `text`,
//! `detail`), and a last one, `"change": "end"`, whose `detail` holds the
//! capture's `warnings` and the model's `assumptions` (see [`Grounds`]).

use std::io::{self, Write};

use std::borrow::Cow;

use crate::netlink::values::AddressFamily;
use serde::Serialize;

use crate::filter::{Field, Fields, Value};
use crate::ingest::rebuild::Grounds;
use crate::looks::{Confidence, Library};
use crate::model::{Change, Event, ObjectKind, Origin, Unheard};
use crate::netlink::names::{self, IFF_UP};
use crate::netlink::rtnl::Netns;
use crate::report::decode::format_ts;
use crate::report::style::Style;
use crate::report::table::{JsonLink, json_link, route_dst};
use crate::report::{Json, Print, Text};

fn kind_name(k: ObjectKind) -> &'static str {
    match k {
        ObjectKind::Links => "links",
        ObjectKind::Addresses => "addresses",
        ObjectKind::Routes => "routes",
    }
}

/// The change as one human sentence, e.g. `- 10.9.0.2/24 eth0: secondary 10.9.0.3 promoted`.
pub fn describe(change: &Change) -> String {
    match change {
        Change::LinkAdded(l) => format!(
            "+ link {} (ifindex {}{})",
            l.display_name(),
            l.index,
            l.kind.map(|k| format!(", {}", k.display())).unwrap_or_default()
        ),
        Change::LinkRemoved(l) => format!("- link {} (ifindex {})", l.display_name(), l.index),
        Change::LinkMovedAway { link, to } => format!(
            "- link {} (ifindex {}): gone from this namespace (moved to {to})",
            link.display_name(),
            link.index
        ),
        Change::Refused {
            request_packet,
            summary,
            errno,
        } => format!(
            "! refused: {summary} ({}, request in packet {request_packet})",
            names::errno(*errno)
        ),
        Change::LinkRenamed { link, from } => {
            format!("~ link {from} renamed {} (ifindex {})", link.display_name(), link.index)
        }
        Change::LinkState {
            link,
            was_up,
            was_operstate,
        } => {
            let now_up = link.flags & IFF_UP != 0;
            let oper = |o: Option<u8>| o.map(|o| names::operstate(o).into_owned()).unwrap_or("?".into());
            format!(
                "~ link {} {} (state {} -> {})",
                link.display_name(),
                match (was_up, now_up) {
                    (false, true) => "set up",
                    (true, false) => "set down",
                    _ => "changed state",
                },
                oper(*was_operstate),
                oper(link.operstate)
            )
        }
        Change::LinkMaster { link, was } => match (was, link.master) {
            (_, Some(m)) => format!("~ link {} enslaved to ifindex {m}", link.display_name()),
            (Some(w), None) => format!("~ link {} released from ifindex {w}", link.display_name()),
            (None, None) => format!("~ link {}", link.display_name()),
        },
        Change::AddrAdded {
            addr,
            ifname,
            position,
            new_link,
        } => {
            let mut s = format!("+ {} on {ifname}", addr.cidr());
            let mut notes = Vec::new();
            if let Some(i) = new_link {
                notes.push(format!("new link {ifname}, ifindex {i}"));
            }
            if addr.is_secondary() {
                notes.push("secondary".into());
            }
            if let Some(l) = addr.label.filter(|l| l.as_bytes() != ifname.as_bytes()) {
                notes.push(format!("label {}", l.display()));
            }
            notes.push(format!("{} #{} on the link", addr.family.name(), position + 1));
            if let Origin::KernelRule(_, rule) = addr.origin {
                notes.push(format!("by the kernel: {}", rule.name()));
            }
            s.push_str(&format!(" ({})", notes.join(", ")));
            s
        }
        Change::AddrExpired {
            addr,
            ifname,
            notified: false,
        } => {
            format!(
                "~ {} on {ifname}: valid lifetime over, expired (inferred; the kernel deletes it)",
                addr.cidr()
            )
        }
        Change::AddrExpired {
            addr,
            ifname,
            notified: true,
        } => {
            format!(
                "~ {} on {ifname}: valid lifetime over, expired (the kernel deletes it: its RTM_DELADDR is in this \
                 packet)",
                addr.cidr()
            )
        }
        Change::AddrRemoved {
            addr,
            ifname,
            promoted,
            removed_secondaries,
        } => {
            let mut s = format!("- {} {ifname}", addr.cidr());
            if let Some(p) = promoted {
                s.push_str(&format!(": secondary {} promoted", p.address));
            }
            if !removed_secondaries.is_empty() {
                let v: Vec<String> = removed_secondaries.iter().map(|a| a.address.to_string()).collect();
                s.push_str(&format!(": secondaries {} removed with it", v.join(", ")));
            }
            s
        }
        Change::AddrChanged {
            addr,
            ifname,
            old_flags,
        } => format!(
            "~ {} on {ifname}: flags [{}] -> [{}]",
            addr.cidr(),
            names::address_flags(addr.family, *old_flags).join(" "),
            names::address_flags(addr.family, addr.flags).join(" ")
        ),
        Change::RouteAdded { route: r, dev } => format!(
            "+ route {}{}{}",
            route_dst(r),
            route_tail(r, dev.as_deref()),
            match r.origin {
                Origin::KernelRule(_, rule) => format!(" (by the kernel: {})", rule.name()),
                _ => String::new(),
            }
        ),
        Change::RouteRemoved { route: r, dev } => {
            format!("- route {}{}", route_dst(r), route_tail(r, dev.as_deref()))
        }
        Change::Unnotified { change, dump_packet } => {
            format!("{} (never notified: seen in dump #{dump_packet})", describe(change))
        }
        Change::DumpApplied {
            kind,
            family,
            entries,
            disagreements,
            revealed,
            unheard,
            dump_packet,
        } => {
            let mut s = format!(
                "= dump #{dump_packet} of {} (family {}): {}",
                kind_name(*kind),
                family.name(),
                super::count(*entries as u64, "entry", "entries")
            );
            if *revealed > 0 {
                s.push_str(&format!(
                    ", DISAGREES with the model: {} nothing in the capture had shown",
                    super::count(*revealed as u64, "change", "changes")
                ));
                match unheard {
                    Some(Unheard::NothingBefore) => s.push_str(&format!(
                        " (nothing before it made or announced a change: no accepted request, no {} \
                         notification; other programs changed the tables unheard)",
                        match kind {
                            ObjectKind::Links => "link",
                            ObjectKind::Addresses => "address",
                            ObjectKind::Routes => "route",
                        }
                    )),
                    Some(Unheard::PeerElsewhere) => s.push_str(
                        " (the carrier of veths whose peers are in another namespace: what happened there is \
                         not in this capture, and linkwatch had not announced it here yet)",
                    ),
                    None => {}
                }
            }
            if disagreements.is_empty() {
                if *revealed == 0 {
                    s.push_str(", as predicted");
                }
            } else {
                s.push_str(&format!(
                    ", DISAGREES with the prediction: {}",
                    disagreements.join("; ")
                ));
            }
            s
        }
    }
}

/// ` via GW dev NAME table T`, as `ip route` writes it (`dev ifN` when
/// nothing in the capture named the device).
fn route_tail(r: &crate::model::RouteEntry, dev: Option<&str>) -> String {
    let mut s = String::new();
    if let Some(g) = r.gateway {
        s.push_str(&format!(" via {g}"));
    }
    match (dev, r.oif) {
        (Some(d), _) => s.push_str(&format!(" dev {d}")),
        (None, Some(o)) => s.push_str(&format!(" dev if{o}")),
        (None, None) => {}
    }
    s.push_str(&format!(" table {}", r.table.name()));
    s
}

/// Writes one change as a `timeline` line: packet, time, what changed.
pub(crate) fn write_event_text(out: &mut dyn Write, e: &Event, style: &Style) -> io::Result<()> {
    let text = describe(&e.change);
    let text = match text.chars().next() {
        Some('+') => style.value(text),
        Some('-') => style.bad(text),
        _ => text,
    };
    // An inferred change (a kernel timer's) has its own time and no
    // record: no packet number.
    let packet = if e.inferred {
        format!("{:>6}", "-")
    } else {
        format!("{:>6}", e.packet)
    };
    writeln!(out, "{} {} {}", style.dim(packet), format_ts(e.ts), text)
}

/// A line's details in JSON (`detail`): the fields of its kind.
#[derive(Serialize)]
#[serde(untagged)]
enum Detail<'a> {
    Change(ChangeDetail<'a>),
    /// A change only a dump showed: its details, marked.
    Unnotified {
        #[serde(flatten)]
        change: ChangeDetail<'a>,
        unnotified: bool,
        dump_packet: u64,
    },
    Looked {
        library: Library,
        request_packet: u64,
        port: Option<u32>,
        asked: String,
        confidence: Confidence,
    },
    End {
        #[serde(flatten)]
        grounds: &'a Grounds,
    },
}

/// A change's own details.
#[derive(Serialize)]
#[serde(untagged)]
enum ChangeDetail<'a> {
    Link {
        link: JsonLink,
    },
    LinkMovedAway {
        link: JsonLink,
        to: &'a Netns,
    },
    Refused {
        request_packet: u64,
        request: &'a str,
        errno: i32,
        error: Cow<'static, str>,
    },
    LinkRenamed {
        link: JsonLink,
        from: &'a str,
    },
    LinkState {
        link: JsonLink,
        was_up: bool,
    },
    LinkMaster {
        link: JsonLink,
        was: Option<u32>,
    },
    AddrAdded {
        ifname: &'a str,
        index: u32,
        address: String,
        family: u8,
        position: usize,
        new_link: bool,
        flags: Vec<&'static str>,
    },
    AddrExpired {
        ifname: &'a str,
        index: u32,
        address: String,
        inferred: bool,
    },
    AddrRemoved {
        ifname: &'a str,
        index: u32,
        address: String,
        promoted: Option<String>,
        removed_secondaries: Vec<String>,
    },
    AddrChanged {
        ifname: &'a str,
        index: u32,
        address: String,
        old_flags: Vec<&'static str>,
        flags: Vec<&'static str>,
    },
    RouteAdded {
        dst: String,
        gateway: Option<std::net::IpAddr>,
        oif: &'a Option<String>,
        oif_index: Option<u32>,
        table: Cow<'static, str>,
        origin: &'static str,
        rule: Option<&'static str>,
    },
    RouteRemoved {
        dst: String,
        gateway: Option<std::net::IpAddr>,
        oif: &'a Option<String>,
        oif_index: Option<u32>,
        table: Cow<'static, str>,
    },
    DumpApplied {
        kind: ObjectKind,
        family: Cow<'static, str>,
        entries: usize,
        disagreements: &'a [String],
        revealed: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        unheard: Option<Unheard>,
        dump_packet: u64,
    },
}

/// The JSON name and details of a change.
fn json_parts(change: &Change) -> (&'static str, Detail<'_>) {
    match change {
        Change::Unnotified { change, dump_packet } => {
            let (kind, detail) = change_parts(change);
            (
                kind,
                Detail::Unnotified {
                    change: detail,
                    unnotified: true,
                    dump_packet: *dump_packet,
                },
            )
        }
        _ => {
            let (kind, detail) = change_parts(change);
            (kind, Detail::Change(detail))
        }
    }
}

/// The JSON name and own details of a change (those of the change an
/// `Unnotified` wraps).
fn change_parts(change: &Change) -> (&'static str, ChangeDetail<'_>) {
    match change {
        Change::LinkAdded(l) => ("link_added", ChangeDetail::Link { link: json_link(l) }),
        Change::LinkRemoved(l) => ("link_removed", ChangeDetail::Link { link: json_link(l) }),
        Change::LinkMovedAway { link, to } => (
            "link_moved_away",
            ChangeDetail::LinkMovedAway {
                link: json_link(link),
                to,
            },
        ),
        Change::Refused {
            request_packet,
            summary,
            errno,
        } => (
            "refused",
            ChangeDetail::Refused {
                request_packet: *request_packet,
                request: summary,
                errno: *errno,
                error: names::errno(*errno),
            },
        ),
        Change::LinkRenamed { link, from } => (
            "link_renamed",
            ChangeDetail::LinkRenamed {
                link: json_link(link),
                from,
            },
        ),
        Change::LinkState { link, was_up, .. } => (
            "link_state",
            ChangeDetail::LinkState {
                link: json_link(link),
                was_up: *was_up,
            },
        ),
        Change::LinkMaster { link, was } => (
            "link_master",
            ChangeDetail::LinkMaster {
                link: json_link(link),
                was: *was,
            },
        ),
        Change::AddrAdded {
            addr,
            ifname,
            position,
            new_link,
        } => (
            "addr_added",
            ChangeDetail::AddrAdded {
                ifname,
                index: addr.index,
                address: addr.cidr(),
                family: if addr.family == AddressFamily::Inet6 { 6 } else { 4 },
                position: position + 1,
                new_link: new_link.is_some(),
                flags: names::address_flags(addr.family, addr.flags),
            },
        ),
        Change::AddrExpired { addr, ifname, notified } => (
            "addr_expired",
            ChangeDetail::AddrExpired {
                ifname,
                index: addr.index,
                address: addr.cidr(),
                inferred: !*notified,
            },
        ),
        Change::AddrRemoved {
            addr,
            ifname,
            promoted,
            removed_secondaries,
        } => (
            "addr_removed",
            ChangeDetail::AddrRemoved {
                ifname,
                index: addr.index,
                address: addr.cidr(),
                promoted: promoted.as_ref().map(|p| p.cidr()),
                removed_secondaries: removed_secondaries.iter().map(|a| a.cidr()).collect(),
            },
        ),
        Change::AddrChanged {
            addr,
            ifname,
            old_flags,
        } => (
            "addr_changed",
            ChangeDetail::AddrChanged {
                ifname,
                index: addr.index,
                address: addr.cidr(),
                old_flags: names::address_flags(addr.family, *old_flags),
                flags: names::address_flags(addr.family, addr.flags),
            },
        ),
        Change::RouteAdded { route: r, dev } => (
            "route_added",
            ChangeDetail::RouteAdded {
                dst: route_dst(r),
                gateway: r.gateway,
                oif: dev,
                oif_index: r.oif,
                table: r.table.name(),
                origin: r.origin.kind(),
                rule: match r.origin {
                    Origin::KernelRule(_, k) => Some(k.name()),
                    _ => None,
                },
            },
        ),
        Change::RouteRemoved { route: r, dev } => (
            "route_removed",
            ChangeDetail::RouteRemoved {
                dst: route_dst(r),
                gateway: r.gateway,
                oif: dev,
                oif_index: r.oif,
                table: r.table.name(),
            },
        ),
        Change::DumpApplied {
            kind,
            family,
            entries,
            disagreements,
            revealed,
            unheard,
            dump_packet,
        } => (
            "dump_applied",
            ChangeDetail::DumpApplied {
                kind: *kind,
                family: family.name(),
                entries: *entries,
                disagreements,
                revealed: *revealed,
                unheard: *unheard,
                dump_packet: *dump_packet,
            },
        ),
        Change::Unnotified { change, .. } => change_parts(change),
    }
}

/// One line of `timeline`'s JSON Lines.
#[derive(Serialize)]
struct JsonLine<'a> {
    /// None for an inferred change (see `inferred`).
    packet: Option<u64>,
    /// A kernel timer's change at its own time, which no record shows
    /// (`before_packet`: the record before which it ran).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    inferred: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    before_packet: Option<u64>,
    ts: Option<f64>,
    /// What the item is, as the `change` filter field names it.
    change: Cow<'a, str>,
    /// What it is about, as the `object` filter field names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<Cow<'a, str>>,
    /// The precise kind (`link_renamed`, `dump_applied`, `looked`, `end`).
    event: &'static str,
    text: Cow<'a, str>,
    detail: Detail<'a>,
}

impl JsonLine<'_> {
    fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, self).map_err(io::Error::from)?;
        writeln!(out)
    }
}

/// A program that asked for the tables, where its answer ended: the line
/// `timeline` shows in its place among the changes.
pub struct Looked<'a> {
    /// The packet that ended the answer.
    pub packet: u64,
    /// Its time.
    pub ts: Option<crate::capture::Timestamp>,
    /// The request, and who sent it.
    pub asked: &'a crate::looks::Asked,
}

impl Looked<'_> {
    fn text(&self) -> String {
        let r = self.asked;
        let port = r.port.map(|p| format!(" (port {p})")).unwrap_or_default();
        if r.library == Library::Unknown {
            format!("? an unknown program asked for {}{port}", r.asked())
        } else {
            format!("? {} looked here: {}{port}", r.library.name(), r.asked())
        }
    }
}

/// The end of the listing: the last record, and what the rebuild rests on.
pub struct End<'a> {
    /// The last record with netlink messages, and its time; `None` for a
    /// capture without any.
    pub last: Option<(u64, Option<crate::capture::Timestamp>)>,
    /// The warnings and assumptions the rebuild rests on.
    pub grounds: &'a Grounds,
}

impl Print<Event> for Text {
    fn print(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        write_event_text(out, e, &self.0)
    }
}

impl Print<Looked<'_>> for Text {
    fn print(&mut self, l: &Looked<'_>, out: &mut dyn Write) -> io::Result<()> {
        let style = &self.0;
        writeln!(
            out,
            "{} {} {}",
            style.dim(format!("{:>6}", l.packet)),
            format_ts(l.ts),
            style.dim(l.text())
        )
    }
}

/// Text leaves the grounds to the summary on stderr.
/// Nothing closes the text listing, but a cut capture's end.
impl Print<End<'_>> for Text {
    fn print(&mut self, end: &End<'_>, out: &mut dyn Write) -> io::Result<()> {
        match end.grounds.truncated_after {
            Some(n) => writeln!(out, "# {}", super::moment::end_of_capture(n)),
            None => Ok(()),
        }
    }
}

impl Print<Event> for Json {
    fn print(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        let (event, detail) = json_parts(&e.change);
        let named = |f: Field| match e.field(f) {
            Some(Value::Text(t)) => Some(t),
            _ => None,
        };
        JsonLine {
            packet: (!e.inferred).then_some(e.packet),
            inferred: e.inferred,
            before_packet: e.inferred.then_some(e.packet),
            ts: e.ts.map(|t| t.as_secs_f64()),
            change: named(Field::Change).unwrap_or(Cow::Borrowed(event)),
            object: named(Field::Object),
            event,
            text: Cow::Owned(describe(&e.change)),
            detail,
        }
        .write(out)
    }
}

impl Print<Looked<'_>> for Json {
    fn print(&mut self, l: &Looked<'_>, out: &mut dyn Write) -> io::Result<()> {
        let r = l.asked;
        JsonLine {
            packet: Some(l.packet),
            inferred: false,
            before_packet: None,
            ts: l.ts.map(|t| t.secs as f64 + f64::from(t.nanos) / 1e9),
            change: Cow::Borrowed("look"),
            object: Some(Cow::Borrowed(match r.kind {
                ObjectKind::Links => "link",
                ObjectKind::Addresses => "addr",
                ObjectKind::Routes => "route",
            })),
            event: "looked",
            text: Cow::Owned(l.text()),
            detail: Detail::Looked {
                library: r.library,
                request_packet: r.packet,
                port: r.port,
                asked: r.asked(),
                confidence: r.confidence,
            },
        }
        .write(out)
    }
}

/// The closing `end` line carries what the rebuild rests on.
impl Print<End<'_>> for Json {
    fn print(&mut self, end: &End<'_>, out: &mut dyn Write) -> io::Result<()> {
        let (packet, ts) = end.last.unwrap_or((0, None));
        JsonLine {
            packet: Some(packet),
            inferred: false,
            before_packet: None,
            ts: ts.map(|t| t.as_secs_f64()),
            change: Cow::Borrowed("end"),
            object: None,
            event: "end",
            text: match end.grounds.truncated_after {
                Some(n) => Cow::Owned(super::moment::end_of_capture(n)),
                None => Cow::Borrowed("end of the capture"),
            },
            detail: Detail::End { grounds: end.grounds },
        }
        .write(out)
    }
}

/// A printer of every item of the timeline.
pub trait TimelineItems: Print<Event> + for<'a> Print<Looked<'a>> + for<'a> Print<End<'a>> {}
impl<P> TimelineItems for P where P: Print<Event> + for<'a> Print<Looked<'a>> + for<'a> Print<End<'a>> {}
