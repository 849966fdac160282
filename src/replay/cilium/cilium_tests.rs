//! Cilium's node-IP fallback on test hosts.

use super::*;
use crate::model::ShortName;
use crate::replay::testhost::{addr, link};

fn host(links: Vec<LinkEntry>, addrs: Vec<AddrEntry>) -> Model {
    Model::from_tables(links, addrs, Vec::new())
}

fn up(index: u32, name: &str) -> LinkEntry {
    let mut l = link(index, name);
    l.operstate = Some(OPER_UP);
    l
}

fn cilium(m: &Model, version: Version) -> Option<String> {
    detect(
        m,
        &Options {
            version,
            ..Options::default()
        },
    )
    .address_text()
}

#[test]
fn public_beats_private_and_the_sort_changed_in_1_14() {
    // eth1 (index 3) dumps before eth0 (index 2), as a 6.1 bucket may list them.
    let m = host(
        vec![up(3, "eth1"), up(2, "eth0")],
        vec![addr(3, "45.1.1.1/24"), addr(2, "10.0.0.1/24"), addr(2, "45.0.0.9/24")],
    );
    // 1.13: the lowest public address; 1.14: the lowest link index.
    assert_eq!(cilium(&m, Version(1, 13, 0)).as_deref(), Some("45.0.0.9"));
    assert_eq!(cilium(&m, Version(1, 14, 0)).as_deref(), Some("45.0.0.9"));
    let m = host(
        vec![up(2, "eth0"), up(3, "eth1")],
        vec![addr(2, "45.9.9.9/24"), addr(3, "45.1.1.1/24")],
    );
    assert_eq!(cilium(&m, Version(1, 13, 0)).as_deref(), Some("45.1.1.1"));
    assert_eq!(cilium(&m, Version(1, 14, 0)).as_deref(), Some("45.9.9.9"));
}

#[test]
fn secondaries_count_before_1_14_only() {
    let mut vip = addr(2, "10.0.0.5/24");
    vip.flags = IFA_F_SECONDARY;
    let m = host(vec![up(2, "eth0")], vec![addr(2, "10.0.0.9/24"), vip]);
    assert_eq!(cilium(&m, Version(1, 13, 0)).as_deref(), Some("10.0.0.5"));
    assert_eq!(cilium(&m, Version(1, 14, 0)).as_deref(), Some("10.0.0.9"));
}

#[test]
fn docker_and_down_links_are_excluded_dummies_not_from_1_17() {
    let mut down = link(4, "nodelocal");
    down.operstate = Some(2);
    down.kind = Some(ShortName::new(b"dummy"));
    let m = host(
        vec![up(2, "docker0"), up(3, "eth0"), down],
        vec![
            addr(2, "172.17.0.1/16"),
            addr(3, "192.168.1.5/24"),
            addr(4, "169.254.20.10/32"),
        ],
    );
    // 172.17.0.1 < 192.168.1.5 but docker0 is excluded.
    assert_eq!(cilium(&m, Version(1, 13, 0)).as_deref(), Some("192.168.1.5"));
    // From 1.17 the down dummy counts: 169.254.20.10 is private like the rest,
    // and its link index (4) sorts after eth0's (3).
    assert_eq!(cilium(&m, Version(1, 17, 0)).as_deref(), Some("192.168.1.5"));
    // Before 1.11 an UNKNOWN operstate (lo, dummies) excluded the link.
    let mut lo = link(1, "lo");
    lo.operstate = Some(OPER_UNKNOWN);
    let m = host(vec![lo], vec![addr(1, "10.1.1.1/32")]);
    assert_eq!(cilium(&m, Version(1, 10, 0)), None);
    assert_eq!(cilium(&m, Version(1, 11, 0)).as_deref(), Some("10.1.1.1"));
}

#[test]
fn a_named_device_is_walked_alone_then_every_link() {
    let m = host(
        vec![up(2, "eth0"), up(3, "eth1")],
        vec![addr(2, "45.0.0.1/24"), addr(3, "10.0.0.1/24")],
    );
    let with = |dev: &str| {
        detect(
            &m,
            &Options {
                device: Some(dev.into()),
                ..Options::default()
            },
        )
    };
    assert_eq!(with("eth1").address_text().as_deref(), Some("10.0.0.1"));
    let d = with("eth9");
    assert_eq!(d.address_text().as_deref(), Some("45.0.0.1"));
    assert!(d.notes.contains(&Note::CiliumNoDevice { name: "eth9".into() }.into()));
    let empty = host(vec![up(2, "eth0")], Vec::new());
    assert_eq!(
        detect(&empty, &Options::default()).error,
        Some(Failure::Said("No address found".into()))
    );
}
