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
//! The method and settings are parsed in [`super::calico_method`]; the
//! log lines the replay records are worded in `report::calico`.

use std::net::IpAddr;

use ipnet::IpNet;

use super::family::Family;
use super::goview::{self, AddrView, GoAddr};
use super::note::{Note, PeerCheck};
use super::reason::Reason;
use super::semantics::{CalicoWalk, Semantics};
use super::source;
use super::source::{NoSource, Rejecting};
use super::verdict::{AddrVerdict, Autodetect, Candidate, Detection, DialErrno, Log, LogError, NodeAddress, Verdict};

pub use super::calico_method::{IpSetting, Method, Patterns, default_excludes};
pub use super::calico_version::Version;
use super::failure::Failure;
pub use super::failure::{Introduced, MethodError, Unable};
use crate::model::{LinkEntry, Model};
use crate::netlink::values::AddressFamily;

#[derive(Debug, Clone)]
pub struct Options {
    pub version: Version,
    pub family: Family,
    /// The Node's InternalIP addresses, in status order.
    pub node_internal_ips: Vec<IpAddr>,
    pub ip: IpSetting,
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

fn family_of(ip: IpAddr) -> Family {
    Family::of(ip)
}

fn view(v: Version) -> AddrView {
    if v >= Version(3, 32, 0) {
        AddrView::Vishvananda
    } else {
        AddrView::GoNet
    }
}

/// One interface `GetInterfaces` kept, with its addresses of the family.
struct Kept<'m> {
    link: &'m LinkEntry,
    cidrs: Vec<GoAddr<'m>>,
}

/// Why `GetInterfaces` drops an interface by its name, if it does: a name
/// the capture never gave cannot be matched, then the include patterns,
/// then the exclude patterns.
fn dropped_by_name(link: &LinkEntry, include: Option<&Patterns>, exclude: Option<&Patterns>) -> Option<Verdict> {
    let name = link.name.as_bytes();
    if !link.has_name() && (include.is_some() || exclude.is_some()) {
        Some(Verdict::NameUnknown)
    } else if include.is_some_and(|inc| inc.is_match(name) == Some(false)) {
        Some(Verdict::NotIncluded)
    } else if exclude.is_some_and(|exc| exc.is_match(name) == Some(true)) {
        Some(Verdict::Excluded)
    } else {
        None
    }
}

/// `GetInterfaces(include, exclude, version)`: reverse kernel order. Adds a
/// candidate entry for every interface it drops.
fn get_interfaces<'m>(
    model: &'m Model,
    include: Option<&Patterns>,
    exclude: Option<&Patterns>,
    family: Family,
    v: Version,
    out: &mut Vec<Candidate>,
) -> Vec<Kept<'m>> {
    let mut kept = Vec::new();
    for link in goview::interfaces(model).iter().rev() {
        if let Some(verdict) = dropped_by_name(link, include, exclude) {
            let name = link.name.as_bytes();
            let reason = match verdict {
                Verdict::NameUnknown => Reason::NameUnknown { index: link.index },
                Verdict::NotIncluded => Reason::MatchesNone {
                    patterns: include.map(|inc| inc.texts().to_vec()).unwrap_or_default(),
                },
                _ => Reason::ExcludedBy {
                    pattern: exclude.map(|exc| exc.which(name)).unwrap_or_default(),
                },
            };
            out.push(Candidate {
                interface: link.display_name(),
                index: link.index,
                verdict,
                reason,
                addresses: Vec::new(),
            });
            continue;
        }
        let cidrs = goview::addrs(model, link.index, view(v))
            .into_iter()
            .filter(|a| family_of(a.ip) == family)
            .collect();
        kept.push(Kept { link, cidrs });
    }
    kept
}

/// The address as `Addrs()` hands it out (see [`NodeAddress::prefixed`]).
fn cidr_of(a: &GoAddr<'_>) -> IpNet {
    IpNet::new(a.ip, a.prefix_len).unwrap_or_else(|_| IpNet::from(a.ip))
}

/// `FilteredEnumeration(include, exclude, cidrs, version)`.
fn filtered(
    model: &Model,
    include: Option<&Patterns>,
    exclude: Option<&Patterns>,
    cidrs: &[IpNet],
    o: &Options,
    d: &mut Detection,
) -> Result<(), Unable> {
    let mut dropped = Vec::new();
    let kept = get_interfaces(model, include, exclude, o.family, o.version, &mut dropped);
    // Candidates in walk order: every interface, kept or dropped, reversed.
    let mut verdicts: Vec<Candidate> = Vec::new();
    let mut chosen: Option<(IpNet, String)> = None;
    for k in &kept {
        let mut addrs = Vec::new();
        for a in &k.cidrs {
            let (verdict, reason) = if chosen.is_some() {
                (Verdict::NotReached, Reason::EarlierCandidate)
            } else if !goview::is_global_unicast(a.ip) {
                (
                    Verdict::NotGlobalUnicast,
                    Reason::AddressNotGlobal {
                        ip: a.ip,
                        why: goview::not_global(a.ip),
                    },
                )
            } else if !cidrs.is_empty() && !cidrs.iter().any(|c| c.contains(&a.ip)) {
                (
                    Verdict::OutsideCidrs,
                    Reason::OutsideCidrs {
                        ip: a.ip,
                        cidrs: cidrs.to_vec(),
                    },
                )
            } else {
                chosen = Some((cidr_of(a), k.link.display_name()));
                (Verdict::Chosen, Reason::FirstOfFirstCandidate)
            };
            addrs.push(AddrVerdict {
                address: cidr_of(a).into(),
                verdict,
                reason: Some(reason),
            });
        }
        let won = addrs.iter().any(|a| a.verdict == Verdict::Chosen);
        let (verdict, reason) = if won {
            (Verdict::Chosen, Reason::FirstCandidate)
        } else if k.cidrs.is_empty() {
            (Verdict::NoAddress, Reason::NoAddressOfFamily(o.family))
        } else if addrs.iter().all(|a| a.verdict == Verdict::NotReached) {
            (Verdict::NotReached, Reason::EarlierInterface)
        } else if addrs
            .iter()
            .all(|a| a.verdict == Verdict::OutsideCidrs || a.verdict == Verdict::NotReached)
            && !cidrs.is_empty()
        {
            (Verdict::OutsideCidrs, Reason::NoAddressInCidrs)
        } else {
            (Verdict::NotGlobalUnicast, Reason::NoGlobalOfFamily(o.family))
        };
        verdicts.push(Candidate {
            interface: k.link.display_name(),
            index: k.link.index,
            verdict,
            reason,
            addresses: addrs,
        });
    }
    verdicts.extend(dropped);
    // Present in walk order (reverse link order).
    let pos = |i: u32| model.link_position(i).unwrap_or(0);
    verdicts.sort_by_key(|c| std::cmp::Reverse(pos(c.index)));
    d.candidates = verdicts;
    if kept.is_empty() {
        return Err(Unable::NoValidInterfaces);
    }
    match chosen {
        Some((addr, iface)) => {
            d.address = Some(addr.into());
            d.interface = Some(iface);
            Ok(())
        }
        None => Err(Unable::NoValidAddresses(o.family)),
    }
}

/// What [`filtered`] chooses, as (address, interface, error), without
/// listing the candidates: only a kept link holding an address of the
/// family can be chosen, so only those are examined (in walk order, the
/// reverse of link order), and the rest only to tell the two errors apart.
/// Must equal `filtered`'s outcome on every model (tested).
fn filtered_outcome(
    model: &Model,
    include: Option<&Patterns>,
    exclude: Option<&Patterns>,
    cidrs: &[IpNet],
    o: &Options,
) -> Result<(IpNet, String), Unable> {
    let kept = |link: &LinkEntry| dropped_by_name(link, include, exclude).is_none();
    let af = if o.family == Family::V6 {
        AddressFamily::Inet6
    } else {
        AddressFamily::Inet
    };
    let mut holders: Vec<(usize, u32)> = model
        .devices_with_addresses(af)
        .filter_map(|i| model.link_position(i).map(|p| (p, i)))
        .collect();
    holders.sort_unstable_by(|a, b| b.cmp(a));
    for (_, i) in holders {
        let Some(link) = model.link(i).filter(|l| kept(l)) else {
            continue;
        };
        let chosen = goview::addrs(model, i, view(o.version))
            .into_iter()
            .filter(|a| family_of(a.ip) == o.family)
            .find(|a| goview::is_global_unicast(a.ip) && (cidrs.is_empty() || cidrs.iter().any(|c| c.contains(&a.ip))));
        if let Some(a) = chosen {
            return Ok((cidr_of(&a), link.display_name()));
        }
    }
    if !model.links().iter().any(kept) {
        return Err(Unable::NoValidInterfaces);
    }
    Err(Unable::NoValidAddresses(o.family))
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
    let result = match method.as_ref().ok()? {
        Method::FirstFound(ex) | Method::SkipInterface { patterns: ex, .. } => {
            filtered_outcome(model, None, Some(ex), &[], o)
        }
        Method::Interface(inc) => filtered_outcome(model, Some(inc), None, &[], o),
        Method::Cidr(nets) => filtered_outcome(model, None, None, nets, o),
        Method::CanReach(_) | Method::KubernetesInternalIp => return None,
    };
    Some(match result {
        Ok((a, i)) => (Some(a.into()), Some(i), None),
        Err(e) => (None, None, Some(Failure::Unable(e))),
    })
}

/// `GetLocalCIDR`-style lookup: all interfaces, reversed, no exclusions, no
/// global-unicast check; the first CIDR whose IP equals `ip`.
fn local_cidr(model: &Model, ip: IpAddr, v: Version) -> Option<(IpNet, String)> {
    let mut sink = Vec::new();
    let fam = family_of(ip);
    let kept = get_interfaces(model, None, None, fam, v, &mut sink);
    kept.iter().find_map(|k| {
        k.cidrs
            .iter()
            .find(|a| a.ip == ip)
            .map(|a| (cidr_of(a), k.link.display_name()))
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
    Semantics::CalicoNode { asked, walk }
}

/// Replays one method given as text (parsed here; see [`detect_parsed`]).
pub fn detect(model: &Model, method_text: &str, o: &Options) -> Detection {
    detect_parsed(model, method_text, &Method::parse(method_text, o.version), o)
}

/// Replays one method, parsed once by the caller.
pub fn detect_parsed(model: &Model, method_text: &str, method: &Result<Method, MethodError>, o: &Options) -> Detection {
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
    let name = if method_text.is_empty() {
        "first-found"
    } else {
        method_text
    };
    let method = match method {
        Ok(m) => m,
        Err(e) => {
            let mut d = Detection::new(name, semantics(asked, None), o.family);
            if let MethodError::Invalid { method, .. } = e {
                d.log.push(Log::InvalidMethod { method: method.clone() });
            }
            d.error = Some(Failure::Method(e.clone()));
            return d;
        }
    };
    let mut d = Detection::new(name, semantics(asked, Some(method)), o.family);
    match &o.ip {
        IpSetting::None => {
            d.notes.push(Note::IpNone { family: o.family });
            d.error = Some(Failure::Disabled);
            return d;
        }
        IpSetting::Explicit(text) => {
            explicit_ip(model, text, o, &mut d);
            return d;
        }
        IpSetting::Autodetect => {}
    }
    let result = match method {
        Method::FirstFound(ex) | Method::SkipInterface { patterns: ex, .. } => {
            filtered(model, None, Some(ex), &[], o, &mut d)
        }
        Method::Interface(inc) => filtered(model, Some(inc), None, &[], o, &mut d),
        Method::Cidr(nets) => filtered(model, None, None, nets, o, &mut d),
        Method::CanReach(dest) => can_reach(model, dest, o, &mut d),
        Method::KubernetesInternalIp => k8s_internal_ip(model, o, &mut d),
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
        d.error = Some(Failure::Unable(why));
    } else if let (Some(by), Some(a), Some(i)) = (by, d.address, &d.interface) {
        d.log.push(Log::Using {
            family: o.family,
            address: a,
            interface: i.clone(),
            by,
        });
    }
    bgp_peers(model, o, &mut d);
    vxlan_parent(model, o, &mut d);
    d.notes.push(Note::Redetects);
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
                NoSource::NoRoutes | NoSource::NoAddress(_) => return None,
            },
        },
        Unable::CanReachName { .. }
        | Unable::NoInternalIp
        | Unable::NoInternalIpOfFamily(_)
        | Unable::InternalIpNotLocal(_) => return None,
    })
}

/// felix's VXLAN device parent (`getParentInterface` in felix's VXLAN
/// manager): `LinkList()` in dump order, each link's `AddrList` of the
/// family; the first link holding the node's IP (prefix ignored).
fn vxlan_parent(model: &Model, o: &Options, d: &mut Detection) {
    let Some(ip) = d.ip() else { return };
    let fam = o.family.af();
    let parent = model
        .links()
        .iter()
        .find(|l| model.device_addresses(l.index, fam).iter().any(|a| a.address == ip));
    d.notes.push(match parent {
        Some(l) => Note::VxlanParent {
            interface: l.display_name(),
        },
        None => Note::VxlanNoParent,
    });
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
        match source::select_source(model, dst) {
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
    d.notes.push(Note::Reaches {
        dst,
        source: choice.source,
        route: model.route_text(&choice.route),
        why: choice.why.clone(),
    });
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
                reason: Some(reason),
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
            },
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
        d.notes.push(Note::NoInterfaceFor { ip });
        d.log.push(Log::NoMatchingInterface { ip });
        d.log.push(Log::UnparsableCidr {
            address: ip.to_string(),
        });
        return Err(Unable::InternalIpNotLocal(ip));
    };
    d.log.push(Log::IncludingCidr { cidr });
    let result = if k8s_bug(o.version) {
        let net = cidr.trunc();
        d.notes.push(Note::NetworkAddress {
            version: o.version,
            network: net,
            cidr,
        });
        net
    } else {
        cidr
    };
    for l in goview::interfaces(model).iter().rev() {
        let here = l.display_name() == iface;
        d.candidates.push(Candidate {
            interface: l.display_name(),
            index: l.index,
            verdict: if here { Verdict::Chosen } else { Verdict::NotMatching },
            reason: if here {
                Reason::CarriesInternalIp { ip }
            } else {
                Reason::LacksInternalIp { ip }
            },
            addresses: Vec::new(),
        });
    }
    d.address = Some(result.into());
    d.interface = Some(iface);
    Ok(())
}

fn explicit_ip(model: &Model, text: &str, o: &Options, d: &mut Detection) {
    let not_an_address = || {
        Some(Failure::NotAnAddress {
            family: o.family,
            text: text.to_owned(),
        })
    };
    let (ip_text, given_len) = match text.split_once('/') {
        Some((i, l)) => (i, Some(l)),
        None => (text, None),
    };
    let Ok(ip) = ip_text.parse::<IpAddr>() else {
        d.error = not_an_address();
        return;
    };
    let on_host = goview::host_has(model, ip);
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
    d.notes.push(Note::IpGiven {
        family: o.family,
        text: text.to_owned(),
    });
    if on_host {
        d.interface = local_cidr(model, ip, o.version).map(|(_, i)| i);
    } else {
        d.notes.push(Note::IpNotConfirmed { family: o.family, ip });
    }
    d.address = Some(cidr.into());
}

fn bgp_peers(model: &Model, o: &Options, d: &mut Detection) {
    let chosen = d.ip();
    for peer in o.bgp_peers.iter().filter(|p| family_of(**p) != o.family) {
        d.notes.push(Note::BgpPeerOtherFamily {
            peer: *peer,
            family: o.family,
        });
    }
    for peer in o.bgp_peers.iter().filter(|p| family_of(**p) == o.family) {
        match source::select_source(model, *peer) {
            Ok(c) => {
                let node = match chosen {
                    Some(ip) if ip == c.source => PeerCheck::Matches,
                    Some(ip) => PeerCheck::Mismatch {
                        node: ip,
                        interface: d.interface.clone(),
                    },
                    None => PeerCheck::NoNodeAddress,
                };
                d.notes.push(Note::BgpPeer {
                    peer: *peer,
                    source: c.source,
                    device: c.oif.map(|i| model.ifname(i)).unwrap_or_default(),
                    route: model.route_text(&c.route),
                    node,
                });
            }
            Err(why) => d.notes.push(Note::BgpPeerUnreachable { peer: *peer, why }),
        }
    }
}

#[cfg(test)]
#[path = "calico_tests.rs"]
mod tests;
