//! The moment a table, detection or resolver order was evaluated at, as
//! every printer shows it.
//!
//! Contract: [`json()`] is the one JSON shape of a moment (`moment` in the
//! documents of `table`, `detect` and `gai`); text printers use
//! [`crate::rebuild::Moment::describe`].

use serde_json::{Value, json};

use crate::rebuild::{Moment, Outside};

/// `{"packet", "time", "at", "end_of_capture", "outside", "inferred",
/// "description"}`: the last record applied and its time, the `--at` asked
/// for, whether that is the end of the capture, `before`/`after` when
/// `--at` lies outside it, whether `--at auto` only inferred the moment
/// (Go's own resolver), and the moment in words.
pub fn json(m: &Moment) -> Value {
    json!({
        "packet": m.packet,
        "time": m.ts.map(|t| t.rfc3339()),
        "at": m.at.map(|a| a.describe()),
        "end_of_capture": m.to_end,
        "outside": m.outside().map(|o| match o {
            Outside::Before => "before",
            Outside::After => "after",
        }),
        "inferred": m.inferred,
        "description": m.describe(),
    })
}
