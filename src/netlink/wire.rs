//! Checked views of netlink wire structures, in either byte order.
//!
//! Contract: a view is only built by a `new_checked` constructor that has
//! verified every length its accessors rely on, so no accessor can panic or
//! read out of bounds afterwards. Views borrow the record; nothing here
//! allocates. The byte order is a parameter because the netlink bytes are in
//! the *capturing* host's order, which need not be ours.
//!
//! netlink-packet-core has `NetlinkBuffer`/`NlasIterator`, but they read
//! native byte order only, so they cannot walk a capture made on a host of
//! the other endianness.

/// Byte order of the netlink data in a capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ByteOrder {
    Little,
    Big,
}

impl ByteOrder {
    pub const fn native() -> Self {
        if cfg!(target_endian = "big") {
            ByteOrder::Big
        } else {
            ByteOrder::Little
        }
    }

    #[inline]
    pub fn u16(self, b: [u8; 2]) -> u16 {
        match self {
            ByteOrder::Little => u16::from_le_bytes(b),
            ByteOrder::Big => u16::from_be_bytes(b),
        }
    }

    #[inline]
    pub fn u32(self, b: [u8; 4]) -> u32 {
        match self {
            ByteOrder::Little => u32::from_le_bytes(b),
            ByteOrder::Big => u32::from_be_bytes(b),
        }
    }

    /// Reads a u16 at `at`; `None` when the slice is too short.
    #[inline]
    pub fn read_u16(self, data: &[u8], at: usize) -> Option<u16> {
        let b = data.get(at..at.checked_add(2)?)?;
        Some(self.u16([b[0], b[1]]))
    }

    /// Reads a u32 at `at`; `None` when the slice is too short.
    #[inline]
    pub fn read_u32(self, data: &[u8], at: usize) -> Option<u32> {
        let b = data.get(at..at.checked_add(4)?)?;
        Some(self.u32([b[0], b[1], b[2], b[3]]))
    }

    /// Wireshark's guess (`packet-netlink.c`): the order in which the first
    /// `nlmsg_len` is closer to the bytes the packet really had from that
    /// message on (`reported`, the untruncated length). Ties go to little.
    /// `None` when there are not even 4 bytes to look at.
    pub fn guess(payload: &[u8], reported: u64) -> Option<ByteOrder> {
        let b = payload.get(..4)?;
        let b = [b[0], b[1], b[2], b[3]];
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

pub const NLMSG_HDRLEN: usize = 16;
pub const NLA_HDRLEN: usize = 4;

#[inline]
pub fn nlmsg_align(len: usize) -> usize {
    len.saturating_add(3) & !3
}

/// The 16-byte `nlmsghdr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Header {
    pub len: u32,
    #[serde(rename = "type")]
    pub kind: u16,
    pub flags: u16,
    pub seq: u32,
    pub pid: u32,
}

impl Header {
    /// Parses a header from at least 16 bytes.
    pub fn parse(data: &[u8], order: ByteOrder) -> Option<Header> {
        Some(Header {
            len: order.read_u32(data, 0)?,
            kind: order.read_u16(data, 4)?,
            flags: order.read_u16(data, 6)?,
            seq: order.read_u32(data, 8)?,
            pid: order.read_u32(data, 12)?,
        })
    }
}

/// One netlink message: a header whose `nlmsg_len` has been checked against
/// the bytes present, and its payload.
#[derive(Debug, Clone, Copy)]
pub struct Message<'a> {
    pub header: Header,
    /// Offset of the message from the start of the netlink data of its record.
    pub offset: usize,
    payload: &'a [u8],
    pub order: ByteOrder,
}

impl<'a> Message<'a> {
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }
}

/// Why the walk over a record's messages stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameError {
    /// Fewer than 16 bytes left, but not zero.
    ShortHeader { offset: usize, left: usize },
    /// `nlmsg_len` below the header size.
    LengthTooSmall { offset: usize, len: u32 },
    /// `nlmsg_len` past the end of the captured data.
    LengthOverrun { offset: usize, len: u32, left: usize },
}

impl FrameError {
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
                write!(f, "nlmsg_len {len} is below the 16-byte header: rest of record skipped")
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
        if len > rest.len() {
            self.done = true;
            return Some(Err(FrameError::LengthOverrun {
                offset,
                len: header.len,
                left: rest.len(),
            }));
        }
        self.offset = offset.saturating_add(nlmsg_align(len));
        Some(Ok(Message {
            header,
            offset,
            payload: &rest[NLMSG_HDRLEN..len],
            order: self.order,
        }))
    }
}

/// One attribute (`struct nlattr`) with its type bits split out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attr<'a> {
    /// Type with NLA_F_NESTED and NLA_F_NET_BYTEORDER masked off.
    pub kind: u16,
    pub nested: bool,
    pub net_byteorder: bool,
    /// Offset of the attribute header within the attribute area.
    pub offset: usize,
    pub value: &'a [u8],
}

/// An attribute whose length is impossible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttrError {
    pub offset: usize,
    pub len: u16,
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
        // Fewer than a header's worth of bytes: trailing padding, ignored as the kernel does.
        if rest.len() < NLA_HDRLEN {
            self.done = true;
            return None;
        }
        let offset = self.offset;
        let len = self.order.u16([rest[0], rest[1]]);
        let raw_kind = self.order.u16([rest[2], rest[3]]);
        if (len as usize) < NLA_HDRLEN || len as usize > rest.len() {
            self.done = true;
            return Some(Err(AttrError {
                offset,
                len,
                left: rest.len(),
            }));
        }
        self.offset = offset.saturating_add(nlmsg_align(len as usize));
        Some(Ok(Attr {
            kind: raw_kind & 0x3fff,
            nested: raw_kind & 0x8000 != 0,
            net_byteorder: raw_kind & 0x4000 != 0,
            offset,
            value: &rest[NLA_HDRLEN..len as usize],
        }))
    }
}

impl<'a> Attr<'a> {
    pub fn u8(&self) -> Option<u8> {
        match self.value {
            [b] => Some(*b),
            _ => None,
        }
    }

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
        match self.value.iter().position(|&b| b == 0) {
            Some(n) => &self.value[..n],
            None => self.value,
        }
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

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
