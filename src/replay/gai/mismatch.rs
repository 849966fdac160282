//! Why a program may have seen another order than the one predicted: the
//! assumptions whose change reproduces the observed order.
//!
//! Contract: [`explain_mismatch`] is a pure function of the model, the
//! candidates, the options and the observed order; it re-runs [`sort`]
//! on variants of the options and of the model (never changing the model
//! it is given) and returns one sentence per explanation, never none.
//! [`explain_by_moment`] looks for the observed order among the orders
//! the capture went through ([`Span`]s, from a watch of the whole capture).

use std::net::{IpAddr, Ipv6Addr};

use super::facts::{Options, Resolver};
use super::gai_conf::GaiConf;
use super::sort::sort;
use crate::model::{AddrEntry, Model, Origin};
use crate::netlink::names::*;

/// What could explain `observed`, one sentence each. An observed set of
/// addresses other than `input` is the only reason given when it occurs.
/// Otherwise: no sorting when `observed` is `input`; each other resolver,
/// a gai.conf preferring IPv4, and the opposite IPv6 presence, when
/// re-running with it gives `observed`; unknown or inferred sources; and
/// the name service's own order when nothing else applies. It does not
/// check that `observed` differs from the prediction.
pub fn explain_mismatch(model: &Model, input: &[IpAddr], o: &Options, observed: &[IpAddr]) -> Vec<String> {
    let mut why = Vec::new();
    let mut sorted_in = input.to_vec();
    sorted_in.sort();
    let mut sorted_obs = observed.to_vec();
    sorted_obs.sort();
    if sorted_in != sorted_obs {
        why.push("NSS order / answer set: the program got other addresses than the candidates given".into());
        return why;
    }
    let reproduces = |m: &Model, opts: &Options| sort(m, input, opts).order == observed;
    if observed == input {
        why.push(
            "no sorting: the resolver kept the name-service order (pure-Go resolver on IPv4, musl, or a single answer)"
                .into(),
        );
    }
    for r in [Resolver::Glibc, Resolver::Go, Resolver::Musl] {
        if r != o.resolver
            && reproduces(
                model,
                &Options {
                    resolver: r,
                    ..o.clone()
                },
            )
        {
            why.push(format!("resolver: {r:?} would return exactly this order"));
        }
    }
    let prefer_v4 = Options {
        gai_conf: GaiConf::parse("precedence ::ffff:0:0/96 100"),
        ..o.clone()
    };
    if reproduces(model, &prefer_v4) {
        why.push("gai.conf: `precedence ::ffff:0:0/96 100` (prefer IPv4) reproduces it".into());
    }
    // IPv6 presence flips what glibc knows about prefix lengths.
    let facts_now = sort(model, input, o);
    let toggled = toggle_ipv6(model, facts_now.host_has_ipv6);
    if reproduces(&toggled, o) {
        why.push(format!(
            "IPv6 presence: with{} a non-loopback IPv6 address the order is the observed one",
            if facts_now.host_has_ipv6 { "out" } else { "" }
        ));
    }
    if facts_now.candidates.iter().any(|c| c.source.is_none()) || !model.has_routes() {
        why.push("source: some source addresses were unknown or inferred; pass --source DEST=SRC".into());
    }
    if why.is_empty() {
        why.push("NSS order: the name service may have returned the candidates in another order than given".into());
    }
    why
}

/// The same links, addresses and routes with the IPv6 presence glibc's
/// check_pf sees flipped: without the non-loopback IPv6 addresses (`has`),
/// or with fe80::ffff/64 added on the first device that is not a
/// placeholder (none added when there is no such device).
fn toggle_ipv6(model: &Model, has: bool) -> Model {
    let links = model.links().to_vec();
    let mut addrs: Vec<AddrEntry> = model.addresses(None).into_iter().cloned().collect();
    if has {
        addrs.retain(|a| a.family != AF_INET6 || a.address.is_loopback());
    } else if let Some(l) = links.iter().find(|l| !l.placeholder) {
        addrs.push(AddrEntry::link_local(
            l.index,
            Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0xffff),
            Origin::Inferred(0),
        ));
    }
    let routes = model.routes().into_iter().cloned().collect();
    Model::from_tables(links, addrs, routes)
}

/// A stretch of the capture during which the predicted order stayed the
/// same: from the packet that made it (`from`) to the last packet before
/// the next change, or the capture's last (`to`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Span {
    pub from: u64,
    pub to: u64,
    /// The packet whose change ended it (none: it lasted to the end).
    pub changed_by: Option<u64>,
    pub order: Vec<IpAddr>,
}

/// The spans of a capture from the packets where the order changed (in
/// capture order, one per packet) and the capture's last packet.
pub fn spans<'a>(changes: impl IntoIterator<Item = (u64, &'a [IpAddr])>, last: u64) -> Vec<Span> {
    let changes: Vec<(u64, &[IpAddr])> = changes.into_iter().collect();
    let next = changes.iter().skip(1).map(|(p, _)| Some(*p)).chain([None]);
    changes
        .iter()
        .zip(next)
        .map(|(&(from, order), changed_by)| Span {
            from,
            to: changed_by.map_or(last.max(from), |p| p.saturating_sub(1).max(from)),
            changed_by,
            order: order.to_vec(),
        })
        .collect()
}

/// The moment of the capture whose order is `observed`, as one
/// explanation: the stretch that holds `at` (the moment evaluated) when it
/// gives it (the capture showed it there, before the rules applied at the
/// moment evaluated: unfinished dumps merged, the kernel's timers run on to
/// it); else the latest
/// stretch ending before `at`, said with its last packet (the state
/// nearest to `at`, just before the change that ended it); else the
/// earliest starting after `at`, said with its first packet. None when no
/// moment gives it.
pub fn explain_by_moment(spans: &[Span], at: u64, observed: &[IpAddr]) -> Option<String> {
    let same = || spans.iter().filter(|s| s.order == observed);
    let held = |s: &Span| match s.changed_by {
        Some(p) => format!("it held from packet {} until packet {p} changed it", s.from),
        None => format!("it held from packet {} to the end of the capture", s.from),
    };
    if let Some(s) = same().find(|s| s.from <= at && at <= s.to) {
        return Some(format!(
            "moment: the capture showed exactly this order at packet {at} ({}), before the rules nlorder applies \
             at the moment evaluated (unfinished dumps merged, the kernel's timers run on to it)",
            held(s)
        ));
    }
    if let Some(s) = same().rfind(|s| s.to < at) {
        return Some(format!(
            "moment: an earlier moment of the capture gives exactly this order (packet {}): {}; --at {} replays it",
            s.to,
            held(s),
            s.to
        ));
    }
    same().find(|s| s.from > at).map(|s| {
        format!(
            "moment: a later moment of the capture gives exactly this order (packet {}): {}; --at {} replays it",
            s.from,
            held(s),
            s.from
        )
    })
}
