//! Detection methods as they are asked for: [`Method`] is `--method` (or a
//! manifest's `method`) parsed once (a program, or calico-node's
//! `IP_AUTODETECTION_METHOD` text, which calico's replay parses per
//! release), [`MethodSpec`] one with its settings, and
//! [`MethodSpec::detect`] the one place that runs them.
//!
//! Contract: a method's identity is its [`Program`] ([`Method::program`],
//! and a detection's [`program`](super::verdict::Detection::program));
//! names are read once, here ([`Method::from`], through
//! [`Program::by_name`]), and nothing after tells methods apart by their
//! text (`Detection::method` is the spelling printed, not an identity).
//! Adding a program is not one place yet: its variant in both enums here
//! and in [`Program`], its arm in each of their matches, its defaults in
//! [`super::matrix::methods`] (`--all`), its [`super::semantics::Semantics`]
//! variant, its settings in `app::settings` and the CLI's flags, and the
//! words for its reasons and notes in `report`.

use super::failure::Failure;
use super::program::Program;
use super::verdict::{Detection, NodeAddress};
use super::{assumed, calico, cilium, cilium_node_address, consul, etcd, flannel, k3s, kubeadm, kubelet, nomad, swarm};
use crate::model::{Model, ObjectKind};
use crate::netlink::names::IFF_UP;

/// A detection method, parsed once from `--method` or a manifest's
/// `method`: the name of a program that picks a node IP, or else a
/// calico-node `IP_AUTODETECTION_METHOD` value (calico-node's default
/// program; what calico-node itself rejects, it rejects in the replay).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// calico-node, with the `IP_AUTODETECTION_METHOD` value as written
    /// (parsed by [`calico::Method::parse`] for the release replayed).
    Calico(String),
    /// kubelet's node IP.
    Kubelet,
    /// flannel's public IP.
    Flannel,
    /// kubeadm's API server advertise address.
    Kubeadm,
    /// k3s's (RKE2's) node IPs.
    K3s,
    /// k3s's embedded flannel's public IP.
    K3sFlannel,
    /// Cilium's node-IP fallback.
    Cilium,
    /// Cilium's NodePort addresses.
    CiliumNodePort,
    /// Cilium's masquerade addresses.
    CiliumMasquerade,
    /// etcd's default host.
    Etcd,
    /// Docker Swarm's advertise address.
    Swarm,
    /// Consul's default bind address.
    Consul,
    /// Nomad's default advertise address.
    Nomad,
}

impl Method {
    /// Every program nlorder replays besides calico-node, as `--method`
    /// spells them.
    pub const PROGRAMS: &'static [Method] = &[
        Method::Kubelet,
        Method::Flannel,
        Method::Kubeadm,
        Method::K3s,
        Method::K3sFlannel,
        Method::Cilium,
        Method::CiliumNodePort,
        Method::CiliumMasquerade,
        Method::Etcd,
        Method::Swarm,
        Method::Consul,
        Method::Nomad,
    ];
}

impl Method {
    /// The program whose settings these are.
    pub fn program(&self) -> Program {
        match self {
            Method::Calico(_) => Program::CalicoNode,
            Method::Kubelet => Program::Kubelet,
            Method::Flannel => Program::Flannel,
            Method::Kubeadm => Program::Kubeadm,
            Method::K3s => Program::K3s,
            Method::K3sFlannel => Program::K3sFlannel,
            Method::Cilium => Program::Cilium,
            Method::CiliumNodePort => Program::CiliumNodePort,
            Method::CiliumMasquerade => Program::CiliumMasquerade,
            Method::Etcd => Program::Etcd,
            Method::Swarm => Program::Swarm,
            Method::Consul => Program::Consul,
            Method::Nomad => Program::Nomad,
        }
    }
}

impl Default for Method {
    fn default() -> Self {
        Method::Calico("first-found".into())
    }
}

impl From<&str> for Method {
    fn from(s: &str) -> Method {
        Method::PROGRAMS
            .iter()
            .find(|m| Some(m.program()) == Program::by_name(s))
            .cloned()
            .unwrap_or_else(|| Method::Calico(s.to_owned()))
    }
}

impl std::str::FromStr for Method {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Method::from(s))
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Method::Calico(text) => f.write_str(text),
            other => f.write_str(other.program().name()),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Method {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Method::from(String::deserialize(d)?.as_str()))
    }
}

/// A method and its settings.
#[derive(Debug, Clone)]
pub enum MethodSpec {
    /// calico-node with an `IP_AUTODETECTION_METHOD` value, parsed once.
    Calico {
        /// The value as written.
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
