//! Consul's bind (and advertise) address when `bind_addr` is `0.0.0.0`,
//! its default: consul `agent/config/builder.go` (the private IPv4 case of
//! the bind address) over `ipaddr/detect.go` (`GetPrivateIPv4`,
//! `activeInterfaceAddresses`, `isPrivateIPv4`).
//!
//! Contract: a pure function of the model. Semantics: Go's
//! `net.Interfaces()` in dump order, the up ones; their `Addrs()` (the
//! loopback interfaces' only when no other up interface has any address
//! at all, IPv6 link-local included); the IPv4 ones inside Consul's
//! private blocks (10/8, 100.64/10, 127/8, 169.254/16, 172.16/12,
//! 192.0.0/24, 192.0.2/24, 192.168/16; the two 192.0 blocks since 1.2). Exactly one is the answer; none or several is Consul's
//! refusal, in its words.

use std::net::IpAddr;

use super::chooser::Optionless;
use super::failure::Failure;
use super::family::Family;
use super::go::{self, AddrView};
use super::reason;
use super::verdict::{AddrVerdict, Candidate, Detection, NodeAddress, Verdict};
use crate::model::Model;
use crate::netlink::names::{IFF_LOOPBACK, IFF_UP};

/// Consul's default bind address in the registry (it takes no options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Consul;

impl Optionless for Consul {
    const PROGRAM: super::program::Program = super::program::Program::named("consul");
    const DOC: &'static str = "Consul's default bind address";
    const WALKS_LINKS: bool = true;

    fn detect(model: &Model) -> Detection {
        detect(model)
    }

    fn lean(model: &Model) -> Option<Detection> {
        Some(detect_in(model, false))
    }
}

/// `privateBlocks`, the IPv4 ones (those matter: only IPv4 is kept).
pub(crate) const PRIVATE: super::blocks::Blocks = super::blocks::Blocks(super::blocks::List::ConsulPrivate);

fn is_private(ip: IpAddr) -> bool {
    PRIVATE.contains(ip)
}

/// Consul's default bind address.
pub fn detect(model: &Model) -> Detection {
    detect_in(model, true)
}

/// Consul's default bind address; the candidates only with `rows_too`
/// (what `--timeline` compares needs none).
pub fn detect_in(model: &Model, rows_too: bool) -> Detection {
    let mut d = Detection::new(Consul::PROGRAM, Consul.into(), Family::V4);
    let up: Vec<_> = model.links().iter().filter(|l| l.flags & IFF_UP != 0).collect();
    let others_have = up
        .iter()
        .filter(|l| l.flags & IFF_LOOPBACK == 0)
        .any(|l| !go::addrs(model, l.index, AddrView::GoNet).is_empty());
    if !others_have {
        d.notes.push(Note::ConsulLoopbackOnly.into());
    }
    let mut found: Vec<(IpAddr, u32)> = Vec::new();
    let mut rows_of = Vec::new();
    for l in model.links() {
        let addrs = go::addrs(model, l.index, AddrView::GoNet);
        if addrs.is_empty() {
            continue;
        }
        let is_up = l.flags & IFF_UP != 0;
        let loopback = l.flags & IFF_LOOPBACK != 0;
        let (skip, why) = if !is_up {
            (true, reason::Reason::InterfaceDown)
        } else if loopback && others_have {
            (true, Reason::LoopbackNotNeeded.into())
        } else {
            (false, reason::Reason::UpInterface)
        };
        let mut rows = Vec::new();
        for a in &addrs {
            let (verdict, reason) = if skip {
                (Verdict::Excluded, None)
            } else if a.ip.is_ipv6() {
                (Verdict::OtherFamily, Some(reason::Reason::OtherFamily))
            } else if !is_private(a.ip) {
                (Verdict::NotMatching, Some(Reason::NotConsulPrivate.into()))
            } else {
                found.push((a.ip, l.index));
                (Verdict::Chosen, Some(Reason::ConsulPrivate.into()))
            };
            if rows_too {
                rows.push(AddrVerdict {
                    address: NodeAddress::prefixed(a.ip, a.prefix_len),
                    verdict,
                    reason,
                });
            }
        }
        if rows_too {
            rows_of.push((l.index, l.display_name(), skip, why, rows));
        }
    }
    let several = found.len() > 1;
    for (index, interface, skip, reason, mut rows) in rows_of {
        if several {
            for r in rows.iter_mut().filter(|r| r.verdict == Verdict::Chosen) {
                r.verdict = Verdict::NotMatching;
                r.reason = Some(reason::Reason::OneOfSeveral);
            }
        }
        let verdict = if skip {
            Verdict::Excluded
        } else if rows.iter().any(|r| r.verdict == Verdict::Chosen) {
            Verdict::Chosen
        } else if several && rows.iter().any(|r| r.reason == Some(reason::Reason::OneOfSeveral)) {
            Verdict::NotMatching
        } else {
            Verdict::NoAddress
        };
        d.candidates.push(Candidate {
            interface,
            index,
            verdict,
            reason,
            addresses: rows,
        });
    }
    match found.as_slice() {
        [] => d.error = Some(Failure::Said("No private IPv4 address found".into())),
        [(ip, index)] => {
            d.address = Some((*ip).into());
            d.interface = Some(model.ifname(*index));
        }
        _ => {
            d.error = Some(Failure::Said(
                "Multiple private IPv4 addresses found. Please configure one with 'bind' and/or 'advertise'.".into(),
            ));
            d.notes.push(
                Note::ConsulCandidates {
                    ips: found.iter().map(|(ip, _)| *ip).collect(),
                }
                .into(),
            );
        }
    }
    d
}

pub mod note;
pub use self::note::{Note, Reason};

#[cfg(test)]
#[path = "consul_tests.rs"]
mod tests;
