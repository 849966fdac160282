//! etcd's default host on test hosts.

use super::*;
use crate::replay::testhost::{addr, link, route4};
use crate::testutil::answered;

#[test]
fn the_last_default_route_wins_its_prefsrc_first() {
    let mut a = route4("default", Some("10.0.0.1"), 2);
    a.priority = Some(100);
    let mut b = route4("default", Some("10.1.0.1"), 3);
    b.priority = Some(200);
    let m = Model::from_tables(
        vec![link(2, "eth0"), link(3, "eth1")],
        vec![addr(2, "10.0.0.5/24"), addr(3, "10.1.0.5/24"), addr(3, "10.1.0.6/24")],
        vec![a.clone(), b.clone()],
    );
    let d = detect(&m);
    assert_eq!(answered(&d).as_deref(), Some("10.1.0.5 on eth1"));
    b.prefsrc = Some("10.1.0.6".parse().unwrap());
    let m = Model::from_tables(
        vec![link(2, "eth0"), link(3, "eth1")],
        vec![addr(2, "10.0.0.5/24"), addr(3, "10.1.0.5/24"), addr(3, "10.1.0.6/24")],
        vec![a, b],
    );
    assert_eq!(detect(&m).address_text().as_deref(), Some("10.1.0.6"));
}

#[test]
fn a_point_to_point_link_gives_its_peer() {
    let mut p = addr(2, "10.9.0.1/32");
    p.peer = Some("10.9.0.2".parse().unwrap());
    let m = Model::from_tables(vec![link(2, "tun0")], vec![p], vec![route4("default", None, 2)]);
    assert_eq!(detect(&m).address_text().as_deref(), Some("10.9.0.2"));
}

#[test]
fn no_default_route_and_multipath_are_etcd_errors() {
    let m = Model::from_tables(
        vec![link(2, "eth0")],
        vec![addr(2, "10.0.0.5/24")],
        vec![route4("10.0.0.0/24", None, 2)],
    );
    assert_eq!(
        detect(&m).error,
        Some(Failure::Said("could not find default route".into()))
    );
    let mut mp = route4("default", None, 2);
    mp.oif = None;
    mp.multipath = true;
    let m = Model::from_tables(vec![link(2, "eth0")], vec![addr(2, "10.0.0.5/24")], vec![mp]);
    assert_eq!(
        detect(&m).error,
        Some(Failure::Said("could not find default route".into()))
    );
}
