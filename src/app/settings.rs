//! How a node-IP detection method is chosen and configured: one type for
//! the command line (`nlorder detect --method ...`) and the regression
//! manifests (`[[detect]] method = ...`), so both spell and mean the same.
//!
//! Contract: every value is parsed and checked once, here, into a typed
//! field: the method and what every program shares (family, expectation)
//! here, every program's options in the registry's [`ProgramSettings`]
//! (one field per program, its replay module's `Settings`, whose fields
//! are the manifests' keys); whether an option means anything to the
//! method comes from the programs' own `OPTIONS` lists
//! ([`crate::replay::method::readers`]), and the checks across settings
//! from the method's program ([`crate::replay::method::validate`]): no
//! program is named here. [`DetectSettings::spec`] has the method's program
//! build its replay's [`MethodSpec`] (with the Calico method parsed and its
//! patterns compiled once, a hosts file read) or says which setting is wrong. A mistake in nlorder's own arguments is an error here;
//! a configuration the replayed program itself rejects (an unknown Calico
//! method, kubernetes-internal-ip on a release without it) is a replay
//! result with that program's message, not an error.

use crate::bad_value::BadValue;
use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use ipnet::IpNet;
use serde::de::{DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::replay::method::{Context, Given, Method, OptionsError, ProgramSettings, readers};
use crate::replay::options::flag;
use crate::replay::verdict::{Detection, NodeAddress};
use crate::replay::{Family, MethodSpec, Program, calico};

crate::replay::options::deserialize_from_str!(Expected);

pub use crate::replay::calico::NodeInternalIp;
pub use crate::replay::options::Resolved;

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

/// Everything that selects and configures a replayed method: the method,
/// what every program shares, and every program's own settings (one field
/// per program of the registry, in [`ProgramSettings`]).
#[derive(Debug, Clone, Default)]
pub struct DetectSettings {
    /// A program (its name as `--method` spells it), or a Calico
    /// IP_AUTODETECTION_METHOD value: first-found,
    /// `interface=REGEX[,REGEX]`, `skip-interface=REGEX[,REGEX]`, `cidr=CIDR[,CIDR]`,
    /// can-reach=DEST, kubernetes-internal-ip. REGEX means what it means to
    /// calico-node: Go's RE2 (ASCII \d \w \s \b, \Q..\E), not the regex crate.
    pub method: Method,
    /// Address family to detect (calico-node detects IPv4 and IPv6 separately): 4 or 6.
    pub family: Option<Family>,
    /// Exit 1 unless the chosen address is this one (ADDR compares the IP, ADDR/LEN also
    /// the prefix, none: nothing chosen). In a manifest: `address`.
    pub expect: Option<Expected>,
    /// Manifests only: the interface the detection must choose.
    pub interface: Option<String>,
    /// Manifests only: the moment to evaluate (a packet number or a time).
    pub at: Option<crate::ingest::rebuild::AtValue>,
    /// Every program's settings (its keys are the manifests').
    pub programs: ProgramSettings,
}

impl DetectSettings {
    /// Every program's settings given a value other than its default
    /// (their manifest keys).
    pub fn given(&self) -> Vec<&'static str> {
        self.programs.given()
    }
}

/// The keys of a manifest's `[[detect]]` table besides the programs'.
const COMMON: &[&str] = &["method", "family", "address", "interface", "at"];

/// A manifest's `[[detect]]` table: the common keys, then each key read
/// into the settings of the program module that declares it; any other key
/// is refused, naming the keys there are.
impl<'de> Deserialize<'de> for DetectSettings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = DetectSettings;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table of detect settings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<DetectSettings, A::Error> {
                let mut s = DetectSettings::default();
                while let Some(key) = map.next_key_seed(Known)? {
                    match key.as_str() {
                        "method" => s.method = map.next_value()?,
                        "family" => s.family = map.next_value()?,
                        "address" => s.expect = map.next_value()?,
                        "interface" => s.interface = map.next_value()?,
                        "at" => s.at = map.next_value()?,
                        other => {
                            if !s.programs.set(other, &mut map)? {
                                return Err(serde::de::Error::unknown_field(other, known()));
                            }
                        }
                    }
                }
                Ok(s)
            }
        }
        d.deserialize_map(Keys)
    }
}

/// Every key a `[[detect]]` table may have: the common ones, then every
/// program's (built once).
fn known() -> &'static [&'static str] {
    static KEYS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        COMMON
            .iter()
            .copied()
            .chain(crate::replay::method::all_options())
            .collect()
    })
}

/// A key of a `[[detect]]` table, refused as it is read when no program
/// has it (so the error points at the key).
struct Known;

impl<'de> DeserializeSeed<'de> for Known {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = String;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a detect setting")
            }
            fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<String, E> {
                match known().contains(&key) {
                    true => Ok(key.to_owned()),
                    false => Err(E::unknown_field(key, known())),
                }
            }
        }
        d.deserialize_identifier(Name)
    }
}

/// A setting nlorder cannot use (exit 2: fix the argument).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// A pattern or CIDR of the method does not compile.
    #[error("{0}")]
    Pattern(calico::MethodError),
    /// A setting that the chosen method does not read.
    #[error("--{} is {}; it means nothing to --method {method}", flag(option), owners(readers))]
    NotForMethod {
        /// The option (its manifest key).
        option: &'static str,
        /// The programs that read it.
        readers: Vec<Program>,
        /// The method asked for.
        method: Method,
    },
    /// A method that is no program's name and no calico-node method, but
    /// close to a program's name.
    #[error(
        "--method {method}: no program is named so (did you mean {}?), and calico-node would reject it as an \
         IP_AUTODETECTION_METHOD",
        near.name()
    )]
    MisspeltProgram {
        /// The method asked for.
        method: Method,
        /// The program it is closest to.
        near: Program,
    },
    /// `--resolved` for a calico-node method that resolves nothing.
    #[error("--resolved is kubelet's and calico-node's can-reach=NAME; it means nothing to --method {0}")]
    ResolvedNotRead(Method),
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

/// The programs that read an option, as an error names them
/// (`kubelet's and k3s's`).
fn owners(readers: &[Program]) -> String {
    let names: Vec<String> = readers.iter().map(|p| format!("{}'s", p.name())).collect();
    match names.split_last() {
        None => "no program's".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

impl DetectSettings {
    /// Settings that cannot mean anything for the chosen method, or for the
    /// nodes named (`nodes`: the names of the captures).
    pub fn validate(&self, nodes: &[String]) -> Result<(), SettingsError> {
        let method = &self.method;
        if let Some(near) = method.misspelt_program() {
            return Err(SettingsError::MisspeltProgram {
                method: method.clone(),
                near,
            });
        }
        let program = method.program();
        for option in self.given() {
            let readers = readers(option);
            if !readers.contains(&program) {
                return Err(SettingsError::NotForMethod {
                    option,
                    readers,
                    method: method.clone(),
                });
            }
        }
        let given = Given {
            settings: &self.programs,
            method,
            family: self.family,
            nodes,
        };
        crate::replay::method::validate(&given).map_err(SettingsError::from)
    }

    /// The family asked for (IPv4 unless said).
    pub fn family(&self) -> Family {
        self.family.unwrap_or_default()
    }

    /// The Node's InternalIP addresses that apply to `node`.
    pub fn internal_ips(&self, node: &str) -> Vec<IpAddr> {
        self.programs.calico.internal_ips(node)
    }

    /// The replay these settings select, for one node: its program's
    /// options, built by its chooser (the Calico method parsed and its
    /// patterns compiled once; a hosts file read).
    pub fn spec(&self, node: &str) -> Result<MethodSpec, SettingsError> {
        let read = |p: &std::path::Path| std::fs::read(p).map_err(|e| e.to_string());
        let cx = Context {
            settings: &self.programs,
            method: &self.method,
            family: self.family,
            node,
            read: &read,
        };
        MethodSpec::new(&cx).map_err(SettingsError::from)
    }
}

/// A program's refusal, in nlorder's words.
impl From<OptionsError> for SettingsError {
    fn from(e: OptionsError) -> SettingsError {
        match e {
            OptionsError::Pattern(e) => SettingsError::Pattern(e),
            OptionsError::Unreadable(e) => SettingsError::Unreadable(e),
            OptionsError::HostsAndResolved => SettingsError::HostsAndResolved,
            OptionsError::ResolvedNotRead(m) => SettingsError::ResolvedNotRead(m),
            OptionsError::NoInternalIp => SettingsError::NoInternalIp,
            OptionsError::NoInternalIpFor(node, given) => SettingsError::NoInternalIpFor(node, given),
            OptionsError::FamilyConflict(f, ip) => SettingsError::FamilyConflict(f, ip),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key a program module declares a setting for is read by some
    /// program, and every option a program reads is some module's setting.
    #[test]
    fn the_registry_and_the_settings_name_the_same_keys() {
        let keys = ProgramSettings::keys();
        let read = crate::replay::method::all_options();
        for k in &keys {
            assert!(read.contains(k), "{k}: no program reads it");
        }
        for o in &read {
            assert!(keys.contains(o), "{o}: no module declares it");
        }
    }

    #[test]
    fn an_option_means_nothing_to_a_program_that_does_not_read_it() {
        let manifest = "method = \"flannel\"\nbind_address = \"10.0.0.1\"\n";
        let s: DetectSettings = toml::from_str(manifest).expect("settings");
        assert_eq!(
            s.programs.kube_apiserver.bind_address,
            Some("10.0.0.1".parse().expect("ip"))
        );
        let e = s.validate(&[]).expect_err("refused");
        assert_eq!(
            e,
            SettingsError::NotForMethod {
                option: "bind_address",
                readers: vec![
                    <crate::replay::kube_apiserver::KubeApiserver as crate::replay::chooser::Chooser>::PROGRAM
                ],
                method: Method::Program(<crate::replay::flannel::Flannel as crate::replay::chooser::Chooser>::PROGRAM),
            }
        );
        assert_eq!(
            e.to_string(),
            "--bind-address is kube-apiserver's; it means nothing to --method flannel"
        );
        let s: DetectSettings =
            toml::from_str("method = \"kube-apiserver\"\nbind_address = \"::\"\n").expect("settings");
        assert_eq!(s.validate(&[]), Ok(()));
        // `resolved` is kubelet's and calico-node's, but only can-reach=NAME's.
        let s: DetectSettings =
            toml::from_str("method = \"can-reach=example.com\"\nresolved = [\"10.0.0.1\"]\n").expect("settings");
        assert_eq!(s.validate(&[]), Ok(()));
        let s: DetectSettings =
            toml::from_str("method = \"first-found\"\nresolved = [\"10.0.0.1\"]\n").expect("settings");
        assert!(matches!(s.validate(&[]), Err(SettingsError::ResolvedNotRead(_))));
    }

    #[test]
    fn a_key_no_program_declares_is_refused() {
        let e = toml::from_str::<DetectSettings>("method = \"kubelet\"\nbind_adress = \"::\"\n").expect_err("refused");
        assert!(e.to_string().contains("unknown field `bind_adress`"), "{e}");
    }
}
