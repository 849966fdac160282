//! `table` throughput: the whole path from capture bytes to the rebuilt
//! kernel model, on captures built by repeating real kernel records (in
//! memory). Four mixes: many small hosts (every real host fixture: their
//! repeated dumps and notifications, the shape of a long recording of a
//! small host; `scripts/bench-table.sh` times the same mix as a whole
//! process), IPv6 small hosts (four hosts recorded once each, link-locals
//! and their routes on every device, each host's dumps replacing the
//! tables the previous one left: a small version of the 40 hosts
//! `scripts/bench-table.sh` records), the notification fixtures with one
//! host's dumps, and route churn alone (small notification records, the
//! worst case per byte).
// Benches run on known fixtures: a panic is a broken setup and stops the run, as it should.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::io::Cursor;

#[path = "common.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nlorder::capture::CaptureReader;
use nlorder::ingest::rebuild::rebuild_to_end;
use nlorder::model::ModelOptions;

/// Small hosts with IPv6 on every device, each a link, an address and a
/// route dump: the "IPv6 small hosts" mix.
pub const V6_HOSTS: &[&str] = &[
    "v6hosts/host00.pcap",
    "v6hosts/host01.pcap",
    "v6hosts/host02.pcap",
    "v6hosts/host03.pcap",
];

/// Every real small-host fixture: the "small hosts" mix.
pub const SMALL_HOSTS: &[&str] = &[
    "basic.pcap",
    "incident-dual-nic.pcap",
    "incident-gai-alias.pcap",
    "incident-hotplug.pcap",
    "incident-k8s-node-1.pcap",
    "incident-k8s-node-2.pcap",
    "incident-nerdctl.pcap",
    "incident-vlan-lo.pcap",
    "notify-addr.pcap",
    "notify-link.pcap",
    "notify-order.pcap",
    "route-churn.pcap",
    "two-recordings.pcap",
];

fn table(c: &mut Criterion) {
    let mut g = c.benchmark_group("table");
    g.sample_size(10);
    for (name, mix) in [
        ("small hosts", SMALL_HOSTS),
        ("IPv6 small hosts", V6_HOSTS),
        (
            "mixed fixtures",
            &["route-churn.pcap", "notify-addr.pcap", "notify-link.pcap", "basic.pcap"][..],
        ),
        ("route churn", &["route-churn.pcap"][..]),
    ] {
        let data = common::repeat(mix, 32 << 20);
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut reader = CaptureReader::new(Cursor::new(&data[..])).expect("capture");
                let (r, _) = rebuild_to_end(&mut reader, ModelOptions::default()).expect("readable");
                r.model.links().len()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, table);
criterion_main!(benches);
