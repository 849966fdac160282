//! kubeadm's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::kubeadm`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use std::net::IpAddr;

/// kubeadm's own notes (nested as [`crate::replay::note::Note::Own`]; worded
/// in `report::kubeadm`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// `--apiserver-advertise-address` given.
    AdvertiseGiven,
    /// The advertise address given is on no interface.
    AdvertiseNotOnHost {
        /// The advertise address.
        ip: IpAddr,
    },
    /// A loopback advertise address: a global address on `lo`.
    AdvertiseLoopback,
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why kubeadm took or passed over `lo` or one of its addresses (nested
/// as [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// `lo`, the interface a loopback advertise address selects.
    Loopback,
    /// Its first global unicast address, IPv4 before IPv6.
    FirstGlobalIpv4First,
    /// `lo` is down: none of its addresses is taken.
    LoopbackDown,
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}

/// Why kubeadm has no usable address, where nlorder explains it (nested
/// as [`crate::replay::failure::Failure::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// kubeadm without a default route: its warning (it advertises
    /// `0.0.0.0`, which its validation of the configuration then refuses).
    Unspecified {
        /// kubeadm's warning, as it writes it.
        warning: String,
    },
}

impl crate::replay::program::OwnWord<crate::replay::failure::Failure> for Failure {}
