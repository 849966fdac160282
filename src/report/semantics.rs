//! What a detection replayed, in words: `detect`'s `semantics:` line and
//! JSON's `semantics`, and the warning for a calico-node release later
//! than any nlorder knows.
//!
//! Contract: `Display` only, one line per value; the replays hand out
//! [`Semantics`], never these words. Each program's line lives in its own
//! wording file (the `Display` of its `Semantics`).

use std::fmt;

use crate::replay::semantics::Semantics;

impl fmt::Display for Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

serialize_as_words!(Semantics);

pub use super::calico::newer_release;
