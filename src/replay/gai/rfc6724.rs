//! The RFC 6724 ordering of Go's pure resolver (`sortByRFC6724`) and of
//! musl's `getaddrinfo`.
//!
//! Contract: [`go_cmp`] compares two candidates by the rules Go and musl
//! implement (1, 2, 5, 6, 8, 9, then name-service order; no 3, 4 or 7; Go
//! applies rule 9 only to two IPv6 addresses, and counts at most 64 bits),
//! returning the ordering and the deciding rule with what it compared. It
//! reads only the candidates' facts; the tables are RFC 6724's, fixed (no
//! gai.conf). Pure, no I/O.

use std::cmp::Ordering;
use std::net::IpAddr;

use super::facts::CandidateFacts;
use super::gai_conf::to6;
use super::gai_conf::{PolicyRow, lookup, row};
use super::rule::Rule;
use crate::model::kernel_order::ipv6_src_scope;
use crate::replay::source::common_prefix_len;

/// RFC 6724 §2.1's policy table (Go); musl drops ::/96, fec0::/10 and
/// 3ffe::/16. Returns (precedence, labels), longest prefix first.
fn rfc6724(musl: bool) -> (Vec<PolicyRow>, Vec<PolicyRow>) {
    let mut t = vec![
        ("::1", 128, 50, 0),
        ("::ffff:0:0", 96, 35, 4),
        ("::", 96, 1, 3),
        ("2001::", 32, 5, 5),
        ("2002::", 16, 30, 2),
        ("3ffe::", 16, 1, 12),
        ("fec0::", 10, 1, 11),
        ("fc00::", 7, 3, 13),
        ("::", 0, 40, 1),
    ];
    if musl {
        t.retain(|r| !matches!((r.0, r.1), ("::", 96) | ("fec0::", 10) | ("3ffe::", 16)));
    }
    // Longest prefix first, so first match = longest match.
    t.sort_by_key(|r| std::cmp::Reverse(r.1));
    (
        t.iter().map(|r| row(r.0, r.1, r.2)).collect(),
        t.iter().map(|r| row(r.0, r.1, r.3)).collect(),
    )
}

/// Go's `classifyScope` (and musl's `scopeof` when `musl`: IPv4 is always 14).
fn rfc6724_scope(ip: IpAddr, musl: bool) -> u32 {
    match ip {
        IpAddr::V4(_) if musl => 14,
        IpAddr::V4(v4) if v4.is_loopback() || v4.is_link_local() => 2,
        IpAddr::V4(_) => 14,
        IpAddr::V6(v6) => u32::from(ipv6_src_scope(&v6)),
    }
}

/// What musl records as a candidate's prefix length: the bits its source
/// shares with it, both as IPv6 (IPv4 mapped); 0 without a source.
pub(super) fn musl_prefix_len(dst: IpAddr, source: Option<IpAddr>) -> u8 {
    source.map_or(0, |s| common_prefix_len(IpAddr::V6(to6(s)), IpAddr::V6(to6(dst))) as u8)
}

/// Go's `sortByRFC6724` comparison for one pair, or musl's when `musl`
/// (Go's sort is stable: `Equal` means the pair keeps its order).
pub(super) fn go_cmp(a: &CandidateFacts, b: &CandidateFacts, musl: bool) -> (Ordering, Rule) {
    use Ordering::*;
    let (prec, labels) = rfc6724(musl);
    let no_source = |missing: &CandidateFacts| Rule::NoSource {
        missing: missing.address,
        other: None,
    };
    match (a.source, b.source) {
        (Some(_), None) => return (Less, no_source(b)),
        (None, Some(_)) => return (Greater, no_source(a)),
        // Go stops at rule 1 for two unusable destinations; musl's key
        // still ranks them by precedence and scope.
        (None, None) if !musl => return (Equal, Rule::NeitherHasSource),
        _ => {}
    }
    let scope = |ip| rfc6724_scope(ip, musl);
    if let (Some(sa), Some(sb)) = (a.source, b.source) {
        let (ma, mb) = (scope(a.address) == scope(sa), scope(b.address) == scope(sb));
        if ma != mb {
            return (if ma { Less } else { Greater }, Rule::MatchingScope(None));
        }
        let (la, lb) = (
            lookup(&labels, a.address) == lookup(&labels, sa),
            lookup(&labels, b.address) == lookup(&labels, sb),
        );
        if la != lb {
            return (if la { Less } else { Greater }, Rule::MatchingLabel(None));
        }
    }
    let (pa, pb) = (lookup(&prec, a.address), lookup(&prec, b.address));
    if pa != pb {
        return (if pa > pb { Less } else { Greater }, Rule::Precedence(pa, pb));
    }
    let (sa_, sb_) = (scope(a.address), scope(b.address));
    if sa_ != sb_ {
        return (if sa_ < sb_ { Less } else { Greater }, Rule::SmallerScope(sa_, sb_));
    }
    if let (Some(sa), Some(sb)) = (a.source, b.source) {
        let both_v6 = a.address.is_ipv6() && b.address.is_ipv6();
        if musl || both_v6 {
            let cpl = |d: IpAddr, s: IpAddr| {
                if musl {
                    common_prefix_len(IpAddr::V6(to6(d)), IpAddr::V6(to6(s)))
                } else {
                    common_prefix_len(d, s).min(64)
                }
            };
            let (ca, cb) = (cpl(a.address, sa), cpl(b.address, sb));
            if ca != cb {
                return (
                    if ca > cb { Less } else { Greater },
                    Rule::CommonBits {
                        first: ca,
                        second: cb,
                        sources: None,
                        prefix_unknown: false,
                    },
                );
            }
        }
    }
    (
        Equal,
        Rule::NameServiceOrder {
            first: a.position + 1,
            second: b.position + 1,
        },
    )
}
