//! Nomad's default advertise address: hashicorp/go-sockaddr's
//! `GetPrivateIP` (`ifaddrs.go`: `GetPrivateInterfaces`,
//! `GetAllInterfaces`, `IfByFlag` "forwardable" and "up", the sort
//! `OrderedIfAddrBy(AscIfDefault, AscIfType, AscIfNetworkSize)`, `IfByRFC`
//! "6890"; `rfc.go`: the RFC 6890 blocks and the `ForwardingBlacklist`;
//! `route_info_linux.go`: the default interface).
//!
//! Contract: a pure function of the model. Semantics: every address of
//! Go's `net.Interfaces()`/`Addrs()` (dump order) on an up interface that
//! is forwardable (outside the forwarding blacklist); sorted with the
//! default interface's first (the first `default via GW dev IF` line of
//! `ip route`: the main table's first IPv4 default route with a gateway
//! and one device), IPv4 before IPv6, broader networks first; the first
//! one inside an RFC 6890 block wins. None: no address, and no error
//! (go-sockaddr returns an empty string).

use super::chooser::Optionless;
use super::family::Family;
use super::go::{self, AddrView};
use super::reason;
use super::verdict::{AddrVerdict, Candidate, Detection, Verdict};
use crate::model::Model;
use crate::netlink::names::IFF_UP;
use crate::netlink::values::{AddressFamily, RouteType, TableId};

/// Nomad's default advertise address in the registry (it takes no options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nomad;

impl Optionless for Nomad {
    const PROGRAM: super::program::Program = super::program::Program::named("nomad");
    const DOC: &'static str = "Nomad's default advertise address";
    const WALKS_LINKS: bool = true;

    fn detect(model: &Model) -> Detection {
        detect(model)
    }

    /// IPv4's first main-table default and its device, and the state of
    /// the interfaces it walks.
    fn reads(family: super::family::Family) -> super::unshown::Reads {
        super::unshown::Reads::walk(family).with_routes(&[super::family::Family::V4])
    }

    fn lean(model: &Model) -> Option<Detection> {
        Some(detect_in(model, false))
    }
}

/// `KnownRFCs()[6890]`.
pub(crate) const RFC6890: super::blocks::Blocks = super::blocks::Blocks(super::blocks::List::Rfc6890);

/// `KnownRFCs()[ForwardingBlacklist]`.
pub(crate) const NOT_FORWARDABLE: super::blocks::Blocks = super::blocks::Blocks(super::blocks::List::NotForwardable);

/// The interface `ip route`'s first `default via GW dev IF` line names.
pub(crate) fn default_interface(model: &Model) -> Option<u32> {
    model
        .route_table()
        .prefix(AddressFamily::Inet, TableId::Main, None, 0)
        .find(|r| r.kind == RouteType::Unicast && !r.multipath && r.gateway.is_some() && r.oif.is_some())
        .and_then(|r| r.oif)
}

/// Nomad's default advertise address.
pub fn detect(model: &Model) -> Detection {
    detect_in(model, true)
}

/// Nomad's default advertise address; the candidates only with
/// `rows_too` (what `--timeline` compares needs none).
pub fn detect_in(model: &Model, rows_too: bool) -> Detection {
    let mut d = Detection::new(Nomad::PROGRAM, Nomad.into(), Family::V4);
    let default_if = default_interface(model);
    match default_if {
        Some(i) => d.notes.push(
            Note::NomadDefaultInterface {
                interface: model.ifname(i),
            }
            .into(),
        ),
        None => d.notes.push(Note::NomadNoDefaultInterface.into()),
    }
    // (link position, address position, link index, ip, prefix length,
    // candidate row)
    let mut kept = Vec::new();
    for (pos, l) in model.links().iter().enumerate() {
        let addrs = go::addrs(model, l.index, AddrView::GoNet);
        if addrs.is_empty() {
            continue;
        }
        let up = l.flags & IFF_UP != 0;
        let mut rows = Vec::new();
        for (i, a) in addrs.iter().enumerate() {
            let dropped = if !up {
                Some((Verdict::NotUp, reason::Reason::InterfaceDown))
            } else if NOT_FORWARDABLE.holds(a.ip, a.prefix_len) {
                Some((Verdict::Filtered, Reason::NotForwardable.into()))
            } else {
                None
            };
            if dropped.is_none() {
                kept.push((pos, i, l.index, a.ip, a.prefix_len, d.candidates.len()));
            }
            if rows_too {
                let (verdict, reason) = dropped.unwrap_or((Verdict::NotReached, reason::Reason::SortedAfter));
                rows.push(AddrVerdict::on_interface(a.ip, a.prefix_len, verdict, reason));
            }
        }
        if !rows_too {
            continue;
        }
        d.candidates.push(Candidate {
            interface: l.display_name(),
            index: l.index,
            verdict: if up { Verdict::NoAddress } else { Verdict::NotUp },
            reason: if Some(l.index) == default_if {
                Reason::DefaultInterface.into()
            } else {
                reason::Reason::UpInterface
            },
            addresses: rows,
        });
    }
    // The sort: default interface first, IPv4 first, broader network first;
    // ties keep list order (a stable sort, as sort.Sort's insertion sort
    // is on the short lists of a host).
    kept.sort_by_key(|&(pos, i, index, ip, len, _)| (Some(index) != default_if, ip.is_ipv6(), len, pos, i));
    let won = kept.iter().find(|&&(_, _, _, ip, len, _)| RFC6890.holds(ip, len));
    for &(pos, i, _, ip, len, cand) in &kept {
        let Some(c) = d.candidates.get_mut(cand) else {
            continue;
        };
        let chosen = won.is_some_and(|w| w.0 == pos && w.1 == i);
        if let Some(row) = c.addresses.get_mut(i) {
            if chosen {
                row.verdict = Verdict::Chosen;
                row.reason = Some(Reason::FirstRfc6890.into());
                c.verdict = Verdict::Chosen;
            } else if !RFC6890.holds(ip, len) {
                row.verdict = Verdict::NotMatching;
                row.reason = Some(Reason::NotRfc6890.into());
            }
        }
    }
    match won {
        Some(&(_, _, index, ip, _, _)) => {
            d.address = Some(ip.into());
            d.family = Family::of(ip);
            d.interface = Some(model.ifname(index));
        }
        None => d.error = Some(Failure::NoPrivateIp.into()),
    }
    d
}

pub mod note;
pub use self::note::{Failure, Note, Reason};

#[cfg(test)]
#[path = "nomad_tests.rs"]
mod tests;
