//! The shapes each library's requests have: length, body, flags, the
//! sequence number's pattern, and the request before on the same socket.
//! Contract: a shape no rule knows is `Unknown`; every attribution says
//! its evidence.

use crate::capture::Timestamp;
use crate::model::ObjectKind;
use crate::netlink::names::{NLM_F_ACK, NLM_F_DUMP, NLM_F_REQUEST};

use super::asked::Asked;
use super::library::{Confidence, Library};

/// Whether `seq` reads as a Unix time near the packet's own time (glibc
/// and iproute2 seed their sequence numbers with `time(NULL)`).
fn seq_is_time(seq: u32, ts: Option<Timestamp>) -> Option<bool> {
    let ts = ts?;
    Some((i64::from(seq) - ts.secs).abs() <= 120)
}

/// The library `r`'s shape points to, how surely, and the evidence; `last`
/// is the request whose answer ended before `r`'s.
pub(super) fn attribution(last: Option<&Asked>, r: &Asked) -> (Library, Confidence, String) {
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
                    format!(
                        "GET of one object, {} bytes, seq {} = the Unix time (iproute2 looks up the device it changes)",
                        r.len, r.seq
                    ),
                ),
                _ => (
                    Library::Unknown,
                    Confidence::Unknown,
                    format!("GET of one object, {} bytes, seq {}", r.len, r.seq),
                ),
            };
        }
        return (
            Library::Unknown,
            Confidence::Unknown,
            format!("GET of one object, {} bytes", r.len),
        );
    }
    // Go's syscall.NetlinkRIB: header + 1-byte rtgenmsg, seq 1.
    if r.len == 17 && r.short_form && r.seq == 1 && dump_flags && r.flags & NLM_F_ACK == 0 {
        return (
            Library::GoNet,
            Confidence::Certain,
            "17 bytes (1-byte rtgenmsg), flags REQUEST|DUMP, seq 1: syscall.NetlinkRIB".into(),
        );
    }
    if r.len == 17 && r.short_form && dump_flags && time_seq == Some(true) {
        return (
            Library::Unknown,
            Confidence::Unknown,
            format!(
                "17 bytes (1-byte rtgenmsg) like Go's, but seq {} = the Unix time, not 1 \
                 (nlorder record's legacy form sends this)",
                r.seq
            ),
        );
    }
    // glibc: struct { nlmsghdr; rtgenmsg; pad[3] }, ROOT|MATCH|REQUEST, seq = time(NULL).
    if r.len == 20 && r.short_form && r.body_len == 4 && r.flags == NLM_F_REQUEST | NLM_F_DUMP && r.family == 0 {
        let timed = match time_seq {
            Some(true) => format!("seq {} = the Unix time", r.seq),
            Some(false) => format!("seq {} (not the Unix time of the packet)", r.seq),
            None => format!("seq {}", r.seq),
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
                        format!(
                            "20 bytes (rtgenmsg + 3 padding), {timed}, right after RTM_GETLINK seq {} on the same socket: getifaddrs()",
                            p.seq
                        ),
                    );
                }
                return (
                    Library::GlibcGetaddrinfo,
                    sure,
                    format!("20 bytes (rtgenmsg + 3 padding), flags ROOT|MATCH|REQUEST, {timed}: __check_pf"),
                );
            }
            ObjectKind::Links => {
                if prev.is_some_and(|p| p.library == Library::GlibcGetaddrinfo) {
                    return (
                        Library::GlibcCheckNative,
                        sure,
                        format!("20 bytes, {timed}, right after __check_pf's dump on the same port: __check_native"),
                    );
                }
                return (
                    Library::GlibcGetifaddrs,
                    Confidence::Likely,
                    format!("20 bytes (rtgenmsg + 3 padding), {timed}: getifaddrs() (or __check_native)"),
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
                format!(
                    "{} bytes, full family header, flags REQUEST|ACK|DUMP: sd-netlink (e.g. nss-myhostname)",
                    r.len
                ),
            );
        }
        match time_seq {
            Some(true) => {
                // iproute2's link dumps carry IFLA_EXT_MASK (an ifinfomsg
                // and attributes); its address dump follows one on the
                // same socket; `ip route` asks for table main.
                let ext_mask = r.kind == ObjectKind::Links && r.body_len > 16;
                let after_ip = prev.is_some_and(|p| p.library == Library::Iproute2);
                let main_table = r.kind == ObjectKind::Routes && r.table == Some(254);
                if ext_mask || after_ip || main_table {
                    let why = if ext_mask {
                        "a link dump with attributes (IFLA_EXT_MASK)"
                    } else if after_ip {
                        "right after iproute2's link dump on the same socket"
                    } else {
                        "asks for table main"
                    };
                    return (
                        Library::Iproute2,
                        Confidence::Likely,
                        format!(
                            "{} bytes, full family header, seq {} = the Unix time plus a count, {why}",
                            r.len, r.seq
                        ),
                    );
                }
                return (
                    Library::Unknown,
                    Confidence::Unknown,
                    format!(
                        "{} bytes, full family header, seq {} = the Unix time: iproute2's shape without its \
                         IFLA_EXT_MASK (nlorder record, pyroute2 and others send this too)",
                        r.len, r.seq
                    ),
                );
            }
            Some(false) if r.seq < 1_000_000 => {
                // vishvananda/netlink counts from 1 with full headers,
                // and so do Rust's netlink crates, libnl and others:
                // the shape does not say which program it was.
                return (
                    Library::Unknown,
                    Confidence::Unknown,
                    format!(
                        "{} bytes, full family header, counting seq {}: a netlink library's own counter \
                         (vishvananda/netlink, Rust's netlink crates and libnl all send this shape)",
                        r.len, r.seq
                    ),
                );
            }
            _ => {}
        }
    }
    (
        Library::Unknown,
        Confidence::Unknown,
        format!(
            "{} bytes, flags {:#x}, seq {}: no known library sends this shape",
            r.len, r.flags, r.seq
        ),
    )
}
