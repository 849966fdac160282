//! Unit tests of `kernel_order`, on the examples the kernel sources and the
//! spec describe (the fixtures check the same rules against a real kernel).

use super::*;
use crate::model::entries::{Origin, ShortName};
use crate::netlink::names::IFA_F_SECONDARY;
use crate::netlink::values::{AddressFamily, Scope};

fn v4(a: &str, plen: u8, scope: Scope, secondary: bool) -> AddrEntry {
    AddrEntry {
        index: 2,
        family: AddressFamily::Inet,
        address: a.parse().expect("ip"),
        peer: None,
        prefix_len: plen,
        label: None,
        scope,
        flags: if secondary { IFA_F_SECONDARY } else { 0 },
        header_flags: 0,
        broadcast: None,
        cacheinfo: None,
        first_addr_attr: None,
        rt_priority: None,
        origin: Origin::Inferred(1),
    }
}

fn v6(a: &str) -> AddrEntry {
    AddrEntry {
        family: AddressFamily::Inet6,
        ..v4("0.0.0.0", 64, Scope::Universe, false)
    }
    .with_address(a)
}

impl AddrEntry {
    fn with_address(mut self, a: &str) -> Self {
        self.address = a.parse().expect("ip");
        self
    }
}

fn link(index: u32) -> LinkEntry {
    let mut l = LinkEntry::placeholder(index, Origin::Dump(1));
    l.name = ShortName::new(format!("if{index}").as_bytes());
    l
}

#[test]
fn later_primary_goes_before_earlier_secondaries() {
    // add 10.0.0.1/24, 10.0.0.2/24 (secondary), then 192.168.0.1/24
    let list = vec![
        v4("10.0.0.1", 24, Scope::Universe, false),
        v4("10.0.0.2", 24, Scope::Universe, true),
    ];
    let new = v4("192.168.0.1", 24, Scope::Universe, false);
    assert!(!ipv4_would_be_secondary(&list, &new));
    assert_eq!(ipv4_insert_position(&list, &new), 1);
    let sec = v4("10.0.0.3", 24, Scope::Universe, true);
    assert!(ipv4_would_be_secondary(&list, &sec));
    assert_eq!(ipv4_insert_position(&list, &sec), 2);
}

#[test]
fn narrower_scopes_go_first() {
    let list = vec![
        v4("10.0.0.1", 24, Scope::Universe, false),
        v4("10.0.0.2", 24, Scope::Universe, true),
    ];
    assert_eq!(ipv4_insert_position(&list, &v4("10.77.0.1", 32, Scope::Host, false)), 0);
    let list = vec![
        v4("10.77.0.1", 32, Scope::Host, false),
        v4("10.0.0.1", 24, Scope::Universe, false),
    ];
    assert_eq!(
        ipv4_insert_position(&list, &v4("169.254.9.9", 16, Scope::Link, false)),
        1
    );
}

#[test]
fn promotion_moves_behind_the_last_primary_between() {
    // [10.9.0.2 P, 192.168.100.5 P, 10.9.0.3 S, 10.9.0.4 S], delete 10.9.0.2
    let list = vec![
        v4("10.9.0.2", 24, Scope::Universe, false),
        v4("192.168.100.5", 24, Scope::Universe, false),
        v4("10.9.0.3", 24, Scope::Universe, true),
        v4("10.9.0.4", 24, Scope::Universe, true),
    ];
    // without 10.9.0.2: [192.168.100.5, 10.9.0.3, 10.9.0.4]; 10.9.0.3 stays at 1
    assert_eq!(ipv4_promotion(&list, 0), Some((1, 1)));
    // a secondary right behind the deleted primary stays in its slot
    let list = vec![
        v4("10.9.0.2", 24, Scope::Universe, false),
        v4("10.9.0.3", 24, Scope::Universe, true),
    ];
    assert_eq!(ipv4_promotion(&list, 0), Some((0, 0)));
    // no primary of wide enough scope in between: the deleted one's slot (2023 fix)
    let list = vec![
        v4("10.77.0.1", 8, Scope::Host, false),
        v4("10.9.0.2", 24, Scope::Universe, false),
        v4("172.16.0.9", 24, Scope::Universe, true),
        v4("10.77.0.2", 8, Scope::Host, true),
    ];
    assert_eq!(ipv4_promotion(&list, 0), Some((2, 0)));
    // a secondary itself is never a promotion source
    assert_eq!(ipv4_promotion(&list, 2), None);
}

#[test]
fn ipv6_is_scope_sorted_newest_first() {
    let list = vec![v6("2001:db8:b::1"), v6("2001:db8:a::1"), v6("fe80::1234")];
    assert_eq!(ipv6_insert_position(&list, &v6("2001:db8:c::1")), 0);
    assert_eq!(ipv6_insert_position(&list, &v6("fe80::1")), 2);
    assert_eq!(ipv6_insert_position(&list[..2], &v6("fe80::1")), 2);
    assert_eq!(ipv6_src_scope(&"::1".parse().expect("ip")), 2);
    assert_eq!(ipv6_src_scope(&"fd00::1".parse().expect("ip")), 14);
}

#[test]
fn link_order_from_real_dumps() {
    // pyroute2 nl0.pcap's link dump (a pre-6.9 kernel)
    let nl0 = [1, 2, 3, 4, 5, 2622, 238, 239, 240, 243, 246];
    match infer_link_order(&nl0) {
        OrderEvidence::Decided(LinkOrder::Buckets, why) => assert!(why.contains("2622"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(infer_link_order(&[1, 2, 3, 9]), OrderEvidence::Ambiguous);
    assert_eq!(infer_link_order(&[1, 2, 300]), OrderEvidence::Ambiguous); // bucket 44 fits both
    assert!(matches!(
        infer_link_order(&[1, 5, 258]),
        OrderEvidence::Decided(LinkOrder::Ascending, _)
    ));
    assert!(matches!(infer_link_order(&[3, 1]), OrderEvidence::Neither(_)));
    // placing new devices
    let links: Vec<LinkEntry> = nl0.iter().map(|&i| link(i)).collect();
    assert_eq!(link_insert_position(&links, 2623, LinkOrder::Buckets), 6); // bucket 63: after 2622
    assert_eq!(link_insert_position(&links, 256 + 3, LinkOrder::Buckets), 2); // bucket 3, newest first
    assert_eq!(link_insert_position(&links, 247, LinkOrder::Buckets), 11);
    let asc: Vec<LinkEntry> = [1, 2, 5].iter().map(|&i| link(i)).collect();
    assert_eq!(link_insert_position(&asc, 3, LinkOrder::Ascending), 2);
}

#[test]
fn kernel_releases_as_uname_and_shb_os_write_them() {
    let v = |s: &str| s.parse::<KernelVersion>().map(|k| (k.major, k.minor));
    assert_eq!(v("6.1"), Ok((6, 1)));
    assert_eq!(v("6.12.117+deb12-amd64"), Ok((6, 12)));
    assert_eq!(v("6.1.0-50-amd64"), Ok((6, 1)));
    assert_eq!(v("Linux 6.18.44-fc-v782"), Ok((6, 18)));
    for bad in ["6", "6.99x", "banana", "", "6.", ".1", "Windows 10.0"] {
        assert!(v(bad).is_err(), "{bad} was accepted");
    }
    let order = |s: &str| s.parse::<KernelVersion>().map(KernelVersion::link_order);
    assert_eq!(order("6.8"), Ok(LinkOrder::Buckets));
    assert_eq!(order("6.9"), Ok(LinkOrder::Ascending));
}

/// The `ff00::/8` route's form by release: the stable releases that took
/// the 5.11 changes decide by their number; a distribution's ABI number
/// (`4.19.0-27-amd64`) does not say which stable release it is.
#[test]
fn multicast_route_form_by_release() {
    use super::MulticastRouteForm::{Multicast, UnicastBoot, UnicastKernel};
    let form = |s: &str| s.parse::<KernelVersion>().map(KernelVersion::multicast_route_form);
    assert_eq!(form("6.1.0-50-amd64"), Ok(Some(Multicast)));
    assert_eq!(form("5.11"), Ok(Some(Multicast)));
    assert_eq!(form("4.19.170"), Ok(Some(UnicastBoot)));
    assert_eq!(form("4.19.171"), Ok(Some(Multicast)));
    assert_eq!(form("4.19.0-27-amd64"), Ok(None));
    assert_eq!(form("4.19"), Ok(None));
    assert_eq!(form("5.4.93"), Ok(Some(Multicast)));
    assert_eq!(form("5.4.0-150-generic"), Ok(None));
    assert_eq!(form("4.14.218"), Ok(Some(UnicastKernel)));
    assert_eq!(form("4.9.253"), Ok(Some(UnicastBoot)));
    assert_eq!(form("5.10.200"), Ok(None));
    assert_eq!(form("5.8.0"), Ok(Some(UnicastBoot)));
    assert_eq!(form("4.4"), Ok(Some(UnicastBoot)));
}
