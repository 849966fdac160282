//! Nomad's words (go-sockaddr's `GetPrivateIP`): its `semantics:` line,
//! its notes, reasons and failure.
//!
//! Contract: `Display` only; the replay ([`crate::replay::nomad`]) hands
//! out values.

use std::fmt;

use crate::replay::nomad::{Failure, Note, Reason};

/// The `semantics:` line.
impl fmt::Display for crate::replay::nomad::Nomad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "nomad (go-sockaddr GetPrivateIP): forwardable addresses of up interfaces, default-route \
             interface first, IPv4 before IPv6, then by network size; the first RFC 6890 one",
        )
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::NomadDefaultInterface { interface } => {
                write!(
                    f,
                    "default interface {interface} (`ip route`'s first `default via` line)"
                )
            }
            Note::NomadNoDefaultInterface => f.write_str("no `default via` route: no interface is sorted first"),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::DefaultInterface => f.write_str("default-route interface: sorted first"),
            Reason::NotForwardable => f.write_str("not forwardable (go-sockaddr's forwarding blacklist)"),
            Reason::FirstRfc6890 => f.write_str("first RFC 6890 address after the sort"),
            Reason::NotRfc6890 => f.write_str("outside every RFC 6890 block"),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::NoPrivateIp => f.write_str("GetPrivateIP found no private address: no default advertise address"),
        }
    }
}
