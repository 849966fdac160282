//! Replays: what a node-IP detection method or a resolver would choose, as
//! pure functions of the kernel model, with the reason for every candidate
//! passed over.
//!
//! Contract: pure functions of the kernel model and the settings given:
//! no I/O, no clock, nothing of the capture but the model (`replay` names
//! only `model`, `netlink` and `bad_value`; `cli/tests/layers.rs` checks
//! it). One module per program replayed (`calico`, `kubelet`, `flannel`,
//! `kubeadm`, `k3s`, `cilium`, `cilium_node_address`, `etcd`, `swarm`,
//! `consul`, `nomad`; [`gai`] for the resolvers), each stating the
//! program's source it follows; [`method`] runs them by name, [`matrix`]
//! all at once.
//!
//! They return values, never nlorder's sentences: a detection's reasons
//! ([`reason`]), notes ([`note`]), failures and calico-node's log line
//! ([`failure`], [`verdict::Log`]) and what it replayed ([`semantics`]);
//! the kernel's source choice ([`source::Why`]); getaddrinfo's rules, notes
//! and explanations ([`gai`]). `report` words them, calico-node's log
//! lines included (`report::calico`, as calico-node words them). Messages
//! of other programs that nlorder does not model (apimachinery's,
//! kubeadm's, flannel's, Go's: [`failure::Failure::Said`]) are kept as
//! the program writes them.

#[macro_use]
pub mod options;

pub mod assumed;
pub mod blocks;
pub mod calico;
pub mod calico_method;
pub mod calico_note;
mod calico_runtime;
pub mod calico_text;
pub mod calico_version;
mod calico_walk;
pub mod cilium;
pub mod cilium_node_address;
pub mod cilium_node_address_note;
pub mod cilium_note;
pub mod conflict;
pub mod consul;
pub mod consul_note;
pub mod etcd;
pub mod etcd_note;
pub mod failure;
pub mod family;
pub mod flannel;
pub mod flannel_note;
pub mod gai;
pub mod goregex;
pub mod goview;
pub mod host_interface;
pub mod k3s;
pub mod k3s_note;
pub mod kube_apiserver;
pub mod kubeadm;
pub mod kubeadm_note;
pub mod kubelet;
pub mod kubelet_note;
pub mod matrix;
pub mod method;
pub mod nomad;
pub mod nomad_note;
pub mod note;
pub mod program;
pub mod reason;
pub mod semantics;
pub mod source;
pub mod swarm;
pub mod swarm_note;
pub mod verdict;

pub use family::Family;
pub use method::MethodSpec;
pub use program::Program;

#[cfg(test)]
pub(crate) mod testhost;
