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
    // ifaddrmsg: family, prefix length, flags, scope, index.
    assert_eq!(lo[16..24], [2, 8, 0x80, 254, 1, 0, 0, 0]);
    assert_eq!(a.family, AddressFamily::Inet);
    assert_eq!((a.prefix_len, a.scope, a.index, a.flags), (8, Scope::Host, 1, 0x80));
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

/// others/bridge-mac.pcap packet 2, second message: docker0 in a link dump
/// (real kernel bytes, 6.18), up without carrier and configured for IPv6
/// since it went up. The byte-order-aware reader agrees with
/// netlink-packet-route's (which reads the devconf arrays in the machine's
/// order; this capture and this machine are both little-endian).
#[test]
fn device_settings_agree_with_netlink_packet_route() {
    use netlink_packet_route::link::{AfSpecInet, AfSpecInet6, AfSpecUnspec, Inet6IfaceFlags, LinkAttribute};
    let payload = crate::testutil::netlink_payload("others/bridge-mac.pcap", 2);
    let m = Messages::new(&payload, ByteOrder::Little)
        .nth(1)
        .expect("two")
        .expect("ok");
    let Body::Link(l) = decode(&m).body else {
        panic!("not a link")
    };
    assert_eq!(l.name, Some(&b"docker0"[..]));
    let c = l.conf;
    assert_eq!(c.ipv6_ready(), Some(true));
    assert_eq!(c.promote_secondaries, Some(true));

    use netlink_packet_core::ParseableParametrized;
    let parsed = match netlink_packet_route::RouteNetlinkMessage::parse_with_param(m.payload(), RTM_NEWLINK) {
        Ok(netlink_packet_route::RouteNetlinkMessage::NewLink(l)) => l,
        other => panic!("the crate reads it as {other:?}"),
    };
    let (mut inet, mut inet6, mut flags) = (None, None, None);
    for a in parsed.attributes {
        let LinkAttribute::AfSpecUnspec(specs) = a else {
            continue;
        };
        for s in specs {
            match s {
                AfSpecUnspec::Inet(v) => {
                    for x in v {
                        if let AfSpecInet::DevConf(d) = x {
                            inet = Some(d);
                        }
                    }
                }
                AfSpecUnspec::Inet6(v) => {
                    for x in v {
                        match x {
                            AfSpecInet6::DevConf(d) => inet6 = Some(d),
                            AfSpecInet6::Flags(f) => flags = Some(f),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let (inet, inet6, flags) = (inet.expect("inet"), inet6.expect("inet6"), flags.expect("flags"));
    assert_eq!(c.promote_secondaries, Some(inet.promote_secondaries != 0));
    assert_eq!(c.accept_ra, Some(inet6.accept_ra));
    assert_eq!(c.use_tempaddr, Some(inet6.use_tempaddr));
    assert_eq!(c.disable_ipv6, Some(inet6.disable_ipv6 != 0));
    assert_eq!(c.accept_dad, Some(inet6.accept_dad));
    assert_eq!(c.ipv6_ready(), Some(flags.contains(Inet6IfaceFlags::Ready)));
}

/// The first message of a capture's packet.
fn first_message(name: &str, packet: u64) -> Vec<u8> {
    crate::testutil::netlink_payload(name, packet)
}

fn route_of(bytes: &[u8]) -> Route<'_> {
    let m = Messages::new(bytes, ByteOrder::Little)
        .next()
        .expect("one")
        .expect("ok");
    match decode(&m).body {
        Body::Route(r) => r,
        other => panic!("{other:?}"),
    }
}

#[test]
fn route_header_values_are_typed() {
    // refused.l1.pcap packet 176: 10.3.0.0/24 dev br0 proto kernel scope
    // link (a link-down unicast route of table main).
    let bytes = first_message("kernels/6.12/refused.l1.pcap", 176);
    // rtmsg: family, dst_len, src_len, tos, table, protocol, scope, type.
    assert_eq!(bytes[16..24], [2, 24, 0, 0, 254, 2, 253, 1]);
    let r = route_of(&bytes);
    assert_eq!(
        (r.table, r.protocol, r.scope, r.kind),
        (TableId::Main, RouteProtocol::Kernel, Scope::Link, RouteType::Unicast)
    );
    assert_eq!(
        (r.table.name(), r.protocol.name(), r.scope.name(), r.kind.name()),
        ("main".into(), "kernel".into(), "link".into(), "unicast".into())
    );

    // refused.l1.pcap packet 146: `ip route del 10.6.0.0/16`, which leaves
    // protocol and type unspecified and asks for scope nowhere.
    let bytes = first_message("kernels/6.12/refused.l1.pcap", 146);
    assert_eq!(bytes[16..24], [2, 16, 0, 0, 254, 0, 255, 0]);
    let r = route_of(&bytes);
    assert_eq!(
        (r.table, r.protocol, r.scope, r.kind),
        (TableId::Main, RouteProtocol::Unspec, Scope::Nowhere, RouteType::Unspec)
    );
    assert_eq!(r.kind.ip_name(), "none");
}

#[test]
fn rta_table_gives_all_32_bits() {
    // basic.pcap packet 9: 203.0.113.0/24 dev br0 table 100, a route of a
    // table of the host's own (no name: the number).
    let bytes = first_message("basic.pcap", 9);
    let r = route_of(&bytes);
    assert_eq!(bytes[20], 100, "rtm_table");
    assert_eq!(r.table, TableId::from(100));
    assert_eq!(r.table.name(), "100");
}

#[test]
fn daemon_protocols_are_named() {
    // bird-kernel.l0.pcap packet 35: BIRD's route request, protocol bird (12).
    let bytes = first_message("daemons/6.12/bird-kernel.l0.pcap", 35);
    assert_eq!(bytes[21], 12, "rtm_protocol");
    let r = route_of(&bytes);
    assert_eq!((r.protocol, r.protocol.name()), (RouteProtocol::Bird, "bird".into()));
}

#[test]
fn request_family_is_typed() {
    let bytes = first_message("kernels/6.12/links.l0.pcap", 3);
    // RTM_GETLINK dump with a full ifinfomsg: `ip link` asks with AF_PACKET.
    assert_eq!(bytes[16], 17, "ifi_family");
    let m = Messages::new(&bytes, ByteOrder::Little)
        .next()
        .expect("one")
        .expect("ok");
    let Body::Request(q) = decode(&m).body else {
        panic!("a request")
    };
    assert_eq!(q.family, AddressFamily::Packet);
    assert_eq!(q.family.name(), "packet");
}
