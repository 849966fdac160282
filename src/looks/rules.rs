//! The shapes each library's requests have: length, body, flags, the
//! sequence number's pattern, and the request before on the same socket.
//! Contract: a shape no rule knows is `Unknown`; every attribution says
//! its evidence.

use crate::capture::Timestamp;
use crate::model::ObjectKind;
use crate::netlink::names::{NLM_F_ACK, NLM_F_DUMP, NLM_F_REQUEST};

use super::asked::{Asked, Evidence, Iproute2Sign, SeqTime};
use super::library::{Confidence, Library};

/// Whether `seq` reads as a Unix time near the packet's own time (glibc
/// and iproute2 seed their sequence numbers with `time(NULL)`).
fn seq_is_time(seq: u32, ts: Option<Timestamp>) -> Option<bool> {
    let ts = ts?;
    Some((i64::from(seq) - ts.secs).abs() <= 120)
}

/// The library `r`'s shape points to, how surely, and the evidence; `last`
/// is the request whose answer ended before `r`'s.
pub(super) fn attribution(last: Option<&Asked>, r: &Asked) -> (Library, Confidence, Evidence) {
    if r.recorder {
        return (Library::NlorderRecord, Confidence::Certain, Evidence::Recorder);
    }
    let dump_flags = r.flags & !NLM_F_ACK == NLM_F_REQUEST | NLM_F_DUMP;
    let time_seq = seq_is_time(r.seq, r.ts);
    let same_port = |p: &Asked| p.port.is_some() && p.port == r.port;
    let prev = last.filter(|p| same_port(p));
    if !r.dump {
        if !r.short_form {
            return match time_seq {
                Some(true) => (
                    Library::Iproute2,
                    Confidence::Likely,
                    Evidence::GetTimeSeq { len: r.len, seq: r.seq },
                ),
                _ => (
                    Library::Unknown,
                    Confidence::Unknown,
                    Evidence::Get { len: r.len, seq: r.seq },
                ),
            };
        }
        return (Library::Unknown, Confidence::Unknown, Evidence::GetShort { len: r.len });
    }
    // Go's syscall.NetlinkRIB: header + 1-byte rtgenmsg, seq 1.
    if r.len == 17 && r.short_form && r.seq == 1 && dump_flags && r.flags & NLM_F_ACK == 0 {
        return (Library::GoNet, Confidence::Certain, Evidence::NetlinkRib);
    }
    if r.len == 17 && r.short_form && dump_flags && time_seq == Some(true) {
        return (
            Library::Unknown,
            Confidence::Unknown,
            Evidence::ShortTimeSeq { seq: r.seq },
        );
    }
    // glibc: struct { nlmsghdr; rtgenmsg; pad[3] }, ROOT|MATCH|REQUEST, seq = time(NULL).
    if r.len == 20
        && r.short_form
        && r.body_len == 4
        && r.flags == NLM_F_REQUEST | NLM_F_DUMP
        && r.family == crate::netlink::values::AddressFamily::Unspec
    {
        let timed = match time_seq {
            Some(true) => SeqTime::Time(r.seq),
            Some(false) => SeqTime::NotTime(r.seq),
            None => SeqTime::Unknown(r.seq),
        };
        let sure = if time_seq == Some(true) {
            Confidence::Certain
        } else {
            Confidence::Likely
        };
        match r.kind {
            ObjectKind::Addresses => {
                if let Some(p) =
                    prev.filter(|p| p.kind == ObjectKind::Links && p.len == 20 && p.seq.wrapping_add(1) == r.seq)
                {
                    return (
                        Library::GlibcGetifaddrs,
                        sure,
                        Evidence::Getifaddrs {
                            seq: timed,
                            link_seq: p.seq,
                        },
                    );
                }
                return (Library::GlibcGetaddrinfo, sure, Evidence::CheckPf { seq: timed });
            }
            ObjectKind::Links => {
                if prev.is_some_and(|p| p.library == Library::GlibcGetaddrinfo) {
                    return (Library::GlibcCheckNative, sure, Evidence::CheckNative { seq: timed });
                }
                return (
                    Library::GlibcGetifaddrs,
                    Confidence::Likely,
                    Evidence::GlibcLinkDump { seq: timed },
                );
            }
            ObjectKind::Routes => {}
        }
    }
    // Full family headers: iproute2 (time-seeded seq) or vishvananda (a counter).
    if !r.short_form && dump_flags {
        if r.flags & NLM_F_ACK != 0 {
            return (
                Library::SystemdNetlink,
                Confidence::Likely,
                Evidence::SdNetlink { len: r.len },
            );
        }
        match time_seq {
            Some(true) => {
                // iproute2's link dumps carry IFLA_EXT_MASK (an ifinfomsg
                // and attributes); its address dump follows one on the
                // same socket; `ip route` asks for table main.
                let ext_mask = r.kind == ObjectKind::Links && r.body_len > 16;
                let after_ip = prev.is_some_and(|p| p.library == Library::Iproute2);
                let main_table = r.kind == ObjectKind::Routes && r.table == Some(crate::netlink::values::TableId::Main);
                if ext_mask || after_ip || main_table {
                    let sign = if ext_mask {
                        Iproute2Sign::ExtMask
                    } else if after_ip {
                        Iproute2Sign::AfterIproute2
                    } else {
                        Iproute2Sign::MainTable
                    };
                    return (
                        Library::Iproute2,
                        Confidence::Likely,
                        Evidence::Iproute2 {
                            len: r.len,
                            seq: r.seq,
                            sign,
                        },
                    );
                }
                return (
                    Library::Unknown,
                    Confidence::Unknown,
                    Evidence::TimeSeqOnly { len: r.len, seq: r.seq },
                );
            }
            Some(false) if r.seq < 1_000_000 => {
                // vishvananda/netlink counts from 1 with full headers,
                // and so do Rust's netlink crates, libnl and others:
                // the shape does not say which program it was.
                return (
                    Library::Unknown,
                    Confidence::Unknown,
                    Evidence::CountingSeq { len: r.len, seq: r.seq },
                );
            }
            _ => {}
        }
    }
    (
        Library::Unknown,
        Confidence::Unknown,
        Evidence::NoRule {
            len: r.len,
            flags: r.flags,
            seq: r.seq,
        },
    )
}
