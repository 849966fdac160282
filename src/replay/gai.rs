//! The order `getaddrinfo` returns, for glibc, Go's pure resolver and musl,
//! from the kernel state in the capture, with the rule that decided every
//! adjacent pair.
//!
//! Contract: [`sort`] is a pure function of the model, the candidates in
//! name-service order and the options. Sources come from the kernel's
//! source-address selection (`replay::source`), or `--source` overrides,
//! or connected routes inferred from the addresses when the capture holds
//! no routes (said in the notes). glibc: `rfc3484_sort` rules 1-10 as glibc
//! implements them, with `__check_pf`'s facts (prefix lengths and flags are
//! known only when the host has a non-loopback IPv6 address) and
//! `/etc/gai.conf`. Semantics: `shared/specs/getaddrinfo-sorting.md`.

use std::cmp::Ordering;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use serde::Serialize;

use super::source::{self, common_prefix_len, in_prefix};
use crate::model::kernel_order::ipv6_src_scope;
use crate::model::{AddrEntry, Model, Origin, RouteEntry};
use crate::netlink::names::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Resolver {
    Glibc,
    Go,
    Musl,
}

/// One policy-table row: prefix (IPv6, IPv4 mapped), length, value.
pub type PolicyRow = (Ipv6Addr, u8, u32);

/// `/etc/gai.conf` as glibc reads it.
#[derive(Debug, Clone, Default)]
pub struct GaiConf {
    pub labels: Option<Vec<PolicyRow>>,
    pub precedence: Option<Vec<PolicyRow>>,
    pub scopev4: Option<Vec<PolicyRow>>,
    pub reload: bool,
    /// Lines glibc would skip.
    pub ignored: Vec<String>,
}

fn mapped(v4: Ipv4Addr) -> Ipv6Addr {
    v4.to_ipv6_mapped()
}

fn to6(ip: IpAddr) -> Ipv6Addr {
    match ip {
        IpAddr::V4(v4) => mapped(v4),
        IpAddr::V6(v6) => v6,
    }
}

fn row(p: &str, len: u8, v: u32) -> PolicyRow {
    (p.parse().unwrap_or(Ipv6Addr::UNSPECIFIED), len, v)
}

impl GaiConf {
    /// Parses gai.conf text (`label`, `precedence`, `scopev4`, `reload`).
    pub fn parse(text: &str) -> GaiConf {
        let mut c = GaiConf::default();
        let (mut labels, mut prec, mut scopes) = (Vec::new(), Vec::new(), Vec::new());
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let mut t = line.split_whitespace();
            let (Some(cmd), Some(a)) = (t.next(), t.next()) else {
                continue;
            };
            let b = t.next();
            let bad = |c: &mut GaiConf| c.ignored.push(format!("line {}: {}", n + 1, raw.trim()));
            match cmd {
                "reload" => c.reload = matches!(a, "yes" | "true"),
                "label" | "precedence" => {
                    let (addr, bits) = a.split_once('/').map_or((a, "128"), |(x, y)| (x, y));
                    let (Ok(ip), Ok(bits), Some(Ok(v))) = (
                        addr.parse::<Ipv6Addr>(),
                        bits.parse::<u8>(),
                        b.map(|b| b.parse::<u32>()),
                    ) else {
                        bad(&mut c);
                        continue;
                    };
                    if bits > 128 || v > i32::MAX as u32 {
                        bad(&mut c);
                        continue;
                    }
                    if cmd == "label" {
                        labels.push((ip, bits, v))
                    } else {
                        prec.push((ip, bits, v))
                    }
                }
                "scopev4" => {
                    let (addr, bits) = a.split_once('/').map_or((a, None), |(x, y)| (x, Some(y)));
                    let parsed = if let Ok(v6) = addr.parse::<Ipv6Addr>() {
                        let bits = bits.map_or(Ok(128), |b| b.parse::<u8>());
                        bits.ok()
                            .filter(|b| (96..=128).contains(b) && v6.to_ipv4_mapped().is_some())
                            .map(|b| (v6, b))
                    } else if let Ok(v4) = addr.parse::<Ipv4Addr>() {
                        let bits = bits.map_or(Ok(32), |b| b.parse::<u8>());
                        bits.ok().filter(|b| *b <= 32).map(|b| (mapped(v4), b + 96))
                    } else {
                        None
                    };
                    match (parsed, b.map(|b| b.parse::<u32>())) {
                        (Some((ip, bits)), Some(Ok(v))) => scopes.push((ip, bits, v)),
                        _ => bad(&mut c),
                    }
                }
                _ => bad(&mut c),
            }
        }
        // Any entry replaces the whole default table; catch-alls are appended.
        let finish = |mut v: Vec<PolicyRow>, catch: PolicyRow| {
            if !v.iter().any(|r| r.1 == catch.1 && r.0 == catch.0) {
                v.push(catch);
            }
            v.sort_by_key(|r| std::cmp::Reverse(r.1));
            v
        };
        if !labels.is_empty() {
            c.labels = Some(finish(labels, row("::", 0, 1)));
        }
        if !prec.is_empty() {
            c.precedence = Some(finish(prec, row("::", 0, 40)));
        }
        if !scopes.is_empty() {
            c.scopev4 = Some(finish(scopes, row("::ffff:0.0.0.0", 96, 14)));
        }
        c
    }
}

fn glibc_labels() -> Vec<PolicyRow> {
    vec![
        row("::1", 128, 0),
        row("2002::", 16, 2),
        row("::", 96, 3),
        row("::ffff:0:0", 96, 4),
        row("fec0::", 10, 5),
        row("fc00::", 7, 6),
        row("2001::", 32, 7),
        row("::", 0, 1),
    ]
}

fn glibc_precedence() -> Vec<PolicyRow> {
    vec![
        row("::1", 128, 50),
        row("2002::", 16, 30),
        row("::", 96, 20),
        row("::ffff:0:0", 96, 10),
        row("::", 0, 40),
    ]
}

fn glibc_scopev4() -> Vec<PolicyRow> {
    vec![
        row("::ffff:169.254.0.0", 112, 2),
        row("::ffff:127.0.0.0", 104, 2),
        row("::ffff:0.0.0.0", 96, 14),
    ]
}

/// RFC 6724 §2.1 (Go); musl drops ::/96, fec0::/10 and 3ffe::/16.
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

fn lookup(table: &[PolicyRow], ip: IpAddr) -> u32 {
    let a = IpAddr::V6(to6(ip));
    table
        .iter()
        .find(|(p, len, _)| in_prefix(a, IpAddr::V6(*p), *len))
        .map_or(0, |r| r.2)
}

/// glibc's `get_scope`: IPv6 by address type (the kernel's
/// `ipv6_addr_src_scope` values), IPv4 through the scopev4 table.
fn glibc_scope(ip: IpAddr, scopev4: &[PolicyRow]) -> u32 {
    match ip {
        IpAddr::V6(v6) if v6.to_ipv4_mapped().is_none() => u32::from(ipv6_src_scope(&v6)),
        other => lookup(scopev4, other),
    }
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

/// What the resolver knows about one candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CandidateFacts {
    pub address: IpAddr,
    /// Position in the name-service order, 0-based.
    pub position: usize,
    pub source: Option<IpAddr>,
    /// How the source was found.
    pub source_why: String,
    /// glibc: prefix length of the source's address entry (0: unknown).
    pub prefix_len: u8,
    pub deprecated: bool,
    pub home: bool,
    /// glibc: ifindex of the source's entry (u32::MAX: unknown).
    pub index: u32,
    pub native: bool,
}

/// The rule that put `first` before `second`.
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
    /// Whether glibc's check_pf kept its address list (a non-loopback IPv6 address exists).
    pub host_has_ipv6: bool,
    pub notes: Vec<String>,
}

/// The model with connected and local routes derived from its addresses,
/// for captures that hold no route dump.
pub fn with_inferred_routes(model: &Model) -> Model {
    let mut routes = Vec::new();
    let mut seq = 0i64;
    let mut push = |r: RouteEntry| {
        seq += 1;
        routes.push(RouteEntry { seq, ..r });
    };
    let base =
        |family: u8, table: u32, dst: IpAddr, dst_len: u8, oif: u32, prefsrc: Option<IpAddr>, kind: u8| RouteEntry {
            family,
            table,
            dst: Some(dst),
            dst_len,
            tos: 0,
            gateway: None,
            oif: Some(oif),
            prefsrc,
            priority: None,
            protocol: 2,
            scope: if kind == RTN_LOCAL {
                RT_SCOPE_HOST
            } else {
                RT_SCOPE_LINK
            },
            kind,
            flags: 0,
            multipath: false,
            origin: Origin::Inferred(0),
            seq: 0,
        };
    let mut addrs: Vec<AddrEntry> = Vec::new();
    for l in model.links() {
        for fam in [AF_INET, AF_INET6] {
            let list = model.device_addresses(l.index, fam);
            for a in list {
                addrs.push(a.clone());
                if fam == AF_INET {
                    let primary = list
                        .iter()
                        .find(|p| !p.is_secondary() && crate::model::kernel_order::same_ipv4_subnet(p, a))
                        .map_or(a.address, |p| p.address);
                    push(base(
                        fam,
                        RT_TABLE_LOCAL,
                        a.address,
                        32,
                        l.index,
                        Some(primary),
                        RTN_LOCAL,
                    ));
                    if !a.is_secondary()
                        && let Ok(net) = ipnet::IpNet::new(a.address, a.prefix_len)
                    {
                        push(base(
                            fam,
                            RT_TABLE_MAIN,
                            net.trunc().addr(),
                            a.prefix_len,
                            l.index,
                            Some(a.address),
                            RTN_UNICAST,
                        ));
                    }
                } else {
                    push(base(fam, RT_TABLE_LOCAL, a.address, 128, l.index, None, RTN_LOCAL));
                    if let Ok(net) = ipnet::IpNet::new(a.address, a.prefix_len) {
                        push(base(
                            fam,
                            RT_TABLE_MAIN,
                            net.trunc().addr(),
                            a.prefix_len,
                            l.index,
                            None,
                            RTN_UNICAST,
                        ));
                    }
                }
            }
        }
    }
    Model::from_tables(model.links().to_vec(), addrs, routes)
}

fn facts(
    model: &Model,
    input: &[IpAddr],
    o: &Options,
    routes_inferred: bool,
    notes: &mut Vec<String>,
) -> (Vec<CandidateFacts>, bool) {
    // __check_pf: the list is kept only when a non-loopback IPv6 address exists.
    let all = model.addresses(None);
    let have_v6 = all.iter().any(|a| a.family == AF_INET6 && !a.address.is_loopback());
    let mut out = Vec::new();
    for (i, &dst) in input.iter().enumerate() {
        let (source, why) = match o.sources.iter().find(|(d, _)| *d == dst) {
            Some((_, s)) => (Some(*s), "given with --source".to_string()),
            None => match source::select_source(model, dst) {
                Ok(c) => (
                    Some(c.source),
                    format!(
                        "{} (route `{}`{})",
                        c.why,
                        model.route_text(&c.route),
                        if routes_inferred {
                            ", inferred from the addresses"
                        } else {
                            ""
                        }
                    ),
                ),
                Err(e) => (None, format!("no source: {e}")),
            },
        };
        let mut f = CandidateFacts {
            address: dst,
            position: i,
            source,
            source_why: why,
            prefix_len: 0,
            deprecated: false,
            home: false,
            index: u32::MAX,
            native: false,
        };
        if o.resolver == Resolver::Glibc && have_v6 {
            if let Some(src) = source {
                // glibc looks the source up by IFA_ADDRESS (the peer on
                // point-to-point links), 127/8 as 127.0.0.1.
                let key = match src {
                    IpAddr::V4(v4) if v4.is_loopback() => IpAddr::V4(Ipv4Addr::LOCALHOST),
                    s => s,
                };
                match all.iter().find(|a| a.peer.unwrap_or(a.address) == key) {
                    Some(e) => {
                        f.prefix_len = e.prefix_len;
                        f.deprecated = u32::from(e.header_flags) & (IFA_F_DEPRECATED | IFA_F_OPTIMISTIC) != 0;
                        f.home = u32::from(e.header_flags) & IFA_F_HOMEADDRESS != 0;
                        f.index = e.index;
                        f.native = model.link(e.index).is_some_and(|l| !l.placeholder && !matches!(l.dev_type, 768 | 769 | 776));
                    }
                    None => notes.push(format!(
                        "source {src} of {dst} is not in the address dump glibc reads (point-to-point peer?): prefix length 0"
                    )),
                }
            }
        } else if o.resolver == Resolver::Musl {
            f.prefix_len = source.map_or(0, |s| common_prefix_len(IpAddr::V6(to6(s)), IpAddr::V6(to6(dst))) as u8);
        }
        out.push(f);
    }
    (out, have_v6)
}

struct Tables {
    labels: Vec<PolicyRow>,
    precedence: Vec<PolicyRow>,
    scopev4: Vec<PolicyRow>,
}

impl Tables {
    fn of(conf: &GaiConf) -> Tables {
        Tables {
            labels: conf.labels.clone().unwrap_or_else(glibc_labels),
            precedence: conf.precedence.clone().unwrap_or_else(glibc_precedence),
            scopev4: conf.scopev4.clone().unwrap_or_else(glibc_scopev4),
        }
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

/// glibc's `rfc3484_sort` for one pair: the ordering and the deciding rule.
fn glibc_cmp(a: &CandidateFacts, b: &CandidateFacts, t: &Tables) -> (Ordering, u8, String) {
    use Ordering::*;
    let (Some(sa), sb) = (a.source, b.source) else {
        if b.source.is_some() {
            return (
                Greater,
                1,
                format!("rule 1: {} has no source address, {} has", a.address, b.address),
            );
        }
        return glibc_tail(a, b, t, false);
    };
    let Some(sb) = sb else {
        return (Less, 1, format!("rule 1: {} has no source address", b.address));
    };
    let scope = |ip| glibc_scope(ip, &t.scopev4);
    let (dsa, dsb) = (scope(a.address), scope(b.address));
    let (ma, mb) = (dsa == scope(sa), dsb == scope(sb));
    if ma != mb {
        let w = if ma { Less } else { Greater };
        return (
            w,
            2,
            format!(
                "rule 2 (matching scope): {} scope {} vs source {}; {} scope {} vs source {}",
                a.address,
                dsa,
                scope(sa),
                b.address,
                dsb,
                scope(sb)
            ),
        );
    }
    if a.deprecated != b.deprecated {
        return (
            if a.deprecated { Greater } else { Less },
            3,
            "rule 3 (avoid deprecated source)".into(),
        );
    }
    if a.home != b.home {
        return (
            if a.home { Less } else { Greater },
            4,
            "rule 4 (prefer home address)".into(),
        );
    }
    let label = |ip| lookup(&t.labels, ip);
    let (la, lb) = (label(a.address) == label(sa), label(b.address) == label(sb));
    if la != lb {
        return (
            if la { Less } else { Greater },
            5,
            format!(
                "rule 5 (matching label): labels {}/{} vs {}/{}",
                label(a.address),
                label(sa),
                label(b.address),
                label(sb)
            ),
        );
    }
    glibc_tail(a, b, t, true)
}

/// Rules 6-10 (6, 8 and 10 also apply to unusable destinations).
fn glibc_tail(a: &CandidateFacts, b: &CandidateFacts, t: &Tables, usable: bool) -> (Ordering, u8, String) {
    use Ordering::*;
    let (pa, pb) = (lookup(&t.precedence, a.address), lookup(&t.precedence, b.address));
    if pa != pb {
        return (
            if pa > pb { Less } else { Greater },
            6,
            format!("rule 6 (precedence): {pa} vs {pb}"),
        );
    }
    if usable && a.index != b.index && a.native != b.native {
        return (
            if a.native { Less } else { Greater },
            7,
            "rule 7 (prefer native transport)".into(),
        );
    }
    let (dsa, dsb) = (glibc_scope(a.address, &t.scopev4), glibc_scope(b.address, &t.scopev4));
    if dsa != dsb {
        return (
            if dsa < dsb { Less } else { Greater },
            8,
            format!("rule 8 (smaller scope): {dsa} vs {dsb}"),
        );
    }
    if usable && a.address.is_ipv4() == b.address.is_ipv4() {
        let (ba, bb, how) = rule9_bits(a, b);
        if ba != bb {
            let src = |f: &CandidateFacts| {
                f.source
                    .map(|s| {
                        if f.address.is_ipv4() {
                            format!("{s}/{}", f.prefix_len)
                        } else {
                            s.to_string()
                        }
                    })
                    .unwrap_or_default()
            };
            return (
                if ba > bb { Less } else { Greater },
                9,
                format!("rule 9, {ba} vs {bb} common bits (source {} / {}){how}", src(a), src(b)),
            );
        }
    }
    (
        if a.position < b.position { Less } else { Greater },
        10,
        format!(
            "rule 10: name-service order kept (positions {} and {})",
            a.position + 1,
            b.position + 1
        ),
    )
}

fn v4u(ip: IpAddr) -> u32 {
    match ip {
        IpAddr::V4(v4) => u32::from(v4),
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(0, u32::from),
    }
}

/// glibc's rule 9 scores.
fn rule9_bits(a: &CandidateFacts, b: &CandidateFacts) -> (u32, u32, String) {
    let (Some(sa), Some(sb)) = (a.source, b.source) else {
        return (0, 0, String::new());
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
        let note = if a.prefix_len == 0 || b.prefix_len == 0 {
            "; prefix length unknown to glibc (no IPv6 on the host), so only an exact match counts (x86 behaviour of an undefined shift)".to_string()
        } else {
            String::new()
        };
        return (
            bits(a.address, sa, a.prefix_len),
            bits(b.address, sb, b.prefix_len),
            note,
        );
    }
    let words = |ip: IpAddr| {
        let o = to6(ip).octets();
        [0, 1, 2, 3].map(|i| u32::from_be_bytes([o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]]))
    };
    let (da, xa, db, xb) = (words(a.address), words(sa), words(b.address), words(sb));
    // The first 32-bit word where either pair differs decides; both are
    // scored at that word (reported here as whole-address prefix lengths).
    for i in 0..4 {
        if da[i] != xa[i] || db[i] != xb[i] {
            let off = 32 * i as u32;
            return (
                off + (da[i] ^ xa[i]).leading_zeros(),
                off + (db[i] ^ xb[i]).leading_zeros(),
                String::new(),
            );
        }
    }
    (0, 0, String::new())
}

/// Go's `sortByRFC6724` for one pair (stable sort: equal means keep).
fn go_cmp(a: &CandidateFacts, b: &CandidateFacts, musl: bool) -> (Ordering, u8, String) {
    use Ordering::*;
    let (prec, labels) = rfc6724(musl);
    match (a.source, b.source) {
        (Some(_), None) => return (Less, 1, format!("rule 1: {} has no source address", b.address)),
        (None, Some(_)) => return (Greater, 1, format!("rule 1: {} has no source address", a.address)),
        // Go stops at rule 1 for two unusable destinations; musl's key
        // still ranks them by precedence and scope.
        (None, None) if !musl => {
            return (
                Equal,
                1,
                "rule 1: neither has a source address; Go keeps their order".into(),
            );
        }
        _ => {}
    }
    let scope = |ip| rfc6724_scope(ip, musl);
    if let (Some(sa), Some(sb)) = (a.source, b.source) {
        let (ma, mb) = (scope(a.address) == scope(sa), scope(b.address) == scope(sb));
        if ma != mb {
            return (if ma { Less } else { Greater }, 2, "rule 2 (matching scope)".into());
        }
        let (la, lb) = (
            lookup(&labels, a.address) == lookup(&labels, sa),
            lookup(&labels, b.address) == lookup(&labels, sb),
        );
        if la != lb {
            return (if la { Less } else { Greater }, 5, "rule 5 (matching label)".into());
        }
    }
    let (pa, pb) = (lookup(&prec, a.address), lookup(&prec, b.address));
    if pa != pb {
        return (
            if pa > pb { Less } else { Greater },
            6,
            format!("rule 6 (precedence): {pa} vs {pb}"),
        );
    }
    let (sa_, sb_) = (scope(a.address), scope(b.address));
    if sa_ != sb_ {
        return (
            if sa_ < sb_ { Less } else { Greater },
            8,
            format!("rule 8 (smaller scope): {sa_} vs {sb_}"),
        );
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
                    9,
                    format!("rule 9, {ca} vs {cb} common bits"),
                );
            }
        }
    }
    (
        Equal,
        10,
        format!(
            "rule 10: name-service order kept (positions {} and {})",
            a.position + 1,
            b.position + 1
        ),
    )
}

/// Predicts the order `getaddrinfo` returns for `input` (name-service order).
pub fn sort(model: &Model, input: &[IpAddr], o: &Options) -> GaiResult {
    let mut notes = Vec::new();
    let routes_inferred = !model.has_routes();
    let derived;
    let model = if routes_inferred {
        notes.push("the capture holds no routes: connected and local routes were inferred from the addresses; give --source DEST=SRC for destinations behind a gateway".into());
        derived = with_inferred_routes(model);
        &derived
    } else {
        model
    };
    let (cands, have_v6) = facts(model, input, o, routes_inferred, &mut notes);
    let tables = Tables::of(&o.gai_conf);
    let cmp = |a: &CandidateFacts, b: &CandidateFacts| match o.resolver {
        Resolver::Glibc => glibc_cmp(a, b, &tables),
        Resolver::Go => go_cmp(a, b, false),
        Resolver::Musl => go_cmp(a, b, true),
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
        .windows(2)
        .map(|w| {
            let (_, rule, explanation) = if sorting_happened {
                cmp(w[0], w[1])
            } else {
                (Ordering::Equal, 0, "not sorted".into())
            };
            Step {
                first: w[0].address,
                second: w[1].address,
                rule,
                explanation: format!("{} before {}: {explanation}", w[0].address, w[1].address),
                swapped: w[0].position > w[1].position,
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

/// Which input assumption could explain an observed order that differs
/// from the prediction: each variant is re-run and kept if it reproduces
/// the observation.
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

/// The same host without its IPv6 addresses (`has`), or with one link-local
/// address added: what glibc's check_pf would see the other way.
fn toggle_ipv6(model: &Model, has: bool) -> Model {
    let links = model.links().to_vec();
    let mut addrs: Vec<AddrEntry> = model.addresses(None).into_iter().cloned().collect();
    if has {
        addrs.retain(|a| a.family != AF_INET6 || a.address.is_loopback());
    } else if let Some(l) = links.iter().find(|l| !l.placeholder) {
        addrs.push(AddrEntry {
            index: l.index,
            family: AF_INET6,
            address: IpAddr::V6(Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0xffff)),
            peer: None,
            prefix_len: 64,
            label: None,
            scope: RT_SCOPE_LINK,
            flags: IFA_F_PERMANENT,
            header_flags: IFA_F_PERMANENT as u8,
            broadcast: None,
            cacheinfo: None,
            first_addr_attr: None,
            rt_priority: None,
            origin: Origin::Inferred(0),
        });
    }
    let routes = model.routes().into_iter().cloned().collect();
    Model::from_tables(links, addrs, routes)
}

#[cfg(test)]
#[path = "gai_tests.rs"]
mod tests;
