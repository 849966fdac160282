//! Netlink wire structures in either byte order: framing of the messages of
//! a record, the attributes of an attribute area, and checked views of the
//! fixed headers nlorder reads itself.
//!
//! Contract: the views ([`NlMsgHdr`], [`NlMsgErr`], [`NlMsgDone`],
//! [`IfInfoMsg`], [`IfAddrMsg`], [`RtMsg`], [`RtGenMsg`]) follow smoltcp's
//! pattern: `new_checked` verifies once that the buffer holds the whole
//! header (or refuses it with a [`WireError`]). All but [`RtGenMsg`] (one
//! byte, read in no order) are one generic [`View`], each with its
//! [`Layout`], whose `LEN` is the one place its size is written down. No accessor panics or reads out of
//! bounds, even on a view made by `new_unchecked` over too short a buffer
//! (missing bytes then read as zero). [`Messages`] and [`Attrs`] walk a
//! record's messages and an attribute area, and end with an error at the
//! first impossible length. Everything borrows the record; nothing here
//! allocates. The byte order is a parameter because the netlink bytes are in
//! the *capturing* host's order, which need not be ours.
//!
//! netlink-packet-core has `NetlinkBuffer`/`NlasIterator`, but they read
//! native byte order only, so they cannot walk a capture made on a host of
//! the other endianness.

use std::marker::PhantomData;
use std::ops::Range;

use super::names::{
    FIB_RULE_HDR_LEN, RTM_GETADDR, RTM_GETROUTE, RTM_GETRULE, RTM_NEWADDR, RTM_NEWLINK, RTM_NEWROUTE, RTM_NEWRULE,
    RTM_SETLINK,
};

/// Byte order of the netlink data in a capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ByteOrder {
    /// Least significant byte first (x86, arm64, most of what captures come
    /// from).
    Little,
    /// Most significant byte first (s390x, big-endian MIPS and PowerPC).
    Big,
}

impl ByteOrder {
    /// The order of the host nlorder runs on.
    pub const fn native() -> Self {
        if cfg!(target_endian = "big") {
            ByteOrder::Big
        } else {
            ByteOrder::Little
        }
    }

    /// Two bytes as a u16 in this order.
    #[inline]
    pub fn u16(self, b: [u8; 2]) -> u16 {
        match self {
            ByteOrder::Little => u16::from_le_bytes(b),
            ByteOrder::Big => u16::from_be_bytes(b),
        }
    }

    /// Four bytes as a u32 in this order.
    #[inline]
    pub fn u32(self, b: [u8; 4]) -> u32 {
        match self {
            ByteOrder::Little => u32::from_le_bytes(b),
            ByteOrder::Big => u32::from_be_bytes(b),
        }
    }

    /// Reads a u32 at `at`; `None` when the slice is too short.
    #[inline]
    pub fn read_u32(self, data: &[u8], at: usize) -> Option<u32> {
        let b = data.get(at..at.checked_add(4)?)?;
        Some(self.u32(b.try_into().ok()?))
    }

    /// Wireshark's guess (`packet-netlink.c`): the order in which the first
    /// `nlmsg_len` is closer to the bytes the packet really had from that
    /// message on (`reported`, the untruncated length). Ties go to little.
    /// `None` when there are not even 4 bytes to look at.
    pub fn guess(payload: &[u8], reported: u64) -> Option<ByteOrder> {
        let b: [u8; 4] = payload.get(..4)?.try_into().ok()?;
        let le = u64::from(u32::from_le_bytes(b));
        let be = u64::from(u32::from_be_bytes(b));
        if be.abs_diff(reported) < le.abs_diff(reported) {
            Some(ByteOrder::Big)
        } else {
            Some(ByteOrder::Little)
        }
    }

    /// Whether the first `nlmsg_len` read in this order fits the record exactly
    /// enough to be believed (at least a header, at most the reported length).
    pub fn plausible(self, payload: &[u8], reported: u64) -> bool {
        match self.read_u32(payload, 0) {
            Some(len) => len >= NLMSG_HDRLEN as u32 && u64::from(len) <= reported,
            None => false,
        }
    }
}

/// Size of `struct nlmsghdr` (the kernel's name for [`NlMsgHdr::LEN`]).
pub const NLMSG_HDRLEN: usize = NlMsgHdr::<&[u8]>::LEN;
/// Size of `struct nlattr`, the length and type before an attribute's value.
pub const NLA_HDRLEN: usize = 4;

/// `len` rounded up to the next multiple of 4 (NLMSG_ALIGN, also NLA_ALIGN):
/// where the next message or attribute starts.
#[inline]
pub fn nlmsg_align(len: usize) -> usize {
    len.saturating_add(3) & !3
}

/// The fields of a `struct nlmsghdr`, copied out (read through [`NlMsgHdr`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Header {
    /// `nlmsg_len`: the message's length in bytes, this header included.
    pub len: u32,
    /// `nlmsg_type`: NLMSG_* or RTM_* (see [`super::names::message_type`]).
    #[serde(rename = "type")]
    pub kind: u16,
    /// `nlmsg_flags`: NLM_F_*, whose high bits depend on the type (see
    /// [`super::names::message_flags`]).
    pub flags: u16,
    /// `nlmsg_seq`: the sequence number a requester chose; replies repeat it.
    pub seq: u32,
    /// `nlmsg_pid`: the netlink port id of the socket the message is from or
    /// for (0 is the kernel).
    pub pid: u32,
}

impl Header {
    /// The header at the start of `data`; `None` when `data` is shorter
    /// than [`NLMSG_HDRLEN`].
    pub fn parse(data: &[u8], order: ByteOrder) -> Option<Header> {
        NlMsgHdr::new_checked(data, order).ok().map(|h| h.header())
    }
}

/// One netlink message: a header whose `nlmsg_len` has been checked against
/// the bytes present, and its payload.
#[derive(Debug, Clone, Copy)]
pub struct Message<'a> {
    /// The message's `nlmsghdr`.
    pub header: Header,
    /// Offset of the message from the start of the netlink data of its record.
    pub offset: usize,
    payload: &'a [u8],
    /// The byte order of the capture the message came from.
    pub order: ByteOrder,
}

impl<'a> Message<'a> {
    /// The bytes after the header, up to `nlmsg_len`.
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }
}

/// Why the walk over a record's messages stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameError {
    /// Fewer than 16 bytes left, but not zero.
    ShortHeader {
        /// Where the header would start in the record's netlink data.
        offset: usize,
        /// Bytes left from there.
        left: usize,
    },
    /// `nlmsg_len` below the header size.
    LengthTooSmall {
        /// Where the message starts in the record's netlink data.
        offset: usize,
        /// Its `nlmsg_len`.
        len: u32,
    },
    /// `nlmsg_len` past the end of the captured data.
    LengthOverrun {
        /// Where the message starts in the record's netlink data.
        offset: usize,
        /// Its `nlmsg_len`.
        len: u32,
        /// Bytes left from there.
        left: usize,
    },
}

impl FrameError {
    /// Where the message that could not be framed starts in the record's
    /// netlink data.
    pub fn offset(&self) -> usize {
        match *self {
            FrameError::ShortHeader { offset, .. }
            | FrameError::LengthTooSmall { offset, .. }
            | FrameError::LengthOverrun { offset, .. } => offset,
        }
    }
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            FrameError::ShortHeader { left, .. } => {
                write!(f, "{left} trailing bytes are too few for a netlink header")
            }
            FrameError::LengthTooSmall { len, .. } => {
                write!(
                    f,
                    "nlmsg_len {len} is below the {NLMSG_HDRLEN}-byte header: rest of record skipped"
                )
            }
            FrameError::LengthOverrun { len, left, .. } => {
                write!(f, "nlmsg_len {len} overruns the {left} bytes left in the record")
            }
        }
    }
}

/// Walks the messages of one record (NLMSG_ALIGN steps). Yields each message,
/// then at most one error, after which it stops: a broken length makes the
/// rest of the record unframeable.
#[derive(Debug, Clone)]
pub struct Messages<'a> {
    data: &'a [u8],
    offset: usize,
    order: ByteOrder,
    done: bool,
}

impl<'a> Messages<'a> {
    /// Walks the messages of `data`, the netlink bytes of one record.
    pub fn new(data: &'a [u8], order: ByteOrder) -> Self {
        Self {
            data,
            offset: 0,
            order,
            done: false,
        }
    }
}

impl<'a> Iterator for Messages<'a> {
    type Item = Result<Message<'a>, FrameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let rest = self.data.get(self.offset..).unwrap_or_default();
        // Zero bytes after the last message are padding, not a message:
        // iproute2 sends its dump requests in a buffer larger than the
        // request, and nlmon records the whole buffer. A non-zero tail is
        // still reported below.
        if rest.iter().all(|&b| b == 0) {
            self.done = true;
            return None;
        }
        let offset = self.offset;
        let Some(header) = Header::parse(rest, self.order) else {
            self.done = true;
            // Up to 3 bytes are alignment padding after the last message.
            if rest.len() < 4 && rest.iter().all(|&b| b == 0) {
                return None;
            }
            return Some(Err(FrameError::ShortHeader {
                offset,
                left: rest.len(),
            }));
        };
        let len = header.len as usize;
        if len < NLMSG_HDRLEN {
            self.done = true;
            return Some(Err(FrameError::LengthTooSmall {
                offset,
                len: header.len,
            }));
        }
        // len ≥ NLMSG_HDRLEN here, so only a length past the end fails.
        let Some(payload) = rest.get(NLMSG_HDRLEN..len) else {
            self.done = true;
            return Some(Err(FrameError::LengthOverrun {
                offset,
                len: header.len,
                left: rest.len(),
            }));
        };
        self.offset = offset.saturating_add(nlmsg_align(len));
        Some(Ok(Message {
            header,
            offset,
            payload,
            order: self.order,
        }))
    }
}

/// One attribute (`struct nlattr`) with its type bits split out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attr<'a> {
    /// Type with NLA_F_NESTED and NLA_F_NET_BYTEORDER masked off.
    pub kind: u16,
    /// NLA_F_NESTED: the value is itself an attribute area.
    pub nested: bool,
    /// NLA_F_NET_BYTEORDER: the value is big-endian whatever the host's order.
    pub net_byteorder: bool,
    /// Offset of the attribute header within the attribute area.
    pub offset: usize,
    /// The value, without header or alignment padding.
    pub value: &'a [u8],
}

/// An attribute whose length is impossible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttrError {
    /// Offset of the attribute header within the attribute area.
    pub offset: usize,
    /// Its `nla_len`.
    pub len: u16,
    /// Bytes left in the area from the attribute on.
    pub left: usize,
}

impl std::fmt::Display for AttrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if (self.len as usize) < NLA_HDRLEN {
            write!(f, "attribute at +{} has length {} (< 4)", self.offset, self.len)
        } else {
            write!(
                f,
                "attribute at +{} of length {} overruns the {} bytes left",
                self.offset, self.len, self.left
            )
        }
    }
}

/// Iterates the attributes of an attribute area; stops after the first error.
#[derive(Debug, Clone)]
pub struct Attrs<'a> {
    data: &'a [u8],
    offset: usize,
    order: ByteOrder,
    done: bool,
}

impl<'a> Attrs<'a> {
    /// Walks the attributes of `data`, an attribute area in `order`.
    pub fn new(data: &'a [u8], order: ByteOrder) -> Self {
        Self {
            data,
            offset: 0,
            order,
            done: false,
        }
    }
}

impl<'a> Iterator for Attrs<'a> {
    type Item = Result<Attr<'a>, AttrError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let rest = self.data.get(self.offset..).unwrap_or_default();
        // Fewer than a header's worth of bytes (NLA_HDRLEN, 4): trailing
        // padding, ignored as the kernel does.
        let &[l0, l1, k0, k1, ..] = rest else {
            self.done = true;
            return None;
        };
        let offset = self.offset;
        let len = self.order.u16([l0, l1]);
        let raw_kind = self.order.u16([k0, k1]);
        // `None` both for a length below the header and for one past the end.
        let Some(value) = rest.get(NLA_HDRLEN..len as usize) else {
            self.done = true;
            return Some(Err(AttrError {
                offset,
                len,
                left: rest.len(),
            }));
        };
        self.offset = offset.saturating_add(nlmsg_align(len as usize));
        Some(Ok(Attr {
            kind: raw_kind & 0x3fff,
            nested: raw_kind & 0x8000 != 0,
            net_byteorder: raw_kind & 0x4000 != 0,
            offset,
            value,
        }))
    }
}

impl<'a> Attr<'a> {
    /// A one-byte value; `None` for any other size.
    pub fn u8(&self) -> Option<u8> {
        match self.value {
            [b] => Some(*b),
            _ => None,
        }
    }

    /// A four-byte value, in `order` unless the attribute says network order;
    /// `None` for any other size.
    pub fn u32(&self, order: ByteOrder) -> Option<u32> {
        let b: [u8; 4] = self.value.try_into().ok()?;
        Some(if self.net_byteorder {
            u32::from_be_bytes(b)
        } else {
            order.u32(b)
        })
    }

    /// A NUL-terminated (or unterminated) string, as raw bytes.
    pub fn cstr(&self) -> &'a [u8] {
        // The first piece of a split at NULs: all of it when there is none.
        self.value.split(|&b| b == 0).next().unwrap_or(self.value)
    }

    /// An IPv4 or IPv6 address (network order) for the given address family.
    pub fn ip(&self, family: u8) -> Option<std::net::IpAddr> {
        match (family, self.value.len()) {
            (super::names::AF_INET, 4) => {
                let b: [u8; 4] = self.value.try_into().ok()?;
                Some(std::net::IpAddr::from(b))
            }
            (super::names::AF_INET6, 16) => {
                let b: [u8; 16] = self.value.try_into().ok()?;
                Some(std::net::IpAddr::from(b))
            }
            _ => None,
        }
    }
}

// ------------------------------------------------------------ views ----

/// A fixed header that does not fit in the bytes there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireError {
    /// Bytes the header needs.
    pub needed: usize,
    /// Bytes there were.
    pub got: usize,
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} bytes are fewer than the {}-byte header", self.got, self.needed)
    }
}

impl std::error::Error for WireError {}

/// A field of more than one byte: its byte range in the structure.
type Field = Range<usize>;

fn check_len(data: &[u8], needed: usize) -> Result<(), WireError> {
    if data.len() < needed {
        Err(WireError {
            needed,
            got: data.len(),
        })
    } else {
        Ok(())
    }
}

/// The byte at `at`, or 0 past the end of `data`.
fn byte(data: &[u8], at: usize) -> u8 {
    data.get(at).copied().unwrap_or(0)
}

/// The bytes of `field`, or zeros when `data` ends before it does.
fn bytes<const N: usize>(data: &[u8], field: Field) -> [u8; N] {
    data.get(field)
        .and_then(|b| <[u8; N]>::try_from(b).ok())
        .unwrap_or([0; N])
}

fn u16_at(data: &[u8], order: ByteOrder, field: Field) -> u16 {
    order.u16(bytes(data, field))
}

fn u32_at(data: &[u8], order: ByteOrder, field: Field) -> u32 {
    order.u32(bytes(data, field))
}

/// What follows a fixed header of `len` bytes (empty when nothing does).
fn rest(data: &[u8], len: usize) -> &[u8] {
    data.get(len..).unwrap_or_default()
}

/// A fixed header's layout: its size, and how much of it
/// [`View::new_checked`] requires.
pub trait Layout {
    /// Size of the header in bytes.
    const LEN: usize;
    /// Bytes a buffer must hold to be viewed (the whole header unless said).
    const NEEDED: usize = Self::LEN;
}

/// The layout of an rtnetlink message's header: the address family in
/// its first byte ([`View::family`]), an attribute area after it
/// ([`View::attrs`]).
pub trait Attributed: Layout {}

/// A checked view of a fixed header of layout `L` over `buffer`, whose
/// multi-byte fields are read in `order`. Each header is one alias of it
/// ([`NlMsgHdr`], [`NlMsgErr`], [`NlMsgDone`], [`IfInfoMsg`],
/// [`IfAddrMsg`], [`RtMsg`]), with its fields' accessors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View<L, T: AsRef<[u8]>> {
    buffer: T,
    order: ByteOrder,
    layout: PhantomData<L>,
}

impl<L: Layout, T: AsRef<[u8]>> View<L, T> {
    /// Size of the header in bytes.
    pub const LEN: usize = L::LEN;

    /// Wraps `buffer` without looking at its length. Accessors still
    /// never panic, but read bytes past the end as zero.
    pub const fn new_unchecked(buffer: T, order: ByteOrder) -> Self {
        Self {
            buffer,
            order,
            layout: PhantomData,
        }
    }

    /// Wraps `buffer`, or refuses it when it is shorter than the
    /// header (for [`NlMsgErr`], than its errno).
    pub fn new_checked(buffer: T, order: ByteOrder) -> Result<Self, WireError> {
        check_len(buffer.as_ref(), L::NEEDED)?;
        Ok(Self::new_unchecked(buffer, order))
    }

    /// The buffer the view was made over.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// The byte order the view reads its fields in.
    pub fn order(&self) -> ByteOrder {
        self.order
    }

    fn byte(&self, at: usize) -> u8 {
        byte(self.buffer.as_ref(), at)
    }

    fn u16(&self, field: Field) -> u16 {
        u16_at(self.buffer.as_ref(), self.order, field)
    }

    fn u32(&self, field: Field) -> u32 {
        u32_at(self.buffer.as_ref(), self.order, field)
    }
}

impl<L: Attributed, T: AsRef<[u8]>> View<L, T> {
    /// `ifi_family`, `ifa_family`, `rtm_family`: AF_UNSPEC (AF_BRIDGE for
    /// bridge port messages) for links, AF_INET or AF_INET6 for addresses
    /// and routes.
    pub fn family(&self) -> u8 {
        self.byte(rtgenmsg::FAMILY)
    }
}

impl<'a, L: Attributed> View<L, &'a [u8]> {
    /// The attribute area after the header.
    pub fn attrs(&self) -> &'a [u8] {
        rest(self.buffer, L::LEN)
    }
}

/// `struct nlmsghdr`, the header of every netlink message.
pub type NlMsgHdr<T> = View<nlmsghdr::Layout, T>;

mod nlmsghdr {
    use super::Field;

    /// The layout of the header, for [`super::View`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Layout {}

    /// `nlmsg_len`: the message's length, header included.
    pub const LENGTH: Field = 0..4;
    pub const TYPE: Field = 4..6;
    pub const FLAGS: Field = 6..8;
    pub const SEQ: Field = 8..12;
    pub const PID: Field = 12..16;
}

impl Layout for nlmsghdr::Layout {
    /// Size of `struct nlmsghdr` in bytes (16).
    const LEN: usize = nlmsghdr::PID.end;
}

impl<T: AsRef<[u8]>> NlMsgHdr<T> {
    /// `nlmsg_len`.
    pub fn length(&self) -> u32 {
        self.u32(nlmsghdr::LENGTH)
    }

    /// `nlmsg_type`.
    pub fn kind(&self) -> u16 {
        self.u16(nlmsghdr::TYPE)
    }

    /// `nlmsg_flags` (NLM_F_*).
    pub fn flags(&self) -> u16 {
        self.u16(nlmsghdr::FLAGS)
    }

    /// `nlmsg_seq`.
    pub fn seq(&self) -> u32 {
        self.u32(nlmsghdr::SEQ)
    }

    /// `nlmsg_pid`: the port id of the socket the message is from or for.
    pub fn pid(&self) -> u32 {
        self.u32(nlmsghdr::PID)
    }

    /// All fields, copied out.
    pub fn header(&self) -> Header {
        Header {
            len: self.length(),
            kind: self.kind(),
            flags: self.flags(),
            seq: self.seq(),
            pid: self.pid(),
        }
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> NlMsgHdr<T> {
    /// Sets `nlmsg_len` (nothing is written past the end of the buffer).
    pub fn set_length(&mut self, len: u32) {
        let b = match self.order {
            ByteOrder::Little => len.to_le_bytes(),
            ByteOrder::Big => len.to_be_bytes(),
        };
        if let Some(field) = self.buffer.as_mut().get_mut(nlmsghdr::LENGTH) {
            field.copy_from_slice(&b);
        }
    }
}

/// `struct nlmsgerr`, the body of NLMSG_ERROR: an errno (0 for an ACK), then
/// the request it answers — its header only with NLM_F_CAPPED, else all of
/// it — then, with NLM_F_ACK_TLVS, the extended-ACK attributes.
///
/// `new_checked` asks only for the errno ([`NlMsgErr::ERRNO_LEN`]), which
/// says on its own whether the request succeeded; [`NlMsgErr::quoted`] is
/// `None` when the echoed header is cut short.
pub type NlMsgErr<T> = View<nlmsgerr::Layout, T>;

mod nlmsgerr {
    use super::{Field, NlMsgHdr};

    /// The layout of the header, for [`super::View`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Layout {}

    pub const ERROR: Field = 0..4;
    /// The echoed request's `nlmsghdr`.
    pub const MSG: Field = ERROR.end..ERROR.end + NlMsgHdr::<&[u8]>::LEN;
}

impl Layout for nlmsgerr::Layout {
    /// Size of `struct nlmsgerr`: the errno and the echoed `nlmsghdr`.
    const LEN: usize = nlmsgerr::MSG.end;
    /// Only the errno.
    const NEEDED: usize = nlmsgerr::ERROR.end;
}

impl<T: AsRef<[u8]>> NlMsgErr<T> {
    /// Size of the errno, all `new_checked` requires.
    pub const ERRNO_LEN: usize = nlmsgerr::ERROR.end;

    /// The (negative) errno; 0 for an ACK.
    pub fn error(&self) -> i32 {
        self.u32(nlmsgerr::ERROR) as i32
    }
}

impl<'a> NlMsgErr<&'a [u8]> {
    /// Everything after the errno: the echoed request (or its header), then
    /// any extended-ACK attributes.
    pub fn echoed(&self) -> &'a [u8] {
        rest(self.buffer, nlmsgerr::MSG.start)
    }

    /// The header of the request answered; `None` when it is cut short.
    pub fn quoted(&self) -> Option<NlMsgHdr<&'a [u8]>> {
        NlMsgHdr::new_checked(self.echoed(), self.order).ok()
    }
}

/// The body of NLMSG_DONE: an `int`, the dump's errno (0 when it succeeded).
pub type NlMsgDone<T> = View<nlmsgdone::Layout, T>;

mod nlmsgdone {
    use super::Field;

    /// The layout of the header, for [`super::View`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Layout {}

    pub const ERROR: Field = 0..4;
}

impl Layout for nlmsgdone::Layout {
    /// Size of the body in bytes: one `int` (4).
    const LEN: usize = nlmsgdone::ERROR.end;
}

impl<T: AsRef<[u8]>> NlMsgDone<T> {
    /// The dump's (negative) errno; 0 when it succeeded.
    pub fn error(&self) -> i32 {
        self.u32(nlmsgdone::ERROR) as i32
    }
}

/// `struct ifinfomsg`, the fixed header of link messages (and of a veth
/// peer inside VETH_INFO_PEER).
pub type IfInfoMsg<T> = View<ifinfomsg::Layout, T>;

mod ifinfomsg {
    use super::Field;

    /// The layout of the header, for [`super::View`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Layout {}

    /// `ifi_type`: the ARPHRD_* device type (after a padding byte).
    pub const TYPE: Field = 2..4;
    pub const INDEX: Field = 4..8;
    pub const FLAGS: Field = 8..12;
    pub const CHANGE: Field = 12..16;
}

impl Layout for ifinfomsg::Layout {
    /// Size of `struct ifinfomsg` in bytes (16).
    const LEN: usize = ifinfomsg::CHANGE.end;
}

impl Attributed for ifinfomsg::Layout {}

impl<T: AsRef<[u8]>> IfInfoMsg<T> {
    /// `ifi_type` (ARPHRD_*).
    pub fn dev_type(&self) -> u16 {
        self.u16(ifinfomsg::TYPE)
    }

    /// `ifi_index`, as the unsigned number the rest of nlorder uses.
    pub fn index(&self) -> u32 {
        self.u32(ifinfomsg::INDEX)
    }

    /// `ifi_flags` (IFF_*).
    pub fn flags(&self) -> u32 {
        self.u32(ifinfomsg::FLAGS)
    }

    /// `ifi_change`: the flags a request changes.
    pub fn change(&self) -> u32 {
        self.u32(ifinfomsg::CHANGE)
    }
}

/// `struct ifaddrmsg`, the fixed header of address messages.
pub type IfAddrMsg<T> = View<ifaddrmsg::Layout, T>;

mod ifaddrmsg {
    use super::Field;

    /// The layout of the header, for [`super::View`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Layout {}

    pub const PREFIXLEN: usize = 1;
    pub const FLAGS: usize = 2;
    pub const SCOPE: usize = 3;
    pub const INDEX: Field = 4..8;
}

impl Layout for ifaddrmsg::Layout {
    /// Size of `struct ifaddrmsg` in bytes (8).
    const LEN: usize = ifaddrmsg::INDEX.end;
}

impl Attributed for ifaddrmsg::Layout {}

impl<T: AsRef<[u8]>> IfAddrMsg<T> {
    /// `ifa_prefixlen`: the length of the address's prefix, in bits.
    pub fn prefix_len(&self) -> u8 {
        self.byte(ifaddrmsg::PREFIXLEN)
    }

    /// The 8-bit `ifa_flags` (IFA_FLAGS carries all 32 bits).
    pub fn flags(&self) -> u8 {
        self.byte(ifaddrmsg::FLAGS)
    }

    /// `ifa_scope` (RT_SCOPE_*).
    pub fn scope(&self) -> u8 {
        self.byte(ifaddrmsg::SCOPE)
    }

    /// `ifa_index`: the ifindex of the address's device.
    pub fn index(&self) -> u32 {
        self.u32(ifaddrmsg::INDEX)
    }
}

/// `struct rtmsg`, the fixed header of route messages.
pub type RtMsg<T> = View<rtmsg::Layout, T>;

mod rtmsg {
    use super::Field;

    /// The layout of the header, for [`super::View`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Layout {}

    pub const DST_LEN: usize = 1;
    pub const SRC_LEN: usize = 2;
    pub const TOS: usize = 3;
    pub const TABLE: usize = 4;
    pub const PROTOCOL: usize = 5;
    pub const SCOPE: usize = 6;
    pub const TYPE: usize = 7;
    pub const FLAGS: Field = 8..12;
}

impl Layout for rtmsg::Layout {
    /// Size of `struct rtmsg` in bytes (12).
    const LEN: usize = rtmsg::FLAGS.end;
}

impl Attributed for rtmsg::Layout {}

impl<T: AsRef<[u8]>> RtMsg<T> {
    /// `rtm_dst_len`: the length of the destination prefix, in bits.
    pub fn dst_len(&self) -> u8 {
        self.byte(rtmsg::DST_LEN)
    }

    /// `rtm_src_len`: the length of the source prefix, in bits.
    pub fn src_len(&self) -> u8 {
        self.byte(rtmsg::SRC_LEN)
    }

    /// `rtm_tos`: the TOS (DSCP) the route matches; 0 for any.
    pub fn tos(&self) -> u8 {
        self.byte(rtmsg::TOS)
    }

    /// The 8-bit `rtm_table` (RTA_TABLE carries all 32 bits).
    pub fn table(&self) -> u8 {
        self.byte(rtmsg::TABLE)
    }

    /// `rtm_protocol` (RTPROT_*): who installed the route.
    pub fn protocol(&self) -> u8 {
        self.byte(rtmsg::PROTOCOL)
    }

    /// `rtm_scope` (RT_SCOPE_*): how far the destination is.
    pub fn scope(&self) -> u8 {
        self.byte(rtmsg::SCOPE)
    }

    /// `rtm_type` (RTN_*).
    pub fn kind(&self) -> u8 {
        self.byte(rtmsg::TYPE)
    }

    /// `rtm_flags` (RTM_F_*).
    pub fn flags(&self) -> u32 {
        self.u32(rtmsg::FLAGS)
    }
}

/// `struct rtgenmsg`: the legacy GET body, a family byte (often padded to
/// 4 bytes, which are not read). Every rtnetlink family header starts with
/// the family byte, so this view also reads the family of a full one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RtGenMsg<T: AsRef<[u8]>> {
    buffer: T,
}

mod rtgenmsg {
    pub const FAMILY: usize = 0;
}

impl<T: AsRef<[u8]>> RtGenMsg<T> {
    /// Size of the one byte read (the family).
    pub const LEN: usize = rtgenmsg::FAMILY + 1;

    /// Wraps `buffer` without looking at its length; an empty buffer then
    /// reads as family 0.
    pub const fn new_unchecked(buffer: T) -> Self {
        Self { buffer }
    }

    /// Wraps `buffer` once it is known to hold the family byte.
    pub fn new_checked(buffer: T) -> Result<Self, WireError> {
        check_len(buffer.as_ref(), Self::LEN)?;
        Ok(Self::new_unchecked(buffer))
    }

    /// The buffer the view was made over.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// `rtgen_family`.
    pub fn family(&self) -> u8 {
        byte(self.buffer.as_ref(), rtgenmsg::FAMILY)
    }
}

/// Size of the fixed family header ([`IfInfoMsg`], [`IfAddrMsg`],
/// [`RtMsg`] or `fib_rule_hdr`) that opens the body of a link, address,
/// route or rule message;
/// `None` for other message types.
pub fn family_header_len(kind: u16) -> Option<usize> {
    match kind {
        RTM_NEWLINK..=RTM_SETLINK => Some(IfInfoMsg::<&[u8]>::LEN),
        RTM_NEWADDR..=RTM_GETADDR => Some(IfAddrMsg::<&[u8]>::LEN),
        RTM_NEWROUTE..=RTM_GETROUTE => Some(RtMsg::<&[u8]>::LEN),
        RTM_NEWRULE..=RTM_GETRULE => Some(FIB_RULE_HDR_LEN),
        _ => None,
    }
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
