//! Link-layer headers in front of netlink data.
//!
//! Contract: [`netlink_frame`] turns a record of link type LINKTYPE_NETLINK
//! (253), LINUX_SLL (113) or LINUX_SLL2 (276) into the netlink protocol
//! family and the netlink bytes behind the header, or says why the record
//! holds no netlink data. It never reads past the record.
//!
//! All three headers are big-endian (libpcap's `sll_header`/`sll2_header`);
//! only the netlink bytes after them are in the capturing host's order.

use pcap_parser::nom::{
    IResult, Parser,
    bytes::complete::take,
    number::complete::{be_u8, be_u16, be_u32},
};

/// LINKTYPE_LINUX_SLL (libpcap): Linux cooked capture, a 16-byte header
/// (`tcpdump -i any` on older libpcap).
pub const LINKTYPE_LINUX_SLL: u32 = 113;
/// LINKTYPE_NETLINK (libpcap): an nlmon device's own link type, with the same
/// 16-byte header as LINUX_SLL.
pub const LINKTYPE_NETLINK: u32 = 253;
/// LINKTYPE_LINUX_SLL2 (libpcap): Linux cooked capture v2, a 20-byte header
/// (`tcpdump -i any` since libpcap 1.10).
pub const LINKTYPE_LINUX_SLL2: u32 = 276;
/// `ARPHRD_NETLINK`: the hatype an nlmon device reports.
pub const ARPHRD_NETLINK: u16 = 824;

/// The netlink part of one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetlinkFrame<'a> {
    /// Netlink protocol family (`sll_protocol`): 0 = NETLINK_ROUTE.
    pub family: u16,
    /// `sll_pkttype`; 4 (PACKET_OUTGOING) in both directions in practice.
    pub pkttype: u16,
    /// Length of the link-layer header that was stripped.
    pub header_len: usize,
    /// The netlink messages.
    pub payload: &'a [u8],
}

/// Why a record holds no netlink data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotNetlink {
    /// A link type other than 253, 113 and 276.
    LinkType(u32),
    /// A cooked (SLL/SLL2) record whose hatype is not ARPHRD_NETLINK.
    HaType(u16),
    /// Shorter than its own link-layer header.
    Short {
        /// Bytes the header needs.
        needed: usize,
        /// Bytes the record has.
        got: usize,
    },
}

impl std::fmt::Display for NotNetlink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotNetlink::LinkType(t) => write!(f, "link type {t} is not netlink"),
            NotNetlink::HaType(h) => write!(f, "cooked header hatype {h} is not ARPHRD_NETLINK (824)"),
            NotNetlink::Short { needed, got } => {
                write!(
                    f,
                    "record of {got} bytes is shorter than its {needed}-byte link-layer header"
                )
            }
        }
    }
}

/// The 16-byte SLL-layout header (LINKTYPE_NETLINK and LINUX_SLL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sll {
    pkttype: u16,
    hatype: u16,
    protocol: u16,
}

fn sll(i: &[u8]) -> IResult<&[u8], Sll> {
    let (rest, (pkttype, hatype, _halen, _addr, protocol)) = (be_u16, be_u16, be_u16, take(8usize), be_u16).parse(i)?;
    Ok((
        rest,
        Sll {
            pkttype,
            hatype,
            protocol,
        },
    ))
}

/// The 20-byte SLL2 header: protocol, reserved, ifindex, hatype, pkttype, halen, addr.
fn sll2(i: &[u8]) -> IResult<&[u8], Sll> {
    let (rest, (protocol, _reserved, _ifindex, hatype, pkttype, _halen, _addr)) =
        (be_u16, be_u16, be_u32, be_u16, be_u8, be_u8, take(8usize)).parse(i)?;
    Ok((
        rest,
        Sll {
            pkttype: u16::from(pkttype),
            hatype,
            protocol,
        },
    ))
}

type HeaderParser = fn(&[u8]) -> IResult<&[u8], Sll>;

/// Strips the link-layer header of a record of link type `linktype`.
pub fn netlink_frame(linktype: u32, data: &[u8]) -> Result<NetlinkFrame<'_>, NotNetlink> {
    let (parser, header_len, check_hatype): (HeaderParser, usize, bool) = match linktype {
        LINKTYPE_NETLINK => (sll, 16, false),
        LINKTYPE_LINUX_SLL => (sll, 16, true),
        LINKTYPE_LINUX_SLL2 => (sll2, 20, true),
        other => return Err(NotNetlink::LinkType(other)),
    };
    let (payload, h) = parser(data).map_err(|_| NotNetlink::Short {
        needed: header_len,
        got: data.len(),
    })?;
    if check_hatype && h.hatype != ARPHRD_NETLINK {
        return Err(NotNetlink::HaType(h.hatype));
    }
    Ok(NetlinkFrame {
        family: h.protocol,
        pkttype: h.pkttype,
        header_len,
        payload,
    })
}

#[cfg(test)]
#[path = "link_tests.rs"]
mod tests;
