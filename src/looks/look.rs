//! Consecutive requests of one socket and one program grouped into a look:
//! what the program saw at once.

use serde::Serialize;

use crate::capture::Timestamp;
use crate::model::ObjectKind;

use super::asked::Asked;
use super::library::{Confidence, Library};

/// Consecutive requests of one socket and one program: what it saw at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Look {
    /// 1-based, in capture order.
    pub number: usize,
    /// The library its requests point to.
    pub library: Library,
    /// How surely they do (the least sure of its requests).
    pub confidence: Confidence,
    /// The requester's netlink port id (usually its process id); `None`
    /// when no reply was captured.
    pub port: Option<u32>,
    /// Packets of its requests.
    pub requests: Vec<u64>,
    /// The tables its dumps listed (links, addresses, routes).
    pub asked: Vec<ObjectKind>,
    /// The packet its last answer ended in: the moment a replay of it uses.
    pub end_packet: u64,
    /// When its first request was captured.
    #[serde(skip)]
    pub ts: Option<Timestamp>,
    /// What the look tells about the program (worded in `report::evidence`).
    pub implies: Vec<Implication>,
}

/// The program family a look's library belongs to (glibc's check_native
/// belongs to its getaddrinfo; Go's net and vishvananda to one Go program).
fn program(l: Library) -> u8 {
    match l {
        Library::GoNet | Library::GoVishvananda => 1,
        Library::GlibcGetaddrinfo | Library::GlibcCheckNative => 2,
        Library::GlibcGetifaddrs => 3,
        Library::Iproute2 => 4,
        Library::SystemdNetlink => 5,
        Library::NlorderRecord => 6,
        Library::Unknown => 0,
    }
}

/// Requests closer than this (and of one port and program) are one look.
const LOOK_GAP_NANOS: i128 = 2_000_000_000;

/// Groups requests, fed in capture order (by request packet), into looks.
#[derive(Debug, Default)]
pub(super) struct Grouper {
    pub(super) looks: Vec<Look>,
    last_ts: Option<Timestamp>,
}

impl Grouper {
    /// Puts `r` in a look: the last one or a new one; returns its number
    /// (`None`: a GET, in no look).
    pub(super) fn push(&mut self, r: &Asked) -> Option<usize> {
        if !r.dump {
            return None;
        }
        let last_ts = self.last_ts;
        let joins = self.looks.last().is_some_and(|l| {
            l.port.is_some()
                && l.port == r.port
                && program(l.library) == program(r.library)
                && r.library != Library::Unknown
                && match (last_ts, r.ts) {
                    (Some(a), Some(b)) => (b.as_nanos() - a.as_nanos()).abs() <= LOOK_GAP_NANOS,
                    _ => true,
                }
        });
        if joins && let Some(l) = self.looks.last_mut() {
            l.requests.push(r.packet);
            if !l.asked.contains(&r.kind) {
                l.asked.push(r.kind);
            }
            l.end_packet = r.end_packet.unwrap_or(r.packet).max(l.end_packet);
            l.confidence = l.confidence.min(r.confidence);
            if r.library == Library::GlibcGetaddrinfo {
                l.library = r.library;
            }
            add_implications(l, r);
        } else {
            let mut l = Look {
                number: self.looks.len() + 1,
                library: r.library,
                confidence: r.confidence,
                port: r.port,
                requests: vec![r.packet],
                asked: vec![r.kind],
                end_packet: r.end_packet.unwrap_or(r.packet),
                ts: r.ts,
                implies: Vec::new(),
            };
            add_implications(&mut l, r);
            self.looks.push(l);
        }
        self.last_ts = r.ts;
        self.looks.last().map(|l| l.number)
    }
}

/// Groups requests (in capture order) into looks.
pub fn group(requests: &[Asked]) -> Vec<Look> {
    let mut g = Grouper::default();
    for r in requests {
        g.push(r);
    }
    g.looks
}

fn add_implications(l: &mut Look, r: &Asked) {
    let say = |l: &mut Look, s: Implication| {
        if !l.implies.contains(&s) {
            l.implies.push(s);
        }
    };
    match (r.library, r.kind) {
        (Library::GlibcGetaddrinfo, ObjectKind::Addresses) => {
            say(l, Implication::GlibcSorted { ipv6: r.ipv6_seen });
            if !r.ipv6_seen {
                say(l, Implication::GlibcDropsWithoutIpv6);
            }
        }
        (Library::GlibcCheckNative, _) => say(l, Implication::GlibcAskedTunnels),
        (Library::GoNet, ObjectKind::Links) => say(l, Implication::GoEnumerated { interfaces: r.replies }),
        (Library::GoNet | Library::GoVishvananda, ObjectKind::Addresses) => say(l, Implication::GoListedAddresses),
        (Library::GlibcGetifaddrs, ObjectKind::Addresses) => {
            say(l, Implication::GetifaddrsListed { addresses: r.replies })
        }
        _ => {}
    }
}

/// What a look tells about the program that looked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Implication {
    /// glibc's getaddrinfo sorted its answers here; `ipv6`: its dump
    /// showed a non-loopback IPv6 address.
    GlibcSorted {
        /// A non-loopback IPv6 address was in the dump.
        ipv6: bool,
    },
    /// Without IPv6, glibc drops the dump's addresses: rule 9 only tells a
    /// source equal to the destination.
    GlibcDropsWithoutIpv6,
    /// `__check_native`: two candidates used different interfaces, and
    /// glibc asked which are tunnels (rule 7).
    GlibcAskedTunnels,
    /// A Go program enumerated its interfaces.
    GoEnumerated {
        /// The links the dump returned.
        interfaces: u32,
    },
    /// A Go program listed addresses.
    GoListedAddresses,
    /// `getifaddrs()` listed addresses.
    GetifaddrsListed {
        /// The addresses the dump returned.
        addresses: u32,
    },
}
