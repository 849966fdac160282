//! The moment a table, detection or resolver order was evaluated at, as
//! every printer shows it.
//!
//! Contract: [`json()`] is the one JSON shape of a moment (`moment` in the
//! documents of `table`, `detect` and `gai`); text printers use
//! [`describe`]; [`outside_warning`] says an `--at` outside the capture.
//! Why `--at auto` chose a moment arrives as a value
//! ([`crate::looks::Chosen`]) and is worded here.

use serde::Serialize;

use crate::capture::Timestamp;
use crate::ingest::rebuild::{At, Moment, Outside};
use crate::looks::{Chosen, ChosenLook, Looker};
use crate::model::ObjectKind;

/// A moment in JSON: the last record applied and its time, the `--at`
/// asked for, whether that is the end of the capture, `before`/`after`
/// when `--at` lies outside it, whether `--at auto` only inferred the
/// moment (Go's own resolver), and the moment in words.
#[derive(Debug, Serialize)]
pub struct JsonMoment {
    packet: u64,
    time: Option<String>,
    at: Option<String>,
    end_of_capture: bool,
    outside: Option<&'static str>,
    inferred: bool,
    /// The capture is cut (a record cut short, a gzip stream ending early):
    /// `truncated_after` names its last whole record.
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated_after: Option<u64>,
    /// The tables are a snapshot's: one dump at one moment, no packet.
    snapshot: bool,
    description: String,
}

/// The one JSON shape of a moment.
pub fn json(m: &Moment) -> JsonMoment {
    JsonMoment {
        packet: m.packet,
        time: m.ts.map(|t| t.rfc3339()),
        at: m.at.map(|a| a.describe()),
        end_of_capture: m.to_end,
        outside: m.outside().map(|o| match o {
            Outside::Before => "before",
            Outside::After => "after",
        }),
        inferred: m.inferred,
        truncated: m.truncated_after.is_some(),
        truncated_after: m.truncated_after,
        snapshot: m.snapshot,
        description: describe(m),
    }
}

/// `packet 10, 2026-…Z (the end of the capture)`.
pub fn describe(m: &Moment) -> String {
    if m.snapshot {
        return "the snapshot (one dump of each table at one moment)".to_owned();
    }
    let when = |p: u64, ts: Option<Timestamp>| match ts {
        Some(t) => format!("packet {p}, {}", t.rfc3339()),
        None => format!("packet {p}"),
    };
    if let Some(why) = &m.chosen {
        let cut = m
            .truncated_after
            .map(|n| format!("; {}", end_of_capture(n)))
            .unwrap_or_default();
        return format!("{} ({}{cut})", when(m.packet, m.ts), chosen(why));
    }
    if let Some(n) = m.truncated_after {
        let end = end_of_capture(n);
        return match (m.at, m.outside()) {
            (None, _) => format!("{} ({end})", when(m.packet, m.ts)),
            (Some(_), Some(Outside::Before)) => "the start, before the first packet (nothing applied)".to_owned(),
            (Some(_), Some(Outside::After)) => format!("{} ({end}; --at lies after it)", when(m.packet, m.ts)),
            (Some(At::AfterEnd(s)), None) => format!(
                "{}s after {} ({end}; the kernel's timers ran on, nothing else is known)",
                s as f64 / 1e9,
                when(m.packet, m.ts)
            ),
            (Some(at), None) => format!("{} (--at {}; {end})", when(m.packet, m.ts), at.describe()),
        };
    }
    match (m.at, m.outside()) {
        (None, _) => format!("{} (the end of the capture)", when(m.packet, m.ts)),
        (Some(_), Some(Outside::Before)) => "the start, before the first packet (nothing applied)".to_owned(),
        (Some(_), Some(Outside::After)) => {
            format!("{} (the end of the capture: --at lies after it)", when(m.packet, m.ts))
        }
        (Some(At::AfterEnd(n)), None) => format!(
            "{}s after {} (the end of the capture; the kernel's timers ran on, nothing else is known)",
            n as f64 / 1e9,
            when(m.packet, m.ts)
        ),
        (Some(at), None) => format!("{} (--at {})", when(m.packet, m.ts), at.describe()),
    }
}

/// `the end of the capture, truncated after record 12: what followed is unknown`.
pub fn end_of_capture(last_whole: u64) -> String {
    format!("the end of the capture, truncated after record {last_whole}: what followed it is unknown")
}

/// The warning for a moment asked for outside the capture, naming its
/// range and the setting as the user wrote it (`--at`, or `at =` in a
/// manifest).
pub fn outside_warning(m: &Moment, setting: &str) -> Option<String> {
    let side = m.outside()?;
    let at = m.at?.describe();
    let when = |(p, ts): (u64, Option<Timestamp>)| match ts {
        Some(t) => format!("packet {p}, {}", t.rfc3339()),
        None => format!("packet {p}"),
    };
    let range = match (m.first, m.last) {
        (Some(f), Some(l)) if m.to_end => format!("{} to {}", when(f), when(l)),
        (Some(f), _) => format!("from {}", when(f)),
        _ => "empty".to_owned(),
    };
    Some(match side {
        Outside::Before => format!("{setting} {at} is before the capture ({range}): nothing was applied"),
        // a packet number names no time: nothing runs on past the last record
        Outside::After if matches!(m.at, Some(At::Packet(_))) => {
            format!("{setting} {at} is after the capture ({range}): its end state is used")
        }
        Outside::After => format!(
            "{setting} {at} is after the capture ({range}): its end state is used, with the kernel's timers \
             (duplicate address detection, address lifetimes) run on to {at}"
        ),
    })
}

/// Why `--at auto` evaluated where it did.
fn chosen(c: &Chosen) -> String {
    match c {
        Chosen::Look(l) => chosen_look(l),
        Chosen::NobodyAsks => "--at auto: this resolver asks netlink for nothing (it connects UDP sockets to learn \
                               sources), so no look marks its moment; the end of the capture is used"
            .to_owned(),
        Chosen::NoGoProgramLooked => "--at auto: Go's own resolver asks netlink for nothing (it connects UDP sockets \
                                      to learn sources), and no Go program that sent no __check_pf enumerated \
                                      interfaces in this capture (the program that resolves usually does), so \
                                      nothing marks its moment; the end of the capture is used"
            .to_owned(),
        Chosen::OneRequest => "--at auto: this program asks with one request (`ip route get`), not a dump, and \
                               nlorder finds no look of it; the end of the capture is used"
            .to_owned(),
        Chosen::NoLook(who) => format!(
            "--at auto: no {} looked at the tables in this capture; its end is used",
            looker_name(*who)
        ),
    }
}

/// `--at auto: the last of 3 Go program looks: …`.
fn chosen_look(l: &ChosenLook) -> String {
    let (label, why) = if l.looker.inferred() {
        let left_out = match l.cgo_ports.len() {
            0 => String::new(),
            n => format!(
                "; port{} {} also sent __check_pf: {}, left out",
                if n == 1 { "" } else { "s" },
                l.cgo_ports.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
                if n == 1 { "a cgo program" } else { "cgo programs" },
            ),
        };
        (
            ", inferred",
            format!(
                ". Go's own resolver asks netlink for nothing; the program that resolves usually enumerates \
                 its interfaces too, and a look's port is its process id{left_out}"
            ),
        )
    } else {
        ("", String::new())
    };
    let which = if l.every {
        format!("look {} of the capture", l.look.number)
    } else {
        format!("the last of {} {} looks", l.total, looker_name(l.looker))
    };
    let port = l.look.port.map(|p| format!(", port {p}")).unwrap_or_default();
    format!(
        "--at auto{label}: {which}: {} ({}){port}, requests in packets {}; its {} as those dumps returned them{why}",
        l.look.library.name(),
        l.look.confidence.name(),
        l.look
            .requests
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        kinds(&l.look.asked),
    )
}

/// The program's name in `--at auto`'s words.
fn looker_name(l: Looker) -> &'static str {
    match l {
        Looker::Go | Looker::GoResolver => "Go program",
        Looker::GlibcGetaddrinfo => "glibc getaddrinfo",
        Looker::Nobody => "resolver that asks netlink for nothing",
        Looker::OneRequest => "program asking with one request",
    }
}

/// `links and addresses`.
fn kinds(asked: &[ObjectKind]) -> String {
    let names: Vec<&str> = [
        (ObjectKind::Links, "links"),
        (ObjectKind::Addresses, "addresses"),
        (ObjectKind::Routes, "routes"),
    ]
    .iter()
    .filter(|(k, _)| asked.contains(k))
    .map(|(_, n)| *n)
    .collect();
    match names.as_slice() {
        [one] => (*one).to_owned(),
        [a, b] => format!("{a} and {b}"),
        _ => names.join(", "),
    }
}
