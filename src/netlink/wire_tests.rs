//! Unit tests of `wire`.

use super::*;

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
