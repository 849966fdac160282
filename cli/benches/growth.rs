//! Growth with the size of the tables: the cost per message of `table`,
//! `timeline`, `detect` and `detect --timeline` on big-host captures of two
//! sizes each, through the same library calls the CLI makes (printing left
//! out). If the cost per message does not depend on the table size, the
//! elements/s of both sizes of a group agree.
//!
//! The captures are recorded on this host by `scripts/scale-captures.sh`,
//! not committed: they are looked for in `$NLORDER_SCALE_DIR` (default
//! `target/scale-captures/`), and made there when missing and running as
//! root. A shape without a capture is not measured.
//!
//! Groups: `pods` (100 and 1000 Calico pods), `routes` (100k and 1M BGP
//! routes learnt one by one), `dump` (a dump of 1M routes). Filter with
//! criterion's usual argument, e.g. `cargo bench --bench growth -- pods/`.
// Benches run on known captures: a panic is a broken setup and stops the run, as it should.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use nlorder::app::settings::DetectSettings;
use nlorder::capture::CaptureReader;
use nlorder::diag::Diagnostics;
use nlorder::ingest::rebuild::{Rebuilt, rebuild, watch};
use nlorder::ingest::trace::{TraceOptions, read_trace};
use nlorder::model::{ChangeSink, Event, ModelOptions};
use nlorder::replay::MethodSpec;
use nlorder::replay::verdict::Choice;

/// Each group and the shapes it compares.
const GROUPS: [(&str, &[&str]); 3] = [
    ("pods", &["pods-100", "pods-1000"]),
    ("routes", &["bgp-100000", "bgp-1000000"]),
    ("dump", &["bgpdump-1000000"]),
];

fn scale_dir() -> PathBuf {
    match std::env::var_os("NLORDER_SCALE_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/scale-captures"),
    }
}

fn capture_path(dir: &Path, shape: &str) -> PathBuf {
    dir.join(format!("{shape}.pcap"))
}

fn present(dir: &Path, shape: &str) -> bool {
    std::fs::metadata(capture_path(dir, shape)).is_ok_and(|m| m.len() > 0)
}

/// Records the missing captures when running as root (one run of the
/// script for all of them: the 1M routes are installed once for both the
/// notified and the dumped capture).
fn make_missing(dir: &Path) {
    let missing: Vec<&str> = GROUPS
        .iter()
        .flat_map(|(_, shapes)| shapes.iter().copied())
        .filter(|s| !present(dir, s))
        .collect();
    if missing.is_empty() || !nix::unistd::geteuid().is_root() {
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/scale-captures.sh");
    eprintln!(
        "growth: recording {} into {} (minutes for the 1M routes)",
        missing.join(" "),
        dir.display()
    );
    let status = Command::new(&script)
        .arg(env!("CARGO_BIN_EXE_nlorder"))
        .arg(dir)
        .args(&missing)
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => eprintln!("growth: {} failed ({s})", script.display()),
        Err(e) => eprintln!("growth: cannot run {}: {e}", script.display()),
    }
}

fn reader(data: &[u8]) -> CaptureReader<'_> {
    CaptureReader::new(Cursor::new(data)).expect("capture")
}

/// The messages of a capture, decoded without the model (cheap even where
/// the model is slow, and for groups a filter leaves out).
fn messages(data: &[u8]) -> u64 {
    let mut diags = Diagnostics::default();
    read_trace(&mut reader(data), TraceOptions::default(), &mut diags, |_| true)
        .expect("readable")
        .messages
}

/// A rebuild of the whole capture into `sink`.
fn rebuilt<S: ChangeSink>(data: &[u8], sink: &mut S) -> Rebuilt {
    let mut diags = Diagnostics::default();
    rebuild(
        &mut reader(data),
        TraceOptions::default(),
        ModelOptions::default(),
        None,
        &mut diags,
        sink,
    )
    .expect("readable")
}

/// `nlorder table`: a rebuild with no change sink.
fn table(data: &[u8]) -> Rebuilt {
    rebuilt(data, &mut ())
}

/// `nlorder timeline`: a rebuild whose every change is collected (the
/// printer's work left out).
fn timeline(data: &[u8]) -> usize {
    let mut events: Vec<Event> = Vec::new();
    rebuilt(data, &mut events);
    events.len()
}

/// `nlorder detect`: Calico first-found on the tables at the end.
fn detect(data: &[u8], spec: &MethodSpec) -> bool {
    let rebuilt = table(data);
    spec.detect(&rebuilt.model).address.is_some()
}

/// `nlorder detect --timeline`: Calico first-found after every change.
fn detect_timeline(data: &[u8], spec: &MethodSpec) -> usize {
    let mut diags = Diagnostics::default();
    let key = |m: &nlorder::model::Model| spec.outcome(m);
    let eval = |m: &nlorder::model::Model| Choice(spec.detect(m));
    let (flips, _) = watch(
        &mut reader(data),
        TraceOptions::default(),
        ModelOptions::default(),
        &mut diags,
        key,
        eval,
    )
    .expect("readable");
    flips.len()
}

fn growth(c: &mut Criterion) {
    let dir = scale_dir();
    make_missing(&dir);
    let spec = DetectSettings::default().spec("node").expect("first-found");
    for (group, shapes) in GROUPS {
        let mut g = c.benchmark_group(group);
        g.sample_size(10);
        g.sampling_mode(SamplingMode::Flat);
        g.warm_up_time(Duration::from_secs(1));
        g.measurement_time(Duration::from_secs(5));
        for shape in shapes {
            if !present(&dir, shape) {
                println!(
                    "growth: no {} (run `sudo scripts/scale-captures.sh target/release/nlorder {}`): {group}/{shape} not measured",
                    capture_path(&dir, shape).display(),
                    dir.display()
                );
                continue;
            }
            let data = std::fs::read(capture_path(&dir, shape)).expect("capture");
            // Per message: equal figures across a group mean no growth.
            g.throughput(Throughput::Elements(messages(&data)));
            g.bench_with_input(BenchmarkId::new("table", shape), &data, |b, d| {
                b.iter(|| table(d).model.links().len())
            });
            g.bench_with_input(BenchmarkId::new("timeline", shape), &data, |b, d| {
                b.iter(|| timeline(d))
            });
            g.bench_with_input(BenchmarkId::new("detect", shape), &data, |b, d| {
                b.iter(|| detect(d, &spec))
            });
            g.bench_with_input(BenchmarkId::new("detect --timeline", shape), &data, |b, d| {
                b.iter(|| detect_timeline(d, &spec))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, growth);
criterion_main!(benches);
