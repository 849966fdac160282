//! Docker Swarm's advertise address when `docker swarm init` is given
//! none: moby `daemon/cluster/listen_addr_linux.go` (`resolveSystemAddr`)
//! and `daemon/cluster/listen_addr.go` (`resolveSystemAddrViaSubnetCheck`,
//! `errMultipleIPs`, `errNoIP`).
//!
//! Contract: a pure function of the model. Semantics: links in dump order
//! that are up and of vishvananda/netlink's type "device" (no
//! `IFLA_INFO_KIND`: physical NICs, `lo`); each one's global unicast
//! addresses (one dump of every family): a second IPv4 (or IPv6) address on
//! one link, or a second link with an address, is Docker's refusal; IPv4 is
//! preferred on a link with one of each. No such address on any device:
//! the fallback walks Go's `net.Interfaces()` (up, not loopback) the same
//! way, skipping every interface that holds an address inside one of
//! Docker's own network subnets. Those subnets are the daemon's and not in
//! the capture: the replay takes the prefixes of the addresses on
//! `docker0`, `docker_gwbridge` and `br-*` bridges, and says so.

use std::net::IpAddr;

use ipnet::IpNet;

use super::chooser::Optionless;
use super::failure::Failure;
use super::family::Family;
use super::go::{self, AddrView};
use super::reason;
use super::verdict::{AddrVerdict, Candidate, Detection, NodeAddress, Verdict};
use crate::model::{LinkEntry, Model};
use crate::netlink::names::{IFF_LOOPBACK, IFF_UP};

/// Docker Swarm's advertise address in the registry (it takes no options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swarm;

impl Optionless for Swarm {
    const PROGRAM: super::program::Program = super::program::Program::named("swarm");
    const DOC: &'static str = "Docker Swarm's advertise address";
    const WALKS_LINKS: bool = true;

    fn detect(model: &Model) -> Detection {
        detect(model)
    }
}

/// What one link offers: its first global IPv4 and IPv6 address.
#[derive(Default)]
struct Offer {
    v4: Option<IpAddr>,
    v6: Option<IpAddr>,
}

/// Docker's refusal: `errMultipleIPs`.
fn multiple(a_if: &str, b_if: &str, a: IpAddr, b: IpAddr) -> Failure {
    Failure::Said(if a_if == b_if {
        format!(
            "could not choose an IP address to advertise since this system has multiple addresses on interface {a_if} ({a} and {b})"
        )
    } else {
        format!(
            "could not choose an IP address to advertise since this system has multiple addresses on different interfaces ({a} on {a_if} and {b} on {b_if})"
        )
    })
}

const NO_IP: &str = "could not find the system's IP address";

/// Swarm's advertise address.
pub fn detect(model: &Model) -> Detection {
    let mut d = Detection::new(Swarm::PROGRAM, Swarm.into(), Family::V4);
    let devices: Vec<&LinkEntry> = model
        .links()
        .iter()
        .filter(|l| l.kind.is_none() && l.flags & IFF_UP != 0)
        .collect();
    let mut system: Option<(IpAddr, String)> = None;
    for l in model.links() {
        let is_device = l.kind.is_none();
        let up = l.flags & IFF_UP != 0;
        if !is_device || !up {
            if go::addrs(model, l.index, AddrView::Vishvananda).is_empty() {
                continue;
            }
            d.candidates.push(Candidate {
                interface: l.display_name(),
                index: l.index,
                verdict: if up { Verdict::Excluded } else { Verdict::NotUp },
                reason: if up {
                    Reason::NotADevice.into()
                } else {
                    reason::Reason::InterfaceDown
                },
                addresses: Vec::new(),
            });
            continue;
        }
        let name = l.display_name();
        let ips = addresses(model, l.index, AddrView::Vishvananda);
        match offer(&ips, &name, &mut d, l.index, None) {
            Err(f) => {
                d.error = Some(f);
                return d;
            }
            Ok(o) => {
                if let Err(f) = take(&mut system, o, &name) {
                    refused(&mut d);
                    d.error = Some(f);
                    return d;
                }
            }
        }
    }
    if system.is_none() {
        d.notes.push(
            Note::SwarmNoDevice {
                devices: devices.iter().map(|l| l.display_name()).collect(),
            }
            .into(),
        );
        d.candidates.clear();
        match subnet_check(model, &mut d) {
            Ok(s) => system = s,
            Err(f) => {
                d.error = Some(f);
                return d;
            }
        }
    }
    match system {
        Some((ip, name)) => {
            d.address = Some(ip.into());
            d.family = Family::of(ip);
            d.interface = Some(name);
        }
        None => d.error = Some(Failure::Said(NO_IP.into())),
    }
    d
}

/// The addresses of device `index` as `view` lists them, with their
/// prefix lengths.
fn addresses(model: &Model, index: u32, view: AddrView) -> Vec<(IpAddr, u8)> {
    go::addrs(model, index, view)
        .iter()
        .map(|a| (a.ip, a.prefix_len))
        .collect()
}

/// One link's global unicast addresses, in list order: its offer, or
/// Docker's refusal of a second address of a family. With `skip`, an
/// address inside one of those subnets drops the whole interface.
fn offer(
    ips: &[(IpAddr, u8)],
    name: &str,
    d: &mut Detection,
    index: u32,
    skip: Option<&[IpNet]>,
) -> Result<Offer, Failure> {
    let mut o = Offer::default();
    let mut rows = Vec::new();
    let mut verdict = Verdict::NoAddress;
    let mut reason = Reason::NoGlobalAddress;
    let mut result = Ok(());
    for (ip, len) in ips {
        let address = NodeAddress::prefixed(*ip, *len);
        if !go::is_global_unicast(*ip) {
            rows.push(AddrVerdict {
                address,
                verdict: Verdict::NotGlobalUnicast,
                reason: Some(reason::Reason::NotGlobal(go::not_global(*ip))),
            });
            continue;
        }
        if let Some(net) = skip.and_then(|s| s.iter().find(|n| n.contains(ip))) {
            rows.push(AddrVerdict {
                address,
                verdict: Verdict::Excluded,
                reason: Some(Reason::DockerSubnet { net: *net }.into()),
            });
            verdict = Verdict::Excluded;
            reason = Reason::HoldsDockerSubnet;
            o = Offer::default();
            break;
        }
        let slot = if ip.is_ipv4() { &mut o.v4 } else { &mut o.v6 };
        if let Some(first) = *slot {
            rows.push(AddrVerdict {
                address,
                verdict: Verdict::NotMatching,
                reason: Some(reason::Reason::OneOfSeveral),
            });
            result = Err(multiple(name, name, first, *ip));
            verdict = Verdict::NotMatching;
            reason = Reason::SeveralOfFamily(Family::of(*ip));
            break;
        }
        *slot = Some(*ip);
        rows.push(AddrVerdict {
            address,
            verdict: Verdict::Chosen,
            reason: None,
        });
    }
    if result.is_ok() && (o.v4.is_some() || o.v6.is_some()) {
        verdict = Verdict::Chosen;
        reason = Reason::OnlyGlobalAddress;
        // A link with one of each family offers its IPv4 one.
        if let (Some(_), Some(v6)) = (o.v4, o.v6) {
            for r in &mut rows {
                if r.address.ip() == v6 {
                    r.verdict = Verdict::OtherFamily;
                    r.reason = Some(Reason::Ipv4Preferred.into());
                }
            }
        }
    }
    d.candidates.push(Candidate {
        interface: name.to_owned(),
        index,
        verdict,
        reason: reason.into(),
        addresses: rows,
    });
    result.map(|()| o)
}

/// Two links offered an address: neither is chosen.
fn refused(d: &mut Detection) {
    for c in d.candidates.iter_mut().filter(|c| c.verdict == Verdict::Chosen) {
        c.verdict = Verdict::NotMatching;
        c.reason = reason::Reason::OneOfSeveral;
        for a in c.addresses.iter_mut().filter(|a| a.verdict == Verdict::Chosen) {
            a.verdict = Verdict::NotMatching;
        }
    }
}

/// Keeps the system's address: a second link offering one is a refusal.
fn take(system: &mut Option<(IpAddr, String)>, o: Offer, name: &str) -> Result<(), Failure> {
    let Some(ip) = o.v4.or(o.v6) else { return Ok(()) };
    if let Some((first, first_if)) = system {
        return Err(multiple(first_if, name, *first, ip));
    }
    *system = Some((ip, name.to_owned()));
    Ok(())
}

/// `resolveSystemAddrViaSubnetCheck`.
fn subnet_check(model: &Model, d: &mut Detection) -> Result<Option<(IpAddr, String)>, Failure> {
    let docker: Vec<IpNet> = model
        .links()
        .iter()
        .filter(|l| is_docker_bridge(l.name.as_bytes()))
        .flat_map(|l| go::addrs(model, l.index, AddrView::GoNet))
        .filter_map(|a| IpNet::new(a.ip, a.prefix_len).ok().map(|n| n.trunc()))
        .collect();
    d.notes.push(
        Note::DockerSubnetsAssumed {
            subnets: docker.clone(),
        }
        .into(),
    );
    let mut system = None;
    for l in model.links() {
        if l.flags & IFF_UP == 0 || l.flags & IFF_LOOPBACK != 0 {
            continue;
        }
        let name = l.display_name();
        let ips = addresses(model, l.index, AddrView::GoNet);
        let o = offer(&ips, &name, d, l.index, Some(&docker))?;
        if let Err(f) = take(&mut system, o, &name) {
            refused(d);
            return Err(f);
        }
    }
    Ok(system)
}

/// Docker's bridges: the default one, the overlay gateway, user networks.
fn is_docker_bridge(name: &[u8]) -> bool {
    name == b"docker0" || name == b"docker_gwbridge" || name.starts_with(b"br-")
}

pub mod note;
pub use self::note::{Note, Reason};

#[cfg(test)]
#[path = "swarm_tests.rs"]
mod tests;
