//! Replays: what a node-IP detection method or a resolver would choose, as
//! pure functions of the kernel model, with the reason for every candidate
//! passed over.

pub mod calico;
pub mod conflict;
pub mod flannel;
pub mod gai;
pub mod goregex;
pub mod goview;
pub mod kubelet;
pub mod matrix;
pub mod source;
pub mod verdict;

use crate::model::Model;
use verdict::Detection;

/// A method and its settings.
#[derive(Debug, Clone)]
pub enum MethodSpec {
    /// calico-node with an `IP_AUTODETECTION_METHOD` value.
    Calico {
        method: String,
        options: calico::Options,
    },
    Kubelet(kubelet::Options),
    Flannel(flannel::Options),
}

impl MethodSpec {
    pub fn detect(&self, model: &Model) -> Detection {
        match self {
            MethodSpec::Calico { method, options } => calico::detect(model, method, options),
            MethodSpec::Kubelet(o) => kubelet::detect(model, o),
            MethodSpec::Flannel(o) => flannel::detect(model, o),
        }
    }
}

/// Everything that selects and configures a method, as the command line
/// and the regression manifests spell it.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `kubelet`, `flannel`, or a Calico `IP_AUTODETECTION_METHOD` value.
    pub method: String,
    pub calico_version: Option<calico::Version>,
    /// 4 or 6 (default 4).
    pub family: Option<u8>,
    pub node_internal_ips: Vec<std::net::IpAddr>,
    pub ip: Option<calico::IpSetting>,
    pub bgp_peers: Vec<std::net::IpAddr>,
    pub node_ip: Vec<std::net::IpAddr>,
    pub hostname_override: Option<String>,
    pub resolved: Vec<std::net::IpAddr>,
    pub iface: Vec<String>,
    pub iface_regex: Vec<String>,
    pub iface_can_reach: Option<std::net::IpAddr>,
    pub public_ip: Option<std::net::IpAddr>,
}

impl Settings {
    pub fn spec(&self) -> MethodSpec {
        let family = self.family.unwrap_or(4);
        match self.method.as_str() {
            "kubelet" => MethodSpec::Kubelet(kubelet::Options {
                node_ip: self.node_ip.clone(),
                hostname_override: self.hostname_override.clone(),
                resolved: self.resolved.clone(),
            }),
            "flannel" => MethodSpec::Flannel(flannel::Options {
                iface: self.iface.clone(),
                iface_regex: self.iface_regex.clone(),
                iface_can_reach: self.iface_can_reach,
                public_ip: self.public_ip,
                family,
            }),
            m => MethodSpec::Calico {
                method: m.to_owned(),
                options: calico::Options {
                    version: self.calico_version.unwrap_or(calico::Version::LATEST),
                    family,
                    node_internal_ips: self.node_internal_ips.clone(),
                    ip: self.ip.clone().unwrap_or(calico::IpSetting::Autodetect),
                    bgp_peers: self.bgp_peers.clone(),
                },
            },
        }
    }
}

#[cfg(test)]
pub(crate) mod testhost;
