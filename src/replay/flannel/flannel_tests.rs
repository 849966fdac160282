//! flannel's pkg/ipmatch/match_test.go, on a model built from its setup
//! (flannel e9d4b91: dummy0 with five /32 addresses added in order and
//! `ip route add 172.16.32.254 via 172.16.32.100 dev dummy0`).

use super::*;
use crate::model::Model;
use crate::netlink::names::IFA_F_PERMANENT;
use crate::replay::testhost::*;
use crate::testutil::assert_noted;

fn dummy0() -> Model {
    let mut addrs: Vec<_> = [
        "1.10.100.1/32",
        "192.168.200.128/32",
        "172.16.30.18/32",
        "172.16.31.200/32",
        "172.16.32.100/32",
    ]
    .iter()
    .map(|a| addr(2, a))
    .collect();
    for a in &mut addrs {
        a.flags |= IFA_F_PERMANENT;
    }
    // ip route add 172.16.32.254 via 172.16.32.100 dev dummy0
    let r = route4("172.16.32.254/32", Some("172.16.32.100"), 2);
    Model::from_tables(vec![lo_link(1), link(2, "dummy0")], addrs, vec![r])
}

fn flannel(o: Options) -> Detection {
    detect(
        &dummy0(),
        &Options {
            family: crate::replay::Family::V4,
            ..o
        },
    )
}

#[test]
fn match_test_cases() {
    let regex = |r: &str| {
        flannel(Options {
            iface_regex: vec![r.into()],
            ..Options::default()
        })
    };
    let d = regex(r"192\.168\.200\.\d+");
    assert_eq!(
        (d.interface.as_deref(), d.address_text().as_deref()),
        (Some("dummy0"), Some("192.168.200.128"))
    );
    let d = regex(r"dummy\d+");
    assert_eq!(d.address_text().as_deref(), Some("1.10.100.1"), "first in kernel order");
    let d = flannel(Options {
        iface: vec!["dummy0".into()],
        ..Options::default()
    });
    assert_eq!(d.address_text().as_deref(), Some("1.10.100.1"));
    let d = flannel(Options {
        iface: vec!["172.16.30.18".into()],
        ..Options::default()
    });
    assert_eq!(d.address_text().as_deref(), Some("172.16.30.18"));
    let d = flannel(Options {
        iface_regex: vec![r"172\.16\.30\.\d+".into()],
        public_ip: Some("172.16.31.200".parse().expect("ip")),
        ..Options::default()
    });
    assert_eq!(d.address_text().as_deref(), Some("172.16.30.18"));
    assert_noted(&d, "172.16.31.200");
    let d = flannel(Options {
        iface_can_reach: Some("172.16.32.254".parse().expect("ip")),
        ..Options::default()
    });
    assert_eq!(
        (d.interface.as_deref(), d.address_text().as_deref()),
        (Some("dummy0"), Some("172.16.32.100"))
    );
}
