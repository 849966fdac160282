//! flannel (and k3s's embedded flannel)'s own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::flannel`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use std::net::IpAddr;

/// flannel's own notes, k3s's embedded flannel's too: what chose the
/// interface, and what was passed over (nested as [`crate::replay::note::Note::Own`];
/// worded in `report::flannel`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The default route's interface, its first sorted address.
    DefaultRoute {
        /// The default route, as `ip route` prints it.
        route: String,
    },
    /// `--iface IP`: the first interface holding it.
    IfaceHolds {
        /// The `--iface` value.
        spec: String,
    },
    /// `--iface NAME`: its first sorted address.
    IfaceFirstSorted {
        /// The `--iface` value.
        spec: String,
    },
    /// `--iface-regex`: it matches an address.
    IfaceRegexAddress {
        /// The `--iface-regex` pattern.
        pattern: String,
    },
    /// `--iface-regex`: it matches an interface's name.
    IfaceRegexName {
        /// The `--iface-regex` pattern.
        pattern: String,
    },
    /// `--iface-can-reach`: the route to `dst`.
    IfaceCanReach {
        /// The `--iface-can-reach` destination.
        dst: IpAddr,
        /// The route to it, as `ip route` prints it.
        route: String,
    },
    /// `--iface IP`: no interface holds it.
    IfaceNotHeld {
        /// The `--iface` value.
        spec: String,
    },
    /// `--iface NAME`: no address of the family.
    IfaceNoAddress {
        /// The `--iface` value.
        spec: String,
        /// The family looked for.
        family: crate::replay::family::Family,
    },
    /// `--iface NAME`: no such interface.
    IfaceNoSuch {
        /// The `--iface` value.
        spec: String,
    },
    /// `--iface-regex`: the pattern does not compile.
    IfaceRegexInvalid {
        /// The `--iface-regex` pattern.
        pattern: String,
        /// Why it does not compile.
        error: crate::replay::go::regex::PatternError,
    },
    /// `--iface-can-reach`: the kernel has no source for `dst`.
    IfaceUnreachable {
        /// The `--iface-can-reach` destination.
        dst: IpAddr,
        /// Why the kernel has no source for it.
        why: crate::replay::source::NoSource,
    },
    /// `--public-ip`: announced instead of the interface's address.
    PublicIp(IpAddr),
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why flannel took or passed over an interface or address (nested as
/// [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The default route's interface, its first sorted address.
    DefaultRouteFirstSorted {
        /// The default route, as `ip route` prints it.
        route: String,
    },
    /// `--iface-regex` matches the address.
    AddressMatches {
        /// The `--iface-regex` pattern.
        pattern: String,
    },
    /// `--iface-regex` does not match the address.
    AddressDoesNotMatch {
        /// The `--iface-regex` pattern.
        pattern: String,
    },
    /// One of the interface's addresses matches.
    AnAddressMatches,
    /// None of the interface's addresses matches.
    NoAddressMatches {
        /// The `--iface-regex` pattern.
        pattern: String,
    },
    /// The interface's name matches.
    NameMatches {
        /// The `--iface-regex` pattern.
        pattern: String,
    },
    /// The first of the interface's sorted addresses (its name matched).
    FirstSorted,
    /// The name matches, but the interface has no address of the family.
    NameMatchesNoAddress {
        /// The `--iface-regex` pattern.
        pattern: String,
        /// The family looked for.
        family: crate::replay::family::Family,
    },
    /// Neither an address nor the name matches.
    NothingMatches {
        /// The `--iface-regex` pattern.
        pattern: String,
    },
    /// An interface after the one whose name matched first.
    MatchedFirst {
        /// The interface whose name matched first.
        interface: String,
    },
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}

/// Why flannel chose nothing, where nlorder explains it (nested as
/// [`crate::replay::failure::Failure::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The capture holds no routes: its words for
    /// [`crate::replay::failure::Failure::NoRoutesCaptured`].
    NoRoutes,
    /// flannel: the default route names no single device.
    NoSingleDevice {
        /// The default route, as `ip route` prints it.
        route: String,
    },
}

impl crate::replay::program::OwnWord<crate::replay::failure::Failure> for Failure {}

/// What a flannel replay stands for: flannel's external interface, or
/// k3s's embedded flannel's (its own `LookupExtInterface`), in the flannel
/// release replayed (nested as [`crate::replay::semantics::Semantics`],
/// worded in `report::flannel`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Semantics {
    /// flannel's external interface.
    Flannel {
        /// The flannel release replayed.
        version: crate::replay::calico::version::Version,
    },
    /// k3s's embedded flannel.
    K3sFlannel {
        /// The flannel release replayed.
        version: crate::replay::calico::version::Version,
    },
}

impl crate::replay::program::OwnWord<crate::replay::semantics::Semantics> for Semantics {}
