//! Consul's private IPv4 bind address on test hosts.

use super::*;
use crate::replay::testhost::{addr, host, lo_link};

#[test]
fn exactly_one_private_ipv4_or_consuls_refusal() {
    let m = host(&[(2, "eth0"), (3, "eth1")], &[(2, "10.0.0.5/24"), (3, "45.0.0.5/24")]);
    assert_eq!(detect(&m).address_text().as_deref(), Some("10.0.0.5"));
    let m = host(&[(2, "eth0"), (3, "eth1")], &[(2, "10.0.0.5/24"), (3, "100.64.0.5/24")]);
    let d = detect(&m);
    assert_eq!(
        d.error,
        Some(Failure::Said(
            "Multiple private IPv4 addresses found. Please configure one with 'bind' and/or 'advertise'.".into()
        ))
    );
    let m = host(&[(2, "eth0")], &[(2, "45.0.0.5/24")]);
    assert_eq!(
        detect(&m).error,
        Some(Failure::Said("No private IPv4 address found".into()))
    );
}

#[test]
fn loopback_counts_only_when_nothing_else_has_an_address() {
    let m = Model::from_tables(
        vec![lo_link(1), crate::replay::testhost::link(2, "eth0")],
        vec![addr(1, "127.0.0.1/8")],
        Vec::new(),
    );
    assert_eq!(detect(&m).address_text().as_deref(), Some("127.0.0.1"));
    let m = Model::from_tables(
        vec![lo_link(1), crate::replay::testhost::link(2, "eth0")],
        vec![addr(1, "127.0.0.1/8"), addr(2, "fe80::1/64")],
        Vec::new(),
    );
    assert_eq!(
        detect(&m).error,
        Some(Failure::Said("No private IPv4 address found".into()))
    );
}
