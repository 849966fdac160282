//! Compact decoding of NETLINK_ROUTE messages: what every later layer sees.
//!
//! Contract: [`decode`] turns one framed [`Message`] into a [`Decoded`] value
//! that borrows names and labels from the record and never allocates. The
//! fixed headers are read through the checked views of `netlink::wire`. It
//! is lenient the way the kernel is: a short (`rtgenmsg`) request body, a
//! malformed or unknown attribute, or a non-UTF-8 name never loses the
//! message; the first such problem is recorded in [`Decoded::problem`] and
//! the rest of the message is still used. A link, address, route or error
//! body too short for its fixed header, or a done body of 1 to 3 bytes, is
//! kept as [`Body::Truncated`] with that problem. Works in either byte
//! order.
//!
//! This is the decoder on the hot path (`table`, `detect`, ...). The full,
//! strict decoding through netlink-packet-route lives in `netlink::strict`;
//! the test suite checks that both agree on every message of every fixture.

use std::net::IpAddr;

use super::names::*;
use super::values::{AddressFamily, RouteProtocol, RouteType, Scope, TableId};
use super::wire::{
    Attr, AttrError, Attrs, ByteOrder, Header, IfAddrMsg, IfInfoMsg, Message, NlMsgDone, NlMsgErr, NlMsgHdr, RtGenMsg,
    RtMsg, WireError, nlmsg_align,
};

/// One decoded message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The message's `nlmsghdr`.
    pub header: Header,
    /// What follows it, decoded by message type.
    pub body: Body<'a>,
    /// The first thing that was wrong with the message, if anything.
    pub problem: Option<Problem>,
}

impl Decoded<'_> {
    /// Sent by user space to the kernel (`NLM_F_REQUEST`).
    pub fn is_request(&self) -> bool {
        self.header.flags & NLM_F_REQUEST != 0
    }

    /// Sent by user space to the kernel, with or without `NLM_F_REQUEST`:
    /// a request, a message of a type the kernel never sends (`RTM_SET*`,
    /// `RTM_GET*`: it answers GETs with NEW types), or a NEW/DEL message
    /// asking for an acknowledgement (`NLM_F_ACK`, which the kernel never
    /// sets on what it sends).
    pub fn from_user_space(&self) -> bool {
        from_user_space(self.header.kind, self.header.flags)
    }

    /// Sent by user space without `NLM_F_REQUEST`: `netlink_rcv_skb` hands
    /// such a message to no handler and only acknowledges it, so it changes
    /// nothing in the kernel.
    pub fn ignored_by_kernel(&self) -> bool {
        !self.is_request() && self.from_user_space()
    }

    /// Part of a multipart reply (`NLM_F_MULTI`): a dump entry.
    pub fn is_multi(&self) -> bool {
        self.header.flags & NLM_F_MULTI != 0
    }

    /// The table changed while the dump this entry belongs to was taken
    /// (`NLM_F_DUMP_INTR`).
    pub fn is_dump_interrupted(&self) -> bool {
        self.header.flags & NLM_F_DUMP_INTR != 0
    }
}

/// Whether a message with this header was sent by user space (see
/// [`Decoded::from_user_space`]).
pub fn from_user_space(kind: u16, flags: u16) -> bool {
    if flags & NLM_F_REQUEST != 0 {
        return true;
    }
    if kind < RTM_NEWLINK {
        return false;
    }
    // RTM types come in fours: NEW, DEL, GET, SET.
    matches!(kind % 4, 2 | 3) || flags & NLM_F_ACK != 0
}

/// The body of a message, by its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body<'a> {
    /// RTM_NEWLINK / RTM_DELLINK / RTM_SETLINK (and GETLINK replies).
    Link(Link<'a>),
    /// RTM_NEWADDR / RTM_DELADDR.
    Addr(Addr<'a>),
    /// RTM_NEWROUTE / RTM_DELROUTE.
    Route(Route<'a>),
    /// RTM_NEWRULE / RTM_DELRULE, and RTM_GETRULE (a dump request names
    /// the family it asks for).
    Rule(super::rule::Rule<'a>),
    /// RTM_GETLINK / RTM_GETADDR / RTM_GETROUTE requests.
    Request(Request<'a>),
    /// NLMSG_DONE: the end of a dump.
    Done {
        /// The dump's (negative) errno; 0 when it succeeded, and when the
        /// body is empty.
        error: i32,
    },
    /// NLMSG_ERROR: the kernel's ACK or refusal of a request.
    Error(ErrorMsg<'a>),
    /// NLMSG_NOOP.
    Noop,
    /// A NETLINK_ROUTE message type nlorder does not model (neighbours, ...).
    Other,
    /// The fixed header of a known type did not fit; see `problem`.
    Truncated,
}

/// What was wrong with a message that was nevertheless kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// The fixed family header (`ifinfomsg`, `ifaddrmsg`, `rtmsg`, errno) is short.
    ShortBody {
        /// Bytes the header needs.
        needed: usize,
        /// Bytes the body had.
        got: usize,
    },
    /// An attribute length is impossible; attributes after it are lost.
    Attr(AttrError),
    /// A known attribute has the wrong size for its type; it was ignored.
    AttrSize {
        /// The attribute's type.
        kind: u16,
        /// Its value's size in bytes.
        len: usize,
    },
}

impl From<WireError> for Problem {
    fn from(e: WireError) -> Self {
        Problem::ShortBody {
            needed: e.needed,
            got: e.got,
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::ShortBody { needed, got } => {
                write!(f, "body of {got} bytes is shorter than its {needed}-byte header")
            }
            Problem::Attr(e) => write!(f, "{e}; later attributes lost"),
            Problem::AttrSize { kind, len } => {
                write!(f, "attribute type {kind} has unexpected size {len}: ignored")
            }
        }
    }
}

/// `ifinfomsg` + the link attributes nlorder uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Link<'a> {
    /// `ifi_family`: AF_UNSPEC, or AF_BRIDGE for bridge port messages.
    pub family: AddressFamily,
    /// ARPHRD_* device type.
    pub dev_type: u16,
    /// `ifi_index`; 0 in a request that lets the kernel pick.
    pub index: u32,
    /// `ifi_flags` (IFF_*: up, running, lower up, ...).
    pub flags: u32,
    /// `ifi_change`: which of `flags` a request changes.
    pub change: u32,
    /// IFLA_IFNAME, raw bytes without the NUL.
    pub name: Option<&'a [u8]>,
    /// IFLA_INFO_KIND: the device kind (`veth`, `bridge`, `vlan`, ...);
    /// `None` for physical devices and loopback.
    pub kind: Option<&'a [u8]>,
    /// IFLA_INFO_SLAVE_KIND: the kind of the master the link is a port of
    /// (`bridge`, `bond`, ...).
    pub port_kind: Option<&'a [u8]>,
    /// IFLA_MASTER: the ifindex of the master; 0 in a request detaches the
    /// link.
    pub master: Option<u32>,
    /// IFLA_LINK: the ifindex of the lower device (a VLAN's parent, a veth's
    /// peer), possibly in another namespace (`link_netnsid`).
    pub link: Option<u32>,
    /// IFLA_OPERSTATE: the RFC 2863 operational state (IF_OPER_*).
    pub operstate: Option<u8>,
    /// IFLA_MTU, in bytes.
    pub mtu: Option<u32>,
    /// IFLA_ADDRESS: the link-layer (MAC) address, as many bytes as the
    /// device type has.
    pub hwaddr: Option<&'a [u8]>,
    /// The other end of a veth pair being created (`VETH_INFO_PEER`).
    pub peer: Option<Peer<'a>>,
    /// The namespace a request puts (or moves) the link in, or a
    /// notification says it was moved to (IFLA_NEW_NETNSID).
    pub netns: Option<Netns>,
    /// IFLA_LINK names a device of the namespace with this id, not of this one.
    pub link_netnsid: Option<i32>,
    /// An IPv4 tunnel's (ipip, sit, gre) endpoints as a request gives them
    /// (`IFLA_IPTUN_LOCAL`/`REMOTE`, `IFLA_GRE_LOCAL`/`REMOTE`).
    pub tunnel_local: Option<&'a [u8]>,
    /// The remote endpoint of such a tunnel, 4 bytes in network order.
    pub tunnel_remote: Option<&'a [u8]>,
    /// IFLA_BROADCAST: the link-layer broadcast address (a point-to-point
    /// link's peer).
    pub broadcast: Option<&'a [u8]>,
    /// IFLA_PERM_ADDRESS: the permanent hardware address.
    pub perm_address: Option<&'a [u8]>,
    /// IFLA_QDISC: the kind of the root queueing discipline (`noqueue`, ...).
    pub qdisc: Option<&'a [u8]>,
    /// IFLA_TXQLEN: the transmit queue length.
    pub txqlen: Option<u32>,
    /// IFLA_GROUP: the device group.
    pub group: Option<u32>,
    /// IFLA_LINKMODE: 0 default, 1 dormant.
    pub linkmode: Option<u8>,
    /// IFLA_PROTO_DOWN: a protocol (not the administrator) holds it down.
    pub proto_down: Option<u8>,
    /// IFLA_IFALIAS: the device's alias text.
    pub ifalias: Option<&'a [u8]>,
    /// The device's own IPv4 and IPv6 settings, from IFLA_AF_SPEC.
    pub conf: DevConf,
    /// IFLA_PROP_LIST: the alternative names (IFLA_ALT_IFNAME), undecoded;
    /// see [`Nest::strings`].
    pub prop_list: Option<Nest<'a>>,
}

/// A nested attribute area kept as it came, in the message's byte order:
/// walked when needed, never copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nest<'a> {
    /// The area's bytes (the nesting attribute's value).
    pub bytes: &'a [u8],
    /// The byte order of the message.
    pub order: ByteOrder,
}

impl<'a> Nest<'a> {
    /// Its readable attributes, in order; walking stops at a broken length.
    pub fn attrs(&self) -> impl Iterator<Item = Attr<'a>> + use<'a> {
        Attrs::new(self.bytes, self.order).map_while(Result::ok)
    }

    /// The values of its attributes of type `kind`, as strings without NUL.
    pub fn strings(&self, kind: u16) -> impl Iterator<Item = &'a [u8]> + use<'a> {
        self.attrs().filter(move |a| a.kind == kind).map(|a| a.cstr())
    }
}

/// One next hop of a multipath route (`struct rtnexthop` and its
/// attributes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextHop {
    /// `rtnh_flags` (RTNH_F_*: dead, onlink, linkdown, ...).
    pub flags: u8,
    /// `rtnh_hops`: the weight minus one.
    pub hops: u8,
    /// `rtnh_ifindex`: the output device.
    pub ifindex: u32,
    /// RTA_GATEWAY of this hop.
    pub gateway: Option<IpAddr>,
    /// RTA_FLOW of this hop: the realms (from << 16 | to).
    pub flow: Option<u32>,
}

impl<'a> Nest<'a> {
    /// RTA_MULTIPATH's next hops, for routes of `family`; stops at the first
    /// one whose length is impossible.
    pub fn next_hops(&self, family: AddressFamily) -> impl Iterator<Item = NextHop> + use<'a> {
        let family = u8::from(family);
        let (bytes, order) = (self.bytes, self.order);
        let mut at = 0usize;
        std::iter::from_fn(move || {
            let rest = bytes.get(at..)?;
            let len = usize::from(order.u16(rest.get(..2)?.try_into().ok()?));
            let hop = rest.get(..len).filter(|_| len >= 8)?;
            let mut nh = NextHop {
                flags: *hop.get(2)?,
                hops: *hop.get(3)?,
                ifindex: order.read_u32(hop, 4)?,
                gateway: None,
                flow: None,
            };
            for a in Attrs::new(hop.get(8..).unwrap_or_default(), order).map_while(Result::ok) {
                match a.kind {
                    RTA_GATEWAY => nh.gateway = a.ip(family),
                    RTA_FLOW => nh.flow = a.u32(order),
                    _ => {}
                }
            }
            at = at.checked_add(nlmsg_align(len))?;
            Some(nh)
        })
    }
}

/// A namespace as a request names it: the capture says which request,
/// never which namespace that is (a descriptor or id means something only
/// to the process that sent it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Netns {
    /// The network namespace of process PID (`IFLA_NET_NS_PID`).
    Pid(u32),
    /// A namespace file the requester holds open (`IFLA_NET_NS_FD`).
    Fd(u32),
    /// A namespace id of the requester's (`IFLA_TARGET_NETNSID`).
    Id(i32),
}

impl std::fmt::Display for Netns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Netns::Pid(p) => write!(f, "the namespace of pid {p}"),
            Netns::Fd(d) => write!(f, "the namespace of the requester's fd {d}"),
            Netns::Id(i) => write!(f, "the namespace of nsid {i}"),
        }
    }
}

/// The peer of a veth being created, as `VETH_INFO_PEER` asks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Peer<'a> {
    /// The requested ifindex (0: the kernel picks).
    pub index: u32,
    /// The requested name; `None` lets the kernel pick (`vethN`).
    pub name: Option<&'a [u8]>,
    /// Created in another namespace.
    pub netns: Option<Netns>,
}

/// `struct ifa_cacheinfo`: an address's lifetimes and timestamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CacheInfo {
    /// `ifa_prefered`: seconds left of the preferred lifetime (u32::MAX:
    /// forever).
    pub preferred: u32,
    /// `ifa_valid`: seconds left of the valid lifetime (u32::MAX: forever).
    pub valid: u32,
    /// When the address was created, in hundredths of a second since boot.
    pub cstamp: u32,
    /// When it was last updated, in hundredths of a second since boot.
    pub tstamp: u32,
}

/// `ifaddrmsg` + the address attributes nlorder uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Addr<'a> {
    /// `ifa_family`: AF_INET or AF_INET6.
    pub family: AddressFamily,
    /// `ifa_prefixlen`: the prefix length in bits.
    pub prefix_len: u8,
    /// IFA_FLAGS when present (32 bits), else the 8-bit header field.
    pub flags: u32,
    /// The 8-bit `ifa_flags` of the header (what glibc reads).
    pub header_flags: u8,
    /// `ifa_scope` (RT_SCOPE_*).
    pub scope: Scope,
    /// `ifa_index`: the ifindex of the address's device.
    pub index: u32,
    /// IFA_ADDRESS: the address, or on a point-to-point link the peer's
    /// (see [`Addr::ip`] and [`Addr::peer`]).
    pub address: Option<IpAddr>,
    /// IFA_LOCAL: the local address (IPv4 only).
    pub local: Option<IpAddr>,
    /// IFA_LABEL: the IPv4 label, raw bytes without the NUL.
    pub label: Option<&'a [u8]>,
    /// IFA_BROADCAST: the IPv4 broadcast address.
    pub broadcast: Option<IpAddr>,
    /// IFA_CACHEINFO: lifetimes and timestamps.
    pub cacheinfo: Option<CacheInfo>,
    /// IFA_PROTO: who added the address (IFAPROT_*).
    pub proto: Option<u8>,
    /// IFA_RT_PRIORITY: the metric of the address's prefix route.
    pub rt_priority: Option<u32>,
    /// Type of the first of IFA_ADDRESS/IFA_LOCAL in the message (Go's
    /// `newAddr` and glibc's `check_pf` pick by attribute order).
    pub first_addr_attr: Option<u16>,
}

impl Addr<'_> {
    /// The interface's own address: IFA_LOCAL if present, else IFA_ADDRESS
    /// (they differ only on point-to-point links, where IFA_ADDRESS is the peer).
    pub fn ip(&self) -> Option<IpAddr> {
        self.local.or(self.address)
    }

    /// The peer of a point-to-point address, when IFA_ADDRESS differs from IFA_LOCAL.
    pub fn peer(&self) -> Option<IpAddr> {
        match (self.local, self.address) {
            (Some(l), Some(a)) if l != a => Some(a),
            _ => None,
        }
    }
}

/// `rtmsg` + the route attributes nlorder uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Route<'a> {
    /// `rtm_family`: AF_INET or AF_INET6.
    pub family: AddressFamily,
    /// `rtm_dst_len`: the destination prefix length in bits (0: default).
    pub dst_len: u8,
    /// `rtm_src_len`: the source prefix length in bits.
    pub src_len: u8,
    /// `rtm_tos`: the TOS the route matches; 0 for any.
    pub tos: u8,
    /// RTA_TABLE when present, else the 8-bit header field.
    pub table: TableId,
    /// `rtm_protocol` (RTPROT_*): who installed the route.
    pub protocol: RouteProtocol,
    /// `rtm_scope` (RT_SCOPE_*).
    pub scope: Scope,
    /// `rtm_type` (RTN_*: unicast, local, broadcast, ...).
    pub kind: RouteType,
    /// `rtm_flags` (RTM_F_*).
    pub flags: u32,
    /// RTA_DST: the destination prefix; `None` for a default route.
    pub dst: Option<IpAddr>,
    /// RTA_SRC: the source prefix of a source-specific route.
    pub src: Option<IpAddr>,
    /// RTA_GATEWAY: the next hop; `None` for a route straight to the link.
    pub gateway: Option<IpAddr>,
    /// RTA_PREFSRC: the preferred source address.
    pub prefsrc: Option<IpAddr>,
    /// RTA_OIF: the ifindex of the output device.
    pub oif: Option<u32>,
    /// RTA_IIF: the ifindex of the input device.
    pub iif: Option<u32>,
    /// RTA_PRIORITY: the metric.
    pub priority: Option<u32>,
    /// The route has RTA_MULTIPATH next hops (which are not decoded).
    pub multipath: bool,
    /// RTA_PREF: an IPv6 router preference (RFC 4191).
    pub pref: Option<u8>,
    /// RTA_MULTIPATH, undecoded: see [`Nest::next_hops`].
    pub next_hops: Option<Nest<'a>>,
    /// RTA_METRICS (RTAX_* attributes: mtu, advmss, hoplimit, ...), undecoded.
    pub metrics: Option<Nest<'a>>,
    /// RTA_NH_ID: the nexthop object the route uses.
    pub nhid: Option<u32>,
    /// RTA_FLOW: the realms (from << 16 | to).
    pub flow: Option<u32>,
}

/// A GET request. The body may be the short `rtgenmsg` form (1 byte, or 4
/// with padding) that glibc, Go, iproute2 and pyroute2 send.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Request<'a> {
    /// The family asked for (AF_UNSPEC: all, also when the body is empty).
    pub family: AddressFamily,
    /// Interface index of a full `ifinfomsg`/`ifaddrmsg` body (0 = all).
    pub index: Option<u32>,
    /// IFLA_IFNAME of a GETLINK-by-name request.
    pub name: Option<&'a [u8]>,
    /// The one routing table a route dump asks for (`rtm_table` or
    /// RTA_TABLE; iproute2's `ip route show` asks for main). With strict
    /// checking the kernel then dumps only that table.
    pub table: Option<TableId>,
    /// The one output device a route dump asks for (RTA_OIF; `ip route
    /// show dev X`). With strict checking the kernel then dumps only its routes.
    pub oif: Option<u32>,
    /// A route dump also filtered by protocol or route type (`ip route show
    /// proto X`, `type Y`): the kernel applies such filters with strict
    /// checking; nlorder does not model them.
    pub other_filter: bool,
    /// Body shorter than the full family header (legacy `rtgenmsg`).
    pub short_form: bool,
    /// Size of the request's body in bytes.
    pub body_len: usize,
}

/// NLMSG_ERROR: an errno (0 = ACK) and the request it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorMsg<'a> {
    /// The (negative) errno; 0 for an ACK.
    pub error: i32,
    /// The header of the request answered; `None` when it is cut short.
    pub quoted: Option<Header>,
    /// NLMSGERR_ATTR_MSG of the extended ACK, if any.
    pub ext_message: Option<&'a [u8]>,
}

/// Decodes one message of the NETLINK_ROUTE family.
pub fn decode<'a>(msg: &Message<'a>) -> Decoded<'a> {
    let mut d = Decoded {
        header: msg.header,
        body: Body::Other,
        problem: None,
    };
    decode_into(msg, &mut d);
    d
}

/// [`decode`] into `d`, whatever it held: the body is written where it
/// stays (a decoded message is a few hundred bytes, and a message read
/// from a capture is decoded straight into its place, not moved there).
pub fn decode_into<'a>(msg: &Message<'a>, d: &mut Decoded<'a>) {
    let header = msg.header;
    let payload = msg.payload();
    let order = msg.order;
    d.header = header;
    d.problem = None;
    let Decoded { body, problem, .. } = d;
    match header.kind {
        NLMSG_NOOP => *body = Body::Noop,
        NLMSG_DONE => {
            *body = match NlMsgDone::new_checked(payload, order) {
                Ok(done) => Body::Done { error: done.error() },
                Err(_) if payload.is_empty() => Body::Done { error: 0 },
                Err(e) => truncated(problem, e),
            }
        }
        NLMSG_ERROR => *body = error_body(payload, order, header.flags, problem),
        _ if header.flags & NLM_F_REQUEST != 0 && matches!(header.kind, RTM_GETLINK | RTM_GETADDR | RTM_GETROUTE) => {
            *body = Body::Request(request(header.kind, payload, order, problem));
        }
        RTM_NEWLINK | RTM_DELLINK | RTM_SETLINK | RTM_GETLINK => link(payload, order, problem, body),
        RTM_NEWADDR | RTM_DELADDR | RTM_GETADDR => addr(payload, order, problem, body),
        RTM_NEWROUTE | RTM_DELROUTE | RTM_GETROUTE => route(payload, order, problem, body),
        RTM_NEWRULE | RTM_DELRULE | RTM_GETRULE => {
            *body = match rule(payload, order, problem) {
                Ok(r) => Body::Rule(r),
                // A dump request in the short rtgenmsg form: its family.
                Err(_) if header.kind == RTM_GETRULE && !payload.is_empty() => Body::Rule(Rule {
                    family: AddressFamily::from(payload.first().copied().unwrap_or_default()),
                    ..Default::default()
                }),
                Err(e) => truncated(problem, e),
            }
        }
        _ => *body = Body::Other,
    }
}

fn note(problem: &mut Option<Problem>, p: Problem) {
    problem.get_or_insert(p);
}

/// Walks attributes, recording an overrun as the message's problem.
fn each_attr<'a>(area: &'a [u8], order: ByteOrder, problem: &mut Option<Problem>, mut f: impl FnMut(Attr<'a>) -> bool) {
    for a in Attrs::new(area, order) {
        match a {
            Ok(a) => {
                if !f(a) {
                    note(
                        problem,
                        Problem::AttrSize {
                            kind: a.kind,
                            len: a.value.len(),
                        },
                    );
                }
            }
            Err(e) => note(problem, Problem::Attr(e)),
        }
    }
}

/// A body too short for its fixed header.
fn truncated(problem: &mut Option<Problem>, e: WireError) -> Body<'static> {
    note(problem, e.into());
    Body::Truncated
}

fn u32_attr(a: &Attr<'_>, order: ByteOrder, slot: &mut Option<u32>) -> bool {
    match a.u32(order) {
        Some(v) => {
            *slot = Some(v);
            true
        }
        None => false,
    }
}

fn u8_attr(a: &Attr<'_>, slot: &mut Option<u8>) -> bool {
    match a.u8() {
        Some(v) => {
            *slot = Some(v);
            true
        }
        None => false,
    }
}

fn ip_attr(a: &Attr<'_>, family: u8, slot: &mut Option<IpAddr>) -> bool {
    match a.ip(family) {
        Some(ip) => {
            *slot = Some(ip);
            true
        }
        // Other families (MPLS, AF_MCTP, ...) carry other address sizes: not an error.
        None => !matches!(family, AF_INET | AF_INET6),
    }
}

fn link<'a>(payload: &'a [u8], order: ByteOrder, problem: &mut Option<Problem>, body: &mut Body<'a>) {
    let h = match IfInfoMsg::new_checked(payload, order) {
        Ok(h) => h,
        Err(e) => {
            *body = truncated(problem, e);
            return;
        }
    };
    *body = Body::Link(Link {
        family: AddressFamily::from(h.family()),
        dev_type: h.dev_type(),
        index: h.index(),
        flags: h.flags(),
        change: h.change(),
        ..Link::default()
    });
    let Body::Link(l) = body else { return };
    each_attr(h.attrs(), order, problem, |a| match a.kind {
        IFLA_IFNAME => {
            l.name = Some(a.cstr());
            true
        }
        IFLA_ADDRESS => {
            l.hwaddr = Some(a.value);
            true
        }
        IFLA_MTU => u32_attr(&a, order, &mut l.mtu),
        IFLA_BROADCAST => {
            l.broadcast = Some(a.value);
            true
        }
        IFLA_PERM_ADDRESS => {
            l.perm_address = Some(a.value);
            true
        }
        IFLA_QDISC => {
            l.qdisc = Some(a.cstr());
            true
        }
        IFLA_IFALIAS => {
            l.ifalias = Some(a.cstr());
            true
        }
        IFLA_PROP_LIST => {
            l.prop_list = Some(Nest { bytes: a.value, order });
            true
        }
        IFLA_AF_SPEC => {
            l.conf = af_spec(a.value, order);
            true
        }
        IFLA_TXQLEN => u32_attr(&a, order, &mut l.txqlen),
        IFLA_GROUP => u32_attr(&a, order, &mut l.group),
        IFLA_LINKMODE => u8_attr(&a, &mut l.linkmode),
        IFLA_PROTO_DOWN => u8_attr(&a, &mut l.proto_down),
        IFLA_LINK => u32_attr(&a, order, &mut l.link),
        IFLA_MASTER => u32_attr(&a, order, &mut l.master),
        IFLA_OPERSTATE => match a.u8() {
            Some(s) => {
                l.operstate = Some(s);
                true
            }
            None => false,
        },
        IFLA_NET_NS_PID | IFLA_NET_NS_FD | IFLA_TARGET_NETNSID | IFLA_NEW_NETNSID | IFLA_LINK_NETNSID => {
            let Some(v) = a.u32(order) else { return false };
            match a.kind {
                IFLA_NET_NS_PID => l.netns = Some(Netns::Pid(v)),
                IFLA_NET_NS_FD => l.netns = Some(Netns::Fd(v)),
                // (a moved device's RTM_DELLINK: where it went)
                IFLA_TARGET_NETNSID | IFLA_NEW_NETNSID => l.netns = Some(Netns::Id(v as i32)),
                _ => l.link_netnsid = Some(v as i32),
            }
            true
        }
        IFLA_LINKINFO => {
            let mut inner = None;
            each_attr(a.value, order, &mut inner, |i| {
                match i.kind {
                    IFLA_INFO_KIND => l.kind = Some(i.cstr()),
                    IFLA_INFO_SLAVE_KIND => l.port_kind = Some(i.cstr()),
                    IFLA_INFO_DATA if l.kind == Some(b"veth".as_slice()) => l.peer = veth_peer(i.value, order),
                    IFLA_INFO_DATA => {
                        let (local, remote) = match l.kind {
                            Some(b"ipip" | b"sit") => (IFLA_IPTUN_LOCAL, IFLA_IPTUN_REMOTE),
                            Some(b"gre" | b"gretap" | b"erspan") => (IFLA_GRE_LOCAL, IFLA_GRE_REMOTE),
                            _ => (0, 0),
                        };
                        for x in Attrs::new(i.value, order).flatten() {
                            if x.value.len() != 4 {
                                continue;
                            }
                            if local != 0 && x.kind == local {
                                l.tunnel_local = Some(x.value);
                            } else if remote != 0 && x.kind == remote {
                                l.tunnel_remote = Some(x.value);
                            }
                        }
                    }
                    _ => {}
                }
                true
            });
            inner.is_none()
        }
        _ => true,
    });
}

/// The per-device settings a link message carries in IFLA_AF_SPEC: from
/// `AF_INET`'s `IFLA_INET_CONF` (the `ipv4_devconf` array, entry N-1 for
/// `IPV4_DEVCONF_N`) and `AF_INET6`'s `IFLA_INET6_CONF` (the
/// `ipv6_devconf` array, entry N for `DEVCONF_N`) and
/// `IFLA_INET6_ADDR_GEN_MODE`. `None` where the message did not carry it.
///
/// Read here rather than through netlink-packet-route's `AfSpecUnspec`,
/// which reads the arrays in the machine's byte order: a capture from a
/// big-endian host read on a little-endian one would get every value
/// wrong (the unit test holds both readings equal on a little-endian
/// capture).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DevConf {
    /// `net.ipv4.conf.DEV.promote_secondaries`.
    pub promote_secondaries: Option<bool>,
    /// `net.ipv6.conf.DEV.disable_ipv6`.
    pub disable_ipv6: Option<bool>,
    /// `net.ipv6.conf.DEV.accept_ra`.
    pub accept_ra: Option<i32>,
    /// `net.ipv6.conf.DEV.use_tempaddr`.
    pub use_tempaddr: Option<i32>,
    /// `net.ipv6.conf.DEV.accept_dad`.
    pub accept_dad: Option<i32>,
    /// `IFLA_INET6_ADDR_GEN_MODE`: 0 EUI-64, 1 none, 2 stable privacy, 3 random.
    pub addr_gen_mode: Option<u8>,
    /// `IFLA_INET6_FLAGS`: the device's `inet6_dev.if_flags`; bit 31 is
    /// `IF_READY`, set when addrconf configured the device after it last
    /// went up and cleared only when it goes down (`addrconf_ifdown`).
    pub inet6_flags: Option<u32>,
}

impl DevConf {
    /// Whether the message carried any setting at all.
    pub fn is_known(&self) -> bool {
        *self != DevConf::default()
    }

    /// Whether the message shows the device's IPv6 configured since it
    /// last went up (`IF_READY`); `None` where it carried no IPv6 flags.
    pub fn ipv6_ready(&self) -> Option<bool> {
        self.inet6_flags.map(|f| f & IF_READY != 0)
    }
}

/// `IF_READY` in `inet6_dev.if_flags` (include/net/if_inet6.h).
const IF_READY: u32 = 0x8000_0000;
const IFLA_INET6_FLAGS: u16 = 1;

const IFLA_INET_CONF: u16 = 1;
const IFLA_INET6_CONF: u16 = 2;
const IFLA_INET6_ADDR_GEN_MODE: u16 = 8;
/// `IPV4_DEVCONF_PROMOTE_SECONDARIES` (20), the array's entry 19.
const INET_PROMOTE_SECONDARIES: usize = 19;
const INET6_ACCEPT_RA: usize = 3;
const INET6_USE_TEMPADDR: usize = 10;
const INET6_DISABLE_IPV6: usize = 26;
const INET6_ACCEPT_DAD: usize = 27;

fn devconf_entry(array: &[u8], n: usize, order: ByteOrder) -> Option<i32> {
    let b: [u8; 4] = array.get(n * 4..n * 4 + 4)?.try_into().ok()?;
    Some(match order {
        ByteOrder::Little => i32::from_le_bytes(b),
        ByteOrder::Big => i32::from_be_bytes(b),
    })
}

fn af_spec(value: &[u8], order: ByteOrder) -> DevConf {
    let mut c = DevConf::default();
    for fam in Attrs::new(value, order).flatten() {
        for x in Attrs::new(fam.value, order).flatten() {
            match (u8::try_from(fam.kind).unwrap_or(0), x.kind) {
                (AF_INET, IFLA_INET_CONF) => {
                    c.promote_secondaries = devconf_entry(x.value, INET_PROMOTE_SECONDARIES, order).map(|v| v != 0);
                }
                (AF_INET6, IFLA_INET6_CONF) => {
                    c.accept_ra = devconf_entry(x.value, INET6_ACCEPT_RA, order);
                    c.use_tempaddr = devconf_entry(x.value, INET6_USE_TEMPADDR, order);
                    c.disable_ipv6 = devconf_entry(x.value, INET6_DISABLE_IPV6, order).map(|v| v != 0);
                    c.accept_dad = devconf_entry(x.value, INET6_ACCEPT_DAD, order);
                }
                (AF_INET6, IFLA_INET6_ADDR_GEN_MODE) => c.addr_gen_mode = x.u8(),
                (AF_INET6, IFLA_INET6_FLAGS) => c.inet6_flags = x.u32(order),
                _ => {}
            }
        }
    }
    c
}

/// `VETH_INFO_PEER` inside a veth's IFLA_INFO_DATA: an `ifinfomsg` for the
/// peer followed by its attributes. Problems inside it are not the message's:
/// a peer that cannot be read is simply unknown.
fn veth_peer(data: &[u8], order: ByteOrder) -> Option<Peer<'_>> {
    let mut peer = None;
    for a in Attrs::new(data, order).flatten() {
        if a.kind != VETH_INFO_PEER {
            continue;
        }
        let h = IfInfoMsg::new_checked(a.value, order).ok()?;
        let mut p = Peer {
            index: h.index(),
            name: None,
            netns: None,
        };
        for x in Attrs::new(h.attrs(), order).flatten() {
            let v = x.u32(order);
            match x.kind {
                IFLA_IFNAME => p.name = Some(x.cstr()),
                IFLA_NET_NS_PID => p.netns = v.map(Netns::Pid),
                IFLA_NET_NS_FD => p.netns = v.map(Netns::Fd),
                IFLA_TARGET_NETNSID => p.netns = v.map(|v| Netns::Id(v as i32)),
                _ => {}
            }
        }
        peer = Some(p);
    }
    peer
}

fn addr<'a>(payload: &'a [u8], order: ByteOrder, problem: &mut Option<Problem>, body: &mut Body<'a>) {
    let h = match IfAddrMsg::new_checked(payload, order) {
        Ok(h) => h,
        Err(e) => {
            *body = truncated(problem, e);
            return;
        }
    };
    let family = h.family();
    *body = Body::Addr(Addr {
        family: AddressFamily::from(family),
        prefix_len: h.prefix_len(),
        flags: u32::from(h.flags()),
        header_flags: h.flags(),
        scope: Scope::from(h.scope()),
        index: h.index(),
        ..Addr::default()
    });
    let Body::Addr(a) = body else { return };
    each_attr(h.attrs(), order, problem, |at| match at.kind {
        IFA_ADDRESS | IFA_LOCAL => {
            let slot = if at.kind == IFA_ADDRESS {
                &mut a.address
            } else {
                &mut a.local
            };
            let ok = ip_attr(&at, family, slot);
            if ok && a.first_addr_attr.is_none() {
                a.first_addr_attr = Some(at.kind);
            }
            ok
        }
        IFA_BROADCAST => ip_attr(&at, family, &mut a.broadcast),
        IFA_LABEL => {
            a.label = Some(at.cstr());
            true
        }
        IFA_FLAGS => {
            let mut f = None;
            let ok = u32_attr(&at, order, &mut f);
            if let Some(f) = f {
                a.flags = f;
            }
            ok
        }
        IFA_CACHEINFO => match at.value.len() {
            16 => {
                let r = |i| order.read_u32(at.value, i).unwrap_or_default();
                a.cacheinfo = Some(CacheInfo {
                    preferred: r(0),
                    valid: r(4),
                    cstamp: r(8),
                    tstamp: r(12),
                });
                true
            }
            _ => false,
        },
        IFA_RT_PRIORITY => u32_attr(&at, order, &mut a.rt_priority),
        IFA_PROTO => match at.u8() {
            Some(p) => {
                a.proto = Some(p);
                true
            }
            None => false,
        },
        _ => true,
    });
}

fn route<'a>(payload: &'a [u8], order: ByteOrder, problem: &mut Option<Problem>, body: &mut Body<'a>) {
    let h = match RtMsg::new_checked(payload, order) {
        Ok(h) => h,
        Err(e) => {
            *body = truncated(problem, e);
            return;
        }
    };
    let family = h.family();
    *body = Body::Route(Route {
        family: AddressFamily::from(family),
        dst_len: h.dst_len(),
        src_len: h.src_len(),
        tos: h.tos(),
        table: TableId::from(u32::from(h.table())),
        protocol: RouteProtocol::from(h.protocol()),
        scope: Scope::from(h.scope()),
        kind: RouteType::from(h.kind()),
        flags: h.flags(),
        ..Route::default()
    });
    let Body::Route(r) = body else { return };
    each_attr(h.attrs(), order, problem, |a| match a.kind {
        RTA_DST => ip_attr(&a, family, &mut r.dst),
        RTA_SRC => ip_attr(&a, family, &mut r.src),
        RTA_GATEWAY => ip_attr(&a, family, &mut r.gateway),
        RTA_PREFSRC => ip_attr(&a, family, &mut r.prefsrc),
        RTA_OIF => u32_attr(&a, order, &mut r.oif),
        RTA_IIF => u32_attr(&a, order, &mut r.iif),
        RTA_PRIORITY => u32_attr(&a, order, &mut r.priority),
        RTA_TABLE => {
            let mut t = None;
            let ok = u32_attr(&a, order, &mut t);
            if let Some(t) = t {
                r.table = TableId::from(t);
            }
            ok
        }
        RTA_MULTIPATH => {
            r.multipath = true;
            r.next_hops = Some(Nest { bytes: a.value, order });
            true
        }
        RTA_METRICS => {
            r.metrics = Some(Nest { bytes: a.value, order });
            true
        }
        RTA_NH_ID => u32_attr(&a, order, &mut r.nhid),
        RTA_FLOW => u32_attr(&a, order, &mut r.flow),
        RTA_PREF => match a.u8() {
            Some(p) => {
                r.pref = Some(p);
                true
            }
            None => false,
        },
        _ => true,
    });
}

/// A GET request of `kind` (RTM_GETLINK, RTM_GETADDR or RTM_GETROUTE).
fn request<'a>(kind: u16, payload: &'a [u8], order: ByteOrder, problem: &mut Option<Problem>) -> Request<'a> {
    let mut req = Request {
        family: AddressFamily::from(RtGenMsg::new_checked(payload).map_or(AF_UNSPEC, |g| g.family())),
        body_len: payload.len(),
        ..Request::default()
    };
    match kind {
        RTM_GETLINK => match IfInfoMsg::new_checked(payload, order) {
            Ok(h) => {
                req.index = Some(h.index());
                each_attr(h.attrs(), order, problem, |a| {
                    if a.kind == IFLA_IFNAME {
                        req.name = Some(a.cstr());
                    }
                    true
                });
            }
            Err(_) => req.short_form = true,
        },
        RTM_GETADDR => match IfAddrMsg::new_checked(payload, order) {
            Ok(h) => req.index = Some(h.index()),
            Err(_) => req.short_form = true,
        },
        _ => match RtMsg::new_checked(payload, order) {
            Ok(h) => {
                req.table = Some(TableId::from(u32::from(h.table()))).filter(|t| *t != TableId::Unspec);
                req.other_filter = h.protocol() != 0 || h.kind() != 0;
                each_attr(h.attrs(), order, problem, |a| {
                    if a.kind == RTA_TABLE
                        && let Some(t) = a.u32(order)
                    {
                        req.table = (t != 0).then_some(TableId::from(t));
                    }
                    if a.kind == RTA_OIF
                        && let Some(i) = a.u32(order)
                    {
                        req.oif = (i != 0).then_some(i);
                    }
                    true
                });
            }
            Err(_) => req.short_form = true,
        },
    }
    req
}

fn error_body<'a>(payload: &'a [u8], order: ByteOrder, flags: u16, problem: &mut Option<Problem>) -> Body<'a> {
    let err = match NlMsgErr::new_checked(payload, order) {
        Ok(err) => err,
        Err(e) => return truncated(problem, e),
    };
    let quoted = err.quoted().map(|q| q.header());
    let mut ext_message = None;
    if flags & NLM_F_ACK_TLVS != 0
        && let Some(q) = quoted
    {
        // Capped: only the quoted header; otherwise the whole quoted request.
        let quoted_len = if flags & NLM_F_CAPPED != 0 {
            NlMsgHdr::<&[u8]>::LEN
        } else {
            nlmsg_align(q.len as usize)
        };
        if let Some(tlvs) = err.echoed().get(quoted_len..) {
            each_attr(tlvs, order, problem, |a| {
                if a.kind == 1 {
                    ext_message = Some(a.cstr());
                }
                true
            });
        }
    }
    Body::Error(ErrorMsg {
        error: err.error(),
        quoted,
        ext_message,
    })
}

// ------------------------------------------------------------- rules ----

use super::rule::{
    FRA_DPORT_RANGE, FRA_DST, FRA_FLOW, FRA_FWMARK, FRA_FWMASK, FRA_GOTO, FRA_IIFNAME, FRA_IP_PROTO, FRA_L3MDEV,
    FRA_OIFNAME, FRA_PRIORITY, FRA_PROTOCOL, FRA_SPORT_RANGE, FRA_SRC, FRA_SUPPRESS_IFGROUP, FRA_SUPPRESS_PREFIXLEN,
    FRA_TABLE, FRA_TUN_ID, FRA_UID_RANGE, Range, Rule, RuleAction,
};

/// Reads a rule message's body: `fib_rule_hdr` and its attributes. A body
/// shorter than the header is refused with the sizes.
pub(crate) fn rule<'a>(
    payload: &'a [u8],
    order: ByteOrder,
    problem: &mut Option<Problem>,
) -> Result<Rule<'a>, WireError> {
    let hdr = payload.get(..FIB_RULE_HDR_LEN).ok_or(WireError {
        needed: FIB_RULE_HDR_LEN,
        got: payload.len(),
    })?;
    let byte = |i: usize| hdr.get(i).copied().unwrap_or_default();
    let family = byte(0);
    let mut r = Rule {
        family: AddressFamily::from(family),
        dst_len: byte(1),
        src_len: byte(2),
        tos: byte(3),
        table: TableId::from(u32::from(byte(4))),
        action: RuleAction::from(byte(7)),
        flags: order.read_u32(hdr, 8).unwrap_or_default(),
        ..Rule::default()
    };
    let area = payload.get(FIB_RULE_HDR_LEN..).unwrap_or_default();
    for a in Attrs::new(area, order) {
        match a {
            Ok(a) => {
                if !rule_attr(&mut r, &a, family, order) {
                    problem.get_or_insert(Problem::AttrSize {
                        kind: a.kind,
                        len: a.value.len(),
                    });
                }
            }
            Err(e) => {
                problem.get_or_insert(Problem::Attr(e));
            }
        }
    }
    Ok(r)
}

fn u32_of(a: &Attr<'_>, order: ByteOrder, slot: &mut Option<u32>) -> bool {
    a.u32(order).map(|v| *slot = Some(v)).is_some()
}

fn range16(a: &Attr<'_>, order: ByteOrder) -> Option<Range<u16>> {
    let v: [u8; 4] = a.value.try_into().ok()?;
    let (s, e) = ([v[0], v[1]], [v[2], v[3]]);
    Some(match order {
        ByteOrder::Little => Range {
            start: u16::from_le_bytes(s),
            end: u16::from_le_bytes(e),
        },
        ByteOrder::Big => Range {
            start: u16::from_be_bytes(s),
            end: u16::from_be_bytes(e),
        },
    })
}

/// One attribute into `r`; false when its size is wrong for its type.
fn rule_attr<'a>(r: &mut Rule<'a>, a: &Attr<'a>, family: u8, order: ByteOrder) -> bool {
    match a.kind {
        FRA_DST | FRA_SRC => match a.ip(family) {
            Some(ip) => {
                if a.kind == FRA_DST {
                    r.dst = Some(ip);
                } else {
                    r.src = Some(ip);
                }
                true
            }
            None => false,
        },
        FRA_IIFNAME => {
            r.iifname = Some(a.cstr());
            true
        }
        FRA_OIFNAME => {
            r.oifname = Some(a.cstr());
            true
        }
        FRA_GOTO => u32_of(a, order, &mut r.goto),
        FRA_PRIORITY => u32_of(a, order, &mut r.priority),
        FRA_FWMARK => u32_of(a, order, &mut r.fwmark),
        FRA_FWMASK => u32_of(a, order, &mut r.fwmask),
        FRA_FLOW => u32_of(a, order, &mut r.flow),
        FRA_SUPPRESS_IFGROUP => u32_of(a, order, &mut r.suppress_ifgroup),
        FRA_SUPPRESS_PREFIXLEN => u32_of(a, order, &mut r.suppress_prefixlen),
        FRA_TABLE => {
            let mut t = None;
            let ok = u32_of(a, order, &mut t);
            if let Some(t) = t.filter(|t| *t != 0) {
                r.table = TableId::from(t);
            }
            ok
        }
        FRA_TUN_ID => match <[u8; 8]>::try_from(a.value) {
            // (__be64: network order whatever the host's)
            Ok(b) => {
                r.tun_id = Some(u64::from_be_bytes(b));
                true
            }
            Err(_) => false,
        },
        FRA_L3MDEV => a.u8().map(|v| r.l3mdev = Some(v)).is_some(),
        FRA_PROTOCOL => a.u8().map(|v| r.protocol = Some(RouteProtocol::from(v))).is_some(),
        FRA_IP_PROTO => a.u8().map(|v| r.ip_proto = Some(v)).is_some(),
        FRA_UID_RANGE => match (order.read_u32(a.value, 0), order.read_u32(a.value, 4), a.value.len()) {
            (Some(start), Some(end), 8) => {
                r.uid_range = Some(Range { start, end });
                true
            }
            _ => false,
        },
        FRA_SPORT_RANGE => range16(a, order).map(|v| r.sport = Some(v)).is_some(),
        FRA_DPORT_RANGE => range16(a, order).map(|v| r.dport = Some(v)).is_some(),
        _ => true,
    }
}

#[cfg(test)]
#[path = "rtnl_tests.rs"]
mod tests;
