//! Recording: the kernel's tables and notifications, written as an
//! nlmon-format capture, for hosts without the nlmon module.
//!
//! Contract: [`record`] asks the kernel for link, address and route dumps
//! (every family) over a NETLINK_ROUTE socket and writes each request and
//! each reply buffer as one LINKTYPE_NETLINK record with the 16-byte cooked
//! header nlmon produces (pkttype 4, hatype 824, family 0, the host's byte
//! order); with `follow` it first subscribes to link, address and route
//! notifications, records them as they arrive, and dumps again at the end.
//! Every record is flushed as it is written, so an interrupted recording
//! stays readable. Requests are built with netlink-packet-route, the socket
//! is netlink-sys's, the file format is pcap-parser's serializer.
//!
//! A timestamp is taken when user space reads the buffer (nlmon stamps it
//! when the kernel queues it), so notifications that queued up during a
//! dump carry slightly later times than a tap would give.

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use netlink_packet_core::{NLM_F_DUMP, NLM_F_REQUEST, NetlinkHeader, NetlinkMessage, NetlinkPayload};
use netlink_packet_route::RouteNetlinkMessage;
use netlink_packet_route::address::AddressMessage;
use netlink_packet_route::link::LinkMessage;
use netlink_packet_route::route::RouteMessage;
use netlink_packet_route::rule::RuleMessage;
use netlink_sys::{Socket, protocols::NETLINK_ROUTE};
use pcap_parser::Linktype;

use crate::capture::link::{ARPHRD_NETLINK, LINKTYPE_NETLINK};
// pcap-parser's serializer, with what its fix() leaves to the caller
use crate::capture::writer::{self, block_bytes as serialize};
use crate::netlink::names::{NLMSG_DONE, NLMSG_ERROR};
use crate::netlink::wire::{ByteOrder, Messages, NLMSG_HDRLEN, NlMsgHdr, RtGenMsg};

/// RTNLGRP_LINK, IPV4_IFADDR, IPV4_ROUTE, IPV4_RULE, IPV6_IFADDR,
/// IPV6_ROUTE, IPV6_RULE.
const GROUPS: [u32; 7] = [1, 5, 7, 8, 9, 11, 19];
/// Socket receive buffer for notifications (a burst of route changes).
const RCVBUF: usize = 8 << 20;
const PACKET_OUTGOING: u16 = 4;

/// The container a recording is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    /// Classic pcap, nanosecond timestamps, link type LINKTYPE_NETLINK.
    Pcap,
    /// pcapng, whose section header names the running kernel (`shb_os`).
    Pcapng,
}

/// How dump requests are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RequestForm {
    /// The full family header (`ifinfomsg`, `ifaddrmsg`, `rtmsg`), as iproute2 sends.
    #[default]
    Full,
    /// The legacy 1-byte `rtgenmsg` body Go's `net` package sends.
    Rtgenmsg,
}

/// What to record and for how long.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Follow notifications after the first dumps.
    pub follow: bool,
    /// Stop following after this long (default: until interrupted).
    pub duration: Option<Duration>,
    /// How the dump requests are spelled.
    pub request_form: RequestForm,
}

/// What went wrong, phrased for the user.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No namespace of that name under /run/netns.
    #[error("network namespace {0} not found (/run/netns/{0}; see `ip netns list`)")]
    NoNamespace(String),
    /// Entering the named namespace was refused to a user who is not root.
    #[error(
        "entering network namespace {0} needs CAP_SYS_ADMIN (run as root); recording in one's own namespace needs no privilege"
    )]
    NamespacePermission(String),
    /// The named file exists but is not a network namespace.
    #[error("{0} is not a network namespace (give a name from `ip netns list` or a path such as /proc/PID/ns/net)")]
    NotANamespace(String),
    /// Opening, binding or reading the NETLINK_ROUTE socket failed.
    #[error("netlink socket: {0}")]
    Socket(io::Error),
    /// The SIGINT/SIGTERM handlers could not be installed.
    #[error("cannot handle signals: {0}")]
    Signals(io::Error),
    /// An error while recording into the named file.
    #[error("{name}: {source}")]
    Into {
        /// The file's name (`-` for stdout).
        name: String,
        /// What went wrong.
        #[source]
        source: Box<Error>,
    },
    /// A file could not be created or opened: the capture, or a namespace
    /// file named by its path.
    #[error("{name}: {source}")]
    Create {
        /// The file's path.
        name: String,
        /// Why.
        source: io::Error,
    },
    /// Writing a record to the capture failed.
    #[error(
        "writing the capture failed after {records} records: {source}; the file is readable up to the last complete record"
    )]
    Write {
        /// Records written (and flushed) before the failure.
        records: u64,
        /// Why.
        source: io::Error,
    },
}

/// Counts for the summary.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Records written: requests and reply or notification buffers.
    pub records: u64,
    /// Dumps asked for and answered.
    pub dumps: u32,
    /// Notification buffers recorded.
    pub notifications: u64,
    /// Notification buffers the kernel dropped (ENOBUFS) because they came faster than they were read.
    pub overruns: u64,
}

impl Summary {
    /// `10 records written to x.pcap (3 dumps, 0 notification buffers)`.
    pub fn describe(&self, name: &str) -> String {
        format!(
            "{} written to {name} ({}, {}{})",
            counted(self.records, "record", "records"),
            counted(self.dumps, "dump", "dumps"),
            counted(self.notifications, "notification buffer", "notification buffers"),
            if self.overruns > 0 {
                format!(", {} lost: the kernel's queue overflowed (ENOBUFS)", self.overruns)
            } else {
                String::new()
            }
        )
    }
}

/// Writes nlmon-format records.
pub(crate) struct CaptureWriter<W: Write> {
    out: W,
    format: FileFormat,
    records: u64,
}

impl<W: Write> CaptureWriter<W> {
    /// Writes the file header (pcap) or section and interface blocks
    /// (pcapng) to `out`.
    pub fn new(out: W, format: FileFormat) -> io::Result<Self> {
        Self::naming(out, format, kernel_release().as_deref())
    }

    /// [`Self::new`], the pcapng section naming `release` as its kernel
    /// (`shb_os`) instead of the running one's (a snapshot of another host
    /// names its own; `None`: none).
    pub fn naming(mut out: W, format: FileFormat, release: Option<&str>) -> io::Result<Self> {
        match format {
            FileFormat::Pcap => {
                let mut h = pcap_parser::PcapHeader::new();
                h.magic_number = 0xa1b2_3c4d; // nanoseconds
                h.snaplen = 262_144;
                h.network = Linktype(LINKTYPE_NETLINK as i32);
                out.write_all(&serialize(h)?)?;
            }
            FileFormat::Pcapng => {
                out.write_all(&writer::section_header(section_options(release))?)?;
                let linktype = Linktype(LINKTYPE_NETLINK as i32);
                out.write_all(&writer::interface_description(linktype, 262_144, 9, Vec::new())?)?;
            }
        }
        out.flush()?;
        Ok(CaptureWriter {
            out,
            format,
            records: 0,
        })
    }

    /// One buffer of netlink messages, as nlmon frames it, flushed at once.
    pub fn write(&mut self, netlink: &[u8], when: SystemTime) -> io::Result<()> {
        let mut data = Vec::with_capacity(16 + netlink.len());
        data.extend_from_slice(&PACKET_OUTGOING.to_be_bytes());
        data.extend_from_slice(&ARPHRD_NETLINK.to_be_bytes());
        data.extend_from_slice(&[0u8; 10]); // halen 0, addr
        data.extend_from_slice(&0u16.to_be_bytes()); // NETLINK_ROUTE
        data.extend_from_slice(netlink);
        let since = when.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
        let len = data.len() as u32;
        let bytes = match self.format {
            FileFormat::Pcap => serialize(pcap_parser::LegacyPcapBlock {
                ts_sec: since.as_secs() as u32,
                ts_usec: since.subsec_nanos(),
                caplen: len,
                origlen: len,
                data: &data,
            })?,
            FileFormat::Pcapng => {
                let ns = since.as_nanos() as u64;
                serialize(pcap_parser::EnhancedPacketBlock {
                    block_type: 0,
                    block_len1: 0,
                    if_id: 0,
                    ts_high: (ns >> 32) as u32,
                    ts_low: ns as u32,
                    caplen: len,
                    origlen: len,
                    data: &data,
                    options: Vec::new(),
                    block_len2: 0,
                })?
            }
        };
        self.out.write_all(&bytes)?;
        self.out.flush()?;
        self.records += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The output, once every record is written.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// `shb_os` (the running kernel, as dumpcap writes it: `Linux 6.12.117+deb12-amd64`)
/// and `shb_userappl`, so that readers know which kernel's rules apply.
/// The running kernel's release (`6.12.57+deb13-amd64`), as pcapng files
/// name it in `shb_os`.
pub fn kernel_release() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|r| r.trim().to_owned())
}

fn section_options(release: Option<&str>) -> Vec<pcap_parser::PcapNGOption<'static>> {
    let option = |code: u16, text: String| writer::option(code, text.into_bytes());
    let mut v = Vec::new();
    if let Some(release) = release {
        v.push(option(3, format!("Linux {release}")));
    }
    v.push(option(4, format!("nlorder {}", env!("CARGO_PKG_VERSION"))));
    v
}

/// Moves the calling thread into a named network namespace; do this before
/// [`record`] (and before creating the output file, so that a failure
/// leaves nothing behind).
/// Enters network namespace `name`: a name as `ip netns` keeps them
/// (`/run/netns/NAME`) or, with a `/`, a path to a namespace file such as
/// `/proc/PID/ns/net`.
pub fn enter_netns(name: &str) -> Result<(), Error> {
    let path = if name.contains('/') {
        Path::new(name).to_path_buf()
    } else {
        Path::new("/run/netns").join(name)
    };
    let f = File::open(&path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound if name.contains('/') => Error::Create {
            name: name.into(),
            source: e,
        },
        io::ErrorKind::NotFound => Error::NoNamespace(name.into()),
        io::ErrorKind::PermissionDenied if !nix::unistd::geteuid().is_root() => Error::NamespacePermission(name.into()),
        _ => Error::Create {
            name: path.display().to_string(),
            source: e,
        },
    })?;
    nix::sched::setns(f.as_fd(), nix::sched::CloneFlags::CLONE_NEWNET).map_err(|e| match e {
        // setns refuses a file that is no network namespace with EINVAL
        nix::errno::Errno::EINVAL => Error::NotANamespace(path.display().to_string()),
        nix::errno::Errno::EPERM if !nix::unistd::geteuid().is_root() => Error::NamespacePermission(name.into()),
        other => Error::Socket(io::Error::from(other)),
    })
}

fn request(kind: RouteNetlinkMessage, seq: u32, form: RequestForm) -> Vec<u8> {
    let mut header = NetlinkHeader::default();
    header.flags = NLM_F_REQUEST | NLM_F_DUMP;
    header.sequence_number = seq;
    let mut msg = NetlinkMessage::new(header, NetlinkPayload::from(kind));
    msg.finalize();
    let mut buf = vec![0u8; msg.buffer_len()];
    msg.serialize(&mut buf);
    if form == RequestForm::Rtgenmsg {
        // nlmsghdr + the family byte (AF_UNSPEC): nlmsg_len 17, as Go sends.
        let len = NLMSG_HDRLEN + RtGenMsg::<&[u8]>::LEN;
        buf.truncate(len);
        if let Ok(mut header) = NlMsgHdr::new_checked(&mut buf, ByteOrder::native()) {
            header.set_length(len as u32);
        }
    }
    buf
}

/// Whether a reply buffer ends the dump with sequence number `seq`.
fn ends_dump(buf: &[u8], seq: u32) -> bool {
    Messages::new(buf, ByteOrder::native())
        .filter_map(Result::ok)
        .any(|m| m.header.seq == seq && matches!(m.header.kind, NLMSG_DONE | NLMSG_ERROR))
}

struct Recorder<W: Write> {
    writer: CaptureWriter<W>,
    summary: Summary,
    seq: u32,
}

impl<W: Write> Recorder<W> {
    fn put(&mut self, buf: &[u8]) -> Result<(), Error> {
        self.writer
            .write(buf, SystemTime::now())
            .map_err(|source| Error::Write {
                records: self.writer.records(),
                source,
            })?;
        self.summary.records = self.writer.records();
        Ok(())
    }

    /// Link, address, route and rule dumps, each request and reply buffer
    /// recorded. The rule dump is asked for with the full `fib_rule_hdr`
    /// whatever `form` says: the short form is Go's, which dumps no rules.
    fn dumps(&mut self, sock: &Socket, form: RequestForm) -> Result<(), Error> {
        for (kind, form) in [
            (RouteNetlinkMessage::GetLink(LinkMessage::default()), form),
            (RouteNetlinkMessage::GetAddress(AddressMessage::default()), form),
            (RouteNetlinkMessage::GetRoute(RouteMessage::default()), form),
            (RouteNetlinkMessage::GetRule(RuleMessage::default()), RequestForm::Full),
        ] {
            self.seq = self.seq.wrapping_add(1);
            let req = request(kind, self.seq, form);
            sock.send(&req, 0).map_err(Error::Socket)?;
            self.put(&req)?;
            loop {
                let (buf, _) = sock.recv_from_full().map_err(Error::Socket)?;
                self.put(&buf)?;
                if ends_dump(&buf, self.seq) {
                    break;
                }
            }
            self.summary.dumps += 1;
        }
        Ok(())
    }
}

fn socket() -> Result<Socket, Error> {
    let mut s = Socket::new(NETLINK_ROUTE).map_err(Error::Socket)?;
    s.bind_auto().map_err(Error::Socket)?;
    Ok(s)
}

/// `nlorder record`: in namespace `netns` if given, into `path` (`-`:
/// stdout), until the dumps are done (or, with `follow`, until the duration
/// ends or SIGINT/SIGTERM arrives). Errors as one line for the user.
///
/// `started` is called once the recording is in place (subscribed, when
/// following), before the first dump: where tcpdump says "listening on".
pub fn record_to(
    path: &std::path::Path,
    netns: Option<&str>,
    format: FileFormat,
    o: &Options,
    started: &mut dyn FnMut(),
) -> Result<Summary, Error> {
    let stop = Arc::new(AtomicBool::new(false));
    let name = path.display().to_string();
    let into = |source| Error::Into {
        name: name.clone(),
        source: Box::new(source),
    };
    // The namespace first: a missing one leaves no empty file behind.
    prepare(netns, &stop)?;
    if name == "-" {
        record(std::io::stdout().lock(), format, o, stop, started).map_err(into)
    } else {
        let f = std::fs::File::create(path).map_err(|source| Error::Create {
            name: name.clone(),
            source,
        })?;
        record(std::io::BufWriter::new(f), format, o, stop, started).map_err(into)
    }
}

/// Records into `out`, in namespace `netns` if given (entered by the
/// calling thread only). SIGINT and SIGTERM set `stop`, which ends a
/// `follow` as the caller's own `stop.store(true)` does.
pub fn record_into<W: Write>(
    out: W,
    netns: Option<&str>,
    format: FileFormat,
    o: &Options,
    stop: Arc<AtomicBool>,
    started: &mut dyn FnMut(),
) -> Result<Summary, Error> {
    prepare(netns, &stop)?;
    record(out, format, o, stop, started)
}

/// SIGINT and SIGTERM set `stop`; the calling thread enters `netns`.
fn prepare(netns: Option<&str>, stop: &Arc<AtomicBool>) -> Result<(), Error> {
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(stop)).map_err(Error::Signals)?;
    }
    if let Some(ns) = netns {
        enter_netns(ns)?;
    }
    Ok(())
}

/// Records into `out`. `stop` ends a `follow` early (Ctrl-C); `started`
/// is called once the sockets are ready, before the first dump.
pub fn record<W: Write>(
    out: W,
    format: FileFormat,
    o: &Options,
    stop: Arc<AtomicBool>,
    started: &mut dyn FnMut(),
) -> Result<Summary, Error> {
    let writer = CaptureWriter::new(out, format).map_err(|source| Error::Write { records: 0, source })?;
    let mut r = Recorder {
        writer,
        summary: Summary::default(),
        seq: SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_secs() as u32)
            .unwrap_or(1),
    };
    let dump_sock = socket()?;
    // Subscribe before the first dump, so no change falls between the two.
    let monitor = if o.follow {
        let m = socket()?;
        m.set_rx_buf_sz(RCVBUF).map_err(Error::Socket)?;
        for g in GROUPS {
            m.add_membership(g).map_err(Error::Socket)?;
        }
        Some(m)
    } else {
        None
    };
    started();
    r.dumps(&dump_sock, o.request_form)?;
    if let Some(m) = &monitor {
        let deadline = o.duration.map(|d| Instant::now() + d);
        loop {
            if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let wait = deadline
                .map(|d| d.saturating_duration_since(Instant::now()))
                .unwrap_or(Duration::from_millis(200))
                .min(Duration::from_millis(200));
            let mut fds = [nix::poll::PollFd::new(m.as_fd(), nix::poll::PollFlags::POLLIN)];
            let timeout =
                nix::poll::PollTimeout::try_from(wait.as_millis() as i32).unwrap_or(nix::poll::PollTimeout::ZERO);
            match nix::poll::poll(&mut fds, timeout) {
                Ok(0) => continue,
                Ok(_) => {}
                Err(nix::errno::Errno::EINTR) => continue,
                Err(e) => return Err(Error::Socket(io::Error::from(e))),
            }
            match m.recv_from_full() {
                Ok((buf, _)) => {
                    r.put(&buf)?;
                    r.summary.notifications += 1;
                }
                Err(e) if e.raw_os_error() == Some(nix::libc::ENOBUFS) => r.summary.overruns += 1,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::Socket(e)),
            }
        }
        // Whatever queued up meanwhile, then the final dumps.
        m.set_non_blocking(true).map_err(Error::Socket)?;
        loop {
            match m.recv_from_full() {
                Ok((buf, _)) => {
                    r.put(&buf)?;
                    r.summary.notifications += 1;
                }
                Err(e) if e.raw_os_error() == Some(nix::libc::ENOBUFS) => r.summary.overruns += 1,
                Err(_) => break,
            }
        }
        r.dumps(&dump_sock, o.request_form)?;
    }
    Ok(r.summary)
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;

/// `1 record`, `2 records`.
fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    match n.into() {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}
