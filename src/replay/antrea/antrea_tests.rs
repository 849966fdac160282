//! Antrea's transport interface on test hosts.

use super::*;
use crate::replay::testhost::host;

fn opts(node_ips: &[&str]) -> Options {
    Options {
        node_ips: node_ips.iter().map(|s| s.parse().expect("ip")).collect(),
        host_gateway: HOST_GATEWAY.to_owned(),
        ..Options::default()
    }
}

fn answer(d: &Detection) -> (Vec<String>, Option<&str>, Option<String>) {
    (
        d.addresses.iter().map(ToString::to_string).collect(),
        d.interface.as_deref(),
        d.error.as_ref().map(|e| format!("{e:?}")),
    )
}

fn dual_host() -> Model {
    host(
        &[(1, "lo"), (2, "antrea-gw0"), (3, "eth0"), (4, "eth1")],
        &[
            (1, "127.0.0.1/8"),
            (2, "10.40.0.5/32"),
            (3, "10.40.0.5/24"),
            (3, "2001:db8:40::5/64"),
            (4, "fe80::1/64"),
            (4, "192.168.60.5/24"),
            (4, "fd00:60::5/64"),
        ],
    )
}

#[test]
fn the_node_ip_finds_its_interface_past_the_host_gateway() {
    let d = detect(&dual_host(), &opts(&["10.40.0.5", "10.40.0.9", "2001:db8:40::5"]));
    let (addrs, iface, err) = answer(&d);
    assert_eq!(addrs, ["10.40.0.5/24", "2001:db8:40::5/64"]);
    assert_eq!((iface, err), (Some("eth0"), None));
    assert_eq!(d.candidates[1].verdict, Verdict::Excluded, "{:?}", d.candidates);
    assert!(d.notes.iter().any(|n| format!("{n:?}").contains("10.40.0.9")));
}

#[test]
fn node_ips_on_two_devices_or_none_are_antreas_errors() {
    let d = detect(&dual_host(), &opts(&["10.40.0.5", "fd00:60::5"]));
    assert_eq!(
        d.error,
        Some(Common::Said(
            "failed to get local IPNet device with IP &{10.40.0.5 fd00:60::5}: IPs of localIPs should be on the same device"
                .into()
        ))
    );
    let mut o = opts(&["10.40.0.5"]);
    o.host_gateway = "gw".into();
    assert!(detect(&dual_host(), &o).error.is_some());
    let d = detect(&dual_host(), &opts(&["2001:db8:1::1"]));
    assert_eq!(
        d.error,
        Some(Common::Said(
            "failed to get local IPNet device with IP &{<nil> 2001:db8:1::1}: unable to find local IPs and device"
                .into()
        ))
    );
    assert_eq!(detect(&dual_host(), &opts(&[])).error, Some(Failure::NoNodeIp.into()));
}

#[test]
fn the_transport_interface_takes_the_first_global_address_of_each_family() {
    let mut o = opts(&["10.40.0.5"]);
    o.transport_interface = Some("eth1".into());
    let d = detect(&dual_host(), &o);
    let (addrs, iface, _) = answer(&d);
    assert_eq!(
        (addrs, iface),
        (
            vec!["192.168.60.5/24".to_owned(), "fd00:60::5/64".to_owned()],
            Some("eth1")
        )
    );
    o.transport_interface = Some("lo".into());
    let d = detect(&dual_host(), &o);
    assert_eq!(
        d.error,
        Some(Common::Said(
            "failed to get local IPNet device with transport interface lo: unable to find local IP and device".into()
        ))
    );
}

#[test]
fn the_cidrs_take_the_first_interface_in_dump_order_gateway_included() {
    let mut o = opts(&["10.40.0.5"]);
    o.transport_interface_cidrs = vec![
        "10.0.0.0/8".parse().expect("net"),
        "2001:db8::/32".parse().expect("net"),
    ];
    let d = detect(&dual_host(), &o);
    let (addrs, iface, _) = answer(&d);
    assert_eq!((addrs, iface), (vec!["10.40.0.5/32".to_owned()], Some("antrea-gw0")));
    assert_eq!(d.candidates.last().map(|c| c.verdict), Some(Verdict::NotReached));
    o.transport_interface_cidrs = vec![
        "10.0.0.0/8".parse().expect("net"),
        "192.168.0.0/16".parse().expect("net"),
    ];
    let d = detect(&dual_host(), &o);
    assert_eq!(
        d.error,
        Some(Common::Said(
            "failed to get local IPNet device with transport Address CIDR [10.0.0.0/8 192.168.0.0/16]: len of cidrs is 2 and they are not configured as dual stack (at least one from each IPFamily)".into()
        ))
    );
}
