//! Words for `nlorder gai --hosts`: where each candidate came from in the
//! hosts file, the lines that name the name but gave none, and host.conf's
//! `multi`.
//!
//! Contract: formatting only, fed a [`HostsShown`] (a
//! [`Lookup`] and the files it read).

use std::fmt;
use std::io::{self, Write};
use std::net::IpAddr;
use std::path::Path;

use serde::Serialize;

use crate::replay::gai::hosts::{Asked, BadAddress, Lookup, NotReturnedWhy, ReadAs};

/// Where the candidates came from, with `--hosts`.
#[derive(Debug, Clone, Copy)]
pub struct HostsShown<'a> {
    /// The hosts file.
    pub file: &'a Path,
    /// The name looked up.
    pub name: &'a str,
    /// host.conf, when given.
    pub host_conf: Option<&'a Path>,
    /// host.conf's lines glibc rejects.
    pub host_conf_ignored: &'a [(usize, String)],
    /// The candidates at the moment evaluated.
    pub lookup: &'a Lookup,
}

impl fmt::Display for Asked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Asked::Both => "IPv4 and IPv6 asked at once",
            Asked::Ipv4 => "IPv4 asked only: AI_ADDRCONFIG on a host without a non-loopback IPv6 address",
            Asked::Ipv6 => {
                "IPv6 asked only, IPv4 mapped when no IPv6 line names it: AI_ADDRCONFIG on a host without an IPv4 \
                 address other than 127.0.0.1"
            }
        })
    }
}

impl fmt::Display for NotReturnedWhy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotReturnedWhy::BadAddress(BadAddress::ScopeId(a)) => write!(
                f,
                "{a} has a %scope, which glibc's inet_pton does not read: the line is skipped"
            ),
            NotReturnedWhy::BadAddress(BadAddress::NotAnAddress(a)) => {
                write!(f, "{a:?} is not an address: the line is skipped")
            }
            NotReturnedWhy::OtherFamily(Asked::Ipv4) => f.write_str("IPv6, and only IPv4 is asked"),
            NotReturnedWhy::OtherFamily(Asked::Ipv6) => {
                f.write_str("IPv4, and IPv6 is asked (IPv4 only when no IPv6 line names it)")
            }
            NotReturnedWhy::OtherFamily(Asked::Both) => f.write_str("its family is not asked"),
            NotReturnedWhy::MappedDropped => f.write_str(
                "IPv4-mapped, and IPv6 lines answered: with AI_V4MAPPED and without AI_ALL glibc drops mapped answers",
            ),
            NotReturnedWhy::AfterFirst => {
                f.write_str("the lookup stops at the first line that names it (no `multi on` in host.conf)")
            }
        }
    }
}

serialize_as_words!(NotReturnedWhy);

fn read_as(r: ReadAs) -> &'static str {
    match r {
        ReadAs::Written => "",
        ReadAs::Ipv4OfMapped => " (IPv4-mapped, read as IPv4)",
        ReadAs::Ipv4OfLoopback => " (::1 read as 127.0.0.1)",
        ReadAs::MappedIpv4 => " (IPv4 mapped to IPv6: AI_V4MAPPED)",
    }
}

/// The hosts file's part of `gai`'s text answer: one line per candidate
/// (the line it came from), then the lines that gave none.
pub fn write_text(out: &mut dyn Write, h: &HostsShown<'_>) -> io::Result<()> {
    let multi = match (h.lookup.multi, h.host_conf) {
        (true, Some(c)) => format!("multi on in {}", c.display()),
        (false, Some(c)) => format!("multi off in {}", c.display()),
        (_, None) => "multi off: no --host-conf".to_owned(),
    };
    writeln!(
        out,
        "  from {} for {} ({multi}; {}):",
        h.file.display(),
        h.name,
        h.lookup.asked
    )?;
    for c in &h.lookup.found {
        writeln!(
            out,
            "    {}: line {}, `{}`{}",
            c.address,
            c.line,
            c.text,
            read_as(c.read_as)
        )?;
    }
    if h.lookup.found.is_empty() {
        writeln!(
            out,
            "    no candidate: getaddrinfo goes on to the next `hosts:` source of nsswitch.conf"
        )?;
    }
    for n in &h.lookup.not_returned {
        writeln!(out, "    line {} not returned, `{}`: {}", n.line, n.text, n.why)?;
    }
    for (n, text) in h.host_conf_ignored {
        writeln!(out, "    host.conf line {n} ignored by glibc: `{text}`")?;
    }
    Ok(())
}

/// `hosts` in `gai`'s JSON: `file`, `name`, `host_conf`, `multi`, `asked`,
/// `candidates` (`address`, `line`, `text`, `read_as`), `not_returned`
/// (`line`, `text`, `reason`) and `host_conf_ignored` (`line`, `text`).
#[derive(Serialize)]
pub struct JsonHosts<'a> {
    file: String,
    name: &'a str,
    host_conf: Option<String>,
    multi: bool,
    asked: Asked,
    candidates: Vec<JsonFromLine<'a>>,
    not_returned: Vec<JsonNotReturned<'a>>,
    host_conf_ignored: Vec<JsonLine<'a>>,
}

#[derive(Serialize)]
struct JsonFromLine<'a> {
    address: IpAddr,
    line: usize,
    text: &'a str,
    read_as: ReadAs,
}

#[derive(Serialize)]
struct JsonNotReturned<'a> {
    line: usize,
    text: &'a str,
    reason: &'a NotReturnedWhy,
}

#[derive(Serialize)]
struct JsonLine<'a> {
    line: usize,
    text: &'a str,
}

/// The JSON of `h`.
pub fn json<'a>(h: &HostsShown<'a>) -> JsonHosts<'a> {
    JsonHosts {
        file: h.file.display().to_string(),
        name: h.name,
        host_conf: h.host_conf.map(|c| c.display().to_string()),
        multi: h.lookup.multi,
        asked: h.lookup.asked,
        candidates: h
            .lookup
            .found
            .iter()
            .map(|c| JsonFromLine {
                address: c.address,
                line: c.line,
                text: &c.text,
                read_as: c.read_as,
            })
            .collect(),
        not_returned: h
            .lookup
            .not_returned
            .iter()
            .map(|n| JsonNotReturned {
                line: n.line,
                text: &n.text,
                reason: &n.why,
            })
            .collect(),
        host_conf_ignored: h
            .host_conf_ignored
            .iter()
            .map(|(line, text)| JsonLine { line: *line, text })
            .collect(),
    }
}
