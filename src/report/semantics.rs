//! What a detection replayed, in words: `detect`'s `semantics:` line and
//! JSON's `semantics`, and the warning for a calico-node release later
//! than any nlorder knows.
//!
//! Contract: `Display` only, one line per value; the replays hand out
//! [`Semantics`], never these words.

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
            Semantics::Etcd => f.write_str(
                "etcd GetDefaultHost: the last main-table default route of a family (IPv4 first): its prefsrc, \
                 else the first address of its device (IFA_ADDRESS: the peer on point-to-point)",
            ),
            Semantics::Swarm => f.write_str(
                "docker swarm resolveSystemAddr: up links without a kind (\"device\"); exactly one global \
                 address per family on exactly one link, IPv4 preferred; else the subnet check over all up \
                 non-loopback interfaces",
            ),
            Semantics::Consul => f.write_str(
                "consul GetPrivateIPv4: the private IPv4 addresses of up interfaces (loopback only when no other \
                 has an address); exactly one",
            ),
            Semantics::Nomad => f.write_str(
                "nomad (go-sockaddr GetPrivateIP): forwardable addresses of up interfaces, default-route \
                 interface first, IPv4 before IPv6, then by network size; the first RFC 6890 one",
            ),
        }
    }
}

serialize_as_words!(Semantics);

pub use super::calico::newer_release;
