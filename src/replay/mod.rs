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
//! [`chooser::Chooser`] at its top; `for_each_program!` below is the one
//! list of them, from which [`program`] (their identity) and [`method`]
//! (running them, their settings and options) are generated; [`matrix`]
//! runs them all at once.
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

/// The registry: calls `$callback!` with every program nlorder replays, in
/// the order `--all` lists them, one line each:
/// `field: Variant "name" (Options) => module::Chooser`, where `field` is
/// the program's key among every program's settings, `Variant` its
/// [`Program`] (and [`MethodSpec`]) variant, `"name"` its `--method`
/// spelling, `(Options)` present when its `MethodSpec` variant holds its
/// chooser's options (absent: the program takes none), and the chooser
/// the unit type of `replay::module` implementing
/// [`chooser::Chooser`]. calico-node's line comes first and
/// is marked `{Calico}`: its `MethodSpec` variant is the struct variant
/// `Calico { text, method, options }` (its methods are
/// `IP_AUTODETECTION_METHOD` values, not its name).
///
/// Adding a program touches: its module `replay/<program>.rs` (a unit
/// type implementing [`chooser::Chooser`] at its top) and its `mod` line
/// below; its line here; its vocabulary `replay/<program>_note.rs` (its
/// `Note`, `Reason` and `Failure`, an empty enum where it has none, and
/// its `Semantics` with `program()`), its `mod` line and its line in
/// `for_each_vocabulary!` below; its wording file `report/<program>.rs`
/// (the `Display` of those four) and that file's `mod` line in
/// `report/mod.rs`. Nothing else: [`program`] and [`method`] generate the
/// rest from this list, [`note`], [`reason`], [`failure`], [`semantics`]
/// and their wording in `report` from `for_each_vocabulary!`,
/// and so can any other place that tells programs apart
/// (`crate::replay::for_each_program!(callback)`).
macro_rules! for_each_program {
    ($callback:ident) => {
        $callback! {
            calico: CalicoNode "calico-node" {Calico} => calico::CalicoNode,
            kubelet: Kubelet "kubelet" (Options) => kubelet::Kubelet,
            flannel: Flannel "flannel" (Options) => flannel::Flannel,
            kubeadm: Kubeadm "kubeadm" (Options) => kubeadm::Kubeadm,
            kube_apiserver: KubeApiserver "kube-apiserver" (Options) => kube_apiserver::KubeApiserver,
            k3s: K3s "k3s" (Options) => k3s::K3s,
            k3s_flannel: K3sFlannel "k3s-flannel" (Options) => flannel::K3sFlannel,
            cilium: Cilium "cilium" (Options) => cilium::Cilium,
            cilium_nodeport: CiliumNodePort "cilium-nodeport" (Options) => cilium_node_address::CiliumNodePort,
            cilium_masquerade: CiliumMasquerade "cilium-masquerade" (Options) => cilium_node_address::CiliumMasquerade,
            etcd: Etcd "etcd" => etcd::Etcd,
            swarm: Swarm "swarm" => swarm::Swarm,
            consul: Consul "consul" => consul::Consul,
            nomad: Nomad "nomad" => nomad::Nomad,
            ansible: Ansible "ansible" (Options) => ansible::Ansible,
        }
    };
}
#[allow(unused_imports)]
pub(crate) use for_each_program;

/// The vocabularies: calls `$callback!` with every program that has words
/// of its own, one line each: `Variant module "whose"`, where `module` is
/// the leaf `replay::module` defining that program's `Note`, `Reason` and
/// `Failure` (an empty enum where it has none) and its `Semantics` (what
/// its replay stands for, with the [`Program`] it is), `Variant` the
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
            CalicoNode calico_note "calico-node's",
            KubeApiserver kube_apiserver_note "kube-apiserver's",
            Kubelet kubelet_note "kubelet's",
            Flannel flannel_note "flannel's (and k3s's embedded flannel's)",
            Cilium cilium_note "Cilium's (its node-IP fallback)",
            CiliumNodeAddress cilium_node_address_note "Cilium's NodePort and masquerade addresses'",
            K3s k3s_note "k3s's",
            Kubeadm kubeadm_note "kubeadm's",
            Etcd etcd_note "etcd's",
            Swarm swarm_note "Docker Swarm's",
            Consul consul_note "Consul's",
            Nomad nomad_note "Nomad's",
            Ansible ansible_note "Ansible's",
        }
    };
}
#[allow(unused_imports)]
pub(crate) use for_each_vocabulary;

#[macro_use]
pub mod options;

pub mod ansible;
pub mod ansible_note;
pub mod assumed;
pub mod blocks;
pub mod calico;
pub mod calico_method;
pub mod calico_note;
mod calico_runtime;
pub mod calico_text;
pub mod calico_version;
mod calico_walk;
pub mod chooser;
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
pub mod kube_apiserver_note;
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
mod slip;
pub mod source;
pub mod swarm;
pub mod swarm_note;
pub mod unshown;
pub mod verdict;

pub use family::Family;
pub use method::MethodSpec;
pub use program::Program;

#[cfg(test)]
pub(crate) mod testhost;
