//! Cilium's NodePort and masquerade addresses's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::cilium_node_address`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

/// Why Cilium took or passed over a device or address for NodePort or
/// masquerading (nested as [`crate::replay::reason::Reason::Own`]; worded
/// in `report::cilium_node_address`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// A device Cilium selects (`isSelectedDevice`).
    CiliumSelected,
    /// A device Cilium does not select.
    CiliumNotSelected,
    /// Not a node address (scope above link, or loopback).
    CiliumNotNodeAddress,
    /// Not a node address of its own device, but the fallback (the
    /// wildcard device's address) masquerading uses for these selected
    /// devices, which have no primary address of the family.
    CiliumFallbackFor(Vec<String>),
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}

/// Why Cilium has no NodePort or masquerade address, where nlorder
/// explains it (nested as [`crate::replay::failure::Failure::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Cilium has no node address of the family (no selected device).
    NoNodeAddress,
}

impl crate::replay::program::OwnWord<crate::replay::failure::Failure> for Failure {}

/// What Cilium's replay found beside its answer (nested as
/// [`crate::replay::note::Note::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// A selected device without a primary address of the family
    /// masquerades with the fallback: the best non-secondary address of any
    /// device (`fallbackAddresses`), which does not leave out loopback or
    /// host-scope addresses as the node-address filter does.
    MasqueradeFallback {
        /// The selected device.
        device: String,
        /// The fallback address.
        address: std::net::IpAddr,
        /// The device it is on.
        from: String,
        /// It is a loopback or host-scope address, one the node-address
        /// filter leaves out.
        not_a_node_address: bool,
    },
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// What a replay of Cilium's NodePort or masquerade address
/// (`node_address.go`) stands for (nested as
/// [`crate::replay::semantics::Semantics`], worded in
/// `report::cilium_node_address`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Semantics {
    /// The masquerade address, not NodePort's.
    pub masquerade: bool,
}

impl crate::replay::program::OwnWord<crate::replay::semantics::Semantics> for Semantics {}
