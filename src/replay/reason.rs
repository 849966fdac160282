//! Why a candidate interface or address won or lost, as data: the rule of
//! the replayed program that decided, with what it looked at.
//!
//! Contract: plain values, a leaf below [`super::verdict`]; one variant per
//! rule, carrying interface names, addresses, patterns, families and
//! routes (as `ip route` prints them). A rule only one program applies is
//! that program's own `Reason` (in its replay module; calico-node's in
//! [`super::calico::note`]), nested here as one variant per program (with its
//! `From`, from `vocabulary_from!` in `replay/mod.rs`) and worded in that
//! program's `report` file; the rules several apply (the
//! default-route walk, a down interface, another family, a sort) are
//! common and worded in `report::reason`. JSON says the same words.

use super::go::NotGlobal;

/// Why a candidate (an interface, or one of its addresses) got its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// calico-node's own reasons.
    CalicoNode(super::calico::note::Reason),
    /// kube-apiserver's own reasons.
    KubeApiserver(super::kube_apiserver::note::Reason),
    /// kubelet's own reasons.
    Kubelet(super::kubelet::note::Reason),
    /// flannel's (and k3s's embedded flannel's) own reasons.
    Flannel(super::flannel::note::Reason),
    /// Cilium's (its node-IP fallback) own reasons.
    Cilium(super::cilium::note::Reason),
    /// Cilium's NodePort and masquerade addresses' own reasons.
    CiliumNodeAddress(super::cilium_node_address::note::Reason),
    /// k3s's own reasons.
    K3s(super::k3s::note::Reason),
    /// kubeadm's own reasons.
    Kubeadm(super::kubeadm::note::Reason),
    /// etcd's own reasons.
    Etcd(super::etcd::note::Reason),
    /// Docker Swarm's own reasons.
    Swarm(super::swarm::note::Reason),
    /// Consul's own reasons.
    Consul(super::consul::note::Reason),
    /// Nomad's own reasons.
    Nomad(super::nomad::note::Reason),
    /// Ansible's own reasons.
    Ansible(super::ansible::note::Reason),
    /// Antrea's own reasons.
    Antrea(super::antrea::note::Reason),

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
