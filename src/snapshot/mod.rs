//! A snapshot: what `ip -j` printed on a host (`ip -j [-d] link show`,
//! `ip -j [-d] addr show`, `ip -j route show table all`, `ip -j -6 route
//! show table all`), read instead of a capture.
//!
//! Contract: [`load`] takes a directory (every file in it, whatever its
//! name) or one file, each holding one or more of those outputs (JSON
//! documents one after another), or the combined object the project's
//! own recordings keep beside a capture (`*.ip.json`: `link`, `addr`,
//! `route4`/`route6` or `route`, with `kernel` and the like). Each output is
//! recognised by its content: an array whose objects hold `addr_info` is
//! `addr show`, one whose objects hold `ifname` and no `addr_info` is
//! `link show`, one whose objects hold `dst` is a route listing, its family
//! read from each route's addresses (`dst`, `gateway`, `prefsrc`) or, where
//! they say nothing (`default`), from `pref`, which only IPv6 routes carry.
//! The JSON is parsed with serde into typed values (enums for names, with
//! `Other` for a name nlorder does not know), and turned into what a
//! capture of the same moment would hold: one link, one address and one
//! route dump, each its request and its replies as the kernel lays them out
//! (`ifinfomsg`, `ifaddrmsg`, `rtmsg` and their attributes, native byte
//! order), written as an in-memory nlmon capture. Why that and not filling
//! the model's tables directly: every subcommand, every kernel-order rule
//! and every replay then reads a snapshot exactly as it reads the final
//! dumps of a capture, through the one decoder and the one model, so the
//! two cannot drift apart. What the snapshot lacks is returned as
//! [`Gap`]s for the caller to say; input that holds no address listing, an
//! empty directory, JSON of another command or a truncated paste is an
//! [`Error`] naming what is missing.

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Deserialize;
use serde_json::Value;

use crate::netlink::names::{
    AF_INET, AF_INET6, AF_UNSPEC, NLM_F_DUMP, NLM_F_MULTI, NLM_F_REQUEST, NLMSG_DONE, RTM_GETADDR, RTM_GETLINK,
    RTM_GETROUTE, RTM_NEWADDR, RTM_NEWLINK, RTM_NEWROUTE,
};
use crate::netlink::values::{RouteProtocol, RouteType, Scope, TableId};
use crate::record::{CaptureWriter, FileFormat};

mod error;
mod sos;
mod text;
mod values;

pub use error::Error;
use values::{Addr, AddrFamily, AddrGenMode, Link, LinkFlag, Route, route_flag};

/// What a snapshot does not show, said by the caller as an assumption.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gap {
    /// No `ip link show`: the links are those of `ip addr show`, in its order.
    NoLinkOutput,
    /// `ip` without `-d`: no link kinds, no `addr_gen_mode`.
    NoDetails,
    /// No IPv4 route listing: the IPv4 route table is taken to be empty.
    NoIpv4Routes,
    /// No IPv6 route listing: the IPv6 route table is taken to be empty.
    NoIpv6Routes,
    /// `ip rule` output was given but is not read: lookups rest on the
    /// default rules.
    RulesNotRead,
    /// Devices in one hash bucket of a kernel that dumps links by bucket
    /// (before 6.9, or a release not given): their order is that of their
    /// creation at the snapshot, newest first; a program that listed the
    /// links before one of them was made again saw another order.
    SharedBuckets {
        /// Whether the kernel release is known (and before 6.9).
        kernel_known: bool,
        /// The devices sharing a bucket, in the snapshot's order.
        links: Vec<String>,
    },
    /// Addresses with finite lifetimes: what `ip` printed when it ran; at
    /// another moment they were longer, or gone.
    Lifetimes {
        /// The addresses (`ADDR/LEN on DEV`).
        addresses: Vec<String>,
    },
}

/// A snapshot read and turned into capture bytes.
#[derive(Debug)]
pub struct Snapshot {
    /// An nlmon-format pcap holding one dump of each table.
    pub capture: Vec<u8>,
    /// What it was read from and what it lacks.
    pub facts: Facts,
}

/// What a snapshot was read from, and what it lacks.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Facts {
    /// The form of its input.
    pub form: Form,
    /// The kernel release, where the input names it (the recordings'
    /// combined form, a sosreport's `uname -a`).
    pub kernel: Option<String>,
    /// What the snapshot lacks.
    pub gaps: Vec<Gap>,
}

/// The form a snapshot was given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    /// `ip -j` JSON.
    IpJson,
    /// `ip`'s text output (a ticket's paste).
    IpText,
    /// Both, in one directory or paste.
    Mixed,
    /// A sosreport (directory or tarball).
    Sosreport,
}

/// Several files or directories given as one snapshot, joined by commas
/// (`addr.txt,route.txt`, or `NODE=addr.txt,route.txt` where a node is
/// named): the parts, when `path` itself does not exist and every part
/// does.
fn several(path: &Path) -> Option<Vec<PathBuf>> {
    let s = path.to_str()?;
    if !s.contains(',') || path.exists() {
        return None;
    }
    let parts: Vec<PathBuf> = s.split(',').filter(|p| !p.is_empty()).map(PathBuf::from).collect();
    parts.iter().all(|p| p.exists()).then_some(parts)
}

/// Whether `path` looks like a snapshot rather than a capture: a
/// directory, or a regular file whose first byte that is not white space
/// opens JSON (a pipe is always a capture).
pub fn is_snapshot(path: &Path) -> bool {
    if path.is_dir() || several(path).is_some() {
        return true;
    }
    // Only a regular file is peeked at: a pipe's bytes would be consumed.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    if sos::is_report(path) {
        return true;
    }
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let mut buf = [0u8; 512];
    let Ok(n) = io::Read::read(&mut f, &mut buf) else {
        return false;
    };
    let head = buf.get(..n).unwrap_or_default();
    // JSON, or text: no byte a capture's headers are full of (NUL and the
    // other control bytes but tab and line ends)
    head.iter().any(|b| !b.is_ascii_whitespace())
        && head.iter().all(|b| *b >= 0x20 || matches!(b, b'\t' | b'\n' | b'\r'))
}

/// The project's recordings: `ip -j` output kept beside a capture.
#[derive(Debug, Deserialize)]
struct Combined {
    link: Option<Vec<Link>>,
    addr: Option<Vec<Link>>,
    route4: Option<Vec<Route>>,
    route6: Option<Vec<Route>>,
    route: Option<Vec<Route>>,
    kernel: Option<String>,
}

// ---- reading ----

#[derive(Default)]
struct Found {
    links: Option<Vec<Link>>,
    addrs: Option<Vec<Link>>,
    routes4: Option<Vec<Route>>,
    routes6: Option<Vec<Route>>,
    kernel: Option<String>,
    /// The addresses are `ip -o addr`'s: links by index and name only.
    addrs_one_line: bool,
    /// Policy rules listed (`ip rule`), which a snapshot does not use yet.
    rules: usize,
    /// A sosreport's `sysctl -a`, per device.
    sysctl: Option<BTreeMap<String, sos::DevSysctl>>,
    /// JSON was read, text was read.
    json: bool,
    text: bool,
}

fn route_is_v6(r: &Route) -> bool {
    let v6 = |a: &IpAddr| a.is_ipv6();
    if r.dst.contains(':') || r.gateway.as_ref().is_some_and(v6) || r.prefsrc.as_ref().is_some_and(v6) {
        return true;
    }
    if r.dst.contains('.') || r.gateway.is_some() || r.prefsrc.is_some() {
        return false;
    }
    r.pref.is_some()
}

impl Found {
    /// One route listing: each family it holds replaces what an earlier
    /// listing held of it (`ip route show table all` prints both families
    /// on current iproute2, and `ip -6 route show table all` after it the
    /// IPv6 routes again). An empty listing whose command named its family
    /// (`family`) says that family's table is empty.
    fn routes(&mut self, routes: Vec<Route>, family: Option<AddrFamily>) {
        let (v6, v4): (Vec<Route>, Vec<Route>) = routes.into_iter().partition(route_is_v6);
        if v4.is_empty() && v6.is_empty() {
            match family {
                Some(AddrFamily::Inet) => _ = self.routes4.get_or_insert_with(Vec::new),
                Some(AddrFamily::Inet6) => _ = self.routes6.get_or_insert_with(Vec::new),
                None => {}
            }
            return;
        }
        if !v4.is_empty() {
            self.routes4 = Some(v4);
        }
        if !v6.is_empty() {
            self.routes6 = Some(v6);
        }
    }

    /// A listing of `ip`'s text output.
    fn listing(&mut self, l: text::Listing) {
        match l {
            text::Listing::Links(l) => self.links = Some(l),
            text::Listing::Addrs { links, one_line } => {
                // (`ip addr` with its link lines says more than `ip -o addr`)
                if !(one_line && self.addrs.is_some() && !self.addrs_one_line) {
                    self.addrs = Some(links);
                    self.addrs_one_line = one_line;
                }
            }
            text::Listing::Routes { routes, family } => self.routes(routes, family),
            text::Listing::Rules(n) => self.rules += n,
        }
    }

    fn value(&mut self, path: &Path, v: Value) -> Result<(), Error> {
        let malformed = |what: &str, e: serde_json::Error| Error::Malformed {
            path: path.to_owned(),
            what: format!("{what}: {e}"),
        };
        match v {
            Value::Object(m) if m.contains_key("addr") || m.contains_key("link") => {
                let c: Combined = serde_json::from_value(Value::Object(m))
                    .map_err(|e| malformed("not the combined `ip -j` form (link, addr, route4, route6)", e))?;
                if c.link.is_some() {
                    self.links = c.link;
                }
                if c.addr.is_some() {
                    self.addrs = c.addr;
                }
                if let Some(r) = c.route4 {
                    self.routes4 = Some(r);
                }
                if let Some(r) = c.route6 {
                    self.routes6 = Some(r);
                }
                if let Some(r) = c.route {
                    self.routes(r, None);
                }
                self.kernel = c.kernel.or(self.kernel.take());
                Ok(())
            }
            Value::Array(items) => {
                let has = |k: &str| items.iter().any(|i| i.get(k).is_some());
                if items.is_empty() {
                    // `ip -j route show` of an empty table, say: nothing to tell.
                    return Ok(());
                }
                if has("addr_info") {
                    let l: Vec<Link> = serde_json::from_value(Value::Array(items))
                        .map_err(|e| malformed("`ip -j addr show` output", e))?;
                    self.addrs = Some(l);
                } else if has("ifname") {
                    let l: Vec<Link> = serde_json::from_value(Value::Array(items))
                        .map_err(|e| malformed("`ip -j link show` output", e))?;
                    self.links = Some(l);
                } else if has("dst") {
                    let r: Vec<Route> = serde_json::from_value(Value::Array(items))
                        .map_err(|e| malformed("`ip -j route show` output", e))?;
                    self.routes(r, None);
                } else {
                    let keys: Vec<String> = items
                        .iter()
                        .filter_map(Value::as_object)
                        .flat_map(|o| o.keys().cloned())
                        .take(4)
                        .collect();
                    return Err(Error::Foreign {
                        path: path.to_owned(),
                        what: format!(
                            "an array with neither `addr_info`, `ifname` nor `dst` (keys: {})",
                            if keys.is_empty() {
                                "none".to_owned()
                            } else {
                                keys.join(", ")
                            }
                        ),
                    });
                }
                Ok(())
            }
            Value::Object(m) => Err(Error::Foreign {
                path: path.to_owned(),
                what: format!(
                    "an object with keys {}",
                    m.keys().take(4).cloned().collect::<Vec<_>>().join(", ")
                ),
            }),
            other => Err(Error::Foreign {
                path: path.to_owned(),
                what: format!("a JSON {}", json_kind(&other)),
            }),
        }
    }

    fn file(&mut self, path: &Path) -> Result<(), Error> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_owned(),
            source,
        })?;
        self.bytes(path, &bytes)
    }

    /// Every file of a directory, in the order of their names.
    fn dir(&mut self, path: &Path) -> Result<(), Error> {
        let io_err = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(io_err)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(Error::NoAddresses(path.to_owned()));
        }
        for f in files {
            // Files other than `ip` output (a capture beside it, a
            // sosreport's tarball): passed over.
            if !is_snapshot(&f) || sos::is_report(&f) {
                continue;
            }
            self.file(&f)?;
        }
        Ok(())
    }

    /// One file's bytes: JSON or text.
    fn bytes(&mut self, path: &Path, bytes: &[u8]) -> Result<(), Error> {
        if !opens_json(bytes) {
            self.text = true;
            let text = String::from_utf8_lossy(bytes);
            for l in text::parse(path, &text)? {
                self.listing(l);
            }
            return Ok(());
        }
        self.json = true;
        let mut any = false;
        for v in serde_json::Deserializer::from_slice(bytes).into_iter::<Value>() {
            let v = v.map_err(|e| Error::NotJson {
                path: path.to_owned(),
                why: if e.is_eof() {
                    format!("cut short ({e}): a truncated paste?")
                } else {
                    e.to_string()
                },
            })?;
            self.value(path, v)?;
            any = true;
        }
        if !any {
            return Err(Error::NotJson {
                path: path.to_owned(),
                why: "empty".into(),
            });
        }
        Ok(())
    }
}

/// Whether `bytes` open JSON as `ip -j` prints it (an object, or an array
/// of objects), not text (a prompt such as `[root@node ~]# ip addr` opens
/// with `[` too).
fn opens_json(bytes: &[u8]) -> bool {
    let mut b = bytes.iter().filter(|b| !b.is_ascii_whitespace());
    match b.next() {
        Some(b'{') => true,
        Some(b'[') => matches!(b.next(), Some(b'{' | b']') | None),
        _ => false,
    }
}

/// A release's major and minor (`6.1.0-50-amd64`: 6, 1).
fn release(k: &str) -> Option<(u32, u32)> {
    let mut parts = k.split(|c: char| !c.is_ascii_digit());
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A file of the `etc/` of the sosreport at `path` (`hosts`, `gai.conf`,
/// `host.conf`), as text; `None` when `path` is no sosreport or the
/// report holds no such file.
pub fn etc_file(path: &Path, name: &str) -> Option<String> {
    sos::Tree::open(path).ok().flatten()?.etc(name)
}

/// Reads the snapshot at `path` (a directory or a file).
pub fn load(path: &Path) -> Result<Snapshot, Error> {
    let mut found = Found::default();
    let report = sos::Tree::open(path)?;
    if let Some(tree) = &report {
        for (name, text) in tree.ip_outputs() {
            let file = path.join(&name);
            if opens_json(text.split_once('\n').map_or("", |(_, t)| t).as_bytes()) {
                found.bytes(&file, text.split_once('\n').map_or("", |(_, t)| t).as_bytes())?;
            } else {
                for l in text::parse(&file, &text)? {
                    found.listing(l);
                }
            }
        }
        found.kernel = tree.kernel();
        found.sysctl = tree.sysctl();
    } else if let Some(parts) = several(path) {
        for p in parts {
            if p.is_dir() {
                found.dir(&p)?;
            } else {
                found.file(&p)?;
            }
        }
    } else if path.is_dir() {
        found.dir(path)?;
    } else {
        found.file(path)?;
    }
    let Some(addrs) = found.addrs.take() else {
        return Err(Error::NoAddresses(path.to_owned()));
    };
    if found.addrs_one_line && found.links.is_none() {
        return Err(Error::NoLinkState(path.to_owned()));
    }
    let mut gaps = Vec::new();
    let links = match found.links.take() {
        Some(l) => l,
        None => {
            gaps.push(Gap::NoLinkOutput);
            addrs.clone()
        }
    };
    if !links
        .iter()
        .any(|l| l.linkinfo.is_some() || l.inet6_addr_gen_mode.is_some())
    {
        gaps.push(Gap::NoDetails);
    }
    if found.routes4.is_none() {
        gaps.push(Gap::NoIpv4Routes);
    }
    if found.routes6.is_none() {
        gaps.push(Gap::NoIpv6Routes);
    }
    if found.rules > 0 {
        gaps.push(Gap::RulesNotRead);
    }
    let buckets = match found.kernel.as_deref().and_then(release) {
        Some(v) => (v < (6, 9)).then_some(true),
        None => Some(false),
    };
    if let Some(kernel_known) = buckets {
        let mut shared: Vec<String> = Vec::new();
        for l in &links {
            if links
                .iter()
                .any(|o| o.ifindex != l.ifindex && o.ifindex & 255 == l.ifindex & 255)
            {
                shared.push(l.ifname.clone());
            }
        }
        if !shared.is_empty() {
            gaps.push(Gap::SharedBuckets {
                kernel_known,
                links: shared,
            });
        }
    }
    let finite: Vec<String> = addrs
        .iter()
        .flat_map(|l| {
            l.addr_info
                .iter()
                .flatten()
                .filter(|a| a.valid_life_time.is_some_and(|v| v != u32::MAX))
                .map(move |a| format!("{}/{} on {}", a.local, a.prefixlen, l.ifname))
        })
        .collect();
    if !finite.is_empty() {
        gaps.push(Gap::Lifetimes { addresses: finite });
    }
    let b = Builder::new(path, &links, found.sysctl.as_ref());
    let when = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH);
    // (a release the input names goes where a capture names it, the pcapng
    // section's shb_os, so that its kernel's rules and build apply)
    let mut w = match found.kernel.as_deref() {
        Some(k) => CaptureWriter::naming(Vec::new(), FileFormat::Pcapng, Some(k)),
        None => CaptureWriter::new(Vec::new(), FileFormat::Pcap),
    }
    .map_err(Error::Build)?;
    // One dump: its request (of `kind`, with `header` as its family
    // header), then its replies in buffers of up to 32 KiB, then NLMSG_DONE.
    let dump = |w: &mut CaptureWriter<Vec<u8>>, seq: u32, kind: u16, header: &[u8], replies: Vec<Vec<u8>>| {
        let req = message(kind, NLM_F_REQUEST | NLM_F_DUMP, seq, header);
        w.write(&req, when).map_err(Error::Build)?;
        let mut buf = Vec::new();
        for m in replies {
            if buf.len() + m.len() > 32 * 1024 && !buf.is_empty() {
                w.write(&buf, when).map_err(Error::Build)?;
                buf.clear();
            }
            buf.extend_from_slice(&m);
        }
        buf.extend_from_slice(&message(NLMSG_DONE, NLM_F_MULTI, seq, &0i32.to_ne_bytes()));
        w.write(&buf, when).map_err(Error::Build)?;
        Ok(())
    };
    let link_msgs = links.iter().map(|l| b.link(l, 1)).collect::<Result<Vec<_>, _>>()?;
    dump(&mut w, 1, RTM_GETLINK, &[0u8; 16], link_msgs)?;
    let mut addr_msgs = Vec::new();
    for l in &addrs {
        for a in l.addr_info.iter().flatten() {
            addr_msgs.push(b.addr(l, a, 2)?);
        }
    }
    dump(&mut w, 2, RTM_GETADDR, &[0u8; 8], addr_msgs)?;
    let mut route_msgs = Vec::new();
    for (family, routes) in [(AF_INET, &found.routes4), (AF_INET6, &found.routes6)] {
        for r in routes.iter().flatten() {
            route_msgs.push(b.route(family, r, 3)?);
        }
    }
    let mut rtm = [0u8; 12];
    rtm[0] = AF_UNSPEC;
    dump(&mut w, 3, RTM_GETROUTE, &rtm, route_msgs)?;
    let form = match (report.is_some(), found.json, found.text) {
        (true, _, _) => Form::Sosreport,
        (false, true, true) => Form::Mixed,
        (false, false, true) => Form::IpText,
        (false, _, false) => Form::IpJson,
    };
    Ok(Snapshot {
        capture: w.into_inner(),
        facts: Facts {
            form,
            kernel: found.kernel,
            gaps,
        },
    })
}

// ---- the dumps, as the kernel lays them out ----

/// The port nlmon shows for the asking socket.
const PORT: u32 = 4242;

fn message(kind: u16, flags: u16, seq: u32, body: &[u8]) -> Vec<u8> {
    let len = 16 + body.len();
    let mut m = Vec::with_capacity(align(len));
    m.extend_from_slice(&(len as u32).to_ne_bytes());
    m.extend_from_slice(&kind.to_ne_bytes());
    m.extend_from_slice(&flags.to_ne_bytes());
    m.extend_from_slice(&seq.to_ne_bytes());
    m.extend_from_slice(&PORT.to_ne_bytes());
    m.extend_from_slice(body);
    m.resize(align(len), 0);
    m
}

fn align(n: usize) -> usize {
    (n + 3) & !3
}

fn attr(out: &mut Vec<u8>, kind: u16, value: &[u8]) {
    let len = 4 + value.len();
    out.extend_from_slice(&(len as u16).to_ne_bytes());
    out.extend_from_slice(&kind.to_ne_bytes());
    out.extend_from_slice(value);
    out.resize(align(out.len()), 0);
}

fn attr_str(out: &mut Vec<u8>, kind: u16, s: &str) {
    let mut v = s.as_bytes().to_vec();
    v.push(0);
    attr(out, kind, &v);
}

fn ip_bytes(a: IpAddr) -> Vec<u8> {
    match a {
        IpAddr::V4(v) => v.octets().to_vec(),
        IpAddr::V6(v) => v.octets().to_vec(),
    }
}

const NLA_F_NESTED: u16 = 0x8000;

struct Builder<'a> {
    path: &'a Path,
    index: HashMap<String, u32>,
    sysctl: Option<&'a BTreeMap<String, sos::DevSysctl>>,
}

impl<'a> Builder<'a> {
    fn new(path: &'a Path, links: &[Link], sysctl: Option<&'a BTreeMap<String, sos::DevSysctl>>) -> Builder<'a> {
        Builder {
            path,
            index: links.iter().map(|l| (l.ifname.clone(), l.ifindex)).collect(),
            sysctl,
        }
    }

    fn bad(&self, what: String) -> Error {
        Error::Malformed {
            path: self.path.to_owned(),
            what,
        }
    }

    fn ifindex(&self, name: &str) -> Result<u32, Error> {
        // `ip` names a device it cannot name `ifN` (another namespace's).
        if let Some(i) = self.index.get(name) {
            return Ok(*i);
        }
        name.strip_prefix("if")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| self.bad(format!("device `{name}` is in no link listing")))
    }

    fn link(&self, l: &Link, seq: u32) -> Result<Vec<u8>, Error> {
        let mut flags = 0u32;
        let mut carrier = true;
        for f in &l.flags {
            match f {
                LinkFlag::NoCarrier => carrier = false,
                LinkFlag::MDown => {}
                LinkFlag::Bit(b) => flags |= b,
                LinkFlag::Other(n) => return Err(self.bad(format!("{}: unknown link flag `{n}`", l.ifname))),
            }
        }
        const IFF_UP: u32 = 0x1;
        const IFF_RUNNING: u32 = 0x40;
        if flags & IFF_UP != 0 && carrier {
            flags |= IFF_RUNNING;
        }
        let dev_type = l.link_type.as_deref().map_or(Ok(1), |t| {
            link_type(t).ok_or_else(|| self.bad(format!("{}: unknown link_type `{t}`", l.ifname)))
        })?;
        let mut body = Vec::new();
        body.push(AF_UNSPEC);
        body.push(0);
        body.extend_from_slice(&dev_type.to_ne_bytes());
        body.extend_from_slice(&(l.ifindex as i32).to_ne_bytes());
        body.extend_from_slice(&flags.to_ne_bytes());
        body.extend_from_slice(&0u32.to_ne_bytes());
        attr_str(&mut body, 3, &l.ifname); // IFLA_IFNAME
        if let Some(q) = l.txqlen {
            attr(&mut body, 13, &q.to_ne_bytes());
        }
        if let Some(s) = l.operstate {
            attr(&mut body, 16, &[s as u8]);
        }
        if let Some(m) = &l.linkmode {
            attr(&mut body, 17, &[u8::from(m == "DORMANT")]);
        }
        if let Some(m) = l.mtu {
            attr(&mut body, 4, &m.to_ne_bytes());
        }
        if let Some(g) = &l.group {
            let g: u32 = if g == "default" {
                0
            } else {
                g.parse::<i32>().map(|g| g as u32).unwrap_or(0)
            };
            attr(&mut body, 27, &g.to_ne_bytes());
        }
        if let Some(m) = &l.master {
            attr(&mut body, 10, &self.ifindex(m)?.to_ne_bytes());
        }
        match (&l.link, l.link_index) {
            (_, Some(i)) => attr(&mut body, 5, &i.to_ne_bytes()),
            (Some(None), _) => attr(&mut body, 5, &0u32.to_ne_bytes()),
            (Some(Some(n)), _) => attr(&mut body, 5, &self.ifindex(n)?.to_ne_bytes()),
            (None, None) => {}
        }
        if let Some(q) = &l.qdisc {
            attr_str(&mut body, 6, q);
        }
        // (a namespace named but its id unknown: -1, as the kernel says
        // of a namespace it has no id for)
        if let Some(id) = l.link_netnsid.or(l.link_netns.as_ref().map(|_| -1)) {
            attr(&mut body, 37, &id.to_ne_bytes());
        }
        if let Some(a) = &l.ifalias {
            attr_str(&mut body, 20, a);
        }
        attr(&mut body, 33, &[u8::from(carrier)]); // IFLA_CARRIER
        if l.proto_down {
            attr(&mut body, 39, &[1]);
        }
        if let Some(a) = &l.address {
            attr(&mut body, 1, &self.ll_addr(l, a)?);
        }
        if let Some(a) = &l.broadcast {
            attr(&mut body, 2, &self.ll_addr(l, a)?);
        }
        if let Some(a) = &l.permaddr {
            attr(&mut body, 54, &self.ll_addr(l, a)?);
        }
        if !l.altnames.is_empty() {
            let mut list = Vec::new();
            for n in &l.altnames {
                attr_str(&mut list, 53, n);
            }
            attr(&mut body, 52 | NLA_F_NESTED, &list);
        }
        if let Some(info) = &l.linkinfo {
            let mut nest = Vec::new();
            if let Some(k) = &info.info_kind {
                attr_str(&mut nest, 1, k);
            }
            if let Some(k) = &info.info_slave_kind {
                attr_str(&mut nest, 4, k);
            }
            attr(&mut body, 18 | NLA_F_NESTED, &nest);
        }
        // IFLA_AF_SPEC: `ip -d`'s addrgenmode, and a sosreport's
        // `sysctl -a` for the device (the devconf arrays hold, of what
        // nlorder reads, only the entries sysctl printed; the others are 0)
        let sysctl = self.sysctl.and_then(|s| s.get(&l.ifname)).copied().unwrap_or_default();
        let mode = match &l.inet6_addr_gen_mode {
            Some(mode) => Some(match mode {
                AddrGenMode::Eui64 => 0u8,
                AddrGenMode::None => 1,
                AddrGenMode::StableSecret => 2,
                AddrGenMode::Random => 3,
                AddrGenMode::Other(n) => {
                    return Err(self.bad(format!("{}: unknown inet6_addr_gen_mode `{n}`", l.ifname)));
                }
            }),
            None => sysctl.addr_gen_mode,
        };
        let mut spec = Vec::new();
        if let Some(p) = sysctl.promote_secondaries {
            // IPV4_DEVCONF_PROMOTE_SECONDARIES is entry 19 of ipv4_devconf
            let mut conf = vec![0u8; 20 * 4];
            conf.splice(19 * 4..20 * 4, p.to_ne_bytes());
            let mut inet = Vec::new();
            attr(&mut inet, 1, &conf); // IFLA_INET_CONF
            attr(&mut spec, u16::from(AF_INET) | NLA_F_NESTED, &inet);
        }
        let mut inet6 = Vec::new();
        if let (Some(ra), Some(tmp), Some(dis), Some(dad)) = (
            sysctl.accept_ra,
            sysctl.use_tempaddr,
            sysctl.disable_ipv6,
            sysctl.accept_dad,
        ) {
            // DEVCONF_ACCEPT_RA 3, USE_TEMPADDR 10, DISABLE_IPV6 26, ACCEPT_DAD 27
            let mut conf = vec![0u8; 28 * 4];
            for (i, v) in [(3usize, ra), (10, tmp), (26, dis), (27, dad)] {
                conf.splice(i * 4..i * 4 + 4, v.to_ne_bytes());
            }
            attr(&mut inet6, 2, &conf); // IFLA_INET6_CONF
        }
        if let Some(m) = mode {
            attr(&mut inet6, 8, &[m]); // IFLA_INET6_ADDR_GEN_MODE
        }
        if !inet6.is_empty() {
            attr(&mut spec, u16::from(AF_INET6) | NLA_F_NESTED, &inet6);
        }
        if !spec.is_empty() {
            attr(&mut body, 26 | NLA_F_NESTED, &spec); // IFLA_AF_SPEC
        }
        Ok(message(RTM_NEWLINK, NLM_F_MULTI, seq, &body))
    }

    /// A link-layer address as `ip` prints it: hex bytes, or an IP address
    /// for the tunnels.
    fn ll_addr(&self, l: &Link, a: &str) -> Result<Vec<u8>, Error> {
        if let Ok(ip) = a.parse::<IpAddr>() {
            return Ok(ip_bytes(ip));
        }
        if a.is_empty() {
            return Ok(Vec::new());
        }
        a.split(':')
            .map(|x| u8::from_str_radix(x, 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|_| self.bad(format!("{}: link-layer address `{a}`", l.ifname)))
    }

    fn addr(&self, l: &Link, a: &Addr, seq: u32) -> Result<Vec<u8>, Error> {
        let mut flags: u32 = 0;
        for (set, bit) in [
            (a.secondary || a.temporary, 0x01),
            (a.nodad, 0x02),
            (a.optimistic, 0x04),
            (a.dadfailed, 0x08),
            (a.home, 0x10),
            (a.deprecated, 0x20),
            (a.tentative, 0x40),
            (!a.dynamic, 0x80),
            (a.mngtmpaddr, 0x100),
            (a.noprefixroute, 0x200),
            (a.autojoin, 0x400),
            (a.stable_privacy, 0x800),
        ] {
            if set {
                flags |= bit;
            }
        }
        if let Some(h) = &a.ifa_flags {
            flags |= u32::from_str_radix(h, 16).map_err(|_| self.bad(format!("{}: ifa_flags `{h}`", l.ifname)))?;
        }
        let family = match a.family {
            AddrFamily::Inet => AF_INET,
            AddrFamily::Inet6 => AF_INET6,
        };
        let mut body = vec![family, a.prefixlen, flags as u8, scope(a.scope.as_deref(), self)?];
        body.extend_from_slice(&l.ifindex.to_ne_bytes());
        let peer = a.address.unwrap_or(a.local);
        attr(&mut body, 1, &ip_bytes(peer)); // IFA_ADDRESS
        if family == AF_INET || a.address.is_some() {
            attr(&mut body, 2, &ip_bytes(a.local)); // IFA_LOCAL
        }
        if family == AF_INET {
            attr_str(&mut body, 3, a.label.as_deref().unwrap_or(&l.ifname));
        }
        if let Some(b) = a.broadcast {
            attr(&mut body, 4, &ip_bytes(b));
        }
        let valid = a.valid_life_time.unwrap_or(u32::MAX);
        let preferred = a.preferred_life_time.map_or(u32::MAX, |p| p as u32);
        let mut ci = Vec::new();
        for v in [preferred, valid, 0, 0] {
            ci.extend_from_slice(&v.to_ne_bytes());
        }
        attr(&mut body, 6, &ci); // IFA_CACHEINFO
        attr(&mut body, 8, &flags.to_ne_bytes()); // IFA_FLAGS
        if let Some(m) = a.metric {
            attr(&mut body, 9, &m.to_ne_bytes());
        }
        Ok(message(RTM_NEWADDR, NLM_F_MULTI, seq, &body))
    }

    fn route(&self, family: u8, r: &Route, seq: u32) -> Result<Vec<u8>, Error> {
        let host = if family == AF_INET6 { 128 } else { 32 };
        let (dst, dst_len) = self.prefix(&r.dst, host)?;
        let (src, src_len) = match &r.from {
            Some(f) => self.prefix(f, host)?,
            None => (None, 0),
        };
        let kind = route_type(r.kind.as_deref()).ok_or_else(|| self.bad(format!("route type {:?}", r.kind)))?;
        let table = table_id(r.table.as_deref()).ok_or_else(|| self.bad(format!("route table {:?}", r.table)))?;
        let protocol = protocol(r.protocol.as_deref()).ok_or_else(|| self.bad(format!("protocol {:?}", r.protocol)))?;
        let mut flags = 0u32;
        for f in &r.flags {
            flags |= route_flag(f).ok_or_else(|| self.bad(format!("route flag `{f}`")))?;
        }
        let sc = match &r.scope {
            Some(s) => scope(Some(s), self)?,
            None => 0,
        };
        let mut body = vec![family, dst_len, src_len, 0, table.min(255) as u8, protocol, sc, kind];
        if table > 255
            && let Some(t) = body.get_mut(4)
        {
            *t = 252; // RT_TABLE_COMPAT
        }
        body.extend_from_slice(&flags.to_ne_bytes());
        attr(&mut body, 15, &table.to_ne_bytes()); // RTA_TABLE
        if let Some(d) = dst {
            attr(&mut body, 1, &ip_bytes(d));
        }
        if let Some(s) = src {
            attr(&mut body, 2, &ip_bytes(s));
        }
        if let Some(m) = r.metric {
            attr(&mut body, 6, &m.to_ne_bytes());
        }
        if let Some(p) = r.prefsrc {
            attr(&mut body, 7, &ip_bytes(p));
        }
        if let Some(g) = r.gateway {
            attr(&mut body, 5, &ip_bytes(g));
        }
        if let Some(d) = &r.dev {
            attr(&mut body, 4, &self.ifindex(d)?.to_ne_bytes());
        }
        if let Some(i) = &r.iif {
            attr(&mut body, 3, &self.ifindex(i)?.to_ne_bytes());
        }
        if let Some(id) = r.nhid {
            attr(&mut body, 30, &id.to_ne_bytes());
        }
        if let Some(ms) = &r.metrics {
            let mut nest = Vec::new();
            for m in ms {
                for (k, v) in m {
                    self.metric(&mut nest, k, v)?;
                }
            }
            attr(&mut body, 8 | NLA_F_NESTED, &nest);
        }
        if let Some(hops) = &r.nexthops {
            let mut mp = Vec::new();
            for h in hops {
                let mut attrs = Vec::new();
                if let Some(g) = h.gateway {
                    attr(&mut attrs, 5, &ip_bytes(g));
                }
                let mut hflags = 0u32;
                for f in &h.flags {
                    hflags |= route_flag(f).ok_or_else(|| self.bad(format!("next hop flag `{f}`")))?;
                }
                let ifindex = match &h.dev {
                    Some(d) => self.ifindex(d)?,
                    None => 0,
                };
                let len = 8 + attrs.len();
                mp.extend_from_slice(&(len as u16).to_ne_bytes());
                mp.push(hflags as u8);
                mp.push(h.weight.unwrap_or(1).saturating_sub(1).min(255) as u8);
                mp.extend_from_slice(&(ifindex as i32).to_ne_bytes());
                mp.extend_from_slice(&attrs);
            }
            attr(&mut body, 9, &mp); // RTA_MULTIPATH
        }
        if family == AF_INET6 {
            let p = match r.pref.as_deref() {
                None | Some("medium") => 0u8,
                Some("high") => 1,
                Some("low") => 3,
                Some(n) => n.parse().map_err(|_| self.bad(format!("route pref `{n}`")))?,
            };
            attr(&mut body, 20, &[p]); // RTA_PREF
        }
        Ok(message(RTM_NEWROUTE, NLM_F_MULTI, seq, &body))
    }

    fn metric(&self, nest: &mut Vec<u8>, k: &str, v: &Value) -> Result<(), Error> {
        if k == "congestion" {
            attr_str(nest, 16, v.as_str().unwrap_or_default());
            return Ok(());
        }
        if k == "ecn" {
            attr(nest, 12, &1u32.to_ne_bytes());
            return Ok(());
        }
        let Some(i) = crate::netlink::names::RTAX_NAMES
            .iter()
            .position(|n| *n == k)
            .filter(|i| *i >= 2)
        else {
            return Err(self.bad(format!("route metric `{k}`")));
        };
        let n = match v {
            Value::Number(n) => n.as_u64().unwrap_or(0) as u32,
            Value::String(s) => s
                .strip_prefix("0x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .unwrap_or(0),
            _ => return Err(self.bad(format!("route metric `{k}`: {v}"))),
        };
        let n = match i {
            4 => n.saturating_mul(8),
            5 => n.saturating_mul(4),
            _ => n,
        };
        attr(nest, i as u16, &n.to_ne_bytes());
        Ok(())
    }

    fn prefix(&self, p: &str, host: u8) -> Result<(Option<IpAddr>, u8), Error> {
        if p == "default" {
            return Ok((None, 0));
        }
        let (a, len) = match p.split_once('/') {
            Some((a, l)) => (a, l.parse().map_err(|_| self.bad(format!("prefix `{p}`")))?),
            None => (p, host),
        };
        let a: IpAddr = a.parse().map_err(|_| self.bad(format!("prefix `{p}`")))?;
        Ok((Some(a), len))
    }
}

/// `ip`'s scope name as its number (global when not printed; iproute2
/// reads `universe` too).
fn scope(s: Option<&str>, b: &Builder<'_>) -> Result<u8, Error> {
    match s {
        None | Some("universe") => Ok(Scope::Universe.number()),
        Some(n) => Scope::from_name(n)
            .map(Scope::number)
            .ok_or_else(|| b.bad(format!("scope `{n}`"))),
    }
}

fn link_type(t: &str) -> Option<u16> {
    crate::netlink::names::link_type_number(t)
}

/// The route's type, table and protocol as `ip` names them (the word
/// `ip` leaves out when it is the usual one: unicast, main, boot).
fn route_type(t: Option<&str>) -> Option<u8> {
    t.map_or(Some(RouteType::Unicast), RouteType::from_name)
        .map(RouteType::number)
}

fn table_id(t: Option<&str>) -> Option<u32> {
    t.map_or(Some(TableId::Main), TableId::from_name).map(TableId::number)
}

fn protocol(p: Option<&str>) -> Option<u8> {
    p.map_or(Some(RouteProtocol::Boot), RouteProtocol::from_name)
        .map(RouteProtocol::number)
}

#[cfg(test)]
mod tests {
    // Tests fail by panicking.
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn bad_input_is_named() {
        let dir = std::env::temp_dir().join(format!("nlorder-snap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = load(&dir).unwrap_err().to_string();
        assert!(e.contains("no `ip addr show` output"), "{e}");
        let f = dir.join("cut.json");
        std::fs::write(&f, br#"[{"ifindex":1,"ifname":"lo","addr_info":[{"fam"#).unwrap();
        let e = load(&f).unwrap_err().to_string();
        assert!(e.contains("cut short"), "{e}");
        std::fs::write(&f, br#"[{"pid":1,"comm":"x"}]"#).unwrap();
        let e = load(&f).unwrap_err().to_string();
        assert!(e.contains("another command"), "{e}");
        std::fs::write(&f, br#"[{"ifindex":1,"ifname":"lo","flags":[]}]"#).unwrap();
        let e = load(&f).unwrap_err().to_string();
        assert!(e.contains("no `ip addr show`"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
