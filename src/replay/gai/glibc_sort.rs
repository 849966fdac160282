//! glibc's `rfc3484_sort` comparator and the facts it reads from
//! `__check_pf`'s address list.
//!
//! Contract: [`glibc_cmp`] compares two candidates by rules 1-10 as glibc
//! implements them (rule 9 with glibc's IPv4 subnet restriction and its
//! 32-bit-word IPv6 scoring), with the tables of [`Tables`], returning the
//! ordering and the deciding rule with what it compared; [`glibc_order`]
//! sorts prepared candidates with it. [`check_pf_entry`] and
//! [`source_entry_facts`] find a source's address entry and what glibc
//! takes from it (prefix length, flags, device). Pure, no I/O.

use std::cmp::Ordering;
use std::net::{IpAddr, Ipv4Addr};

use super::facts::CandidateFacts;
use super::gai_conf::to6;
use super::gai_conf::{GaiConf, PolicyRow, Tables, lookup};
use super::rule::{Rule, Scopes, SourceEntry};
use crate::model::kernel_order::ipv6_src_scope;
use crate::model::{AddrEntry, Model};
use crate::netlink::names::*;

/// The entry glibc's `__check_pf` list holds for source `src`: looked up by
/// IFA_ADDRESS (the peer on point-to-point links), 127/8 as 127.0.0.1.
pub(super) fn check_pf_entry<'a>(all: &[&'a AddrEntry], src: IpAddr) -> Option<&'a AddrEntry> {
    // IPv4 entries are kept IPv4-mapped: a mapped source (of a mapped
    // destination) finds its IPv4 entry, without the loopback special case.
    let key = match src {
        IpAddr::V4(v4) if v4.is_loopback() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(src, IpAddr::V4),
        s => s,
    };
    all.iter().find(|a| a.peer.unwrap_or(a.address) == key).copied()
}

/// What glibc takes from the source's entry `e`: its prefix length,
/// deprecated (or optimistic) and home-address flags, its device, and
/// whether that device is native (known to the model and not a tunnel of
/// ARPHRD type 768 ipip, 769 ip6tnl or 776 sit).
pub(super) fn source_entry_facts(f: &mut CandidateFacts, e: &AddrEntry, model: &Model) {
    f.prefix_len = e.prefix_len;
    f.deprecated = u32::from(e.header_flags) & (IFA_F_DEPRECATED | IFA_F_OPTIMISTIC) != 0;
    f.home = u32::from(e.header_flags) & IFA_F_HOMEADDRESS != 0;
    f.index = e.index;
    f.native = model
        .link(e.index)
        .is_some_and(|l| !l.placeholder && !matches!(l.dev_type, 768 | 769 | 776));
}

/// glibc's `get_scope`: IPv6 by address type (the kernel's
/// `ipv6_addr_src_scope` values), IPv4 and IPv4-mapped through the scopev4
/// table.
fn glibc_scope(ip: IpAddr, scopev4: &[PolicyRow]) -> u32 {
    match ip {
        IpAddr::V6(v6) if v6.to_ipv4_mapped().is_none() => u32::from(ipv6_src_scope(&v6)),
        other => lookup(scopev4, other),
    }
}

/// glibc's `rfc3484_sort` over prepared facts (what glibc's own unit tests
/// feed it): the candidates' positions in sorted order.
pub fn glibc_order(cands: &[CandidateFacts], conf: &GaiConf) -> Vec<usize> {
    let t = Tables::of(conf);
    let mut v: Vec<&CandidateFacts> = cands.iter().collect();
    v.sort_by(|a, b| glibc_cmp(a, b, &t).0);
    v.iter().map(|c| c.position).collect()
}

/// glibc's `rfc3484_sort` for one pair: the ordering and the deciding
/// rule.
pub(super) fn glibc_cmp(a: &CandidateFacts, b: &CandidateFacts, t: &Tables) -> (Ordering, Rule) {
    use Ordering::*;
    let (Some(sa), sb) = (a.source, b.source) else {
        if b.source.is_some() {
            return (
                Greater,
                Rule::NoSource {
                    missing: a.address,
                    other: Some(b.address),
                },
            );
        }
        return glibc_tail(a, b, t, false);
    };
    let Some(sb) = sb else {
        return (
            Less,
            Rule::NoSource {
                missing: b.address,
                other: None,
            },
        );
    };
    let scope = |ip| glibc_scope(ip, &t.scopev4);
    let (dsa, dsb) = (scope(a.address), scope(b.address));
    let (ma, mb) = (dsa == scope(sa), dsb == scope(sb));
    if ma != mb {
        let w = if ma { Less } else { Greater };
        return (
            w,
            Rule::MatchingScope(Some(Scopes {
                first: a.address,
                first_scope: dsa,
                first_source_scope: scope(sa),
                second: b.address,
                second_scope: dsb,
                second_source_scope: scope(sb),
            })),
        );
    }
    if a.deprecated != b.deprecated {
        return (if a.deprecated { Greater } else { Less }, Rule::AvoidDeprecated);
    }
    if a.home != b.home {
        return (if a.home { Less } else { Greater }, Rule::PreferHome);
    }
    let label = |ip| lookup(&t.labels, ip);
    let (la, lb) = (label(a.address) == label(sa), label(b.address) == label(sb));
    if la != lb {
        return (
            if la { Less } else { Greater },
            Rule::MatchingLabel(Some([label(a.address), label(sa), label(b.address), label(sb)])),
        );
    }
    glibc_tail(a, b, t, true)
}

/// Rules 6-10; with `usable` false (neither has a source) only 6, 8 and 10.
fn glibc_tail(a: &CandidateFacts, b: &CandidateFacts, t: &Tables, usable: bool) -> (Ordering, Rule) {
    use Ordering::*;
    let (pa, pb) = (lookup(&t.precedence, a.address), lookup(&t.precedence, b.address));
    if pa != pb {
        return (if pa > pb { Less } else { Greater }, Rule::Precedence(pa, pb));
    }
    if usable && a.index != b.index && a.native != b.native {
        return (if a.native { Less } else { Greater }, Rule::NativeTransport);
    }
    let (dsa, dsb) = (glibc_scope(a.address, &t.scopev4), glibc_scope(b.address, &t.scopev4));
    if dsa != dsb {
        return (if dsa < dsb { Less } else { Greater }, Rule::SmallerScope(dsa, dsb));
    }
    if usable
        && a.address.is_ipv4() == b.address.is_ipv4()
        && let (Some(sa), Some(sb)) = (a.source, b.source)
    {
        let (ba, bb, prefix_unknown) = rule9_bits(a, b);
        if ba != bb {
            let entry = |f: &CandidateFacts, ip| SourceEntry {
                ip,
                prefix_len: f.address.is_ipv4().then_some(f.prefix_len),
            };
            return (
                if ba > bb { Less } else { Greater },
                Rule::CommonBits {
                    first: ba,
                    second: bb,
                    sources: Some([entry(a, sa), entry(b, sb)]),
                    prefix_unknown,
                },
            );
        }
    }
    (
        if a.position < b.position { Less } else { Greater },
        Rule::NameServiceOrder {
            first: a.position + 1,
            second: b.position + 1,
        },
    )
}

fn v4u(ip: IpAddr) -> u32 {
    match ip {
        IpAddr::V4(v4) => u32::from(v4),
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(0, u32::from),
    }
}

/// glibc's rule 9 scores of `a` and `b` against their sources, and whether
/// an IPv4 prefix length is unknown. IPv4: the common leading bits
/// when the destination is in the source's subnet (prefix length 0 counts
/// as /32), else 0. IPv6: both
/// scored at the first 32-bit word where either pair differs.
fn rule9_bits(a: &CandidateFacts, b: &CandidateFacts) -> (u32, u32, bool) {
    let (Some(sa), Some(sb)) = (a.source, b.source) else {
        return (0, 0, false);
    };
    if a.address.is_ipv4() {
        let bits = |dst: IpAddr, src: IpAddr, plen: u8| {
            // prefixlen 0: the C shift by 32 is undefined; x86 gives a /32 mask.
            let mask = if plen == 0 {
                u32::MAX
            } else {
                u32::MAX << (32 - u32::from(plen.min(32)))
            };
            let (d, s) = (v4u(dst), v4u(src));
            if d & mask == s & mask {
                (d ^ s).leading_zeros()
            } else {
                0
            }
        };
        return (
            bits(a.address, sa, a.prefix_len),
            bits(b.address, sb, b.prefix_len),
            a.prefix_len == 0 || b.prefix_len == 0,
        );
    }
    // The four big-endian 32-bit words of the address, first word first.
    let words = |ip: IpAddr| {
        let x = u128::from(to6(ip));
        [96, 64, 32, 0].map(|shift| (x >> shift) as u32)
    };
    let pair_a = words(a.address).into_iter().zip(words(sa));
    let pair_b = words(b.address).into_iter().zip(words(sb));
    // The first 32-bit word where either pair differs decides; both are
    // scored at that word (reported here as whole-address prefix lengths).
    for (i, ((da, xa), (db, xb))) in pair_a.zip(pair_b).enumerate() {
        if da != xa || db != xb {
            let off = 32 * i as u32;
            return (off + (da ^ xa).leading_zeros(), off + (db ^ xb).leading_zeros(), false);
        }
    }
    (0, 0, false)
}
