//! Nomad's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::nomad`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

/// Nomad's own notes (nested as [`crate::replay::note::Note::Own`]; worded in
/// `report::nomad`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The interface of `ip route`'s first `default via` line.
    NomadDefaultInterface {
        /// The interface.
        interface: String,
    },
    /// No `default via` line: no interface is sorted first.
    NomadNoDefaultInterface,
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why Nomad (go-sockaddr) took or passed over an interface or address
/// (nested as [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The interface of the first `default via` route: sorted first.
    DefaultInterface,
    /// In go-sockaddr's forwarding blacklist.
    NotForwardable,
    /// The first address in an RFC 6890 block after the sort.
    FirstRfc6890,
    /// Outside every RFC 6890 block.
    NotRfc6890,
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}

/// Why Nomad has no default advertise address (nested as
/// [`crate::replay::failure::Failure::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// go-sockaddr's `GetPrivateIP` found no private address: Nomad has
    /// no default advertise address.
    NoPrivateIp,
}

impl crate::replay::program::OwnWord<crate::replay::failure::Failure> for Failure {}
