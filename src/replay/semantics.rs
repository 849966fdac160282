//! Which program's behaviour a replay stands for, as data: calico-node's
//! release and what its walk does in that release; flannel's and Cilium's
//! release; the other programs' logic (one version each).
//!
//! Contract: plain values, a leaf below [`super::verdict`]: each
//! program's own `Semantics` (in its vocabulary, `replay/<program>/note.rs`),
//! nested here as one variant per vocabulary, which names the [`Program`]
//! (a vocabulary that serves two programs, flannel's and Cilium's node
//! addresses', tells which); its `From` is `vocabulary_from!`'s in
//! `replay/mod.rs`; `report::semantics` dispatches
//! their words to each program's wording file (`detect`'s `semantics:` line, JSON's
//! `semantics`).

use super::program::Program;

pub use super::calico::note::CalicoWalk;

/// What a detection replayed: the program's own semantics, one
/// variant per vocabulary (the `From` impls: `vocabulary_from!` in `replay/mod.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Semantics {
    /// What calico-node's replay stands for.
    CalicoNode(super::calico::note::Semantics),
    /// What kube-apiserver's replay stands for.
    KubeApiserver(super::kube_apiserver::note::Semantics),
    /// What kubelet's replay stands for.
    Kubelet(super::kubelet::note::Semantics),
    /// What flannel's (and k3s's embedded flannel's) replay stands for.
    Flannel(super::flannel::note::Semantics),
    /// What Cilium's (its node-IP fallback) replay stands for.
    Cilium(super::cilium::note::Semantics),
    /// What Cilium's NodePort and masquerade addresses' replay stands for.
    CiliumNodeAddress(super::cilium_node_address::note::Semantics),
    /// What k3s's replay stands for.
    K3s(super::k3s::note::Semantics),
    /// What kubeadm's replay stands for.
    Kubeadm(super::kubeadm::note::Semantics),
    /// What etcd's replay stands for.
    Etcd(super::etcd::note::Semantics),
    /// What Docker Swarm's replay stands for.
    Swarm(super::swarm::note::Semantics),
    /// What Consul's replay stands for.
    Consul(super::consul::note::Semantics),
    /// What Nomad's replay stands for.
    Nomad(super::nomad::note::Semantics),
    /// What Ansible's replay stands for.
    Ansible(super::ansible::note::Semantics),
    /// What Antrea's replay stands for.
    Antrea(super::antrea::note::Semantics),
}

impl Semantics {
    /// The program replayed.
    pub fn program(&self) -> Program {
        match self {
            Semantics::CalicoNode(_) => Program::CalicoNode,
            Semantics::KubeApiserver(_) => Program::KubeApiserver,
            Semantics::Kubelet(_) => Program::Kubelet,
            Semantics::Flannel(s) => s.program(),
            Semantics::Cilium(_) => Program::Cilium,
            Semantics::CiliumNodeAddress(s) => s.program(),
            Semantics::K3s(_) => Program::K3s,
            Semantics::Kubeadm(_) => Program::Kubeadm,
            Semantics::Etcd(_) => Program::Etcd,
            Semantics::Swarm(_) => Program::Swarm,
            Semantics::Consul(_) => Program::Consul,
            Semantics::Nomad(_) => Program::Nomad,
            Semantics::Ansible(_) => Program::Ansible,
            Semantics::Antrea(_) => Program::Antrea,
        }
    }
}
