//! Decode throughput on a capture built by repeating real fixture records
//! (in memory; nothing is written to disk). Reports MB/s for the decoding
//! pipeline alone and with each printer.

use std::io::Cursor;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nlorder::capture::CaptureReader;
use nlorder::diag::Diagnostics;
use nlorder::report::decode::{JsonLinesPrinter, MessagePrinter, TextPrinter};
use nlorder::report::style::Style;
use nlorder::trace::{TraceOptions, read_trace};

/// Repeats the records of little-endian pcap fixtures up to `target` bytes.
fn big_capture(target: usize) -> Vec<u8> {
    let mut records: Vec<Vec<u8>> = Vec::new();
    let mut header = Vec::new();
    for name in ["basic.pcap", "notify-link.pcap", "notify-addr.pcap"] {
        let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        let data = std::fs::read(&path).expect("fixture");
        header = data[..24].to_vec();
        let mut off = 24;
        while off + 16 <= data.len() {
            let caplen = u32::from_le_bytes(data[off + 8..off + 12].try_into().expect("4")) as usize;
            records.push(data[off..off + 16 + caplen].to_vec());
            off += 16 + caplen;
        }
    }
    let mut out = header;
    while out.len() < target {
        for r in &records {
            out.extend_from_slice(r);
        }
    }
    out
}

fn run(data: &[u8], mut each: impl FnMut(&nlorder::trace::TraceMessage<'_>)) -> u64 {
    let mut reader = CaptureReader::new(Cursor::new(data)).expect("capture");
    let mut diags = Diagnostics::default();
    let stats = read_trace(&mut reader, TraceOptions::default(), &mut diags, |m| {
        each(m);
        true
    })
    .expect("readable");
    stats.messages
}

fn decode(c: &mut Criterion) {
    let data = big_capture(16 << 20);
    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    g.bench_function("trace (capture+framing+compact decode)", |b| {
        b.iter(|| run(&data, |_| {}))
    });
    g.bench_function("json lines", |b| {
        b.iter(|| {
            let mut p = JsonLinesPrinter::new(std::io::sink(), false);
            run(&data, |m| p.message(m).expect("sink"))
        })
    });
    g.bench_function("text", |b| {
        b.iter(|| {
            let mut p = TextPrinter::new(std::io::sink(), Style::plain(), false);
            run(&data, |m| p.message(m).expect("sink"))
        })
    });
    g.finish();
}

criterion_group!(benches, decode);
criterion_main!(benches);
