//! [`sort`]: the order one resolver returns the candidates in, with the
//! rule behind each neighbouring pair.

use std::cmp::Ordering;
use std::net::IpAddr;

use serde::Serialize;

use super::candidates;
use super::facts::{CandidateFacts, Options, Resolver};
use super::{gai_conf, glibc_sort, rfc6724};
use crate::model::Model;

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
