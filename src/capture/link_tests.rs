//! Unit tests of `link`.

use super::*;

// The cooked header of pyroute2's nl0.pcap packet 4 (real capture bytes).
const NL0_P4_HEADER: [u8; 16] = [0, 4, 3, 0x38, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

#[test]
fn netlink_header() {
    let mut rec = NL0_P4_HEADER.to_vec();
    rec.extend_from_slice(&[20, 0, 0, 0]);
    let f = netlink_frame(LINKTYPE_NETLINK, &rec).expect("netlink");
    assert_eq!((f.family, f.pkttype, f.header_len), (0, 4, 16));
    assert_eq!(f.payload, &[20, 0, 0, 0]);
}

#[test]
fn sll_needs_netlink_hatype() {
    assert!(netlink_frame(LINKTYPE_LINUX_SLL, &NL0_P4_HEADER).is_ok());
    let mut eth = NL0_P4_HEADER;
    eth[2..4].copy_from_slice(&1u16.to_be_bytes());
    assert_eq!(netlink_frame(LINKTYPE_LINUX_SLL, &eth), Err(NotNetlink::HaType(1)));
    // LINKTYPE_NETLINK itself says what the payload is.
    assert!(netlink_frame(LINKTYPE_NETLINK, &eth).is_ok());
}

#[test]
fn sll2_layout() {
    let mut rec = vec![0, 16, 0, 0, 0, 0, 0, 9, 3, 0x38, 4, 0];
    rec.extend_from_slice(&[0; 8]);
    rec.push(0xaa);
    let f = netlink_frame(LINKTYPE_LINUX_SLL2, &rec).expect("sll2");
    assert_eq!((f.family, f.pkttype, f.header_len), (16, 4, 20));
    assert_eq!(f.payload, &[0xaa]);
}

#[test]
fn short_and_foreign() {
    assert_eq!(
        netlink_frame(LINKTYPE_NETLINK, &[0; 5]),
        Err(NotNetlink::Short { needed: 16, got: 5 })
    );
    assert_eq!(netlink_frame(1, &[0; 40]), Err(NotNetlink::LinkType(1)));
}
