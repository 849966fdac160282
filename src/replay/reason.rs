//! Why a candidate interface or address won or lost, as data: the rule of
//! the replayed program that decided, with what it looked at.
//!
//! Contract: plain values, a leaf below [`super::verdict`]; one variant per
//! rule, carrying interface names, addresses, patterns, families and
//! routes (as `ip route` prints them). A rule only one program applies is
//! that program's own `Reason` (in its replay module; calico-node's in
//! [`super::calico_note`]), nested here as one variant per program and
//! worded in that program's `report` file; the rules several apply (the
//! default-route walk, a down interface, another family, a sort) are
//! common and worded in `report::reason`. JSON says the same words.

use super::goview::NotGlobal;

/// Why a candidate (an interface, or one of its addresses) got its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// calico-node's own reasons.
    CalicoNode(super::calico_note::Reason),
    /// kubelet's own reasons.
    Kubelet(super::kubelet_note::Reason),
    /// flannel's own reasons.
    Flannel(super::flannel_note::Reason),
    /// Cilium's own reasons (its node-IP fallback).
    Cilium(super::cilium_note::Reason),
    /// Cilium's NodePort and masquerade addresses' own reasons.
    CiliumNodeAddress(super::cilium_node_address_note::Reason),
    /// k3s's own reasons.
    K3s(super::k3s_note::Reason),
    /// kubeadm's own reasons (its loopback advertise address).
    Kubeadm(super::kubeadm_note::Reason),
    /// etcd's own reasons.
    Etcd(super::etcd_note::Reason),
    /// Docker Swarm's own reasons.
    Swarm(super::swarm_note::Reason),
    /// Consul's own reasons.
    Consul(super::consul_note::Reason),
    /// Nomad's own reasons.
    Nomad(super::nomad_note::Reason),
    /// Ansible's own reasons.
    Ansible(super::ansible_note::Reason),

    // Shared by several programs.
    /// An address after the one that won, on the same interface.
    EarlierAddress,
    /// Not global unicast (the default-route walk, kubeadm's `lo`).
    NotGlobal(NotGlobal),
    /// An address of the family not being looked for.
    OtherFamily,

    // apimachinery's default-route walk (kubelet, kubeadm, k3s,
    // kube-apiserver).
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
