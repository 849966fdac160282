//! `table` throughput: the whole path from capture bytes to the rebuilt
//! kernel model, on captures built by repeating real kernel records (in
//! memory). Two mixes: all fixtures (dumps and notifications) and route
//! churn alone (small notification records, the worst case per byte).

use std::io::Cursor;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nlorder::capture::CaptureReader;
use nlorder::diag::Diagnostics;
use nlorder::model::ModelOptions;
use nlorder::rebuild::rebuild;
use nlorder::trace::TraceOptions;

fn repeat(names: &[&str], target: usize) -> Vec<u8> {
    let mut records = Vec::new();
    let mut header = Vec::new();
    for name in names {
        let data = std::fs::read(format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).expect("fixture");
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

fn table(c: &mut Criterion) {
    let mut g = c.benchmark_group("table");
    g.sample_size(10);
    for (name, mix) in [
        (
            "mixed fixtures",
            &["route-churn.pcap", "notify-addr.pcap", "notify-link.pcap", "basic.pcap"][..],
        ),
        ("route churn", &["route-churn.pcap"][..]),
    ] {
        let data = repeat(mix, 32 << 20);
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut reader = CaptureReader::new(Cursor::new(&data[..])).expect("capture");
                let mut diags = Diagnostics::default();
                let r = rebuild(
                    &mut reader,
                    TraceOptions::default(),
                    ModelOptions::default(),
                    None,
                    &mut diags,
                    &mut (),
                )
                .expect("readable");
                r.model.links().len()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, table);
criterion_main!(benches);
