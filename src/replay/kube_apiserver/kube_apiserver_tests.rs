//! kube-apiserver's advertise address on real captures.

use super::*;
use crate::testutil::{answered, assert_noted, fixture_model};

fn apiserver(m: &Model, advertise: Option<&str>, bind: Option<&str>) -> Detection {
    let ip = |a: &str| a.parse().expect("ip");
    detect(
        m,
        &Options {
            advertise_address: advertise.map(ip),
            bind_address: bind.map(ip),
        },
    )
}

fn said(d: &Detection) -> Option<String> {
    d.error.as_ref().map(|e| e.to_string())
}

#[test]
fn the_default_bind_address_walks_the_default_routes() {
    // eth0 holds 10.9.0.2 and 10.9.0.3 behind the only default route (IPv4).
    let m = fixture_model("incident-vlan-lo.pcap");
    let d = apiserver(&m, None, None);
    assert_eq!(answered(&d).as_deref(), Some("10.9.0.2 on eth0"));
    assert_eq!(d.program(), KubeApiserver::PROGRAM);
    assert_eq!(d.method.to_string(), "kube-apiserver");
    // `--bind-address ::` prefers IPv6; with no IPv6 default route it falls back.
    let d = apiserver(&m, None, Some("::"));
    assert_eq!(d.address_text().as_deref(), Some("10.9.0.2"));
    assert_noted(&d, "no IPv6 default route: kube-apiserver falls back to IPv4");
    // `--advertise-address 0.0.0.0` is unset to kube-apiserver.
    assert_eq!(
        apiserver(&m, Some("0.0.0.0"), None).address_text().as_deref(),
        Some("10.9.0.2")
    );
}

#[test]
fn a_loopback_bind_address_walks_the_routes_where_kubeadm_takes_lo() {
    // basic.pcap: a /32 (10.77.0.9) on lo, an IPv4 and an IPv6 default
    // route via eth0. kubeadm's loopback advertise address takes lo's
    // global address; kube-apiserver's loopback bind address walks the
    // default routes, IPv6 first for `::1` as for `::`.
    let m = fixture_model("basic.pcap");
    let kubeadm = super::super::kubeadm::detect(
        &m,
        &super::super::kubeadm::Options {
            advertise_address: Some("127.0.0.1".parse().expect("ip")),
        },
    );
    assert_eq!(
        (kubeadm.address_text().as_deref(), kubeadm.interface.as_deref()),
        (Some("10.77.0.9"), Some("lo"))
    );
    for bind in ["127.0.0.1", "0.0.0.0"] {
        let d = apiserver(&m, None, Some(bind));
        assert_eq!(
            (d.address_text().as_deref(), d.interface.as_deref()),
            (Some("10.9.0.2"), Some("eth0")),
            "{bind}"
        );
    }
    for bind in ["::1", "::"] {
        let d = apiserver(&m, None, Some(bind));
        assert_eq!(
            (d.address_text().as_deref(), d.interface.as_deref(), d.family),
            (Some("2001:db8:1::3"), Some("eth0"), Family::V6),
            "{bind}"
        );
    }
}

#[test]
fn a_specific_address_is_used_as_given() {
    let m = fixture_model("incident-nerdctl.pcap");
    // --bind-address: advertised as is, on its interface.
    let d = apiserver(&m, None, Some("10.4.0.1"));
    assert_eq!(answered(&d).as_deref(), Some("10.4.0.1 on nerdctl0"));
    assert!(d.candidates.is_empty());
    assert_noted(&d, "--bind-address");
    // --advertise-address wins over --bind-address, even loopback, even off the host.
    let d = apiserver(&m, Some("127.0.0.1"), Some("10.4.0.1"));
    assert_eq!(d.address_text().as_deref(), Some("127.0.0.1"));
    let d = apiserver(&m, Some("192.0.2.7"), None);
    assert_eq!(answered(&d).as_deref(), Some("192.0.2.7"));
    assert_noted(&d, "on none of the host's interfaces");
}

#[test]
fn no_default_route_stops_kube_apiserver_with_its_error() {
    // (a route dump that lists no default route): no 0.0.0.0, unlike kubeadm.
    let d = apiserver(&fixture_model("notify-link.pcap"), None, None);
    assert_eq!(d.address, None);
    assert_eq!(
        said(&d).as_deref(),
        Some(
            "Unable to find suitable network address.error='no default routes found in \"/proc/net/route\" or \
             \"/proc/net/ipv6_route\"'. Try to set the AdvertiseAddress directly or provide a valid BindAddress \
             to fix this."
        )
    );
}

#[test]
fn no_route_message_is_no_answer() {
    let d = apiserver(&fixture_model("looks/6.12/gai-node.l0.pcap"), None, None);
    assert_eq!(d.address, None);
    assert!(
        matches!(d.error, Some(Failure::NoRoutesCaptured(p)) if p == KubeApiserver::PROGRAM),
        "{:?}",
        d.error
    );
}
