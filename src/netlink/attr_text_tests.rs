//! Unit tests of `attr_text`.

use super::*;
use crate::netlink::names::{IFA_FLAGS, IFA_LABEL, IFLA_IFNAME};
use crate::netlink::wire::{ByteOrder, Messages};
use crate::testutil::netlink_payload;

fn texts(data: &[u8]) -> AttrList {
    let m = Messages::new(data, ByteOrder::Little)
        .next()
        .expect("a message")
        .expect("framed");
    attr_texts(&m)
}

#[test]
fn attributes_as_the_crate_decodes_them() {
    // links.l0.pcap packet 4: the link dump's first reply, lo.
    let list = texts(&netlink_payload("kernels/6.12/links.l0.pcap", 4));
    assert_eq!(list.error, None);
    assert_eq!(
        list.attrs.first(),
        Some(&AttrText {
            kind: IFLA_IFNAME,
            value: "IfName(\"lo\")".into()
        })
    );
    // links.l0.pcap packet 5: NLMSG_DONE has no attribute list.
    let done = texts(&netlink_payload("kernels/6.12/links.l0.pcap", 5));
    assert_eq!(
        done,
        AttrList {
            attrs: Vec::new(),
            error: None
        }
    );
}

#[test]
fn raw_attributes_where_the_crate_refuses() {
    // pyroute2__nl0.pcap packet 10, first message (lo 127.0.0.1/8), with
    // its IFA_FLAGS attribute cut to 2 bytes, which the crate rejects.
    let mut data = netlink_payload("third-party/pyroute2__nl0.pcap", 10);
    data[48] = 6;
    let list = texts(&data);
    assert!(list.error.is_some(), "{list:?}");
    assert!(list.attrs.iter().all(|a| a.value.starts_with("raw ")), "{list:?}");
    assert!(list.attrs.contains(&AttrText {
        kind: IFA_LABEL,
        value: "raw 6c6f00".into()
    }));
    assert!(list.attrs.iter().any(|a| a.kind == IFA_FLAGS), "{list:?}");
}
