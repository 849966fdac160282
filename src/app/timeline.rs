//! `nlorder timeline`: every change the capture makes to the tables.

use std::io::Write;

use super::{Console, Error, Format, Source, Status};
use crate::model::ModelOptions;
use crate::report::timeline::{TimelineItems, TimelinePrinter};
use crate::report::{Json, Text};

/// Every change of `capture`, printed as the rebuild makes it.
#[derive(Debug, Clone)]
pub struct Timeline {
    pub capture: Source,
    pub model: ModelOptions,
    pub format: Format,
}

impl Timeline {
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
