//! Moments of a capture: how the user names one (`--at PACKET|TIME|end+SECS|auto`,
//! a manifest's `at`), and where a rebuild stopped and why.
//!
//! Contract: [`At`], [`AtSpec`] and [`AtValue`] parse what users write
//! (RFC 3339 with either offset sign, epoch seconds, packet numbers);
//! [`Moment`] says which record a model stands at, the capture's range,
//! and whether an `--at` fell outside it ([`Outside`]); the report says
//! both in words (`report::moment`).

use crate::bad_value::BadValue;
use crate::capture::Timestamp;
/// A moment in the capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// Once record N (1-based, as `decode` numbers them) had been applied.
    Packet(u64),
    /// Once the last record at or before this time had been applied, and
    /// the kernel's own timers (the end of duplicate address detection,
    /// address lifetimes) had run up to it.
    Time(Timestamp),
    /// This many nanoseconds after the last record: the end state, with the
    /// kernel's timers run on that long and nothing else assumed to happen
    /// (what `ip` shows a few seconds after a capture of a quiet host).
    AfterEnd(u64),
}

impl std::str::FromStr for At {
    type Err = BadValue;

    /// `123` is a packet number; `1700000000.25` (epoch seconds) or
    /// `2024-03-13T21:53:37.7Z` (RFC 3339) is a time; `end+3` or `end+2.5s`
    /// is that many seconds after the last record.
    fn from_str(s: &str) -> Result<Self, BadValue> {
        if let Some(after) = s.strip_prefix("end+") {
            let secs = after.strip_suffix('s').unwrap_or(after);
            return match secs.parse::<f64>() {
                Ok(x) if x.is_finite() && (0.0..=1e9).contains(&x) => Ok(At::AfterEnd((x * 1e9).round() as u64)),
                _ => Err(BadValue::new(
                    s,
                    "not a number of seconds after the last packet (end+3, end+2.5s)",
                )),
            };
        }
        if let Ok(n) = s.parse::<u64>()
            && n < 1_000_000_000
        {
            return Ok(At::Packet(n));
        }
        if let Ok(secs) = s.parse::<f64>()
            && secs.is_finite()
            && secs >= 0.0
        {
            // (a time past RFC 3339's last year names no moment anyone
            // captured, and would be said back as a saturated number)
            if secs > LAST_RFC3339_SECS {
                return Err(BadValue::new(
                    s,
                    "after the year 9999 as epoch seconds (a whole number below 1000000000 is a packet number, \
                     from 1000000000 on epoch seconds)",
                ));
            }
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
                "neither a packet number, a time (epoch seconds or RFC 3339) nor end+SECONDS",
            )),
        }
    }
}

/// 9999-12-31T23:59:59Z, the last second RFC 3339 can write.
const LAST_RFC3339_SECS: f64 = 253_402_300_799.0;

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
    /// A moment given outright.
    Moment(At),
    /// The end of the replayed program's last look at the tables.
    Auto,
}

impl std::str::FromStr for AtSpec {
    type Err = BadValue;

    fn from_str(s: &str) -> Result<Self, BadValue> {
        if s == "auto" {
            return Ok(AtSpec::Auto);
        }
        s.parse().map(AtSpec::Moment).map_err(|e| {
            // a number's own reason (too late a time) says more than the
            // list; `inf` and `nan` read as floats but are no number to say so
            if s.parse::<f64>().is_ok_and(f64::is_finite) {
                return e;
            }
            BadValue::new(
                s,
                "neither auto, a packet number, a time (epoch seconds or RFC 3339) nor end+SECONDS",
            )
        })
    }
}

impl AtSpec {
    /// The moment given outright; `None` for `auto`.
    pub(crate) fn moment(self) -> Option<At> {
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
    /// A YAML/TOML integer: the packet number.
    Packet(u64),
    /// Anything else, parsed as `--at` is (`auto`, a time, `end+SECS`).
    Text(String),
}

/// As the manifest writes it (`11`, `auto`, `2024-03-13T21:53:37.7Z`).
impl std::fmt::Display for AtValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AtValue::Packet(p) => write!(f, "{p}"),
            AtValue::Text(t) => f.write_str(t),
        }
    }
}

impl AtValue {
    /// The `--at` this value stands for.
    pub(crate) fn resolve(&self) -> Result<AtSpec, BadValue> {
        match self {
            AtValue::Packet(p) => Ok(AtSpec::Moment(At::Packet(*p))),
            AtValue::Text(t) => t.parse(),
        }
    }
}

/// Where a rebuild stopped: the moment every replay of it evaluates.
#[derive(Debug, Clone, PartialEq)]
pub struct Moment {
    /// The `--at` asked for, if any.
    pub at: Option<At>,
    /// The last record applied (0: none) and its time.
    pub packet: u64,
    /// The time of that record; `None` when it has none, or no record was
    /// applied.
    pub ts: Option<Timestamp>,
    /// The capture's first and last records with netlink messages, as far
    /// as it was read (`last` is only the capture's end when `to_end`).
    pub first: Option<(u64, Option<Timestamp>)>,
    /// The last such record read, and its time (see `first`).
    pub last: Option<(u64, Option<Timestamp>)>,
    /// Whether the capture was read to its end (no `--at`, or one at or
    /// after its last record).
    pub to_end: bool,
    /// Why this moment, when nlorder chose it (`--at auto`).
    pub chosen: Option<crate::looks::Chosen>,
    /// Whether the moment is only inferred: the program's own requests do
    /// not show it (Go's resolver, from its program's interface look).
    pub inferred: bool,
    /// The capture read to its end is cut: the number of its last whole
    /// record (what came after it is unknown).
    pub truncated_after: Option<u64>,
    /// The tables are a snapshot's (`ip` output or a sosreport): one dump
    /// of each at one moment, no capture's packet.
    pub snapshot: bool,
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
            inferred: false,
            truncated_after: None,
            snapshot: false,
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
            // asked for on purpose: not a mistake to warn of
            At::AfterEnd(_) => false,
        };
        after.then_some(Outside::After)
    }
}

impl At {
    /// As the user would write it: `12` or an RFC 3339 time.
    pub fn describe(&self) -> String {
        match self {
            At::Packet(n) => n.to_string(),
            At::Time(t) => t.rfc3339(),
            At::AfterEnd(n) => format!("end+{}s", *n as f64 / 1e9),
        }
    }
}
