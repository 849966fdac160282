//! Why a candidate interface or address won or lost, as data: the rule of
//! the replayed program that decided, with what it looked at.
//!
//! Contract: plain values, a leaf below [`super::verdict`]; one variant per
//! rule (grouped by the program that applies it), carrying interface
//! names, addresses, patterns, families and routes (as `ip route` prints
//! them); `report::reason` words them, and JSON says the same words.

use std::net::IpAddr;

use ipnet::IpNet;

use super::family::Family;
use super::goview::NotGlobal;

/// Why a candidate (an interface, or one of its addresses) got its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// kubelet's own reasons.
    Kubelet(super::kubelet::Reason),
    /// flannel's own reasons.
    Flannel(super::flannel::Reason),
    /// Cilium's own reasons (its node-IP fallback).
    Cilium(super::cilium::Reason),
    /// Cilium's NodePort and masquerade addresses' own reasons.
    CiliumNodeAddress(super::cilium_node_address::Reason),
    /// k3s's own reasons.
    K3s(super::k3s::Reason),
    /// kubeadm's own reasons (its loopback advertise address).
    Kubeadm(super::kubeadm::Reason),
    /// etcd's own reasons.
    Etcd(super::etcd::Reason),
    /// Docker Swarm's own reasons.
    Swarm(super::swarm::Reason),
    /// Consul's own reasons.
    Consul(super::consul::Reason),
    /// Nomad's own reasons.
    Nomad(super::nomad::Reason),

    // Shared by several programs.
    /// An address of an interface after the one that won.
    EarlierCandidate,
    /// An interface after the one that won.
    EarlierInterface,
    /// An address after the one that won, on the same interface.
    EarlierAddress,
    /// Not global unicast (the default-route walk, kubeadm's `lo`).
    NotGlobal(NotGlobal),
    /// An address of the family not being looked for.
    OtherFamily,

    // calico-node's interface walk (`FilteredEnumeration`).
    /// The first global unicast address of the first interface kept.
    FirstOfFirstCandidate,
    /// The first interface kept that has a global unicast address.
    FirstCandidate,
    /// An address that is not global unicast.
    AddressNotGlobal {
        /// The address.
        ip: IpAddr,
        /// What it is instead.
        why: NotGlobal,
    },
    /// An address outside every CIDR of `cidr=`.
    OutsideCidrs {
        /// The address.
        ip: IpAddr,
        /// The networks of `cidr=`.
        cidrs: Vec<IpNet>,
    },
    /// An interface without an address of the family.
    NoAddressOfFamily(Family),
    /// An interface whose addresses are all outside the CIDRs.
    NoAddressInCidrs,
    /// An interface without a global unicast address of the family.
    NoGlobalOfFamily(Family),
    /// A link no message named: patterns cannot be matched against it.
    NameUnknown {
        /// The link's ifindex.
        index: u32,
    },
    /// The name matches none of the include patterns.
    MatchesNone {
        /// The include patterns.
        patterns: Vec<String>,
    },
    /// The name matches this exclude pattern.
    ExcludedBy {
        /// The exclude pattern that matched.
        pattern: String,
    },

    // calico-node's can-reach=.
    /// The source address the kernel picks for `dst`.
    SourceFor {
        /// The `can-reach=` destination.
        dst: IpAddr,
    },
    /// An address that is not the kernel's source address.
    NotSource {
        /// The kernel's source address.
        source: IpAddr,
    },
    /// The interface holding the source address.
    CarriesSource,
    /// An interface not holding it.
    LacksSource,

    // calico-node's kubernetes-internal-ip.
    /// The interface holding the Node's InternalIP.
    CarriesInternalIp {
        /// The InternalIP.
        ip: IpAddr,
    },
    /// An interface not holding it.
    LacksInternalIp {
        /// The InternalIP.
        ip: IpAddr,
    },

    // apimachinery's default-route walk (kubelet, kubeadm).
    /// The interface of this default route.
    DefaultRoute {
        /// The default route, as `ip route` prints it.
        route: String,
    },
    /// The interface of this default route is down.
    DefaultRouteDown {
        /// The default route, as `ip route` prints it.
        route: String,
    },
    /// This default route has no device (`*` in `/proc/net/route`).
    DefaultRouteNoDevice {
        /// The default route, as `ip route` prints it.
        route: String,
    },
    /// The first global unicast address of the family.
    FirstGlobal,

    // Shared by the programs that walk every interface.
    /// The interface is administratively down.
    InterfaceDown,
    /// An up interface, walked.
    UpInterface,
    /// One of several candidates where the program wants exactly one.
    OneOfSeveral,
    /// Kept, but a sort put another one first.
    SortedAfter,
}
