//! The entries of the kernel's tables, as the model keeps them.
//!
//! Contract: plain owned values built from decoded messages; names and
//! labels are stored inline (the kernel bounds them by IFNAMSIZ), so
//! replaying a capture allocates per table entry, never per message,
//! except for what only `ip` shows: one shared [`LinkShow`] per link
//! message from the kernel, and a [`RouteExtra`] for the few route
//! messages that carry any of it (a source prefix, metrics, next hops).

use std::net::IpAddr;

use crate::netlink::names::IFA_F_SECONDARY;

use std::sync::Arc;

use crate::netlink::names::{IFLA_ALT_IFNAME, RTAX_CC_ALGO, RTAX_LOCK};
use crate::netlink::rtnl::{Addr, CacheInfo, Link, NextHop, Route};
use crate::netlink::values::{AddressFamily, RouteProtocol, RouteType, Scope, TableId};

/// A short byte string stored inline: interface names, labels and link
/// kinds (the kernel limits names and labels to 15 bytes plus NUL). Longer
/// input is cut at 31 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct ShortName {
    len: u8,
    bytes: [u8; 31],
}

impl ShortName {
    /// Raw bytes (an IFLA_IFNAME or IFA_LABEL without its NUL), cut at 31.
    pub fn new(b: &[u8]) -> Self {
        let mut s = ShortName::default();
        // the first 31 bytes at most
        for (to, from) in s.bytes.iter_mut().zip(b) {
            *to = *from;
        }
        s.len = b.len().min(31) as u8;
        s
    }

    /// The bytes stored, without a NUL.
    pub fn as_bytes(&self) -> &[u8] {
        // `len` is at most 31, the size of `bytes` (`new` caps it; the default is 0).
        self.bytes.get(..usize::from(self.len)).unwrap_or(&self.bytes)
    }

    /// Text, with invalid UTF-8 bytes written as `\xNN`.
    pub fn display(&self) -> String {
        crate::netlink::names::escape_bytes(self.as_bytes())
    }
}

impl std::fmt::Debug for ShortName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.display())
    }
}

/// Where an entry (and its position in the table) came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Seen in a dump (or a GET reply), in record `packet`.
    Dump(u64),
    /// Placed by the kernel's ordering rules after a notification in record `packet`.
    Inferred(u64),
    /// A change request in record `packet` that the kernel acknowledged.
    Request(u64),
    /// Something the kernel does by itself (no capture of a quiet host shows
    /// it), caused by the message in record `packet`.
    KernelRule(u64, KernelRule),
}

/// The kernel's own side effects that the model applies, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KernelRule {
    /// An IPv4 address's `local` route in table local.
    Ipv4LocalRoute,
    /// An IPv4 primary's connected (prefix) route.
    Ipv4PrefixRoute,
    /// An IPv4 address's broadcast route in table local.
    Ipv4BroadcastRoute,
    /// 127.0.0.1/8 on the loopback device when it comes up.
    LoopbackAddress,
    /// ::1/128 on the loopback device when it comes up.
    Ipv6Loopback,
    /// An IPv6 address's `local` route in table local.
    Ipv6LocalRoute,
    /// An IPv6 address's prefix route (metric 256 unless given).
    Ipv6PrefixRoute,
    /// The EUI-64 link-local address made when a link comes up with carrier.
    Ipv6LinkLocal,
    /// `fe80::/64` in main when a link comes up with carrier.
    Ipv6LinkLocalRoute,
    /// `multicast ff00::/8` in table local when a link comes up with carrier.
    Ipv6MulticastRoute,
    /// An IPv6 address a sit or GRE tunnel makes from an IPv4 address
    /// (`add_v4_addrs`: `::a.b.c.d/96`, `fe80::a.b.c.d/64`).
    Ipv6FromIpv4,
    /// A secondary promoted to primary when its primary was deleted.
    Ipv4Promotion,
    /// A device's index as the kernel would assign it (no reply showed it yet).
    AssignedIndex,
    /// The other end of a veth pair, created with it.
    VethPeer,
    /// An address label rewritten when its device was renamed.
    LabelRename,
}

impl KernelRule {
    /// The rule's name in reports and JSON (`ipv4-prefix-route`).
    pub fn name(self) -> &'static str {
        match self {
            KernelRule::Ipv4LocalRoute => "ipv4-local-route",
            KernelRule::Ipv4PrefixRoute => "ipv4-prefix-route",
            KernelRule::Ipv4BroadcastRoute => "ipv4-broadcast-route",
            KernelRule::LoopbackAddress => "loopback-address",
            KernelRule::Ipv6Loopback => "ipv6-loopback",
            KernelRule::Ipv6LocalRoute => "ipv6-local-route",
            KernelRule::Ipv6PrefixRoute => "ipv6-prefix-route",
            KernelRule::Ipv6LinkLocal => "ipv6-link-local",
            KernelRule::Ipv6LinkLocalRoute => "ipv6-link-local-route",
            KernelRule::Ipv6MulticastRoute => "ipv6-multicast-route",
            KernelRule::Ipv6FromIpv4 => "ipv6-from-ipv4",
            KernelRule::Ipv4Promotion => "ipv4-promotion",
            KernelRule::AssignedIndex => "assigned-index",
            KernelRule::VethPeer => "veth-peer",
            KernelRule::LabelRename => "label-rename",
        }
    }
}

impl Origin {
    /// The record the entry came from.
    pub(super) fn packet(&self) -> u64 {
        match *self {
            Origin::Dump(p) | Origin::Inferred(p) | Origin::Request(p) | Origin::KernelRule(p, _) => p,
        }
    }

    /// Seen as it is in a dump, not predicted.
    pub fn is_dump(&self) -> bool {
        matches!(self, Origin::Dump(_))
    }

    /// `dump`, `inferred`, `request` or `kernel-rule`.
    pub fn kind(&self) -> &'static str {
        match self {
            Origin::Dump(_) => "dump",
            Origin::Inferred(_) => "inferred",
            Origin::Request(_) => "request",
            Origin::KernelRule(..) => "kernel-rule",
        }
    }

    /// `dump #4`, `kernel-rule ipv4-local-route #15`.
    pub fn text(&self) -> String {
        match self {
            Origin::KernelRule(p, r) => format!("kernel-rule {} #{p}", r.name()),
            o => format!("{} #{}", o.kind(), o.packet()),
        }
    }
}

/// JSON: `"origin": "kernel-rule", "origin_packet": 15, "rule": "ipv4-local-route"`
/// (flattened into the entry's object).
impl serde::Serialize for Origin {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("origin", self.kind())?;
        m.serialize_entry("origin_packet", &self.packet())?;
        if let Origin::KernelRule(_, r) = self {
            m.serialize_entry("rule", r.name())?;
        }
        m.end()
    }
}

/// A network device as the link table holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkEntry {
    /// The ifindex, unique within the namespace.
    pub index: u32,
    /// IFLA_IFNAME; empty while no message named the device (see
    /// [`display_name`](Self::display_name)).
    pub name: ShortName,
    /// IFLA_INFO_KIND (`veth`, `bridge`, `vlan`, ...); `None` for devices
    /// without one (physical NICs, lo) and when no message said.
    pub kind: Option<ShortName>,
    /// IFLA_MASTER: the ifindex of the bridge or bond it is a port of;
    /// `None` when it is no port.
    pub master: Option<u32>,
    /// IFLA_LINK: the device it sits on (a VLAN's or macvlan's lower
    /// device, a veth's peer); see `link_elsewhere`.
    pub(super) link: Option<u32>,
    /// IFF_* flags.
    pub flags: u32,
    /// IFLA_OPERSTATE (IF_OPER_*: 6 up, 2 down, 0 unknown, ...); `None`
    /// until a message showed it.
    pub operstate: Option<u8>,
    /// IFLA_MTU in bytes; `None` until a message showed it.
    pub mtu: Option<u32>,
    /// ARPHRD_* type.
    pub dev_type: u16,
    /// The link-layer address (IFLA_ADDRESS), when a message showed it.
    pub hwaddr: Option<ShortName>,
    /// The hardware address was set explicitly (a bridge then keeps it).
    pub hwaddr_set: bool,
    /// The other end of a veth pair.
    pub peer: Option<u32>,
    /// `link` (IFLA_LINK: a veth's peer, a VLAN's lower device) is a device
    /// of another namespace (IFLA_LINK_NETNSID), or the request made the
    /// veth's peer there: its index means nothing here.
    pub link_elsewhere: bool,
    /// Where the entry and its place in the list came from: the dump that
    /// last listed it, else what first showed it.
    pub origin: Origin,
    /// Only known from addresses or routes: no link message seen yet.
    pub placeholder: bool,
    /// What the last link message from the kernel said that only `ip link
    /// show` uses (qdisc, group, ...); `None` while no such message was seen.
    /// Shared, so that copying an entry never copies it.
    pub show: Option<Arc<LinkShow>>,
}

/// The attributes of a link message the model keeps only to show them,
/// as the last message from the kernel gave them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkShow {
    /// IFLA_QDISC: the root qdisc's kind.
    pub qdisc: Option<ShortName>,
    /// IFLA_TXQLEN.
    pub txqlen: Option<u32>,
    /// IFLA_GROUP.
    pub group: Option<u32>,
    /// IFLA_LINKMODE.
    pub linkmode: Option<u8>,
    /// IFLA_BROADCAST: the link-layer broadcast (or peer) address.
    pub broadcast: Option<ShortName>,
    /// IFLA_PERM_ADDRESS.
    pub perm_address: Option<ShortName>,
    /// IFLA_LINK_NETNSID: the namespace id of the device IFLA_LINK names.
    pub link_netnsid: Option<i32>,
    /// IFLA_PROTO_DOWN was set.
    pub proto_down: bool,
    /// IFLA_IFALIAS.
    pub ifalias: Option<Box<[u8]>>,
    /// The IFLA_ALT_IFNAMEs of IFLA_PROP_LIST, in order; `None` without
    /// IFLA_PROP_LIST.
    pub altnames: Option<Box<[Box<[u8]>]>>,
}

impl LinkShow {
    /// What a message from the kernel says; `None` for one that carries
    /// none of it (requests, short messages).
    fn from_message(l: &Link<'_>) -> Option<Arc<Self>> {
        let any = l.qdisc.is_some() || l.txqlen.is_some() || l.group.is_some() || l.linkmode.is_some();
        any.then(|| {
            Arc::new(LinkShow {
                qdisc: l.qdisc.map(ShortName::new),
                txqlen: l.txqlen,
                group: l.group,
                linkmode: l.linkmode,
                broadcast: l.broadcast.map(ShortName::new),
                perm_address: l.perm_address.map(ShortName::new),
                link_netnsid: l.link_netnsid,
                proto_down: l.proto_down.is_some_and(|p| p != 0),
                ifalias: l.ifalias.map(Box::from),
                altnames: l.prop_list.map(|p| p.strings(IFLA_ALT_IFNAME).map(Box::from).collect()),
            })
        })
    }
}

impl LinkEntry {
    /// The device a link message describes.
    pub(super) fn from_message(l: &Link<'_>, origin: Origin) -> Self {
        LinkEntry {
            index: l.index,
            name: ShortName::new(l.name.unwrap_or_default()),
            kind: l.kind.map(ShortName::new),
            master: l.master,
            link: l.link,
            flags: l.flags,
            operstate: l.operstate,
            mtu: l.mtu,
            dev_type: l.dev_type,
            hwaddr: l.hwaddr.map(ShortName::new),
            hwaddr_set: false,
            peer: None,
            link_elsewhere: l.link_netnsid.is_some(),
            origin,
            placeholder: false,
            show: LinkShow::from_message(l),
        }
    }

    /// A device known only by its ifindex, which an address or route
    /// named: no name, flags or kind yet.
    pub fn placeholder(index: u32, origin: Origin) -> Self {
        LinkEntry {
            index,
            name: ShortName::default(),
            kind: None,
            master: None,
            link: None,
            flags: 0,
            operstate: None,
            mtu: None,
            dev_type: 0,
            hwaddr: None,
            hwaddr_set: false,
            peer: None,
            link_elsewhere: false,
            origin,
            placeholder: true,
            show: None,
        }
    }

    /// The interface name (for a device no link message showed, the one its
    /// IPv4 address label gives), or `ifN` when nothing in the capture named it.
    pub fn display_name(&self) -> String {
        if self.name.as_bytes().is_empty() {
            format!("if{}", self.index)
        } else {
            self.name.display()
        }
    }

    /// IFLA_LINK: the device it sits on (a VLAN's lower device, a veth's
    /// peer; 0 for none), in another namespace when
    /// [`link_elsewhere`](Self::link_elsewhere).
    pub fn lower(&self) -> Option<u32> {
        self.link
    }

    /// Whether the capture named this device at all (`ifN` is invented).
    pub fn has_name(&self) -> bool {
        !self.name.as_bytes().is_empty()
    }
}

/// An interface address as its device's address list holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddrEntry {
    /// The ifindex of its device (`ifa_index`).
    pub index: u32,
    /// AF_INET or AF_INET6.
    pub family: AddressFamily,
    /// The interface's own address (IFA_LOCAL, else IFA_ADDRESS).
    pub address: IpAddr,
    /// The peer of a point-to-point address.
    pub peer: Option<IpAddr>,
    /// The prefix length in bits (`ifa_prefixlen`).
    pub prefix_len: u8,
    /// IFA_LABEL, IPv4 only (`eth0`, `eth0:1`; the device's name unless
    /// set); `None` for IPv6 and when nothing gave one.
    pub label: Option<ShortName>,
    /// `ifa_scope` (RT_SCOPE_*: universe, site, link, host).
    pub scope: Scope,
    /// IFA_F_* (32-bit IFA_FLAGS when present).
    pub flags: u32,
    /// The 8-bit `ifa_flags` of the message header.
    pub header_flags: u8,
    /// IFA_BROADCAST: an IPv4 address's broadcast address, when it has one.
    pub broadcast: Option<IpAddr>,
    /// IFA_CACHEINFO of the last message that carried it: the preferred and
    /// valid lifetimes left then; `None` when none did (the addresses the
    /// kernel makes itself, requests without lifetimes).
    pub cacheinfo: Option<CacheInfo>,
    /// Which of IFA_ADDRESS/IFA_LOCAL came first in the message.
    pub first_addr_attr: Option<u16>,
    /// IFA_RT_PRIORITY: the metric of the address's prefix route.
    pub rt_priority: Option<u32>,
    /// Where the entry and its place in the list came from.
    pub origin: Origin,
}

impl AddrEntry {
    /// A permanent address the kernel makes by itself (127.0.0.1/8 and ::1
    /// on loopback, the link-local /64 at carrier).
    pub fn kernel_made(
        index: u32,
        address: IpAddr,
        prefix_len: u8,
        scope: Scope,
        label: Option<ShortName>,
        origin: Origin,
    ) -> Self {
        AddrEntry {
            index,
            family: if address.is_ipv4() {
                AddressFamily::Inet
            } else {
                AddressFamily::Inet6
            },
            address,
            peer: None,
            prefix_len,
            label,
            scope,
            flags: crate::netlink::names::IFA_F_PERMANENT,
            header_flags: crate::netlink::names::IFA_F_PERMANENT as u8,
            broadcast: None,
            cacheinfo: None,
            first_addr_attr: None,
            rt_priority: None,
            origin,
        }
    }

    /// A permanent IPv6 link-local /64, as the kernel makes one at carrier.
    pub fn link_local(index: u32, address: std::net::Ipv6Addr, origin: Origin) -> Self {
        let scope = Scope::Link;
        AddrEntry::kernel_made(index, IpAddr::V6(address), 64, scope, None, origin)
    }

    /// `None` for messages without an IPv4/IPv6 address.
    pub fn from_message(a: &Addr<'_>, origin: Origin) -> Option<Self> {
        if a.family != AddressFamily::Inet && a.family != AddressFamily::Inet6 {
            return None;
        }
        Some(AddrEntry {
            index: a.index,
            family: a.family,
            address: a.ip()?,
            peer: a.peer(),
            prefix_len: a.prefix_len,
            label: a.label.map(ShortName::new),
            scope: a.scope,
            flags: a.flags,
            header_flags: a.header_flags,
            broadcast: a.broadcast,
            cacheinfo: a.cacheinfo,
            first_addr_attr: a.first_addr_attr,
            rt_priority: a.rt_priority,
            origin,
        })
    }

    /// An IPv4 secondary (IFA_F_SECONDARY): another address of the device
    /// in the same subnet came first and is its primary. Never for IPv6,
    /// where that bit means IFA_F_TEMPORARY.
    pub fn is_secondary(&self) -> bool {
        self.family == AddressFamily::Inet && self.flags & IFA_F_SECONDARY != 0
    }

    /// The identity the kernel uses: one address per (device, family,
    /// local address, prefix length) for IPv4, per (device, address) for IPv6.
    pub fn same_key(&self, other: &AddrEntry) -> bool {
        self.key() == other.key()
    }

    /// That identity as a value: (device, family, address, prefix length,
    /// 0 for IPv6).
    pub fn key(&self) -> (u32, AddressFamily, IpAddr, u8) {
        let len = if self.family == AddressFamily::Inet6 {
            0
        } else {
            self.prefix_len
        };
        (self.index, self.family, self.address, len)
    }

    /// `10.9.0.2/24`.
    pub fn cidr(&self) -> String {
        format!("{}/{}", self.address, self.prefix_len)
    }
}

/// Identity of a route (what the kernel matches on to replace or delete it).
/// The table and type are kept as their numbers: the key is packed into a
/// few words to hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct RouteKey {
    pub family: u8,
    pub table: u32,
    pub dst: Option<IpAddr>,
    pub dst_len: u8,
    pub tos: u8,
    pub priority: u32,
    pub kind: u8,
    /// Two routes to one prefix through different next hops are two routes
    /// (IPv4 aliases, IPv6 routes alike).
    pub gateway: Option<IpAddr>,
    pub oif: Option<u32>,
    /// IPv4 only: two routes that differ only by their preferred source
    /// are two routes (`fib_find_info` compares `fib_prefsrc`; e.g. the
    /// broadcast routes of two addresses whose subnets share a broadcast
    /// address). IPv6 does not compare it.
    pub prefsrc: Option<IpAddr>,
}

fn ip_bits(ip: Option<IpAddr>) -> u128 {
    match ip {
        Some(IpAddr::V4(v4)) => u128::from(u32::from(v4)) | (1 << 127),
        Some(IpAddr::V6(v6)) => u128::from(v6),
        None => 0,
    }
}

/// Hashes a few packed words instead of each field: route keys are hashed
/// for every route message of a capture (a BGP node sends millions).
impl std::hash::Hash for RouteKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let small = u64::from(self.family)
            | u64::from(self.dst_len) << 8
            | u64::from(self.tos) << 16
            | u64::from(self.kind) << 24
            | u64::from(self.table) << 32;
        state.write_u64(small ^ u64::from(self.priority).rotate_left(17));
        state.write_u128(ip_bits(self.dst));
        if self.gateway.is_some() || self.oif.is_some() {
            state.write_u128(ip_bits(self.gateway) ^ u128::from(self.oif.unwrap_or(0)));
        }
    }
}

/// A route as the route table holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteEntry {
    /// AF_INET or AF_INET6.
    pub family: AddressFamily,
    /// The routing table (RTA_TABLE, else `rtm_table`): main, local,
    /// default, or any other id.
    pub table: TableId,
    /// The destination prefix; `None` for a default route.
    pub dst: Option<IpAddr>,
    /// The destination prefix length in bits; 0 for a default route.
    pub dst_len: u8,
    /// `rtm_tos`: the IPv4 TOS the route matches; 0 matches any.
    pub tos: u8,
    /// RTA_GATEWAY: the next hop; `None` for a route straight onto the
    /// link, and for a multipath route.
    pub gateway: Option<IpAddr>,
    /// RTA_OIF: the ifindex of the output device; `None` when the message
    /// named none (a multipath route's devices are in its next hops).
    pub oif: Option<u32>,
    /// RTA_PREFSRC: the source address the route prefers (`ip route ...
    /// src`); the kernel sets it on the routes it makes for IPv4 addresses.
    pub prefsrc: Option<IpAddr>,
    /// RTA_PRIORITY, the metric; `None` for an IPv4 route without one
    /// (metric 0). IPv6 routes always have one.
    pub priority: Option<u32>,
    /// `rtm_protocol` (RTPROT_*): who installed it (kernel, boot, static,
    /// dhcp, ...).
    pub protocol: RouteProtocol,
    /// `rtm_scope` (RT_SCOPE_*: universe through a gateway, link on-link,
    /// host for local routes).
    pub scope: Scope,
    /// `rtm_type` (RTN_*: unicast, local, broadcast, blackhole,
    /// unreachable, ...).
    pub kind: RouteType,
    /// `rtm_flags` (RTM_F_*, and RTNH_F_* of a single next hop, such as
    /// RTNH_F_LINKDOWN while its device has no carrier).
    pub flags: u32,
    /// The route has several next hops (RTA_MULTIPATH), which are not
    /// decoded.
    pub multipath: bool,
    /// Where the entry and its place in its group came from.
    pub origin: Origin,
    /// Order among routes the kernel keeps in one group (same table,
    /// prefix, tos and metric): the dump position, or later for routes
    /// added since (earlier for prepended ones).
    pub seq: i64,
    /// RTA_PREF: an IPv6 route's router preference, when a message gave it.
    pub pref: Option<u8>,
    /// What few routes have and only `ip route` shows (a source prefix,
    /// metrics, next hops, ...); `None` for a route with none of it.
    pub extra: Option<Box<RouteExtra>>,
}

/// The rarer parts of a route message, kept to show them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RouteExtra {
    /// RTA_SRC: the source prefix of a source-specific route.
    pub src: Option<IpAddr>,
    /// `rtm_src_len`.
    pub src_len: u8,
    /// RTA_NH_ID.
    pub nhid: Option<u32>,
    /// RTA_FLOW: the realms.
    pub flow: Option<u32>,
    /// RTA_IIF.
    pub iif: Option<u32>,
    /// RTA_METRICS as (RTAX_* type, value) in order, without RTAX_LOCK and
    /// RTAX_CC_ALGO; `None` without RTA_METRICS.
    pub metrics: Option<Box<[(u16, u32)]>>,
    /// RTAX_LOCK: the locked metrics, a bit per RTAX_* type.
    pub metrics_lock: u32,
    /// RTAX_CC_ALGO: the congestion control algorithm's name.
    pub congctl: Option<Box<[u8]>>,
    /// RTA_MULTIPATH's next hops.
    pub next_hops: Box<[NextHop]>,
}

impl RouteExtra {
    fn from_message(r: &Route<'_>) -> Option<Box<Self>> {
        let any = r.src.is_some()
            || r.src_len != 0
            || r.nhid.is_some()
            || r.flow.is_some()
            || r.iif.is_some()
            || r.metrics.is_some()
            || r.next_hops.is_some();
        if !any {
            return None;
        }
        let mut e = RouteExtra {
            src: r.src,
            src_len: r.src_len,
            nhid: r.nhid,
            flow: r.flow,
            iif: r.iif,
            next_hops: r.next_hops.map(|n| n.next_hops(r.family).collect()).unwrap_or_default(),
            ..RouteExtra::default()
        };
        if let Some(m) = r.metrics {
            let mut values = Vec::new();
            for a in m.attrs() {
                match a.kind {
                    RTAX_LOCK => e.metrics_lock = a.u32(m.order).unwrap_or(0),
                    RTAX_CC_ALGO => e.congctl = Some(Box::from(a.cstr())),
                    k => values.push((k, a.u32(m.order).unwrap_or(0))),
                }
            }
            e.metrics = Some(values.into_boxed_slice());
        }
        Some(Box::new(e))
    }
}

impl RouteEntry {
    /// The route a route message describes, at `seq` in its group; a
    /// default route's RTA_DST (requests may carry `::/0`) is dropped.
    pub fn from_message(r: &Route, origin: Origin, seq: i64) -> Self {
        RouteEntry {
            family: r.family,
            table: r.table,
            // A default route: requests may carry RTA_DST ::/0, the kernel never does.
            dst: if r.dst_len == 0 { None } else { r.dst },
            dst_len: r.dst_len,
            tos: r.tos,
            gateway: r.gateway,
            oif: r.oif,
            prefsrc: r.prefsrc,
            priority: r.priority,
            protocol: r.protocol,
            scope: r.scope,
            kind: r.kind,
            flags: r.flags,
            multipath: r.multipath,
            origin,
            seq,
            pref: r.pref,
            extra: RouteExtra::from_message(r),
        }
    }

    /// Its identity, what the kernel matches to replace or delete it.
    pub(super) fn key(&self) -> RouteKey {
        RouteKey {
            family: self.family.into(),
            table: self.table.into(),
            dst: self.dst,
            dst_len: self.dst_len,
            tos: self.tos,
            priority: self.priority.unwrap_or(0),
            kind: self.kind.into(),
            gateway: self.gateway,
            oif: self.oif,
            prefsrc: match self.family {
                AddressFamily::Inet => self.prefsrc,
                _ => None,
            },
        }
    }

    /// Same table, prefix, tos and metric: routes the kernel keeps side by
    /// side in one list, where replace, append and prepend act.
    pub fn same_group(&self, other: &RouteEntry) -> bool {
        self.family == other.family
            && self.table == other.table
            && self.dst_len == other.dst_len
            && self.dst == other.dst
            && self.tos == other.tos
            && self.priority.unwrap_or(0) == other.priority.unwrap_or(0)
    }
}

/// Why a link-local address the kernel made cannot be known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownWhy {
    /// EUI-64 from a MAC no message showed.
    #[default]
    UnseenMac,
    /// From the device's random permanent address (ip6tnl, ip6gre).
    PermanentAddress,
    /// From a random or secret interface identifier (`addr_gen_mode`
    /// random or stable privacy).
    Random,
    /// An ipvlan's EUI-64 with a `dev_id` the capture cannot tell (see
    /// `ipvlan_port`).
    IpvlanDevId,
}
