//! What a replay found beside its answer, as data: the settings that
//! decided it, the routes behind it, BGP peers, the program's warnings and
//! the assumptions it rests on.
//!
//! Contract: plain values, a leaf below [`super::verdict`]; one variant per
//! finding (grouped by the program it concerns), carrying addresses,
//! families, interface names, patterns, routes (as `ip route` prints them)
//! and the release replayed; `report::note` words them, and JSON says the
//! same words.

use std::net::IpAddr;

use ipnet::IpNet;

use super::calico_version::Version;
use super::family::Family;
use super::source::{NoSource, Why};
use crate::model::LinkOrder;

pub use super::program::Program;

/// What the kernel's route to a BGP peer says of the node address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeerCheck {
    /// The kernel connects from the node address.
    Matches,
    /// It connects from another address: the node address and the
    /// interface it was found on.
    Mismatch {
        /// The node address.
        node: IpAddr,
        /// The interface it was found on.
        interface: Option<String>,
    },
    /// No node address was chosen.
    NoNodeAddress,
}

/// One finding of a replay, beside its answer and candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// kube-apiserver's own notes.
    KubeApiserver(super::kube_apiserver::note::Note),
    /// kubelet's own notes.
    Kubelet(super::kubelet::Note),
    /// flannel's (and k3s's embedded flannel's) own notes.
    Flannel(super::flannel::Note),
    /// Cilium's own notes (its node-IP fallback).
    Cilium(super::cilium::Note),
    /// k3s's own notes.
    K3s(super::k3s::Note),
    /// kubeadm's own notes.
    Kubeadm(super::kubeadm::Note),
    /// etcd's own notes.
    Etcd(super::etcd::Note),
    /// Docker Swarm's own notes.
    Swarm(super::swarm::Note),
    /// Consul's own notes.
    Consul(super::consul::Note),
    /// Nomad's own notes.
    Nomad(super::nomad::Note),
    // calico-node.
    /// `IP=none` (`IP6=none`): no autodetection.
    IpNone {
        /// `IP` (4) or `IP6` (6).
        family: Family,
    },
    /// `IP=text` (`IP6=`): used as given.
    IpGiven {
        /// `IP` (4) or `IP6` (6).
        family: Family,
        /// The setting as given.
        text: String,
    },
    /// The address given is on no interface: calico-node's warning.
    IpNotConfirmed {
        /// `IP` (4) or `IP6` (6).
        family: Family,
        /// The address given.
        ip: IpAddr,
    },
    /// can-reach=: the route the kernel takes to `dst`, and the source it
    /// picks.
    Reaches {
        /// The `can-reach=` destination.
        dst: IpAddr,
        /// The source the kernel picks.
        source: IpAddr,
        /// The route it takes, as `ip route` prints it.
        route: String,
        /// How the kernel chose the source.
        why: Why,
    },
    /// kubernetes-internal-ip: calico-node's warning for an InternalIP on
    /// no interface.
    NoInterfaceFor {
        /// The InternalIP.
        ip: IpAddr,
    },
    /// kubernetes-internal-ip in a release with the network-address bug.
    NetworkAddress {
        /// The release replayed.
        version: Version,
        /// What that release returns: the network.
        network: IpNet,
        /// The InternalIP with its prefix length, which later releases return.
        cidr: IpNet,
    },
    /// `--bgp-peer`: the route and source the kernel uses for the peer.
    BgpPeer {
        /// The peer.
        peer: IpAddr,
        /// The source the kernel connects from.
        source: IpAddr,
        /// The output device.
        device: String,
        /// The route, as `ip route` prints it.
        route: String,
        /// What that says of the node address.
        node: PeerCheck,
    },
    /// `--bgp-peer`: the kernel has no source for the peer.
    BgpPeerUnreachable {
        /// The peer.
        peer: IpAddr,
        /// Why the kernel has no source for it.
        why: NoSource,
    },
    /// `--bgp-peer` of the other family than the one detected: not checked
    /// here (calico-node peers over each family separately).
    BgpPeerOtherFamily {
        /// The peer.
        peer: IpAddr,
        /// The family detected.
        family: Family,
    },

    // kubelet's step 1 (k3s's too).
    /// Step 1: `--node-ip` given.
    NodeIpGiven,

    // apimachinery's default-route walk (kubelet's step 4, kubeadm).
    /// The address of the default route's interface.
    DefaultRouteInterface {
        /// The program walking.
        by: Program,
    },
    /// That interface has no global address: one on the up loopback.
    LoopbackFallback {
        /// The program walking.
        by: Program,
        /// The default route's interface.
        interface: String,
        /// The loopback interface the address is on.
        loopback: String,
    },
    /// The family preferred gave nothing (`had_route`: it has a default
    /// route, which leads to no global address): the other one answered.
    FellBack {
        /// The program walking.
        by: Program,
        /// The family preferred.
        wanted: Family,
        /// It has a default route.
        had_route: bool,
    },

    // k3s and its embedded flannel.
    /// `--flannel-iface` names the node IPs' interface.
    FlannelIface {
        /// The interface named.
        name: String,
    },

    // calico-node at run time.
    /// felix's VXLAN device parent: the first link holding the node IP.
    VxlanParent {
        /// The parent link.
        interface: String,
    },
    /// No link holds the node IP: felix finds no VXLAN parent.
    VxlanNoParent,
    /// calico-node re-runs autodetection every 60 s.
    Redetects,

    // What the answer rests on that the capture did not show.
    /// The kernel's link order, assumed: no link dump showed it.
    AssumedLinkOrder(LinkOrder),
    /// These candidates are known only from address messages.
    AssumedPlaceholders(Vec<String>),
}
