//! Test helpers: real fixture bytes for unit tests (never hand-typed data).

use crate::capture::{CaptureReader, netlink_frame};
use crate::diag::Diagnostics;

/// The netlink bytes (link-layer header stripped) of record `packet` of
/// `fixtures/NAME`.
pub fn netlink_payload(name: &str, packet: u64) -> Vec<u8> {
    let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut reader = CaptureReader::new(file).expect("capture");
    let mut out = None;
    let mut diags = Diagnostics::default();
    reader
        .for_each_record(&mut diags, |rec, _| {
            if rec.number == packet {
                let frame = netlink_frame(rec.linktype, rec.data).expect("netlink record");
                out = Some(frame.payload.to_vec());
                return false;
            }
            true
        })
        .expect("readable");
    out.unwrap_or_else(|| panic!("{name} has no packet {packet}"))
}

/// Every netlink record's payload of a fixture, in order.
pub fn netlink_payloads(name: &str) -> Vec<Vec<u8>> {
    let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut reader = CaptureReader::new(file).expect("capture");
    let mut out = Vec::new();
    let mut diags = Diagnostics::default();
    reader
        .for_each_record(&mut diags, |rec, _| {
            if let Ok(frame) = netlink_frame(rec.linktype, rec.data) {
                out.push(frame.payload.to_vec());
            }
            true
        })
        .expect("readable");
    out
}

/// The tables at the end of `fixtures/NAME`.
pub fn fixture_model(name: &str) -> crate::model::Model {
    let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut reader = CaptureReader::new(file).expect("capture");
    crate::ingest::rebuild::rebuild_to_end(&mut reader, crate::model::ModelOptions::default())
        .expect("rebuild")
        .0
        .model
}

/// A detection's address and interface, as `detect` prints them
/// (`10.9.0.2 on eth0`); the address alone without an interface.
pub fn answered(d: &crate::replay::verdict::Detection) -> Option<String> {
    let a = d.address_text()?;
    Some(match &d.interface {
        Some(i) => format!("{a} on {i}"),
        None => a,
    })
}

/// Fails unless one of `d`'s notes, in words, contains `text`.
#[track_caller]
pub fn assert_noted(d: &crate::replay::verdict::Detection, text: &str) {
    assert!(
        d.notes.iter().any(|n| n.to_string().contains(text)),
        "no note says {text:?}: {:?}",
        d.notes
    );
}
