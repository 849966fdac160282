//! The registry of detection methods: [`Method`] names each replayed
//! program (as the command line and the manifests spell it), [`MethodSpec`]
//! is one with its settings, and [`MethodSpec::detect`] the one place that
//! runs them.
//!
//! Contract: adding a method adds its replay module, a variant of both
//! enums here and its arm in each of their matches; nothing else in the
//! library tells methods apart by name.

use super::failure::Failure;
use super::verdict::{Detection, NodeAddress};
use super::{assumed, calico, flannel, kubeadm, kubelet};
use crate::model::Model;

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
}

impl Method {
    /// The program whose settings these are (`calico-node`, `kubelet`, ...).
    pub fn program(&self) -> &'static str {
        match self {
            Method::Calico(_) => "calico-node",
            Method::Kubelet => "kubelet",
            Method::Flannel => "flannel",
            Method::Kubeadm => "kubeadm",
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
        match s {
            "kubelet" => Method::Kubelet,
            "flannel" => Method::Flannel,
            "kubeadm" => Method::Kubeadm,
            text => Method::Calico(text.to_owned()),
        }
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
            other => f.write_str(other.program()),
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
        text: String,
        method: Result<calico::Method, calico::MethodError>,
        options: calico::Options,
    },
    Kubelet(kubelet::Options),
    Flannel(flannel::Options),
    Kubeadm(kubeadm::Options),
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
        };
        assumed::note(model, &mut d, self.walks_links());
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
                    | calico::Method::SkipInterface(_)
                    | calico::Method::Cidr(_))
            ),
            MethodSpec::Flannel(o) => !o.iface_regex.is_empty(),
            MethodSpec::Kubelet(_) | MethodSpec::Kubeadm(_) => false,
        }
    }

    /// What `--timeline` compares: the detection's address, interface and
    /// error (see [`super::verdict::Choice`]), through a faster path where the
    /// method has one. Always equal to those of [`detect`](Self::detect).
    pub fn outcome(&self, model: &Model) -> (Option<NodeAddress>, Option<String>, Option<Failure>) {
        if let MethodSpec::Calico { method, options, .. } = self
            && let Some(o) = calico::outcome_parsed(model, method, options)
        {
            return o;
        }
        let d = self.detect(model);
        (d.address, d.interface, d.error)
    }
}
