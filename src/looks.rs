//! Who looked at the kernel's tables, and when: every dump request (and
//! every GET for one object) in a capture, attributed to the library that
//! sent it by the shape of its bytes, and grouped into "looks".
//!
//! Contract: [`Looks::observe`] is fed the trace's messages in capture order
//! (one pass, bounded memory: only requests still waiting for their end are
//! held) and returns, when a request's answer ends, its [`Asked`] record.
//! [`group`] joins consecutive requests of one socket and one library into
//! [`Look`]s. Attribution only uses what the capture holds: request length,
//! body shape, flags, the sequence number's pattern and the port id the
//! kernel's replies carry. A shape no rule knows is `unknown`, never a
//! guess; every attribution says its evidence.

use serde::Serialize;

use crate::capture::Timestamp;
use crate::model::ObjectKind;
use crate::netlink::Body;
use crate::netlink::names::{
    NLM_F_ACK, NLM_F_DUMP, NLM_F_MULTI, NLM_F_REQUEST, NLMSG_DONE, NLMSG_ERROR, RTM_GETADDR, RTM_GETLINK, RTM_GETROUTE,
};
use crate::netlink::values::{AddressFamily, TableId};
use crate::trace::TraceMessage;

/// The program or library a request's shape points to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Library {
    /// Go's `net.Interfaces()` / `Addrs()` / `InterfaceAddrs()`
    /// (`syscall.NetlinkRIB`): a 1-byte `rtgenmsg`, seq 1.
    GoNet,
    /// vishvananda/netlink (Calico's bulk address list, flannel): full
    /// family header, small counting sequence numbers.
    GoVishvananda,
    /// glibc `getaddrinfo`'s `__check_pf`: one RTM_GETADDR, 20 bytes, seq =
    /// the Unix time.
    GlibcGetaddrinfo,
    /// glibc `getaddrinfo`'s `__check_native`: an RTM_GETLINK right after
    /// its `__check_pf`.
    GlibcCheckNative,
    /// glibc `getifaddrs()`: RTM_GETLINK then RTM_GETADDR, 20 bytes each,
    /// seq T then T+1 on one socket.
    GlibcGetifaddrs,
    /// iproute2 (`ip addr`, `ip link`, `ip route`): full family header,
    /// seq = the Unix time plus a count.
    Iproute2,
    /// systemd's sd-netlink (nss-myhostname, networkd): full header, ACK asked.
    SystemdNetlink,
    /// No known library sends a request of that shape.
    Unknown,
}

impl Library {
    /// Every library, in the order `nlorder -G values` lists them.
    pub const ALL: &'static [Library] = &[
        Library::GoNet,
        Library::GoVishvananda,
        Library::GlibcGetaddrinfo,
        Library::GlibcCheckNative,
        Library::GlibcGetifaddrs,
        Library::Iproute2,
        Library::SystemdNetlink,
        Library::Unknown,
    ];

    /// The library's identifier, as JSON spells it (`go-net`, ...) and
    /// filters compare it.
    pub fn id(self) -> &'static str {
        match self {
            Library::GoNet => "go-net",
            Library::GoVishvananda => "go-vishvananda",
            Library::GlibcGetaddrinfo => "glibc-getaddrinfo",
            Library::GlibcCheckNative => "glibc-check-native",
            Library::GlibcGetifaddrs => "glibc-getifaddrs",
            Library::Iproute2 => "iproute2",
            Library::SystemdNetlink => "systemd-netlink",
            Library::Unknown => "unknown",
        }
    }

    /// The library's name as `who` prints it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Library::GoNet => "Go net (net.Interfaces / Addrs)",
            Library::GoVishvananda => "Go vishvananda/netlink",
            Library::GlibcGetaddrinfo => "glibc getaddrinfo (__check_pf)",
            Library::GlibcCheckNative => "glibc getaddrinfo (__check_native)",
            Library::GlibcGetifaddrs => "glibc getifaddrs",
            Library::Iproute2 => "iproute2",
            Library::SystemdNetlink => "systemd sd-netlink",
            Library::Unknown => "unknown",
        }
    }

    /// Go programs (Calico, kubelet, flannel, Go's resolver).
    pub fn is_go(self) -> bool {
        matches!(self, Library::GoNet | Library::GoVishvananda)
    }

    /// glibc's getaddrinfo (getent, Python, Go with cgo, most C programs).
    pub fn is_glibc_getaddrinfo(self) -> bool {
        matches!(self, Library::GlibcGetaddrinfo | Library::GlibcCheckNative)
    }
}

/// How surely a request's shape names its library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// A guess, or no library at all.
    Unknown,
    /// The shape fits the library, but another could send it too.
    Likely,
    /// Only that library sends this shape.
    Certain,
}

impl Confidence {
    /// The word `who` prints.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Confidence::Certain => "certain",
            Confidence::Likely => "likely",
            Confidence::Unknown => "unknown",
        }
    }
}

/// One dump request (or GET for one object) and how its answer went.
#[derive(Debug, Clone, Serialize)]
pub struct Asked {
    /// The request's packet.
    pub packet: u64,
    /// When the request was captured.
    #[serde(skip)]
    pub ts: Option<Timestamp>,
    /// The table asked for: links, addresses or routes.
    pub kind: ObjectKind,
    /// AF_UNSPEC, AF_INET, ...: the family asked for.
    pub family: AddressFamily,
    /// A dump (NLM_F_DUMP), not a GET of one object.
    pub dump: bool,
    /// The request's `nlmsg_len`, in bytes.
    pub len: u32,
    /// The request's `nlmsg_flags`.
    pub flags: u16,
    /// The request's `nlmsg_seq`.
    pub seq: u32,
    /// The requester's netlink port id, as the kernel's replies carry it
    /// (usually the process id); None when no reply was captured.
    pub port: Option<u32>,
    /// Objects the kernel returned.
    pub replies: u32,
    /// The packet that ended the answer (NLMSG_DONE, the reply or an error).
    pub end_packet: Option<u64>,
    /// An error the kernel answered with (negative errno).
    pub error: Option<i32>,
    /// Whether an address dump returned an IPv6 address other than ::1
    /// (what glibc's __check_pf looks for).
    pub ipv6_seen: bool,
    /// The library the request's shape points to.
    pub library: Library,
    /// How surely it does.
    pub confidence: Confidence,
    /// What in the bytes points to the library.
    pub evidence: String,
    #[serde(skip)]
    body_len: usize,
    #[serde(skip)]
    short_form: bool,
    /// The one table a route dump asked for.
    #[serde(skip)]
    table: Option<TableId>,
}

impl Asked {
    /// When the request was captured, in RFC 3339.
    pub(crate) fn time(&self) -> Option<String> {
        self.ts.map(|t| t.rfc3339())
    }

    /// `links`, `addresses (inet6)`, `link lo` ...
    pub fn asked(&self) -> String {
        let what = match (self.kind, self.dump) {
            (ObjectKind::Links, true) => "links",
            (ObjectKind::Addresses, true) => "addresses",
            (ObjectKind::Routes, true) => "routes",
            (ObjectKind::Links, false) => "one link",
            (ObjectKind::Addresses, false) => "one address",
            (ObjectKind::Routes, false) => "one route",
        };
        if self.family == AddressFamily::Unspec {
            what.to_owned()
        } else {
            format!("{what} ({})", self.family.name())
        }
    }
}

/// Requests waiting for the end of their answer, at most.
const MAX_OPEN: usize = 64;

/// The attribution state of one capture.
#[derive(Debug, Default)]
pub struct Looks {
    open: Vec<Asked>,
    /// The last finished request, for the rules that look at pairs.
    last: Option<Asked>,
}

fn kind_of(t: u16) -> Option<ObjectKind> {
    match t {
        RTM_GETLINK => Some(ObjectKind::Links),
        RTM_GETADDR => Some(ObjectKind::Addresses),
        RTM_GETROUTE => Some(ObjectKind::Routes),
        _ => None,
    }
}

/// Whether `seq` reads as a Unix time near the packet's own time (glibc
/// and iproute2 seed their sequence numbers with `time(NULL)`).
fn seq_is_time(seq: u32, ts: Option<Timestamp>) -> Option<bool> {
    let ts = ts?;
    Some((i64::from(seq) - ts.secs).abs() <= 120)
}

impl Looks {
    /// The state before the capture's first message: no request seen.
    pub fn new() -> Looks {
        Looks::default()
    }

    /// Takes one message; returns a request whose answer it ended.
    pub fn observe(&mut self, m: &TraceMessage<'_>) -> Option<Asked> {
        let h = &m.message.header;
        if let Body::Request(q) = &m.decoded.body
            && h.flags & NLM_F_REQUEST != 0
        {
            let kind = kind_of(h.kind)?;
            if self.open.len() >= MAX_OPEN {
                self.open.remove(0);
            }
            self.open.push(Asked {
                packet: m.packet,
                ts: m.ts,
                kind,
                family: q.family,
                dump: h.flags & NLM_F_DUMP == NLM_F_DUMP,
                len: h.len,
                flags: h.flags,
                seq: h.seq,
                port: None,
                replies: 0,
                end_packet: None,
                error: None,
                ipv6_seen: false,
                library: Library::Unknown,
                confidence: Confidence::Unknown,
                evidence: String::new(),
                body_len: q.body_len,
                short_form: q.short_form,
                table: q.table,
            });
            return None;
        }
        if h.flags & NLM_F_REQUEST != 0 {
            return None;
        }
        // A reply: the oldest open request with its sequence number (and
        // port, once a first reply told it).
        let i = self
            .open
            .iter()
            .position(|r| r.seq == h.seq && r.port.is_none_or(|p| p == h.pid))?;
        let r = self.open.get_mut(i)?;
        r.port = Some(h.pid);
        let end = match &m.decoded.body {
            Body::Done { error } => {
                r.error = (*error != 0).then_some(*error);
                true
            }
            Body::Error(e) => {
                r.error = (e.error != 0).then_some(e.error);
                true
            }
            Body::Link(_) | Body::Route(_) => {
                r.replies += 1;
                !r.dump || h.flags & NLM_F_MULTI == 0
            }
            Body::Addr(a) => {
                r.replies += 1;
                if a.family == AddressFamily::Inet6 && a.address.is_some_and(|ip| !ip.is_loopback()) {
                    r.ipv6_seen = true;
                }
                !r.dump || h.flags & NLM_F_MULTI == 0
            }
            _ => h.kind == NLMSG_DONE || h.kind == NLMSG_ERROR,
        };
        if !end {
            return None;
        }
        let mut r = self.open.remove(i);
        r.end_packet = Some(m.packet);
        self.attribute(&mut r);
        self.last = Some(r.clone());
        Some(r)
    }

    /// Requests whose answer never ended in the capture.
    pub fn unfinished(&mut self) -> Vec<Asked> {
        let mut v: Vec<Asked> = std::mem::take(&mut self.open);
        for r in &mut v {
            self.attribute(r);
        }
        v
    }

    fn attribute(&self, r: &mut Asked) {
        let (library, confidence, evidence) = self.rules(r);
        r.library = library;
        r.confidence = confidence;
        r.evidence = evidence;
    }

    fn rules(&self, r: &Asked) -> (Library, Confidence, String) {
        let dump_flags = r.flags & !NLM_F_ACK == NLM_F_REQUEST | NLM_F_DUMP;
        let time_seq = seq_is_time(r.seq, r.ts);
        let same_port = |p: &Asked| p.port.is_some() && p.port == r.port;
        let prev = self.last.as_ref().filter(|p| same_port(p));
        if !r.dump {
            if !r.short_form {
                return match time_seq {
                    Some(true) => (
                        Library::Iproute2,
                        Confidence::Likely,
                        format!(
                            "GET of one object, {} bytes, seq {} = the Unix time (iproute2 looks up the device it changes)",
                            r.len, r.seq
                        ),
                    ),
                    _ => (
                        Library::Unknown,
                        Confidence::Unknown,
                        format!("GET of one object, {} bytes, seq {}", r.len, r.seq),
                    ),
                };
            }
            return (
                Library::Unknown,
                Confidence::Unknown,
                format!("GET of one object, {} bytes", r.len),
            );
        }
        // Go's syscall.NetlinkRIB: header + 1-byte rtgenmsg, seq 1.
        if r.len == 17 && r.short_form && r.seq == 1 && dump_flags && r.flags & NLM_F_ACK == 0 {
            return (
                Library::GoNet,
                Confidence::Certain,
                "17 bytes (1-byte rtgenmsg), flags REQUEST|DUMP, seq 1: syscall.NetlinkRIB".into(),
            );
        }
        if r.len == 17 && r.short_form && dump_flags && time_seq == Some(true) {
            return (
                Library::Unknown,
                Confidence::Unknown,
                format!(
                    "17 bytes (1-byte rtgenmsg) like Go's, but seq {} = the Unix time, not 1 \
                     (nlorder record's legacy form sends this)",
                    r.seq
                ),
            );
        }
        // glibc: struct { nlmsghdr; rtgenmsg; pad[3] }, ROOT|MATCH|REQUEST, seq = time(NULL).
        if r.len == 20
            && r.short_form
            && r.body_len == 4
            && r.flags == NLM_F_REQUEST | NLM_F_DUMP
            && r.family == AddressFamily::Unspec
        {
            let timed = match time_seq {
                Some(true) => format!("seq {} = the Unix time", r.seq),
                Some(false) => format!("seq {} (not the Unix time of the packet)", r.seq),
                None => format!("seq {}", r.seq),
            };
            let sure = if time_seq == Some(true) {
                Confidence::Certain
            } else {
                Confidence::Likely
            };
            match r.kind {
                ObjectKind::Addresses => {
                    if let Some(p) =
                        prev.filter(|p| p.kind == ObjectKind::Links && p.len == 20 && p.seq.wrapping_add(1) == r.seq)
                    {
                        return (
                            Library::GlibcGetifaddrs,
                            sure,
                            format!(
                                "20 bytes (rtgenmsg + 3 padding), {timed}, right after RTM_GETLINK seq {} on the same socket: getifaddrs()",
                                p.seq
                            ),
                        );
                    }
                    return (
                        Library::GlibcGetaddrinfo,
                        sure,
                        format!("20 bytes (rtgenmsg + 3 padding), flags ROOT|MATCH|REQUEST, {timed}: __check_pf"),
                    );
                }
                ObjectKind::Links => {
                    if prev.is_some_and(|p| p.library == Library::GlibcGetaddrinfo) {
                        return (
                            Library::GlibcCheckNative,
                            sure,
                            format!(
                                "20 bytes, {timed}, right after __check_pf's dump on the same port: __check_native"
                            ),
                        );
                    }
                    return (
                        Library::GlibcGetifaddrs,
                        Confidence::Likely,
                        format!("20 bytes (rtgenmsg + 3 padding), {timed}: getifaddrs() (or __check_native)"),
                    );
                }
                ObjectKind::Routes => {}
            }
        }
        // Full family headers: iproute2 (time-seeded seq) or vishvananda (a counter).
        if !r.short_form && dump_flags {
            if r.flags & NLM_F_ACK != 0 {
                return (
                    Library::SystemdNetlink,
                    Confidence::Likely,
                    format!(
                        "{} bytes, full family header, flags REQUEST|ACK|DUMP: sd-netlink (e.g. nss-myhostname)",
                        r.len
                    ),
                );
            }
            match time_seq {
                Some(true) => {
                    // iproute2's link dumps carry IFLA_EXT_MASK (an ifinfomsg
                    // and attributes); its address dump follows one on the
                    // same socket; `ip route` asks for table main.
                    let ext_mask = r.kind == ObjectKind::Links && r.body_len > 16;
                    let after_ip = prev.is_some_and(|p| p.library == Library::Iproute2);
                    let main_table = r.kind == ObjectKind::Routes && r.table == Some(TableId::Main);
                    if ext_mask || after_ip || main_table {
                        let why = if ext_mask {
                            "a link dump with attributes (IFLA_EXT_MASK)"
                        } else if after_ip {
                            "right after iproute2's link dump on the same socket"
                        } else {
                            "asks for table main"
                        };
                        return (
                            Library::Iproute2,
                            Confidence::Likely,
                            format!(
                                "{} bytes, full family header, seq {} = the Unix time plus a count, {why}",
                                r.len, r.seq
                            ),
                        );
                    }
                    return (
                        Library::Unknown,
                        Confidence::Unknown,
                        format!(
                            "{} bytes, full family header, seq {} = the Unix time: iproute2's shape without its \
                             IFLA_EXT_MASK (nlorder record, pyroute2 and others send this too)",
                            r.len, r.seq
                        ),
                    );
                }
                Some(false) if r.seq < 1_000_000 => {
                    // vishvananda/netlink counts from 1 with full headers,
                    // and so do Rust's netlink crates, libnl and others:
                    // the shape does not say which program it was.
                    return (
                        Library::Unknown,
                        Confidence::Unknown,
                        format!(
                            "{} bytes, full family header, counting seq {}: a netlink library's own counter \
                             (vishvananda/netlink, Rust's netlink crates and libnl all send this shape)",
                            r.len, r.seq
                        ),
                    );
                }
                _ => {}
            }
        }
        (
            Library::Unknown,
            Confidence::Unknown,
            format!(
                "{} bytes, flags {:#x}, seq {}: no known library sends this shape",
                r.len, r.flags, r.seq
            ),
        )
    }
}

/// Consecutive requests of one socket and one program: what it saw at once.
#[derive(Debug, Clone, Serialize)]
pub struct Look {
    /// 1-based, in capture order.
    pub number: usize,
    /// The library its requests point to.
    pub library: Library,
    /// How surely they do (the least sure of its requests).
    pub confidence: Confidence,
    /// The requester's netlink port id (usually its process id); `None`
    /// when no reply was captured.
    pub port: Option<u32>,
    /// Packets of its requests.
    pub requests: Vec<u64>,
    /// The tables its dumps listed (links, addresses, routes).
    pub asked: Vec<ObjectKind>,
    /// The packet its last answer ended in: the moment a replay of it uses.
    pub end_packet: u64,
    /// When its first request was captured.
    #[serde(skip)]
    pub ts: Option<Timestamp>,
    /// What the look tells about the program, e.g. `IPv6 present = yes`.
    pub implies: Vec<String>,
}

/// The program family a look's library belongs to (glibc's check_native
/// belongs to its getaddrinfo; Go's net and vishvananda to one Go program).
fn program(l: Library) -> u8 {
    match l {
        Library::GoNet | Library::GoVishvananda => 1,
        Library::GlibcGetaddrinfo | Library::GlibcCheckNative => 2,
        Library::GlibcGetifaddrs => 3,
        Library::Iproute2 => 4,
        Library::SystemdNetlink => 5,
        Library::Unknown => 0,
    }
}

/// Requests closer than this (and of one port and program) are one look.
const LOOK_GAP_NANOS: i128 = 2_000_000_000;

/// Groups requests, fed in capture order (by request packet), into looks.
#[derive(Debug, Default)]
struct Grouper {
    looks: Vec<Look>,
    last_ts: Option<Timestamp>,
}

impl Grouper {
    /// Puts `r` in a look: the last one or a new one; returns its number
    /// (`None`: a GET, in no look).
    fn push(&mut self, r: &Asked) -> Option<usize> {
        if !r.dump {
            return None;
        }
        let last_ts = self.last_ts;
        let joins = self.looks.last().is_some_and(|l| {
            l.port.is_some()
                && l.port == r.port
                && program(l.library) == program(r.library)
                && r.library != Library::Unknown
                && match (last_ts, r.ts) {
                    (Some(a), Some(b)) => (b.as_nanos() - a.as_nanos()).abs() <= LOOK_GAP_NANOS,
                    _ => true,
                }
        });
        if joins && let Some(l) = self.looks.last_mut() {
            l.requests.push(r.packet);
            if !l.asked.contains(&r.kind) {
                l.asked.push(r.kind);
            }
            l.end_packet = r.end_packet.unwrap_or(r.packet).max(l.end_packet);
            l.confidence = l.confidence.min(r.confidence);
            if r.library == Library::GlibcGetaddrinfo {
                l.library = r.library;
            }
            add_implications(l, r);
        } else {
            let mut l = Look {
                number: self.looks.len() + 1,
                library: r.library,
                confidence: r.confidence,
                port: r.port,
                requests: vec![r.packet],
                asked: vec![r.kind],
                end_packet: r.end_packet.unwrap_or(r.packet),
                ts: r.ts,
                implies: Vec::new(),
            };
            add_implications(&mut l, r);
            self.looks.push(l);
        }
        self.last_ts = r.ts;
        self.looks.last().map(|l| l.number)
    }
}

/// Groups requests (in capture order) into looks.
pub fn group(requests: &[Asked]) -> Vec<Look> {
    let mut g = Grouper::default();
    for r in requests {
        g.push(r);
    }
    g.looks
}

fn add_implications(l: &mut Look, r: &Asked) {
    let say = |l: &mut Look, s: String| {
        if !l.implies.contains(&s) {
            l.implies.push(s);
        }
    };
    match (r.library, r.kind) {
        (Library::GlibcGetaddrinfo, ObjectKind::Addresses) => {
            let v6 = if r.ipv6_seen { "yes" } else { "no" };
            say(
                l,
                format!("glibc getaddrinfo sorted its answers here: IPv6 present = {v6}"),
            );
            if !r.ipv6_seen {
                say(
                    l,
                    "without IPv6 glibc drops what this dump returned: rule 9 only tells a source equal to the destination".into(),
                );
            }
        }
        (Library::GlibcCheckNative, _) => say(
            l,
            "two candidates used different interfaces: glibc asked which are tunnels (rule 7)".into(),
        ),
        (Library::GoNet, ObjectKind::Links) => say(l, format!("a Go program enumerated {} interfaces here", r.replies)),
        (Library::GoNet | Library::GoVishvananda, ObjectKind::Addresses) => {
            say(l, "a Go program listed addresses here".into())
        }
        (Library::GlibcGetifaddrs, ObjectKind::Addresses) => {
            say(l, format!("getifaddrs() listed {} addresses here", r.replies))
        }
        _ => {}
    }
}

/// Requests and looks of a whole trace, as `nlorder who` prints them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Who {
    /// Every request, in capture order (empty unless the collector was made
    /// by [`Collector::listing`]).
    pub requests: Vec<Asked>,
    /// The requests grouped into looks, in capture order.
    pub looks: Vec<Look>,
}

/// A request whose answer just ended: what `--at auto` needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// The library the request's shape points to.
    pub library: Library,
    /// It was a dump, not a GET of one object.
    pub dump: bool,
    /// The requester's port id (usually its process id).
    pub port: Option<u32>,
}

/// Collects the looks of a trace (feed it with `read_trace`), and with
/// [`Collector::listing`] every request too. Requests are grouped as soon
/// as no earlier one is still waiting for its answer, so memory holds the
/// looks and at most the open requests, not every request of the capture.
#[derive(Debug, Default)]
pub struct Collector {
    looks: Looks,
    keep_requests: bool,
    /// Answered requests not yet grouped (an earlier one is still open).
    waiting: Vec<Asked>,
    requests: Vec<Asked>,
    grouper: Grouper,
}

impl Collector {
    /// A collector that also keeps every request (for `nlorder who`).
    pub fn listing() -> Collector {
        Collector {
            keep_requests: true,
            ..Collector::default()
        }
    }

    /// Takes one message; returns what ended when it ended a request.
    pub fn observe(&mut self, m: &TraceMessage<'_>) -> Option<Ended> {
        let r = self.looks.observe(m)?;
        let ended = Ended {
            library: r.library,
            dump: r.dump,
            port: r.port,
        };
        self.wait(r, None);
        Some(ended)
    }

    /// [`Collector::observe`], returning the whole request whose answer
    /// the message ended, and the requests it let the collector group (by
    /// their packet), each with the number of the look it joined (`None`:
    /// a GET, in no look). A request is grouped once no earlier one still
    /// waits for its answer: usually where its own answer ended.
    pub fn observe_grouped(&mut self, m: &TraceMessage<'_>) -> (Option<Asked>, Vec<(u64, Option<usize>)>) {
        let mut grouped = Vec::new();
        let Some(r) = self.looks.observe(m) else {
            return (None, grouped);
        };
        self.wait(r.clone(), Some(&mut grouped));
        (Some(r), grouped)
    }

    /// The request a reply answers while its answer is under way (before
    /// the reply is observed; not yet attributed to a library).
    pub fn answering(&self, m: &TraceMessage<'_>) -> Option<&Asked> {
        let h = &m.message.header;
        if h.flags & NLM_F_REQUEST != 0 {
            return None;
        }
        self.looks
            .open
            .iter()
            .find(|r| r.seq == h.seq && r.port.is_none_or(|p| p == h.pid))
    }

    /// Requests whose answer has not ended (yet), oldest first.
    pub fn unanswered(&self) -> &[Asked] {
        &self.looks.open
    }

    /// Requests not grouped into looks yet (answered or not), by packet:
    /// [`Collector::finish`] groups them.
    pub fn ungrouped(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self.waiting.iter().chain(&self.looks.open).map(|r| r.packet).collect();
        v.sort_unstable();
        v
    }

    /// An answered request waits until every earlier one is answered too,
    /// then joins its look (said in `grouped`).
    fn wait(&mut self, r: Asked, mut grouped: Option<&mut Vec<(u64, Option<usize>)>>) {
        self.waiting.push(r);
        let oldest_open = self.looks.open.iter().map(|o| o.packet).min();
        self.waiting.sort_by_key(|w| w.packet);
        let ready = match oldest_open {
            Some(p) => self.waiting.iter().take_while(|w| w.packet < p).count(),
            None => self.waiting.len(),
        };
        let drained: Vec<Asked> = self.waiting.drain(..ready).collect();
        for w in drained {
            let packet = w.packet;
            let look = self.take(w);
            if let Some(g) = grouped.as_deref_mut() {
                g.push((packet, look));
            }
        }
    }

    fn take(&mut self, r: Asked) -> Option<usize> {
        let look = self.grouper.push(&r);
        if self.keep_requests {
            self.requests.push(r);
        }
        look
    }

    /// The looks (and requests) of the whole trace, requests whose answer
    /// never ended included.
    pub fn finish(mut self) -> Who {
        let mut rest = std::mem::take(&mut self.waiting);
        rest.extend(self.looks.unfinished());
        rest.sort_by_key(|r| r.packet);
        for r in rest {
            let _ = self.take(r);
        }
        Who {
            requests: self.requests,
            looks: self.grouper.looks,
        }
    }
}

/// The program a replay stands for, as `--at auto` looks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Looker {
    /// A Go program: Calico, kubelet, flannel.
    Go,
    /// Go's own resolver (`netdns=go`): it asks netlink for nothing (it
    /// learns sources by connecting UDP sockets), but the program around
    /// it usually enumerates its interfaces (kubelet does), and that dump's
    /// port id is its process id. Its moment is inferred from the looks of
    /// Go programs whose port never sent glibc's `__check_pf` (a port that
    /// did is a cgo program, whose lookups go through glibc).
    GoResolver,
    /// glibc's getaddrinfo.
    GlibcGetaddrinfo,
    /// A resolver that never asks netlink for the tables and lives in no
    /// program that does (musl's learns its sources by connecting UDP
    /// sockets): no dump in a capture shows when it ran.
    Nobody,
}

impl Looker {
    /// Whether a request of `l` may end a look of this program (for Go's
    /// resolver, before its port is known not to be a cgo program's).
    pub fn wants(self, l: Library) -> bool {
        match self {
            Looker::Go | Looker::GoResolver => l.is_go(),
            Looker::GlibcGetaddrinfo => l.is_glibc_getaddrinfo(),
            Looker::Nobody => false,
        }
    }

    /// The program's name in `--at auto`'s messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Looker::Go => "Go program",
            Looker::GoResolver => "Go program",
            Looker::GlibcGetaddrinfo => "glibc getaddrinfo",
            Looker::Nobody => "resolver that asks netlink for nothing",
        }
    }

    /// Whether a look of this program only suggests when it resolved (the
    /// moment is inferred, not seen).
    pub fn inferred(self) -> bool {
        self == Looker::GoResolver
    }
}

/// Ports of Go programs' looks that also sent glibc's `__check_pf` (or
/// `__check_native`) in `looks`: Go programs built with cgo, whose lookups
/// go through glibc, so not Go's own resolver.
fn cgo_ports(looks: &[Look]) -> std::collections::BTreeSet<u32> {
    let glibc: std::collections::BTreeSet<u32> = looks
        .iter()
        .filter(|l| l.library.is_glibc_getaddrinfo())
        .filter_map(|l| l.port)
        .collect();
    looks
        .iter()
        .filter(|l| l.library.is_go())
        .filter_map(|l| l.port)
        .filter(|p| glibc.contains(p))
        .collect()
}

/// `links and addresses`.
fn kinds(asked: &[ObjectKind]) -> String {
    let names: Vec<&str> = [
        (ObjectKind::Links, "links"),
        (ObjectKind::Addresses, "addresses"),
        (ObjectKind::Routes, "routes"),
    ]
    .iter()
    .filter(|(k, _)| asked.contains(k))
    .map(|(_, n)| *n)
    .collect();
    match names.as_slice() {
        [one] => (*one).to_owned(),
        [a, b] => format!("{a} and {b}"),
        _ => names.join(", "),
    }
}

/// The looks `--at auto` replays: the last one of `who` (every one with
/// `every`), each with the reason it was chosen; empty when there is none.
///
/// For Go's own resolver ([`Looker::GoResolver`]) the looks are those of Go
/// programs whose port sent no `__check_pf` anywhere in the capture, and
/// the reason says the moment is inferred.
pub fn choose(looks: &[Look], who: Looker, every: bool) -> Vec<(Look, String)> {
    let cgo = match who {
        Looker::GoResolver => cgo_ports(looks),
        _ => std::collections::BTreeSet::new(),
    };
    let mut picked: Vec<&Look> = looks
        .iter()
        .filter(|l| who.wants(l.library) && !l.port.is_some_and(|p| cgo.contains(&p)))
        .collect();
    let total = picked.len();
    if !every && let Some(last) = picked.pop() {
        picked = vec![last];
    }
    let (label, why) = if who.inferred() {
        let left_out = match cgo.len() {
            0 => String::new(),
            n => format!(
                "; port{} {} also sent __check_pf: {}, left out",
                if n == 1 { "" } else { "s" },
                cgo.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
                if n == 1 { "a cgo program" } else { "cgo programs" },
            ),
        };
        (
            ", inferred",
            format!(
                ". Go's own resolver asks netlink for nothing; the program that resolves usually enumerates \
                 its interfaces too, and a look's port is its process id{left_out}"
            ),
        )
    } else {
        ("", String::new())
    };
    picked
        .into_iter()
        .map(|l| {
            let which = if every {
                format!("look {} of the capture", l.number)
            } else {
                format!("the last of {total} {} looks", who.name())
            };
            let port = l.port.map(|p| format!(", port {p}")).unwrap_or_default();
            (
                l.clone(),
                format!(
                    "--at auto{label}: {which}: {} ({}){port}, requests in packets {}; its {} as those dumps returned them{why}",
                    l.library.name(),
                    l.confidence.name(),
                    l.requests.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
                    kinds(&l.asked),
                ),
            )
        })
        .collect()
}
