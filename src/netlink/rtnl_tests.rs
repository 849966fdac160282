//! Unit tests of `rtnl`.

use super::super::wire::Messages;
use super::*;

/// nl0.pcap packet 10, first message: lo 127.0.0.1/8 (real kernel bytes).
fn nl0_lo() -> [u8; 76] {
    let p = crate::testutil::netlink_payload("third-party/pyroute2__nl0.pcap", 10);
    p[..76].try_into().expect("76-byte message")
}

#[test]
fn address_in_both_byte_orders() {
    let lo = nl0_lo();
    let m = Messages::new(&lo, ByteOrder::Little).next().expect("one").expect("ok");
    let d = decode(&m);
    assert_eq!(d.problem, None);
    let Body::Addr(a) = &d.body else { panic!("{d:?}") };
    assert_eq!(a.ip(), Some("127.0.0.1".parse().expect("ip")));
    assert_eq!((a.prefix_len, a.scope, a.index, a.flags), (8, 254, 1, 0x80));
    assert_eq!(a.label, Some(&b"lo"[..]));
    assert_eq!(a.cacheinfo.map(|c| c.valid), Some(u32::MAX));

    // The same message as a big-endian host would have written it.
    let mut be = lo;
    for (at, w) in [(0, 4), (4, 2), (6, 2), (8, 4), (12, 4), (20, 4)] {
        be[at..at + w].reverse();
    }
    for at in [24, 32, 40, 48, 56] {
        be[at..at + 2].reverse();
        be[at + 2..at + 4].reverse();
    }
    be[52..56].reverse();
    for at in [60, 64, 68, 72] {
        be[at..at + 4].reverse();
    }
    let m = Messages::new(&be, ByteOrder::Big).next().expect("one").expect("ok");
    assert_eq!(decode(&m).body, d.body);
}

#[test]
fn non_utf8_label_and_odd_attribute_keep_the_message() {
    let mut buf = nl0_lo();
    buf[44] = 0xff; // label "\xffo"
    buf[48] = 6; // IFA_FLAGS of 2 bytes
    let m = Messages::new(&buf, ByteOrder::Little).next().expect("one").expect("ok");
    let d = decode(&m);
    let Body::Addr(a) = &d.body else { panic!("{d:?}") };
    assert_eq!(a.label, Some(&[0xff, b'o'][..]));
    assert_eq!(a.flags, 0x80, "falls back to the header flags");
    assert_eq!(
        d.problem,
        Some(Problem::AttrSize {
            kind: IFA_FLAGS,
            len: 2
        })
    );
}
