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
//! ([`Program::replay`]): [`method`] runs one through it, [`matrix`] runs
//! them all at once; [`program`] is their identity, order and names.
//!
//! Adding a program touches: its folder `replay/<program>/` (`mod.rs`, a
//! unit type implementing [`chooser::Chooser`] at its top, or
//! [`chooser::Optionless`] when it takes no options; its vocabulary
//! `note.rs`: its `Note`, `Reason` and `Failure`, each [`program::Empty`]
//! where it has none, and its `Semantics`; its tests) and
//! its `mod` line below; its variant and name in [`program`]; its line in
//! [`registry`]; its settings' line in [`method`] (flattened for clap);
//! its variant in the four common vocabularies ([`note`], [`reason`],
//! [`failure`], [`semantics`], whose `program()` names it) and in their
//! `Display` in `report/`; its line in `vocabulary_from!` below; its
//! wording file `report/<program>.rs` (the `Display` of its vocabulary)
//! with its `mod` line in `report/mod.rs`.
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

/// The `From` impls that nest each program's vocabulary (its folder's
/// `note.rs`: its `Note`, `Reason`, `Failure` and `Semantics`) into the
/// common [`note::Note`], [`reason::Reason`], [`failure::Failure`] and
/// [`semantics::Semantics`], so that a program builds its own values and
/// `.into()`s them. One line per vocabulary: the variant that nests it
/// (written out in those four enums) and its folder. One vocabulary may
/// serve several programs (flannel's serves k3s's embedded flannel;
/// Cilium's NodePort and masquerade share theirs).
macro_rules! vocabulary_from {
    ($($Variant:ident $module:ident,)*) => {
        $(
            impl From<$module::note::Note> for note::Note {
                fn from(v: $module::note::Note) -> Self {
                    note::Note::$Variant(v)
                }
            }
            impl From<$module::note::Reason> for reason::Reason {
                fn from(v: $module::note::Reason) -> Self {
                    reason::Reason::$Variant(v)
                }
            }
            impl From<$module::note::Failure> for failure::Failure {
                fn from(v: $module::note::Failure) -> Self {
                    failure::Failure::$Variant(v)
                }
            }
            impl From<$module::note::Semantics> for semantics::Semantics {
                fn from(v: $module::note::Semantics) -> Self {
                    semantics::Semantics::$Variant(v)
                }
            }
        )*
    };
}

vocabulary_from! {
    CalicoNode calico,
    KubeApiserver kube_apiserver,
    Kubelet kubelet,
    Flannel flannel,
    Cilium cilium,
    CiliumNodeAddress cilium_node_address,
    K3s k3s,
    Kubeadm kubeadm,
    Etcd etcd,
    Swarm swarm,
    Consul consul,
    Nomad nomad,
    Ansible ansible,
    Antrea antrea,
}

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
