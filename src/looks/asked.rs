//! One dump request (or GET of one object), how its answer went, and the
//! library its shape points to.

use serde::Serialize;

use crate::capture::Timestamp;
use crate::model::ObjectKind;
use crate::netlink::names::address_family;

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
    pub family: u8,
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
    pub evidence: String,
    #[serde(skip)]
    pub(super) body_len: usize,
    #[serde(skip)]
    pub(super) short_form: bool,
    /// The one table a route dump asked for.
    #[serde(skip)]
    pub(super) table: Option<u32>,
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
        if self.family == 0 {
            what.to_owned()
        } else {
            format!("{what} ({})", address_family(self.family))
        }
    }
}
