//! calico-node's `IP_AUTODETECTION_METHOD`, version by version.
//!
//! Contract: [`detect`] is a pure function of the model and the options.
//! It walks interfaces in *reverse* kernel link order (as calico-node has
//! since 2017), joins patterns as `(a)|(b)` matched unanchored with Go RE2
//! semantics, applies the default exclude list of the chosen version, keeps
//! only global-unicast addresses (except where calico-node does not check),
//! and returns `IP/prefix` of the interface address. Every interface and
//! address gets a verdict. Semantics: calico-node's
//! node/pkg/lifecycle/startup/autodetection (`FilteredEnumeration`,
//! `GetInterfaces`, `ReachDestination`, `NodeInternalIP`) per release.
//! The method and settings are parsed in [`self::method`]; the
//! interface walk of first-found, `interface=`, `skip-interface=` and
//! `cidr=` is `walk.rs`; the notes on what calico-node does with
//! the address (BGP peers, VXLAN parent) are `runtime.rs`; this
//! file dispatches the method, replays `can-reach=`,
//! `kubernetes-internal-ip` and an `IP` given, and records the log lines,
//! which are worded in `report::calico`.

pub mod method;
pub mod note;
mod runtime;
pub mod text;
pub mod version;
mod walk;

use std::net::IpAddr;

use ipnet::IpNet;

use self::note::{Note, Reason};
use self::walk::{Enumeration, cidr_of, family_of, filtered, filtered_outcome, get_interfaces, local_cidr, view};
use super::family::Family;
use super::go::{self, AddrView};
use super::semantics::Semantics;
use super::source::{NoSource, Rejecting};
use super::verdict::{AddrVerdict, Autodetect, Candidate, Detection, DialErrno, Log, LogError, NodeAddress, Verdict};
use note::CalicoWalk;

pub use self::method::{IpSetting, Method, NodeInternalIp, OPTIONS, Patterns, Settings, default_excludes};
pub use self::note::{Introduced, MethodError, Unable};
pub use self::text::MethodText;
pub use self::version::Version;
use super::failure::Failure;
use std::collections::BTreeSet;

use super::chooser::{Chooser, Context, Given, OptionsError, Outcome};
use super::program::Program;
use crate::model::Model;
use crate::netlink::values::TableId;

/// calico-node in the registry: its methods are `IP_AUTODETECTION_METHOD`
/// values ([`super::program::Method::Calico`]), and its options the method
/// as written, as the release parses it, and its other settings.
pub struct CalicoNode;

/// A calico-node method with its settings: its chooser's options.
#[derive(Debug, Clone)]
pub struct Spec {
    /// `IP_AUTODETECTION_METHOD` as written.
    pub text: String,
    /// The value as the release replayed parses it, or why it does not.
    pub method: Result<Method, MethodError>,
    /// calico-node's other settings.
    pub options: Options,
}

impl Chooser for CalicoNode {
    const PROGRAM: Program = Program::CALICO_NODE;
    const DOC: &'static str = "calico-node's IP_AUTODETECTION_METHOD";
    type Settings = Settings;
    const OPTIONS: &'static [&'static str] = OPTIONS;
    type Options = Spec;
    const CHECKS_CONFLICTS: bool = true;

    fn options(cx: &Context<'_>) -> Result<Spec, OptionsError> {
        let s = cx.settings::<CalicoNode>();
        let resolved = cx.settings::<super::kubelet::Kubelet>().resolved;
        let text = cx.method.calico().cloned().unwrap_or_default();
        let options = Options {
            version: s.calico_version,
            family: cx.family(),
            node_internal_ips: s.internal_ips(cx.node),
            ip: s.ip.clone(),
            bgp_peers: s.bgp_peer.clone(),
            resolved: super::options::resolved_ips(&resolved),
        };
        let method = Method::parse(text.as_str(), s.calico_version);
        if let Err(e) = &method
            && e.is_argument()
        {
            return Err(OptionsError::Pattern(e.clone()));
        }
        Ok(Spec {
            text: text.as_str().to_owned(),
            method,
            options,
        })
    }

    /// Resolver answers for a method that resolves no name;
    /// kubernetes-internal-ip without an InternalIP for every node.
    fn validate(given: &Given<'_>) -> Result<(), OptionsError> {
        let Some(text) = given.method.calico() else {
            return Ok(());
        };
        if !given.settings::<super::kubelet::Kubelet>().resolved.is_empty() && !text.is_can_reach_name() {
            return Err(OptionsError::ResolvedNotRead(given.method.clone()));
        }
        if text.is_kubernetes_internal_ip() {
            let s = given.settings::<CalicoNode>();
            if s.node_internal_ip.is_empty() {
                return Err(OptionsError::NoInternalIp);
            }
            if let Some(node) = given.nodes.iter().find(|n| s.internal_ips(n).is_empty()) {
                let named: Vec<&str> = s.node_internal_ip.iter().filter_map(|n| n.node.as_deref()).collect();
                return Err(OptionsError::NoInternalIpFor(node.clone(), named.join(", ")));
            }
        }
        Ok(())
    }

    fn detect(model: &Model, s: &Spec) -> Detection {
        detect_parsed(model, &s.text, &s.method, &s.options)
    }

    fn walks_links(s: &Spec) -> bool {
        walks_links(&s.method)
    }

    fn reads(s: &Spec, family: Family) -> super::unshown::Reads {
        reads(&s.method, family)
    }

    fn outcome(model: &Model, s: &Spec) -> Option<Outcome> {
        outcome_parsed(model, &s.method, &s.options)
    }

    /// first-found, `interface=PREFIX.*` for each family of interface
    /// names that carries a global address, `cidr=` for each global
    /// subnet, `can-reach=` each default gateway, kubernetes-internal-ip
    /// when the InternalIP is known; with `--method`'s settings if it
    /// named a calico-node method.
    fn all_in_family(model: &Model, base: Option<&Spec>, fam: Family) -> Vec<Spec> {
        let af = fam.af();
        let global: Vec<_> = model
            .addresses(Some(af))
            .into_iter()
            .filter(|a| go::is_global_unicast(a.address))
            .collect();
        let o = Options {
            family: fam,
            ..base.map(|b| b.options.clone()).unwrap_or_default()
        };
        let calico = |m: String| Spec {
            method: Method::parse(&m, o.version),
            text: m,
            options: o.clone(),
        };
        let mut out = vec![calico("first-found".into())];
        let prefixes: BTreeSet<String> = global
            .iter()
            .filter_map(|a| model.link(a.index))
            .filter(|l| l.has_name())
            .map(|l| name_family(&l.display_name()))
            .filter(|p| !p.is_empty())
            .collect();
        for p in prefixes {
            out.push(calico(format!("interface={}.*", regex::escape(&p))));
        }
        let nets: BTreeSet<String> = global
            .iter()
            .filter_map(|a| IpNet::new(a.address, a.prefix_len).ok())
            .map(|n| n.trunc().to_string())
            .collect();
        for n in nets {
            out.push(calico(format!("cidr={n}")));
        }
        let gateways: BTreeSet<String> = model
            .routes()
            .into_iter()
            .filter(|r| r.family == af && r.table == TableId::Main && r.dst_len == 0)
            .filter_map(|r| r.gateway)
            .map(|g| g.to_string())
            .collect();
        for g in gateways {
            out.push(calico(format!("can-reach={g}")));
        }
        if o.node_internal_ips.iter().any(|i| Family::of(*i) == fam) {
            out.push(calico("kubernetes-internal-ip".into()));
        }
        out
    }
}

/// `ens160` → `ens`, `eth0` → `eth`, `nerdctl0` → `nerdctl`.
fn name_family(name: &str) -> String {
    name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ':' || c == '-')
        .to_owned()
}

/// Whether the method's answer depends on the order the interfaces are
/// walked in.
pub fn walks_links(method: &Result<Method, MethodError>) -> bool {
    matches!(
        method,
        Ok(Method::FirstFound(_) | Method::Interface(_) | Method::SkipInterface { .. } | Method::Cidr(_))
    )
}

/// What the method reads: the interface walks read names and state,
/// `can-reach=` the route to the destination (table main, through the
/// default rules), kubernetes-internal-ip only the addresses.
pub fn reads(method: &Result<Method, MethodError>, family: Family) -> super::unshown::Reads {
    use super::unshown::Reads;
    match method {
        Ok(Method::CanReach(_)) => Reads::walk(family)
            .with_routes(&[family])
            .no_link_attributes()
            .order_where_shared(),
        Ok(Method::KubernetesInternalIp) => Reads::walk(family).no_link_attributes().order_where_shared(),
        _ => Reads::walk(family),
    }
}

/// calico-node's settings besides `IP_AUTODETECTION_METHOD`.
#[derive(Debug, Clone)]
pub struct Options {
    /// The release replayed.
    pub version: Version,
    /// The family detected (calico-node detects IPv4 and IPv6 separately).
    pub family: Family,
    /// The Node's InternalIP addresses, in status order.
    pub node_internal_ips: Vec<IpAddr>,
    /// `IP` (`IP6` for IPv6).
    pub ip: IpSetting,
    /// BGP peers whose route to check against the node address.
    pub bgp_peers: Vec<IpAddr>,
    /// What a `can-reach=` host name resolves to, in resolver order (the
    /// capture holds no resolver answer).
    pub resolved: Vec<IpAddr>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            version: Version::LATEST,
            family: Family::V4,
            node_internal_ips: Vec::new(),
            ip: IpSetting::Autodetect,
            bgp_peers: Vec::new(),
            resolved: Vec::new(),
        }
    }
}

/// The outcome of [`detect_parsed`] (address, interface, error) at the cost
/// of the devices that hold addresses rather than of every link, where a
/// faster path exists (the methods that walk interfaces); `None` otherwise.
pub fn outcome_parsed(
    model: &Model,
    method: &Result<Method, MethodError>,
    o: &Options,
) -> Option<(Option<NodeAddress>, Option<String>, Option<Failure>)> {
    if !matches!(o.ip, IpSetting::Autodetect) {
        return None;
    }
    let replayed;
    let o = match o.version.replayed() {
        v if v == o.version => o,
        v => {
            replayed = Options {
                version: v,
                ..o.clone()
            };
            &replayed
        }
    };
    let e = Enumeration::of(method.as_ref().ok()?, o.family, o.version)?;
    Some(match filtered_outcome(model, &e) {
        Ok((a, i)) => (Some(a.into()), Some(i), None),
        Err(e) => (None, None, Some(note::Failure::Unable(e).into())),
    })
}

fn k8s_bug(v: Version) -> bool {
    (v.0 == 3 && v.1 == 22 && v.2 <= 3) || (v.0 == 3 && v.1 == 23 && v.2 <= 1)
}

/// What the replay of release `asked` does (a later release than any
/// nlorder knows is replayed as [`Version::LATEST`]); `method`: none when
/// calico-node refused it.
fn semantics(asked: Version, method: Option<&Method>) -> Semantics {
    let v = asked.replayed();
    let walk = method.map(|m| {
        let applies = matches!(m, Method::FirstFound(_) | Method::SkipInterface { .. });
        CalicoWalk {
            default_excludes: if applies { default_excludes(v) } else { Vec::new() },
            without_default_excludes: !applies,
            network_address_bug: matches!(m, Method::KubernetesInternalIp) && k8s_bug(v),
            bulk_dump: view(v) == AddrView::Vishvananda,
        }
    });
    note::Semantics { asked, walk }.into()
}

/// Replays one method given as text (parsed here; see [`detect_parsed`]).
pub fn detect(model: &Model, method_text: &str, o: &Options) -> Detection {
    detect_parsed(model, method_text, &Method::parse(method_text, o.version), o)
}

/// Replays one method, parsed once by the caller.
pub fn detect_parsed(model: &Model, text: &str, method: &Result<Method, MethodError>, o: &Options) -> Detection {
    let asked = o.version;
    let replayed;
    let o = match asked.replayed() {
        v if v == asked => o,
        v => {
            replayed = Options {
                version: v,
                ..o.clone()
            };
            &replayed
        }
    };
    let name = super::program::Method::Calico(MethodText::new(text).named());
    let method = match method {
        Ok(m) => m,
        Err(e) => {
            let mut d = Detection::new(name.clone(), semantics(asked, None), o.family);
            if let MethodError::Invalid { method, .. } = e {
                d.log.push(Log::InvalidMethod { method: method.clone() });
            }
            d.error = Some(note::Failure::Method(e.clone()).into());
            return d;
        }
    };
    let mut d = Detection::new(name, semantics(asked, Some(method)), o.family);
    match &o.ip {
        IpSetting::None => {
            d.notes.push(Note::IpNone { family: o.family }.into());
            d.error = Some(note::Failure::Disabled.into());
            return d;
        }
        IpSetting::Explicit(text) => {
            explicit_ip(model, text, o, &mut d);
            return d;
        }
        IpSetting::Autodetect => {}
    }
    let result = match (method, Enumeration::of(method, o.family, o.version)) {
        (_, Some(e)) => filtered(model, &e, &mut d),
        (Method::CanReach(dest), None) => can_reach(model, dest, o, &mut d),
        // kubernetes-internal-ip, the one other method without an enumeration
        (_, None) => k8s_internal_ip(model, o, &mut d),
    };
    let by = autodetect(method);
    if let Err(why) = result {
        if let Some((by, why)) = by.zip(log_error(&why, o.family)) {
            d.log.push(Log::Unable {
                family: o.family,
                by,
                why,
            });
        }
        d.error = Some(note::Failure::Unable(why).into());
    } else if let (Some(by), Some(a), Some(i)) = (by, d.address, &d.interface) {
        d.log.push(Log::Using {
            family: o.family,
            address: a,
            interface: i.clone(),
            by,
        });
    }
    runtime::bgp_peers(model, &o.bgp_peers, o.family, &mut d);
    runtime::vxlan_parent(model, o.family, &mut d);
    d.notes.push(Note::Redetects.into());
    d
}

/// The function of `AutoDetectCIDR` that logs the method's outcome
/// (kubernetes-internal-ip logs only `GetLocalCIDR`'s lines).
fn autodetect(method: &Method) -> Option<Autodetect> {
    Some(match method {
        Method::FirstFound(_) => Autodetect::FirstFound,
        Method::Interface(p) => Autodetect::Interface(p.texts().to_vec()),
        Method::SkipInterface { given, .. } => Autodetect::SkipInterface(given.clone()),
        Method::Cidr(nets) => Autodetect::Cidr(nets.iter().map(IpNet::trunc).collect()),
        Method::CanReach(dest) => Autodetect::CanReach(dest.clone()),
        Method::KubernetesInternalIp => return None,
    })
}

/// The error calico-node logs for a failure, where nlorder knows what it
/// is: `None` where the failure is nlorder's own limit (a name it cannot
/// resolve, routes the capture lacks) or kubernetes-internal-ip's (whose
/// lines are logged as it goes).
fn log_error(why: &Unable, family: Family) -> Option<LogError> {
    Some(match why {
        Unable::NoValidInterfaces | Unable::NoValidAddresses(_) | Unable::SourceNotLocal { .. } => {
            LogError::Calico(why.clone())
        }
        Unable::CanReachFamily { dest, .. } => LogError::NoSuitableAddress {
            family,
            dest: dest.clone(),
        },
        Unable::CannotReach { dst, why } => LogError::Dial {
            dst: *dst,
            errno: match why {
                NoSource::Unreachable => DialErrno::NetworkUnreachable,
                NoSource::Rejected { kind, .. } => match kind {
                    Rejecting::Blackhole => DialErrno::InvalidArgument,
                    Rejecting::Unreachable => DialErrno::HostUnreachable,
                    Rejecting::Prohibit => DialErrno::PermissionDenied,
                },
                NoSource::RuleRejected { kind, .. } => match kind {
                    Rejecting::Blackhole => DialErrno::InvalidArgument,
                    Rejecting::Unreachable => DialErrno::NetworkUnreachable,
                    Rejecting::Prohibit => DialErrno::PermissionDenied,
                },
                NoSource::NoRoutes | NoSource::NoAddress(_) | NoSource::NextHopUnknown(_) => return None,
            },
        },
        Unable::CanReachName { .. }
        | Unable::NoInternalIp
        | Unable::NoInternalIpOfFamily(_)
        | Unable::InternalIpNotLocal(_) => return None,
    })
}

fn can_reach(model: &Model, dest: &str, o: &Options, d: &mut Detection) -> Result<(), Unable> {
    // Go's `net.Dial("udp4", …)` resolves a name, keeps the addresses of
    // the family and connects to each in turn: the first the kernel
    // routes wins, else the first error stands.
    let addresses = match dest.parse::<IpAddr>() {
        Ok(ip) => vec![ip],
        Err(_) if o.resolved.is_empty() => return Err(Unable::CanReachName { dest: dest.to_owned() }),
        Err(_) => o.resolved.clone(),
    };
    let of_family: Vec<IpAddr> = addresses.into_iter().filter(|ip| family_of(*ip) == o.family).collect();
    if of_family.is_empty() {
        return Err(Unable::CanReachFamily {
            dest: dest.to_owned(),
            family: o.family,
        });
    }
    let mut first_error = None;
    let mut reached = None;
    for dst in of_family {
        match super::assumed::select_source_noted(model, dst, &mut d.notes) {
            Ok(choice) => {
                reached = Some((dst, choice));
                break;
            }
            Err(why) => {
                first_error.get_or_insert(Unable::CannotReach { dst, why });
            }
        }
    }
    let Some((dst, choice)) = reached else {
        return Err(first_error.unwrap_or(Unable::CanReachName { dest: dest.to_owned() }));
    };
    d.notes.push(
        Note::Reaches {
            dst,
            source: choice.source,
            route: model.route_text(&choice.route),
            why: choice.why.clone(),
        }
        .into(),
    );
    let mut sink = Vec::new();
    let kept = get_interfaces(model, None, None, o.family, o.version, &mut sink);
    for k in &kept {
        let mut addrs = Vec::new();
        let mut won = false;
        for a in &k.cidrs {
            let (verdict, reason) = if d.address.is_some() {
                (Verdict::NotReached, Reason::EarlierCandidate)
            } else if a.ip == choice.source {
                won = true;
                d.address = Some(cidr_of(a).into());
                d.interface = Some(k.link.display_name());
                (Verdict::Chosen, Reason::SourceFor { dst })
            } else {
                (Verdict::NotMatching, Reason::NotSource { source: choice.source })
            };
            addrs.push(AddrVerdict {
                address: cidr_of(a).into(),
                verdict,
                reason: Some(reason.into()),
            });
        }
        d.candidates.push(Candidate {
            interface: k.link.display_name(),
            index: k.link.index,
            verdict: if won {
                Verdict::Chosen
            } else if k.cidrs.is_empty() {
                Verdict::NoAddress
            } else {
                Verdict::NotMatching
            },
            reason: if won {
                Reason::CarriesSource
            } else {
                Reason::LacksSource
            }
            .into(),
            addresses: addrs,
        });
    }
    if d.address.is_none() {
        return Err(Unable::SourceNotLocal {
            family: o.family,
            source: choice.source,
        });
    }
    Ok(())
}

fn k8s_internal_ip(model: &Model, o: &Options, d: &mut Detection) -> Result<(), Unable> {
    if o.node_internal_ips.is_empty() {
        return Err(Unable::NoInternalIp);
    }
    let Some(ip) = o.node_internal_ips.iter().copied().find(|i| family_of(*i) == o.family) else {
        // The address stays empty, which does not parse as a CIDR.
        d.log.push(Log::UnparsableCidr { address: String::new() });
        return Err(Unable::NoInternalIpOfFamily(o.family));
    };
    let Some((cidr, iface)) = local_cidr(model, ip, o.version) else {
        d.notes.push(Note::NoInterfaceFor { ip }.into());
        d.log.push(Log::NoMatchingInterface { ip });
        d.log.push(Log::UnparsableCidr {
            address: ip.to_string(),
        });
        return Err(Unable::InternalIpNotLocal(ip));
    };
    d.log.push(Log::IncludingCidr { cidr });
    let result = if k8s_bug(o.version) {
        let net = cidr.trunc();
        d.notes.push(
            Note::NetworkAddress {
                version: o.version,
                network: net,
                cidr,
            }
            .into(),
        );
        net
    } else {
        cidr
    };
    for l in go::interfaces(model).iter().rev() {
        let here = l.display_name() == iface;
        d.candidates.push(Candidate {
            interface: l.display_name(),
            index: l.index,
            verdict: if here { Verdict::Chosen } else { Verdict::NotMatching },
            reason: if here {
                Reason::CarriesInternalIp { ip }
            } else {
                Reason::LacksInternalIp { ip }
            }
            .into(),
            addresses: Vec::new(),
        });
    }
    d.address = Some(result.into());
    d.interface = Some(iface);
    Ok(())
}

fn explicit_ip(model: &Model, text: &str, o: &Options, d: &mut Detection) {
    let not_an_address = || {
        Some(
            note::Failure::NotAnAddress {
                family: o.family,
                text: text.to_owned(),
            }
            .into(),
        )
    };
    let (ip_text, given_len) = match text.split_once('/') {
        Some((i, l)) => (i, Some(l)),
        None => (text, None),
    };
    let Ok(ip) = ip_text.parse::<IpAddr>() else {
        d.error = not_an_address();
        return;
    };
    let on_host = go::host_has(model, ip);
    let host = if ip.is_ipv4() { 32 } else { 128 };
    let cidr = match given_len.map(str::parse::<u8>) {
        Some(Ok(l)) => IpNet::new(ip, l),
        // calico-node refuses what does not parse as a CIDR, and terminates.
        Some(Err(_)) => {
            d.error = not_an_address();
            return;
        }
        // v3.18+ completes a bare IPv4 with the host interface's prefix.
        None if o.family == Family::V4 && o.version >= Version(3, 18, 0) => match local_cidr(model, ip, o.version) {
            Some((c, _)) => Ok(c),
            None => IpNet::new(ip, host),
        },
        None => IpNet::new(ip, host),
    };
    let Ok(cidr) = cidr else {
        d.error = not_an_address();
        return;
    };
    d.notes.push(
        Note::IpGiven {
            family: o.family,
            text: text.to_owned(),
        }
        .into(),
    );
    if on_host {
        d.interface = local_cidr(model, ip, o.version).map(|(_, i)| i);
    } else {
        d.notes.push(Note::IpNotConfirmed { family: o.family, ip }.into());
    }
    d.address = Some(cidr.into());
}

#[cfg(test)]
#[path = "calico_tests.rs"]
mod tests;
