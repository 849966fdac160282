//! What a detection replayed, in words: `detect`'s `semantics:` line and
//! JSON's `semantics`, and the warning for a calico-node release later
//! than any nlorder knows.
//!
//! Contract: `Display` only, one line per value; the replays hand out
//! [`Semantics`], never these words. Each program's line lives in its own
//! wording file; here is the dispatch to it, generated from
//! `crate::replay::for_each_vocabulary!`.

use std::fmt;

use crate::replay::semantics::Semantics;

/// Each program's `semantics:` line, dispatched to its own wording file
/// (`crate::replay::for_each_vocabulary!`).
macro_rules! semantics_display {
    ($($Variant:ident $module:ident $whose:literal,)*) => {
        impl fmt::Display for Semantics {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $( Semantics::$Variant(s) => s.fmt(f), )*
                }
            }
        }
    };
}
crate::replay::for_each_vocabulary!(semantics_display);

serialize_as_words!(Semantics);

pub use super::calico::newer_release;
