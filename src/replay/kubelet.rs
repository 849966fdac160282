//! kubelet's node IP (no cloud provider): `--node-ip`, a hostname that is an
//! IP, the node name's resolver answers, then the default-route interface.
//!
//! Contract: a pure function of the model and the options; the resolver's
//! answers are an input (`--resolved`, in resolver order), since the capture
//! shows only the netlink side. Semantics: detection-methods.md §4.

use std::net::IpAddr;

use super::goview::{self, AddrView};
use super::verdict::{AddrVerdict, Candidate, Detection, Verdict};
use crate::model::{Model, RouteEntry};
use crate::netlink::names::{AF_INET, AF_INET6, IFF_LOOPBACK, IFF_UP, RT_TABLE_MAIN};

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--node-ip` (one, or two for dual stack).
    pub node_ip: Vec<IpAddr>,
    pub hostname_override: Option<String>,
    /// What the node name resolved to, in resolver order.
    pub resolved: Vec<IpAddr>,
}

/// kubelet's `validateNodeIP`.
fn validate(model: &Model, ip: IpAddr) -> Result<(), String> {
    if ip.is_loopback() {
        return Err("loopback".into());
    }
    if ip.is_multicast() {
        return Err("multicast".into());
    }
    if ip.is_unspecified() {
        return Err("unspecified".into());
    }
    if !goview::is_global_unicast(ip) && goview::not_global_reason(ip) == "link-local" {
        return Err("link-local".into());
    }
    if !goview::host_has(model, ip) {
        return Err(format!("node IP {ip} not found in the host's network interfaces"));
    }
    Ok(())
}

pub fn detect(model: &Model, o: &Options) -> Detection {
    let node_ip = o.node_ip.first().copied();
    let prefer_v6 = node_ip.is_some_and(|i| i.is_ipv6());
    let family = if prefer_v6 {
        super::family::Family::V6
    } else {
        super::family::Family::V4
    };
    let mut d = Detection::new(
        "kubelet",
        "kubelet NodeAddress: 1 --node-ip, 2 hostname that is an IP, 3 node name's resolver answers, \
         4 default-route interface (ChooseHostInterface / ResolveBindAddress)",
        family,
    );
    // Step 1.
    if let Some(ip) = node_ip.filter(|i| !i.is_unspecified()) {
        for ip in &o.node_ip {
            if let Err(e) = validate(model, *ip) {
                d.error = Some(format!("--node-ip {ip} is invalid: {e}"));
                return d;
            }
        }
        d.address = Some(ip.to_string());
        d.interface = interface_of(model, ip);
        d.notes.push("step 1: --node-ip given, no detection".into());
        if o.node_ip.len() > 1 {
            d.notes.push(format!(
                "dual-stack: InternalIPs {}",
                o.node_ip.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
            ));
        }
        return d;
    }
    // Step 2.
    if let Some(ip) = o.hostname_override.as_deref().and_then(|h| h.parse::<IpAddr>().ok()) {
        d.address = Some(ip.to_string());
        d.interface = interface_of(model, ip);
        d.notes
            .push("step 2: the hostname is an IP literal (not validated)".into());
        return d;
    }
    // Step 3.
    let mut first_other: Option<IpAddr> = None;
    for (i, ip) in o.resolved.iter().enumerate() {
        let (verdict, reason) = match validate(model, *ip) {
            Err(e) => (Verdict::NotMatching, format!("rejected by validateNodeIP: {e}")),
            Ok(()) if ip.is_ipv6() == prefer_v6 && d.address.is_none() => {
                d.address = Some(ip.to_string());
                d.interface = interface_of(model, *ip);
                (
                    Verdict::Chosen,
                    format!("resolver answer #{}: first valid one of the preferred family", i + 1),
                )
            }
            Ok(()) if d.address.is_some() => (Verdict::NotReached, "an earlier answer won".into()),
            Ok(()) => {
                first_other.get_or_insert(*ip);
                (Verdict::OtherFamily, "valid, but not of the preferred family".into())
            }
        };
        d.candidates.push(Candidate {
            interface: interface_of(model, *ip).unwrap_or_else(|| "-".into()),
            index: index_of(model, *ip).unwrap_or(0),
            verdict,
            reason,
            addresses: vec![AddrVerdict {
                address: ip.to_string(),
                verdict,
                reason: String::new(),
            }],
        });
    }
    if d.address.is_none()
        && let Some(ip) = first_other
    {
        d.address = Some(ip.to_string());
        d.interface = interface_of(model, ip);
        d.notes
            .push("step 3: no valid answer of the preferred family; the first valid one of the other".into());
        d.family = super::family::Family::of(ip);
    }
    if d.address.is_some() {
        d.notes
            .insert(0, "step 3: the node name resolved to a valid local address".into());
        return d;
    }
    if o.resolved.is_empty() {
        d.notes
            .push("step 3: the node name resolved to nothing (no --resolved given)".into());
    } else {
        d.notes.push("step 3: no resolver answer passed validateNodeIP".into());
    }
    // Step 4.
    choose_host_interface(model, prefer_v6, &mut d);
    d
}

fn index_of(model: &Model, ip: IpAddr) -> Option<u32> {
    model.addresses(None).iter().find(|a| a.address == ip).map(|a| a.index)
}

fn interface_of(model: &Model, ip: IpAddr) -> Option<String> {
    model
        .addresses(None)
        .iter()
        .find(|a| a.address == ip)
        .map(|a| model.ifname(a.index))
}

/// An answer of the family tried second: says why the first gave none,
/// and labels the detection with the answer's family.
fn fell_back(d: &mut Detection, fams: [u8; 2], defaults: &[&RouteEntry], ip: IpAddr) {
    let [first, _] = fams;
    let got = if ip.is_ipv6() { AF_INET6 } else { AF_INET };
    if got == first {
        return;
    }
    let (want, other) = match first {
        AF_INET6 => ("IPv6", "IPv4"),
        _ => ("IPv4", "IPv6"),
    };
    let why = match defaults.iter().any(|r| r.family == first) {
        false => format!("no {want} default route"),
        true => format!("no {want} default route leads to a global {want} address"),
    };
    d.notes.push(format!("{why}: kubelet falls back to {other}"));
    d.family = super::family::Family::of(ip);
}

/// `ChooseHostInterface` (`ResolveBindAddress` with an IPv6 `--node-ip ::`).
fn choose_host_interface(model: &Model, prefer_v6: bool, d: &mut Detection) {
    let fams: [u8; 2] = if prefer_v6 {
        [AF_INET6, AF_INET]
    } else {
        [AF_INET, AF_INET6]
    };
    if !model.has_routes() {
        d.error =
            Some("step 4 needs the default route, but the capture holds no routes: record a route dump too".into());
        return;
    }
    // /proc/net/route: main table, destination 0.0.0.0 whatever the mask;
    // /proc/net/ipv6_route: destination :: with a gateway.
    // (in dump order: IPv4's, then IPv6's, each looked up by prefix)
    let table = model.route_table();
    let defaults: Vec<_> = [AF_INET, AF_INET6]
        .into_iter()
        .flat_map(|f| table.zero_prefixes(f, RT_TABLE_MAIN))
        .filter(|r| {
            r.dst.is_none_or(|x| x.is_unspecified())
                && (r.family == AF_INET || r.gateway.is_some_and(|g| !g.is_unspecified()))
        })
        .collect();
    if defaults.is_empty() {
        d.error = Some("no default routes found in /proc/net/route or /proc/net/ipv6_route".into());
        return;
    }
    for fam in fams {
        for r in defaults.iter().filter(|r| r.family == fam) {
            let Some(oif) = r.oif else { continue };
            let name = model.ifname(oif);
            let Some(link) = model.link(oif) else { continue };
            let mut addrs = Vec::new();
            let mut found = None;
            if link.flags & IFF_UP == 0 {
                d.candidates.push(Candidate {
                    interface: name.clone(),
                    index: oif,
                    verdict: Verdict::NotUp,
                    reason: format!("default route `{}`: interface is down", model.route_text(r)),
                    addresses: Vec::new(),
                });
            } else {
                for a in goview::addrs(model, oif, AddrView::GoNet) {
                    let want = if fam == AF_INET { a.ip.is_ipv4() } else { a.ip.is_ipv6() };
                    let (v, why) = if !want {
                        (Verdict::OtherFamily, "other family".to_string())
                    } else if found.is_some() {
                        (Verdict::NotReached, "an earlier address won".into())
                    } else if goview::is_global_unicast(a.ip) {
                        found = Some(a.ip);
                        (Verdict::Chosen, "first global unicast address".into())
                    } else {
                        (Verdict::NotGlobalUnicast, goview::not_global_reason(a.ip).into())
                    };
                    addrs.push(AddrVerdict {
                        address: a.cidr(),
                        verdict: v,
                        reason: why,
                    });
                }
                d.candidates.push(Candidate {
                    interface: name.clone(),
                    index: oif,
                    verdict: if found.is_some() {
                        Verdict::Chosen
                    } else {
                        Verdict::NoAddress
                    },
                    reason: format!("default route `{}`", model.route_text(r)),
                    addresses: addrs,
                });
            }
            if let Some(ip) = found {
                d.address = Some(ip.to_string());
                d.interface = Some(name);
                d.notes.push("step 4: address of the default-route interface".into());
                fell_back(d, fams, &defaults, ip);
                return;
            }
            // RFC 5549 setups: a global address on an up loopback interface.
            for l in model.links() {
                if l.flags & IFF_UP != 0 && l.flags & IFF_LOOPBACK != 0 {
                    let lo = goview::addrs(model, l.index, AddrView::GoNet)
                        .into_iter()
                        .find(|a| a.ip.is_ipv4() == (fam == AF_INET) && goview::is_global_unicast(a.ip));
                    if let Some(a) = lo {
                        d.address = Some(a.ip.to_string());
                        d.interface = Some(l.display_name());
                        d.notes.push(format!(
                            "step 4: {name} has no global address; loopback fallback to {}",
                            l.display_name()
                        ));
                        fell_back(d, fams, &defaults, a.ip);
                        return;
                    }
                }
            }
        }
    }
    d.error = Some("unable to select an IP from default routes".into());
}

#[cfg(test)]
#[path = "kubelet_tests.rs"]
mod tests;
