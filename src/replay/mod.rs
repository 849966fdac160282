//! Replays: what a node-IP detection method or a resolver would choose, as
//! pure functions of the kernel model, with the reason for every candidate
//! passed over.
//!
//! They return values, never nlorder's sentences: a detection's reasons
//! ([`reason`]), notes ([`note`]), failures and calico-node's log line
//! ([`failure`], [`verdict::Log`]) and what it replayed ([`semantics`]);
//! the kernel's source choice ([`source::Why`]); getaddrinfo's rules, notes
//! and explanations ([`gai`]). `report` words them. A program's own
//! messages (calico-node's log lines and refusals, apimachinery's, Go's)
//! are kept as it writes them.

#[macro_use]
pub mod options;

pub mod assumed;
pub mod blocks;
pub mod calico;
pub mod calico_method;
pub mod calico_text;
pub mod calico_version;
pub mod cilium;
pub mod cilium_node_address;
pub mod conflict;
pub mod consul;
pub mod etcd;
pub mod failure;
pub mod family;
pub mod flannel;
pub mod gai;
pub mod goregex;
pub mod goview;
pub mod host_interface;
pub mod k3s;
pub mod kube_apiserver;
pub mod kubeadm;
pub mod kubelet;
pub mod matrix;
pub mod method;
pub mod nomad;
pub mod note;
pub mod program;
pub mod reason;
pub mod semantics;
pub mod source;
pub mod swarm;
pub mod verdict;

pub use family::Family;
pub use method::MethodSpec;
pub use program::Program;

#[cfg(test)]
pub(crate) mod testhost;
