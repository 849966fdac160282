//! Which program's behaviour a replay stands for, as data: calico-node's
//! release and what its walk does in that release; flannel's and Cilium's
//! release; the other programs' logic (one version each).
//!
//! Contract: plain values, a leaf below [`super::verdict`];
//! `report::semantics` words them (`detect`'s `semantics:` line, JSON's
//! `semantics`).

use super::calico_version::Version;
use super::program::Program;

/// What a detection replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Semantics {
    /// calico-node: the release asked for (a later one than any nlorder
    /// knows is replayed as [`Version::LATEST`]), and its walk, unless
    /// calico-node refused the method.
    CalicoNode {
        /// The release asked for.
        asked: Version,
        /// The interface walk replayed (`None`: the method was refused).
        walk: Option<CalicoWalk>,
    },
    /// kubelet's `NodeAddress` steps.
    Kubelet,
    /// flannel's external interface, in the release replayed.
    Flannel {
        /// The flannel release replayed.
        version: Version,
    },
    /// kubeadm's `SetAPIEndpointDynamicDefaults`.
    Kubeadm,
    /// kube-apiserver's `DefaultAdvertiseAddress`.
    KubeApiserver,
    /// k3s's `GetHostnameAndIPs`.
    K3s,
    /// k3s's embedded flannel (its own `LookupExtInterface`), in the
    /// flannel release replayed.
    K3sFlannel {
        /// The flannel release replayed.
        version: Version,
    },
    /// Cilium's node-IP fallback (`firstGlobalAddr`), in the release replayed.
    Cilium {
        /// The Cilium release replayed.
        version: Version,
    },
    /// Cilium's NodePort or masquerade address (`node_address.go`).
    CiliumNodeAddress {
        /// The masquerade address, not NodePort's.
        masquerade: bool,
    },
    /// etcd's `GetDefaultHost`.
    Etcd,
    /// Docker Swarm's `resolveSystemAddr`.
    Swarm,
    /// Consul's private IPv4 bind address.
    Consul,
    /// Nomad's address (go-sockaddr `GetPrivateIP`).
    Nomad,
    /// Ansible's `get_default_interfaces` (`ip route get`).
    Ansible,
}

impl Semantics {
    /// The program replayed.
    pub fn program(&self) -> Program {
        match self {
            Semantics::CalicoNode { .. } => Program::CalicoNode,
            Semantics::Kubelet => Program::Kubelet,
            Semantics::Flannel { .. } => Program::Flannel,
            Semantics::Kubeadm => Program::Kubeadm,
            Semantics::KubeApiserver => Program::KubeApiserver,
            Semantics::K3s => Program::K3s,
            Semantics::K3sFlannel { .. } => Program::K3sFlannel,
            Semantics::Cilium { .. } => Program::Cilium,
            Semantics::CiliumNodeAddress { masquerade: false } => Program::CiliumNodePort,
            Semantics::CiliumNodeAddress { masquerade: true } => Program::CiliumMasquerade,
            Semantics::Etcd => Program::Etcd,
            Semantics::Swarm => Program::Swarm,
            Semantics::Consul => Program::Consul,
            Semantics::Nomad => Program::Nomad,
            Semantics::Ansible => Program::Ansible,
        }
    }
}

/// What calico-node's interface walk does in the release replayed, for the
/// method replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalicoWalk {
    /// `DEFAULT_INTERFACES_TO_EXCLUDE`, in source order (empty when the
    /// method does not apply them).
    pub default_excludes: Vec<&'static str>,
    /// The method does not apply them (all but first-found and
    /// skip-interface=).
    pub without_default_excludes: bool,
    /// kubernetes-internal-ip returns the masked network address (the bug
    /// of v3.22.0-3.22.3 and v3.23.0-3.23.1).
    pub network_address_bug: bool,
    /// Addresses come from one bulk netlink dump (v3.32+), which gives
    /// point-to-point IPv4 addresses as /32.
    pub bulk_dump: bool,
}
