//! Test hosts built from other tools' test-vector inputs (interfaces,
//! addresses, routes), for the replays' unit tests.

use std::net::IpAddr;

use crate::model::{AddrEntry, LinkEntry, Model, Origin, RouteEntry, ShortName};
use crate::netlink::names::{IFF_LOOPBACK, IFF_UP};
use crate::netlink::values::{AddressFamily, RouteProtocol, RouteType, Scope, TableId};

pub fn link(index: u32, name: &str) -> LinkEntry {
    let mut l = LinkEntry::placeholder(index, Origin::Dump(1));
    l.name = ShortName::new(name.as_bytes());
    l.placeholder = false;
    l.flags = IFF_UP;
    l
}

pub fn addr(index: u32, cidr: &str) -> AddrEntry {
    let (ip, len) = cidr.split_once('/').expect("cidr");
    let ip: IpAddr = ip.parse().expect("ip");
    let scope = if ip.is_loopback() { Scope::Host } else { Scope::Universe };
    let len = len.parse().expect("len");
    // as the kernel makes one, but not permanent
    AddrEntry {
        flags: 0,
        header_flags: 0,
        ..AddrEntry::kernel_made(index, ip, len, scope, None, Origin::Dump(1))
    }
}

pub fn host(links: &[(u32, &str)], addrs: &[(u32, &str)]) -> Model {
    Model::from_tables(
        links.iter().map(|(i, n)| link(*i, n)).collect(),
        addrs.iter().map(|(i, a)| addr(*i, a)).collect(),
        Vec::new(),
    )
}

pub fn lo_link(index: u32) -> LinkEntry {
    let mut l = link(index, "lo");
    l.flags |= IFF_LOOPBACK;
    l
}

/// `route4("default", Some("10.0.0.1"), 2)`, `route4("10.0.0.0/24", None, 2)`; IPv6 alike.
pub fn route4(dst: &str, gw: Option<&str>, oif: u32) -> RouteEntry {
    let (net, len): (Option<IpAddr>, u8) = match dst {
        "default" => (None, 0),
        "default6" => (None, 0),
        d => {
            let (n, l) = d.split_once('/').expect("cidr");
            (Some(n.parse().expect("ip")), l.parse().expect("len"))
        }
    };
    let gateway: Option<IpAddr> = gw.map(|g| g.parse().expect("ip"));
    let v6 = dst == "default6" || net.is_some_and(|n| n.is_ipv6()) || gateway.is_some_and(|g| g.is_ipv6());
    RouteEntry {
        family: if v6 { AddressFamily::Inet6 } else { AddressFamily::Inet },
        table: TableId::Main,
        dst: net,
        dst_len: len,
        tos: 0,
        gateway,
        oif: Some(oif),
        prefsrc: None,
        priority: None,
        protocol: RouteProtocol::Static,
        scope: if gateway.is_some() {
            Scope::Universe
        } else {
            Scope::Link
        },
        kind: RouteType::Unicast,
        flags: 0,
        multipath: false,
        origin: Origin::Dump(1),
        seq: 0,
        pref: None,
        extra: None,
    }
}
