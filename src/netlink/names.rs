//! Numeric constants of the netlink and rtnetlink UAPI, their names, and
//! kernel byte strings (interface names, labels) as text.
//!
//! Contract: pure lookup tables (Linux `include/uapi/linux/{netlink,rtnetlink,
//! if_addr,if_link,if}.h`); unknown numbers get a numeric name, never a panic.
//! The names of the typed wire values (family, scope, route type, protocol,
//! table) are those of [`super::values`]. Address families are compared
//! with Linux's numbers, not the build host's
//! libc, so a capture reads the same on any platform.

/// AF_UNSPEC (include/linux/socket.h): no family; in a GET request, every
/// family.
pub const AF_UNSPEC: u8 = 0;
/// AF_INET (include/linux/socket.h): IPv4.
pub const AF_INET: u8 = 2;
/// AF_BRIDGE (include/linux/socket.h): bridge ports (the family of `bridge
/// link` messages).
pub const AF_BRIDGE: u8 = 7;
/// AF_INET6 (include/linux/socket.h): IPv6.
pub const AF_INET6: u8 = 10;

/// NETLINK_ROUTE (include/uapi/linux/netlink.h): rtnetlink, the protocol of
/// links, addresses and routes (nlmon gives a record's protocol in its
/// link-layer header).
pub const NETLINK_ROUTE: u16 = 0;

/// NLMSG_NOOP (include/uapi/linux/netlink.h): a message to skip.
pub const NLMSG_NOOP: u16 = 1;
/// NLMSG_ERROR (include/uapi/linux/netlink.h): the kernel's answer to a
/// request, an errno (0 for an ACK) and the request quoted.
pub const NLMSG_ERROR: u16 = 2;
/// NLMSG_DONE (include/uapi/linux/netlink.h): the end of a multipart (dump)
/// reply.
pub const NLMSG_DONE: u16 = 3;
/// NLMSG_OVERRUN (include/uapi/linux/netlink.h): data was lost.
pub const NLMSG_OVERRUN: u16 = 4;

/// NLM_F_REQUEST (include/uapi/linux/netlink.h): sent by user space to the
/// kernel.
pub const NLM_F_REQUEST: u16 = 0x1;
/// NLM_F_MULTI (include/uapi/linux/netlink.h): one part of a multipart reply,
/// which NLMSG_DONE ends.
pub const NLM_F_MULTI: u16 = 0x2;
/// NLM_F_ACK (include/uapi/linux/netlink.h): the request wants an NLMSG_ERROR
/// with errno 0 when it succeeds.
pub const NLM_F_ACK: u16 = 0x4;
/// NLM_F_ECHO (include/uapi/linux/netlink.h): the request wants the resulting
/// notification sent back to it too.
pub const NLM_F_ECHO: u16 = 0x8;
/// NLM_F_DUMP_INTR (include/uapi/linux/netlink.h): the table changed while it
/// was dumped, so the dump may be inconsistent.
pub const NLM_F_DUMP_INTR: u16 = 0x10;
/// NLM_F_DUMP_FILTERED (include/uapi/linux/netlink.h): the kernel filtered the
/// dump as the (strictly checked) request asked.
pub const NLM_F_DUMP_FILTERED: u16 = 0x20;
/// NLM_F_ROOT (include/uapi/linux/netlink.h), on GET requests: the whole table
/// rather than one entry.
pub const NLM_F_ROOT: u16 = 0x100;
/// NLM_F_MATCH (include/uapi/linux/netlink.h), on GET requests: every entry
/// that matches.
pub const NLM_F_MATCH: u16 = 0x200;
/// NLM_F_DUMP (include/uapi/linux/netlink.h): NLM_F_ROOT and NLM_F_MATCH, what
/// a dump request sets.
pub const NLM_F_DUMP: u16 = NLM_F_ROOT | NLM_F_MATCH;

/// Whether a request is a dump: a GET (`RTM_GET*`) with either of
/// NLM_F_ROOT and NLM_F_MATCH, as `rtnetlink_rcv_msg` tests it (dhcpcd
/// sends NLM_F_MATCH alone). On other requests those bits mean
/// NLM_F_REPLACE and NLM_F_EXCL.
pub fn is_dump_request(msg_type: u16, flags: u16) -> bool {
    msg_type >= RTM_NEWLINK && msg_type & 3 == 2 && flags & NLM_F_REQUEST != 0 && flags & NLM_F_DUMP != 0
}
/// NLM_F_CAPPED (include/uapi/linux/netlink.h), on NLMSG_ERROR: the request is
/// quoted by its header only.
pub const NLM_F_CAPPED: u16 = 0x100;
/// NLM_F_ACK_TLVS (include/uapi/linux/netlink.h), on NLMSG_ERROR: extended-ACK
/// attributes follow the quoted request.
pub const NLM_F_ACK_TLVS: u16 = 0x200;
/// NLM_F_REPLACE (include/uapi/linux/netlink.h), on NEW requests: replace the
/// existing entry. The flags of NEW requests reuse the bits of ROOT, MATCH
/// and ATOMIC of GET requests.
pub const NLM_F_REPLACE: u16 = 0x100;
/// NLM_F_EXCL (include/uapi/linux/netlink.h), on NEW requests: fail with EEXIST
/// when the entry exists.
pub const NLM_F_EXCL: u16 = 0x200;
/// NLM_F_CREATE (include/uapi/linux/netlink.h), on NEW requests: create the
/// entry when it does not exist.
pub const NLM_F_CREATE: u16 = 0x400;
/// NLM_F_APPEND (include/uapi/linux/netlink.h), on NEW requests: add after the
/// existing entries of the same key (routes).
pub const NLM_F_APPEND: u16 = 0x800;

/// RTM_NEWLINK (include/uapi/linux/rtnetlink.h): create or change a link; a
/// link notification or dump entry.
pub const RTM_NEWLINK: u16 = 16;
/// RTM_DELLINK (include/uapi/linux/rtnetlink.h): delete a link, or its
/// notification.
pub const RTM_DELLINK: u16 = 17;
/// RTM_GETLINK (include/uapi/linux/rtnetlink.h): ask for one link or dump them
/// all.
pub const RTM_GETLINK: u16 = 18;
/// RTM_SETLINK (include/uapi/linux/rtnetlink.h): change an existing link (never
/// creates one).
pub const RTM_SETLINK: u16 = 19;
/// RTM_NEWADDR (include/uapi/linux/rtnetlink.h): add or change an address; an
/// address notification or dump entry.
pub const RTM_NEWADDR: u16 = 20;
/// RTM_DELADDR (include/uapi/linux/rtnetlink.h): delete an address, or its
/// notification.
pub const RTM_DELADDR: u16 = 21;
/// RTM_GETADDR (include/uapi/linux/rtnetlink.h): ask for the addresses (in
/// practice always a dump).
pub const RTM_GETADDR: u16 = 22;
/// RTM_NEWROUTE (include/uapi/linux/rtnetlink.h): add or replace a route; a
/// route notification or dump entry.
pub const RTM_NEWROUTE: u16 = 24;
/// RTM_DELROUTE (include/uapi/linux/rtnetlink.h): delete a route, or its
/// notification.
pub const RTM_DELROUTE: u16 = 25;
/// RTM_GETROUTE (include/uapi/linux/rtnetlink.h): dump the routes, or look one
/// destination up.
pub const RTM_GETROUTE: u16 = 26;
/// RTM_NEWNEIGH (include/uapi/linux/rtnetlink.h): a neighbour entry, new
/// or changed.
pub const RTM_NEWNEIGH: u16 = 28;
/// RTM_DELNEIGH: a neighbour entry deleted.
pub const RTM_DELNEIGH: u16 = 29;
/// RTM_NEWRULE (include/uapi/linux/rtnetlink.h): add a policy routing
/// rule; a rule notification or dump entry.
pub const RTM_NEWRULE: u16 = 32;
/// RTM_DELRULE: delete a rule, or its notification.
pub const RTM_DELRULE: u16 = 33;
/// RTM_GETRULE: dump the rules.
pub const RTM_GETRULE: u16 = 34;
/// `sizeof(struct fib_rule_hdr)` (include/uapi/linux/fib_rules.h).
pub const FIB_RULE_HDR_LEN: usize = 12;

/// IFLA_ADDRESS (include/uapi/linux/if_link.h): the link-layer (MAC) address.
pub const IFLA_ADDRESS: u16 = 1;
/// IFLA_BROADCAST (include/uapi/linux/if_link.h): the link-layer broadcast
/// address (a point-to-point link's peer).
pub const IFLA_BROADCAST: u16 = 2;
/// IFLA_IFNAME (include/uapi/linux/if_link.h): the device name, NUL-terminated.
pub const IFLA_IFNAME: u16 = 3;
/// IFLA_QDISC (include/uapi/linux/if_link.h): the root qdisc's kind.
pub const IFLA_QDISC: u16 = 6;
/// IFLA_TXQLEN (include/uapi/linux/if_link.h): the transmit queue length.
pub const IFLA_TXQLEN: u16 = 13;
/// IFLA_LINKMODE (include/uapi/linux/if_link.h): 0 default, 1 dormant.
pub const IFLA_LINKMODE: u16 = 17;
/// IFLA_IFALIAS (include/uapi/linux/if_link.h): the device's alias.
pub const IFLA_IFALIAS: u16 = 20;
/// IFLA_GROUP (include/uapi/linux/if_link.h): the device group.
pub const IFLA_GROUP: u16 = 27;
/// IFLA_PROTO_DOWN (include/uapi/linux/if_link.h): held down by a protocol.
pub const IFLA_PROTO_DOWN: u16 = 39;
/// IFLA_PROP_LIST (include/uapi/linux/if_link.h): nested properties, the
/// alternative names.
pub const IFLA_PROP_LIST: u16 = 52;
/// Per address family settings of the device (nested).
pub const IFLA_AF_SPEC: u16 = 26;
/// IFLA_ALT_IFNAME (include/uapi/linux/if_link.h), inside IFLA_PROP_LIST: one
/// alternative name.
pub const IFLA_ALT_IFNAME: u16 = 53;
/// IFLA_PERM_ADDRESS (include/uapi/linux/if_link.h): the permanent hardware
/// address.
pub const IFLA_PERM_ADDRESS: u16 = 54;
/// IFLA_MTU (include/uapi/linux/if_link.h): the MTU in bytes.
pub const IFLA_MTU: u16 = 4;
/// IFLA_LINK (include/uapi/linux/if_link.h): the ifindex of the lower device (a
/// VLAN's parent, a veth's peer).
pub const IFLA_LINK: u16 = 5;
/// IFLA_MASTER (include/uapi/linux/if_link.h): the ifindex of the master
/// (bridge, bond, VRF) the link is a port of.
pub const IFLA_MASTER: u16 = 10;
/// IFLA_OPERSTATE (include/uapi/linux/if_link.h): the RFC 2863 operational
/// state, one byte (see [`operstate`]).
pub const IFLA_OPERSTATE: u16 = 16;
/// IFLA_LINKINFO (include/uapi/linux/if_link.h): nested, the device kind and
/// its kind-specific data.
pub const IFLA_LINKINFO: u16 = 18;
/// IFLA_NET_NS_PID (include/uapi/linux/if_link.h): put the link in the network
/// namespace of this process. A request names the namespace it puts the link
/// in by a process (this), a namespace file descriptor
/// ([`IFLA_NET_NS_FD`]), or a namespace id of the requester's
/// ([`IFLA_TARGET_NETNSID`], which makes the whole request act there).
pub const IFLA_NET_NS_PID: u16 = 19;
/// IFLA_NET_NS_FD (include/uapi/linux/if_link.h): put the link in the namespace
/// of this file descriptor of the requester.
pub const IFLA_NET_NS_FD: u16 = 28;
/// IFLA_TARGET_NETNSID (include/uapi/linux/if_link.h): the whole request acts
/// in the requester's namespace of this id.
pub const IFLA_TARGET_NETNSID: u16 = 46;
/// IFLA_NEW_NETNSID: on the RTM_DELLINK of a device moved to another
/// namespace, that namespace's id as this one knows it.
pub const IFLA_NEW_NETNSID: u16 = 45;
/// The namespace (by id) of the device IFLA_LINK names, when not this one.
pub const IFLA_LINK_NETNSID: u16 = 37;
/// IFLA_INFO_KIND (include/uapi/linux/if_link.h), inside IFLA_LINKINFO: the
/// kind (`veth`, `bridge`, `vlan`, ...).
pub const IFLA_INFO_KIND: u16 = 1;
/// IFLA_INFO_DATA (include/uapi/linux/if_link.h), inside IFLA_LINKINFO:
/// attributes of that kind.
pub const IFLA_INFO_DATA: u16 = 2;
/// Inside a veth's IFLA_INFO_DATA: the peer's `ifinfomsg` and attributes.
pub const VETH_INFO_PEER: u16 = 1;
/// IFLA_INFO_SLAVE_KIND (include/uapi/linux/if_link.h), inside IFLA_LINKINFO:
/// the kind of the master the link is a port of.
pub const IFLA_INFO_SLAVE_KIND: u16 = 4;
/// IFLA_IPTUN_LOCAL (include/uapi/linux/if_tunnel.h), inside an ipip or sit
/// tunnel's IFLA_INFO_DATA: its local IPv4 endpoint.
pub const IFLA_IPTUN_LOCAL: u16 = 2;
/// IFLA_IPTUN_REMOTE (include/uapi/linux/if_tunnel.h), likewise: its remote
/// IPv4 endpoint.
pub const IFLA_IPTUN_REMOTE: u16 = 3;
/// IFLA_GRE_LOCAL (include/uapi/linux/if_tunnel.h), inside a gre tunnel's
/// IFLA_INFO_DATA: its local IPv4 endpoint.
pub const IFLA_GRE_LOCAL: u16 = 6;
/// IFLA_GRE_REMOTE (include/uapi/linux/if_tunnel.h), likewise: its remote IPv4
/// endpoint.
pub const IFLA_GRE_REMOTE: u16 = 7;

/// ARPHRD_ETHER (include/uapi/linux/if_arp.h): Ethernet, and devices that look
/// like it (veth, bridge, VLAN).
pub const ARPHRD_ETHER: u16 = 1;
/// ARPHRD_TUNNEL (include/uapi/linux/if_arp.h): an IPv4-in-IPv4 (ipip) tunnel.
pub const ARPHRD_TUNNEL: u16 = 768;
/// ARPHRD_TUNNEL6 (include/uapi/linux/if_arp.h): an IP-in-IPv6 (ip6tnl) tunnel.
pub const ARPHRD_TUNNEL6: u16 = 769;
/// ARPHRD_LOOPBACK (include/uapi/linux/if_arp.h): the loopback device.
pub const ARPHRD_LOOPBACK: u16 = 772;
/// ARPHRD_SIT (include/uapi/linux/if_arp.h): an IPv6-in-IPv4 (sit) tunnel.
pub const ARPHRD_SIT: u16 = 776;
/// ARPHRD_IPGRE (include/uapi/linux/if_arp.h): a GRE-over-IPv4 tunnel.
pub const ARPHRD_IPGRE: u16 = 778;
/// ARPHRD_IP6GRE (include/uapi/linux/if_arp.h): a GRE-over-IPv6 tunnel.
pub const ARPHRD_IP6GRE: u16 = 823;
/// ARPHRD_NONE (include/uapi/linux/if_arp.h): no link-layer header at all (tun,
/// WireGuard).
pub const ARPHRD_NONE: u16 = 65534;

/// IFA_ADDRESS (include/uapi/linux/if_addr.h): the address; on a point-to-point
/// link, the peer's.
pub const IFA_ADDRESS: u16 = 1;
/// IFA_LOCAL (include/uapi/linux/if_addr.h): the local address (IPv4; differs
/// from IFA_ADDRESS only point-to-point).
pub const IFA_LOCAL: u16 = 2;
/// IFA_LABEL (include/uapi/linux/if_addr.h): an IPv4 address's label
/// (`eth0:1`), NUL-terminated.
pub const IFA_LABEL: u16 = 3;
/// IFA_BROADCAST (include/uapi/linux/if_addr.h): the IPv4 broadcast address.
pub const IFA_BROADCAST: u16 = 4;
/// IFA_CACHEINFO (include/uapi/linux/if_addr.h): `struct ifa_cacheinfo`,
/// lifetimes and timestamps.
pub const IFA_CACHEINFO: u16 = 6;
/// IFA_FLAGS (include/uapi/linux/if_addr.h): all 32 bits of the IFA_F_* flags.
pub const IFA_FLAGS: u16 = 8;
/// IFA_RT_PRIORITY (include/uapi/linux/if_addr.h): the metric of the address's
/// prefix route.
pub const IFA_RT_PRIORITY: u16 = 9;
/// IFA_PROTO (include/uapi/linux/if_addr.h): who added the address (IFAPROT_*:
/// kernel loopback, RA, link-local, ...).
pub const IFA_PROTO: u16 = 11;

/// RTA_DST (include/uapi/linux/rtnetlink.h): the destination prefix (its length
/// is `rtm_dst_len`).
pub const RTA_DST: u16 = 1;
/// RTA_SRC (include/uapi/linux/rtnetlink.h): the source prefix of a
/// source-specific route (length `rtm_src_len`).
pub const RTA_SRC: u16 = 2;
/// RTA_IIF (include/uapi/linux/rtnetlink.h): the ifindex of the input
/// interface.
pub const RTA_IIF: u16 = 3;
/// RTA_OIF (include/uapi/linux/rtnetlink.h): the ifindex of the output
/// interface.
pub const RTA_OIF: u16 = 4;
/// RTA_GATEWAY (include/uapi/linux/rtnetlink.h): the next hop's address.
pub const RTA_GATEWAY: u16 = 5;
/// RTA_PRIORITY (include/uapi/linux/rtnetlink.h): the metric (lower wins).
pub const RTA_PRIORITY: u16 = 6;
/// RTA_PREFSRC (include/uapi/linux/rtnetlink.h): the preferred source address
/// for packets the route sends.
pub const RTA_PREFSRC: u16 = 7;
/// RTA_MULTIPATH (include/uapi/linux/rtnetlink.h): several next hops (`struct
/// rtnexthop` each).
pub const RTA_MULTIPATH: u16 = 9;
/// RTA_METRICS (include/uapi/linux/rtnetlink.h): nested RTAX_* route metrics.
pub const RTA_METRICS: u16 = 8;
/// RTAX_LOCK (include/uapi/linux/rtnetlink.h), inside RTA_METRICS: the
/// locked metrics, a bit per RTAX_* type.
pub const RTAX_LOCK: u16 = 1;
/// RTAX_CC_ALGO (include/uapi/linux/rtnetlink.h), inside RTA_METRICS: the
/// congestion control algorithm's name.
pub const RTAX_CC_ALGO: u16 = 16;
/// RTA_FLOW (include/uapi/linux/rtnetlink.h): the realms, from << 16 | to.
pub const RTA_FLOW: u16 = 11;
/// RTA_NH_ID (include/uapi/linux/rtnetlink.h): the id of a nexthop object.
pub const RTA_NH_ID: u16 = 30;
/// RTA_TABLE (include/uapi/linux/rtnetlink.h): all 32 bits of the table id.
pub const RTA_TABLE: u16 = 15;
/// RTA_PREF (include/uapi/linux/rtnetlink.h): an IPv6 router preference (RFC
/// 4191: low, medium, high).
pub const RTA_PREF: u16 = 20;

/// IFF_UP (include/uapi/linux/if.h): administratively up.
pub const IFF_UP: u32 = 0x1;
/// IFF_BROADCAST (include/uapi/linux/if.h): the link can broadcast.
pub const IFF_BROADCAST: u32 = 0x2;
/// IFF_MULTICAST (include/uapi/linux/if.h): the link can multicast.
pub const IFF_MULTICAST: u32 = 0x1000;
/// IFF_LOOPBACK (include/uapi/linux/if.h): a loopback device.
pub const IFF_LOOPBACK: u32 = 0x8;
/// IFF_POINTOPOINT (include/uapi/linux/if.h): a point-to-point link (one peer).
pub const IFF_POINTOPOINT: u32 = 0x10;
/// IFF_NOARP (include/uapi/linux/if.h): no ARP or neighbour discovery on the
/// link.
pub const IFF_NOARP: u32 = 0x80;
/// IFF_RUNNING (include/uapi/linux/if.h): operationally up (RFC 2863 `up`).
pub const IFF_RUNNING: u32 = 0x40;
/// IFF_LOWER_UP (include/uapi/linux/if.h): the driver reports carrier.
pub const IFF_LOWER_UP: u32 = 0x10000;
/// IFF_MASTER (include/uapi/linux/if.h): a bond (load balancing master).
pub const IFF_MASTER: u32 = 0x400;
/// IFF_SLAVE (include/uapi/linux/if.h): a bond's slave; IPv6 autoconfiguration
/// leaves it alone.
pub const IFF_SLAVE: u32 = 0x800;

/// IFA_F_SECONDARY (include/uapi/linux/if_addr.h): an IPv4 address added while
/// the device already had one (its primary) in the same subnet.
pub const IFA_F_SECONDARY: u32 = 0x01;
/// IFA_F_NODAD (include/uapi/linux/if_addr.h): IPv6 duplicate address detection
/// skipped.
pub const IFA_F_NODAD: u32 = 0x02;
/// IFA_F_NOPREFIXROUTE (include/uapi/linux/if_addr.h): the kernel adds no
/// prefix route for the address.
pub const IFA_F_NOPREFIXROUTE: u32 = 0x200;
/// IFA_F_TEMPORARY (include/uapi/linux/if_addr.h): an IPv6 privacy address (RFC
/// 8981); the same bit as IFA_F_SECONDARY.
pub const IFA_F_TEMPORARY: u32 = IFA_F_SECONDARY;
/// IFA_F_OPTIMISTIC (include/uapi/linux/if_addr.h): usable while DAD runs (RFC
/// 4429).
pub const IFA_F_OPTIMISTIC: u32 = 0x04;
/// IFA_F_DADFAILED (include/uapi/linux/if_addr.h): DAD found the address in use
/// elsewhere.
pub const IFA_F_DADFAILED: u32 = 0x08;
/// IFA_F_HOMEADDRESS (include/uapi/linux/if_addr.h): a Mobile IPv6 home
/// address.
pub const IFA_F_HOMEADDRESS: u32 = 0x10;
/// IFA_F_DEPRECATED (include/uapi/linux/if_addr.h): its preferred lifetime is
/// over; kept, but not chosen as a source.
pub const IFA_F_DEPRECATED: u32 = 0x20;
/// IFA_F_TENTATIVE (include/uapi/linux/if_addr.h): DAD is still running; the
/// address is not usable yet.
pub const IFA_F_TENTATIVE: u32 = 0x40;
/// IFA_F_PERMANENT (include/uapi/linux/if_addr.h): configured, without
/// lifetimes (not from autoconfiguration).
pub const IFA_F_PERMANENT: u32 = 0x80;

/// RTNH_F_LINKDOWN (include/uapi/linux/rtnetlink.h): the next hop's device
/// has no carrier.
pub const RTNH_F_LINKDOWN: u32 = 0x10;
/// IPv6's minimum MTU: below it a device has no IPv6.
pub const IPV6_MIN_MTU: u32 = 1280;
/// The loopback device's ifindex in every namespace (`LOOPBACK_IFINDEX`).
pub const LOOPBACK_IFINDEX: u32 = 1;
/// RTM_F_CLONED (include/uapi/linux/rtnetlink.h), in `rtm_flags`: a cached
/// route (a route exception), not an entry of a table.
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
    // The high bits mean what the message's kind of type makes them mean
    // (uapi netlink.h), whoever sent it: the kernel's route notifications
    // carry CREATE, EXCL, REPLACE and APPEND too, and a SET shares NEW's.
    let high: &[(u16, &str)] = if kind == NLMSG_ERROR {
        &[(0x100, "CAPPED"), (0x200, "ACK_TLVS")]
    } else if kind < RTM_NEWLINK {
        &[]
    } else if kind % 4 == 2 {
        &[(0x100, "ROOT"), (0x200, "MATCH"), (0x400, "ATOMIC")]
    } else if kind.is_multiple_of(4) || kind % 4 == 3 {
        &[
            (0x100, "REPLACE"),
            (0x200, "EXCL"),
            (0x400, "CREATE"),
            (0x800, "APPEND"),
        ]
    } else {
        &[(0x100, "NONREC"), (0x200, "BULK")]
    };
    for &(bit, name) in high {
        if flags & bit != 0 {
            out.push(name);
        }
    }
    out
}

/// `ip`'s name of an RFC 2863 operational state (IFLA_OPERSTATE: `UP`,
/// `DOWN`, `LOWERLAYERDOWN`, ...); `STATE_<N>` past the known ones.
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
pub fn address_flags(family: super::values::AddressFamily, flags: u32) -> Vec<&'static str> {
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
    if family == super::values::AddressFamily::Inet6 {
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

/// The `IFF_*` link flags by the names `ip` prints, in the order its
/// `print_link_flags` prints them (`RUNNING` is printed as the absence of
/// `NO-CARRIER`, so it is not here).
pub const IFF_NAMES: [(u32, &str); 18] = [
    (0x8, "LOOPBACK"),
    (0x2, "BROADCAST"),
    (0x10, "POINTOPOINT"),
    (0x1000, "MULTICAST"),
    (0x80, "NOARP"),
    (0x200, "ALLMULTI"),
    (0x100, "PROMISC"),
    (0x400, "MASTER"),
    (0x800, "SLAVE"),
    (0x4, "DEBUG"),
    (0x8000, "DYNAMIC"),
    (0x4000, "AUTOMEDIA"),
    (0x2000, "PORTSEL"),
    (0x20, "NOTRAILERS"),
    (0x1, "UP"),
    (0x10000, "LOWER_UP"),
    (0x20000, "DORMANT"),
    (0x40000, "ECHO"),
];

/// The route and next-hop flags (`RTNH_F_*`, `RTM_F_*`) by the names `ip`
/// prints, in the order its `print_rt_flags` prints them.
pub const ROUTE_FLAG_NAMES: [(u32, &str); 11] = [
    (0x1, "dead"),
    (0x4, "onlink"),
    (0x2, "pervasive"),
    (0x8, "offload"),
    (0x40, "trap"),
    (0x100, "notify"),
    (0x10, "linkdown"),
    (0x20, "unresolved"),
    (0x2000, "rt_offload"),
    (0x4000, "rt_trap"),
    (0x2000_0000, "rt_offload_failed"),
];

/// The route metrics (`RTAX_*`, the index) by the keys `ip -j` prints them
/// under in `metrics` (`print_rta_metrics`); 0 has none, and 1 is the lock
/// mask, printed as `lock` before the metrics it locks.
pub const RTAX_NAMES: [&str; 18] = [
    "",
    "lock",
    "mtu",
    "window",
    "rtt",
    "rttvar",
    "ssthresh",
    "cwnd",
    "advmss",
    "reordering",
    "hoplimit",
    "initcwnd",
    "features",
    "rto_min",
    "initrwnd",
    "quickack",
    "congestion",
    "fastopen_no_cookie",
];

/// The link types (`ARPHRD_*`) `ip` names by a word (iproute2's
/// `ll_types.c`), as it names them; `fcfb0` to `fcfb12` (787 to 799) are
/// counted, not listed.
const LINK_TYPE_NAMES: &[(u16, &str)] = &[
    (0, "netrom"),
    (1, "ether"),
    (2, "eether"),
    (3, "ax25"),
    (4, "pronet"),
    (5, "chaos"),
    (6, "ieee802"),
    (7, "arcnet"),
    (8, "atalk"),
    (15, "dlci"),
    (19, "atm"),
    (23, "metricom"),
    (24, "ieee1394"),
    (32, "infiniband"),
    (256, "slip"),
    (257, "cslip"),
    (258, "slip6"),
    (259, "cslip6"),
    (260, "rsrvd"),
    (264, "adapt"),
    (270, "rose"),
    (271, "x25"),
    (272, "hwx25"),
    (280, "can"),
    (512, "ppp"),
    (513, "hdlc"),
    (516, "lapb"),
    (517, "ddcmp"),
    (518, "rawhdlc"),
    (768, "ipip"),
    (769, "tunnel6"),
    (770, "frad"),
    (771, "skip"),
    (772, "loopback"),
    (773, "ltalk"),
    (774, "fddi"),
    (775, "bif"),
    (776, "sit"),
    (777, "ip/ddp"),
    (778, "gre"),
    (779, "pimreg"),
    (780, "hippi"),
    (781, "ash"),
    (782, "econet"),
    (783, "irda"),
    (784, "fcpp"),
    (785, "fcal"),
    (786, "fcpl"),
    (800, "tr"),
    (801, "ieee802.11"),
    (802, "ieee802.11/prism"),
    (803, "ieee802.11/radiotap"),
    (804, "ieee802.15.4"),
    (805, "ieee802.15.4/monitor"),
    (820, "phonet"),
    (821, "phonet_pipe"),
    (822, "caif"),
    (823, "gre6"),
    (824, "netlink"),
    (825, "6lowpan"),
    (0xfffe, "none"),
    (0xffff, "void"),
];

/// `ll_type_n2a`: the name `ip` gives a link type (`[N]` for one it has none for).
pub fn link_type_name(t: u16) -> String {
    if let Some((_, n)) = LINK_TYPE_NAMES.iter().find(|(v, _)| *v == t) {
        return (*n).to_owned();
    }
    match t {
        787..=799 => format!("fcfb{}", t - 787),
        _ => format!("[{t}]"),
    }
}

/// `ll_type_a2n`'s inverse of [`link_type_name`]: the link type `ip` names
/// so (a number as `ip` prints an unnamed one, `[N]`, or bare).
pub fn link_type_number(name: &str) -> Option<u16> {
    if let Some((v, _)) = LINK_TYPE_NAMES.iter().find(|(_, n)| *n == name) {
        return Some(*v);
    }
    if let Some(k) = name
        .strip_prefix("fcfb")
        .and_then(|k| k.parse::<u16>().ok())
        .filter(|k| *k <= 12)
    {
        return Some(787 + k);
    }
    name.strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name)
        .parse()
        .ok()
}

#[cfg(test)]
mod link_type_tests {
    use super::*;

    #[test]
    fn link_type_names_read_back_as_ip_writes_them() {
        for t in 0..=u16::MAX {
            assert_eq!(link_type_number(&link_type_name(t)), Some(t), "{t}");
        }
        // (an ip6gre device, as `ip -j link` names its type)
        assert_eq!(link_type_number("gre6"), Some(ARPHRD_IP6GRE));
        assert_eq!(link_type_number("fcfb3"), Some(790));
        assert_eq!(link_type_number("ip6gre"), None);
    }
}
