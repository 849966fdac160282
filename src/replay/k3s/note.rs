//! k3s's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::k3s`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use std::net::IpAddr;

/// k3s's own notes (nested as [`crate::replay::note::Note::Own`]; worded in
/// `report::k3s`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The second node IP, IPv6, from `ResolveBindAddress(::1)`.
    SecondNodeIp {
        /// The IPv6 node IP.
        ip: IpAddr,
        /// The interface it is on.
        interface: String,
    },
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why k3s took or passed over an interface (nested as
/// [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The interface the flags name (`--flannel-iface`).
    NamedInterface,
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}
