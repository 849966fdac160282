//! etcd's default host, the address it advertises when its URLs name no
//! host: etcd `pkg/netutil/routes_linux.go` (`GetDefaultHost`,
//! `getDefaultRoutes`, `chooseHost`, `parsePREFSRC`, `getIfaceAddr`).
//!
//! Contract: a pure function of the model. Semantics: one route dump of
//! every family; per family, the LAST route of the main table with a
//! destination length of 0 wins (whatever its type or metric); IPv4 is
//! tried first, then the other families in ascending order. The winner's
//! `RTA_PREFSRC` if it has one; else the first address of its `RTA_OIF` in
//! an address dump of that family, as `IFA_ADDRESS`, which is the *peer* on
//! a point-to-point link. A route without `RTA_OIF` (a multipath route) is
//! etcd's error "could not find default route", even when it has a prefsrc.

use std::net::IpAddr;

use super::chooser::Optionless;
use super::failure::Failure;
use super::family::Family;
use super::reason;
use super::verdict::{AddrVerdict, Candidate, Detection, NodeAddress, Verdict};
use crate::model::{Model, RouteEntry};
use crate::netlink::values::{AddressFamily, TableId};

/// etcd's default host in the registry (it takes no options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Etcd;

impl Optionless for Etcd {
    const PROGRAM: super::program::Program = super::program::Program::named("etcd");
    const DOC: &'static str = "etcd's default host";
    const WALKS_LINKS: bool = false;

    fn detect(model: &Model) -> Detection {
        detect(model)
    }

    /// The last main-table default of IPv4, else IPv6's, and its device's
    /// addresses.
    fn reads(family: super::family::Family) -> super::unshown::Reads {
        use super::family::Family;
        super::unshown::Reads::walk(family)
            .with_routes(&[Family::V4, Family::V6])
            .first_answer_ends()
            .no_link_attributes()
    }
}

/// etcd's default host.
pub fn detect(model: &Model) -> Detection {
    let mut d = Detection::new(Etcd::PROGRAM, Etcd.into(), Family::V4);
    if !model.has_routes() {
        d.error = Some(Failure::NoRoutesCaptured(Etcd::PROGRAM));
        return d;
    }
    let table = model.route_table();
    // `routes[rtmsg.Family] = &msg` for every main-table route with
    // dst_len 0: the last one of each family stays. rtm_table is 8 bits:
    // a table id above 255 reads as RouteTable::Compat, never main.
    let last = |fam: AddressFamily| -> Option<&RouteEntry> { table.prefix(fam, TableId::Main, None, 0).last() };
    // IPv4's when it has one: its answer or error ends the search (an
    // address always carries IFA_ADDRESS), so IPv6's is read only without.
    let Some(r) = last(AddressFamily::Inet).or_else(|| last(AddressFamily::Inet6)) else {
        d.error = Some(Failure::Said("could not find default route".into()));
        return d;
    };
    let route = model.route_text(r);
    let earlier = table.prefix(r.family, TableId::Main, None, 0).count() - 1;
    if earlier > 0 {
        d.notes.push(
            Note::LastDefaultRoute {
                route: route.clone(),
                earlier,
            }
            .into(),
        );
    }
    let Some(oif) = r.oif else {
        d.candidates.push(Candidate {
            interface: String::new(),
            index: 0,
            verdict: Verdict::NoAddress,
            reason: Reason::NoOutputDevice { route }.into(),
            addresses: Vec::new(),
        });
        d.error = Some(Failure::Said("could not find default route".into()));
        return d;
    };
    let family = if r.family == AddressFamily::Inet6 {
        Family::V6
    } else {
        Family::V4
    };
    if let Some(src) = r.prefsrc {
        d.candidates.push(Candidate {
            interface: model.ifname(oif),
            index: oif,
            verdict: Verdict::Chosen,
            reason: Reason::RoutePrefsrc { route }.into(),
            addresses: Vec::new(),
        });
        choose(&mut d, model, src, oif, family);
        return d;
    }
    // getIfaceAddr: the first RTM_NEWADDR of the family's dump on oif.
    let first = model.device_addresses(oif, r.family).first();
    let rows = model
        .device_addresses(oif, r.family)
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let shown = ifa_address(a.address, a.peer);
            AddrVerdict {
                address: NodeAddress::prefixed(shown, a.prefix_len),
                verdict: if i == 0 { Verdict::Chosen } else { Verdict::NotReached },
                reason: Some(match (i, a.peer) {
                    (0, Some(_)) => Reason::PeerAddress { local: a.address }.into(),
                    (0, None) => Reason::FirstInDump.into(),
                    _ => reason::Reason::EarlierAddress,
                }),
            }
        })
        .collect();
    d.candidates.push(Candidate {
        interface: model.ifname(oif),
        index: oif,
        verdict: if first.is_some() {
            Verdict::Chosen
        } else {
            Verdict::NoAddress
        },
        reason: Reason::LastDefaultRoute { route }.into(),
        addresses: rows,
    });
    match first {
        Some(a) => choose(&mut d, model, ifa_address(a.address, a.peer), oif, family),
        None => {
            d.error = Some(Failure::Said(format!(
                "could not find address for interface index {oif}"
            )))
        }
    }
    d
}

/// `IFA_ADDRESS`: the peer of a point-to-point address, else the address.
fn ifa_address(local: IpAddr, peer: Option<IpAddr>) -> IpAddr {
    peer.unwrap_or(local)
}

fn choose(d: &mut Detection, model: &Model, ip: IpAddr, oif: u32, family: Family) {
    d.address = Some(ip.into());
    d.interface = Some(model.ifname(oif));
    d.family = family;
}

pub mod note;
pub use self::note::{Note, Reason};

#[cfg(test)]
#[path = "etcd_tests.rs"]
mod tests;
