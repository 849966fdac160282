//! Replays: what a node-IP detection method or a resolver would choose, as
//! pure functions of the kernel model, with the reason for every candidate
//! passed over.
//!
//! Contract: pure functions of the kernel model and the settings given:
//! no I/O, no clock, nothing of the capture but the model (`replay` names
//! only `model`, `netlink` and `bad_value`; `cli/tests/layers.rs` checks
//! it). One module per program replayed (`calico`, `kubelet`, `flannel`,
//! `kubeadm`, `kube_apiserver`, `k3s`, `cilium`, `cilium_node_address`,
//! `etcd`, `swarm`, `consul`, `nomad`, `ansible`, `antrea`; [`gai`] for the resolvers), each
//! stating the program's source it follows and implementing
//! [`chooser::Chooser`] at its top. [`registry`] is the one table of them
//! ([`Program::ALL`]): [`method`] runs one through it, [`matrix`] runs
//! them all at once; [`program`] is their identity, order and names.
//!
//! Adding a program: its folder `replay/<program>/` (`mod.rs`, a unit
//! type implementing [`chooser::Chooser`] at its top, or
//! [`chooser::Optionless`] when it takes no options; its vocabulary
//! `note.rs`: whichever of a `Note`, `Reason` and `Failure` it has, and
//! its `Semantics`, each an [`program::OwnWord`] of the common one it
//! nests in; its tests) with its `mod` line below;
//! its wording file `report/<program>.rs` (the `Display` of its
//! vocabulary) with its `mod` line in `report/mod.rs`; its line in the
//! [`registry`]'s table.
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

pub mod ansible;
pub mod antrea;
pub mod assumed;
pub mod blocks;
pub mod calico;
pub mod chooser;
pub mod cilium;
pub mod cilium_node_address;
pub mod conflict;
pub mod consul;
pub mod etcd;
pub mod failure;
pub mod family;
pub mod flannel;
pub mod gai;
pub mod go;
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
pub mod registry;
pub mod semantics;
pub mod source;
pub mod swarm;
pub mod unshown;
pub mod verdict;

pub use family::Family;
pub use method::MethodSpec;
pub use program::Program;

#[cfg(test)]
pub(crate) mod testhost;
