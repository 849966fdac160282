//! Decode throughput on a capture built by repeating real fixture records
//! (in memory; nothing is written to disk). Reports MB/s for the decoding
//! pipeline alone and with each printer.
// Benches run on known fixtures: a panic is a broken setup and stops the run, as it should.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::io::Cursor;

#[path = "common.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nlorder::capture::CaptureReader;
use nlorder::diag::Diagnostics;
use nlorder::ingest::trace::{TraceOptions, read_trace};
use nlorder::report::Print;
use nlorder::report::decode::{JsonMessages, LinkNames, MessageFields, TextMessages};
use nlorder::report::style::Style;

fn run(data: &[u8], mut each: impl FnMut(&nlorder::ingest::trace::TraceMessage<'_>)) -> u64 {
    let mut reader = CaptureReader::new(Cursor::new(data)).expect("capture");
    let mut diags = Diagnostics::default();
    let stats = read_trace(&mut reader, TraceOptions::default(), &mut diags, |m| {
        each(m);
        true
    })
    .expect("readable");
    stats.messages
}

/// Decodes `data` and prints every message with `printer` (to nowhere),
/// naming links as `decode` does.
fn print_all(data: &[u8], mut printer: impl for<'a, 'b> Print<MessageFields<'a, 'b>>) -> u64 {
    let mut names = LinkNames::default();
    run(data, |m| {
        names.learn(&m.decoded.body, m.decoded.header.kind);
        let m = MessageFields {
            message: m,
            names: &names,
        };
        printer.print(&m, &mut std::io::sink()).expect("sink")
    })
}

fn decode(c: &mut Criterion) {
    let data = common::repeat(&["basic.pcap", "notify-link.pcap", "notify-addr.pcap"], 16 << 20);
    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    g.bench_function("trace (capture+framing+compact decode)", |b| {
        b.iter(|| run(&data, |_| {}))
    });
    g.bench_function("json lines", |b| b.iter(|| print_all(&data, JsonMessages::new(false))));
    g.bench_function("text", |b| {
        b.iter(|| print_all(&data, TextMessages::new(Style::plain(), false)))
    });
    g.finish();
}

criterion_group!(benches, decode);
criterion_main!(benches);
