//! Unit tests of `wire`.

use super::*;

/// A view's `new_checked` (`check`, its error only) refuses `short`, a
/// buffer with fewer than the `needed` bytes, saying both lengths.
#[track_caller]
fn refuses_short(check: impl Fn(&[u8]) -> Option<WireError>, short: &[u8], needed: usize) {
    let got = short.len();
    assert_eq!(check(short), Some(WireError { needed, got }));
}

#[test]
fn guess_prefers_closer_length() {
    // nlmsg_len 20 little-endian in a 20-byte packet.
    let le = [20u8, 0, 0, 0];
    assert_eq!(ByteOrder::guess(&le, 20), Some(ByteOrder::Little));
    let be = [0u8, 0, 0, 20];
    assert_eq!(ByteOrder::guess(&be, 20), Some(ByteOrder::Big));
    assert_eq!(ByteOrder::guess(&[1, 2], 20), None);
}

#[test]
fn walk_stops_at_bad_length() {
    let mut buf = Vec::new();
    for len in [20u32, 0] {
        buf.extend_from_slice(&len.to_le_bytes());
        buf.extend_from_slice(&[3, 0, 2, 0]);
        buf.extend_from_slice(&[0; 8]);
        buf.extend_from_slice(&[0; 4]);
    }
    let items: Vec<_> = Messages::new(&buf, ByteOrder::Little).collect();
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    assert_eq!(items[1], Err(FrameError::LengthTooSmall { offset: 20, len: 0 }));
    let mut huge = buf[..20].to_vec();
    huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
    let items: Vec<_> = Messages::new(&huge, ByteOrder::Little).collect();
    assert!(matches!(
        items[..],
        [Err(FrameError::LengthOverrun { len: u32::MAX, .. })]
    ));
}

#[test]
fn attrs_stop_on_overrun() {
    // IFA_LABEL "lo" then an attribute claiming 200 bytes.
    let buf = [7u8, 0, 3, 0, b'l', b'o', 0, 0, 200, 0, 1, 0, 1, 2];
    let v: Vec<_> = Attrs::new(&buf, ByteOrder::Little).collect();
    assert_eq!(v.len(), 2);
    let label = v[0].expect("first attr");
    assert_eq!((label.kind, label.cstr()), (3, &b"lo"[..]));
    assert_eq!(
        v[1],
        Err(AttrError {
            offset: 8,
            len: 200,
            left: 6
        })
    );
}

impl PartialEq for Message<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.header == other.header && self.offset == other.offset && self.payload == other.payload
    }
}

// ------------------------------------------------------------ views ----
//
// Every buffer below is read from a real-kernel fixture through the capture
// reader (`testutil::netlink_payload`); the expected values are what those
// records hold (`nlorder decode FILE` shows the same message).

use crate::netlink::names::*;
use crate::netlink::values::{RouteProtocol, RouteType, Scope};
use crate::testutil::netlink_payload;

const LINKS: &str = "kernels/6.12/links.l0.pcap";

/// The body (after the nlmsghdr) of the first message of record `packet`.
fn first_body(name: &str, packet: u64) -> Vec<u8> {
    let data = netlink_payload(name, packet);
    let m = Messages::new(&data, ByteOrder::Little)
        .next()
        .expect("a message")
        .expect("framed");
    m.payload().to_vec()
}

/// The first attribute of an attribute area.
fn first_attr(area: &[u8]) -> Attr<'_> {
    Attrs::new(area, ByteOrder::Little)
        .next()
        .expect("an attribute")
        .expect("well formed")
}

#[test]
fn nlmsghdr_view() {
    // links.l0.pcap packet 4: the link dump's first reply, lo.
    let data = netlink_payload(LINKS, 4);
    let h = NlMsgHdr::new_checked(&data[..], ByteOrder::Little).expect("16 bytes");
    assert_eq!(
        (h.length(), h.kind(), h.flags(), h.seq(), h.pid()),
        (1432, RTM_NEWLINK, NLM_F_MULTI, 1_795_418_291, 735)
    );
    assert_eq!(Header::parse(&data, ByteOrder::Little), Some(h.header()));
    assert_eq!(NLMSG_HDRLEN, 16);
    assert_eq!(
        NlMsgHdr::new_checked(&data[..15], ByteOrder::Little),
        Err(WireError { needed: 16, got: 15 })
    );

    let mut copy = data[..NLMSG_HDRLEN].to_vec();
    let mut w = NlMsgHdr::new_checked(&mut copy, ByteOrder::Big).expect("16 bytes");
    w.set_length(17);
    assert_eq!(copy[..4], [0, 0, 0, 17]);
}

#[test]
fn nlmsgerr_view() {
    // links.l0.pcap packet 2: ENODEV for an RTM_NEWLINK, the request echoed whole.
    let body = first_body(LINKS, 2);
    let e = NlMsgErr::new_checked(&body[..], ByteOrder::Little).expect("errno");
    assert_eq!(e.error(), -19);
    let q = e.quoted().expect("echoed header").header();
    assert_eq!(
        (q.len, q.kind, q.flags, q.seq, q.pid),
        (32, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, 0, 0)
    );
    assert_eq!(e.echoed().len(), 32, "the whole 32-byte request");
    assert_eq!((NlMsgErr::<&[u8]>::ERRNO_LEN, NlMsgErr::<&[u8]>::LEN), (4, 20));

    refuses_short(|b| NlMsgErr::new_checked(b, ByteOrder::Little).err(), &body[..3], 4);
    // The errno alone is kept; a cut echoed header is not read.
    let cut = NlMsgErr::new_checked(&body[..19], ByteOrder::Little).expect("errno");
    assert_eq!((cut.error(), cut.quoted()), (-19, None));
}

#[test]
fn nlmsgdone_view() {
    // links.l0.pcap packet 5: the end of the link dump.
    let body = first_body(LINKS, 5);
    let d = NlMsgDone::new_checked(&body[..], ByteOrder::Little).expect("4 bytes");
    assert_eq!(d.error(), 0);
    refuses_short(|b| NlMsgDone::new_checked(b, ByteOrder::Little).err(), &body[..2], 4);
}

#[test]
fn ifinfomsg_view() {
    // ipv4-promote-off.l1.pcap packet 20: lo set up, notified with ifi_change 1.
    let body = first_body("kernels/6.12/ipv4-promote-off.l1.pcap", 20);
    let h = IfInfoMsg::new_checked(&body[..], ByteOrder::Little).expect("16 bytes");
    let lo_up = IFF_UP | IFF_LOOPBACK | IFF_RUNNING | IFF_LOWER_UP;
    let fields = (h.family(), h.dev_type(), h.index(), h.flags(), h.change());
    assert_eq!(fields, (AF_UNSPEC, 772, 1, lo_up, IFF_UP), "ARPHRD_LOOPBACK is 772");
    let name = first_attr(h.attrs());
    assert_eq!((name.kind, name.cstr()), (IFLA_IFNAME, &b"lo"[..]));
    assert_eq!(IfInfoMsg::<&[u8]>::LEN, 16);
    refuses_short(|b| IfInfoMsg::new_checked(b, ByteOrder::Little).err(), &body[..15], 16);

    // The same header as a big-endian host writes it.
    let mut be = body[..16].to_vec();
    for field in [2..4, 4..8, 8..12, 12..16] {
        be[field].reverse();
    }
    let h = IfInfoMsg::new_checked(&be[..], ByteOrder::Big).expect("16 bytes");
    assert_eq!((h.family(), h.dev_type(), h.index(), h.flags(), h.change()), fields);
    assert!(h.attrs().is_empty());

    // Unchecked over too few bytes: what is missing reads as zero, no panic.
    let short = IfInfoMsg::new_unchecked(&body[..6], ByteOrder::Little);
    assert_eq!((short.dev_type(), short.index(), short.change()), (772, 0, 0));
    assert!(short.attrs().is_empty());
}

#[test]
fn ifaddrmsg_view() {
    // ipv4-promote-on.l0.pcap packet 95: the address dump's first reply, 127.0.0.1/8 on lo.
    let body = first_body("kernels/6.12/ipv4-promote-on.l0.pcap", 95);
    let h = IfAddrMsg::new_checked(&body[..], ByteOrder::Little).expect("8 bytes");
    assert_eq!(
        (h.family(), h.prefix_len(), u32::from(h.flags()), h.scope(), h.index()),
        (AF_INET, 8, IFA_F_PERMANENT, u8::from(Scope::Host), 1)
    );
    let address = first_attr(h.attrs());
    assert_eq!(address.kind, IFA_ADDRESS);
    assert_eq!(address.ip(AF_INET), Some([127, 0, 0, 1].into()));
    assert_eq!(IfAddrMsg::<&[u8]>::LEN, 8);
    refuses_short(|b| IfAddrMsg::new_checked(b, ByteOrder::Little).err(), &body[..7], 8);
}

#[test]
fn rtmsg_view() {
    // refused.l1.pcap packet 176: 10.3.0.0/24 dev br0 proto kernel scope link, link down.
    let body = first_body("kernels/6.12/refused.l1.pcap", 176);
    let h = RtMsg::new_checked(&body[..], ByteOrder::Little).expect("12 bytes");
    assert_eq!(
        (h.family(), h.dst_len(), h.src_len(), h.tos(), h.table()),
        (AF_INET, 24, 0, 0, 254)
    );
    assert_eq!(
        (h.protocol(), h.scope(), h.kind(), h.flags()),
        (
            u8::from(RouteProtocol::Kernel),
            u8::from(Scope::Link),
            u8::from(RouteType::Unicast),
            0x10
        ),
        "RTNH_F_LINKDOWN is 0x10"
    );
    let table = first_attr(h.attrs());
    assert_eq!((table.kind, table.u32(ByteOrder::Little)), (RTA_TABLE, Some(254)));
    assert_eq!(RtMsg::<&[u8]>::LEN, 12);
    refuses_short(|b| RtMsg::new_checked(b, ByteOrder::Little).err(), &body[..11], 12);
}

#[test]
fn rtgenmsg_view() {
    // rtgen-nanos.pcap packet 5: the 1-byte body Go's net package sends.
    let body = first_body("rtgen-nanos.pcap", 5);
    assert_eq!(body.len(), RtGenMsg::<&[u8]>::LEN);
    assert_eq!(RtGenMsg::new_checked(&body[..]).map(|g| g.family()), Ok(AF_UNSPEC));
    assert_eq!(RtGenMsg::new_checked(&body[..0]), Err(WireError { needed: 1, got: 0 }));
    // links.l0.pcap packet 3: a full ifinfomsg GET body starts with the family too.
    let full = first_body(LINKS, 3);
    assert_eq!(
        RtGenMsg::new_checked(&full[..]).map(|g| g.family()),
        Ok(17),
        "AF_PACKET"
    );
}

#[test]
fn family_header_sizes() {
    assert_eq!(family_header_len(RTM_GETLINK), Some(IfInfoMsg::<&[u8]>::LEN));
    assert_eq!(family_header_len(RTM_DELADDR), Some(IfAddrMsg::<&[u8]>::LEN));
    assert_eq!(family_header_len(RTM_NEWROUTE), Some(RtMsg::<&[u8]>::LEN));
    assert_eq!(family_header_len(NLMSG_ERROR), None);
}
