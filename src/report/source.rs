//! The kernel's source-address choice in words: how a source was picked
//! ([`Why`]) and why none could be ([`NoSource`]), as `detect`'s notes and
//! `gai`'s sources say them.
//!
//! Contract: `Display` only, one sentence (or clause) per value, with no
//! line break; the replays hand out the values, never these words.

use std::fmt;

use crate::replay::source::{NoSource, Why};

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::LocalRouteSelf { src } => write!(f, "local address (local route src {src})"),
            Why::LocalRouteSrc { dst, src } => write!(f, "local route for {dst}: its src {src}, the subnet's primary"),
            Why::RouteSrc { src } => write!(f, "route's src {src}"),
            Why::Local => f.write_str("local address: itself"),
            Why::FirstPrimaryNear { device, near } => write!(f, "first primary of {device} in {near}'s subnet"),
            Why::FirstPrimary { device } => write!(f, "first primary of {device}"),
            Why::FirstPrimaryNotNear { device, near } => {
                write!(f, "first primary of {device} (none in {near}'s subnet)")
            }
            Why::OtherDevice { device, on } => write!(f, "{device} has no address; first suitable on {on}"),
            Why::DestinationLocal => f.write_str("the destination is a local address"),
            Why::Rfc6724 {
                source,
                scope,
                deprecated,
                on_device,
                label_matches,
                common_bits,
            } => write!(
                f,
                "RFC 6724 source selection: {source} (scope {scope}, {}, {} outgoing device, label {}, {common_bits} \
                 common bits)",
                if *deprecated { "deprecated" } else { "not deprecated" },
                if *on_device { "on the" } else { "not on the" },
                if *label_matches { "matching" } else { "not matching" },
            ),
        }
    }
}

impl fmt::Display for NoSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoSource::NoRoutes => f.write_str("the capture holds no routes of that family"),
            NoSource::Unreachable => f.write_str("no route matches (network unreachable)"),
            NoSource::Rejected { route, .. } => write!(f, "the matching route rejects it: {route}"),
            NoSource::NoAddress(device) => write!(f, "the output device {device} has no usable address"),
            NoSource::NextHopUnknown(route) => write!(
                f,
                "unknown: `{route}` has several next hops, and which one the kernel hashes the flow to (and \
                 so the source) the capture does not show"
            ),
        }
    }
}
