//! One dump request (or GET of one object), how its answer went, and the
//! library its shape points to.

use serde::Serialize;

use crate::capture::Timestamp;
use crate::model::ObjectKind;
use crate::netlink::values::{AddressFamily, TableId};

use super::library::{Confidence, Library};

/// One dump request (or GET for one object) and how its answer went.
#[derive(Debug, Clone, Serialize)]
pub struct Asked {
    /// The request's packet.
    pub packet: u64,
    /// When the request was captured.
    #[serde(skip)]
    pub ts: Option<Timestamp>,
    /// The table asked for: links, addresses or routes.
    pub kind: ObjectKind,
    /// AF_UNSPEC, AF_INET, ...: the family asked for.
    pub family: AddressFamily,
    /// A dump (NLM_F_DUMP), not a GET of one object.
    pub dump: bool,
    /// The request's `nlmsg_len`, in bytes.
    pub len: u32,
    /// The request's `nlmsg_flags`.
    pub flags: u16,
    /// The request's `nlmsg_seq`.
    pub seq: u32,
    /// The requester's netlink port id, as the kernel's replies carry it
    /// (usually the process id); None when no reply was captured.
    pub port: Option<u32>,
    /// Objects the kernel returned.
    pub replies: u32,
    /// The packet that ended the answer (NLMSG_DONE, the reply or an error).
    pub end_packet: Option<u64>,
    /// An error the kernel answered with (negative errno).
    pub error: Option<i32>,
    /// Whether an address dump returned an IPv6 address other than ::1
    /// (what glibc's __check_pf looks for).
    pub ipv6_seen: bool,
    /// The library the request's shape points to.
    pub library: Library,
    /// How surely it does.
    pub confidence: Confidence,
    /// What in the bytes points to the library.
    pub evidence: Evidence,
    #[serde(skip)]
    pub(super) body_len: usize,
    #[serde(skip)]
    pub(super) short_form: bool,
    /// The one table a route dump asked for.
    #[serde(skip)]
    pub(super) table: Option<TableId>,
    /// The section holding the request was written by `nlorder record`.
    #[serde(skip)]
    pub(super) recorder: bool,
}

impl Asked {
    /// When the request was captured, in RFC 3339.
    pub(crate) fn time(&self) -> Option<String> {
        self.ts.map(|t| t.rfc3339())
    }

    /// `links`, `addresses (inet6)`, `link lo` ...
    pub fn asked(&self) -> String {
        let what = match (self.kind, self.dump) {
            (ObjectKind::Links, true) => "links",
            (ObjectKind::Addresses, true) => "addresses",
            (ObjectKind::Routes, true) => "routes",
            (ObjectKind::Links, false) => "one link",
            (ObjectKind::Addresses, false) => "one address",
            (ObjectKind::Routes, false) => "one route",
        };
        if self.family == AddressFamily::Unspec {
            what.to_owned()
        } else {
            format!("{what} ({})", self.family.name())
        }
    }
}

/// What in a request's bytes points to its library (worded in
/// `report::evidence`): the shape each rule of `rules.rs` saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    /// Not attributed yet: its answer has not ended.
    Unattributed,
    /// The pcapng section holding it names `nlorder` as the application
    /// that wrote it (`shb_userappl`): `nlorder record`'s own dump.
    Recorder,
    /// A GET of one object, full header, the sequence number the Unix time:
    /// iproute2 looking up the device it changes.
    GetTimeSeq {
        /// `nlmsg_len`.
        len: u32,
        /// `nlmsg_seq`.
        seq: u32,
    },
    /// A GET of one object, full header, another sequence number.
    Get {
        /// `nlmsg_len`.
        len: u32,
        /// `nlmsg_seq`.
        seq: u32,
    },
    /// A GET of one object with a 1-byte body.
    GetShort {
        /// `nlmsg_len`.
        len: u32,
    },
    /// Go's `syscall.NetlinkRIB`: 17 bytes, REQUEST|DUMP, seq 1.
    NetlinkRib,
    /// Go's 17-byte shape, but the sequence number is the Unix time.
    ShortTimeSeq {
        /// `nlmsg_seq`.
        seq: u32,
    },
    /// glibc's 20-byte address dump right after a 20-byte link dump of
    /// the sequence number before, on the same socket: `getifaddrs()`.
    Getifaddrs {
        /// The sequence number, against the packet's time.
        seq: SeqTime,
        /// The link dump's sequence number.
        link_seq: u32,
    },
    /// glibc's 20-byte address dump alone: `__check_pf`.
    CheckPf {
        /// The sequence number, against the packet's time.
        seq: SeqTime,
    },
    /// glibc's 20-byte link dump right after `__check_pf`'s on the same
    /// port: `__check_native`.
    CheckNative {
        /// The sequence number, against the packet's time.
        seq: SeqTime,
    },
    /// glibc's 20-byte link dump alone: `getifaddrs()` (or
    /// `__check_native`).
    GlibcLinkDump {
        /// The sequence number, against the packet's time.
        seq: SeqTime,
    },
    /// A full header asking for an ACK: sd-netlink.
    SdNetlink {
        /// `nlmsg_len`.
        len: u32,
    },
    /// A full header, the sequence number the Unix time plus a count, and
    /// a sign of iproute2.
    Iproute2 {
        /// `nlmsg_len`.
        len: u32,
        /// `nlmsg_seq`.
        seq: u32,
        /// The sign.
        sign: Iproute2Sign,
    },
    /// iproute2's shape without its `IFLA_EXT_MASK`.
    TimeSeqOnly {
        /// `nlmsg_len`.
        len: u32,
        /// `nlmsg_seq`.
        seq: u32,
    },
    /// A full header with a counting sequence number: some netlink
    /// library's own counter.
    CountingSeq {
        /// `nlmsg_len`.
        len: u32,
        /// `nlmsg_seq`.
        seq: u32,
    },
    /// A shape no rule knows.
    NoRule {
        /// `nlmsg_len`.
        len: u32,
        /// `nlmsg_flags`.
        flags: u16,
        /// `nlmsg_seq`.
        seq: u32,
    },
}

/// A sequence number read against its packet's time (glibc and iproute2
/// seed theirs with `time(NULL)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeqTime {
    /// It is the Unix time of the packet.
    Time(u32),
    /// It is not.
    NotTime(u32),
    /// The packet has no time to compare with.
    Unknown(u32),
}

/// What marks a time-seeded full-header dump as iproute2's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Iproute2Sign {
    /// A link dump with attributes (`IFLA_EXT_MASK`).
    ExtMask,
    /// Right after iproute2's link dump on the same socket.
    AfterIproute2,
    /// A route dump asking for table main.
    MainTable,
}
