//! Shared by the benches: captures built by repeating real fixture records.
// Benches run on known fixtures: a panic is a broken setup and stops the run, as it should.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

/// Repeats the records of little-endian pcap fixtures up to `target` bytes
/// (in memory; nothing is written to disk).
pub fn repeat(names: &[&str], target: usize) -> Vec<u8> {
    let mut records: Vec<Vec<u8>> = Vec::new();
    let mut header = Vec::new();
    for name in names {
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
