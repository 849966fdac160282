//! Consul's words (`GetPrivateIPv4`): its `semantics:` line, its notes and
//! reasons (its own messages are kept by the replay as it writes them).
//!
//! Contract: `Display` only; the replay ([`crate::replay::consul`]) hands
//! out values.

use std::fmt;

use super::reason::joined;
use crate::replay::consul::{Note, Reason};

/// The `semantics:` line.
impl fmt::Display for crate::replay::consul::Consul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "consul GetPrivateIPv4: the private IPv4 addresses of up interfaces (loopback only when no other \
             has an address); exactly one",
        )
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::ConsulLoopbackOnly => {
                f.write_str("no up non-loopback interface has an address: loopback addresses count")
            }
            Note::ConsulCandidates { ips } => write!(f, "private IPv4 addresses: {}", joined(ips, ", ")),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::LoopbackNotNeeded => f.write_str("loopback: read only when no other interface has addresses"),
            Reason::ConsulPrivate => f.write_str("private IPv4"),
            Reason::NotConsulPrivate => f.write_str("not in Consul's private IPv4 blocks"),
        }
    }
}
