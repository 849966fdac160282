//! apimachinery's interface_test.go (ChooseHostInterface) and kubelet's
//! setters_test.go cases, on models built from their inputs.

use super::*;
use crate::model::Model;
use crate::replay::testhost::*;

fn with_routes(addrs: &[(u32, &str)], routes: Vec<crate::model::RouteEntry>) -> Model {
    Model::from_tables(
        vec![lo_link(1), link(3, "eth3")],
        addrs.iter().map(|(i, a)| addr(*i, a)).collect(),
        routes,
    )
}

fn kubelet(m: &Model, node_ip: Option<&str>) -> Detection {
    detect(
        m,
        &Options {
            node_ip: node_ip.map(|i| vec![i.parse().expect("ip")]).unwrap_or_default(),
            ..Options::default()
        },
    )
}

#[test]
fn single_stack_and_dual_stack_routes() {
    let v4 = || route4("default", Some("10.254.0.1"), 3);
    let v6 = || route4("default6", Some("2001:1::1"), 3);
    let m = with_routes(
        &[(3, "fe80::2f7:6fff:fe6e:2956/64"), (3, "10.254.71.145/17")],
        vec![v4()],
    );
    assert_eq!(kubelet(&m, None).address_text().as_deref(), Some("10.254.71.145"));
    let m = with_routes(&[(3, "2001::200/64")], vec![v6()]);
    assert_eq!(kubelet(&m, None).address_text().as_deref(), Some("2001::200"));
    let m = with_routes(&[(3, "2001::10/64"), (3, "10.254.71.145/17")], vec![v4(), v6()]);
    assert_eq!(kubelet(&m, None).address_text().as_deref(), Some("10.254.71.145"));
    assert_eq!(
        kubelet(&m, Some("::")).address_text().as_deref(),
        Some("2001::10"),
        "--node-ip :: prefers IPv6"
    );
}

#[test]
fn link_local_interface_falls_back_to_a_global_loopback_address() {
    let lla = [
        (3, "169.254.162.166/16"),
        (3, "fe80::200/10"),
        (1, "127.0.0.1/8"),
        (1, "10.1.1.1/32"),
        (1, "fd00:1:1::1/128"),
    ];
    let m = with_routes(
        &lla,
        vec![
            route4("default", Some("10.254.0.1"), 3),
            route4("default6", Some("2001:1::1"), 3),
        ],
    );
    let d = kubelet(&m, None);
    assert_eq!(d.address_text().as_deref(), Some("10.1.1.1"));
    assert_eq!(d.interface.as_deref(), Some("lo"));
    assert_eq!(kubelet(&m, Some("::")).address_text().as_deref(), Some("fd00:1:1::1"));
}

#[test]
fn no_routes_and_all_link_local_fail() {
    let m = with_routes(&[(3, "10.254.71.145/17")], Vec::new());
    assert!(kubelet(&m, None).error.is_some());
    let m = with_routes(
        &[(3, "169.254.162.166/16"), (3, "fe80::200/10")],
        vec![route4("default", Some("10.254.0.1"), 3)],
    );
    assert!(kubelet(&m, None).error.is_some());
}

#[test]
fn node_ip_and_resolver_answers() {
    let m = with_routes(
        &[(3, "10.1.1.1/24"), (3, "fd01::1234/64")],
        vec![route4("default", Some("10.1.1.254"), 3)],
    );
    // setters_test: --node-ip 10.1.1.1
    assert_eq!(
        kubelet(&m, Some("10.1.1.1")).address_text().as_deref(),
        Some("10.1.1.1")
    );
    // a --node-ip that is not on the host is rejected
    assert!(kubelet(&m, Some("10.9.9.9")).error.is_some());
    // step 3: the first valid answer of the preferred family, loopback skipped
    let d = detect(
        &m,
        &Options {
            resolved: vec![
                "127.0.1.1".parse().expect("ip"),
                "fd01::1234".parse().expect("ip"),
                "10.1.1.1".parse().expect("ip"),
            ],
            ..Options::default()
        },
    );
    assert_eq!(d.address_text().as_deref(), Some("10.1.1.1"));
    assert_eq!(d.candidates[0].verdict, crate::replay::verdict::Verdict::NotMatching);
    assert_eq!(d.candidates[1].verdict, crate::replay::verdict::Verdict::OtherFamily);
}
