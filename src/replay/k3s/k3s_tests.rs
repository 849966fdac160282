//! k3s's node IPs on test hosts.

use super::*;
use crate::replay::testhost::{addr, link, route4};

#[test]
fn an_ipv4_node_ip_gets_an_ipv6_second_when_the_walk_finds_one() {
    let m = Model::from_tables(
        vec![link(2, "eth0"), link(3, "eth1")],
        vec![addr(2, "10.0.0.5/24"), addr(3, "2001:db8::5/64")],
        vec![
            route4("default", Some("10.0.0.1"), 2),
            route4("default6", Some("2001:db8::1"), 3),
        ],
    );
    let d = detect(&m, &Options::default());
    let all: Vec<String> = d.addresses.iter().map(|a| a.to_string()).collect();
    assert_eq!(all, ["10.0.0.5", "2001:db8::5"]);
}

#[test]
fn flannel_iface_refuses_two_ipv4_addresses() {
    let m = Model::from_tables(
        vec![link(2, "eth0")],
        vec![
            addr(2, "10.0.0.5/24"),
            addr(2, "10.0.0.6/24"),
            addr(2, "2001:db8::5/64"),
        ],
        Vec::new(),
    );
    let o = Options {
        flannel_iface: Some("eth0".into()),
        ..Options::default()
    };
    assert_eq!(
        detect(&m, &o).error,
        Some(Failure::Said(
            "interface eth0 does not have a correct global unicast ip: multiple global unicast addresses defined for eth0, please set ip from one of [10.0.0.5 10.0.0.6]".into()
        ))
    );
    let m = Model::from_tables(
        vec![link(2, "eth0")],
        vec![addr(2, "10.0.0.5/24"), addr(2, "2001:db8::5/64")],
        Vec::new(),
    );
    let all: Vec<String> = detect(&m, &o).addresses.iter().map(|a| a.to_string()).collect();
    assert_eq!(all, ["10.0.0.5", "2001:db8::5"]);
}
