//! Writing a capture back as pcapng, record by record, with comments added.
//!
//! Contract: [`PcapngWriter`] takes the records the reader hands out, in
//! order, and writes each as it was stored: the same bytes, original
//! length, interface and timestamp (in its interface's units), the
//! Enhanced Packet Block's own options (earlier comments included) kept,
//! and the comments given added as `opt_comment` options (code 1). A
//! section's header and its interface descriptions are written, options
//! and all, before the first record that needs them; a pcap file becomes
//! one section with one interface of its link type, snapshot length and
//! resolution (`if_tsresol` 9 for nanoseconds), so every timestamp stays
//! exact. Simple Packet Blocks stay simple: they carry no options, so
//! their comments are counted, not written. The output is little-endian:
//! option values of a big-endian section whose type the pcapng
//! specification fixes (the 32- and 64-bit numbers, custom options'
//! enterprise numbers) are turned around, the others copied. Blocks the
//! records do not need (statistics, name resolution, interfaces no record
//! uses after the last one) are not written. Memory: one record.
//!
//! pcap-parser's serializer (`ToVec`) writes the blocks. Its `fix()`
//! (called by `to_vec`) sets block lengths and padding right, options
//! included, but leaves three fields as they were given: an Enhanced
//! Packet Block's `caplen`, every option's declared length, and a
//! section's length. A block with stale ones is corrupt (shown by
//! `writer_tests.rs`: `fix_leaves_caplen_stale`), so [`block_bytes`]'s
//! callers here build them from the data ([`option`], the packet's length,
//! a section length of -1, "not given", since comments change it).

use std::borrow::Cow;
use std::io::{self, Write};

use pcap_parser::{Linktype, OptionCode, PcapNGOption, ToVec};

use super::reader::{RawOption, Record, Section, StoredKind};

/// `opt_comment`: a UTF-8 comment, in any block.
pub const OPT_COMMENT: u16 = 1;

/// The most bytes an option value can hold (its length is 16 bits).
const MAX_OPTION: usize = u16::MAX as usize;

/// A block serialized by pcap-parser (which also sets its magic number,
/// block lengths, padding and end of options).
pub fn block_bytes<T: ToVec>(mut block: T) -> io::Result<Vec<u8>> {
    block
        .to_vec()
        .map_err(|e| io::Error::other(format!("serializing a capture block: {e:?}")))
}

/// An option whose declared length is its value's (cut at 65535 bytes,
/// the most an option holds).
pub fn option<'a>(code: u16, value: impl Into<Cow<'a, [u8]>>) -> PcapNGOption<'a> {
    let mut value = value.into();
    if value.len() > MAX_OPTION {
        value.to_mut().truncate(MAX_OPTION);
    }
    PcapNGOption {
        code: OptionCode(code),
        len: value.len() as u16,
        value,
    }
}

/// A section header (pcapng 1.0) with `options`. Its length is -1, "not
/// given": comments added to its records change every length.
pub fn section_header(options: Vec<PcapNGOption<'_>>) -> io::Result<Vec<u8>> {
    block_bytes(pcap_parser::SectionHeaderBlock {
        block_type: 0,
        block_len1: 0,
        bom: 0,
        major_version: 1,
        minor_version: 0,
        section_len: -1,
        options,
        block_len2: 0,
    })
}

/// An interface description: its link type, snapshot length, timestamp
/// resolution (`if_tsresol`: 6 for microseconds, 9 for nanoseconds) and
/// options. pcap-parser adds `if_tsresol` and `if_tsoffset` as options
/// when `options` lacks them.
pub fn interface_description(
    linktype: Linktype,
    snaplen: u32,
    tsresol: u8,
    options: Vec<PcapNGOption<'_>>,
) -> io::Result<Vec<u8>> {
    block_bytes(pcap_parser::InterfaceDescriptionBlock {
        block_type: 0,
        block_len1: 0,
        linktype,
        reserved: 0,
        snaplen,
        options,
        block_len2: 0,
        if_tsresol: tsresol,
        if_tsoffset: 0,
    })
}

/// `text` as a comment's value: cut at a character boundary to fit an option.
fn comment_text(text: &str) -> &str {
    if text.len() <= MAX_OPTION {
        return text;
    }
    let mut end = MAX_OPTION;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// The blocks an option can belong to, for its value's byte order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockOf {
    Section,
    Interface,
    Packet,
}

/// An option value of a big-endian section, as a little-endian file holds
/// it: the numbers whose width the pcapng specification gives turned
/// around, custom options' Private Enterprise Number too; strings and
/// byte strings (names, addresses, hashes, verdicts) as they are.
fn little_endian(of: BlockOf, code: u16, value: &[u8]) -> Vec<u8> {
    let mut v = value.to_vec();
    let width = match (of, code) {
        // custom options (any block): the enterprise number comes first
        (_, 2988 | 2989 | 19372 | 19373) => 4,
        // if_speed, if_tsoffset, if_txspeed, if_rxspeed
        (BlockOf::Interface, 8 | 14 | 16 | 17) => 8,
        // if_tzone
        (BlockOf::Interface, 10) => 4,
        // epb_flags, epb_queue
        (BlockOf::Packet, 2 | 6) => 4,
        // epb_dropcount, epb_packetid
        (BlockOf::Packet, 4 | 5) => 8,
        _ => 0,
    };
    if let Some(number) = v.get_mut(..width)
        && width > 0
    {
        number.reverse();
    }
    v
}

/// A section's options as this file writes them (little-endian).
fn options_of(section: &Section, of: BlockOf, raw: &[RawOption]) -> Vec<RawOption> {
    raw.iter()
        .map(|o| RawOption {
            code: o.code,
            value: match section.big_endian {
                true => little_endian(of, o.code, &o.value),
                false => o.value.clone(),
            },
        })
        .collect()
}

/// A record as it is written back, owned: taken by
/// [`PcapngWriter::prepare`] when the record is read, written by
/// [`PcapngWriter::write`] once its comments are known.
#[derive(Debug, Clone)]
pub struct StoredPacket {
    /// The record's number in the input.
    pub number: u64,
    kind: StoredKind,
    interface: u32,
    ts_units: u64,
    origlen: u32,
    data: Vec<u8>,
    /// The Enhanced Packet Block's options, little-endian.
    options: Vec<RawOption>,
}

impl StoredPacket {
    /// The same record holding `data` instead (a capture derived from
    /// another by leaving messages out); its original length is the new
    /// data's.
    pub fn with_data(mut self, data: Vec<u8>) -> StoredPacket {
        self.origlen = u32::try_from(data.len()).unwrap_or(u32::MAX);
        self.data = data;
        self
    }
}

/// Writes records back as pcapng (see the module's contract).
pub struct PcapngWriter<W: Write> {
    out: W,
    /// The input section whose header was written last.
    section: Option<u32>,
    /// Interfaces of that section written so far.
    interfaces: usize,
    /// Records written.
    pub records: u64,
    /// Records written with a comment added.
    pub commented: u64,
    /// Records whose comments could not be written (Simple Packet Blocks
    /// carry no options).
    pub uncommented: u64,
}

impl<W: Write> PcapngWriter<W> {
    /// A writer to `out`; nothing is written before the first record.
    pub fn new(out: W) -> Self {
        PcapngWriter {
            out,
            section: None,
            interfaces: 0,
            records: 0,
            commented: 0,
            uncommented: 0,
        }
    }

    /// Writes what `rec` needs before it that is not written yet (its
    /// section's header, the interface descriptions read so far) and
    /// returns the record itself, owned, for [`PcapngWriter::write`]: the
    /// record can wait for its comments while the next is read.
    pub fn prepare(&mut self, rec: &Record<'_>) -> io::Result<StoredPacket> {
        let stored = &rec.stored;
        let section = stored.section;
        if self.section != Some(section.number) {
            self.section = Some(section.number);
            self.interfaces = 0;
            let options = options_of(section, BlockOf::Section, &section.options);
            let options = options.iter().map(|o| option(o.code, &o.value[..])).collect();
            self.out.write_all(&section_header(options)?)?;
        }
        for iface in section.interfaces.iter().skip(self.interfaces) {
            let options = options_of(section, BlockOf::Interface, &iface.options);
            let options = options.iter().map(|o| option(o.code, &o.value[..])).collect();
            // 6 (microseconds), the default: written only where the
            // options lack their own, so the meaning stays the same
            let linktype = Linktype(i32::from(iface.linktype));
            self.out
                .write_all(&interface_description(linktype, iface.snaplen, 6, options)?)?;
            self.interfaces += 1;
        }
        let options = match stored.kind {
            StoredKind::Enhanced => {
                let raw: Vec<RawOption> = stored
                    .options
                    .iter()
                    .map(|(code, value)| RawOption {
                        code,
                        value: value.to_vec(),
                    })
                    .collect();
                options_of(section, BlockOf::Packet, &raw)
            }
            StoredKind::Pcap | StoredKind::Simple => Vec::new(),
        };
        Ok(StoredPacket {
            number: rec.number,
            kind: stored.kind,
            interface: stored.interface,
            ts_units: stored.ts_units,
            origlen: rec.origlen,
            data: rec.data.to_vec(),
            options,
        })
    }

    /// Writes `packet` with `comments` added after the options it had.
    pub fn write(&mut self, packet: &StoredPacket, comments: &[String]) -> io::Result<()> {
        let caplen = u32::try_from(packet.data.len())
            .map_err(|_| io::Error::other(format!("record {} is larger than 4 GiB", packet.number)))?;
        if !comments.is_empty() {
            match packet.kind {
                StoredKind::Simple => self.uncommented += 1,
                StoredKind::Pcap | StoredKind::Enhanced => self.commented += 1,
            }
        }
        let bytes = match packet.kind {
            StoredKind::Simple => block_bytes(pcap_parser::SimplePacketBlock {
                block_type: 0,
                block_len1: 0,
                origlen: packet.origlen,
                data: &packet.data,
                block_len2: 0,
            })?,
            StoredKind::Pcap | StoredKind::Enhanced => {
                let mut options: Vec<PcapNGOption<'_>> =
                    packet.options.iter().map(|o| option(o.code, &o.value[..])).collect();
                options.extend(comments.iter().map(|c| option(OPT_COMMENT, comment_text(c).as_bytes())));
                block_bytes(pcap_parser::EnhancedPacketBlock {
                    block_type: 0,
                    block_len1: 0,
                    if_id: packet.interface,
                    ts_high: (packet.ts_units >> 32) as u32,
                    ts_low: packet.ts_units as u32,
                    // not set by pcap-parser's fix()
                    caplen,
                    origlen: packet.origlen,
                    data: &packet.data,
                    options,
                    block_len2: 0,
                })?
            }
        };
        self.out.write_all(&bytes)?;
        self.records += 1;
        Ok(())
    }

    /// Flushes the output and gives it back; a capture without records
    /// still gets a section header, so that the file is pcapng.
    pub fn finish(mut self) -> io::Result<W> {
        if self.section.is_none() {
            self.out.write_all(&section_header(Vec::new())?)?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
#[path = "writer_tests.rs"]
mod tests;
