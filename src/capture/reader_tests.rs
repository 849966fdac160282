//! Unit tests of `reader`.

use super::*;

/// Hands out at most `n` bytes per `read()`, like a slow pipe.
struct Trickle<R>(R, usize);
impl<R: Read> Read for Trickle<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.1);
        self.0.read(&mut buf[..n])
    }
}

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn count(bytes: Vec<u8>, trickle: usize) -> (u64, usize) {
    let mut diags = Diagnostics::default();
    let mut r = CaptureReader::new(Trickle(io::Cursor::new(bytes), trickle)).expect("open");
    let mut n = 0;
    let mut total = 0;
    r.for_each_record(&mut diags, |rec, _| {
        n = rec.number;
        total += rec.data.len();
        true
    })
    .expect("read");
    (n, total)
}

#[test]
fn short_reads_do_not_break_the_format_probe() {
    // pcap-parser alone fails here ("Incomplete read" / HeaderNotRecognized).
    let whole = count(fixture("third-party/pyroute2__nl0.pcap"), usize::MAX);
    assert_eq!(whole.0, 19);
    assert_eq!(count(fixture("third-party/pyroute2__nl0.pcap"), 7), whole);
    let ng = fixture("pcapng/pyroute2__nl0.pcapng");
    assert_eq!(count(ng, 23), whole);
}

#[test]
fn binary_and_decimal_resolutions() {
    assert_eq!(ts_units(6), 1_000_000);
    assert_eq!(ts_units(9), 1_000_000_000);
    assert_eq!(ts_units(0x8a), 1024);
    assert_eq!(ts_units(0x7f), 1_000_000, "10^127 overflows: default");
    let iface = Interface {
        linktype: 253,
        snaplen: 0,
        units: 1024,
        offset_secs: 100,
    };
    assert_eq!(
        ng_ts(1024 * 5 + 512, &iface),
        Timestamp {
            secs: 105,
            nanos: 500_000_000
        }
    );
}

#[test]
fn tsoffset_follows_section_byte_order() {
    let value = 100i64.to_be_bytes();
    let opt = pcap_parser::PcapNGOption {
        code: pcap_parser::OptionCode(14),
        len: 8,
        value: std::borrow::Cow::Borrowed(&value[..]),
    };
    assert_eq!(ts_offset(std::slice::from_ref(&opt), true), 100);
    assert_ne!(ts_offset(std::slice::from_ref(&opt), false), 100);
}

#[test]
fn non_captures_are_refused() {
    let garbage = fixture("third-party/nldecap__garbage");
    let mut diags = Diagnostics::default();
    let err = CaptureReader::new(io::Cursor::new(garbage))
        .and_then(|mut r| r.for_each_record(&mut diags, |_, _| true))
        .expect_err("garbage must not read");
    assert_eq!(err.to_string(), "not a pcap/pcapng file");
    let err = CaptureReader::new(io::Cursor::new(Vec::new())).err().expect("empty");
    assert!(err.to_string().contains("not a pcap/pcapng file"));
}
