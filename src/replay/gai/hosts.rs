//! A hosts file (`/etc/hosts`) and `/etc/host.conf` as glibc's files
//! backend reads them for `getaddrinfo`, and the candidates it returns for
//! a name, in name-service order, each with the line it came from.
//!
//! Contract: [`HostsFile::parse`] and [`HostConf::parse`] are pure
//! functions of the files' bytes (nom parsers, no I/O, never failing: a
//! line glibc skips is kept with why). [`HostsFile::lookup`] is a pure
//! function of the file, the name, the family asked ([`asked`]) and
//! `multi`; it returns the candidates and the lines that name the name but
//! were not returned. [`explain`] re-runs the lookup and [`sort`] with the
//! other `multi` and the other AI_ADDRCONFIG. Semantics: glibc's
//! nss/nss_files/files-hosts.c (`_nss_files_gethostbyname4_r` when both
//! families are asked, `_nss_files_gethostbyname3_r` and
//! `gethostbyname3_multi` for one), nss/nss_files/files-parse.c (`#` ends
//! the line, fields split at `isspace`, names compared with `strcasecmp`),
//! nss/nss_readline.c, resolv/res_hconf.c (`multi`) and getaddrinfo.c
//! (AI_ADDRCONFIG from `__check_pf`, AI_V4MAPPED).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use pcap_parser::nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, tag_no_case, take_till, take_while, take_while1},
    combinator::value,
    multi::{many0, separated_list0},
    sequence::{preceded, terminated},
};
use serde::Serialize;

use super::facts::Options;
use super::mismatch::Explanation;
use super::sort::sort;
use crate::model::Model;
use crate::netlink::values::AddressFamily;

/// A hosts file as glibc reads it: every line that is not blank or a
/// comment, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostsFile {
    /// The lines, in file order.
    pub lines: Vec<HostsLine>,
}

/// One line of a hosts file with at least one field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostsLine {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The line as written, without the spaces around it (invalid UTF-8
    /// replaced).
    pub text: String,
    /// The first field as `inet_pton` reads it: IPv4 when it parses as
    /// IPv4, else IPv6; why not when it is neither (glibc skips the line).
    pub address: Result<IpAddr, BadAddress>,
    /// The canonical name and the aliases, as written (bytes: glibc
    /// compares them byte-wise, ASCII letters case-insensitively).
    pub names: Vec<Vec<u8>>,
}

/// A first field `inet_pton` does not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BadAddress {
    /// An IPv6 address with a `%scope` (`fe80::1%eth0`): `inet_pton`
    /// takes no zone.
    ScopeId(String),
    /// Not an IPv4 or IPv6 address.
    NotAnAddress(String),
}

/// What `getaddrinfo` asks the files backend for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Asked {
    /// Both families at once (`gethostbyname4_r`): each line's address as
    /// written.
    Both,
    /// IPv4 only (AI_ADDRCONFIG on a host without a non-loopback IPv6
    /// address): IPv4-mapped lines read as IPv4, `::1` as 127.0.0.1, other
    /// IPv6 lines skipped.
    Ipv4,
    /// IPv6 only (AI_ADDRCONFIG on a host without an IPv4 address other
    /// than 127.0.0.1); with AI_V4MAPPED and without AI_ALL, as `getent
    /// ahosts` asks, IPv4-mapped answers dropped when there are IPv6 ones,
    /// and the IPv4 lines mapped to IPv6 when no IPv6 line names the name.
    Ipv6,
}

/// How a candidate's address was read from its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadAs {
    /// As written.
    Written,
    /// An IPv4-mapped IPv6 address read as IPv4 (IPv4 asked).
    Ipv4OfMapped,
    /// `::1` read as 127.0.0.1 (IPv4 asked).
    Ipv4OfLoopback,
    /// IPv4 mapped to IPv6 (IPv6 asked, AI_V4MAPPED).
    MappedIpv4,
}

/// A candidate and the line it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FromLine {
    /// The candidate.
    pub address: IpAddr,
    /// The line's number, from 1.
    pub line: usize,
    /// The line as written.
    pub text: String,
    /// How its address was read.
    pub read_as: ReadAs,
}

/// A line that names the name but gave no candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotReturned {
    /// The line's number, from 1.
    pub line: usize,
    /// The line as written.
    pub text: String,
    /// Why it gave no candidate.
    pub why: NotReturnedWhy,
}

/// Why a line that names the name gave no candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotReturnedWhy {
    /// Its address is not one `inet_pton` reads: glibc skips the line.
    BadAddress(BadAddress),
    /// Its address is of a family not asked (the family asked).
    OtherFamily(Asked),
    /// After the first line that names it, without `multi on`: the
    /// lookup stops at the first.
    AfterFirst,
    /// IPv4-mapped, when IPv6 was asked and IPv6 lines answered:
    /// AI_V4MAPPED without AI_ALL drops mapped answers then
    /// (`generate_addrinfo`).
    MappedDropped,
}

/// The candidates for a name, as the files backend returns them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lookup {
    /// The families asked for.
    pub asked: Asked,
    /// `multi on`: every line that names it, not only the first.
    pub multi: bool,
    /// The candidates in name-service order.
    pub found: Vec<FromLine>,
    /// The other lines that name it, in file order.
    pub not_returned: Vec<NotReturned>,
}

impl Lookup {
    /// The candidates' addresses, in name-service order.
    pub fn addresses(&self) -> Vec<IpAddr> {
        self.found.iter().map(|f| f.address).collect()
    }
}

/// `/etc/host.conf` as glibc reads it: `multi on|off` (the last line
/// says; off without one) and the lines glibc rejects.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostConf {
    /// `multi on`.
    pub multi: bool,
    /// Lines glibc rejects (an unknown keyword, or `multi`/`reorder`
    /// without `on` or `off`): their number, from 1, and text, trimmed.
    pub ignored: Vec<(usize, String)>,
}

/// C's `isspace` in the C locale.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

type Res<'a, T> = IResult<&'a [u8], T>;

/// The file's lines as `fgets` reads them.
fn lines(input: &[u8]) -> Res<'_, Vec<&[u8]>> {
    separated_list0(tag(&b"\n"[..]), take_till(|c| c == b'\n')).parse(input)
}

/// A line's fields: what precedes a NUL (the end of the C string) or a
/// `#` (a comment), split at white space.
fn fields(line: &[u8]) -> Res<'_, Vec<&[u8]>> {
    let (_, kept) = take_till(|c| c == b'#' || c == 0).parse(line)?;
    preceded(
        take_while(is_space),
        many0(terminated(take_while1(|c| !is_space(c)), take_while(is_space))),
    )
    .parse(kept)
}

/// The address field as `inet_pton` reads it, IPv4 tried first (as
/// `gethostbyname4_r` does).
fn address(field: &[u8]) -> Result<IpAddr, BadAddress> {
    let text = String::from_utf8_lossy(field).into_owned();
    if let Ok(v4) = text.parse::<Ipv4Addr>() {
        return Ok(IpAddr::V4(v4));
    }
    if let Ok(v6) = text.parse::<Ipv6Addr>() {
        return Ok(IpAddr::V6(v6));
    }
    match text.split_once('%') {
        Some((a, _)) if a.parse::<Ipv6Addr>().is_ok() => Err(BadAddress::ScopeId(text)),
        _ => Err(BadAddress::NotAnAddress(text)),
    }
}

impl HostsFile {
    /// Reads a hosts file's bytes: blank lines and lines whose first
    /// non-space character is `#` are left out; a `#` anywhere ends a line.
    pub fn parse(bytes: &[u8]) -> HostsFile {
        let raw = lines(bytes).map_or_else(|_| Vec::new(), |(_, l)| l);
        let mut out = Vec::new();
        for (n, line) in raw.into_iter().enumerate() {
            let Ok((_, f)) = fields(line) else { continue };
            let Some((first, names)) = f.split_first() else {
                continue;
            };
            out.push(HostsLine {
                number: n + 1,
                text: String::from_utf8_lossy(line).trim().to_owned(),
                address: address(first),
                names: names.iter().map(|n| n.to_vec()).collect(),
            });
        }
        HostsFile { lines: out }
    }

    /// Whether any line, read or skipped, names `name`.
    pub fn names(&self, name: &str) -> bool {
        self.lines.iter().any(|l| l.names_it(name))
    }

    /// The candidates for `name` when `asked` is asked: the first line
    /// that names it with an address of that family, or with `multi` every
    /// such line, in file order (a line named twice counts once per line;
    /// lines repeating an address repeat it).
    pub fn lookup(&self, name: &str, asked: Asked, multi: bool) -> Lookup {
        let (found, not_returned) = match asked {
            Asked::Both | Asked::Ipv4 => self.scan(name, asked, multi),
            Asked::Ipv6 => {
                let (found, mut not_returned) = self.scan(name, Asked::Ipv6, multi);
                if !found.is_empty() {
                    let (mapped, found): (Vec<FromLine>, Vec<FromLine>) = found
                        .into_iter()
                        .partition(|f| matches!(f.address, IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some()));
                    not_returned.extend(mapped.into_iter().map(|f| NotReturned {
                        line: f.line,
                        text: f.text,
                        why: NotReturnedWhy::MappedDropped,
                    }));
                    not_returned.sort_by_key(|n| n.line);
                    (found, not_returned)
                } else {
                    // AI_V4MAPPED: IPv4 asked next, its answers mapped.
                    let (mut found, not_returned) = self.scan(name, Asked::Ipv4, multi);
                    for f in &mut found {
                        if let IpAddr::V4(v4) = f.address {
                            f.address = IpAddr::V6(v4.to_ipv6_mapped());
                            f.read_as = ReadAs::MappedIpv4;
                        }
                    }
                    (found, not_returned)
                }
            }
        };
        Lookup {
            asked,
            multi,
            found,
            not_returned,
        }
    }

    fn scan(&self, name: &str, asked: Asked, multi: bool) -> (Vec<FromLine>, Vec<NotReturned>) {
        let (mut found, mut not_returned) = (Vec::new(), Vec::new());
        for l in self.lines.iter().filter(|l| l.names_it(name)) {
            let mut skip = |why| {
                not_returned.push(NotReturned {
                    line: l.number,
                    text: l.text.clone(),
                    why,
                })
            };
            let addr = match &l.address {
                Ok(a) => *a,
                Err(b) => {
                    skip(NotReturnedWhy::BadAddress(b.clone()));
                    continue;
                }
            };
            let Some((address, read_as)) = read_as(addr, asked) else {
                skip(NotReturnedWhy::OtherFamily(asked));
                continue;
            };
            if !found.is_empty() && !multi {
                skip(NotReturnedWhy::AfterFirst);
                continue;
            }
            found.push(FromLine {
                address,
                line: l.number,
                text: l.text.clone(),
                read_as,
            });
        }
        (found, not_returned)
    }
}

impl HostsLine {
    /// Whether its canonical name or an alias is `name` (ASCII letters
    /// compared case-insensitively, as `strcasecmp`).
    pub fn names_it(&self, name: &str) -> bool {
        self.names.iter().any(|n| n.eq_ignore_ascii_case(name.as_bytes()))
    }
}

/// A line's address as the family asked reads it (files-hosts.c's
/// `LINE_PARSER`); `None` when the line is skipped for that family.
fn read_as(addr: IpAddr, asked: Asked) -> Option<(IpAddr, ReadAs)> {
    match (asked, addr) {
        (Asked::Both, a) | (Asked::Ipv4, a @ IpAddr::V4(_)) | (Asked::Ipv6, a @ IpAddr::V6(_)) => {
            Some((a, ReadAs::Written))
        }
        (Asked::Ipv4, IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => Some((IpAddr::V4(v4), ReadAs::Ipv4OfMapped)),
            None if v6.is_loopback() => Some((IpAddr::V4(Ipv4Addr::LOCALHOST), ReadAs::Ipv4OfLoopback)),
            None => None,
        },
        (Asked::Ipv6, IpAddr::V4(_)) => None,
    }
}

/// What `getaddrinfo` asks the files backend for on this host: both
/// families, unless the program passed AI_ADDRCONFIG and `__check_pf`
/// sees addresses of one family only (IPv4 other than 127.0.0.1, IPv6
/// other than ::1; a point-to-point address counts by its peer).
pub fn asked(model: &Model, addrconfig: bool) -> Asked {
    if !addrconfig {
        return Asked::Both;
    }
    let all = model.addresses(None);
    let seen = |family: AddressFamily| {
        all.iter().any(|a| {
            let addr = a.peer.unwrap_or(a.address);
            a.family == family
                && match addr {
                    IpAddr::V4(v4) => v4 != Ipv4Addr::LOCALHOST,
                    IpAddr::V6(v6) => !v6.is_loopback(),
                }
        })
    };
    match (seen(AddressFamily::Inet), seen(AddressFamily::Inet6)) {
        (true, false) => Asked::Ipv4,
        (false, true) => Asked::Ipv6,
        _ => Asked::Both,
    }
}

/// One host.conf line as res_hconf.c reads it: its keyword and what
/// follows the keyword's white space.
fn keyword(line: &[u8]) -> Res<'_, &[u8]> {
    terminated(
        preceded(
            take_while(is_space),
            take_till(|c| is_space(c) || c == b'#' || c == b','),
        ),
        take_while(is_space),
    )
    .parse(line)
}

/// `on` or `off`, compared as `strncasecmp` does (`onward` is on).
fn on_off(arg: &[u8]) -> Res<'_, bool> {
    alt((
        value(true, tag_no_case(&b"on"[..])),
        value(false, tag_no_case(&b"off"[..])),
    ))
    .parse(arg)
}

impl HostConf {
    /// Reads host.conf's bytes: `multi` (the last valid line wins);
    /// `order`, `trim` and `reorder` are glibc's too but change nothing
    /// `getaddrinfo` returns from the hosts file.
    pub fn parse(bytes: &[u8]) -> HostConf {
        let mut conf = HostConf::default();
        let raw = lines(bytes).map_or_else(|_| Vec::new(), |(_, l)| l);
        for (n, line) in raw.into_iter().enumerate() {
            let line = take_till::<_, _, pcap_parser::nom::error::Error<&[u8]>>(|c| c == 0)
                .parse(line)
                .map_or(line, |(_, l)| l);
            let Ok((arg, word)) = keyword(line) else { continue };
            let blank = line.iter().all(|c| is_space(*c));
            if blank || word.is_empty() && arg.first() == Some(&b'#') {
                continue;
            }
            let bad = |conf: &mut HostConf| {
                conf.ignored
                    .push((n + 1, String::from_utf8_lossy(line).trim().to_owned()))
            };
            let is = |k: &str| word.eq_ignore_ascii_case(k.as_bytes());
            if is("multi") || is("reorder") {
                match on_off(arg) {
                    Ok((_, on)) if is("multi") => conf.multi = on,
                    Ok(_) => {}
                    Err(_) => bad(&mut conf),
                }
            } else if !(is("order") || is("trim")) {
                bad(&mut conf);
            }
        }
        conf
    }
}

/// What in the hosts lookup could explain `observed`: the other `multi`
/// (`Explanation::HostConfMulti`) and the other AI_ADDRCONFIG
/// (`Explanation::AddrConfig`), each when the lookup it gives, sorted,
/// is `observed`.
pub fn explain(
    model: &Model,
    file: &HostsFile,
    (name, multi, addrconfig): (&str, bool, bool),
    o: &Options,
    observed: &[IpAddr],
) -> Vec<Explanation> {
    let order = |multi, addrconfig| {
        let input = file.lookup(name, asked(model, addrconfig), multi).addresses();
        sort(model, &input, o).order
    };
    let mut why = Vec::new();
    if order(!multi, addrconfig) == observed {
        why.push(Explanation::HostConfMulti { multi: !multi });
    }
    if asked(model, true) != Asked::Both && order(multi, !addrconfig) == observed {
        why.push(Explanation::AddrConfig {
            addrconfig: !addrconfig,
        });
    }
    why
}

#[cfg(test)]
#[path = "hosts_tests.rs"]
mod tests;
