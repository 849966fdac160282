//! The words for what `who` found in a request's bytes ([`Evidence`]) and
//! what a look tells about its program ([`Implication`]).
//!
//! Contract: one `Display` per value, and JSON says the same words.

use std::fmt;

use crate::looks::{Evidence, Implication, Iproute2Sign, SeqTime};

impl fmt::Display for SeqTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeqTime::Time(seq) => write!(f, "seq {seq} = the Unix time"),
            SeqTime::NotTime(seq) => write!(f, "seq {seq} (not the Unix time of the packet)"),
            SeqTime::Unknown(seq) => write!(f, "seq {seq}"),
        }
    }
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::Unattributed => Ok(()),
            Evidence::Recorder => f.write_str(
                "the capture's section was written by nlorder (shb_userappl): `nlorder record` records its own \
                 dumps, no other program's requests",
            ),
            Evidence::GetTimeSeq { len, seq } => write!(
                f,
                "GET of one object, {len} bytes, seq {seq} = the Unix time (iproute2 looks up the device it changes)"
            ),
            Evidence::Get { len, seq } => write!(f, "GET of one object, {len} bytes, seq {seq}"),
            Evidence::GetShort { len } => write!(f, "GET of one object, {len} bytes"),
            Evidence::NetlinkRib => {
                f.write_str("17 bytes (1-byte rtgenmsg), flags REQUEST|DUMP, seq 1: syscall.NetlinkRIB")
            }
            Evidence::ShortTimeSeq { seq } => write!(
                f,
                "17 bytes (1-byte rtgenmsg) like Go's, but seq {seq} = the Unix time, not 1 \
                 (nlorder record's legacy form sends this)"
            ),
            Evidence::Getifaddrs { seq, link_seq } => write!(
                f,
                "20 bytes (rtgenmsg + 3 padding), {seq}, right after RTM_GETLINK seq {link_seq} on the same socket: \
                 getifaddrs()"
            ),
            Evidence::CheckPf { seq } => {
                write!(
                    f,
                    "20 bytes (rtgenmsg + 3 padding), flags ROOT|MATCH|REQUEST, {seq}: __check_pf"
                )
            }
            Evidence::CheckNative { seq } => {
                write!(
                    f,
                    "20 bytes, {seq}, right after __check_pf's dump on the same port: __check_native"
                )
            }
            Evidence::GlibcLinkDump { seq } => {
                write!(
                    f,
                    "20 bytes (rtgenmsg + 3 padding), {seq}: getifaddrs() (or __check_native)"
                )
            }
            Evidence::SdNetlink { len } => write!(
                f,
                "{len} bytes, full family header, flags REQUEST|ACK|DUMP: sd-netlink (e.g. nss-myhostname)"
            ),
            Evidence::Iproute2 { len, seq, sign } => {
                let why = match sign {
                    Iproute2Sign::ExtMask => "a link dump with attributes (IFLA_EXT_MASK)",
                    Iproute2Sign::AfterIproute2 => "right after iproute2's link dump on the same socket",
                    Iproute2Sign::MainTable => "asks for table main",
                };
                write!(
                    f,
                    "{len} bytes, full family header, seq {seq} = the Unix time plus a count, {why}"
                )
            }
            Evidence::TimeSeqOnly { len, seq } => write!(
                f,
                "{len} bytes, full family header, seq {seq} = the Unix time: iproute2's shape without its \
                 IFLA_EXT_MASK (nlorder record, pyroute2 and others send this too)"
            ),
            Evidence::CountingSeq { len, seq } => write!(
                f,
                "{len} bytes, full family header, counting seq {seq}: a netlink library's own counter \
                 (vishvananda/netlink, Rust's netlink crates and libnl all send this shape)"
            ),
            Evidence::NoRule { len, flags, seq } => write!(
                f,
                "{len} bytes, flags {flags:#x}, seq {seq}: no known library sends this shape"
            ),
        }
    }
}

impl fmt::Display for Implication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Implication::GlibcSorted { ipv6 } => write!(
                f,
                "glibc getaddrinfo sorted its answers here: IPv6 present = {}",
                if *ipv6 { "yes" } else { "no" }
            ),
            Implication::GlibcDropsWithoutIpv6 => f.write_str(
                "without IPv6 glibc drops what this dump returned: rule 9 only tells a source equal to the destination",
            ),
            Implication::GlibcAskedTunnels => {
                f.write_str("two candidates used different interfaces: glibc asked which are tunnels (rule 7)")
            }
            Implication::GoEnumerated { interfaces } => {
                write!(f, "a Go program enumerated {interfaces} interfaces here")
            }
            Implication::GoListedAddresses => f.write_str("a Go program listed addresses here"),
            Implication::GetifaddrsListed { addresses } => write!(f, "getifaddrs() listed {addresses} addresses here"),
        }
    }
}

serialize_as_words!(Evidence, Implication);
