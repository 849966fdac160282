//! Why a replay chose nothing, as data: the program's own message where
//! it has one, else what stopped it, typed (a program's own failures,
//! missing inputs, a capture without routes).
//!
//! Contract: plain values, a leaf below [`super::verdict`]. A program's
//! own words stay a string ([`Failure::Said`]); everything nlorder
//! explains is a variant carrying what it concerns. What only one
//! program's replay says is that program's own enum (in its replay
//! module; calico-node's in [`super::calico::note`]), nested here as one
//! variant per program (with its `From`, generated from
//! `vocabulary_from!` in `replay/mod.rs`) and worded in that program's `report` file; the
//! rest is common and worded in `report::failure`. JSON's `error` says
//! the same words as the text.

use super::program::Program;

/// Why a replay chose nothing (or, for kubeadm's `0.0.0.0`, nothing usable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The program's own message, word for word (apimachinery's,
    /// kubeadm's, flannel's, Go's).
    Said(String),

    /// calico-node's own failures.
    CalicoNode(super::calico::note::Failure),
    /// kube-apiserver's own failures.
    KubeApiserver(super::kube_apiserver::note::Failure),
    /// kubelet's own failures.
    Kubelet(super::kubelet::note::Failure),
    /// flannel's (and k3s's embedded flannel's) own failures.
    Flannel(super::flannel::note::Failure),
    /// Cilium's (its node-IP fallback) own failures.
    Cilium(super::cilium::note::Failure),
    /// Cilium's NodePort and masquerade addresses' own failures.
    CiliumNodeAddress(super::cilium_node_address::note::Failure),
    /// k3s's own failures.
    K3s(super::k3s::note::Failure),
    /// kubeadm's own failures.
    Kubeadm(super::kubeadm::note::Failure),
    /// etcd's own failures.
    Etcd(super::etcd::note::Failure),
    /// Docker Swarm's own failures.
    Swarm(super::swarm::note::Failure),
    /// Consul's own failures.
    Consul(super::consul::note::Failure),
    /// Nomad's own failures.
    Nomad(super::nomad::note::Failure),
    /// Ansible's own failures.
    Ansible(super::ansible::note::Failure),
    /// Antrea's own failures.
    Antrea(super::antrea::note::Failure),
    /// The program looks for the default route, and the capture holds no
    /// routes at all.
    NoRoutesCaptured(Program),
    /// No message of the capture showed an address (no address dump,
    /// notification or request; what the kernel's rules made from links
    /// alone does not count): the program's choice cannot be replayed.
    NoAddressesCaptured,
    /// What the program reads to answer, no message of the capture
    /// shows (a family's routes or addresses, a table, links known
    /// only by index): its failure on what the capture does show is
    /// no answer.
    CannotKnow(Vec<super::unshown::Unshown>),
    /// At this moment (`--at`) the dump that shows what the program reads
    /// was asked for but not yet answered: unknown yet.
    UnknownYet {
        /// What the dump lists.
        kind: crate::model::ObjectKind,
        /// Its request's packet.
        request_packet: u64,
    },
}
