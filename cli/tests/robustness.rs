//! In-tree fuzzing: random mutations of real fixtures must never panic any
//! layer: the reader, link header, framing, both decoders and their
//! printers (many cases), and the model, the replays and their printers
//! (fewer cases: in a debug build they cost some 30 ms each).
//! The coverage-guided version of the same harness is `fuzz/` (cargo fuzz).
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use proptest::prelude::*;

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
        nlorder::fuzzing::run_decoders(&data);
    }

    #[test]
    fn random_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        nlorder::fuzzing::run_all_layers(&data);
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
        nlorder::fuzzing::run_all_layers(&data);
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
    assert!(nlorder::fuzzing::run_all_layers(&ng) > 0);
}

#[test]
fn unmutated_seeds_decode_messages() {
    // The harness really reaches the decoders (a harness that returns early
    // everywhere would pass the properties above trivially).
    let decoded: Vec<u64> = seeds().iter().map(|d| nlorder::fuzzing::run_all_layers(d)).collect();
    assert!(decoded[..5].iter().all(|&n| n > 10), "{decoded:?}");
    assert_eq!(decoded[5], 0, "sock_diag records are not route messages");
}
