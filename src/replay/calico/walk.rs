//! calico-node's interface walk: `GetInterfaces` (every link in *reverse*
//! kernel order, dropped by its name against the include and exclude
//! patterns) and `FilteredEnumeration` over it (the first global unicast
//! address of the family, inside the `cidr=` networks if any), which
//! first-found, `interface=`, `skip-interface=` and `cidr=` run; and the
//! `GetLocalCIDR`-style lookup of one address.
//!
//! Contract: pure functions of the model, the patterns, the family and the
//! release; every interface and address of the walk gets a verdict, and
//! [`filtered_outcome`] gives what [`filtered`] chooses without them.

use std::net::IpAddr;

use ipnet::IpNet;

use crate::model::{LinkEntry, Model};
use crate::netlink::values::AddressFamily;
use crate::replay::calico::method::{Method, Patterns};
use crate::replay::calico::note::{Reason, Unable};
use crate::replay::calico::version::Version;
use crate::replay::family::Family;
use crate::replay::go::{self, AddrView, GoAddr};
use crate::replay::verdict::{AddrVerdict, Candidate, Detection, Verdict};

pub(super) fn family_of(ip: IpAddr) -> Family {
    Family::of(ip)
}

pub(super) fn view(v: Version) -> AddrView {
    if v >= Version(3, 32, 0) {
        AddrView::Vishvananda
    } else {
        AddrView::GoNet
    }
}

/// One interface `GetInterfaces` kept, with its addresses of the family.
pub(super) struct Kept<'m> {
    pub(super) link: &'m LinkEntry,
    pub(super) cidrs: Vec<GoAddr<'m>>,
}

/// Why `GetInterfaces` drops an interface by its name, if it does: a name
/// the capture never gave cannot be matched, then the include patterns,
/// then the exclude patterns.
pub(super) fn dropped_by_name(
    link: &LinkEntry,
    include: Option<&Patterns>,
    exclude: Option<&Patterns>,
) -> Option<Verdict> {
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
pub(super) fn get_interfaces<'m>(
    model: &'m Model,
    include: Option<&Patterns>,
    exclude: Option<&Patterns>,
    family: Family,
    v: Version,
    out: &mut Vec<Candidate>,
) -> Vec<Kept<'m>> {
    let mut kept = Vec::new();
    for link in go::interfaces(model).iter().rev() {
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
                reason: reason.into(),
                addresses: Vec::new(),
            });
            continue;
        }
        let cidrs = go::addrs(model, link.index, view(v))
            .into_iter()
            .filter(|a| family_of(a.ip) == family)
            .collect();
        kept.push(Kept { link, cidrs });
    }
    kept
}

/// The address as `Addrs()` hands it out (see [`NodeAddress::prefixed`]).
pub(super) fn cidr_of(a: &GoAddr<'_>) -> IpNet {
    IpNet::new(a.ip, a.prefix_len).unwrap_or_else(|_| IpNet::from(a.ip))
}

/// The arguments of `FilteredEnumeration(include, exclude, cidrs,
/// version)`, with the family asked for.
pub(super) struct Enumeration<'a> {
    include: Option<&'a Patterns>,
    exclude: Option<&'a Patterns>,
    cidrs: &'a [IpNet],
    family: Family,
    version: Version,
}

impl<'a> Enumeration<'a> {
    /// The enumeration `method` runs for this family and release; `None`
    /// for the methods that run none (can-reach, kubernetes-internal-ip).
    pub(super) fn of(method: &'a Method, family: Family, version: Version) -> Option<Self> {
        let (include, exclude, cidrs): (_, _, &[IpNet]) = match method {
            Method::FirstFound(ex) | Method::SkipInterface { patterns: ex, .. } => (None, Some(ex), &[]),
            Method::Interface(inc) => (Some(inc), None, &[]),
            Method::Cidr(nets) => (None, None, nets),
            Method::CanReach(_) | Method::KubernetesInternalIp => return None,
        };
        Some(Enumeration {
            include,
            exclude,
            cidrs,
            family,
            version,
        })
    }
}

/// `FilteredEnumeration`, every interface and address of the walk given
/// a verdict in `d`.
pub(super) fn filtered(model: &Model, e: &Enumeration<'_>, d: &mut Detection) -> Result<(), Unable> {
    let mut dropped = Vec::new();
    let kept = get_interfaces(model, e.include, e.exclude, e.family, e.version, &mut dropped);
    // Candidates in walk order: every interface, kept or dropped, reversed.
    let mut verdicts: Vec<Candidate> = Vec::new();
    let mut chosen: Option<(IpNet, String)> = None;
    for k in &kept {
        let mut addrs = Vec::new();
        for a in &k.cidrs {
            let (verdict, reason) = if chosen.is_some() {
                (Verdict::NotReached, Reason::EarlierCandidate)
            } else if !go::is_global_unicast(a.ip) {
                (
                    Verdict::NotGlobalUnicast,
                    Reason::AddressNotGlobal {
                        ip: a.ip,
                        why: go::not_global(a.ip),
                    },
                )
            } else if !e.cidrs.is_empty() && !e.cidrs.iter().any(|c| c.contains(&a.ip)) {
                (
                    Verdict::OutsideCidrs,
                    Reason::OutsideCidrs {
                        ip: a.ip,
                        cidrs: e.cidrs.to_vec(),
                    },
                )
            } else {
                chosen = Some((cidr_of(a), k.link.display_name()));
                (Verdict::Chosen, Reason::FirstOfFirstCandidate)
            };
            addrs.push(AddrVerdict {
                address: cidr_of(a).into(),
                verdict,
                reason: Some(reason.into()),
            });
        }
        let won = addrs.iter().any(|a| a.verdict == Verdict::Chosen);
        let (verdict, reason) = if won {
            (Verdict::Chosen, Reason::FirstCandidate)
        } else if k.cidrs.is_empty() {
            (Verdict::NoAddress, Reason::NoAddressOfFamily(e.family))
        } else if addrs.iter().all(|a| a.verdict == Verdict::NotReached) {
            (Verdict::NotReached, Reason::EarlierInterface)
        } else if addrs
            .iter()
            .all(|a| a.verdict == Verdict::OutsideCidrs || a.verdict == Verdict::NotReached)
            && !e.cidrs.is_empty()
        {
            (Verdict::OutsideCidrs, Reason::NoAddressInCidrs)
        } else {
            (Verdict::NotGlobalUnicast, Reason::NoGlobalOfFamily(e.family))
        };
        verdicts.push(Candidate {
            interface: k.link.display_name(),
            index: k.link.index,
            verdict,
            reason: reason.into(),
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
        None => Err(Unable::NoValidAddresses(e.family)),
    }
}

/// What [`filtered`] chooses, as (address, interface, error), without
/// listing the candidates: only a kept link holding an address of the
/// family can be chosen, so only those are examined (in walk order, the
/// reverse of link order), and the rest only to tell the two errors apart.
/// Must equal `filtered`'s outcome on every model (tested).
pub(super) fn filtered_outcome(model: &Model, e: &Enumeration<'_>) -> Result<(IpNet, String), Unable> {
    let kept = |link: &LinkEntry| dropped_by_name(link, e.include, e.exclude).is_none();
    let af = if e.family == Family::V6 {
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
        let chosen = go::addrs(model, i, view(e.version))
            .into_iter()
            .filter(|a| family_of(a.ip) == e.family)
            .find(|a| go::is_global_unicast(a.ip) && (e.cidrs.is_empty() || e.cidrs.iter().any(|c| c.contains(&a.ip))));
        if let Some(a) = chosen {
            return Ok((cidr_of(&a), link.display_name()));
        }
    }
    if !model.links().iter().any(kept) {
        return Err(Unable::NoValidInterfaces);
    }
    Err(Unable::NoValidAddresses(e.family))
}

/// `GetLocalCIDR`-style lookup: all interfaces, reversed, no exclusions, no
/// global-unicast check; the first CIDR whose IP equals `ip`.
pub(super) fn local_cidr(model: &Model, ip: IpAddr, v: Version) -> Option<(IpNet, String)> {
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
