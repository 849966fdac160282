//! Replays: what a node-IP detection method or a resolver would choose, as
//! pure functions of the kernel model, with the reason for every candidate
//! passed over.
//!
//! Contract: pure functions of the kernel model and the settings given:
//! no I/O, no clock, nothing of the capture but the model (`replay` names
//! only `model`, `netlink` and `bad_value`; `cli/tests/layers.rs` checks
//! it). One module per program replayed (`calico`, `kubelet`, `flannel`,
//! `kubeadm`, `kube_apiserver`, `k3s`, `cilium`, `cilium_node_address`,
//! `etcd`, `swarm`, `consul`, `nomad`, `ansible`; [`gai`] for the resolvers), each
//! stating the program's source it follows and implementing
//! [`chooser::Chooser`] at its top. [`registry`] is the one table of them
//! ([`Program::replay`]): [`method`] runs one through it, [`matrix`] runs
//! them all at once; [`program`] is their identity, order and names.
//!
//! Adding a program touches: its folder `replay/<program>/` (`mod.rs`, a
//! unit type implementing [`chooser::Chooser`] at its top, or
//! [`chooser::Optionless`] when it takes no options; its vocabulary
//! `note.rs`: its `Note`, `Reason` and `Failure`, each [`failure::Empty`]
//! where it has none, and its `Semantics` with `program()`; its tests) and
//! its `mod` line below; its variant and name in [`program`]; its line in
//! [`registry`]; its settings' line in [`method`] (flattened for clap);
//! its line in `for_each_vocabulary!` below; its wording file
//! `report/<program>.rs` (the `Display` of its vocabulary) with its `mod`
//! line in `report/mod.rs`.
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

/// The vocabularies: calls `$callback!` with every program that has words
/// of its own, one line each: `Variant module "whose"`, where `module` is
/// the program's folder, whose leaf `replay::module::note` defines that
/// program's `Note`, `Reason` and `Failure` ([`failure::Empty`] where it
/// has none) and its `Semantics` (what its replay stands for, with the
/// [`Program`] it is), `Variant` the
/// variant nesting each of them into the common [`note::Note`],
/// [`reason::Reason`], [`failure::Failure`] and [`semantics::Semantics`],
/// and `"whose"` the owner named in those variants' docs. From this list
/// [`note`], [`reason`], [`failure`] and [`semantics`] generate their
/// nesting variants and the `From` impls (a program builds its own values
/// and `.into()`s them), and `report::note`, `report::reason`,
/// `report::failure` and `report::semantics` their dispatch to the
/// program's wording file (`report::<program>`, which words the four). One
/// vocabulary may serve several programs (flannel's serves k3s's embedded
/// flannel; Cilium's NodePort and masquerade share theirs).
macro_rules! for_each_vocabulary {
    ($callback:ident) => {
        $callback! {
            CalicoNode calico "calico-node's",
            KubeApiserver kube_apiserver "kube-apiserver's",
            Kubelet kubelet "kubelet's",
            Flannel flannel "flannel's (and k3s's embedded flannel's)",
            Cilium cilium "Cilium's (its node-IP fallback)",
            CiliumNodeAddress cilium_node_address "Cilium's NodePort and masquerade addresses'",
            K3s k3s "k3s's",
            Kubeadm kubeadm "kubeadm's",
            Etcd etcd "etcd's",
            Swarm swarm "Docker Swarm's",
            Consul consul "Consul's",
            Nomad nomad "Nomad's",
            Ansible ansible "Ansible's",
        }
    };
}
#[allow(unused_imports)]
pub(crate) use for_each_vocabulary;

#[macro_use]
pub mod options;

pub mod ansible;
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
