//! Numeric constants of the netlink and rtnetlink UAPI, their names, and
//! kernel byte strings (interface names, labels) as text.
//!
//! Contract: pure lookup tables (Linux `include/uapi/linux/{netlink,rtnetlink,
//! if_addr,if_link,if}.h`); unknown numbers get a numeric name, never a panic.
//! Address families are compared with Linux's numbers, not the build host's
//! libc, so a capture reads the same on any platform.

pub const AF_UNSPEC: u8 = 0;
pub const AF_INET: u8 = 2;
pub const AF_BRIDGE: u8 = 7;
pub const AF_INET6: u8 = 10;

pub const NETLINK_ROUTE: u16 = 0;

pub const NLMSG_NOOP: u16 = 1;
pub const NLMSG_ERROR: u16 = 2;
pub const NLMSG_DONE: u16 = 3;
pub const NLMSG_OVERRUN: u16 = 4;

pub const NLM_F_REQUEST: u16 = 0x1;
pub const NLM_F_MULTI: u16 = 0x2;
pub const NLM_F_ACK: u16 = 0x4;
pub const NLM_F_ECHO: u16 = 0x8;
pub const NLM_F_DUMP_INTR: u16 = 0x10;
pub const NLM_F_DUMP_FILTERED: u16 = 0x20;
pub const NLM_F_ROOT: u16 = 0x100;
pub const NLM_F_MATCH: u16 = 0x200;
pub const NLM_F_DUMP: u16 = NLM_F_ROOT | NLM_F_MATCH;

/// Whether a request is a dump: a GET (`RTM_GET*`) with either of
/// NLM_F_ROOT and NLM_F_MATCH, as `rtnetlink_rcv_msg` tests it (dhcpcd
/// sends NLM_F_MATCH alone). On other requests those bits mean
/// NLM_F_REPLACE and NLM_F_EXCL.
pub fn is_dump_request(msg_type: u16, flags: u16) -> bool {
    msg_type >= RTM_NEWLINK && msg_type & 3 == 2 && flags & NLM_F_REQUEST != 0 && flags & NLM_F_DUMP != 0
}
pub const NLM_F_CAPPED: u16 = 0x100;
pub const NLM_F_ACK_TLVS: u16 = 0x200;
/// Flags of NEW requests (same bits as ROOT/MATCH/ATOMIC of GET requests).
pub const NLM_F_REPLACE: u16 = 0x100;
pub const NLM_F_EXCL: u16 = 0x200;
pub const NLM_F_CREATE: u16 = 0x400;
pub const NLM_F_APPEND: u16 = 0x800;

pub const RTM_NEWLINK: u16 = 16;
pub const RTM_DELLINK: u16 = 17;
pub const RTM_GETLINK: u16 = 18;
pub const RTM_SETLINK: u16 = 19;
pub const RTM_NEWADDR: u16 = 20;
pub const RTM_DELADDR: u16 = 21;
pub const RTM_GETADDR: u16 = 22;
pub const RTM_NEWROUTE: u16 = 24;
pub const RTM_DELROUTE: u16 = 25;
pub const RTM_GETROUTE: u16 = 26;

pub const IFLA_ADDRESS: u16 = 1;
pub const IFLA_IFNAME: u16 = 3;
pub const IFLA_MTU: u16 = 4;
pub const IFLA_LINK: u16 = 5;
pub const IFLA_MASTER: u16 = 10;
pub const IFLA_OPERSTATE: u16 = 16;
pub const IFLA_LINKINFO: u16 = 18;
/// The namespace a request puts the link in: a process's (`IFLA_NET_NS_PID`),
/// a namespace file descriptor (`IFLA_NET_NS_FD`), or a namespace id of
/// the requester's (`IFLA_TARGET_NETNSID`, which makes the whole request
/// act there).
pub const IFLA_NET_NS_PID: u16 = 19;
pub const IFLA_NET_NS_FD: u16 = 28;
pub const IFLA_TARGET_NETNSID: u16 = 46;
/// The namespace (by id) of the device IFLA_LINK names, when not this one.
pub const IFLA_LINK_NETNSID: u16 = 37;
pub const IFLA_INFO_KIND: u16 = 1;
pub const IFLA_INFO_DATA: u16 = 2;
/// Inside a veth's IFLA_INFO_DATA: the peer's `ifinfomsg` and attributes.
pub const VETH_INFO_PEER: u16 = 1;
pub const IFLA_INFO_SLAVE_KIND: u16 = 4;
/// Inside an ipip or sit tunnel's IFLA_INFO_DATA: its local and remote IPv4.
pub const IFLA_IPTUN_LOCAL: u16 = 2;
pub const IFLA_IPTUN_REMOTE: u16 = 3;
/// Inside a gre tunnel's IFLA_INFO_DATA: its local and remote IPv4.
pub const IFLA_GRE_LOCAL: u16 = 6;
pub const IFLA_GRE_REMOTE: u16 = 7;

/// Device types (`ARPHRD_*`).
pub const ARPHRD_ETHER: u16 = 1;
pub const ARPHRD_TUNNEL: u16 = 768;
pub const ARPHRD_TUNNEL6: u16 = 769;
pub const ARPHRD_LOOPBACK: u16 = 772;
pub const ARPHRD_SIT: u16 = 776;
pub const ARPHRD_IPGRE: u16 = 778;
pub const ARPHRD_IP6GRE: u16 = 823;
pub const ARPHRD_NONE: u16 = 65534;

pub const IFA_ADDRESS: u16 = 1;
pub const IFA_LOCAL: u16 = 2;
pub const IFA_LABEL: u16 = 3;
pub const IFA_BROADCAST: u16 = 4;
pub const IFA_CACHEINFO: u16 = 6;
pub const IFA_FLAGS: u16 = 8;
pub const IFA_RT_PRIORITY: u16 = 9;
pub const IFA_PROTO: u16 = 11;

pub const RTA_DST: u16 = 1;
pub const RTA_SRC: u16 = 2;
pub const RTA_IIF: u16 = 3;
pub const RTA_OIF: u16 = 4;
pub const RTA_GATEWAY: u16 = 5;
pub const RTA_PRIORITY: u16 = 6;
pub const RTA_PREFSRC: u16 = 7;
pub const RTA_MULTIPATH: u16 = 9;
pub const RTA_TABLE: u16 = 15;
pub const RTA_PREF: u16 = 20;

pub const IFF_UP: u32 = 0x1;
pub const IFF_BROADCAST: u32 = 0x2;
pub const IFF_MULTICAST: u32 = 0x1000;
pub const IFF_LOOPBACK: u32 = 0x8;
pub const IFF_POINTOPOINT: u32 = 0x10;
pub const IFF_NOARP: u32 = 0x80;
pub const IFF_RUNNING: u32 = 0x40;
pub const IFF_LOWER_UP: u32 = 0x10000;

pub const IFA_F_SECONDARY: u32 = 0x01;
pub const IFA_F_NODAD: u32 = 0x02;
pub const IFA_F_NOPREFIXROUTE: u32 = 0x200;
pub const IFA_F_TEMPORARY: u32 = IFA_F_SECONDARY;
pub const IFA_F_OPTIMISTIC: u32 = 0x04;
pub const IFA_F_DADFAILED: u32 = 0x08;
pub const IFA_F_HOMEADDRESS: u32 = 0x10;
pub const IFA_F_DEPRECATED: u32 = 0x20;
pub const IFA_F_TENTATIVE: u32 = 0x40;
pub const IFA_F_PERMANENT: u32 = 0x80;

pub const RT_SCOPE_UNIVERSE: u8 = 0;
pub const RT_SCOPE_SITE: u8 = 200;
pub const RT_SCOPE_LINK: u8 = 253;
pub const RT_SCOPE_HOST: u8 = 254;
pub const RT_SCOPE_NOWHERE: u8 = 255;

pub const RT_TABLE_MAIN: u32 = 254;
pub const RT_TABLE_LOCAL: u32 = 255;

pub const RTN_UNICAST: u8 = 1;
pub const RTN_LOCAL: u8 = 2;
pub const RTN_BROADCAST: u8 = 3;
pub const RTN_MULTICAST: u8 = 5;
pub const RTN_BLACKHOLE: u8 = 6;
pub const RTN_UNREACHABLE: u8 = 7;
pub const RTN_PROHIBIT: u8 = 8;
pub const RTN_THROW: u8 = 9;
/// IPv6's minimum MTU: below it a device has no IPv6.
pub const IPV6_MIN_MTU: u32 = 1280;
/// The loopback device's ifindex in every namespace (`LOOPBACK_IFINDEX`).
pub const LOOPBACK_IFINDEX: u32 = 1;
pub const RTPROT_KERNEL: u8 = 2;
pub const RTPROT_BOOT: u8 = 3;
pub const RTM_F_CLONED: u32 = 0x200;

/// Name of a message type in the NETLINK_ROUTE family.
pub fn message_type(kind: u16) -> std::borrow::Cow<'static, str> {
    const RTM: [&str; 27] = [
        "LINK",
        "ADDR",
        "ROUTE",
        "NEIGH",
        "RULE",
        "QDISC",
        "TCLASS",
        "TFILTER",
        "ACTION",
        "PREFIX",
        "",
        "",
        "NEIGHTBL",
        "NDUSEROPT",
        "ADDRLABEL",
        "DCB",
        "NETCONF",
        "MDB",
        "NSID",
        "STATS",
        "CACHEREPORT",
        "CHAIN",
        "NEXTHOP",
        "LINKPROP",
        "VLAN",
        "NEXTHOPBUCKET",
        "TUNNEL",
    ];
    let fixed = match kind {
        NLMSG_NOOP => Some("NLMSG_NOOP"),
        NLMSG_ERROR => Some("NLMSG_ERROR"),
        NLMSG_DONE => Some("NLMSG_DONE"),
        NLMSG_OVERRUN => Some("NLMSG_OVERRUN"),
        58 => Some("RTM_GETMULTICAST"),
        62 => Some("RTM_GETANYCAST"),
        _ => None,
    };
    if let Some(name) = fixed {
        return name.into();
    }
    if (16..128).contains(&kind) {
        let object = RTM.get(usize::from((kind - 16) / 4)).copied().unwrap_or("");
        let verb = match kind % 4 {
            0 => "NEW",
            1 => "DEL",
            2 => "GET",
            _ => "SET",
        };
        if !object.is_empty() {
            return format!("RTM_{verb}{object}").into();
        }
    }
    format!("TYPE_{kind}").into()
}

/// Names of the set bits of `nlmsg_flags`, which depend on the message kind.
pub fn message_flags(kind: u16, flags: u16) -> Vec<&'static str> {
    let mut out = Vec::new();
    let common = [
        (NLM_F_REQUEST, "REQUEST"),
        (NLM_F_MULTI, "MULTI"),
        (NLM_F_ACK, "ACK"),
        (NLM_F_ECHO, "ECHO"),
        (NLM_F_DUMP_INTR, "DUMP_INTR"),
        (NLM_F_DUMP_FILTERED, "DUMP_FILTERED"),
    ];
    for (bit, name) in common {
        if flags & bit != 0 {
            out.push(name);
        }
    }
    let is_request = flags & NLM_F_REQUEST != 0;
    let high: &[(u16, &str)] = if kind == NLMSG_ERROR {
        &[(0x100, "CAPPED"), (0x200, "ACK_TLVS")]
    } else if is_request && kind >= 16 && kind % 4 == 2 {
        &[(0x100, "ROOT"), (0x200, "MATCH"), (0x400, "ATOMIC")]
    } else if is_request && kind >= 16 && kind.is_multiple_of(4) {
        &[
            (0x100, "REPLACE"),
            (0x200, "EXCL"),
            (0x400, "CREATE"),
            (0x800, "APPEND"),
        ]
    } else if is_request && kind >= 16 && kind % 4 == 1 {
        &[(0x100, "NONREC"), (0x200, "BULK")]
    } else {
        &[]
    };
    for &(bit, name) in high {
        if flags & bit != 0 {
            out.push(name);
        }
    }
    out
}

pub fn address_family(family: u8) -> std::borrow::Cow<'static, str> {
    match family {
        AF_UNSPEC => "unspec".into(),
        1 => "unix".into(),
        AF_INET => "inet".into(),
        AF_BRIDGE => "bridge".into(),
        AF_INET6 => "inet6".into(),
        17 => "packet".into(),
        28 => "mpls".into(),
        other => format!("af{other}").into(),
    }
}

pub fn scope(scope: u8) -> std::borrow::Cow<'static, str> {
    match scope {
        RT_SCOPE_UNIVERSE => "global".into(),
        RT_SCOPE_SITE => "site".into(),
        RT_SCOPE_LINK => "link".into(),
        RT_SCOPE_HOST => "host".into(),
        RT_SCOPE_NOWHERE => "nowhere".into(),
        other => other.to_string().into(),
    }
}

pub fn route_table(table: u32) -> std::borrow::Cow<'static, str> {
    match table {
        0 => "unspec".into(),
        253 => "default".into(),
        RT_TABLE_MAIN => "main".into(),
        RT_TABLE_LOCAL => "local".into(),
        other => other.to_string().into(),
    }
}

pub fn route_type(kind: u8) -> std::borrow::Cow<'static, str> {
    const NAMES: [&str; 12] = [
        "unspec",
        "unicast",
        "local",
        "broadcast",
        "anycast",
        "multicast",
        "blackhole",
        "unreachable",
        "prohibit",
        "throw",
        "nat",
        "xresolve",
    ];
    NAMES
        .get(usize::from(kind))
        .map(|s| std::borrow::Cow::Borrowed(*s))
        .unwrap_or_else(|| kind.to_string().into())
}

pub fn route_protocol(proto: u8) -> std::borrow::Cow<'static, str> {
    match proto {
        0 => "unspec".into(),
        1 => "redirect".into(),
        2 => "kernel".into(),
        3 => "boot".into(),
        4 => "static".into(),
        8 => "gated".into(),
        9 => "ra".into(),
        11 => "zebra".into(),
        12 => "bird".into(),
        16 => "dhcp".into(),
        42 => "babel".into(),
        186 => "bgp".into(),
        187 => "isis".into(),
        188 => "ospf".into(),
        other => other.to_string().into(),
    }
}

pub fn operstate(state: u8) -> std::borrow::Cow<'static, str> {
    const NAMES: [&str; 7] = [
        "UNKNOWN",
        "NOTPRESENT",
        "DOWN",
        "LOWERLAYERDOWN",
        "TESTING",
        "DORMANT",
        "UP",
    ];
    NAMES
        .get(usize::from(state))
        .map(|s| std::borrow::Cow::Borrowed(*s))
        .unwrap_or_else(|| format!("STATE_{state}").into())
}

/// `ip`-style names of the interface flags (IFF_*).
pub fn link_flags(flags: u32) -> Vec<&'static str> {
    const NAMES: [&str; 19] = [
        "UP",
        "BROADCAST",
        "DEBUG",
        "LOOPBACK",
        "POINTOPOINT",
        "NOTRAILERS",
        "RUNNING",
        "NOARP",
        "PROMISC",
        "ALLMULTI",
        "MASTER",
        "SLAVE",
        "MULTICAST",
        "PORTSEL",
        "AUTOMEDIA",
        "DYNAMIC",
        "LOWER_UP",
        "DORMANT",
        "ECHO",
    ];
    bit_names(flags, &NAMES)
}

/// `ip`-style names of the address flags (IFA_F_*). Bit 0 is "secondary" for
/// IPv4 and "temporary" for IPv6.
pub fn address_flags(family: u8, flags: u32) -> Vec<&'static str> {
    const NAMES: [&str; 12] = [
        "secondary",
        "nodad",
        "optimistic",
        "dadfailed",
        "home",
        "deprecated",
        "tentative",
        "permanent",
        "mngtmpaddr",
        "noprefixroute",
        "autojoin",
        "stable-privacy",
    ];
    let mut v = bit_names(flags, &NAMES);
    if family == AF_INET6 {
        for n in v.iter_mut() {
            if *n == "secondary" {
                *n = "temporary";
            }
        }
    }
    v
}

fn bit_names(flags: u32, names: &[&'static str]) -> Vec<&'static str> {
    names
        .iter()
        .enumerate()
        .filter(|(bit, _)| flags & (1 << bit) != 0)
        .map(|(_, n)| *n)
        .collect()
}

/// Name of a (positive) Linux errno value.
pub fn errno(code: i32) -> std::borrow::Cow<'static, str> {
    let name = match code.unsigned_abs() {
        0 => "OK",
        1 => "EPERM",
        2 => "ENOENT",
        3 => "ESRCH",
        4 => "EINTR",
        5 => "EIO",
        6 => "ENXIO",
        7 => "E2BIG",
        9 => "EBADF",
        11 => "EAGAIN",
        12 => "ENOMEM",
        13 => "EACCES",
        14 => "EFAULT",
        16 => "EBUSY",
        17 => "EEXIST",
        19 => "ENODEV",
        22 => "EINVAL",
        28 => "ENOSPC",
        34 => "ERANGE",
        61 => "ENODATA",
        71 => "EPROTO",
        90 => "EMSGSIZE",
        93 => "EPROTONOSUPPORT",
        95 => "EOPNOTSUPP",
        97 => "EAFNOSUPPORT",
        98 => "EADDRINUSE",
        99 => "EADDRNOTAVAIL",
        101 => "ENETUNREACH",
        105 => "ENOBUFS",
        113 => "EHOSTUNREACH",
        524 => "ENOTSUPP",
        _ => return format!("errno {}", code.unsigned_abs()).into(),
    };
    name.into()
}

/// Text with invalid UTF-8 bytes written as `\xNN` (Linux allows such names).
pub fn escape_bytes(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        s.push_str(chunk.valid());
        for byte in chunk.invalid() {
            s.push_str(&format!("\\x{byte:02x}"));
        }
    }
    s
}

#[cfg(test)]
#[path = "names_tests.rs"]
mod tests;
