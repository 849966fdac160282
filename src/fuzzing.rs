//! One entry point that drives every layer over arbitrary bytes, for the
//! fuzz targets (`fuzz/`) and the in-tree robustness tests.
//!
//! Contract: never panics, whatever `data` holds; returns how many messages
//! were decoded so callers can tell the walk went somewhere.

use crate::capture::CaptureReader;
use crate::diag::Diagnostics;
use crate::netlink::strict;
use crate::report::decode::{JsonLinesPrinter, MessagePrinter, TextPrinter};
use crate::report::style::Style;
use crate::trace::{TraceOptions, read_trace};

pub fn run_all_layers(data: &[u8]) -> u64 {
    let Ok(mut reader) = CaptureReader::new(std::io::Cursor::new(data)) else {
        return 0;
    };
    let mut diags = Diagnostics::default();
    let mut text = TextPrinter::new(std::io::sink(), Style { color: true }, true);
    let mut json = JsonLinesPrinter::new(std::io::sink(), true);
    let mut n = 0;
    let _ = read_trace(&mut reader, TraceOptions::default(), &mut diags, |m| {
        n += 1;
        let _ = text.message(m);
        let _ = json.message(m);
        if let Ok(Some(full)) = strict::decode_full(&m.message) {
            let _ = strict::cross_check(&m.decoded, &full);
        }
        true
    });
    for d in diags.iter() {
        let _ = d.to_string();
    }
    n
}
