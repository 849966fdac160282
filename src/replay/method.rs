//! Running a method: [`MethodSpec`] is a [`Method`] (see
//! [`super::program`]) with its program's options, [`MethodSpec::detect`]
//! the one place that runs them, and [`options`] the registry of which
//! options each program reads (each module's `OPTIONS`).
//!
//! Contract: a method's identity is its [`Program`] ([`Method::program`],
//! and a detection's [`program`](super::verdict::Detection::program));
//! names are read once, in [`super::program`], and nothing after tells
//! methods apart by their text. Adding a program: its [`Program`]
//! variant, its `MethodSpec` variant and arms here and its line in
//! [`options`], its module with its `Settings` (`program_options!`), its
//! [`super::semantics::Semantics`] variant, its flags in the CLI's
//! `args/programs.rs`, and its words in its own file under `report/`.

use super::failure::Failure;
pub use super::program::{Method, Program};
use super::verdict::{Detection, NodeAddress};
use super::{
    assumed, calico, cilium, cilium_node_address, consul, etcd, flannel, k3s, kube_apiserver, kubeadm, kubelet, nomad,
    swarm,
};
use crate::model::{Model, ObjectKind};
use crate::netlink::names::IFF_UP;

/// The options each program reads (their manifest keys), from its module:
/// the registry of options, one line per program.
pub fn options(p: Program) -> &'static [&'static str] {
    match p {
        Program::CalicoNode => calico::OPTIONS,
        Program::Kubelet => kubelet::OPTIONS,
        Program::Flannel => flannel::OPTIONS,
        Program::Kubeadm => kubeadm::OPTIONS,
        Program::KubeApiserver => kube_apiserver::OPTIONS,
        Program::K3s => k3s::OPTIONS,
        Program::K3sFlannel => flannel::K3S_OPTIONS,
        Program::Cilium => cilium::OPTIONS,
        Program::CiliumNodePort | Program::CiliumMasquerade => cilium_node_address::OPTIONS,
        Program::Etcd => etcd::OPTIONS,
        Program::Swarm => swarm::OPTIONS,
        Program::Consul => consul::OPTIONS,
        Program::Nomad => nomad::OPTIONS,
    }
}

/// The programs that read an option (a manifest key), in `--all`'s order.
pub fn readers(option: &str) -> Vec<Program> {
    Program::ALL
        .into_iter()
        .filter(|p| options(*p).contains(&option))
        .collect()
}

/// Every option some program reads, each once.
pub fn all_options() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for p in Program::ALL {
        for o in options(p) {
            if !all.contains(o) {
                all.push(o);
            }
        }
    }
    all
}

/// A method and its settings.
#[derive(Debug, Clone)]
pub enum MethodSpec {
    /// calico-node with an `IP_AUTODETECTION_METHOD` value, parsed once.
    Calico {
        /// `IP_AUTODETECTION_METHOD` as written: calico-node's own input
        /// (the detection names it as a [`calico::MethodText`]).
        text: String,
        /// The value as the release replayed parses it, or why it does not.
        method: Result<calico::Method, calico::MethodError>,
        /// calico-node's other settings.
        options: calico::Options,
    },
    /// kubelet's node IP.
    Kubelet(kubelet::Options),
    /// flannel's external interface and address.
    Flannel(flannel::Options),
    /// kubeadm's API server advertise address.
    Kubeadm(kubeadm::Options),
    /// kube-apiserver's advertise address.
    KubeApiserver(kube_apiserver::Options),
    /// k3s's node IPs.
    K3s(k3s::Options),
    /// k3s's embedded flannel: flannel's default-route walk (or
    /// `--flannel-iface`), in k3s's words.
    K3sFlannel(flannel::Options),
    /// Cilium's node IP (its fallback walk over the devices).
    Cilium(cilium::Options),
    /// Cilium's NodePort or masquerade addresses (`cilium-nodeport`,
    /// `cilium-masquerade`).
    CiliumNodeAddress(cilium_node_address::Options),
    /// etcd's default host (from the last main-table default route).
    Etcd,
    /// Docker Swarm's default advertise address.
    Swarm,
    /// Consul's default bind address (its private IPv4 address).
    Consul,
    /// Nomad's default advertise address (go-sockaddr's private IP).
    Nomad,
}

impl MethodSpec {
    /// The replay, with a note for each assumption its answer rests on
    /// (see [`assumed`]).
    pub fn detect(&self, model: &Model) -> Detection {
        let mut d = match self {
            MethodSpec::Calico { text, method, options } => calico::detect_parsed(model, text, method, options),
            MethodSpec::Kubelet(o) => kubelet::detect(model, o),
            MethodSpec::Flannel(o) => flannel::detect(model, o),
            MethodSpec::Kubeadm(o) => kubeadm::detect(model, o),
            MethodSpec::KubeApiserver(o) => kube_apiserver::detect(model, o),
            MethodSpec::K3s(o) => k3s::detect(model, o),
            MethodSpec::K3sFlannel(o) => flannel::detect_k3s(model, o),
            MethodSpec::Cilium(o) => cilium::detect(model, o),
            MethodSpec::CiliumNodeAddress(o) => cilium_node_address::detect(model, o),
            MethodSpec::Etcd => etcd::detect(model),
            MethodSpec::Swarm => swarm::detect(model),
            MethodSpec::Consul => consul::detect(model),
            MethodSpec::Nomad => nomad::detect(model),
        };
        if d.addresses.is_empty()
            && let Some(a) = d.address
        {
            d.addresses.push(a);
        }
        if !model.addresses_shown() {
            no_addresses(&mut d);
        }
        unknown_yet(model, &mut d);
        assumed::note(model, &mut d, self.walks_links());
        d.down = d
            .candidates
            .iter()
            .map(|c| c.index)
            .filter(|i| model.link(*i).is_some_and(|l| l.flags & IFF_UP == 0))
            .fold(Vec::new(), |mut v, i| {
                if !v.contains(&i) {
                    v.push(i);
                }
                v
            });
        d
    }

    /// Whether the answer depends on the order the interfaces are walked
    /// in (not on route order or a unique address).
    fn walks_links(&self) -> bool {
        match self {
            MethodSpec::Calico { method, .. } => matches!(
                method,
                Ok(calico::Method::FirstFound(_)
                    | calico::Method::Interface(_)
                    | calico::Method::SkipInterface { .. }
                    | calico::Method::Cidr(_))
            ),
            MethodSpec::Flannel(o) => !o.iface_regex.is_empty(),
            // Several candidates are refused, whatever their order; the
            // sorts end on dump order only for ties.
            MethodSpec::Cilium(_)
            | MethodSpec::CiliumNodeAddress(_)
            | MethodSpec::Swarm
            | MethodSpec::Consul
            | MethodSpec::Nomad => true,
            MethodSpec::Kubelet(_)
            | MethodSpec::Kubeadm(_)
            | MethodSpec::KubeApiserver(_)
            | MethodSpec::K3s(_)
            | MethodSpec::K3sFlannel(_)
            | MethodSpec::Etcd => false,
        }
    }

    /// What `--timeline` compares: the detection's address, interface and
    /// error (see [`super::verdict::Choice`]), through a faster path where the
    /// method has one. Always equal to those of [`detect`](Self::detect).
    pub fn outcome(&self, model: &Model) -> (Option<NodeAddress>, Option<String>, Option<Failure>) {
        if !model.addresses_shown() {
            let missing = match model.answered_later(ObjectKind::Addresses) {
                Some(request_packet) => Failure::UnknownYet {
                    kind: ObjectKind::Addresses,
                    request_packet,
                },
                None => Failure::NoAddressesCaptured,
            };
            return (None, None, Some(missing));
        }
        if let MethodSpec::Calico { method, options, .. } = self
            && let Some(o) = calico::outcome_parsed(model, method, options)
        {
            return o;
        }
        // The whole-host replays without their candidate rows.
        let d = match self {
            MethodSpec::Cilium(o) => cilium::detect_in(model, o, false),
            MethodSpec::Consul => consul::detect_in(model, false),
            MethodSpec::Nomad => nomad::detect_in(model, false),
            _ => self.detect(model),
        };
        let mut d = d;
        unknown_yet(model, &mut d);
        (d.address, d.interface, d.error)
    }
}

/// A replay that found no data where the dump holding it is answered
/// after this moment (`--at`) says the answer is unknown yet.
fn unknown_yet(model: &Model, d: &mut Detection) {
    let kind = match d.error {
        Some(Failure::NoAddressesCaptured) => ObjectKind::Addresses,
        Some(Failure::NoRoutesCaptured(_)) => ObjectKind::Routes,
        _ => return,
    };
    if let Some(request_packet) = model.answered_later(kind) {
        d.error = Some(Failure::UnknownYet { kind, request_packet });
    }
}

/// Every chooser reads the host's addresses: where no message showed any,
/// what the model holds (the loopback's, link-locals its rules made) is no
/// answer, and the replay says the capture cannot give one.
fn no_addresses(d: &mut Detection) {
    d.address = None;
    d.addresses.clear();
    d.interface = None;
    // (the program's own log line and the candidates' verdicts would speak
    // of addresses nothing showed)
    d.log.clear();
    d.candidates.clear();
    d.error = Some(Failure::NoAddressesCaptured);
}
