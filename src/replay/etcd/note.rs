//! etcd's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::etcd`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use std::net::IpAddr;

/// etcd's own notes (nested as [`crate::replay::note::Note::Own`]; worded in
/// `report::etcd`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// Earlier default routes of the family lost to the last one.
    LastDefaultRoute {
        /// The last default route, as `ip route` prints it.
        route: String,
        /// How many default routes of the family came before it.
        earlier: usize,
    },
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why etcd took or passed over a route or address (nested as
/// [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The first address in the dump.
    FirstInDump,
    /// The last main-table default route of its family.
    LastDefaultRoute {
        /// The route, as `ip route` prints it.
        route: String,
    },
    /// That route's prefsrc is the answer.
    RoutePrefsrc {
        /// The route, as `ip route` prints it.
        route: String,
    },
    /// That route names no device (multipath).
    NoOutputDevice {
        /// The route, as `ip route` prints it.
        route: String,
    },
    /// A point-to-point address: its IFA_ADDRESS is the peer.
    PeerAddress {
        /// The address's own side (IFA_LOCAL).
        local: IpAddr,
    },
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}
