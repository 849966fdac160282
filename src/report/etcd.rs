//! etcd's words (`GetDefaultHost`): its `semantics:` line, its note and
//! reasons (its own messages are kept by the replay as it writes them).
//!
//! Contract: `Display` only; the replay ([`crate::replay::etcd`]) hands out
//! values.

use std::fmt;

use crate::replay::etcd::{Note, Reason};

/// The `semantics:` line.
impl fmt::Display for crate::replay::etcd::Etcd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "etcd GetDefaultHost: the last main-table default route of a family (IPv4 first): its prefsrc, \
             else the first address of its device (IFA_ADDRESS: the peer on point-to-point)",
        )
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::LastDefaultRoute { route, earlier } => write!(
                f,
                "{earlier} earlier default route(s) of the family lost: the last one, `{route}`, wins"
            ),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::FirstInDump => f.write_str("first address in the dump"),
            Reason::LastDefaultRoute { route } => write!(f, "last main-table default route `{route}`"),
            Reason::RoutePrefsrc { route } => write!(f, "prefsrc of the last main-table default route `{route}`"),
            Reason::NoOutputDevice { route } => write!(f, "default route `{route}` names no device (multipath)"),
            Reason::PeerAddress { local } => {
                write!(
                    f,
                    "first address in the dump; IFA_ADDRESS is the point-to-point peer (local {local})"
                )
            }
        }
    }
}
