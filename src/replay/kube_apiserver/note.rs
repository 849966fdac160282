//! kube-apiserver's own notes, as values (nested into the common
//! [`crate::replay::note::Note`]; worded in `report::kube_apiserver`).
//!
//! Contract: a leaf.

use std::net::IpAddr;

/// Why the answer is what it is, besides the default-route walk's notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    /// `--advertise-address` given (and not unspecified): no detection.
    AdvertiseGiven,
    /// `--bind-address` given, neither unspecified nor loopback: it is
    /// the advertise address.
    BindAddressUsed,
    /// The address given is on none of the host's interfaces.
    NotOnHost {
        /// The address given.
        ip: IpAddr,
    },
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}
