//! Streaming reader for pcap and pcapng files (plain or gzip-compressed).
//!
//! Contract: [`CaptureReader::for_each_record`] hands every packet record to a
//! visitor, in file order, numbered from 1 the way Wireshark numbers frames,
//! with how its container stores it ([`Record::stored`]: its section and
//! interfaces, options and all, the timestamp as stored, its own options),
//! so that a writer can write it back unchanged.
//! Memory stays bounded by the largest single record: the file is never read
//! whole. Problems that still leave the rest of the file readable (a truncated
//! last record, `caplen < len`, an unknown interface id) become
//! [`Diagnostic`]s; only input that cannot be read at all is an [`Error`].
//!
//! pcap-parser does the block parsing. It is wrapped here because of three
//! defects (each shown by a test in `reader_tests.rs`):
//! a short first `read()` (pipes, stdin, gzip) makes its format probe fail,
//! binary `if_tsresol` values are rejected, and `if_tsoffset` is always read
//! little-endian. We therefore feed it a `HeaderRead` adapter (the first
//! `read()` returns the whole file header, later ones whatever has arrived,
//! so a live pipe is read record by record) and compute pcapng timestamps
//! ourselves.

use std::io::{self, Read};

use pcap_parser::pcapng::Block;
use pcap_parser::{PcapBlockOwned, PcapError, create_reader};

use crate::diag::{Diagnostic, Diagnostics};

/// Initial buffer size; grows (up to [`MAX_BUFFER`]) for larger records.
const INITIAL_BUFFER: usize = 1 << 16;
/// No legitimate netlink record comes close to this (dump skbs are ≤ 32 KiB,
/// snaplen defaults to 256 KiB); a bigger block length is corruption.
const MAX_BUFFER: usize = 64 << 20;

/// Container format of the capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Classic libpcap (`tcpdump -w`), microsecond or nanosecond timestamps.
    Pcap,
    /// pcapng (`dumpcap`, `nlorder record --pcapng`).
    Pcapng,
}

/// A packet timestamp. Simple Packet Blocks carry none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Timestamp {
    /// Whole seconds since the Unix epoch (UTC).
    pub secs: i64,
    /// Nanoseconds past `secs`, below 1 000 000 000.
    pub nanos: u32,
}

impl Timestamp {
    /// `2024-03-13T21:53:37.678556Z` (microseconds, as the printers write
    /// times); `secs.nanos` outside the years 1970-9999.
    pub fn rfc3339(&self) -> String {
        const MAX_RFC3339_SECS: i64 = 253_402_300_799;
        if (0..=MAX_RFC3339_SECS).contains(&self.secs) {
            let st = std::time::UNIX_EPOCH + std::time::Duration::new(self.secs.unsigned_abs(), self.nanos);
            humantime::format_rfc3339_micros(st).to_string()
        } else {
            format!("{}.{:09}", self.secs, self.nanos)
        }
    }

    /// Nanoseconds since the epoch (saturating).
    pub fn as_nanos(&self) -> i128 {
        i128::from(self.secs) * 1_000_000_000 + i128::from(self.nanos)
    }

    /// That many nanoseconds later (saturating at the representable range).
    pub fn plus_nanos(&self, n: u64) -> Timestamp {
        let total = self.as_nanos().saturating_add(i128::from(n));
        let secs = i64::try_from(total.div_euclid(1_000_000_000)).unwrap_or(i64::MAX);
        Timestamp {
            secs,
            nanos: total.rem_euclid(1_000_000_000) as u32,
        }
    }

    /// Seconds as a float, for JSON consumers that want a number.
    pub fn as_secs_f64(&self) -> f64 {
        self.secs as f64 + f64::from(self.nanos) / 1e9
    }
}

/// One packet record as found in the file.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    /// 1-based record number, counting every packet record (EPB, SPB, pcap).
    pub number: u64,
    /// Byte offset of the record (pcap record header or pcapng block) in the
    /// (decompressed) input stream.
    pub offset: u64,
    /// Byte offset of the first byte of `data` in the input stream.
    pub data_offset: u64,
    /// When the packet was captured, interface offset applied; `None` for a
    /// Simple Packet Block.
    pub ts: Option<Timestamp>,
    /// Link type of the interface the record belongs to (FCS bits masked off).
    pub linktype: u32,
    /// Original length on the wire; `data.len() < origlen` means truncated.
    pub origlen: u32,
    /// The captured bytes: link-layer header, then the netlink data (see
    /// [`super::netlink_frame`]).
    pub data: &'a [u8],
    /// The capturing host's OS (`shb_os` of the pcapng section), e.g.
    /// `Linux 6.12.117+deb12-amd64` as dumpcap and `nlorder record` write it.
    pub os: Option<&'a str>,
    /// The application that wrote the section (`shb_userappl` of the pcapng
    /// section), e.g. `nlorder 0.1.0` as `nlorder record` writes it.
    pub app: Option<&'a str>,
    /// The record as its container stores it: what a writer needs to write
    /// it back unchanged (see [`super::writer`]).
    pub stored: Stored<'a>,
}

/// A packet record as its container stores it.
#[derive(Debug, Clone, Copy)]
pub struct Stored<'a> {
    /// The section it belongs to, with its interfaces as described so far.
    pub section: &'a Section,
    /// The kind of record.
    pub kind: StoredKind,
    /// The interface it was captured on (its index in
    /// [`Section::interfaces`]; 0 for pcap and Simple Packet Blocks).
    pub interface: u32,
    /// The timestamp as stored, in units of its interface's `if_tsresol`
    /// (pcap: seconds times 10^6 or 10^9 plus the fraction); 0 for a
    /// Simple Packet Block, which has none.
    pub ts_units: u64,
    /// The Enhanced Packet Block's options (comments, flags), as stored.
    pub options: Options<'a>,
}

/// Which kind of record a packet was stored as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoredKind {
    /// A classic pcap record.
    Pcap,
    /// A pcapng Enhanced Packet Block.
    Enhanced,
    /// A pcapng Simple Packet Block (no timestamp, no options).
    Simple,
}

/// A pcapng section (a pcap file is one): its header's options and the
/// interfaces its records refer to.
#[derive(Debug, Clone, Default)]
pub struct Section {
    /// 1-based, in file order.
    pub number: u32,
    /// Its header and option values are big-endian.
    pub big_endian: bool,
    /// The Section Header Block's options (`shb_os`, ...), as stored; none
    /// for pcap.
    pub options: Vec<RawOption>,
    /// Its Interface Description Blocks so far, in order (records name
    /// them by index); for pcap, the one interface the file header
    /// describes (its `if_tsresol` option says nanoseconds).
    pub interfaces: Vec<InterfaceDescription>,
}

/// One Interface Description Block, as stored.
#[derive(Debug, Clone)]
pub struct InterfaceDescription {
    /// Its link type (LINKTYPE_*).
    pub linktype: u16,
    /// Its snapshot length (0: none).
    pub snaplen: u32,
    /// Its options (`if_tsresol`, `if_name`, ...), as stored.
    pub options: Vec<RawOption>,
}

/// A pcapng option: its code and value (without padding), in the byte
/// order of its section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawOption {
    /// The option code (1: `opt_comment`).
    pub code: u16,
    /// Its value, as long as its declared length.
    pub value: Vec<u8>,
}

/// The options of an Enhanced Packet Block, borrowed from the file.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a>(&'a [pcap_parser::PcapNGOption<'a>]);

impl<'a> Options<'a> {
    /// Each option as (code, value), the value as long as its declared
    /// length (the padding left out); the end-of-options marker is not one.
    pub fn iter(&self) -> impl Iterator<Item = (u16, &'a [u8])> + 'a {
        self.0
            .iter()
            .filter(|o| o.code.0 != 0)
            .map(|o| (o.code.0, o.as_bytes().unwrap_or_else(|_| o.value())))
    }

    /// The record's comments (`opt_comment`, code 1) that are UTF-8.
    pub fn comments(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.iter()
            .filter(|(code, _)| *code == 1)
            .filter_map(|(_, v)| std::str::from_utf8(v).ok())
    }
}

/// The options of a block as owned values.
fn raw_options(options: &[pcap_parser::PcapNGOption<'_>]) -> Vec<RawOption> {
    Options(options)
        .iter()
        .map(|(code, value)| RawOption {
            code,
            value: value.to_vec(),
        })
        .collect()
}

impl Record<'_> {
    /// Fewer bytes were captured than the packet had (snaplen).
    pub fn is_truncated(&self) -> bool {
        (self.data.len() as u64) < u64::from(self.origlen)
    }
}

/// Input that cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading the source failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The first bytes are neither a pcap nor a pcapng header.
    #[error("not a pcap/pcapng file")]
    NotCapture,
    /// The source holds no byte at all.
    #[error("empty file: not a pcap/pcapng file")]
    Empty,
    /// A gzip stream that ends before the capture's header is complete (a
    /// cut file: `gzip -t` says "unexpected end of file").
    #[error("unexpected end of file: the gzip stream ends before the capture's header (a cut or partial file)")]
    GzipCut,
    /// A block or record header that cannot be parsed, so nothing after it
    /// can be found.
    #[error("unreadable capture at byte offset {offset}: {reason}")]
    Corrupt {
        /// Where in the (decompressed) stream reading stopped.
        offset: u64,
        /// What was wrong there.
        reason: String,
    },
}

#[derive(Debug, Clone, Copy)]
struct Interface {
    linktype: u32,
    snaplen: u32,
    /// Timestamp units per second (10^n or 2^n).
    units: u64,
    offset_secs: i64,
}

/// Summary facts about the file, filled in while reading.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct FileInfo {
    /// pcap or pcapng; `None` until the file header has been read.
    pub format: Option<Format>,
    /// The file was gzip-compressed (and is read inflated).
    pub gzip: bool,
    /// Byte order of the pcap/pcapng headers (not of the netlink payload).
    pub big_endian_headers: bool,
    /// The first section's `shb_os` (pcapng), if any.
    pub os: Option<String>,
    /// A pcap file with nanosecond timestamps (magic `a1b23c4d`).
    pub nanosecond_pcap: bool,
    /// pcapng Section Header Blocks seen (0 for pcap).
    pub sections: u32,
    /// pcapng Interface Description Blocks seen (0 for pcap).
    pub interfaces: u32,
    /// Bytes consumed from the (decompressed) stream.
    pub bytes: u64,
    /// The capture is cut (a record cut short at the end of the file, or a
    /// gzip stream that ends early): the number of the last whole record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut_after: Option<u64>,
    /// The gzip stream ended early (a cut file): what decompressed was read.
    #[serde(skip)]
    pub gzip_truncated: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// A streaming capture reader over any byte source.
pub struct CaptureReader<'r> {
    inner: Box<dyn Read + Send + 'r>,
    /// What has been learnt about the file so far; complete once
    /// [`CaptureReader::for_each_record`] returns.
    pub info: FileInfo,
}

impl<'r> CaptureReader<'r> {
    /// Wraps a byte source, transparently inflating gzip (detected by magic).
    pub fn new<R: Read + Send + 'r>(mut source: R) -> Result<Self, Error> {
        // Sniff the first bytes, then hand them back in front of the source:
        // no BufReader in between, so records are copied once, not twice.
        let mut head = [0u8; 2];
        let mut got = 0;
        while let Some(unread) = head.get_mut(got..).filter(|u| !u.is_empty()) {
            match source.read(unread) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::Io(e)),
            }
        }
        if got == 0 {
            return Err(Error::Empty);
        }
        let gzip = got == head.len() && head == [0x1f, 0x8b];
        let replay = io::Cursor::new(head).take(got as u64).chain(source);
        let truncated = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let inner: Box<dyn Read + Send + 'r> = if gzip {
            Box::new(EndsEarly {
                inner: flate2::read::MultiGzDecoder::new(io::BufReader::with_capacity(INITIAL_BUFFER, replay)),
                truncated: truncated.clone(),
            })
        } else {
            Box::new(replay)
        };
        Ok(Self {
            inner,
            info: FileInfo {
                gzip,
                gzip_truncated: truncated,
                ..FileInfo::default()
            },
        })
    }

    /// Reads every record and hands it to `visit`; diagnostics go to `diags`.
    /// The visitor may stop the walk early by returning `false`.
    pub fn for_each_record<F>(&mut self, diags: &mut Diagnostics, mut visit: F) -> Result<(), Error>
    where
        F: FnMut(&Record<'_>, &mut Diagnostics) -> bool,
    {
        let created = create_reader(INITIAL_BUFFER, HeaderRead::new(&mut self.inner));
        let cut = self.info.gzip_truncated.load(std::sync::atomic::Ordering::Relaxed);
        let mut reader = match created {
            Ok(r) => r,
            Err(PcapError::ReadError) if !cut => {
                return Err(Error::Io(io::Error::other("read failed (or not gzip data)")));
            }
            Err(_) if cut => return Err(Error::GzipCut),
            Err(PcapError::Eof) => return Err(Error::Empty),
            Err(_) => return Err(Error::NotCapture),
        };
        let mut capacity = INITIAL_BUFFER;
        let mut ifaces: Vec<Interface> = Vec::new();
        let mut legacy_linktype = 0u32;
        let mut legacy_nanos = false;
        let mut offset: u64 = 0;
        let mut number: u64 = 0;
        let mut seen_any_block = false;
        let mut section_os: Option<String> = None;
        let mut section_app: Option<String> = None;
        let mut section = Section::default();
        loop {
            let (consumed, keep_going) = match reader.next() {
                Ok((consumed, block)) => {
                    seen_any_block = true;
                    let mut keep_going = true;
                    match block {
                        PcapBlockOwned::LegacyHeader(h) => {
                            self.info.format = Some(Format::Pcap);
                            self.info.big_endian_headers = h.is_bigendian();
                            self.info.nanosecond_pcap = h.is_nanosecond_precision();
                            legacy_nanos = h.is_nanosecond_precision();
                            legacy_linktype = (h.network.0 as u32) & 0x03FF_FFFF;
                            section = Section {
                                number: 1,
                                big_endian: h.is_bigendian(),
                                options: Vec::new(),
                                interfaces: vec![InterfaceDescription {
                                    linktype: h.network.0 as u16,
                                    snaplen: h.snaplen,
                                    // if_tsresol 9: nanoseconds (6, microseconds, is the default)
                                    options: match legacy_nanos {
                                        true => vec![RawOption {
                                            code: 9,
                                            value: vec![9],
                                        }],
                                        false => Vec::new(),
                                    },
                                }],
                            };
                        }
                        PcapBlockOwned::Legacy(b) => {
                            number += 1;
                            let data = captured(b.data, b.caplen as usize);
                            let nanos = if legacy_nanos {
                                b.ts_usec
                            } else {
                                b.ts_usec.saturating_mul(1000)
                            };
                            let rec = Record {
                                number,
                                offset,
                                data_offset: offset + 16,
                                ts: Some(normalise(i64::from(b.ts_sec), i128::from(nanos))),
                                linktype: legacy_linktype,
                                origlen: b.origlen,
                                data,
                                os: section_os.as_deref(),
                                app: section_app.as_deref(),
                                stored: Stored {
                                    section: &section,
                                    kind: StoredKind::Pcap,
                                    interface: 0,
                                    ts_units: u64::from(b.ts_sec)
                                        * if legacy_nanos { 1_000_000_000 } else { 1_000_000 }
                                        + u64::from(b.ts_usec),
                                    options: Options::default(),
                                },
                            };
                            keep_going = visit(&rec, diags);
                        }
                        PcapBlockOwned::NG(Block::SectionHeader(shb)) => {
                            self.info.format = Some(Format::Pcapng);
                            self.info.sections += 1;
                            self.info.big_endian_headers = shb.big_endian();
                            ifaces.clear();
                            // shb_os (option 3) and shb_userappl (option 4,
                            // the writing application): UTF-8 text, padded.
                            let text = |code: u16| {
                                shb.options
                                    .iter()
                                    .find(|o| o.code.0 == code)
                                    .and_then(|o| o.as_str().ok())
                                    .map(|s| s.trim_end_matches('\0').to_owned())
                            };
                            section_os = text(3);
                            section_app = text(4);
                            if self.info.os.is_none() {
                                self.info.os.clone_from(&section_os);
                            }
                            section = Section {
                                number: self.info.sections,
                                big_endian: shb.big_endian(),
                                options: raw_options(&shb.options),
                                interfaces: Vec::new(),
                            };
                        }
                        PcapBlockOwned::NG(Block::InterfaceDescription(idb)) => {
                            self.info.interfaces += 1;
                            let big = self.info.big_endian_headers;
                            ifaces.push(Interface {
                                linktype: u32::from(idb.linktype.0 as u16),
                                snaplen: idb.snaplen,
                                units: ts_units(idb.if_tsresol),
                                offset_secs: ts_offset(&idb.options, big),
                            });
                            section.interfaces.push(InterfaceDescription {
                                linktype: idb.linktype.0 as u16,
                                snaplen: idb.snaplen,
                                options: raw_options(&idb.options),
                            });
                        }
                        PcapBlockOwned::NG(Block::EnhancedPacket(epb)) => {
                            number += 1;
                            let data = captured(epb.data, epb.caplen as usize);
                            match ifaces.get(epb.if_id as usize) {
                                Some(iface) => {
                                    let raw = (u64::from(epb.ts_high) << 32) | u64::from(epb.ts_low);
                                    let rec = Record {
                                        number,
                                        offset,
                                        data_offset: offset + 28,
                                        ts: Some(ng_ts(raw, iface)),
                                        linktype: iface.linktype,
                                        origlen: epb.origlen,
                                        data,
                                        os: section_os.as_deref(),
                                        app: section_app.as_deref(),
                                        stored: Stored {
                                            section: &section,
                                            kind: StoredKind::Enhanced,
                                            interface: epb.if_id,
                                            ts_units: raw,
                                            options: Options(&epb.options),
                                        },
                                    };
                                    keep_going = visit(&rec, diags);
                                }
                                None => diags.push(Diagnostic::record(
                                    number,
                                    offset,
                                    format!(
                                        "packet refers to interface {} but the section describes {}: skipped",
                                        epb.if_id,
                                        ifaces.len()
                                    ),
                                )),
                            }
                        }
                        PcapBlockOwned::NG(Block::SimplePacket(spb)) => {
                            number += 1;
                            match ifaces.first() {
                                Some(iface) => {
                                    let mut cap = spb.origlen as usize;
                                    if iface.snaplen != 0 {
                                        cap = cap.min(iface.snaplen as usize);
                                    }
                                    let data = captured(spb.data, cap);
                                    let rec = Record {
                                        number,
                                        offset,
                                        data_offset: offset + 12,
                                        ts: None,
                                        linktype: iface.linktype,
                                        origlen: spb.origlen,
                                        data,
                                        os: section_os.as_deref(),
                                        app: section_app.as_deref(),
                                        stored: Stored {
                                            section: &section,
                                            kind: StoredKind::Simple,
                                            interface: 0,
                                            ts_units: 0,
                                            options: Options::default(),
                                        },
                                    };
                                    keep_going = visit(&rec, diags);
                                }
                                None => diags.push(Diagnostic::record(
                                    number,
                                    offset,
                                    "simple packet block before any interface description: skipped",
                                )),
                            }
                        }
                        PcapBlockOwned::NG(_) => {}
                    }
                    (consumed, keep_going)
                }
                Err(PcapError::Eof) => {
                    if self.info.gzip_truncated.load(std::sync::atomic::Ordering::Relaxed) {
                        self.info.cut_after = Some(number);
                    }
                    break;
                }
                Err(PcapError::Incomplete(_)) => {
                    refill(&mut reader, offset)?;
                    continue;
                }
                Err(PcapError::BufferTooSmall) => {
                    if capacity >= MAX_BUFFER || !reader.grow(capacity * 2) {
                        return Err(Error::Corrupt {
                            offset,
                            reason: format!("block larger than {} MiB", MAX_BUFFER >> 20),
                        });
                    }
                    capacity *= 2;
                    refill(&mut reader, offset)?;
                    continue;
                }
                Err(PcapError::UnexpectedEof) => {
                    diags.push(Diagnostic::at(
                        offset,
                        format!("file ends inside a record after packet {number}: the last record is truncated"),
                    ));
                    self.info.cut_after = Some(number);
                    break;
                }
                Err(e) => {
                    let e = e.to_owned_vec();
                    if !seen_any_block {
                        return Err(Error::NotCapture);
                    }
                    return Err(Error::Corrupt {
                        offset,
                        reason: describe_error(&e),
                    });
                }
            };
            // (no shift here: `consume` moves what is left of the buffer to
            // its start each time half of it is read, copying the capture
            // once more; `refill` moves only the part of a record left)
            reader.consume_noshift(consumed);
            offset += consumed as u64;
            self.info.bytes = offset;
            if !keep_going {
                break;
            }
        }
        Ok(())
    }
}

fn refill(reader: &mut Box<dyn pcap_parser::traits::PcapReaderIterator + Send + '_>, offset: u64) -> Result<(), Error> {
    reader.refill().map_err(|e| match e {
        PcapError::ReadError => Error::Io(io::Error::other(format!(
            "read failed at byte offset {offset} (corrupt gzip stream?)"
        ))),
        other => Error::Corrupt {
            offset,
            reason: describe_error(&other.to_owned_vec()),
        },
    })
}

fn describe_error(e: &PcapError<&[u8]>) -> String {
    match e {
        PcapError::HeaderNotRecognized => "block header not recognized".into(),
        PcapError::NomError(_, kind) | PcapError::OwnedNomError(_, kind) => {
            format!("malformed block ({kind:?}; bad block length?)")
        }
        other => other.to_string(),
    }
}

/// Builds a timestamp from seconds plus a (possibly out-of-range) nanosecond count.
#[inline]
fn normalise(secs: i64, nanos: i128) -> Timestamp {
    if (0..1_000_000_000).contains(&nanos) {
        return Timestamp {
            secs,
            nanos: nanos as u32,
        };
    }
    let total = i128::from(secs) * 1_000_000_000 + nanos;
    let secs = total.div_euclid(1_000_000_000);
    let nanos = total.rem_euclid(1_000_000_000) as u32;
    Timestamp {
        secs: secs.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
        nanos,
    }
}

/// Units per second for an `if_tsresol` byte: MSB clear → 10^-n, set → 2^-n.
/// Out-of-range exponents fall back to the default (microseconds).
fn ts_units(tsresol: u8) -> u64 {
    let exp = u32::from(tsresol & 0x7f);
    if tsresol & 0x80 != 0 {
        if exp < 64 { 1u64 << exp } else { 1_000_000 }
    } else {
        10u64.checked_pow(exp).unwrap_or(1_000_000)
    }
}

/// `if_tsoffset` (option 14) in the section's own byte order.
fn ts_offset(options: &[pcap_parser::PcapNGOption<'_>], big_endian: bool) -> i64 {
    options
        .iter()
        .find(|o| o.code.0 == 14)
        .and_then(|o| o.value.get(..8))
        .and_then(|v| <[u8; 8]>::try_from(v).ok())
        .map(|b| {
            if big_endian {
                i64::from_be_bytes(b)
            } else {
                i64::from_le_bytes(b)
            }
        })
        .unwrap_or(0)
}

fn ng_ts(raw: u64, iface: &Interface) -> Timestamp {
    let units = iface.units.max(1);
    let secs = (raw / units) as i128;
    let frac = (raw % units) as u128;
    let nanos = (frac * 1_000_000_000 / u128::from(units)) as i128;
    normalise(
        (secs + i128::from(iface.offset_secs)).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
        nanos,
    )
}

/// A `Read` adapter whose `read` fills the whole buffer unless the source ends.
///
/// pcap-parser probes the format with a single `read()`; on a pipe or a
/// decompressor that call may return a handful of bytes and the probe fails.
/// A gzip stream cut short (a partial download, a full disk): the decoder
/// says "unexpected end of file" after the last whole block. Like `zcat`,
/// keep what decompressed: end the stream there and remember that it was
/// cut, so the reader reports a truncated capture instead of nothing.
struct EndsEarly<R> {
    inner: R,
    truncated: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl<R: Read> Read for EndsEarly<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                self.truncated.store(true, std::sync::atomic::Ordering::Relaxed);
                Ok(0)
            }
            other => other,
        }
    }
}

/// The first `len` bytes of a block's data, or all of it when it holds fewer.
fn captured(data: &[u8], len: usize) -> &[u8] {
    data.get(..len).unwrap_or(data)
}

/// Makes pcap-parser's single probing `read()` see the whole file header:
/// the first call fills the buffer until it holds the 24-byte pcap header or
/// the complete pcapng section header block (its length is in the block),
/// or the source ends. Later calls pass through, so records that have
/// arrived on a pipe are read without waiting for more.
struct HeaderRead<R> {
    inner: R,
    probed: bool,
}

impl<R: Read> HeaderRead<R> {
    fn new(inner: R) -> Self {
        HeaderRead { inner, probed: false }
    }
}

/// Bytes the format probe needs, given the first bytes read.
fn header_len(head: &[u8]) -> usize {
    const PCAP_HEADER: usize = 24;
    const SHB_MIN: usize = 28;
    if head.get(..4) != Some(&[0x0a, 0x0d, 0x0d, 0x0a][..]) {
        return PCAP_HEADER;
    }
    let (Some(len), Some(magic)) = (head.get(4..8), head.get(8..12)) else {
        return SHB_MIN;
    };
    let len: [u8; 4] = len.try_into().unwrap_or_default();
    let len = match magic {
        [0x4d, 0x3c, 0x2b, 0x1a] => u32::from_le_bytes(len),
        _ => u32::from_be_bytes(len),
    };
    usize::try_from(len).unwrap_or(usize::MAX).max(SHB_MIN)
}

impl<R: Read> Read for HeaderRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.probed {
            return loop {
                match self.inner.read(buf) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    other => break other,
                }
            };
        }
        self.probed = true;
        let mut filled = 0;
        loop {
            let need = buf.get(..filled).map_or(buf.len(), header_len).min(buf.len());
            if filled >= need {
                break;
            }
            let Some(unread) = buf.get_mut(filled..need) else { break };
            match self.inner.read(unread) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(filled)
    }
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
