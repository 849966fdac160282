//! [`sort`]: the order one resolver returns the candidates in, with the
//! rule behind each neighbouring pair.
//!
//! Contract: a pure function of the model, the candidates in name-service
//! order and the options; every neighbouring pair of the result has its
//! [`Step`], and what the sort could not see is a [`GaiNote`], never a
//! guess.

use std::net::IpAddr;

use serde::Serialize;

use super::candidates;
use super::facts::{CandidateFacts, GaiNote, Options, Resolver};
use super::rule::Rule;
use super::{gai_conf, glibc_sort, rfc6724};
use crate::model::Model;

/// Two neighbours of the returned order and the rule that put `first`
/// before `second` ([`Rule::NotSorted`]: the resolver did not sort). JSON
/// (`report::gai_reason`): `first`, `second`, `rule` (its number),
/// `explanation` (in words), `swapped`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The one returned first.
    pub first: IpAddr,
    /// The one returned after it.
    pub second: IpAddr,
    /// The rule that decided.
    pub rule: Rule,
    /// The two were in the other order in the name service's answer.
    pub swapped: bool,
}

/// The order one resolver returns, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GaiResult {
    /// The resolver replayed.
    pub resolver: Resolver,
    /// The candidates in name-service order.
    pub input: Vec<IpAddr>,
    /// The order returned.
    pub order: Vec<IpAddr>,
    /// Each neighbouring pair of `order`, with the rule that decided it.
    pub steps: Vec<Step>,
    /// What the resolver knew of each candidate, in `input` order.
    pub candidates: Vec<CandidateFacts>,
    /// Whether the host has a non-loopback IPv6 address (glibc's check_pf
    /// keeps its address list only then), whatever the resolver.
    pub host_has_ipv6: bool,
    /// What the sort found beside the order.
    pub notes: Vec<GaiNote>,
    /// What the order depends on that no message in the capture shows (the
    /// addresses of a family, the routes that give a family's sources):
    /// JSON `unshown`, in words, only when there is some.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unshown: Vec<crate::replay::unshown::Unshown>,
    /// Why there is no order: no message of the capture shows an address
    /// (JSON `error`, as `detect` says it; `order` and `steps` are then
    /// empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<crate::replay::failure::Failure>,
}

/// Predicts the order `getaddrinfo` returns for `input` (name-service order).
pub fn sort(model: &Model, input: &[IpAddr], o: &Options) -> GaiResult {
    let unshown = unshown(model, input, o);
    if !model.addresses_shown() {
        return GaiResult {
            resolver: o.resolver,
            input: input.to_vec(),
            order: Vec::new(),
            steps: Vec::new(),
            candidates: Vec::new(),
            host_has_ipv6: false,
            notes: Vec::new(),
            unshown,
            error: Some(crate::replay::failure::Failure::NoAddressesCaptured),
        };
    }
    let mut notes = Vec::new();
    let routes_inferred = !model.has_routes();
    let derived;
    let model = if routes_inferred {
        notes.push(GaiNote::RoutesInferred);
        derived = model.with_inferred_routes();
        &derived
    } else {
        model
    };
    let (cands, have_v6) = candidates::facts(model, input, o, routes_inferred, &mut notes);
    if let Some(crate::model::Assumption::HomeAddressRule {
        addresses,
        applied,
        build,
    }) = model
        .assumptions()
        .into_iter()
        .find(|a| matches!(a, crate::model::Assumption::HomeAddressRule { .. }))
    {
        // Applied: where a source is a home address. Left out: where an
        // IPv6 candidate's source was chosen without it.
        let homes: Vec<IpAddr> = addresses.iter().filter_map(|a| a.parse().ok()).collect();
        for home in homes {
            let rests = cands.iter().any(|c| match c.source {
                Some(s) if applied => s == home,
                Some(s) => s.is_ipv6() && s != home,
                None => false,
            });
            let note = GaiNote::HomeAddressRuleAssumed { home, applied, build };
            if rests && !notes.contains(&note) {
                notes.push(note);
            }
        }
    }
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
                notes.push(GaiNote::GlibcSingle);
            } else {
                sorted.sort_by(|a, b| cmp(a, b).0);
            }
            if !have_v6 {
                notes.push(GaiNote::GlibcNoIpv6);
            }
        }
        Resolver::Go => {
            sorted.sort_by(|a, b| cmp(a, b).0);
            notes.push(GaiNote::GoPure);
        }
        Resolver::Musl => {
            if input.len() < 2 || input.iter().all(|a| a.is_ipv4()) {
                notes.push(GaiNote::MuslUnsorted);
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
        .map(|(&first, &second)| Step {
            first: first.address,
            second: second.address,
            rule: if sorting_happened {
                cmp(first, second).1
            } else {
                Rule::NotSorted
            },
            swapped: first.position > second.position,
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
        unshown,
        error: None,
    }
}

/// What the sort reads that the capture does not show: each candidate
/// family's source (its routes of table main, through the default rules,
/// and its addresses), and for glibc both families' addresses (`__check_pf`
/// reads them all).
fn unshown(model: &Model, input: &[IpAddr], o: &Options) -> Vec<crate::replay::unshown::Unshown> {
    use crate::replay::family::Family;
    use crate::replay::unshown::{Reads, check};
    let mut families: Vec<Family> = Vec::new();
    for a in input {
        let f = match a {
            IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some() => Family::V4,
            a => Family::of(*a),
        };
        if !families.contains(&f) {
            families.push(f);
        }
    }
    families.sort();
    let mut addresses = families.clone();
    if o.resolver == Resolver::Glibc {
        addresses = vec![Family::V4, Family::V6];
    }
    let reads = Reads {
        addresses,
        main_routes: families,
        first_answer_ends: false,
        link_attributes: false,
        order_where_shared: false,
    };
    check(model, &reads, None)
}
