//! What a detection replayed, in words: `detect`'s `semantics:` line and
//! JSON's `semantics`, and the warning for a calico-node release later
//! than any nlorder knows.
//!
//! Contract: `Display` only, one line per value; the replays hand out
//! [`Semantics`], never these words. Each program's line lives in its own
//! wording file; here is the dispatch to it, generated from
//! one arm per vocabulary.

use std::fmt;

use crate::replay::semantics::Semantics;

impl fmt::Display for Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Semantics::CalicoNode(s) => s.fmt(f),
            Semantics::KubeApiserver(s) => s.fmt(f),
            Semantics::Kubelet(s) => s.fmt(f),
            Semantics::Flannel(s) => s.fmt(f),
            Semantics::Cilium(s) => s.fmt(f),
            Semantics::CiliumNodeAddress(s) => s.fmt(f),
            Semantics::K3s(s) => s.fmt(f),
            Semantics::Kubeadm(s) => s.fmt(f),
            Semantics::Etcd(s) => s.fmt(f),
            Semantics::Swarm(s) => s.fmt(f),
            Semantics::Consul(s) => s.fmt(f),
            Semantics::Nomad(s) => s.fmt(f),
            Semantics::Ansible(s) => s.fmt(f),
            Semantics::Antrea(s) => s.fmt(f),
        }
    }
}

serialize_as_words!(Semantics);

pub use super::calico::newer_release;
