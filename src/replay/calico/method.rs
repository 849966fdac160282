//! calico-node's `IP_AUTODETECTION_METHOD` and `IP` settings as it parses
//! them, release by release: the default excludes of each release, the
//! interface patterns joined and compiled as Go's RE2, the method
//! dispatched as `AutoDetectCIDR` dispatches it (refusing what the release
//! does not know).
//!
//! Contract: parsing only, once per method and release; the walk that
//! uses it is [`crate::replay::calico`]'s.

use std::str::FromStr;

use ipnet::IpNet;

use crate::replay::calico::note::{Introduced, LaterMethod, MethodError, NearMethod};
use crate::replay::calico::text::MethodText;
use crate::replay::calico::version::Version;
use crate::replay::go::regex::GoRegex;

/// `DEFAULT_INTERFACES_TO_EXCLUDE` of a release (Linux), in source order.
pub fn default_excludes(v: Version) -> Vec<&'static str> {
    const OLD: [&str; 11] = [
        "docker.*",
        "cbr.*",
        "dummy.*",
        "virbr.*",
        "lxcbr.*",
        "veth.*",
        "lo",
        "cali.*",
        "tunl.*",
        "flannel.*",
        "kube-ipvs.*",
    ];
    const ANCHORED: [&str; 12] = [
        "^docker.*",
        "^cbr.*",
        "^dummy.*",
        "^virbr.*",
        "^lxcbr.*",
        "^veth.*",
        "^lo",
        "^cali.*",
        "^tunl.*",
        "^flannel.*",
        "^kube-ipvs.*",
        "^cni.*",
    ];
    const VXLAN_WG: [&str; 4] = [
        r"^vxlan\.calico.*",
        r"^vxlan-v6\.calico.*",
        r"^wireguard\.cali.*",
        r"^wg-v6\.cali.*",
    ];
    let (minor, patch) = (v.1, v.2);
    if v.0 < 3 || (v.0 == 3 && minor < 15) {
        return OLD.to_vec();
    }
    if v.0 == 3 && minor >= 25 || v.0 > 3 {
        return vec![
            "^docker.*",
            "^cbr.*",
            "^dummy.*",
            "^podman.*",
            "^virbr.*",
            "^lxcbr.*",
            "^veth.*",
            "^lo",
            "^br-.*",
            "^cali.*",
            "^tunl.*",
            "^flannel.*",
            "^kube-ipvs.*",
            "^cni.*",
            r"^vxlan\.calico.*",
            r"^vxlan-v6\.calico.*",
            r"^wireguard\.cali.*",
            r"^wg-v6\.cali.*",
            "^nodelocaldns.*",
        ];
    }
    let anchored = (minor == 23 && patch >= 4) || (minor == 24 && patch >= 3);
    if !anchored {
        let mut l = OLD.to_vec();
        l.push("cni.*");
        return l;
    }
    let mut l = ANCHORED.to_vec();
    if (minor == 23 && patch >= 5) || (minor == 24 && patch >= 4) {
        l.extend(VXLAN_WG);
    }
    if minor == 24 && patch >= 6 {
        l.push("^nodelocaldns.*");
    }
    l
}

/// Interface-name patterns as calico-node joins and compiles them
/// (`(p1)|(p2)|…`, Go's RE2), compiled once.
#[derive(Debug, Clone)]
pub struct Patterns {
    texts: Vec<String>,
    joined: Option<GoRegex>,
    each: Vec<(String, GoRegex)>,
}

impl Patterns {
    /// The patterns given, joined as calico-node joins them; an error when
    /// the join does not compile as Go's RE2.
    pub fn new(texts: Vec<String>) -> Result<Patterns, crate::replay::go::regex::PatternError> {
        let joined = joined(&texts)?;
        let each = texts
            .iter()
            .filter_map(|t| GoRegex::new(t).ok().map(|r| (t.clone(), r)))
            .collect();
        Ok(Patterns { texts, joined, each })
    }

    /// The patterns as given.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    pub(super) fn is_match(&self, name: &[u8]) -> Option<bool> {
        self.joined.as_ref().map(|r| r.is_match(name))
    }

    /// The first single pattern that matches, to name it in a verdict
    /// (all of them, joined, when only their join compiles).
    pub(super) fn which(&self, name: &[u8]) -> String {
        self.each
            .iter()
            .find(|(_, r)| r.is_match(name))
            .map(|(t, _)| t.clone())
            .unwrap_or_else(|| self.texts.join(","))
    }
}

/// `IP_AUTODETECTION_METHOD`, parsed the way `AutoDetectCIDR` dispatches,
/// with its patterns (and the release's default excludes) compiled.
#[derive(Debug, Clone)]
pub enum Method {
    /// The release's default excludes.
    FirstFound(Patterns),
    /// `interface=`: the include patterns.
    Interface(Patterns),
    /// The default excludes and the given patterns (`given`: those
    /// alone, as calico-node logs them).
    SkipInterface {
        /// The default excludes and the patterns given, joined.
        patterns: Patterns,
        /// The patterns given.
        given: Vec<String>,
    },
    /// `cidr=`: the networks (host bits cleared).
    Cidr(Vec<IpNet>),
    /// `can-reach=`: the destination, an address or a host name.
    CanReach(String),
    /// `kubernetes-internal-ip`: the Node's InternalIP.
    KubernetesInternalIp,
}

/// Splits at every match of `\s*,\s*`, keeping empty pieces (as Go's
/// `regexp.Split(s, -1)` does).
fn split_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|p| p.trim_matches(|c: char| c.is_ascii_whitespace()).to_owned())
        .collect()
}

impl Method {
    /// `s` as release `v` parses it: what that release refuses is an
    /// error, and so is a pattern or CIDR nlorder cannot compile.
    pub fn parse(s: &str, v: Version) -> Result<Method, MethodError> {
        let v = v.replayed();
        let text = || MethodText::new(s);
        let refused = |introduced| MethodError::Invalid {
            method: text(),
            introduced,
            near: None,
        };
        let invalid = || refused(None);
        let too_old = |method, since| {
            refused(Some(Introduced {
                method,
                since,
                replayed: v,
            }))
        };
        let defaults = || default_excludes(v).into_iter().map(String::from).collect::<Vec<_>>();
        let compile =
            |texts: Vec<String>| Patterns::new(texts).map_err(|error| MethodError::Pattern { method: text(), error });
        if s.is_empty() || s == "first-found" {
            return Ok(Method::FirstFound(compile(defaults())?));
        }
        if let Some(rest) = s.strip_prefix("interface=") {
            return Ok(Method::Interface(compile(split_list(rest))?));
        }
        if let Some(rest) = s.strip_prefix("cidr=") {
            if v < Version(3, 16, 0) {
                return Err(too_old(LaterMethod::Cidr, Version(3, 16, 0)));
            }
            let nets = split_list(rest)
                .into_iter()
                .map(|cidr| IpNet::from_str(&cidr).map_err(|_| MethodError::Cidr { method: text(), cidr }))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Method::Cidr(nets));
        }
        if let Some(rest) = s.strip_prefix("can-reach=") {
            return Ok(Method::CanReach(rest.to_owned()));
        }
        if let Some(rest) = s.strip_prefix("skip-interface=") {
            let given = split_list(rest);
            let mut ex = defaults();
            ex.extend(given.iter().cloned());
            return Ok(Method::SkipInterface {
                patterns: compile(ex)?,
                given,
            });
        }
        if s.starts_with("kubernetes-internal-ip") {
            if v < Version(3, 22, 0) {
                return Err(too_old(LaterMethod::KubernetesInternalIp, Version(3, 22, 0)));
            }
            return Ok(Method::KubernetesInternalIp);
        }
        match invalid() {
            MethodError::Invalid { method, introduced, .. } => Err(MethodError::Invalid {
                method,
                introduced,
                near: near_method(s),
            }),
            other => Err(other),
        }
    }
}

/// The methods calico-node knows, as they are written: a name alone, or a
/// name and `=` before its argument.
const METHOD_NAMES: [&str; 6] = [
    "first-found",
    "kubernetes-internal-ip",
    "interface=",
    "skip-interface=",
    "cidr=",
    "can-reach=",
];

/// The method `s` is one slip away from (by the rule programs' names
/// follow, [`super::slip`]), with `s`'s own argument: `interfce=eth.*` ->
/// `interface=` and `eth.*`, `first-fund` -> `first-found`. `None` when
/// nothing is that close.
pub(crate) fn near_method(s: &str) -> Option<NearMethod> {
    // `interface:eth0` and `interface eth0` are the same slip as a letter
    let (head, arg) = match s.split_once(['=', ':', ' ']) {
        Some((head, arg)) => (head, Some(arg)),
        None => (s, None),
    };
    let has_equals = s.get(head.len()..).is_some_and(|rest| rest.starts_with('='));
    METHOD_NAMES
        .iter()
        .filter_map(|name| {
            let bare = name.trim_end_matches('=');
            let takes_arg = name.ends_with('=');
            let typed = if takes_arg { head } else { s };
            let d = crate::replay::program::slip(typed, bare)?;
            (d > 0 || (takes_arg && !has_equals)).then(|| {
                let near = NearMethod {
                    name,
                    arg: arg.filter(|_| takes_arg).map(str::to_owned),
                };
                (d, near)
            })
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, near)| near)
}

/// `--node-internal-ip [NODE=]IP`: the Node's InternalIP, for every node or
/// for the one named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeInternalIp {
    /// The node it is for (None: every node).
    pub node: Option<String>,
    /// The InternalIP on the Node object.
    pub ip: std::net::IpAddr,
}

impl FromStr for NodeInternalIp {
    type Err = crate::bad_value::BadValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (node, ip) = match s.split_once('=') {
            Some((n, ip)) if !n.is_empty() => (Some(n.to_owned()), ip),
            _ => (None, s),
        };
        let ip = ip
            .parse()
            .map_err(|_| crate::bad_value::BadValue::new(s, "not IP or NODE=IP"))?;
        Ok(NodeInternalIp { node, ip })
    }
}

program_options! {
    /// calico-node's settings besides `IP_AUTODETECTION_METHOD`.
    pub struct Settings {
        /// Calico release whose behaviour to replay (exclude list, bugs), e.g. 3.22.1;
        /// a later release than any nlorder knows is replayed as the newest it knows, with a warning.
        #[cfg_attr(feature = "clap", arg(long, default_value = "latest"))]
        calico_version: Version = Version::LATEST,
        /// The Node's InternalIP (kubernetes-internal-ip), repeatable, in status order;
        /// `NODE=IP` gives it for one node of several captures.
        #[cfg_attr(feature = "clap", arg(long, value_name = "[NODE=]IP"))]
        node_internal_ip: Vec<NodeInternalIp> = Vec::new(),
        /// calico-node's IP (or IP6) setting: autodetect, none, or ADDR[/LEN].
        #[cfg_attr(feature = "clap", arg(long, default_value = "autodetect"))]
        ip: IpSetting = IpSetting::Autodetect,
        /// A BGP peer: say whether the kernel would reach it from the chosen address. Repeatable.
        #[cfg_attr(feature = "clap", arg(long))]
        bgp_peer: Vec<std::net::IpAddr> = Vec::new(),
    }
}

impl Settings {
    /// The Node's InternalIP addresses that apply to `node`.
    pub fn internal_ips(&self, node: &str) -> Vec<std::net::IpAddr> {
        self.node_internal_ip
            .iter()
            .filter(|n| n.node.as_deref().is_none_or(|who| who == node))
            .map(|n| n.ip)
            .collect()
    }
}

/// The options calico-node reads (its settings, and `resolved` for
/// `can-reach=NAME`).
pub const OPTIONS: &[&str] = &["calico_version", "node_internal_ip", "ip", "bgp_peer", "resolved"];

/// calico-node's `IP` / `IP6` setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IpSetting {
    /// `autodetect` (the default): `IP_AUTODETECTION_METHOD` decides.
    Autodetect,
    /// `none`: no address of the family.
    None,
    /// An address (with or without a prefix length), used as given.
    Explicit(String),
}

impl FromStr for IpSetting {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "autodetect" | "" => IpSetting::Autodetect,
            "none" => IpSetting::None,
            other => IpSetting::Explicit(other.to_owned()),
        })
    }
}

/// `(p1)|(p2)|…`, compiled as calico-node compiles it.
fn joined(patterns: &[String]) -> Result<Option<GoRegex>, crate::replay::go::regex::PatternError> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let j = format!("({})", patterns.join(")|("));
    GoRegex::new(&j).map(Some)
}
