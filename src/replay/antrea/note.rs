//! Antrea's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`]
//! and [`crate::replay::failure::Failure`] by one variant; worded in
//! `report::antrea`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use std::net::IpAddr;

/// Antrea's own notes (nested as [`crate::replay::note::Note::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The Node's InternalIPs the agent keeps (the first of each family,
    /// in status order) and those it drops.
    NodeIps {
        /// The IPv4 one kept.
        v4: Option<IpAddr>,
        /// The IPv6 one kept.
        v6: Option<IpAddr>,
        /// Later ones of a family already kept.
        dropped: Vec<IpAddr>,
    },
    /// The interface holding the Node's IPs, which the transport
    /// interface setting replaces.
    NodeInterface {
        /// Its name.
        interface: String,
        /// How the transport interface was chosen instead.
        by: Transport,
    },
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// What the transport interface was chosen by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// `transportInterface`.
    Interface(String),
    /// `transportInterfaceCIDRs`.
    Cidrs(Vec<ipnet::IpNet>),
}

/// Why Antrea took or passed over an interface or address (nested as
/// [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The host gateway, which the search for the Node's IPs skips.
    HostGateway,
    /// It holds a Node IP.
    HoldsNodeIp,
    /// It holds none of the Node's IPs.
    HoldsNoNodeIp,
    /// The address is the Node's IP of its family.
    IsNodeIp,
    /// It holds a Node IP too, after another device did: Antrea's error.
    SecondDevice {
        /// The device found first.
        first: String,
    },
    /// The interface `transportInterface` names.
    Named,
    /// The named interface has no global unicast address.
    NoGlobalUnicast,
    /// The first global unicast address of its family.
    FirstOfFamily,
    /// An address of its family was taken before it.
    FamilyTaken,
    /// Inside one of `transportInterfaceCIDRs`.
    InCidr {
        /// The network it is in.
        cidr: ipnet::IpNet,
    },
    /// The first interface with a global unicast address inside the CIDRs.
    FirstInCidrs,
    /// No global unicast address inside the CIDRs.
    NoneInCidrs,
    /// An earlier interface was taken.
    TakenEarlier {
        /// That interface.
        interface: String,
    },
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}

/// Antrea's failures that are nlorder's to word (its own messages are
/// kept as it writes them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The Node's InternalIP comes from the API server, and none was given.
    NoNodeIp,
}

impl crate::replay::program::OwnWord<crate::replay::failure::Failure> for Failure {}
