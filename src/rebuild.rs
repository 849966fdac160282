//! Rebuilding the kernel model from a capture, up to a chosen moment.
//!
//! Contract: streams the capture once through the trace and the model,
//! stopping after the record the user named (`--at PACKET`) or the last
//! record at or before a time (`--at TIME`); changes go to the caller's
//! sink. Memory: one record plus the model.

use crate::bad_value::BadValue;
use crate::capture::{self, CaptureReader, Timestamp};
use crate::diag::Diagnostics;
use crate::model::{ChangeSink, Model, ModelOptions};
use crate::trace::{TraceOptions, TraceStats, read_trace};

/// A moment in the capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// Once record N (1-based, as `decode` numbers them) had been applied.
    Packet(u64),
    /// Once the last record at or before this time had been applied.
    Time(Timestamp),
}

impl std::str::FromStr for At {
    type Err = BadValue;

    /// `123` is a packet number; `1700000000.25` (epoch seconds) or
    /// `2024-03-13T21:53:37.7Z` (RFC 3339) is a time.
    fn from_str(s: &str) -> Result<Self, BadValue> {
        if let Ok(n) = s.parse::<u64>()
            && n < 1_000_000_000
        {
            return Ok(At::Packet(n));
        }
        if let Ok(secs) = s.parse::<f64>()
            && secs.is_finite()
            && secs >= 0.0
        {
            let whole = secs.trunc();
            return Ok(At::Time(Timestamp {
                secs: whole as i64,
                nanos: ((secs - whole) * 1e9).round().min(999_999_999.0) as u32,
            }));
        }
        // humantime reads RFC 3339 in UTC only: a `+HH:MM`/`-HH:MM` offset
        // is taken off here and applied to the result.
        let (local, offset_secs) = split_utc_offset(s);
        match humantime::parse_rfc3339_weak(local) {
            Ok(t) => {
                let d = t
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_err(|_| BadValue::new(s, "before 1970"))?;
                Ok(At::Time(Timestamp {
                    secs: d.as_secs() as i64 - offset_secs,
                    nanos: d.subsec_nanos(),
                }))
            }
            Err(_) => Err(BadValue::new(
                s,
                "neither a packet number nor a time (epoch seconds or RFC 3339)",
            )),
        }
    }
}

/// `2026-11-21T20:47:10.02+01:00` -> (`2026-11-21T20:47:10.02`, 3600): an
/// RFC 3339 time's numeric UTC offset, in seconds east of UTC (`Z` and
/// times without an offset: 0).
fn split_utc_offset(s: &str) -> (&str, i64) {
    let Some(t) = s.find(['T', 't', ' ']) else {
        return (s, 0);
    };
    let time = &s[t..];
    let Some(p) = time.rfind(['+', '-']) else {
        return (s, 0);
    };
    let off = &time[p + 1..];
    let parsed = match off.split_once(':') {
        Some((h, m)) if h.len() == 2 && m.len() == 2 => h.parse::<i64>().ok().zip(m.parse::<i64>().ok()),
        _ => None,
    };
    match parsed {
        Some((h, m)) if h < 24 && m < 60 => {
            let secs = h * 3600 + m * 60;
            let sign = if time.as_bytes().get(p) == Some(&b'-') { -1 } else { 1 };
            (&s[..t + p], sign * secs)
        }
        _ => (s, 0),
    }
}

/// `--at` of the replays: a moment, or `auto`: the last time the replayed
/// program looked at the tables (see [`crate::looks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtSpec {
    Moment(At),
    Auto,
}

impl std::str::FromStr for AtSpec {
    type Err = BadValue;

    fn from_str(s: &str) -> Result<Self, BadValue> {
        if s == "auto" {
            return Ok(AtSpec::Auto);
        }
        s.parse().map(AtSpec::Moment).map_err(|_| {
            BadValue::new(
                s,
                "neither auto, a packet number nor a time (epoch seconds or RFC 3339)",
            )
        })
    }
}

impl AtSpec {
    pub fn moment(self) -> Option<At> {
        match self {
            AtSpec::Moment(a) => Some(a),
            AtSpec::Auto => None,
        }
    }
}

/// A moment as manifests write it: a packet number, or a time as text
/// (resolved when the expectation runs, so a bad one fails that expectation).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(untagged)]
pub enum AtValue {
    Packet(u64),
    Text(String),
}

impl AtValue {
    pub fn resolve(&self) -> Result<AtSpec, BadValue> {
        match self {
            AtValue::Packet(p) => Ok(AtSpec::Moment(At::Packet(*p))),
            AtValue::Text(t) => t.parse(),
        }
    }
}

/// The result of a rebuild.
pub struct Rebuilt {
    pub model: Model,
    pub stats: TraceStats,
    /// The last record applied.
    pub last_packet: u64,
    /// The moment the model stands at, and how it relates to the capture.
    pub moment: Moment,
}

/// Where a rebuild stopped: the moment every replay of it evaluates.
#[derive(Debug, Clone, PartialEq)]
pub struct Moment {
    /// The `--at` asked for, if any.
    pub at: Option<At>,
    /// The last record applied (0: none) and its time.
    pub packet: u64,
    pub ts: Option<Timestamp>,
    /// The capture's first and last records with netlink messages, as far
    /// as it was read (`last` is only the capture's end when `to_end`).
    pub first: Option<(u64, Option<Timestamp>)>,
    pub last: Option<(u64, Option<Timestamp>)>,
    /// Whether the capture was read to its end (no `--at`, or one at or
    /// after its last record).
    pub to_end: bool,
    /// Why this moment, when nlorder chose it (`--at auto`).
    pub chosen: Option<String>,
}

/// An `--at` that names no moment inside the capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outside {
    /// Before its first record: nothing was applied.
    Before,
    /// After its last record: the end state was used.
    After,
}

impl Moment {
    /// Before the first record, asked for `at`.
    pub fn start(at: Option<At>) -> Moment {
        Moment {
            at,
            packet: 0,
            ts: None,
            first: None,
            last: None,
            to_end: true,
            chosen: None,
        }
    }

    /// Whether `--at` lies outside the capture.
    pub fn outside(&self) -> Option<Outside> {
        let at = self.at?;
        self.first?;
        if self.packet == 0 {
            return Some(Outside::Before);
        }
        if !self.to_end {
            return None;
        }
        let (last, last_ts) = self.last?;
        let after = match at {
            At::Packet(n) => n > last,
            At::Time(t) => last_ts.is_some_and(|l| t > l),
        };
        after.then_some(Outside::After)
    }

    /// `packet 10, 2026-…Z (the end of the capture)`.
    pub fn describe(&self) -> String {
        let when = |p: u64, ts: Option<Timestamp>| match ts {
            Some(t) => format!("packet {p}, {}", t.rfc3339()),
            None => format!("packet {p}"),
        };
        if let Some(why) = &self.chosen {
            return format!("{} ({why})", when(self.packet, self.ts));
        }
        match (self.at, self.outside()) {
            (None, _) => format!("{} (the end of the capture)", when(self.packet, self.ts)),
            (Some(_), Some(Outside::Before)) => "before the first packet (nothing applied)".to_owned(),
            (Some(_), Some(Outside::After)) => {
                format!(
                    "{} (the end of the capture: --at lies after it)",
                    when(self.packet, self.ts)
                )
            }
            (Some(at), None) => format!("{} (--at {})", when(self.packet, self.ts), at.describe()),
        }
    }

    /// The warning for an `--at` outside the capture, naming its range.
    pub fn outside_warning(&self) -> Option<String> {
        let side = self.outside()?;
        let at = self.at?.describe();
        let when = |(p, ts): (u64, Option<Timestamp>)| match ts {
            Some(t) => format!("packet {p}, {}", t.rfc3339()),
            None => format!("packet {p}"),
        };
        let range = match (self.first, self.last) {
            (Some(f), Some(l)) if self.to_end => format!("{} to {}", when(f), when(l)),
            (Some(f), _) => format!("from {}", when(f)),
            _ => "empty".to_owned(),
        };
        Some(match side {
            Outside::Before => format!("--at {at} is before the capture ({range}): nothing was applied"),
            Outside::After => format!("--at {at} is after the capture ({range}): its end state is used"),
        })
    }
}

impl At {
    /// As the user would write it: `12` or an RFC 3339 time.
    pub fn describe(&self) -> String {
        match self {
            At::Packet(n) => n.to_string(),
            At::Time(t) => t.rfc3339(),
        }
    }
}

pub fn rebuild<S: ChangeSink>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    at: Option<At>,
    diags: &mut Diagnostics,
    sink: &mut S,
) -> Result<Rebuilt, capture::Error> {
    let mut model = Model::new(options);
    let mut moment = Moment::start(at);
    let stats = read_trace(reader, trace, diags, |m| {
        moment.first.get_or_insert((m.packet, m.ts));
        moment.last = Some((m.packet, m.ts));
        let past = match at {
            Some(At::Packet(n)) => m.packet > n,
            Some(At::Time(t)) => m.ts.is_some_and(|ts| ts > t),
            None => false,
        };
        if past {
            moment.to_end = false;
            return false;
        }
        moment.packet = m.packet;
        moment.ts = m.ts;
        sink.message(m);
        model.apply(m, sink);
        true
    })?;
    model.finish(sink);
    Ok(Rebuilt {
        model,
        stats,
        last_packet: moment.packet,
        moment,
    })
}

/// A moment when a re-evaluated result changed.
#[derive(Debug, Clone)]
pub struct Flip<T> {
    pub packet: u64,
    pub ts: Option<Timestamp>,
    pub before: Option<T>,
    pub after: T,
    /// The changes in that message that caused the re-evaluation.
    pub causes: Vec<crate::model::Event>,
}

/// Rebuilds the model and re-evaluates `eval` after every message that
/// changed it; returns the moments the result changed (the first
/// evaluation included) and the final rebuild.
pub fn watch<T: PartialEq + Clone>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    diags: &mut Diagnostics,
    mut eval: impl FnMut(&Model) -> T,
) -> Result<(Vec<Flip<T>>, Rebuilt), capture::Error> {
    let mut model = Model::new(options);
    let mut moment = Moment::start(None);
    let mut flips: Vec<Flip<T>> = Vec::new();
    let mut events: Vec<crate::model::Event> = Vec::new();
    let stats = read_trace(reader, trace, diags, |m| {
        moment.first.get_or_insert((m.packet, m.ts));
        moment.last = Some((m.packet, m.ts));
        moment.packet = m.packet;
        moment.ts = m.ts;
        events.clear();
        model.apply(m, &mut events);
        // Before any address is known there is nothing to choose from.
        if !events.is_empty() && !model.addresses(None).is_empty() {
            let now = eval(&model);
            let before = flips.last().map(|f| f.after.clone());
            if before.as_ref() != Some(&now) {
                flips.push(Flip {
                    packet: m.packet,
                    ts: m.ts,
                    before,
                    after: now,
                    causes: events.clone(),
                });
            }
        }
        true
    })?;
    model.finish(&mut ());
    Ok((
        flips,
        Rebuilt {
            model,
            stats,
            last_packet: moment.packet,
            moment,
        },
    ))
}

/// Rebuilds the whole capture, evaluating `eval` on the model as it stood
/// once each of `packets` (ascending) had been applied; returns the
/// evaluations with their moments, and the final rebuild.
pub fn evaluate_at<T>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    packets: &[u64],
    diags: &mut Diagnostics,
    mut eval: impl FnMut(&Model) -> T,
) -> Result<(Vec<(Moment, T)>, Rebuilt), capture::Error> {
    let mut model = Model::new(options);
    let mut moment = Moment::start(None);
    let mut out = Vec::new();
    let mut next = packets.iter().copied().peekable();
    let stats = read_trace(reader, trace, diags, |m| {
        while let Some(p) = next.next_if(|p| m.packet > *p) {
            let mut at = moment.clone();
            at.at = Some(At::Packet(p));
            at.to_end = false;
            out.push((at, eval(&model)));
        }
        moment.first.get_or_insert((m.packet, m.ts));
        moment.last = Some((m.packet, m.ts));
        moment.packet = m.packet;
        moment.ts = m.ts;
        model.apply(m, &mut ());
        true
    })?;
    model.finish(&mut ());
    for p in next {
        let mut at = moment.clone();
        at.at = Some(At::Packet(p));
        out.push((at, eval(&model)));
    }
    Ok((
        out,
        Rebuilt {
            model,
            stats,
            last_packet: moment.packet,
            moment,
        },
    ))
}
