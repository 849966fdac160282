//! kubeadm's advertise address on real captures.

use super::*;
use crate::testutil::{answered, assert_noted, fixture_model};

fn kubeadm(m: &Model, given: Option<&str>) -> Detection {
    let advertise_address = given.map(|a| a.parse().expect("ip"));
    detect(m, &Options { advertise_address })
}

#[test]
fn the_default_route_interface_and_the_family_preference() {
    // eth0 holds 10.9.0.2 and 10.9.0.3 behind the only default route (IPv4).
    let m = fixture_model("incident-vlan-lo.pcap");
    let d = kubeadm(&m, None);
    assert_eq!(answered(&d).as_deref(), Some("10.9.0.2 on eth0"));
    assert_eq!(d.family, Family::V4);
    // `::` prefers IPv6; with no IPv6 default route kubeadm falls back, and says so.
    let d = kubeadm(&m, Some("::"));
    assert_eq!(d.address_text().as_deref(), Some("10.9.0.2"));
    assert_noted(&d, "no IPv6 default route: kubeadm falls back to IPv4");
    assert_eq!(d.family, Family::V4);
}

#[test]
fn a_loopback_advertise_address_takes_a_global_address_on_lo() {
    // 10.50.0.1/24 was added to lo in this real-kernel run.
    let m = fixture_model("kernels/6.12/ipv4-promote-on.l0.pcap");
    let d = kubeadm(&m, Some("127.0.0.1"));
    assert_eq!(answered(&d).as_deref(), Some("10.50.0.1 on lo"));
    assert_eq!(d.candidates.len(), 1);
    let lo = &d.candidates[0];
    assert_eq!(lo.verdict, Verdict::Chosen);
    let first = &lo.addresses[0];
    assert_eq!(
        (first.address.to_string().as_str(), first.verdict),
        ("127.0.0.1/8", Verdict::NotGlobalUnicast)
    );
    // lo without a global address: kubeadm's own error.
    let d = kubeadm(&fixture_model("incident-vlan-lo.pcap"), Some("::1"));
    assert_eq!(d.address, None);
    assert_eq!(
        d.error.map(|e| e.to_string()).as_deref(),
        Some("unable to select an IP from lo network interface")
    );
}

#[test]
fn no_default_route_advertises_0_0_0_0_with_kubeadm_s_warning() {
    // (a route dump that lists no default route)
    let d = kubeadm(&fixture_model("notify-link.pcap"), Some("::"));
    assert_eq!(d.address_text().as_deref(), Some("0.0.0.0"));
    assert_eq!(d.family, Family::V4);
    assert!(
        d.error
            .as_ref()
            .map(|e| e.to_string())
            .as_deref()
            .is_some_and(|e| e.contains("no default routes found")),
        "{:?}",
        d.error
    );
}

/// A capture whose routes no message showed (requests that added
/// addresses, the routes the kernel's rules made from them): kubeadm's
/// walk of the default routes cannot be replayed, and no 0.0.0.0 is made up.
#[test]
fn no_route_message_is_no_answer() {
    let d = kubeadm(&fixture_model("looks/6.12/gai-node.l0.pcap"), Some("::"));
    assert_eq!(d.address, None);
    assert!(
        matches!(d.error, Some(crate::replay::failure::Failure::NoRoutesCaptured(_))),
        "{:?}",
        d.error
    );
}

#[test]
fn a_specific_address_is_used_as_given() {
    let m = fixture_model("incident-nerdctl.pcap");
    let d = kubeadm(&m, Some("10.4.0.1"));
    assert_eq!(answered(&d).as_deref(), Some("10.4.0.1 on nerdctl0"));
    assert!(d.candidates.is_empty());
    let d = kubeadm(&m, Some("192.0.2.7"));
    assert_eq!(answered(&d).as_deref(), Some("192.0.2.7"));
    assert_noted(&d, "on none of the host's interfaces");
}
