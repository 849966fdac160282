//! Printers for `nlorder timeline`: one line (or JSON object) per change.
//!
//! Contract: formatting only, fed [`Event`]s in capture order. JSON Lines:
//! one object per change (`packet`, `ts`, `change`, `text`, `detail`), and
//! a last one, `"change": "end"`, whose `detail` holds the capture's
//! `warnings` and the model's `assumptions` (see [`Grounds`]).

use std::io::{self, Write};

use serde_json::json;

use crate::model::{Change, Event, ObjectKind, Origin};
use crate::netlink::names::{self, AF_INET6, IFF_UP};
use crate::rebuild::Grounds;
use crate::report::decode::format_ts;
use crate::report::style::Style;
use crate::report::table::{json_link, route_dst};

fn fam(f: u8) -> &'static str {
    if f == AF_INET6 { "inet6" } else { "inet" }
}

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
            notes.push(format!("{} #{} on the link", fam(addr.family), position + 1));
            if let Origin::KernelRule(_, rule) = addr.origin {
                notes.push(format!("by the kernel: {}", rule.name()));
            }
            s.push_str(&format!(" ({})", notes.join(", ")));
            s
        }
        Change::AddrExpired { addr, ifname } => {
            format!(
                "~ {} on {ifname}: valid lifetime over, expired (inferred; the kernel deletes it)",
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
            dump_packet,
        } => {
            let mut s = format!(
                "= dump #{dump_packet} of {} (family {}): {entries} entries",
                kind_name(*kind),
                names::address_family(*family)
            );
            if *revealed > 0 {
                s.push_str(&format!(
                    ", DISAGREES with the model: {revealed} changes nothing in the capture had shown"
                ));
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
    s.push_str(&format!(" table {}", names::route_table(r.table)));
    s
}

pub fn write_event_text(out: &mut dyn Write, e: &Event, style: &Style) -> io::Result<()> {
    let text = describe(&e.change);
    let text = match text.chars().next() {
        Some('+') => style.value(text),
        Some('-') => style.bad(text),
        _ => text,
    };
    writeln!(
        out,
        "{} {} {}",
        style.dim(format!("{:>6}", e.packet)),
        format_ts(e.ts),
        text
    )
}

/// The JSON name and details of a change.
fn json_parts(change: &Change) -> (&'static str, serde_json::Value) {
    match change {
        Change::LinkAdded(l) => ("link_added", json!({ "link": json_link(l) })),
        Change::LinkRemoved(l) => ("link_removed", json!({ "link": json_link(l) })),
        Change::LinkMovedAway { link, to } => ("link_moved_away", json!({ "link": json_link(link), "to": to })),
        Change::Refused {
            request_packet,
            summary,
            errno,
        } => (
            "refused",
            json!({ "request_packet": request_packet, "request": summary, "errno": errno, "error": names::errno(*errno) }),
        ),
        Change::LinkRenamed { link, from } => ("link_renamed", json!({ "link": json_link(link), "from": from })),
        Change::LinkState { link, was_up, .. } => ("link_state", json!({ "link": json_link(link), "was_up": was_up })),
        Change::LinkMaster { link, was } => ("link_master", json!({ "link": json_link(link), "was": was })),
        Change::AddrAdded {
            addr,
            ifname,
            position,
            new_link,
        } => (
            "addr_added",
            json!({ "ifname": ifname, "index": addr.index, "address": addr.cidr(), "family": if addr.family == AF_INET6 { 6 } else { 4 },
                    "position": position + 1, "new_link": new_link.is_some(), "flags": names::address_flags(addr.family, addr.flags) }),
        ),
        Change::AddrExpired { addr, ifname } => (
            "addr_expired",
            json!({ "ifname": ifname, "index": addr.index, "address": addr.cidr(), "inferred": true }),
        ),
        Change::AddrRemoved {
            addr,
            ifname,
            promoted,
            removed_secondaries,
        } => (
            "addr_removed",
            json!({ "ifname": ifname, "index": addr.index, "address": addr.cidr(),
                    "promoted": promoted.as_ref().map(|p| p.cidr()),
                    "removed_secondaries": removed_secondaries.iter().map(|a| a.cidr()).collect::<Vec<_>>() }),
        ),
        Change::AddrChanged {
            addr,
            ifname,
            old_flags,
        } => (
            "addr_changed",
            json!({ "ifname": ifname, "index": addr.index, "address": addr.cidr(),
                    "old_flags": names::address_flags(addr.family, *old_flags), "flags": names::address_flags(addr.family, addr.flags) }),
        ),
        Change::RouteAdded { route: r, dev } => (
            "route_added",
            json!({ "dst": route_dst(r), "gateway": r.gateway, "oif": dev, "oif_index": r.oif, "table": names::route_table(r.table),
                    "origin": r.origin.kind(), "rule": match r.origin { Origin::KernelRule(_, k) => Some(k.name()), _ => None } }),
        ),
        Change::RouteRemoved { route: r, dev } => (
            "route_removed",
            json!({ "dst": route_dst(r), "gateway": r.gateway, "oif": dev, "oif_index": r.oif, "table": names::route_table(r.table) }),
        ),
        Change::DumpApplied {
            kind,
            family,
            entries,
            disagreements,
            revealed,
            dump_packet,
        } => (
            "dump_applied",
            json!({ "kind": kind, "family": names::address_family(*family), "entries": entries,
                    "disagreements": disagreements, "revealed": revealed, "dump_packet": dump_packet }),
        ),
        Change::Unnotified { change, dump_packet } => {
            let (kind, mut detail) = json_parts(change);
            if let Some(o) = detail.as_object_mut() {
                o.insert("unnotified".into(), true.into());
                o.insert("dump_packet".into(), (*dump_packet).into());
            }
            (kind, detail)
        }
    }
}

pub fn write_event_json(out: &mut dyn Write, e: &Event) -> io::Result<()> {
    let (kind, detail) = json_parts(&e.change);
    let obj = json!({
        "packet": e.packet,
        "ts": e.ts.map(|t| t.as_secs_f64()),
        "change": kind,
        "text": describe(&e.change),
        "detail": detail,
    });
    serde_json::to_writer(&mut *out, &obj).map_err(io::Error::from)?;
    writeln!(out)
}

/// Prints each change as the model reports it (text or JSON Lines); keeps
/// the first write error, which [`TimelinePrinter::finish`] returns.
pub struct TimelinePrinter<W: Write> {
    out: W,
    json: bool,
    style: Style,
    error: Option<io::Error>,
    /// Who asked for the tables: said inline where each answer ended.
    looks: crate::looks::Looks,
    /// The last message seen: where the closing JSON line stands.
    last: Option<(u64, Option<crate::capture::Timestamp>)>,
}

impl<W: Write> TimelinePrinter<W> {
    pub fn new(out: W, json: bool, style: Style) -> Self {
        TimelinePrinter {
            out,
            json,
            style,
            error: None,
            looks: crate::looks::Looks::new(),
            last: None,
        }
    }

    fn looked(
        &mut self,
        packet: u64,
        ts: Option<crate::capture::Timestamp>,
        r: &crate::looks::Asked,
    ) -> io::Result<()> {
        let port = r.port.map(|p| format!(" (port {p})")).unwrap_or_default();
        let text = if r.library == crate::looks::Library::Unknown {
            format!("? an unknown program asked for {}{port}", r.asked())
        } else {
            format!("? {} looked here: {}{port}", r.library.name(), r.asked())
        };
        if self.json {
            let obj = serde_json::json!({
                "packet": packet,
                "ts": ts.map(|t| t.secs as f64 + f64::from(t.nanos) / 1e9),
                "change": "looked",
                "text": text,
                "detail": { "library": r.library, "request_packet": r.packet, "port": r.port,
                            "asked": r.asked(), "confidence": r.confidence },
            });
            serde_json::to_writer(&mut self.out, &obj).map_err(io::Error::from)?;
            writeln!(self.out)
        } else {
            writeln!(
                self.out,
                "{} {} {}",
                self.style.dim(format!("{packet:>6}")),
                format_ts(ts),
                self.style.dim(text)
            )
        }
    }

    /// Ends the listing; JSON closes with the `end` line that carries what
    /// the rebuild rests on (text leaves that to the summary on stderr).
    pub fn finish(mut self, grounds: &Grounds) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.json {
            let (packet, ts) = self.last.unwrap_or((0, None));
            let obj = json!({
                "packet": packet,
                "ts": ts.map(|t| t.as_secs_f64()),
                "change": "end",
                "text": "end of the capture",
                "detail": { "warnings": grounds.warnings, "assumptions": grounds.assumptions },
            });
            serde_json::to_writer(&mut self.out, &obj).map_err(io::Error::from)?;
            writeln!(self.out)?;
        }
        self.out.flush()
    }
}

impl<W: Write> crate::model::ChangeSink for TimelinePrinter<W> {
    fn message(&mut self, m: &crate::trace::TraceMessage<'_>) {
        self.last = Some((m.packet, m.ts));
        if self.error.is_some() {
            return;
        }
        // Programs `who` can name; the others are listed by `who` alone.
        if let Some(r) = self.looks.observe(m)
            && r.dump
            && r.library != crate::looks::Library::Unknown
            && let Err(e) = self.looked(m.packet, m.ts, &r)
        {
            self.error = Some(e);
        }
    }

    fn change(&mut self, event: Event) {
        if self.error.is_some() {
            return;
        }
        let r = if self.json {
            write_event_json(&mut self.out, &event)
        } else {
            write_event_text(&mut self.out, &event, &self.style)
        };
        self.error = r.err();
    }
}
