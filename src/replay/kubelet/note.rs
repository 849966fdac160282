//! kubelet's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::kubelet`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use std::net::IpAddr;

/// kubelet's own notes (nested as [`crate::replay::note::Note::Own`]; worded in
/// `report::kubelet`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// Step 1: two `--node-ip`s, one per family.
    DualStack(Vec<IpAddr>),
    /// Step 2: the hostname is an IP literal.
    HostnameIsIp,
    /// Step 3: a resolver answer is a valid local address.
    ResolvedLocal,
    /// Step 3: only the other family had a valid answer.
    ResolvedOtherFamily,
    /// Step 3: the node name resolved to nothing.
    ResolvedNothing,
    /// Step 3: no resolver answers were given (`--resolved`, `--hosts`):
    /// what the node name resolves to is unknown; replayed as nothing.
    ResolvedUnknown,
    /// Step 3: the node name looked up in a hosts file as glibc's
    /// getaddrinfo does (files backend, then its RFC 3484 sort on this
    /// host): the file's answers and the order after the sort, with the
    /// rule behind each neighbouring pair.
    NameSorted {
        /// The node name.
        name: String,
        /// The hosts file, as named.
        hosts: String,
        /// The file's answers, in name-service order.
        found: Vec<IpAddr>,
        /// The order after glibc's sort.
        order: Vec<IpAddr>,
        /// The rule behind each neighbouring pair of `order`.
        steps: Vec<crate::replay::gai::Step>,
    },
    /// Step 3: no answer passed `validateNodeIP`.
    NoValidAnswer,
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why kubelet's step 3 kept or passed over a resolver answer (nested as
/// [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// `validateNodeIP` refused the answer.
    Rejected(NodeIpInvalid),
    /// The first valid answer of the preferred family (`position` counts
    /// from 1).
    ResolverAnswer {
        /// Its place in the resolver's answer, from 1.
        position: usize,
    },
    /// A valid answer after the one that won.
    EarlierAnswer,
    /// A valid answer of the other family.
    NotPreferredFamily,
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}

/// Why kubelet chose nothing, where nlorder explains it (nested as
/// [`crate::replay::failure::Failure::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The capture holds no routes: its words for
    /// [`crate::replay::failure::Failure::NoRoutesCaptured`].
    NoRoutes,
    /// kubelet's `--node-ip` fails `validateNodeIP`.
    InvalidNodeIp {
        /// The `--node-ip` given.
        ip: IpAddr,
        /// The check it fails.
        why: NodeIpInvalid,
    },
}

impl crate::replay::program::OwnWord<crate::replay::failure::Failure> for Failure {}

/// Why kubelet's `validateNodeIP` refuses an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeIpInvalid {
    /// A loopback address.
    Loopback,
    /// A multicast address.
    Multicast,
    /// `0.0.0.0` or `::`.
    Unspecified,
    /// A link-local unicast address.
    LinkLocal,
    /// None of the host's interfaces holds it.
    NotOnHost(IpAddr),
}
