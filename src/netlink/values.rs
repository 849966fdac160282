//! Typed wire values: the address family, scope, route type, route protocol
//! and routing table of addresses and routes, as enums with an `Other` arm
//! for the numbers the kernel (or a routing daemon) may add, each with the
//! one table of names every output uses.
//!
//! Contract: [`rtnl`](super::rtnl) makes these from the header bytes, the
//! model keeps them, and the text, JSON and `ip -j` outputs name them only
//! through [`name`](Scope::name) (or `Display`). A value converts to and from
//! its number without loss: `Other(n)` holds only numbers without a name of
//! their own (make values with `From`), and values are ordered by their
//! numbers (a scope above another is narrower, as the kernel compares them).
//!
//! The names are iproute2's: `rtnl_rtscope_n2a`, `rtnl_rttable_n2a`,
//! `rtnl_rtntype_n2a` (ip/rtm_map.c) and `rtnl_rtprot_n2a` with the stock
//! `etc/iproute2/rt_protos`, `rt_scopes` and `rt_tables` files; a number
//! without a name is written as the number, as `ip` (and `ip -j`, as a
//! string) writes it. Two names are nlorder's own, kept so that its
//! outputs read as before: route type 0 (RTN_UNSPEC) is `unspec` where `ip`
//! says `none` ([`RouteType::ip_name`] gives `ip`'s word, which `ip -j`
//! output uses), and address families are named as [`AddressFamily`] says.
//!
//! netlink-packet-route has enums of its own (`RouteProtocol`, `RouteScope`,
//! `AddressScope`, `RouteType`, `AddressFamily`); they are not used here:
//! their `Display` names are not `ip`'s (`no_where`, `icmp_redirect`,
//! `Dhcp`, `other(N)`), their protocol list lacks rt_protos's `openr` (99),
//! addresses and routes have two scope types, their `AddressFamily` takes
//! the build host's numbers, and they are `non_exhaustive`, which a match
//! over every name cannot be.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

/// One enum per wire value: its named numbers, `Other` for the rest,
/// conversions both ways, the name table and the numbers' order.
macro_rules! wire_value {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: $repr:ty, unnamed $prefix:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $number:literal => $text:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// A number without a name of its own.
            Other($repr),
        }

        impl $name {
            /// Every named value with its number and name, in the order of
            /// the numbers.
            pub const NAMED: &'static [($name, $repr, &'static str)] = &[
                $( ($name::$variant, $number, $text), )*
            ];

            /// The value's number on the wire.
            pub const fn number(self) -> $repr {
                match self {
                    $( $name::$variant => $number, )*
                    $name::Other(n) => n,
                }
            }

            /// The name (iproute2's spelling); for a value without one
            /// the number, after the type's prefix (families: `af<N>`).
            pub fn name(self) -> Cow<'static, str> {
                match self.named() {
                    Some(text) => Cow::Borrowed(text),
                    None => Cow::Owned(format!("{}{}", $prefix, self.number())),
                }
            }

            /// The value `ip` prints as `name` (iproute2's spelling, or the
            /// number after the type's prefix); `None` for another word.
            pub fn from_name(name: &str) -> Option<Self> {
                if let Some((v, _, _)) = Self::NAMED.iter().find(|(_, _, text)| *text == name) {
                    return Some(*v);
                }
                name.strip_prefix($prefix).and_then(|n| n.parse::<$repr>().ok()).map(<$name>::from)
            }

            /// The name, `None` for a number without one.
            pub fn named(self) -> Option<&'static str> {
                match <$name>::from(self.number()) {
                    $( $name::$variant => Some($text), )*
                    $name::Other(_) => None,
                }
            }
        }

        impl From<$repr> for $name {
            fn from(n: $repr) -> Self {
                match n {
                    $( $number => $name::$variant, )*
                    other => $name::Other(other),
                }
            }
        }

        /// Number 0 (every table names it).
        impl Default for $name {
            fn default() -> Self {
                <$name>::from(0)
            }
        }

        impl From<$name> for $repr {
            fn from(v: $name) -> Self {
                v.number()
            }
        }

        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Ord for $name {
            fn cmp(&self, other: &Self) -> Ordering {
                self.number().cmp(&other.number())
            }
        }

        /// Serialized as its number.
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.number().serialize(s)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.name())
            }
        }
    };
}

wire_value! {
    /// An address family (`ifa_family`, `rtm_family`, `rtgen_family`;
    /// include/linux/socket.h), with Linux's numbers whatever the build
    /// host's libc says. Named as `ip -f` names them (`inet`, `inet6`,
    /// `bridge`, `mpls`), with `unspec`, `unix` and `packet` (where `ip`
    /// says `link`) for the families requests carry; `af<N>` for others
    /// (where `ip` says `???`).
    pub enum AddressFamily: u8, unnamed "af" {
        /// AF_UNSPEC: no family; in a GET request, every family.
        Unspec = 0 => "unspec",
        /// AF_UNIX.
        Unix = 1 => "unix",
        /// AF_INET: IPv4.
        Inet = 2 => "inet",
        /// AF_BRIDGE: bridge ports (`bridge link`).
        Bridge = 7 => "bridge",
        /// AF_INET6: IPv6.
        Inet6 = 10 => "inet6",
        /// AF_PACKET: what `ip link` asks for links with.
        Packet = 17 => "packet",
        /// AF_MPLS.
        Mpls = 28 => "mpls",
        /// RTNL_FAMILY_IPMR: IPv4 multicast routing (its rules answer a
        /// rule dump of every family; `ip rule` leaves them out).
        Ipmr = 128 => "ipmr",
        /// RTNL_FAMILY_IP6MR: IPv6 multicast routing.
        Ip6mr = 129 => "ip6mr",
    }
}

impl AddressFamily {
    /// The family of an IP address.
    pub fn of(ip: std::net::IpAddr) -> Self {
        if ip.is_ipv4() {
            AddressFamily::Inet
        } else {
            AddressFamily::Inet6
        }
    }
}

wire_value! {
    /// A scope (`ifa_scope`, `rtm_scope`: RT_SCOPE_* of
    /// include/uapi/linux/rtnetlink.h): how far an address or a route's
    /// destination is valid. Named by `rtnl_rtscope_n2a` and `rt_scopes`.
    pub enum Scope: u8, unnamed "" {
        /// RT_SCOPE_UNIVERSE: global (a route through a gateway).
        Universe = 0 => "global",
        /// RT_SCOPE_SITE: site-local (IPv6 site-local, unused in practice).
        Site = 200 => "site",
        /// RT_SCOPE_LINK: valid on the attached link only.
        Link = 253 => "link",
        /// RT_SCOPE_HOST: valid on this host only.
        Host = 254 => "host",
        /// RT_SCOPE_NOWHERE: no destination at all.
        Nowhere = 255 => "nowhere",
    }
}

wire_value! {
    /// A route type (`rtm_type`: RTN_* of include/uapi/linux/rtnetlink.h).
    /// Named by `rtnl_rtntype_n2a`, but `unspec` for 0 (see the module).
    pub enum RouteType: u8, unnamed "" {
        /// RTN_UNSPEC: no type (what `ip route del` sends; `ip`: `none`).
        Unspec = 0 => "unspec",
        /// RTN_UNICAST: through a gateway or straight to the link.
        Unicast = 1 => "unicast",
        /// RTN_LOCAL: a destination that is this host.
        Local = 2 => "local",
        /// RTN_BROADCAST: accepted locally, sent as broadcast.
        Broadcast = 3 => "broadcast",
        /// RTN_ANYCAST: an anycast address of this host.
        Anycast = 4 => "anycast",
        /// RTN_MULTICAST: a multicast route.
        Multicast = 5 => "multicast",
        /// RTN_BLACKHOLE: packets are dropped silently.
        Blackhole = 6 => "blackhole",
        /// RTN_UNREACHABLE: packets are refused as unreachable.
        Unreachable = 7 => "unreachable",
        /// RTN_PROHIBIT: refused as administratively prohibited.
        Prohibit = 8 => "prohibit",
        /// RTN_THROW: the lookup goes on with the next policy rule.
        Throw = 9 => "throw",
        /// RTN_NAT: network address translation (gone from the kernel).
        Nat = 10 => "nat",
        /// RTN_XRESOLVE: an external resolver (never implemented).
        Xresolve = 11 => "xresolve",
    }
}

impl RouteType {
    /// `ip`'s word (`rtnl_rtntype_n2a`): the name, but `none` for
    /// RTN_UNSPEC.
    pub fn ip_name(self) -> Cow<'static, str> {
        match self {
            RouteType::Unspec => Cow::Borrowed("none"),
            other => other.name(),
        }
    }
}

wire_value! {
    /// Who installed a route (`rtm_protocol`: RTPROT_* of
    /// include/uapi/linux/rtnetlink.h, and the numbers routing daemons
    /// took). Named as iproute2's stock `etc/iproute2/rt_protos` names them.
    pub enum RouteProtocol: u8, unnamed "" {
        /// RTPROT_UNSPEC.
        Unspec = 0 => "unspec",
        /// RTPROT_REDIRECT: an ICMP redirect (no longer used).
        Redirect = 1 => "redirect",
        /// RTPROT_KERNEL: the kernel itself.
        Kernel = 2 => "kernel",
        /// RTPROT_BOOT: what `ip route add` gives unless told another.
        Boot = 3 => "boot",
        /// RTPROT_STATIC: the administrator, meant to stay.
        Static = 4 => "static",
        /// RTPROT_GATED.
        Gated = 8 => "gated",
        /// RTPROT_RA: IPv6 router advertisements.
        Ra = 9 => "ra",
        /// RTPROT_MRT: Merit MRT.
        Mrt = 10 => "mrt",
        /// RTPROT_ZEBRA: Zebra / Quagga / FRR.
        Zebra = 11 => "zebra",
        /// RTPROT_BIRD.
        Bird = 12 => "bird",
        /// RTPROT_DNROUTED: DECnet.
        Dnrouted = 13 => "dnrouted",
        /// RTPROT_XORP.
        Xorp = 14 => "xorp",
        /// RTPROT_NTK: Netsukuku.
        Ntk = 15 => "ntk",
        /// RTPROT_DHCP: a DHCP client.
        Dhcp = 16 => "dhcp",
        /// RTPROT_KEEPALIVED.
        Keepalived = 18 => "keepalived",
        /// RTPROT_BABEL.
        Babel = 42 => "babel",
        /// RTPROT_OPENR.
        Openr = 99 => "openr",
        /// RTPROT_BGP.
        Bgp = 186 => "bgp",
        /// RTPROT_ISIS.
        Isis = 187 => "isis",
        /// RTPROT_OSPF.
        Ospf = 188 => "ospf",
        /// RTPROT_RIP.
        Rip = 189 => "rip",
        /// RTPROT_EIGRP.
        Eigrp = 192 => "eigrp",
    }
}

/// A routing table id (`rtm_table`, or all 32 bits of RTA_TABLE;
/// RT_TABLE_* of include/uapi/linux/rtnetlink.h). Named by
/// `rtnl_rttable_n2a` and the stock `rt_tables`.
///
/// Kept as its number, the named tables as constants (`TableId::Main`),
/// rather than as an enum: an enum with a 32-bit `Other` arm takes 8
/// bytes, and every route the model holds carries one. It converts,
/// names and orders as the other wire values do; [`other`](Self::other)
/// stands for their `Other` arm.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId(u32);

#[allow(non_upper_case_globals)]
impl TableId {
    /// RT_TABLE_UNSPEC: in a request, every table.
    pub const Unspec: TableId = TableId(0);
    /// RT_TABLE_DEFAULT.
    pub const Default: TableId = TableId(253);
    /// RT_TABLE_MAIN: where `ip route` adds routes.
    pub const Main: TableId = TableId(254);
    /// RT_TABLE_LOCAL: local and broadcast routes.
    pub const Local: TableId = TableId(255);

    /// Every named table with its number and name, in the order of the
    /// numbers.
    pub const NAMED: &'static [(TableId, u32, &'static str)] = &[
        (TableId::Unspec, 0, "unspec"),
        (TableId::Default, 253, "default"),
        (TableId::Main, 254, "main"),
        (TableId::Local, 255, "local"),
    ];

    /// The table's number.
    pub const fn number(self) -> u32 {
        self.0
    }

    /// The number of a table without a name of its own (what the other
    /// values' `Other` arm holds).
    pub fn other(self) -> Option<u32> {
        self.named().is_none().then_some(self.0)
    }

    /// The name (iproute2's spelling); for a table without one, the number.
    pub fn name(self) -> Cow<'static, str> {
        match self.named() {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(self.0.to_string()),
        }
    }

    /// The table `ip` prints as `name` (a name of [`NAMED`](Self::NAMED)
    /// or a number); `None` for another word.
    pub fn from_name(name: &str) -> Option<Self> {
        match Self::NAMED.iter().find(|(_, _, text)| *text == name) {
            Some((t, _, _)) => Some(*t),
            None => name.parse::<u32>().ok().map(TableId),
        }
    }

    /// The name, `None` for a number without one.
    pub fn named(self) -> Option<&'static str> {
        match self.0 {
            0 => Some("unspec"),
            253 => Some("default"),
            254 => Some("main"),
            255 => Some("local"),
            _ => None,
        }
    }
}

impl From<u32> for TableId {
    fn from(n: u32) -> Self {
        TableId(n)
    }
}

impl From<TableId> for u32 {
    fn from(t: TableId) -> Self {
        t.0
    }
}

/// Table 0 (RT_TABLE_UNSPEC), as the other values' default is number 0.
impl Default for TableId {
    fn default() -> Self {
        TableId::Unspec
    }
}

/// As the enums print: the named constant, else `Other(N)`.
impl fmt::Debug for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("Unspec"),
            253 => f.write_str("Default"),
            254 => f.write_str("Main"),
            255 => f.write_str("Local"),
            n => write!(f, "Other({n})"),
        }
    }
}

/// Serialized as its number.
impl serde::Serialize for TableId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
#[path = "values_tests.rs"]
mod tests;
