//! Cilium's node-IP fallback's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::cilium`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use crate::netlink::values::Scope;

/// Cilium's own notes (its node-IP fallback; nested as
/// [`crate::replay::note::Note::Own`]; worded in `report::cilium`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The device named does not exist: every link is walked.
    CiliumNoDevice {
        /// The device named.
        name: String,
    },
    /// The answer came from a retry: scope up to site, or all links.
    CiliumRetry {
        /// The retry took scopes up to site.
        scope_site: bool,
        /// The retry walked every link.
        all_links: bool,
    },
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why Cilium's node-IP fallback took or passed over an address (nested
/// as [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// An interface with addresses in the program's list.
    AddressesListed,
    /// On the exclude list.
    CiliumExcluded(CiliumExcluded),
    /// Its scope is wider than the pass allows (RT_SCOPE_*).
    ScopeAbove {
        /// The address's scope.
        scope: Scope,
        /// The widest scope the pass takes.
        max: Scope,
    },
    /// A secondary address (or a temporary IPv6 one: the same flag bit).
    SecondarySkipped,
    /// Tentative or dad-failed (IFA_F_TENTATIVE, IFA_F_DADFAILED).
    TentativeSkipped,
    /// The first public address after the sort.
    PublicFirst,
    /// The first private address after the sort (no public one).
    PrivateFirst,
    /// A private address while public ones exist.
    PrivateLosesToPublic,
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}

/// Why Cilium puts a link's addresses on its exclude list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CiliumExcluded {
    /// The link is named `docker*`.
    DockerName,
    /// Its operstate (IF_OPER_*) is not one Cilium takes as up.
    NotUp(u8),
}

/// What a Cilium replay stands for: its node-IP fallback
/// (`firstGlobalAddr`), in the release replayed (nested as
/// [`crate::replay::semantics::Semantics`], worded in `report::cilium`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Semantics {
    /// The Cilium release replayed.
    pub version: crate::replay::calico::version::Version,
}

impl crate::replay::program::OwnWord<crate::replay::semantics::Semantics> for Semantics {}
