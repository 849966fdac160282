//! Unit tests of `strict`.

use super::*;
use crate::netlink::rtnl::decode;
use crate::netlink::wire::Messages;

/// The 17-byte RTM_GETADDR (1-byte rtgenmsg body, as Go's net package
/// sends) of fixtures/rtgen-nanos.pcap, packet 5, which the kernel answered.
fn go_getaddr() -> Vec<u8> {
    crate::testutil::netlink_payload("rtgen-nanos.pcap", 5)
}

#[test]
fn short_rtgenmsg_requests_decode_after_padding() {
    let buf = go_getaddr();
    let m = Messages::new(&buf, ByteOrder::native())
        .next()
        .expect("one")
        .expect("framed");
    // The crate alone rejects the 1-byte body ...
    assert!(RouteNetlinkMessage::parse_with_param(m.payload(), RTM_GETADDR).is_err());
    // ... the wrapper pads it, and both decoders agree on the family.
    let full = decode_full(&m).expect("padded").expect("address group");
    assert!(cross_check(&decode(&m), &full).is_empty());
}

#[test]
fn foreign_byte_order_is_refused_not_misread() {
    let mut buf = go_getaddr();
    buf[..4].reverse();
    buf[4..6].reverse();
    buf[6..8].reverse();
    let other = match ByteOrder::native() {
        ByteOrder::Little => ByteOrder::Big,
        ByteOrder::Big => ByteOrder::Little,
    };
    let m = Messages::new(&buf, other).next().expect("one").expect("framed");
    assert!(decode_full(&m).is_err());
}
