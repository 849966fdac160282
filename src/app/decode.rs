//! `nlorder decode`: every message of a capture, printed as it is read.

use std::io::Write;

use super::{Console, Error, Format, Source, Status};
use crate::report::decode::{JsonLinesPrinter, MessagePrinter, TextPrinter};

/// Prints every message of `capture`.
#[derive(Debug, Clone)]
pub struct Decode {
    pub capture: Source,
    pub format: Format,
    /// Every attribute too.
    pub attrs: bool,
}

impl Decode {
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut session = console.open(&self.capture)?;
        let mut printer: Box<dyn MessagePrinter + '_> = match self.format {
            Format::Text => Box::new(TextPrinter::new(&mut *out, console.style, self.attrs)),
            Format::Json => Box::new(JsonLinesPrinter::new(&mut *out, self.attrs)),
        };
        let mut write_error = None;
        let (stats, diags) = session.read(console.trace, |m| {
            printer.message(m).map_err(|e| write_error = Some(e)).is_ok()
        })?;
        if let Some(e) = write_error {
            return Err(Error::Output(e));
        }
        printer.finish()?;
        session.summary(&stats, &diags, None)?;
        Ok(Status::Success)
    }
}
