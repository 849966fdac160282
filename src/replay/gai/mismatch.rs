//! Why a program may have seen another order than the one predicted: the
//! assumptions whose change reproduces the observed order.
//!
//! Contract: [`explain_mismatch`] is a pure function of the model, the
//! candidates, the options and the observed order; it re-runs [`sort`]
//! on variants of the options and of the model (never changing the model
//! it is given) and returns one [`Explanation`] per assumption, never none
//! (`report::gai_reason` words them). [`explain_by_moment`] looks for the
//! observed order among the orders the capture went through ([`Span`]s,
//! from a watch of the whole capture).

use std::net::{IpAddr, Ipv6Addr};

use super::facts::{Options, Resolver};
use super::gai_conf::GaiConf;
use super::sort::sort;
use crate::model::{AddrEntry, Model, Origin};
use crate::netlink::values::AddressFamily;

/// An assumption under which the program would have got the order it
/// observed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Explanation {
    /// The program got other addresses than the candidates given.
    AnswerSet,
    /// The resolver kept the name-service order.
    NoSorting,
    /// This other resolver returns exactly this order.
    Resolver(Resolver),
    /// A gai.conf preferring IPv4 (`precedence ::ffff:0:0/96 100`).
    PreferIpv4,
    /// The opposite IPv6 presence (`host_has_ipv6`: the host's now).
    Ipv6Presence {
        /// Whether the host has a non-loopback IPv6 address now.
        host_has_ipv6: bool,
    },
    /// Some sources were unknown or inferred.
    Sources,
    /// The name service returned the candidates in another order.
    NssOrder,
    /// The hosts file read with this `multi` (host.conf) gives it.
    HostConfMulti {
        /// `multi on`.
        multi: bool,
    },
    /// The hosts file read with (or without) AI_ADDRCONFIG gives it.
    AddrConfig {
        /// With AI_ADDRCONFIG.
        addrconfig: bool,
    },
    /// A moment of the capture gives exactly this order: the stretch
    /// (from `from` to `to`, ended by `changed_by`) and where it lies
    /// against the moment evaluated.
    Moment {
        /// Where the stretch lies against the moment evaluated.
        found: Found,
        /// The packet that made the order.
        from: u64,
        /// The last packet before the next change (or the capture's last).
        to: u64,
        /// The packet whose change ended it (none: it lasted to the end).
        changed_by: Option<u64>,
    },
}

/// Where the stretch that gives the observed order lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// It holds the moment evaluated (packet `at`): the difference is the
    /// rules applied at that moment.
    At(u64),
    /// The latest before the moment evaluated.
    Before,
    /// The earliest after it.
    After,
}

/// What could explain `observed`, one explanation each. An observed set of
/// addresses other than `input` is the only reason given when it occurs.
/// Otherwise: no sorting when `observed` is `input`; each other resolver,
/// a gai.conf preferring IPv4, and the opposite IPv6 presence, when
/// re-running with it gives `observed`; unknown or inferred sources; and
/// the name service's own order when nothing else applies. It does not
/// check that `observed` differs from the prediction.
pub fn explain_mismatch(model: &Model, input: &[IpAddr], o: &Options, observed: &[IpAddr]) -> Vec<Explanation> {
    let mut why = Vec::new();
    let mut sorted_in = input.to_vec();
    sorted_in.sort();
    let mut sorted_obs = observed.to_vec();
    sorted_obs.sort();
    if sorted_in != sorted_obs {
        why.push(Explanation::AnswerSet);
        return why;
    }
    let reproduces = |m: &Model, opts: &Options| sort(m, input, opts).order == observed;
    if observed == input {
        why.push(Explanation::NoSorting);
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
            why.push(Explanation::Resolver(r));
        }
    }
    let prefer_v4 = Options {
        gai_conf: GaiConf::parse("precedence ::ffff:0:0/96 100"),
        ..o.clone()
    };
    if reproduces(model, &prefer_v4) {
        why.push(Explanation::PreferIpv4);
    }
    // IPv6 presence flips what glibc knows about prefix lengths.
    let facts_now = sort(model, input, o);
    let toggled = toggle_ipv6(model, facts_now.host_has_ipv6);
    if reproduces(&toggled, o) {
        why.push(Explanation::Ipv6Presence {
            host_has_ipv6: facts_now.host_has_ipv6,
        });
    }
    if facts_now.candidates.iter().any(|c| c.source.is_none()) || !model.has_routes() {
        why.push(Explanation::Sources);
    }
    if why.is_empty() {
        why.push(Explanation::NssOrder);
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
        addrs.retain(|a| a.family != AddressFamily::Inet6 || a.address.is_loopback());
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
    /// The packet that made the order.
    pub from: u64,
    /// The last packet before the next change, or the capture's last.
    pub to: u64,
    /// The packet whose change ended it (none: it lasted to the end).
    pub changed_by: Option<u64>,
    /// The order predicted throughout.
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
pub fn explain_by_moment(spans: &[Span], at: u64, observed: &[IpAddr]) -> Option<Explanation> {
    let same = || spans.iter().filter(|s| s.order == observed);
    let moment = |found, s: &Span| Explanation::Moment {
        found,
        from: s.from,
        to: s.to,
        changed_by: s.changed_by,
    };
    if let Some(s) = same().find(|s| s.from <= at && at <= s.to) {
        return Some(moment(Found::At(at), s));
    }
    if let Some(s) = same().rfind(|s| s.to < at) {
        return Some(moment(Found::Before, s));
    }
    same().find(|s| s.from > at).map(|s| moment(Found::After, s))
}
