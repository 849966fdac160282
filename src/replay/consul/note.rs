//! Consul's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::consul`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use std::net::IpAddr;

/// Consul's own notes (nested as [`crate::replay::note::Note::Own`]; worded in
/// `report::consul`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// No up non-loopback interface has an address: loopback ones count.
    ConsulLoopbackOnly,
    /// The private addresses that made Consul refuse.
    ConsulCandidates {
        /// The private addresses.
        ips: Vec<IpAddr>,
    },
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why Consul took or passed over an interface or address (nested as
/// [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// A loopback interface, read only when no other has addresses.
    LoopbackNotNeeded,
    /// A private IPv4 address by Consul's list.
    ConsulPrivate,
    /// Outside Consul's private IPv4 blocks.
    NotConsulPrivate,
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}
