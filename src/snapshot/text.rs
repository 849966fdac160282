//! `ip`'s text output (`ip [-d] [-s] link show`, `ip addr show`, `ip
//! route show table all`, `ip -6 route show table all`, `ip rule`, and
//! their one-line `-o` forms), as pasted into a ticket or kept by a
//! sosreport, read into the same typed values as `ip -j`'s JSON.
//!
//! Contract: [`parse`] splits a text into listings, each recognised by
//! what its lines are, whatever the file is called: a line `N: NAME:
//! <FLAGS> ...` opens a link (its continuation lines, indented, hold the
//! `link/TYPE` line, `-d`'s kind and `addrgenmode`, `altname`s, `-s`'s
//! counters, which are passed over, and `ip addr`'s `inet`/`inet6` lines
//! with their lifetimes); `N: NAME    inet ...` is one address of `ip -o
//! addr`; `N:\tfrom ...` a policy rule; any other line a route (an
//! indented `nexthop` line one of its next hops). A line that is a prompt
//! and a command (`$ ip addr`, `# ip -6 route show table all`,
//! `[root@node ~]# ip route`) starts a new listing, and names what it
//! holds when the listing is empty (an empty `ip -6 route` is an empty
//! IPv6 table, not a missing one); the same device twice also starts one
//! (two listings pasted one after another). `-o`'s `\` stands for a line
//! break. A listing of links is `addr show` when it holds an address line
//! or its command says so, `link show` otherwise. Every value is typed as
//! the JSON reader types it ([`super::Link`], [`super::Addr`],
//! [`super::Route`]); a word nlorder does not know in a route is an error
//! naming it, as is a line that cannot be what `ip` prints; where that
//! line or record is the last of the input, the error says the paste was
//! cut short.

use std::net::IpAddr;
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use super::error::Error;
use super::values::{Addr, AddrFamily, AddrGenMode, Link, LinkFlag, LinkInfo, NextHop, OperState, Route, route_flag};

/// One output found in a text.
#[derive(Debug)]
pub(super) enum Listing {
    /// `ip link show`.
    Links(Vec<Link>),
    /// `ip addr show` (or `ip -o addr`: links known by index and name only).
    Addrs {
        /// The links with their addresses.
        links: Vec<Link>,
        /// From `ip -o addr`: no link line, so no flags or state.
        one_line: bool,
    },
    /// A route listing; `family` where its command named one and it was
    /// empty.
    Routes {
        /// The routes.
        routes: Vec<Route>,
        /// The family the command asked for (`-6`: IPv6; IPv4 otherwise).
        family: Option<AddrFamily>,
    },
    /// `ip rule`: how many rules (read, not used: see [`super::Gap`]).
    Rules(usize),
}

/// What a prompt's command asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Object {
    Link,
    Addr,
    Route,
    Rule,
    Other,
}

#[derive(Debug, Clone, Copy)]
struct Command {
    object: Object,
    v6: bool,
}

/// One of this file's constant patterns, compiled on first use.
fn compiled(pattern: &str) -> Regex {
    #[allow(clippy::expect_used)] // a constant pattern
    Regex::new(pattern).expect("pattern")
}

static PROMPT: LazyLock<Regex> =
    LazyLock::new(|| compiled(r"^\s*(?:(?:\[[^\]]*\]|[^\s$#]*)\s*[$#]\s*)?(?:sudo\s+)?(?:/\S*/)?ip((?:\s.*)?)$"));
static LINK_HEADER: LazyLock<Regex> =
    LazyLock::new(|| compiled(r"^(\d+):\s+([^\s:@]+)(?:@([^\s:]+))?:\s+<([^>]*)>(.*)$"));
static ONE_LINE_ADDR: LazyLock<Regex> = LazyLock::new(|| compiled(r"^(\d+):\s+(\S+)\s+(inet6?\s.*)$"));
static RULE: LazyLock<Regex> = LazyLock::new(|| compiled(r"^\d+:\s+(?:not\s+)?from\s"));

/// The command of a prompt line (`$ ip -6 route show table all`), `None`
/// for a line that is not one.
fn prompt(line: &str) -> Option<Command> {
    let caps = PROMPT.captures(line)?;
    let args = caps.get(1).map_or("", |m| m.as_str());
    let mut v6 = false;
    let mut object = None;
    let mut words = args.split_whitespace();
    while let Some(w) = words.next() {
        if let Some(opt) = w.strip_prefix('-') {
            match opt {
                "6" => v6 = true,
                "f" | "family" => v6 = words.next() == Some("inet6"),
                // options with a value
                "n" | "netns" | "b" | "batch" | "rc" | "rcvbuf" => {
                    words.next();
                }
                _ => {}
            }
            continue;
        }
        let o = |full: &str, min: usize| w.len() >= min && full.starts_with(w);
        object = Some(if o("link", 1) {
            Object::Link
        } else if o("address", 1) || w == "addr" {
            Object::Addr
        } else if o("rule", 2) {
            Object::Rule
        } else if o("route", 1) {
            Object::Route
        } else {
            Object::Other
        });
        break;
    }
    Some(Command {
        // `ip` alone: not a command of ours
        object: object.unwrap_or(Object::Other),
        v6,
    })
}

/// One record: a line and its indented continuation lines.
struct Record<'a> {
    head: &'a str,
    more: Vec<&'a str>,
    /// Whether it is the input's last (an error in it: cut short).
    last: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Link,
    OneLineAddr,
    Rule,
    Route,
}

fn kind(head: &str) -> Kind {
    if LINK_HEADER.is_match(head) {
        Kind::Link
    } else if RULE.is_match(head) {
        Kind::Rule
    } else if ONE_LINE_ADDR.is_match(head) {
        Kind::OneLineAddr
    } else {
        Kind::Route
    }
}

/// Reads every listing of `text`.
pub(super) fn parse(path: &Path, text: &str) -> Result<Vec<Listing>, Error> {
    let mut out = Vec::new();
    // `-o`: a `\` stands for a line break
    let expanded: Vec<String> = text.lines().flat_map(|l| l.split('\\').map(str::to_owned)).collect();
    let mut section: Vec<&str> = Vec::new();
    let mut command: Option<Command> = None;
    let mut sections: Vec<(Option<Command>, Vec<&str>)> = Vec::new();
    for line in &expanded {
        if let Some(c) = prompt(line) {
            sections.push((command, std::mem::take(&mut section)));
            command = Some(c);
        } else if !line.trim().is_empty() {
            section.push(line);
        }
    }
    sections.push((command, section));
    let n = sections.len();
    for (i, (command, lines)) in sections.into_iter().enumerate() {
        let last_section = i + 1 == n;
        if let Some(c) = command
            && c.object == Object::Other
        {
            // another command's output (`ip neigh`, `ip -s link` is a link
            // listing): passed over
            continue;
        }
        out.extend(section_listings(path, command, &lines, last_section)?);
    }
    Ok(out)
}

fn section_listings(
    path: &Path,
    command: Option<Command>,
    lines: &[&str],
    last_section: bool,
) -> Result<Vec<Listing>, Error> {
    let mut records: Vec<Record<'_>> = Vec::new();
    for l in lines {
        if l.starts_with(char::is_whitespace) {
            if let Some(r) = records.last_mut() {
                r.more.push(l);
                continue;
            }
            // a continuation without its record: the paste began in the middle
            return Err(malformed(
                path,
                format!("`{}`: a line of a record whose first line is missing", l.trim()),
            ));
        }
        records.push(Record {
            head: l,
            more: Vec::new(),
            last: false,
        });
    }
    if last_section && let Some(r) = records.last_mut() {
        r.last = true;
    }
    let mut out = Vec::new();
    if records.is_empty() {
        if let Some(c) = command
            && c.object == Object::Route
        {
            out.push(Listing::Routes {
                routes: Vec::new(),
                family: Some(if c.v6 { AddrFamily::Inet6 } else { AddrFamily::Inet }),
            });
        }
        return Ok(out);
    }
    // consecutive records of one kind form a listing; links start a new
    // one when a device comes again
    let mut i = 0;
    while let Some(first) = records.get(i) {
        let k = kind(first.head);
        let mut j = i + 1;
        let mut seen = std::collections::HashSet::new();
        if k == Kind::Link {
            seen.insert(header_index(first.head));
        }
        while let Some(r) = records.get(j) {
            let kr = kind(r.head);
            if kr != k {
                break;
            }
            if k == Kind::Link && !seen.insert(header_index(r.head)) {
                break;
            }
            j += 1;
        }
        let group = records.get(i..j).unwrap_or_default();
        out.push(match k {
            Kind::Link => links(path, command, group)?,
            Kind::OneLineAddr => one_line_addrs(path, group)?,
            Kind::Rule => Listing::Rules(group.len()),
            Kind::Route => Listing::Routes {
                routes: group.iter().map(|r| route(path, r)).collect::<Result<_, _>>()?,
                family: None,
            },
        });
        i = j;
    }
    Ok(out)
}

fn header_index(head: &str) -> u32 {
    LINK_HEADER
        .captures(head)
        .and_then(|c| c.get(1))
        .and_then(|m| m.as_str().parse().ok())
        .unwrap_or(0)
}

fn malformed(path: &Path, what: String) -> Error {
    Error::Malformed {
        path: path.to_owned(),
        what,
    }
}

/// An error in record `r`: cut short where it is the input's last.
fn bad(path: &Path, r: &Record<'_>, what: String) -> Error {
    if r.last {
        malformed(path, format!("{what}: cut short (a truncated paste?)"))
    } else {
        malformed(path, what)
    }
}

fn num<T: std::str::FromStr>(path: &Path, r: &Record<'_>, key: &str, v: Option<&str>) -> Result<T, Error> {
    v.and_then(|v| v.parse().ok())
        .ok_or_else(|| bad(path, r, format!("`{}`: `{key}` without a number", r.head.trim())))
}

fn links(path: &Path, command: Option<Command>, group: &[Record<'_>]) -> Result<Listing, Error> {
    let mut out = Vec::new();
    let mut any_addr = false;
    for r in group {
        let l = link(path, r)?;
        any_addr |= l.addr_info.as_ref().is_some_and(|a| !a.is_empty());
        out.push(l);
    }
    let is_addr = match command.map(|c| c.object) {
        Some(Object::Addr) => true,
        Some(Object::Link) => false,
        _ => any_addr,
    };
    if is_addr {
        for l in &mut out {
            l.addr_info.get_or_insert_with(Vec::new);
        }
        Ok(Listing::Addrs {
            links: out,
            one_line: false,
        })
    } else {
        for l in &mut out {
            l.addr_info = None;
        }
        Ok(Listing::Links(out))
    }
}

fn empty_link(ifindex: u32, ifname: String) -> Link {
    Link {
        ifindex,
        ifname,
        flags: Vec::new(),
        mtu: None,
        qdisc: None,
        master: None,
        operstate: None,
        linkmode: None,
        group: None,
        txqlen: None,
        link_type: None,
        address: None,
        broadcast: None,
        permaddr: None,
        link: None,
        link_index: None,
        link_netnsid: None,
        link_netns: None,
        proto_down: false,
        ifalias: None,
        altnames: Vec::new(),
        linkinfo: None,
        inet6_addr_gen_mode: None,
        addr_info: None,
    }
}

fn link(path: &Path, r: &Record<'_>) -> Result<Link, Error> {
    let caps = LINK_HEADER
        .captures(r.head)
        .ok_or_else(|| bad(path, r, format!("`{}`: not a link line", r.head)))?;
    let cap = |i| caps.get(i).map_or("", |m| m.as_str());
    let mut l = empty_link(num(path, r, "index", Some(cap(1)))?, cap(2).to_owned());
    match caps.get(3).map(|m| m.as_str()) {
        None => {}
        Some("NONE") => l.link = Some(None),
        Some(lower) => match lower.strip_prefix("if").and_then(|n| n.parse::<u32>().ok()) {
            // (a lower device `ip` cannot name: in another namespace)
            Some(i) => l.link_index = Some(i),
            None => l.link = Some(Some(lower.to_owned())),
        },
    }
    l.flags = cap(4)
        .split(',')
        .filter(|f| !f.is_empty())
        .map(LinkFlag::from_name)
        .collect();
    let mut w = cap(5).split_whitespace();
    while let Some(k) = w.next() {
        match k {
            "mtu" => l.mtu = Some(num(path, r, k, w.next())?),
            "qdisc" => l.qdisc = w.next().map(str::to_owned),
            "master" => l.master = w.next().map(str::to_owned),
            "state" => {
                let s = w.next().unwrap_or_default();
                l.operstate = Some(
                    OperState::from_name(s)
                        .ok_or_else(|| bad(path, r, format!("{}: operational state `{s}`", l.ifname)))?,
                );
            }
            "mode" => l.linkmode = w.next().map(str::to_owned),
            "group" => l.group = w.next().map(str::to_owned),
            "qlen" => l.txqlen = Some(num(path, r, k, w.next())?),
            _ => {}
        }
    }
    let mut seen_link_line = false;
    let mut addrs: Vec<Addr> = Vec::new();
    let mut lines = r.more.iter().map(|s| s.trim()).peekable();
    let mut kind_seen = false;
    while let Some(line) = lines.next() {
        let mut w = line.split_whitespace();
        let Some(first) = w.next() else { continue };
        if let Some(t) = first.strip_prefix("link/") {
            seen_link_line = true;
            l.link_type = Some(t.to_owned());
            let rest: Vec<&str> = w.collect();
            link_line(path, r, &mut l, &rest)?;
            continue;
        }
        match first {
            "inet" | "inet6" => {
                // its lifetimes follow on the next line
                let life = match lines.peek() {
                    Some(n) if n.starts_with("valid_lft") => lines.next(),
                    _ => None,
                };
                if life.is_none() && r.last && lines.peek().is_none() {
                    return Err(bad(path, r, format!("{}: `{line}` without its lifetimes", l.ifname)));
                }
                addrs.push(addr(path, r, &l.ifname, line, life)?);
            }
            "valid_lft" => return Err(bad(path, r, format!("{}: lifetimes without their address", l.ifname))),
            "altname" => l.altnames.extend(w.next().map(str::to_owned)),
            "alias" => l.ifalias = Some(line.strip_prefix("alias").unwrap_or_default().trim().to_owned()),
            // `-s`: the counters and their heads
            "RX:" | "TX:" => {
                lines.next();
            }
            k if k.ends_with("_slave") => {
                let info = l.linkinfo.get_or_insert(LinkInfo {
                    info_kind: None,
                    info_slave_kind: None,
                });
                info.info_slave_kind = Some(k.trim_end_matches("_slave").to_owned());
                details(&mut l, line);
            }
            "addrgenmode" | "numtxqueues" | "vf" | "prop" | "protodown" => details(&mut l, line),
            k if !kind_seen && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') => {
                kind_seen = true;
                let info = l.linkinfo.get_or_insert(LinkInfo {
                    info_kind: None,
                    info_slave_kind: None,
                });
                info.info_kind = Some(k.to_owned());
                details(&mut l, line);
            }
            _ => details(&mut l, line),
        }
    }
    if !seen_link_line {
        return Err(bad(path, r, format!("{}: no `link/...` line", l.ifname)));
    }
    l.addr_info = Some(addrs);
    Ok(l)
}

/// `-d`'s words anywhere in a link's lines: `addrgenmode`.
fn details(l: &mut Link, line: &str) {
    let mut w = line.split_whitespace();
    while let Some(k) = w.next() {
        if k == "addrgenmode"
            && let Some(m) = w.next()
        {
            l.inet6_addr_gen_mode = Some(AddrGenMode::from_name(m));
        }
    }
}

/// The words after `link/TYPE`.
fn link_line(path: &Path, r: &Record<'_>, l: &mut Link, rest: &[&str]) -> Result<(), Error> {
    let mut w = rest.iter().copied().peekable();
    // the address, unless the type has none (`link/netlink`, `link/none`)
    if let Some(a) = w.peek()
        && !is_link_keyword(a)
    {
        l.address = Some((*a).to_owned());
        w.next();
    }
    while let Some(k) = w.next() {
        match k {
            "brd" | "peer" => l.broadcast = w.next().map(str::to_owned),
            "permaddr" => l.permaddr = w.next().map(str::to_owned),
            "link-netnsid" => {
                l.link_netnsid = match w.next() {
                    Some("unknown") => Some(-1),
                    v => Some(num(path, r, k, v)?),
                }
            }
            "link-netns" => l.link_netns = w.next().map(str::to_owned),
            "addrgenmode" => l.inet6_addr_gen_mode = w.next().map(AddrGenMode::from_name),
            _ => {}
        }
    }
    Ok(())
}

fn is_link_keyword(w: &str) -> bool {
    matches!(
        w,
        "brd" | "peer" | "permaddr" | "link-netnsid" | "link-netns" | "promiscuity" | "allmulti" | "minmtu" | "maxmtu"
    )
}

/// An `inet`/`inet6` line and its lifetimes line.
fn addr(path: &Path, r: &Record<'_>, ifname: &str, line: &str, life: Option<&str>) -> Result<Addr, Error> {
    let bad_addr = |what: &str| bad(path, r, format!("{ifname}: `{line}`: {what}"));
    let mut w = line.split_whitespace();
    let family = match w.next() {
        Some("inet") => AddrFamily::Inet,
        Some("inet6") => AddrFamily::Inet6,
        _ => return Err(bad_addr("not an address line")),
    };
    let first = w.next().ok_or_else(|| bad_addr("no address"))?;
    let mut a = Addr::new(family);
    let prefix = |p: &str| -> Result<(IpAddr, u8), Error> {
        let (ip, len) = p.split_once('/').ok_or_else(|| bad_addr("no prefix length"))?;
        Ok((
            ip.parse().map_err(|_| bad_addr("not an address"))?,
            len.parse().map_err(|_| bad_addr("not a prefix length"))?,
        ))
    };
    let words: Vec<&str> = w.collect();
    let mut rest = words.iter().copied().peekable();
    if rest.peek() == Some(&"peer") {
        a.local = first.parse().map_err(|_| bad_addr("not an address"))?;
        rest.next();
        let (peer, len) = prefix(rest.next().ok_or_else(|| bad_addr("`peer` without an address"))?)?;
        a.address = Some(peer);
        a.prefixlen = len;
    } else {
        (a.local, a.prefixlen) = prefix(first)?;
    }
    let mut label: Option<&str> = None;
    while let Some(k) = rest.next() {
        let ip = |v: Option<&str>| -> Result<IpAddr, Error> {
            v.and_then(|v| v.parse().ok())
                .ok_or_else(|| bad_addr(&format!("`{k}` without an address")))
        };
        match k {
            "brd" => a.broadcast = Some(ip(rest.next())?),
            "any" => {
                rest.next();
            }
            "metric" => a.metric = Some(num(path, r, k, rest.next())?),
            "scope" => a.scope = rest.next().map(str::to_owned),
            "flags" => a.ifa_flags = rest.next().map(|h| h.trim_start_matches("0x").to_owned()),
            "secondary" => a.secondary = true,
            "temporary" => a.temporary = true,
            "dynamic" => a.dynamic = true,
            "nodad" => a.nodad = true,
            "optimistic" => a.optimistic = true,
            "dadfailed" => a.dadfailed = true,
            "home" => a.home = true,
            "deprecated" => a.deprecated = true,
            "tentative" => a.tentative = true,
            "mngtmpaddr" => a.mngtmpaddr = true,
            "noprefixroute" => a.noprefixroute = true,
            "autojoin" => a.autojoin = true,
            "stable-privacy" => a.stable_privacy = true,
            // the label, IPv4's last word
            other if family == AddrFamily::Inet && rest.peek().is_none() => label = Some(other),
            other => return Err(bad_addr(&format!("`{other}`"))),
        }
    }
    a.label = label.map(str::to_owned);
    if let Some(life) = life {
        let mut w = life.split_whitespace();
        while let Some(k) = w.next() {
            let v = w.next();
            let secs = |v: Option<&str>| -> Result<Option<u64>, Error> {
                match v {
                    Some("forever") => Ok(None),
                    Some(s) => s
                        .strip_suffix("sec")
                        .and_then(|n| n.parse().ok())
                        .map(Some)
                        .ok_or_else(|| bad_addr(&format!("lifetime `{s}`"))),
                    None => Err(bad_addr("a lifetime without its value")),
                }
            };
            match k {
                "valid_lft" => {
                    a.valid_life_time = Some(secs(v)?.map_or(u32::MAX, |s| s.min(u64::from(u32::MAX)) as u32))
                }
                "preferred_lft" => a.preferred_life_time = Some(secs(v)?.map_or(i64::from(u32::MAX), |s| s as i64)),
                _ => return Err(bad_addr(&format!("lifetimes: `{k}`"))),
            }
        }
    }
    Ok(a)
}

/// `ip -o addr`: one address a line, with its device's index and name.
fn one_line_addrs(path: &Path, group: &[Record<'_>]) -> Result<Listing, Error> {
    let mut links: Vec<Link> = Vec::new();
    for r in group {
        let caps = ONE_LINE_ADDR
            .captures(r.head)
            .ok_or_else(|| bad(path, r, format!("`{}`: not an address line", r.head)))?;
        let cap = |i| caps.get(i).map_or("", |m| m.as_str());
        let index: u32 = num(path, r, "index", Some(cap(1)))?;
        let name = cap(2);
        let life = r.more.first().map(|s| s.trim()).filter(|s| s.starts_with("valid_lft"));
        if life.is_none() && r.last {
            return Err(bad(path, r, format!("{name}: `{}` without its lifetimes", cap(3))));
        }
        let a = addr(path, r, name, cap(3), life)?;
        match links.last_mut() {
            Some(l) if l.ifindex == index => l.addr_info.get_or_insert_with(Vec::new).push(a),
            _ => {
                let mut l = empty_link(index, name.to_owned());
                l.addr_info = Some(vec![a]);
                links.push(l);
            }
        }
    }
    Ok(Listing::Addrs { links, one_line: true })
}

fn route(path: &Path, r: &Record<'_>) -> Result<Route, Error> {
    let bad_route = |what: String| bad(path, r, format!("`{}`: {what}", r.head.trim()));
    let mut w = r.head.split_whitespace().peekable();
    let mut first = w.next().ok_or_else(|| bad_route("empty".into()))?;
    let mut kind = None;
    if crate::netlink::values::RouteType::from_name(first).is_some() {
        kind = Some(first.to_owned());
        first = w
            .next()
            .ok_or_else(|| bad_route("a route type without its prefix".into()))?;
    }
    if first != "default" && first.split('/').next().is_none_or(|a| a.parse::<IpAddr>().is_err()) {
        return Err(bad_route(format!("`{first}` is neither a route type nor a prefix")));
    }
    let mut route = Route::new(first.to_owned());
    route.kind = kind;
    let mut metrics = serde_json::Map::new();
    while let Some(k) = w.next() {
        let ip = |v: Option<&str>| -> Result<IpAddr, Error> {
            v.and_then(|v| v.parse().ok())
                .ok_or_else(|| bad_route(format!("`{k}` without an address")))
        };
        let value = |v: Option<&str>| -> Result<String, Error> {
            v.map(str::to_owned)
                .ok_or_else(|| bad_route(format!("`{k}` without its value")))
        };
        match k {
            "from" => route.from = Some(value(w.next())?),
            "nhid" => route.nhid = Some(num(path, r, k, w.next())?),
            "via" => {
                if matches!(w.peek(), Some(&"inet") | Some(&"inet6")) {
                    w.next();
                }
                route.gateway = Some(ip(w.next())?);
            }
            "dev" => route.dev = Some(value(w.next())?),
            "table" => route.table = Some(value(w.next())?),
            "proto" => route.protocol = Some(value(w.next())?),
            "scope" => route.scope = Some(value(w.next())?),
            "src" => route.prefsrc = Some(ip(w.next())?),
            "metric" => route.metric = Some(num(path, r, k, w.next())?),
            "pref" => route.pref = Some(value(w.next())?),
            "iif" => route.iif = Some(value(w.next())?),
            // a cached route's age: not kept (as the JSON's `expires`)
            "expires" => {
                w.next();
            }
            "lock" => {}
            "congctl" => {
                if w.peek() == Some(&"lock") {
                    w.next();
                }
                metrics.insert(
                    "congestion".into(),
                    serde_json::Value::from(w.next().unwrap_or_default()),
                );
            }
            "features" => {
                if w.next() == Some("ecn") {
                    metrics.insert("ecn".into(), serde_json::Value::from(1));
                }
            }
            "mtu" | "window" | "rtt" | "rttvar" | "ssthresh" | "cwnd" | "advmss" | "reordering" | "hoplimit"
            | "initcwnd" | "rto_min" | "initrwnd" | "quickack" | "fastopen_no_cookie" => {
                if w.peek() == Some(&"lock") {
                    w.next();
                }
                let v = w.next().unwrap_or_default();
                let n: u64 = v
                    .trim_end_matches("ms")
                    .parse()
                    .map_err(|_| bad_route(format!("`{k}` without a number")))?;
                metrics.insert(k.into(), serde_json::Value::from(n));
            }
            f if route_flag(f).is_some() => route.flags.push(f.to_owned()),
            other => return Err(bad_route(format!("`{other}` is not a word of `ip route`'s"))),
        }
    }
    if !metrics.is_empty() {
        route.metrics = Some(vec![metrics]);
    }
    let mut hops = Vec::new();
    for line in &r.more {
        let mut w = line.split_whitespace();
        if w.next() != Some("nexthop") {
            return Err(bad(path, r, format!("`{}`: not a next hop", line.trim())));
        }
        let mut h = NextHop {
            gateway: None,
            dev: None,
            weight: None,
            flags: Vec::new(),
        };
        while let Some(k) = w.next() {
            match k {
                "via" => {
                    let mut v = w.next();
                    if matches!(v, Some("inet") | Some("inet6")) {
                        v = w.next();
                    }
                    h.gateway = Some(
                        v.and_then(|v| v.parse().ok())
                            .ok_or_else(|| bad(path, r, format!("`{}`: `via` without an address", line.trim())))?,
                    );
                }
                "dev" => h.dev = w.next().map(str::to_owned),
                "weight" => h.weight = Some(num(path, r, k, w.next())?),
                f if route_flag(f).is_some() => h.flags.push(f.to_owned()),
                other => return Err(bad(path, r, format!("`{}`: next hop word `{other}`", line.trim()))),
            }
        }
        hops.push(h);
    }
    if !hops.is_empty() {
        route.nexthops = Some(hops);
    }
    // a unicast route goes somewhere: a device, a gateway or next hops
    let unicast = route.kind.as_deref().is_none_or(|k| k == "unicast");
    if unicast && route.dev.is_none() && route.gateway.is_none() && route.nexthops.is_none() && route.nhid.is_none() {
        return Err(bad_route("a unicast route with no device, gateway or next hop".into()));
    }
    Ok(route)
}

#[cfg(test)]
mod tests {
    // Tests fail by panicking.
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn prompts_name_their_command() {
        let c = prompt("$ ip -6 route show table all").unwrap();
        assert_eq!((c.object, c.v6), (Object::Route, true));
        assert_eq!(prompt("[root@node1 ~]# ip a").unwrap().object, Object::Addr);
        assert_eq!(prompt("root@node:~# sudo ip -d link").unwrap().object, Object::Link);
        assert_eq!(prompt("# ip rule").unwrap().object, Object::Rule);
        assert_eq!(prompt("ip -o addr").unwrap().object, Object::Addr);
        assert!(prompt("default via 10.0.0.1 dev eth0").is_none());
        assert!(prompt("1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536").is_none());
    }
}
