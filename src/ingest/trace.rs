//! A capture as a stream of decoded NETLINK_ROUTE messages.
//!
//! Contract: [`read_trace`] joins the capture reader, the link-layer header,
//! byte-order detection, message framing and the compact decoder, and hands
//! each message to a visitor in capture order with its packet number and
//! byte offset ([`read_trace_records`] also hands it every record, skipped
//! ones included, once its messages are visited, with what reading it
//! met). Memory is bounded by one record; everything skipped is
//! counted in [`TraceStats`] and explained in the diagnostics.
//!
//! Byte order is decided once per capture (a capture comes from one host),
//! from the first netlink record, with Wireshark's rule; it can be forced.

use std::collections::BTreeMap;

use crate::capture::{self, CaptureReader, NotNetlink, Record, Timestamp, netlink_frame};
use crate::diag::{Diagnostic, Diagnostics};
use crate::netlink::names::NETLINK_ROUTE;
use crate::netlink::{Body, ByteOrder, Decoded, Message, Messages, decode_into};

/// How the netlink byte order was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OrderSource {
    /// Guessed from the first netlink record's `nlmsg_len`.
    Detected,
    /// Given by [`TraceOptions::byte_order`].
    Forced,
}

/// How to read a capture's netlink messages.
#[derive(Debug, Clone, Copy, Default)]
pub struct TraceOptions {
    /// Force the netlink byte order instead of detecting it.
    pub byte_order: Option<ByteOrder>,
}

/// Counts of what was read and what was skipped.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct TraceStats {
    /// Packet records in the file.
    pub records: u64,
    /// Records with a netlink link-layer header (any netlink protocol).
    pub netlink_records: u64,
    /// Of those, records of NETLINK_ROUTE, the ones decoded.
    pub route_records: u64,
    /// NETLINK_ROUTE messages framed and handed to the visitor.
    pub messages: u64,
    /// Messages kept although something in them was wrong.
    pub messages_with_problems: u64,
    /// Records whose message framing broke (bad nlmsg_len) before their end.
    pub framing_errors: u64,
    /// NETLINK_ROUTE records captured shorter than the packet was (snaplen);
    /// their complete messages are still read.
    pub truncated_records: u64,
    /// Records skipped because their link type is not netlink, by link type.
    pub skipped_link_type: BTreeMap<u32, u64>,
    /// Netlink records skipped because they are not NETLINK_ROUTE, by
    /// netlink protocol.
    pub skipped_family: BTreeMap<u16, u64>,
    /// Cooked (SLL, SLL2) records skipped because they are not from a
    /// netlink device.
    pub skipped_not_netlink_hatype: u64,
    /// Records skipped because they are shorter than their link-layer header.
    pub skipped_short: u64,
    /// The byte order the netlink data was read in; `None` when no record
    /// needed one.
    pub byte_order: Option<ByteOrder>,
    /// How `byte_order` was chosen.
    pub byte_order_source: Option<OrderSource>,
}

impl TraceStats {
    /// Records skipped for their link type (not netlink at all).
    pub fn skipped_link_types(&self) -> u64 {
        self.skipped_link_type.values().sum::<u64>()
    }

    /// Records skipped for any reason.
    pub fn skipped_records(&self) -> u64 {
        self.skipped_link_type.values().sum::<u64>()
            + self.skipped_family.values().sum::<u64>()
            + self.skipped_not_netlink_hatype
            + self.skipped_short
    }
}

/// One NETLINK_ROUTE message of the capture.
#[derive(Debug, Clone)]
pub struct TraceMessage<'a> {
    /// 1-based record number.
    pub packet: u64,
    /// When its record was captured; `None` when the record has no time.
    pub ts: Option<Timestamp>,
    /// Byte offset of the message in the (decompressed) input stream.
    pub offset: u64,
    /// Index of the message within its record (0-based).
    pub index_in_record: u32,
    /// The framed message, header and raw payload.
    pub message: Message<'a>,
    /// The message decoded.
    pub decoded: Decoded<'a>,
    /// The capturing host's OS as the capture's section header names it.
    pub os: Option<&'a str>,
    /// The application that wrote the record's section (`shb_userappl`).
    pub app: Option<&'a str>,
    /// The pcapng section the record belongs to (1-based; 1 for pcap): a
    /// new section is another capture appended to the file.
    pub section: u32,
}

/// Why a record's bytes were not read as NETLINK_ROUTE messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skipped {
    /// It holds no netlink data (another link type, a cooked header of
    /// another device, too short for its header).
    NotNetlink(NotNetlink),
    /// Netlink of another protocol (NETLINK_ROUTE is 0).
    Protocol(u16),
}

/// What reading one record met, for a [`Visitor`] that follows records.
#[derive(Debug, Default)]
pub struct RecordRead {
    /// Why its bytes were not read, when they were not.
    pub skipped: Option<Skipped>,
    /// The problems reading it met (framing, truncation, decoding, byte
    /// order), in order; they also go to the trace's diagnostics.
    pub problems: Diagnostics,
    /// The NETLINK_ROUTE messages it held.
    pub messages: u32,
}

/// Follows a trace message by message and, if it wants, record by record.
pub trait Visitor {
    /// One NETLINK_ROUTE message, in capture order; `false` stops the walk.
    fn message(&mut self, m: &TraceMessage<'_>) -> bool;
    /// A record, once its messages were visited (every record the capture
    /// reader hands out, skipped ones included); `false` stops the walk.
    fn record(&mut self, _rec: &Record<'_>, _read: &RecordRead) -> bool {
        true
    }
}

/// A visitor of messages alone.
struct MessagesOnly<F>(F);

impl<F: FnMut(&TraceMessage<'_>) -> bool> Visitor for MessagesOnly<F> {
    fn message(&mut self, m: &TraceMessage<'_>) -> bool {
        (self.0)(m)
    }
}

/// Streams every NETLINK_ROUTE message of a capture to `visit`, which may
/// stop the walk by returning `false`.
pub fn read_trace<F>(
    reader: &mut CaptureReader<'_>,
    options: TraceOptions,
    diags: &mut Diagnostics,
    visit: F,
) -> Result<TraceStats, capture::Error>
where
    F: FnMut(&TraceMessage<'_>) -> bool,
{
    read_trace_records(reader, options, diags, &mut MessagesOnly(visit))
}

/// [`read_trace`], every record also handed to `visitor` once its
/// messages were.
pub fn read_trace_records(
    reader: &mut CaptureReader<'_>,
    options: TraceOptions,
    diags: &mut Diagnostics,
    visitor: &mut impl Visitor,
) -> Result<TraceStats, capture::Error> {
    let mut stats = TraceStats {
        byte_order: options.byte_order,
        byte_order_source: options.byte_order.map(|_| OrderSource::Forced),
        ..TraceStats::default()
    };
    let mut warned_order = false;
    reader.for_each_record(diags, |rec, diags| {
        stats.records += 1;
        let mut read = RecordRead::default();
        let mut go_on = read_record(rec, &mut stats, &mut warned_order, &mut read, visitor);
        if go_on {
            go_on = visitor.record(rec, &read);
        }
        diags.append(read.problems);
        go_on
    })?;
    Ok(stats)
}

/// One record: its messages to `visitor`, what it met into `read`.
fn read_record(
    rec: &Record<'_>,
    stats: &mut TraceStats,
    warned_order: &mut bool,
    read: &mut RecordRead,
    visitor: &mut impl Visitor,
) -> bool {
    let diags = &mut read.problems;
    let frame = match netlink_frame(rec.linktype, rec.data) {
        Ok(f) => f,
        Err(why) => {
            match why {
                NotNetlink::LinkType(t) => *stats.skipped_link_type.entry(t).or_default() += 1,
                NotNetlink::HaType(_) => stats.skipped_not_netlink_hatype += 1,
                NotNetlink::Short { .. } => {
                    stats.skipped_short += 1;
                    diags.push(Diagnostic::record(rec.number, rec.offset, why.to_string()));
                }
            }
            read.skipped = Some(Skipped::NotNetlink(why));
            return true;
        }
    };
    stats.netlink_records += 1;
    let reported = u64::from(rec.origlen).saturating_sub(frame.header_len as u64);
    let order = match stats.byte_order {
        Some(o) => o,
        None => match ByteOrder::guess(frame.payload, reported) {
            Some(o) => {
                stats.byte_order = Some(o);
                stats.byte_order_source = Some(OrderSource::Detected);
                o
            }
            None => ByteOrder::native(),
        },
    };
    if frame.family != NETLINK_ROUTE {
        *stats.skipped_family.entry(frame.family).or_default() += 1;
        read.skipped = Some(Skipped::Protocol(frame.family));
        return true;
    }
    stats.route_records += 1;
    if !*warned_order && !order.plausible(frame.payload, reported) {
        let other = match order {
            ByteOrder::Little => ByteOrder::Big,
            ByteOrder::Big => ByteOrder::Little,
        };
        if other.plausible(frame.payload, reported) {
            *warned_order = true;
            diags.push(Diagnostic::record(
                rec.number,
                rec.offset,
                format!(
                    "netlink data looks {other:?}-endian, unlike the capture's first record; \
                     decoding as {order:?} (use --netlink-endian to override)"
                )
                .to_lowercase(),
            ));
        }
    }
    let (go_on, messages) = visit_record(rec, frame.payload, frame.header_len, order, stats, diags, visitor);
    read.messages = messages;
    go_on
}

fn visit_record(
    rec: &Record<'_>,
    payload: &[u8],
    header_len: usize,
    order: ByteOrder,
    stats: &mut TraceStats,
    diags: &mut Diagnostics,
    visitor: &mut impl Visitor,
) -> (bool, u32) {
    let truncated = rec.is_truncated();
    if truncated {
        stats.truncated_records += 1;
    }
    let base = rec.data_offset + header_len as u64;
    let mut index = 0u32;
    let mut truncation_reported = false;
    for item in Messages::new(payload, order) {
        match item {
            Ok(message) => {
                // Decoded straight into its place: a decoded message is a
                // few hundred bytes, and moving it costs a copy per message.
                let mut tm = TraceMessage {
                    packet: rec.number,
                    ts: rec.ts,
                    offset: base + message.offset as u64,
                    index_in_record: index,
                    decoded: Decoded {
                        header: message.header,
                        body: Body::Other,
                        problem: None,
                    },
                    message,
                    os: rec.os,
                    app: rec.app,
                    section: rec.stored.section.number,
                };
                decode_into(&tm.message, &mut tm.decoded);
                stats.messages += 1;
                if let Some(p) = &tm.decoded.problem {
                    stats.messages_with_problems += 1;
                    diags.push(Diagnostic::record(
                        rec.number,
                        tm.offset,
                        format!("{}: {p}", crate::netlink::names::message_type(tm.message.header.kind)),
                    ));
                }
                index += 1;
                if !visitor.message(&tm) {
                    return (false, index);
                }
            }
            Err(e) if truncated => {
                truncation_reported = true;
                diags.push(truncation(rec, base + e.offset() as u64, index));
            }
            Err(e) => {
                stats.framing_errors += 1;
                diags.push(Diagnostic::record(rec.number, base + e.offset() as u64, e.to_string()));
            }
        }
    }
    if truncated && !truncation_reported {
        diags.push(truncation(rec, base + payload.len() as u64, index));
    }
    (true, index)
}

fn truncation(rec: &Record<'_>, at: u64, decoded: u32) -> Diagnostic {
    let missing = u64::from(rec.origlen).saturating_sub(rec.data.len() as u64);
    Diagnostic::record(
        rec.number,
        at,
        format!(
            "record truncated (captured {} of {} bytes, {missing} missing): \
             {decoded} complete messages decoded, the rest skipped",
            rec.data.len(),
            rec.origlen
        ),
    )
}
