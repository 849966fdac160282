//! Why a candidate interface or address won or lost, in words: what
//! `detect` prints after each candidate's verdict, and JSON's `reason`.
//!
//! Contract: `Display` only, one clause per value, with no line break; the
//! replays hand out the values, never these words.

use std::fmt;

use crate::replay::goview::NotGlobal;

/// Go's terms.
impl fmt::Display for NotGlobal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotGlobal::Loopback => "loopback",
            NotGlobal::LinkLocal => "link-local",
            NotGlobal::Multicast => "multicast",
            NotGlobal::UnspecifiedOrBroadcast => "unspecified or broadcast",
        })
    }
}
