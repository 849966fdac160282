//! Coverage-guided fuzzing of every layer over arbitrary capture bytes,
//! through the requests the command line runs (`nlorder::app`).
//! Run: cargo +nightly fuzz run capture -- -max_total_time=120
//! Seed corpus: the project's fixtures (cp ../fixtures/*.pcap corpus/capture/).
#![no_main]

use nlorder::app::settings::DetectSettings;
use nlorder::app::{self, Console, Format, Source};
use nlorder::ingest::rebuild::AtSpec;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let (capture, console, model, mut out) = (Source::Bytes(data.into()), Console::quiet(), Default::default(), std::io::sink());
    let _ = app::annotate::Annotate { capture: capture.clone(), model, output: "-".into() }.run(&console, &mut out);
    for format in [Format::Text, Format::Json] {
        let _ = app::decode::Decode { capture: capture.clone(), format, attrs: true, selection: Default::default() }.run(&console, &mut out);
        let _ = app::who::Who { capture: capture.clone(), format, selection: Default::default() }.run(&console, &mut out);
        let _ = app::timeline::Timeline { capture: capture.clone(), model, format, selection: Default::default() }.run(&console, &mut out);
        let _ = app::table::Table { capture: capture.clone(), model, at: None, family: None, format: format.into() }.run(&console, &mut out);
        for (method, all, timeline, at) in [("first-found", false, true, None), ("kubelet", true, false, Some(AtSpec::Auto))] {
            let nodes = vec![app::detect::Node { name: "n".into(), capture: capture.clone() }];
            let settings = DetectSettings { method: method.into(), ..DetectSettings::default() };
            let detect = app::detect::Detect { nodes, settings, installation: None, model, at, timeline, all, all_looks: at.is_some(), format };
            let _ = detect.run(&console, &mut out);
        }
    }
});
