//! Unit tests of `diag`.

use super::*;

#[test]
fn bounded() {
    let mut d = Diagnostics::default();
    for i in 0..(Diagnostics::KEEP as u64 + 5) {
        d.push(Diagnostic::record(i, i, "x"));
    }
    assert_eq!(d.iter().count(), Diagnostics::KEEP);
    assert_eq!(d.dropped(), 5);
    assert_eq!(d.len(), Diagnostics::KEEP as u64 + 5);
}

#[test]
fn display_names_packet_and_offset() {
    let d = Diagnostic::record(7, 1234, "nlmsg_len 0 is below 16");
    assert_eq!(d.to_string(), "packet 7 (byte offset 1234): nlmsg_len 0 is below 16");
}
