//! Coverage-guided fuzzing of every layer over arbitrary capture bytes.
//! Run: cargo +nightly fuzz run capture -- -max_total_time=120
//! Seed corpus: the project's fixtures (cp ../fixtures/*.pcap corpus/capture/).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    nlorder::fuzzing::run_all_layers(data);
});
