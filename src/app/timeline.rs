//! `nlorder timeline`: every change the capture makes to the tables.

use std::io::Write;

use super::{Console, Error, Format, Source, Status};
use crate::model::ModelOptions;
use crate::report::timeline::{TimelineItems, TimelinePrinter};
use crate::report::{Json, Text};

/// Every change of `capture`, printed as the rebuild makes it.
#[derive(Debug, Clone)]
pub struct Timeline {
    /// The capture to read.
    pub capture: Source,
    /// How the tables are rebuilt.
    pub model: ModelOptions,
    /// One line per change, or one JSON object per line.
    pub format: Format,
}

impl Timeline {
    /// Rebuilds the tables over the whole capture, printing each change
    /// (and where a program looked) to `out`.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        match self.format {
            Format::Text => self.list(console, out, Text(console.style)),
            Format::Json => self.list(console, out, Json),
        }
    }

    fn list(&self, console: &Console, out: &mut dyn Write, items: impl TimelineItems) -> Result<Status, Error> {
        let mut session = console.open(&self.capture)?;
        let mut printer = TimelinePrinter::new(&mut *out, items);
        session.rebuild(console.trace, self.model, None, &mut printer)?;
        printer.finish(&session.grounds)?;
        Ok(Status::Success)
    }
}
