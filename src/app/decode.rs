//! `nlorder decode`: every message of a capture, printed as it is read.

use std::io::Write;

use super::{Console, Error, Format, Source, Status};
use crate::report::Print;
use crate::report::decode::{JsonMessages, TextMessages};
use crate::trace::TraceMessage;

/// Prints every message of `capture`.
#[derive(Debug, Clone)]
pub struct Decode {
    /// The capture to read.
    pub capture: Source,
    /// `ip monitor`-like text, or one JSON object per line.
    pub format: Format,
    /// Every attribute too.
    pub attrs: bool,
}

impl Decode {
    /// Prints every message of the capture to `out` as it is read, then
    /// the summary to stderr.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut session = console.open(&self.capture)?;
        let mut printer: Box<dyn for<'m> Print<TraceMessage<'m>>> = match self.format {
            Format::Text => Box::new(TextMessages::new(console.style, self.attrs)),
            Format::Json => Box::new(JsonMessages::new(self.attrs)),
        };
        let mut write_error = None;
        let (stats, diags) = session.read(console.trace, |m| {
            printer.print(m, out).map_err(|e| write_error = Some(e)).is_ok()
        })?;
        if let Some(e) = write_error {
            return Err(Error::Output(e));
        }
        out.flush()?;
        session.summary(&stats, &diags, None)?;
        Ok(Status::Success)
    }
}
