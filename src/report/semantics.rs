//! What a detection replayed, in words: `detect`'s `semantics:` line and
//! JSON's `semantics`, and the warning for a calico-node release later
//! than any nlorder knows.
//!
//! Contract: `Display` only, one line per value; the replays hand out
//! [`Semantics`], never these words. Each program's line lives in its own
//! wording file; here is one dispatch line per program.

use std::fmt;

use crate::replay::semantics::Semantics;

impl fmt::Display for Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Semantics::CalicoNode { asked, walk } => super::calico::semantics(f, *asked, walk.as_ref()),
            Semantics::Kubelet => super::kubelet::semantics(f),
            Semantics::Flannel { version } => super::flannel::semantics(f, *version),
            Semantics::KubeApiserver => super::kube_apiserver::semantics(f),
            Semantics::Kubeadm => super::kubeadm::semantics(f),
            Semantics::K3s => super::k3s::semantics(f),
            Semantics::K3sFlannel { version } => super::flannel::k3s_semantics(f, *version),
            Semantics::Cilium { version } => super::cilium::semantics(f, *version),
            Semantics::CiliumNodeAddress { masquerade } => super::cilium_node_address::semantics(f, *masquerade),
            Semantics::Etcd => super::etcd::semantics(f),
            Semantics::Swarm => super::swarm::semantics(f),
            Semantics::Consul => super::consul::semantics(f),
            Semantics::Nomad => super::nomad::semantics(f),
            Semantics::Ansible => super::ansible::semantics(f),
        }
    }
}

serialize_as_words!(Semantics);

pub use super::calico::newer_release;
