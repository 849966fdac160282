use super::*;
use crate::model::entries::Origin;
use crate::netlink::values::{AddressFamily, RouteProtocol, RouteType, Scope, TableId};

fn route(family: AddressFamily, table: u32, dst: &str, metric: Option<u32>, seq: i64) -> RouteEntry {
    let (ip, len) = match dst.split_once('/') {
        Some((a, l)) => (a.parse().ok(), l.parse().unwrap_or(0)),
        None if dst == "default" => (None, 0),
        None => (dst.parse().ok(), if family == AddressFamily::Inet { 32 } else { 128 }),
    };
    RouteEntry {
        family,
        table: TableId::from(table),
        dst: ip,
        dst_len: len,
        tos: 0,
        gateway: None,
        oif: None,
        prefsrc: None,
        priority: metric,
        protocol: RouteProtocol::Unspec,
        scope: Scope::Universe,
        kind: RouteType::Unicast,
        flags: 0,
        multipath: false,
        origin: Origin::Dump(0),
        seq,
        pref: None,
        extra: None,
    }
}

/// The order `ip -j -4/-6 route show table all` printed on Debian's 6.12
/// (fixtures/kernels/6.12/routes.l0.ip.json), from a shuffled start.
#[test]
fn sorts_like_a_real_dump() {
    let want = vec![
        route(AddressFamily::Inet, 100, "172.20.0.0/16", None, 0),
        route(AddressFamily::Inet, 254, "default", None, 0),
        route(AddressFamily::Inet, 254, "10.0.0.0/8", None, 0),
        route(AddressFamily::Inet, 254, "10.60.0.0/16", None, 0),
        route(AddressFamily::Inet, 254, "10.66.0.0/16", None, 0),
        route(AddressFamily::Inet, 254, "10.67.0.0/16", Some(5), 0),
        route(AddressFamily::Inet, 254, "192.168.10.0/24", None, 3),
        route(AddressFamily::Inet, 254, "192.168.10.0/24", None, 9),
        route(AddressFamily::Inet, 255, "10.0.0.5", None, 0),
        route(AddressFamily::Inet, 255, "10.255.255.255", None, 0),
        route(AddressFamily::Inet, 255, "127.0.0.0/8", None, 0),
        route(AddressFamily::Inet, 255, "127.0.0.1", None, 0),
        route(AddressFamily::Inet6, 254, "2001:db8:a::/64", Some(256), 0),
        route(AddressFamily::Inet6, 254, "2001:db8:f::/48", Some(100), 0),
        route(AddressFamily::Inet6, 254, "fe80::/64", Some(256), 1),
        route(AddressFamily::Inet6, 254, "fe80::/64", Some(256), 2),
        route(AddressFamily::Inet6, 254, "default", Some(1024), 0),
        route(AddressFamily::Inet6, 255, "::1", Some(0), 0),
        route(AddressFamily::Inet6, 255, "2001:db8:a::5", Some(0), 0),
        route(AddressFamily::Inet6, 255, "fe80::1c8e:1cff:feab:d80d", Some(0), 0),
        route(AddressFamily::Inet6, 255, "fe80::bc77:bcff:fe50:5403", Some(0), 0),
        route(AddressFamily::Inet6, 255, "ff00::/8", Some(256), 0),
    ];
    let mut got = want.clone();
    got.reverse();
    got.swap(3, 17);
    got.swap(0, 9);
    got.sort_by(dump_order);
    let show = |v: &[RouteEntry]| {
        v.iter()
            .map(|r| format!("{} {:?}/{} {}", r.table, r.dst, r.dst_len, r.seq))
            .collect::<Vec<_>>()
    };
    assert_eq!(show(&got), show(&want));
}

#[test]
fn a_more_specific_ipv6_prefix_comes_before_the_one_covering_it() {
    let a = route(AddressFamily::Inet6, 254, "2001:db8::/32", Some(256), 0);
    let b = route(AddressFamily::Inet6, 254, "2001:db8:1::/48", Some(256), 0);
    assert_eq!(dump_order(&b, &a), Ordering::Less);
    // IPv4 is the other way round: one leaf, longer prefix first, but leaves by address
    let c = route(AddressFamily::Inet, 254, "10.0.0.0/8", None, 0);
    let d = route(AddressFamily::Inet, 254, "10.0.0.0/24", None, 0);
    let e = route(AddressFamily::Inet, 254, "10.0.0.5", None, 0);
    assert_eq!(dump_order(&d, &c), Ordering::Less);
    assert_eq!(dump_order(&c, &e), Ordering::Less);
}
