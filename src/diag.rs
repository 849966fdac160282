//! Diagnostics: what was skipped or doubtful, and where.
//!
//! Contract: every layer reports problems it recovered from as a
//! [`Diagnostic`] naming the packet (1-based record number, as `decode`
//! prints it) and the byte offset in the input stream, then keeps going.
//! [`Diagnostics`] keeps the first [`Diagnostics::KEEP`] of them and counts
//! the rest, so memory stays bounded on a hostile file.

use std::fmt;
use std::io::Write as _;

/// Writes one line to standard error, as `eprintln!` does, but says
/// nothing when standard error is gone (`nlorder ... 2>&1 | head`): a
/// closed pipe ends a subcommand quietly, whichever stream it was.
pub fn say(line: fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// One problem a layer recovered from, and where in the input it was.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    /// 1-based packet (record) number, when the problem belongs to one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet: Option<u64>,
    /// Byte offset in the (decompressed) input stream.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// What was wrong and what was done about it.
    pub message: String,
}

impl Diagnostic {
    /// A problem in packet record `packet`, which starts at byte `offset`.
    pub fn record(packet: u64, offset: u64, message: impl Into<String>) -> Self {
        Self {
            packet: Some(packet),
            offset: Some(offset),
            message: message.into(),
        }
    }

    /// A problem at byte `offset` that belongs to no packet (a block, a
    /// header).
    pub fn at(offset: u64, message: impl Into<String>) -> Self {
        Self {
            packet: None,
            offset: Some(offset),
            message: message.into(),
        }
    }

    /// A problem of the whole input, at no particular place.
    pub fn general(message: impl Into<String>) -> Self {
        Self {
            packet: None,
            offset: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.packet, self.offset) {
            (Some(p), Some(o)) => write!(f, "packet {p} (byte offset {o}): {}", self.message),
            (Some(p), None) => write!(f, "packet {p}: {}", self.message),
            (None, Some(o)) => write!(f, "byte offset {o}: {}", self.message),
            (None, None) => f.write_str(&self.message),
        }
    }
}

/// A bounded collection of diagnostics.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    kept: Vec<Diagnostic>,
    dropped: u64,
}

impl Diagnostics {
    /// How many diagnostics are kept; later ones are only counted.
    pub const KEEP: usize = 1000;

    /// Keeps `d`, or only counts it once [`Self::KEEP`] are kept.
    pub fn push(&mut self, d: Diagnostic) {
        if self.kept.len() < Self::KEEP {
            self.kept.push(d);
        } else {
            self.dropped += 1;
        }
    }

    /// [`Self::push`] of a diagnostic made only when it is kept (a long
    /// capture can count a thousand times more than are kept).
    pub fn push_with(&mut self, make: impl FnOnce() -> Diagnostic) {
        if self.kept.len() < Self::KEEP {
            self.kept.push(make());
        } else {
            self.dropped += 1;
        }
    }

    /// The kept diagnostics, in the order they were pushed.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.kept.iter()
    }

    /// How many were pushed, kept or not.
    pub fn len(&self) -> u64 {
        self.kept.len() as u64 + self.dropped
    }

    /// Nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// How many were counted but not kept.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Takes `other`'s diagnostics after these (kept as [`Self::push`]
    /// keeps them; those `other` only counted are counted).
    pub fn append(&mut self, other: Diagnostics) {
        self.dropped += other.dropped;
        for d in other.kept {
            self.push(d);
        }
    }
}

#[cfg(test)]
#[path = "diag_tests.rs"]
mod tests;
