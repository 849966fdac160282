//! `detect --timeline` compares each moment's answer through a fast path
//! (only the devices holding addresses are looked at): on every shipped
//! capture, after every message that changed the tables, it must equal the
//! full detection's address, interface and error.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use nlorder::capture::CaptureReader;
use nlorder::diag::Diagnostics;
use nlorder::ingest::rebuild::watch;
use nlorder::ingest::trace::TraceOptions;
use nlorder::model::ModelOptions;
use nlorder::replay::calico::{CalicoNode, Method, Options, Spec};
use nlorder::replay::{Family, MethodSpec};

fn spec(text: &str, family: Family) -> MethodSpec {
    let options = Options {
        family,
        ..Options::default()
    };
    MethodSpec::of::<CalicoNode>(Spec {
        text: text.to_owned(),
        method: Method::parse(text, options.version),
        options,
    })
}

#[test]
fn the_fast_outcome_is_the_full_detections_on_every_capture() {
    let methods = [
        "first-found",
        "interface=eth.*,ens.*",
        "skip-interface=eth0,nerdctl.*",
        "cidr=10.0.0.0/8,fd00::/8",
        "interface=nothing-matches",
    ];
    let mut compared = 0usize;
    for path in common::all_captures() {
        for text in methods {
            for family in [Family::V4, Family::V6] {
                let spec = spec(text, family);
                let file = std::fs::File::open(&path).unwrap();
                let Ok(mut reader) = CaptureReader::new(Box::new(file)) else {
                    continue;
                };
                let mut diags = Diagnostics::default();
                let key = |m: &nlorder::model::Model| {
                    let fast = spec.outcome(m);
                    let d = spec.detect(m);
                    assert_eq!(
                        fast,
                        (d.address, d.interface, d.error),
                        "{} {text} IPv{family}",
                        path.display()
                    );
                    compared += 1;
                    fast
                };
                let _ = watch(
                    &mut reader,
                    TraceOptions::default(),
                    ModelOptions::default(),
                    &mut diags,
                    key,
                    |_| (),
                );
            }
        }
    }
    assert!(compared > 1000, "only {compared} moments compared");
}
