//! `nlorder decode`: every message of a capture (or those a filter keeps),
//! printed as it is read.

use std::io::Write;

use super::selection::{Admit, Selection};
use super::{Console, Error, Format, Source, Status};
use crate::filter::records::{LinkNames, MessageFields};
use crate::report::Print;
use crate::report::decode::{JsonMessages, TextMessages};
use crate::report::fields::write_row;

/// Prints every message of `capture`.
#[derive(Debug, Clone)]
pub struct Decode {
    /// The capture to read.
    pub capture: Source,
    /// `ip monitor`-like text, or one JSON object per line.
    pub format: Format,
    /// Every attribute too.
    pub attrs: bool,
    /// Which messages, how many, and as which columns.
    pub selection: Selection,
}

impl Decode {
    /// Prints the selected messages of the capture to `out` as they are
    /// read, then the summary to stderr.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut session = console.open_messages(&self.capture, "decode")?;
        let mut printer: Box<dyn for<'r, 'm> Print<MessageFields<'r, 'm>>> = match self.format {
            Format::Text => Box::new(TextMessages::new(console.style, self.attrs)),
            Format::Json => Box::new(JsonMessages::new(self.attrs)),
        };
        let live = self.capture.is_stream();
        let mut names = LinkNames::default();
        let mut gate = self.selection.gate();
        let mut write_error = None;
        let (stats, diags) = session.read(console.trace, |m| {
            names.learn(&m.decoded.body, m.decoded.header.kind);
            let record = MessageFields {
                message: m,
                names: &names,
            };
            match gate.admit(&record) {
                Admit::Skip => return true,
                Admit::Full => return false,
                Admit::Show => {}
            }
            let written = match gate.fields() {
                Some(fields) => write_row(out, fields, &record),
                None => printer.print(&record, out),
            };
            // A live reader sees each message as it arrives.
            let written = written.and_then(|()| match live {
                true => printer.flush(out).and_then(|()| out.flush()),
                false => Ok(()),
            });
            written.map_err(|e| write_error = Some(e)).is_ok() && !gate.full()
        })?;
        if let Some(e) = write_error {
            return Err(Error::Output(e));
        }
        printer.flush(out).map_err(Error::Output)?;
        // A cut capture says so after its last message, in the listing
        // itself (the summary on stderr is silenced by -q).
        if let Some(n) = session
            .reader
            .info
            .cut_after
            .filter(|_| gate.fields().is_none() && !gate.full())
        {
            crate::report::decode::write_truncated(out, self.format, n)?;
        }
        out.flush()?;
        session.summary(&stats, &diags, None)?;
        Ok(Status::Success)
    }
}
