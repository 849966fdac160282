//! In-tree fuzzing: random mutations of real fixtures must never panic any
//! layer: the reader, link header, framing, both decoders and their
//! printers (many cases), and the model, the replays and their printers
//! (fewer cases: in a debug build they cost some 30 ms each).
//! The coverage-guided version of the same harness is `fuzz/` (cargo fuzz).
//! Both run the library's own requests (`nlorder::app`), the ones the
//! command line runs, over the bytes.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use nlorder::app::selection::Selection;
use nlorder::app::settings::DetectSettings;
use nlorder::app::{self, Console, Format, Source};
use nlorder::filter::Field;
use nlorder::ingest::rebuild::{At, AtSpec};
use nlorder::replay::gai::Resolver;
use proptest::prelude::*;

/// A filter that reads every field of a listing, and every field as a
/// column.
fn every_field(fields: &'static [Field]) -> Selection {
    let names: Vec<&str> = fields.iter().map(|f| f.name()).collect();
    let filter = names
        .iter()
        .map(|n| format!("{n} || !{n}"))
        .collect::<Vec<_>>()
        .join(" && ");
    Selection::parse(Some(&filter), &[names.join(",")], Some(1000), fields).expect("a filter of every field")
}

/// `decode` over the bytes, both printers; how many messages it printed.
fn decoders(capture: &Source) -> u64 {
    let mut text = Vec::new();
    let request = |format| app::decode::Decode {
        capture: capture.clone(),
        format,
        attrs: true,
        selection: Default::default(),
    };
    let _ = request(Format::Text).run(&Console::quiet(), &mut text);
    let _ = app::decode::Decode {
        selection: every_field(Field::MESSAGE),
        ..request(Format::Text)
    }
    .run(&Console::quiet(), &mut std::io::sink());
    let mut json = Vec::new();
    let _ = request(Format::Json).run(&Console::quiet(), &mut json);
    json.iter().filter(|&&b| b == b'\n').count() as u64
}

/// Every subcommand's request over the bytes, both formats: the decoders,
/// `who`, the model (`table`, at the end and at a packet; `timeline`), the
/// replays (Calico, kubelet, flannel, every method side by side, after
/// every change and at every look) and getaddrinfo's three resolvers.
/// Returns how many messages `decode` printed.
fn every_request(data: &[u8]) -> u64 {
    let capture = Source::Bytes(data.into());
    let decoded = decoders(&capture);
    let (console, model, mut out) = (Console::quiet(), Default::default(), std::io::sink());
    // annotate writes what it read back: a capture that reads again
    let mut annotated = Vec::new();
    let annotate = app::annotate::Annotate {
        capture: capture.clone(),
        model,
        output: "-".into(),
    };
    if annotate.run(&console, &mut annotated).is_ok() {
        let mut diags = nlorder::diag::Diagnostics::default();
        nlorder::capture::CaptureReader::new(std::io::Cursor::new(annotated))
            .and_then(|mut r| r.for_each_record(&mut diags, |_, _| true))
            .expect("annotate's output reads");
    }
    for format in [Format::Text, Format::Json] {
        for selection in [Default::default(), every_field(Field::REQUEST)] {
            let _ = app::who::Who {
                capture: capture.clone(),
                format,
                selection,
            }
            .run(&console, &mut out);
        }
        // With no message decoded every rebuild refuses the capture: the
        // requests below would only compile their methods' patterns (slow
        // in a debug build) to be refused (`thin.rs` checks the refusals).
        if decoded == 0 {
            continue;
        }
        for selection in [Default::default(), every_field(Field::CHANGE)] {
            let _ = app::timeline::Timeline {
                capture: capture.clone(),
                model,
                format,
                selection,
            }
            .run(&console, &mut out);
        }
        for at in [None, Some(At::Packet(decoded / 2))] {
            let table = app::table::Table {
                capture: capture.clone(),
                model,
                at,
                family: None,
                format: format.into(),
            };
            let _ = table.run(&console, &mut out);
        }
        let ip_json = app::table::Table {
            capture: capture.clone(),
            model,
            at: None,
            family: None,
            format: app::table::TableFormat::IpJson(Vec::new()),
        };
        let _ = ip_json.run(&console, &mut out);
        for (method, all, timeline, at) in [
            ("first-found", false, false, None),
            ("kubelet", false, false, Some(AtSpec::Auto)),
            ("flannel", false, true, None),
            ("can-reach=10.0.0.1", true, false, None),
            ("first-found", false, true, None),
        ] {
            let nodes = vec![app::detect::Node {
                name: "n".into(),
                capture: capture.clone(),
            }];
            let settings = DetectSettings {
                method: method.into(),
                ..DetectSettings::default()
            };
            let (installation, all_looks) = (None, at.is_some());
            let detect = app::detect::Detect {
                brief: false,
                nodes,
                settings,
                installation,
                model,
                at,
                timeline,
                all,
                all_looks,
                format,
                jobs: Some(1),
            };
            let _ = detect.run(&console, &mut out);
        }
        for (resolver, timeline, at) in [
            (Resolver::Glibc, false, Some(AtSpec::Auto)),
            (Resolver::Go, true, None),
            (Resolver::Musl, false, None),
        ] {
            let gai = app::gai::Gai {
                capture: capture.clone(),
                addrs: vec!["10.0.0.1".parse().expect("ip"), "fe80::1".parse().expect("ip")],
                hosts: None,
                model,
                resolver,
                gai_conf: None,
                at,
                all_looks: false,
                timeline,
                sources: Vec::new(),
                observed: vec!["fe80::1".parse().expect("ip")],
                observed_file: None,
                format,
            };
            let _ = gai.run(&console, &mut out);
        }
    }
    decoded
}

fn seeds() -> Vec<Vec<u8>> {
    [
        "basic.pcap",
        "pcapng/basic.pcapng",
        "requests.pcap",
        "rtgen-nanos.pcap",
        "third-party/pyroute2__nl0.pcap",
        "third-party/xtcp2__6_10_3__6_10_3_tcp_10_sockets.pcap",
    ]
    .iter()
    .map(|n| std::fs::read(common::fixture(n)).expect("fixture"))
    .collect()
}

#[derive(Debug, Clone)]
enum Mutation {
    /// Overwrite 4 bytes at a position with a value (lengths, counts, magics).
    Word(usize, u32),
    /// Flip one byte.
    Byte(usize, u8),
    /// Cut the file.
    Truncate(usize),
    /// Duplicate a slice somewhere else.
    Splice(usize, usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let word = prop_oneof![
        Just(0u32),
        Just(u32::MAX),
        Just(16),
        Just(17),
        Just(0x8000_0000),
        any::<u32>()
    ];
    prop_oneof![
        (any::<usize>(), word).prop_map(|(a, w)| Mutation::Word(a, w)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Byte(a, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 0usize..200, any::<usize>()).prop_map(|(a, l, b)| Mutation::Splice(a, l, b)),
    ]
}

fn apply(mut data: Vec<u8>, muts: &[Mutation]) -> Vec<u8> {
    for m in muts {
        if data.is_empty() {
            break;
        }
        let len = data.len();
        match *m {
            Mutation::Word(at, w) => {
                let at = at % len;
                for (i, b) in w.to_le_bytes().iter().enumerate() {
                    if let Some(x) = data.get_mut(at + i) {
                        *x = *b;
                    }
                }
            }
            Mutation::Byte(at, b) => data[at % len] ^= b | 1,
            Mutation::Truncate(at) => data.truncate(at % len),
            Mutation::Splice(from, l, to) => {
                let from = from % len;
                let piece: Vec<u8> = data[from..(from + l).min(len)].to_vec();
                let to = to % len;
                data.splice(to..to, piece);
            }
        }
    }
    data
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_never_panic(seed in 0usize..6, muts in proptest::collection::vec(mutation(), 1..6)) {
        let seeds = seeds();
        let data = apply(seeds[seed % seeds.len()].clone(), &muts);
        decoders(&Source::Bytes(data.into()));
    }

    #[test]
    fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        every_request(&data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_never_panic_in_the_model_or_replays(
        seed in 0usize..6,
        muts in proptest::collection::vec(mutation(), 1..6),
    ) {
        let seeds = seeds();
        let data = apply(seeds[seed % seeds.len()].clone(), &muts);
        every_request(&data);
    }
}

#[test]
fn timestamps_beyond_year_9999_print() {
    // Found by mutated_fixtures_never_panic: humantime's Display panics past
    // 9999-12-31; a pcapng timestamp with the high word set gets there.
    let mut ng = std::fs::read(common::fixture("pcapng/basic.pcapng")).expect("read");
    let shb = u32::from_le_bytes(ng[4..8].try_into().expect("4")) as usize;
    let idb = u32::from_le_bytes(ng[shb + 4..shb + 8].try_into().expect("4")) as usize;
    let epb = shb + idb;
    ng[epb + 12..epb + 16].copy_from_slice(&0xffff_ff00u32.to_le_bytes()); // ts_high
    assert!(every_request(&ng) > 0);
}

#[test]
fn unmutated_seeds_decode_messages() {
    // The harness really reaches the decoders (a harness that returns early
    // everywhere would pass the properties above trivially).
    let decoded: Vec<u64> = seeds().iter().map(|d| every_request(d)).collect();
    assert!(decoded[..5].iter().all(|&n| n > 10), "{decoded:?}");
    assert_eq!(decoded[5], 0, "sock_diag records are not route messages");
}
