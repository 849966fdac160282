//! `/etc/gai.conf` and the policy tables glibc sorts with.
//!
//! Contract: [`GaiConf::parse`] turns gai.conf text into the tables it
//! sets (each replaces the whole default table) and the lines it skipped;
//! [`Tables::of`] gives the label, precedence and IPv4 scope tables glibc
//! uses (gai.conf's, else glibc's defaults); [`lookup`] finds an address's
//! value in any of these tables or the RFC 6724 ones. Pure, no I/O.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::replay::source::in_prefix;

/// One policy-table row: prefix (IPv6, IPv4 mapped), length, value.
pub type PolicyRow = (Ipv6Addr, u8, u32);

/// `/etc/gai.conf`: the tables its `label`, `precedence` and `scopev4`
/// lines set (None: no valid line, glibc's default stays) and its `reload`.
#[derive(Debug, Clone, Default)]
pub struct GaiConf {
    /// The `label` lines' table.
    pub labels: Option<Vec<PolicyRow>>,
    /// The `precedence` lines' table.
    pub precedence: Option<Vec<PolicyRow>>,
    /// The `scopev4` lines' table.
    pub scopev4: Option<Vec<PolicyRow>>,
    /// `reload yes`.
    pub reload: bool,
    /// Lines skipped for an unknown keyword or a value that does not parse
    /// (their number, from 1, and their text, trimmed); blank, comment and
    /// one-word lines are not listed.
    pub ignored: Vec<(usize, String)>,
}

/// A row from text; an unparsable prefix becomes `::`.
pub(super) fn row(p: &str, len: u8, v: u32) -> PolicyRow {
    (p.parse().unwrap_or(Ipv6Addr::UNSPECIFIED), len, v)
}

impl GaiConf {
    /// Parses gai.conf text (`label`, `precedence`, `scopev4`, `reload`;
    /// `#` starts a comment).
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
            let bad = |c: &mut GaiConf| c.ignored.push((n + 1, raw.trim().to_owned()));
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
                        bits.ok().filter(|b| *b <= 32).map(|b| (v4.to_ipv6_mapped(), b + 96))
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

/// The tables glibc sorts with.
pub(super) struct Tables {
    pub labels: Vec<PolicyRow>,
    pub precedence: Vec<PolicyRow>,
    pub scopev4: Vec<PolicyRow>,
}

impl Tables {
    /// gai.conf's tables where it sets them, glibc's defaults for the rest.
    pub fn of(conf: &GaiConf) -> Tables {
        Tables {
            labels: conf.labels.clone().unwrap_or_else(glibc_labels),
            precedence: conf.precedence.clone().unwrap_or_else(glibc_precedence),
            scopev4: conf.scopev4.clone().unwrap_or_else(glibc_scopev4),
        }
    }
}

/// The value of the first row, in table order, whose prefix holds `ip`
/// (IPv4 as IPv4-mapped IPv6); 0 when none does.
pub(super) fn lookup(table: &[PolicyRow], ip: IpAddr) -> u32 {
    let a = IpAddr::V6(to6(ip));
    table
        .iter()
        .find(|(p, len, _)| in_prefix(a, IpAddr::V6(*p), *len))
        .map_or(0, |r| r.2)
}

/// IPv4 as IPv4-mapped IPv6, IPv6 unchanged.
pub(super) fn to6(ip: IpAddr) -> Ipv6Addr {
    match ip {
        IpAddr::V4(v4) => v4.to_ipv6_mapped(),
        IpAddr::V6(v6) => v6,
    }
}
