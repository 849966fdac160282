//! Docker Swarm's advertise address on test hosts.

use super::*;
use crate::model::ShortName;
use crate::replay::testhost::{addr, link};

#[test]
fn one_device_with_one_address_per_family() {
    let m = Model::from_tables(
        vec![link(2, "eth0")],
        vec![addr(2, "10.0.0.5/24"), addr(2, "2001:db8::5/64")],
        Vec::new(),
    );
    let d = detect(&m);
    assert_eq!((d.address_text().as_deref(), d.family), (Some("10.0.0.5"), Family::V4));
    let m = Model::from_tables(
        vec![link(2, "eth0"), link(3, "eth1")],
        vec![addr(2, "10.0.0.5/24"), addr(3, "10.1.0.5/24")],
        Vec::new(),
    );
    assert_eq!(
        detect(&m).error,
        Some(Failure::Said(
            "could not choose an IP address to advertise since this system has multiple addresses on different interfaces (10.0.0.5 on eth0 and 10.1.0.5 on eth1)".into()
        ))
    );
}

#[test]
fn links_with_a_kind_fall_back_to_the_subnet_check() {
    let mut veth = link(2, "eth0");
    veth.kind = Some(ShortName::new(b"veth"));
    let mut bridge = link(3, "docker0");
    bridge.kind = Some(ShortName::new(b"bridge"));
    let m = Model::from_tables(
        vec![veth, bridge],
        vec![addr(2, "10.0.0.5/24"), addr(3, "172.17.0.1/16")],
        Vec::new(),
    );
    let d = detect(&m);
    assert_eq!(d.address_text().as_deref(), Some("10.0.0.5"));
    assert!(
        d.notes
            .iter()
            .any(|n| matches!(n, crate::replay::note::Note::Own(o) if matches!(o.get::<Note>(), Some(Note::SwarmNoDevice { .. }))))
    );
}
