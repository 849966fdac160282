//! Calico's own test vectors (interfaces_linux_test.go, startup_test.go,
//! tests/st/calicoctl/test_autodetection.py) and the worked examples of
//! detection-methods.md §2.10, replayed on models built from their inputs.

use super::super::testhost::*;
use super::*;
use crate::model::Model;
use crate::replay::Family;
use crate::testutil::assert_noted;

fn run(m: &Model, method: &str, version: &str) -> Detection {
    let o = Options {
        version: version.parse().expect("version"),
        ..Options::default()
    };
    detect(m, method, &o)
}

#[test]
fn interfaces_linux_test_default_excludes() {
    // lo + ibmvetha: only ibmvetha survives (it is not "^veth").
    let m = host(&[(0, "lo"), (1, "ibmvetha")], &[(1, "10.0.0.5/24")]);
    let d = run(&m, "first-found", "latest");
    assert_eq!(d.interface.as_deref(), Some("ibmvetha"));
    for name in [
        "veth123126312783",
        "vxlan.calico",
        "vxlan-v6.calico",
        "wireguard.cali",
        "wg-v6.cali",
        "nodelocaldns",
        "podman",
        "br-1234deadbeaf",
    ] {
        let m = host(&[(0, name)], &[(0, "10.0.0.5/24")]);
        let d = run(&m, "first-found", "latest");
        assert_eq!(
            d.error.map(|e| e.to_string()).as_deref(),
            Some("no valid host interfaces found"),
            "{name}"
        );
        assert_eq!(d.candidates[0].verdict, Verdict::Excluded, "{name}");
    }
}

#[test]
fn bulk_path_reverse_order() {
    // GetInterfaces([1:eth0, 2:eth1]) => [eth1, eth0] ("reverse order due to loop")
    let m = host(
        &[(1, "eth0"), (2, "eth1")],
        &[(1, "192.168.1.10/24"), (2, "10.0.0.5/16")],
    );
    let d = run(&m, "first-found", "latest");
    assert_eq!(d.address_text().as_deref(), Some("10.0.0.5/16"));
    let order: Vec<&str> = d.candidates.iter().map(|c| c.interface.as_str()).collect();
    assert_eq!(order, ["eth1", "eth0"]);
}

#[test]
fn startup_test_kubernetes_internal_ip() {
    let m = host(
        &[(1, "eth1")],
        &[(1, "192.168.1.10/24"), (1, "2001:db8:85a3:8d3:1319:8a2e:370:7348/64")],
    );
    let k8s = |o: &Options| detect(&m, "kubernetes-internal-ip", o);
    let mut o = Options::default();
    // no Node object => fails
    assert!(k8s(&o).error.is_some());
    o.node_internal_ips = vec![
        "192.168.1.10".parse().expect("ip"),
        "2001:db8:85a3:8d3:1319:8a2e:370:7348".parse().expect("ip"),
    ];
    assert_eq!(k8s(&o).address_text().as_deref(), Some("192.168.1.10/24"));
    o.family = Family::V6;
    assert_eq!(
        k8s(&o).address_text().as_deref(),
        Some("2001:db8:85a3:8d3:1319:8a2e:370:7348/64")
    );
    // buggy releases return the network
    o.version = "3.22.1".parse().expect("v");
    assert_eq!(k8s(&o).address_text().as_deref(), Some("2001:db8:85a3:8d3::/64"));
    o.family = Family::V4;
    assert_eq!(k8s(&o).address_text().as_deref(), Some("192.168.1.0/24"));
    // InternalIP not on the host => autodetect fails
    o.version = Version::LATEST;
    o.node_internal_ips = vec!["192.168.1.1".parse().expect("ip")];
    assert!(k8s(&o).error.is_some());
    // before v3.22 the method does not exist
    o.version = "3.21.5".parse().expect("v");
    let e = k8s(&o).error.expect("error").to_string();
    assert!(e.starts_with("Invalid IP autodetection method"), "{e}");
}

#[test]
fn startup_test_get_local_cidr() {
    let m = host(&[(1, "eth1")], &[(1, "1.2.3.4/24"), (1, "1:2:3:4::5/120")]);
    let explicit = |ip: &str, fam: u8| {
        let fam = if fam == 6 { Family::V6 } else { Family::V4 };
        let o = Options {
            family: fam,
            ip: IpSetting::Explicit(ip.to_owned()),
            ..Options::default()
        };
        detect(&m, "", &o).address_text().expect("address")
    };
    assert_eq!(explicit("1.2.3.4", 4), "1.2.3.4/24");
    assert_eq!(explicit("4.3.2.1/25", 4), "4.3.2.1/25");
    assert_eq!(explicit("1.2.3.5", 4), "1.2.3.5/32");
    // IP6: no GetLocalCIDR, a bare IP becomes /128
    assert_eq!(explicit("1:2:3:4::5", 6), "1:2:3:4::5/128");
    assert_eq!(explicit("5:4:3:2::1/64", 6), "5:4:3:2::1/64");
    // What is no CIDR is calico-node's error, not an address.
    for bad in ["1.2.3.4/abc", "1.2.3.4/33"] {
        let o = Options {
            ip: IpSetting::Explicit(bad.to_owned()),
            ..Options::default()
        };
        let d = detect(&m, "", &o);
        assert_eq!(
            (d.address, d.error.map(|e| e.to_string())),
            (None, Some(format!("IP={bad} is not an address")))
        );
    }
}

#[test]
fn st_test_autodetection_methods() {
    let m = host(&[(1, "lo"), (2, "eth0")], &[(1, "127.0.0.1/8"), (2, "172.17.0.5/16")]);
    assert!(run(&m, "first-found", "3.17.0").error.is_none());
    assert!(run(&m, "interface=BogusInterface", "3.17.0").error.is_some());
    assert!(run(&m, "interface=eth0", "3.17.0").error.is_none());
    assert!(run(&m, "interface=BogusInterface,eth0", "3.17.0").error.is_none());
    assert!(run(&m, "skip-interface=eth.*,enp0s.*", "3.17.0").error.is_some());
    assert!(run(&m, "skip-interface=bogus", "3.17.0").error.is_none());
    // can-reach needs routes; an address of the wrong form fails
    assert!(run(&m, "can-reach=XXX.YYY.ZZZ.XXX", "3.17.0").error.is_some());
    let e = run(&m, "eth1", "3.17.0").error.expect("invalid").to_string();
    assert!(e.starts_with("Invalid IP autodetection method: eth1"), "{e}");
}

#[test]
fn worked_examples() {
    // br0 created last wins first-found; a docker network bridge only before v3.25
    let bridged = |bridge: &str| {
        host(
            &[(1, "lo"), (2, "eth0"), (3, "docker0"), (5, bridge)],
            &[
                (1, "127.0.0.1/8"),
                (2, "10.0.0.5/24"),
                (3, "172.17.0.1/16"),
                (5, "192.168.122.1/24"),
            ],
        )
    };
    let m = bridged("br0");
    assert_eq!(
        run(&m, "first-found", "latest").address_text().as_deref(),
        Some("192.168.122.1/24")
    );
    let m = bridged("br-1a2b");
    assert_eq!(
        run(&m, "first-found", "3.24.6").address_text().as_deref(),
        Some("192.168.122.1/24")
    );
    assert_eq!(
        run(&m, "first-found", "3.25.0").address_text().as_deref(),
        Some("10.0.0.5/24")
    );
    // link-local skipped
    let m = host(&[(2, "eth0")], &[(2, "169.254.3.4/16"), (2, "10.0.0.5/24")]);
    let d = run(&m, "first-found", "latest");
    assert_eq!(d.address_text().as_deref(), Some("10.0.0.5/24"));
    assert_eq!(d.candidates[0].addresses[0].verdict, Verdict::NotGlobalUnicast);
    // wlo1 matched the unanchored "lo"
    let m = host(&[(2, "wlo1")], &[(2, "192.168.1.20/24")]);
    assert!(run(&m, "first-found", "3.23.3").error.is_some());
    assert!(run(&m, "first-found", "3.24.2").error.is_some());
    assert_eq!(
        run(&m, "first-found", "3.23.4").address_text().as_deref(),
        Some("192.168.1.20/24")
    );
    // IPv6: newest first, flags ignored
    let m = host(
        &[(2, "eth0")],
        &[(2, "2001:db8::f00/64"), (2, "2001:db8::a/64"), (2, "fe80::1/64")],
    );
    let o = Options {
        family: Family::V6,
        ..Options::default()
    };
    assert_eq!(
        detect(&m, "first-found", &o).address_text().as_deref(),
        Some("2001:db8::f00/64")
    );
}

#[test]
fn can_reach_uses_the_kernel_source_and_names_the_route() {
    let mut m_links = vec![link(1, "lo"), link(2, "eth0"), link(3, "eth1")];
    m_links[0].flags |= crate::netlink::names::IFF_LOOPBACK;
    let m = Model::from_tables(
        m_links,
        vec![addr(2, "10.0.0.5/24"), addr(3, "192.168.50.5/24")],
        vec![
            route4("default", Some("10.0.0.1"), 2),
            route4("192.168.50.0/24", None, 3),
        ],
    );
    let o = Options {
        bgp_peers: vec!["10.20.0.1".parse().expect("ip")],
        ..Options::default()
    };
    let ff = detect(&m, "first-found", &o);
    assert_eq!(ff.address_text().as_deref(), Some("192.168.50.5/24"));
    assert_noted(&ff, "MISMATCH");
    let cr = detect(&m, "can-reach=10.20.0.1", &o);
    assert_eq!(cr.address_text().as_deref(), Some("10.0.0.5/24"));
    assert_noted(&cr, "default via 10.0.0.1");
    assert_noted(&cr, "matches the node address");
}

#[test]
fn a_method_one_slip_away_is_named() {
    // (the method as the user would write it: its name, then the argument given)
    let near_method = |s: &str| {
        crate::replay::calico::method::near_method(s).map(|n| format!("{}{}", n.name, n.arg.unwrap_or_default()))
    };
    assert_eq!(near_method("first-fund").as_deref(), Some("first-found"));
    assert_eq!(near_method("frist-found").as_deref(), Some("first-found"));
    assert_eq!(near_method("interfce=eth.*").as_deref(), Some("interface=eth.*"));
    assert_eq!(near_method("interface:eth0").as_deref(), Some("interface=eth0"));
    assert_eq!(near_method("can_reach=8.8.8.8").as_deref(), Some("can-reach=8.8.8.8"));
    assert_eq!(
        near_method("kubernetes-internal-iq").as_deref(),
        Some("kubernetes-internal-ip")
    );
    // an interface name is calico-node's to reject, not a slip
    assert_eq!(near_method("eth1"), None);
    assert_eq!(near_method("eth0,eth1"), None);
    assert_eq!(near_method("bogus"), None);
    // what calico-node accepts is no slip
    assert_eq!(near_method("first-found"), None);
    assert_eq!(near_method("cidr=10.0.0.0/8"), None);
}
