//! The order `getaddrinfo` returns, for glibc, Go's pure resolver and musl,
//! from the kernel state in the capture, with the rule that decided every
//! adjacent pair.
//!
//! Contract: [`sort`] is a pure function of the model, the candidates in
//! name-service order and the options. Each candidate's source is its
//! `--source` override, else the kernel's source-address selection
//! (`replay::source`) on the model, or, when the capture holds no routes,
//! on the model with the routes the kernel makes from its addresses
//! ([`Model::with_inferred_routes`], said in the notes). glibc:
//! `rfc3484_sort` rules 1-10 as glibc implements them, with `__check_pf`'s
//! facts (prefix lengths and flags are known only when the host has a
//! non-loopback IPv6 address) and `/etc/gai.conf`; Go and musl: RFC 6724
//! with its own tables. Semantics: glibc's nss/getaddrinfo.c
//! (`rfc3484_sort`) and sysdeps/unix/sysv/linux/check_pf.c, Go's
//! net/addrselect.go, musl's src/network/lookup_name.c.
//!
//! Modules by job: `candidates` gathers what the resolver knows about each
//! address, `gai_conf` parses gai.conf and holds glibc's policy tables,
//! `glibc_sort` is glibc's comparator, `rfc6724` is Go's and musl's, and
//! `mismatch` looks for assumptions that explain an observed order.

mod candidates;
mod gai_conf;
mod glibc_sort;
mod mismatch;
mod rfc6724;

use std::cmp::Ordering;
use std::net::{IpAddr, Ipv6Addr};

use serde::Serialize;

pub use candidates::CandidateFacts;
pub use gai_conf::{GaiConf, PolicyRow};
pub use glibc_sort::glibc_order;
pub use mismatch::{Span, explain_by_moment, explain_mismatch, spans};

use crate::model::Model;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Resolver {
    Glibc,
    Go,
    Musl,
}

/// IPv4 as IPv4-mapped IPv6, IPv6 unchanged.
fn to6(ip: IpAddr) -> Ipv6Addr {
    match ip {
        IpAddr::V4(v4) => v4.to_ipv6_mapped(),
        IpAddr::V6(v6) => v6,
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    pub resolver: Resolver,
    pub gai_conf: GaiConf,
    /// `--source DEST=SRC`.
    pub sources: Vec<(IpAddr, IpAddr)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            resolver: Resolver::Glibc,
            gai_conf: GaiConf::default(),
            sources: Vec::new(),
        }
    }
}

/// Two neighbours of the returned order and the rule that put `first`
/// before `second` (rule 0: the resolver did not sort).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    pub first: IpAddr,
    pub second: IpAddr,
    pub rule: u8,
    pub explanation: String,
    /// The two were in the other order in the name service's answer.
    pub swapped: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GaiResult {
    pub resolver: Resolver,
    pub input: Vec<IpAddr>,
    pub order: Vec<IpAddr>,
    pub steps: Vec<Step>,
    pub candidates: Vec<CandidateFacts>,
    /// Whether the host has a non-loopback IPv6 address (glibc's check_pf
    /// keeps its address list only then), whatever the resolver.
    pub host_has_ipv6: bool,
    pub notes: Vec<String>,
}

/// Predicts the order `getaddrinfo` returns for `input` (name-service order).
pub fn sort(model: &Model, input: &[IpAddr], o: &Options) -> GaiResult {
    let mut notes = Vec::new();
    let routes_inferred = !model.has_routes();
    let derived;
    let model = if routes_inferred {
        notes.push("the capture holds no routes: connected and local routes were inferred from the addresses; give --source DEST=SRC for destinations behind a gateway".into());
        derived = model.with_inferred_routes();
        &derived
    } else {
        model
    };
    let (cands, have_v6) = candidates::facts(model, input, o, routes_inferred, &mut notes);
    let tables = gai_conf::Tables::of(&o.gai_conf);
    let cmp = |a: &CandidateFacts, b: &CandidateFacts| match o.resolver {
        Resolver::Glibc => glibc_sort::glibc_cmp(a, b, &tables),
        Resolver::Go => rfc6724::go_cmp(a, b, false),
        Resolver::Musl => rfc6724::go_cmp(a, b, true),
    };
    let mut sorted: Vec<&CandidateFacts> = cands.iter().collect();
    match o.resolver {
        Resolver::Glibc => {
            if input.len() < 2 {
                notes.push("glibc sorts only when the name has at least 2 addresses".into());
            } else {
                sorted.sort_by(|a, b| cmp(a, b).0);
            }
            if !have_v6 {
                notes.push("no non-loopback IPv6 address: glibc's check_pf drops its address list, so prefix lengths and flags are unknown (rule 9 only sees exact matches)".into());
            }
        }
        Resolver::Go => {
            sorted.sort_by(|a, b| cmp(a, b).0);
            notes.push("Go's pure resolver (no netlink): sortByRFC6724 on hosts-file and DNS answers, rule 9 for IPv6 only. Go hands the lookup to glibc instead when built with cgo and nsswitch lists myhostname and the name is the host's own, or with GODEBUG=netdns=cgo: use --resolver glibc then".into());
        }
        Resolver::Musl => {
            if input.len() < 2 || input.iter().all(|a| a.is_ipv4()) {
                notes.push("musl does not sort when all answers are IPv4 (or there is only one)".into());
            } else {
                sorted.sort_by(|a, b| cmp(a, b).0);
            }
        }
    }
    let sorting_happened = !(o.resolver == Resolver::Glibc && input.len() < 2)
        && !(o.resolver == Resolver::Musl && (input.len() < 2 || input.iter().all(|a| a.is_ipv4())));
    let steps = sorted
        .iter()
        .zip(sorted.iter().skip(1))
        .map(|(&first, &second)| {
            let (_, rule, explanation) = if sorting_happened {
                cmp(first, second)
            } else {
                (Ordering::Equal, 0, "not sorted".into())
            };
            Step {
                first: first.address,
                second: second.address,
                rule,
                explanation: format!("{} before {}: {explanation}", first.address, second.address),
                swapped: first.position > second.position,
            }
        })
        .collect();
    GaiResult {
        resolver: o.resolver,
        input: input.to_vec(),
        order: sorted.iter().map(|c| c.address).collect(),
        steps,
        candidates: cands.clone(),
        host_has_ipv6: have_v6,
        notes,
    }
}

#[cfg(test)]
#[path = "gai_tests.rs"]
mod tests;
