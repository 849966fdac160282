//! How a node-IP detection method is chosen and configured: one type for
//! the command line (`nlorder detect --method ...`) and the regression
//! manifests (`[[detect]] method = ...`), so both spell and mean the same.
//!
//! Contract: every value is parsed and checked once, here, into a typed
//! field; [`DetectSettings::spec`] builds the replay's [`MethodSpec`] (with
//! the Calico method parsed and its patterns compiled once) or says which
//! setting is wrong. A mistake in nlorder's own arguments is an error here;
//! a configuration the replayed program itself rejects (an unknown Calico
//! method, kubernetes-internal-ip on a release without it) is a replay
//! result with that program's message, not an error.

use crate::bad_value::BadValue;
use std::fmt;
use std::net::IpAddr;
use std::path::PathBuf;
use std::str::FromStr;

use ipnet::IpNet;
use serde::{Deserialize, Deserializer};

use crate::replay::gai::hosts::{HostConf, HostsFile};
use crate::replay::method::Method;
use crate::replay::verdict::{Detection, NodeAddress};
use crate::replay::{Family, MethodSpec, calico, cilium, cilium_node_address, flannel, k3s, kubeadm, kubelet};

/// Deserializes any type from its text form (`FromStr`), so manifests take
/// exactly what the command line takes.
macro_rules! deserialize_from_str {
    ($($t:ty),*) => {$(
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    )*};
}

deserialize_from_str!(Expected, NodeInternalIp, Resolved, calico::Version, calico::IpSetting);

/// What a detection must choose: `--expect` on the command line, `address`
/// in a manifest. `ADDR` compares the IP, `ADDR/LEN` also the prefix length,
/// `none` requires that nothing is chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// `none`: the method must choose nothing.
    Nothing,
    /// The chosen IP, whatever its prefix length.
    Ip(IpAddr),
    /// The chosen IP and its prefix length.
    Net(IpNet),
}

impl FromStr for Expected {
    type Err = BadValue;
    fn from_str(s: &str) -> Result<Self, BadValue> {
        if s == "none" {
            return Ok(Expected::Nothing);
        }
        if s.contains('/') {
            return s
                .parse()
                .map(Expected::Net)
                .map_err(|_| BadValue::new(s, "not an address with a prefix length (ADDR/LEN)"));
        }
        s.parse()
            .map(Expected::Ip)
            .map_err(|_| BadValue::new(s, "not an address (ADDR, ADDR/LEN or none)"))
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Nothing => write!(f, "none"),
            Expected::Ip(ip) => write!(f, "{ip}"),
            Expected::Net(n) => write!(f, "{n}"),
        }
    }
}

impl Expected {
    /// Whether the detection chose what is expected.
    pub fn holds(&self, d: &Detection) -> bool {
        match self {
            Expected::Nothing => d.address.is_none(),
            Expected::Ip(ip) => d.ip() == Some(*ip),
            Expected::Net(n) => d.address == Some(NodeAddress::Net(*n)),
        }
    }
}

/// `--node-internal-ip [NODE=]IP`: the Node's InternalIP, for every node or
/// for the one named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeInternalIp {
    /// The node it is for (None: every node).
    pub node: Option<String>,
    /// The InternalIP on the Node object.
    pub ip: IpAddr,
}

impl FromStr for NodeInternalIp {
    type Err = BadValue;
    fn from_str(s: &str) -> Result<Self, BadValue> {
        let (node, ip) = match s.split_once('=') {
            Some((n, ip)) if !n.is_empty() => (Some(n.to_owned()), ip),
            _ => (None, s),
        };
        let ip = ip.parse().map_err(|_| BadValue::new(s, "not IP or NODE=IP"))?;
        Ok(NodeInternalIp { node, ip })
    }
}

/// One of the node name's resolver answers, or `none` (the lookup
/// returned nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// The lookup returned no address.
    Nothing,
    /// An address it returned.
    Ip(IpAddr),
}

impl FromStr for Resolved {
    type Err = BadValue;
    fn from_str(s: &str) -> Result<Self, BadValue> {
        if s == "none" {
            return Ok(Resolved::Nothing);
        }
        s.parse()
            .map(Resolved::Ip)
            .map_err(|_| BadValue::new(s, "not an address (or none)"))
    }
}

/// Everything that selects and configures a replayed method.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DetectSettings {
    /// A program (`kubelet`, `flannel`, `kubeadm`, `k3s`, `k3s-flannel`, `cilium`, `cilium-nodeport`,
    /// `cilium-masquerade`, `etcd`,
    /// `swarm`, `consul`, `nomad`), or a Calico IP_AUTODETECTION_METHOD value: first-found,
    /// `interface=REGEX[,REGEX]`, `skip-interface=REGEX[,REGEX]`, `cidr=CIDR[,CIDR]`,
    /// can-reach=DEST, kubernetes-internal-ip. REGEX means what it means to
    /// calico-node: Go's RE2 (ASCII \d \w \s \b, \Q..\E), not the regex crate.
    pub method: Method,
    /// Calico release whose behaviour to replay (exclude list, bugs), e.g. 3.22.1;
    /// a later release than any nlorder knows is replayed as the newest it knows, with a warning.
    pub calico_version: calico::Version,
    /// Address family to detect (calico-node detects IPv4 and IPv6 separately): 4 or 6.
    pub family: Option<Family>,
    /// The Node's InternalIP (kubernetes-internal-ip), repeatable, in status order;
    /// `NODE=IP` gives it for one node of several captures.
    pub node_internal_ip: Vec<NodeInternalIp>,
    /// calico-node's IP (or IP6) setting: autodetect, none, or ADDR[/LEN].
    pub ip: calico::IpSetting,
    /// A BGP peer: say whether the kernel would reach it from the chosen address. Repeatable.
    pub bgp_peer: Vec<IpAddr>,
    /// kubelet --node-ip (one, or two comma-separated for dual stack).
    pub node_ip: Vec<IpAddr>,
    /// kubelet --hostname-override.
    pub hostname_override: Option<String>,
    /// What the node name (kubelet) or can-reach=NAME (calico-node) resolved to, in resolver
    /// order (repeatable); none: the lookup returned nothing.
    pub resolved: Vec<Resolved>,
    /// kubelet: look the node name (--hostname-override, else the capture's node name) up in
    /// this hosts file and sort the answers as glibc's getaddrinfo does on the host, instead
    /// of --resolved.
    pub hosts: Option<PathBuf>,
    /// With hosts: the host's /etc/host.conf (`multi on` returns every line naming it).
    pub host_conf: Option<PathBuf>,
    /// flannel --iface (name or IP), repeatable.
    pub iface: Vec<String>,
    /// flannel --iface-regex, repeatable.
    pub iface_regex: Vec<String>,
    /// flannel --iface-can-reach.
    pub iface_can_reach: Option<IpAddr>,
    /// flannel --public-ip.
    pub public_ip: Option<IpAddr>,
    /// kubeadm --apiserver-advertise-address (`::` prefers IPv6, a loopback
    /// address a global one on lo).
    pub advertise_address: Option<IpAddr>,
    /// k3s --flannel-iface (k3s and k3s-flannel).
    pub flannel_iface: Option<String>,
    /// flannel release whose address sort to replay (flannel, k3s-flannel), e.g. 0.27.0.
    pub flannel_version: calico::Version,
    /// Cilium's devices (its `devices` setting): the node-IP fallback walks the first one only.
    pub cilium_device: Option<String>,
    /// Cilium release whose node-IP fallback to replay, e.g. 1.13.
    pub cilium_version: calico::Version,
    /// Exit 1 unless the chosen address is this one (ADDR compares the IP, ADDR/LEN also
    /// the prefix, none: nothing chosen). In a manifest: `address`.
    #[serde(rename = "address")]
    pub expect: Option<Expected>,
    /// Manifests only: the interface the detection must choose.
    pub interface: Option<String>,
    /// Manifests only: the moment to evaluate (a packet number or a time).
    pub at: Option<crate::rebuild::AtValue>,
}

impl Default for DetectSettings {
    fn default() -> Self {
        DetectSettings {
            method: Method::default(),
            calico_version: calico::Version::LATEST,
            family: None,
            node_internal_ip: Vec::new(),
            ip: calico::IpSetting::Autodetect,
            bgp_peer: Vec::new(),
            node_ip: Vec::new(),
            hostname_override: None,
            resolved: Vec::new(),
            hosts: None,
            host_conf: None,
            iface: Vec::new(),
            iface_regex: Vec::new(),
            iface_can_reach: None,
            public_ip: None,
            advertise_address: None,
            flannel_iface: None,
            flannel_version: flannel::LATEST,
            cilium_device: None,
            cilium_version: cilium::LATEST,
            expect: None,
            interface: None,
            at: None,
        }
    }
}

/// A setting nlorder cannot use (exit 2: fix the argument).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// A pattern or CIDR of the method does not compile.
    #[error("{0}")]
    Pattern(calico::MethodError),
    /// A setting that the chosen method does not read.
    #[error("--{option} is {owner}'s; it means nothing to --method {method}")]
    NotForMethod {
        /// The option, without its dashes.
        option: &'static str,
        /// The program that reads it.
        owner: &'static str,
        /// The method asked for.
        method: String,
    },
    /// kubernetes-internal-ip replays a Node's InternalIP, which must be given.
    #[error("--method kubernetes-internal-ip needs the Node's InternalIP: --node-internal-ip IP (or NODE=IP)")]
    NoInternalIp,
    /// Two sources of the node name's answers.
    #[error("--hosts looks the node name up; --resolved gives its answers: give one of them")]
    HostsAndResolved,
    /// A hosts file or host.conf that cannot be read.
    #[error("{0}")]
    Unreadable(String),
    /// kubelet's family comes from its first --node-ip.
    #[error("--family {0} contradicts --node-ip {1} (kubelet prefers the family of its first --node-ip)")]
    FamilyConflict(Family, IpAddr),
    /// kubernetes-internal-ip for a node that none of the InternalIPs given applies to.
    #[error(
        "--method kubernetes-internal-ip: no --node-internal-ip is for node {0} (given for {1}; name captures NODE=PATH)"
    )]
    NoInternalIpFor(String, String),
}

impl DetectSettings {
    /// Settings that cannot mean anything for the chosen method, or for the
    /// nodes named (`nodes`: the names of the captures).
    pub fn validate(&self, nodes: &[String]) -> Result<(), SettingsError> {
        let method = &self.method;
        let not_for = |option: &'static str, owner: &'static str| SettingsError::NotForMethod {
            option,
            owner,
            method: method.to_string(),
        };
        if *method != Method::Flannel {
            for (set, option) in [
                (!self.iface.is_empty(), "iface"),
                (!self.iface_regex.is_empty(), "iface-regex"),
                (self.iface_can_reach.is_some(), "iface-can-reach"),
                (self.public_ip.is_some(), "public-ip"),
            ] {
                if set {
                    return Err(not_for(option, "flannel"));
                }
            }
        }
        if *method != Method::Kubeadm && self.advertise_address.is_some() {
            return Err(not_for("advertise-address", "kubeadm"));
        }
        if !matches!(method, Method::K3s | Method::K3sFlannel) && self.flannel_iface.is_some() {
            return Err(not_for("flannel-iface", "k3s"));
        }
        if !matches!(method, Method::Flannel | Method::K3sFlannel) && self.flannel_version != flannel::LATEST {
            return Err(not_for("flannel-version", "flannel"));
        }
        if !matches!(
            method,
            Method::Cilium | Method::CiliumNodePort | Method::CiliumMasquerade
        ) {
            for (set, option) in [
                (self.cilium_device.is_some(), "cilium-device"),
                (self.cilium_version != cilium::LATEST, "cilium-version"),
            ] {
                if set {
                    return Err(not_for(option, "cilium"));
                }
            }
        }
        if !matches!(method, Method::Kubelet | Method::K3s) && !self.node_ip.is_empty() {
            return Err(not_for("node-ip", "kubelet's and k3s"));
        }
        if *method != Method::Kubelet {
            for (set, option) in [
                (self.hostname_override.is_some(), "hostname-override"),
                (self.hosts.is_some(), "hosts"),
            ] {
                if set {
                    return Err(not_for(option, "kubelet"));
                }
            }
        }
        if self.hosts.is_some() && !self.resolved.is_empty() {
            return Err(SettingsError::HostsAndResolved);
        }
        let can_reach_name = matches!(method, Method::Calico(text)
            if text.strip_prefix("can-reach=").is_some_and(|d| d.parse::<IpAddr>().is_err()));
        if *method != Method::Kubelet && !can_reach_name && !self.resolved.is_empty() {
            return Err(not_for("resolved", "kubelet's and calico-node's can-reach=NAME"));
        }
        if *method == Method::Kubelet
            && let (Some(f), Some(ip)) = (self.family, self.node_ip.first())
            && Family::of(*ip) != f
        {
            return Err(SettingsError::FamilyConflict(f, *ip));
        }
        if matches!(method, Method::Calico(text) if text.starts_with("kubernetes-internal-ip")) {
            if self.node_internal_ip.is_empty() {
                return Err(SettingsError::NoInternalIp);
            }
            if let Some(node) = nodes.iter().find(|n| self.internal_ips(n).is_empty()) {
                let given: Vec<&str> = self.node_internal_ip.iter().filter_map(|n| n.node.as_deref()).collect();
                return Err(SettingsError::NoInternalIpFor(node.clone(), given.join(", ")));
            }
        }
        Ok(())
    }

    /// The family asked for (IPv4 unless said).
    pub fn family(&self) -> Family {
        self.family.unwrap_or_default()
    }

    /// `hosts` (and `host_conf`), read, for kubelet's node name: the
    /// hostname override, else the capture's node name.
    fn name_lookup(&self, node: &str) -> Result<Option<kubelet::NameLookup>, SettingsError> {
        let Some(path) = &self.hosts else { return Ok(None) };
        let read =
            |p: &PathBuf| std::fs::read(p).map_err(|e| SettingsError::Unreadable(format!("{}: {e}", p.display())));
        let multi = match &self.host_conf {
            Some(p) => HostConf::parse(&read(p)?).multi,
            None => false,
        };
        Ok(Some(kubelet::NameLookup {
            name: self.hostname_override.clone().unwrap_or_else(|| node.to_owned()),
            path: path.display().to_string(),
            file: HostsFile::parse(&read(path)?),
            multi,
        }))
    }

    /// The resolver's answers given, in order (`none` gives none).
    fn resolved_ips(&self) -> Vec<IpAddr> {
        self.resolved
            .iter()
            .filter_map(|r| match r {
                Resolved::Ip(ip) => Some(*ip),
                Resolved::Nothing => None,
            })
            .collect()
    }

    /// The Node's InternalIP addresses that apply to `node`.
    pub fn internal_ips(&self, node: &str) -> Vec<IpAddr> {
        self.node_internal_ip
            .iter()
            .filter(|n| n.node.as_deref().is_none_or(|who| who == node))
            .map(|n| n.ip)
            .collect()
    }

    /// The replay these settings select, for one node. With `method`
    /// overriding the one set here (an operator Installation's).
    pub fn spec(&self, node: &str) -> Result<MethodSpec, SettingsError> {
        let family = self.family();
        Ok(match &self.method {
            // kubelet prefers IPv6 when told `--node-ip ::`; `--family 6` says that.
            Method::Kubelet => MethodSpec::Kubelet(kubelet::Options {
                node_ip: match (self.family, self.node_ip.is_empty()) {
                    (Some(Family::V6), true) => vec![IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED)],
                    _ => self.node_ip.clone(),
                },
                hostname_override: self.hostname_override.clone(),
                resolved: self.resolved_ips(),
                lookup: self.name_lookup(node)?,
            }),
            Method::Kubeadm => MethodSpec::Kubeadm(kubeadm::Options {
                advertise_address: self.advertise_address,
            }),
            Method::Flannel => MethodSpec::Flannel(flannel::Options {
                iface: self.iface.clone(),
                iface_regex: self.iface_regex.clone(),
                iface_can_reach: self.iface_can_reach,
                public_ip: self.public_ip,
                family,
                version: self.flannel_version,
                host: flannel::Host::Flanneld,
            }),
            Method::K3s => MethodSpec::K3s(k3s::Options {
                node_ip: self.node_ip.clone(),
                flannel_iface: self.flannel_iface.clone(),
            }),
            Method::K3sFlannel => MethodSpec::K3sFlannel(flannel::Options {
                iface: self.flannel_iface.iter().cloned().collect(),
                family,
                version: self.flannel_version,
                ..flannel::Options::default()
            }),
            Method::Cilium => MethodSpec::Cilium(cilium::Options {
                device: self.cilium_device.clone(),
                version: self.cilium_version,
                family,
            }),
            Method::CiliumNodePort | Method::CiliumMasquerade => {
                MethodSpec::CiliumNodeAddress(cilium_node_address::Options {
                    devices: self
                        .cilium_device
                        .iter()
                        .flat_map(|d| d.split(','))
                        .map(str::to_owned)
                        .collect(),
                    version: self.cilium_version,
                    family,
                    role: if self.method == Method::CiliumMasquerade {
                        cilium_node_address::Role::Masquerade
                    } else {
                        cilium_node_address::Role::NodePort
                    },
                })
            }
            Method::Etcd => MethodSpec::Etcd,
            Method::Swarm => MethodSpec::Swarm,
            Method::Consul => MethodSpec::Consul,
            Method::Nomad => MethodSpec::Nomad,
            Method::Calico(text) => {
                let options = calico::Options {
                    version: self.calico_version,
                    family,
                    node_internal_ips: self.internal_ips(node),
                    ip: self.ip.clone(),
                    bgp_peers: self.bgp_peer.clone(),
                    resolved: self.resolved_ips(),
                };
                let method = calico::Method::parse(text, self.calico_version);
                if let Err(e) = &method
                    && e.is_argument()
                {
                    return Err(SettingsError::Pattern(e.clone()));
                }
                MethodSpec::Calico {
                    text: text.to_owned(),
                    method,
                    options,
                }
            }
        })
    }
}
