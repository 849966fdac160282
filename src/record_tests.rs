//! Unit tests of `record`: what the writer produces reads back.

use super::*;
use crate::capture::CaptureReader;
use crate::diag::Diagnostics;

fn written(format: FileFormat) -> Vec<u8> {
    // Two buffers of real kernel bytes (nl0.pcap's GETLINK request and its first reply).
    let req = crate::testutil::netlink_payload("third-party/pyroute2__nl0.pcap", 4);
    let reply = crate::testutil::netlink_payload("third-party/pyroute2__nl0.pcap", 5);
    let mut w = CaptureWriter::new(Vec::new(), format).expect("header");
    let t = SystemTime::UNIX_EPOCH + Duration::new(1_700_000_000, 123_456_789);
    w.write(&req, t).expect("write");
    w.write(&reply, t).expect("write");
    assert_eq!(w.records(), 2);
    w.out
}

#[test]
fn pcap_and_pcapng_read_back_with_nanoseconds() {
    for format in [FileFormat::Pcap, FileFormat::Pcapng] {
        let bytes = written(format);
        let mut r = CaptureReader::new(io::Cursor::new(bytes)).expect("reader");
        let mut diags = Diagnostics::default();
        let mut seen = Vec::new();
        r.for_each_record(&mut diags, |rec, _| {
            seen.push((rec.linktype, rec.ts, rec.data.len(), rec.data[..4].to_vec()));
            true
        })
        .expect("read");
        assert!(diags.is_empty(), "{format:?}: {diags:?}");
        assert_eq!(seen.len(), 2, "{format:?}");
        assert_eq!(seen[0].0, LINKTYPE_NETLINK);
        assert_eq!(seen[0].1.map(|t| t.nanos), Some(123_456_789), "{format:?}");
        assert_eq!(seen[0].3, [0, 4, 3, 0x38], "pkttype 4, hatype 824");
    }
}

#[test]
fn requests_are_well_formed_dump_requests() {
    let req = request(
        RouteNetlinkMessage::GetAddress(AddressMessage::default()),
        7,
        RequestForm::Full,
    );
    let m = Messages::new(&req, ByteOrder::native())
        .next()
        .expect("one")
        .expect("framed");
    assert_eq!(m.header.kind, crate::netlink::names::RTM_GETADDR);
    assert_eq!(m.header.flags, 0x301);
    assert_eq!(m.header.seq, 7);
    assert_eq!(m.payload().len(), 8, "a full ifaddrmsg, family AF_UNSPEC");
}

#[test]
fn legacy_rtgenmsg_requests_are_17_bytes() {
    let req = request(
        RouteNetlinkMessage::GetLink(LinkMessage::default()),
        9,
        RequestForm::Rtgenmsg,
    );
    assert_eq!(req.len(), 17);
    let m = Messages::new(&req, ByteOrder::native())
        .next()
        .expect("one")
        .expect("framed");
    assert_eq!((m.header.len, m.payload().len()), (17, 1));
}
