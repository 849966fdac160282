//! Nomad's go-sockaddr GetPrivateIP on test hosts.

use super::*;
use crate::replay::testhost::{addr, link, route4};

#[test]
fn the_default_interface_first_then_broader_networks() {
    let links = || vec![link(2, "eth0"), link(3, "eth1")];
    let addrs = || vec![addr(2, "10.0.0.5/24"), addr(3, "10.1.0.5/16")];
    // No default route: eth1's /16 is broader than eth0's /24.
    let m = Model::from_tables(links(), addrs(), Vec::new());
    assert_eq!(detect(&m).address_text().as_deref(), Some("10.1.0.5"));
    // The default route's interface comes first.
    let m = Model::from_tables(links(), addrs(), vec![route4("default", Some("10.0.0.1"), 2)]);
    assert_eq!(detect(&m).address_text().as_deref(), Some("10.0.0.5"));
    // `default dev eth0` (no `via`) is no default interface for go-sockaddr.
    let m = Model::from_tables(links(), addrs(), vec![route4("default", None, 2)]);
    assert_eq!(detect(&m).address_text().as_deref(), Some("10.1.0.5"));
}

#[test]
fn public_and_unforwardable_addresses_are_passed_over() {
    let m = Model::from_tables(
        vec![link(2, "eth0")],
        vec![addr(2, "45.0.0.5/8"), addr(2, "169.254.1.1/16"), addr(2, "fd00::5/64")],
        Vec::new(),
    );
    // 45/8 is no RFC 6890 block, 169.254/16 not forwardable: the ULA.
    assert_eq!(detect(&m).address_text().as_deref(), Some("fd00::5"));
    let m = Model::from_tables(vec![link(2, "eth0")], vec![addr(2, "45.0.0.5/8")], Vec::new());
    assert_eq!(detect(&m).error, Some(Failure::NoPrivateIp.into()));
}
