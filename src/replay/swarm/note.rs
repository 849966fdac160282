//! Docker Swarm's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::swarm`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use ipnet::IpNet;

use crate::replay::family::Family;

/// Docker Swarm's own notes (nested as [`crate::replay::note::Note::Own`];
/// worded in `report::swarm`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// No up device has a global address: the subnet check answers.
    SwarmNoDevice {
        /// The devices walked.
        devices: Vec<String>,
    },
    /// The subnets taken as Docker's own networks.
    DockerSubnetsAssumed {
        /// The subnets.
        subnets: Vec<ipnet::IpNet>,
    },
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why Docker Swarm took or passed over a link or address (nested as
/// [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// Not of vishvananda/netlink's type "device" (it has a kind).
    NotADevice,
    /// No global unicast address.
    NoGlobalAddress,
    /// Its only global unicast address (of the family kept).
    OnlyGlobalAddress,
    /// Several global unicast addresses of one family.
    SeveralOfFamily(Family),
    /// An IPv6 address beside an IPv4 one on the link: IPv4 is preferred.
    Ipv4Preferred,
    /// The address lies in one of Docker's own networks.
    DockerSubnet {
        /// The Docker network.
        net: IpNet,
    },
    /// The interface holds an address in one of Docker's networks.
    HoldsDockerSubnet,
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}
