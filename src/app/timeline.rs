//! `nlorder timeline`: every change the capture makes to the tables.

use std::io::Write;

use super::{Console, Error, Format, Source, Status};
use crate::model::ModelOptions;
use crate::report::timeline::TimelinePrinter;

/// Every change of `capture`, printed as the rebuild makes it.
#[derive(Debug, Clone)]
pub struct Timeline {
    pub capture: Source,
    pub model: ModelOptions,
    pub format: Format,
}

impl Timeline {
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut session = console.open(&self.capture)?;
        let mut printer = TimelinePrinter::new(&mut *out, self.format == Format::Json, console.style);
        session.rebuild(console.trace, self.model, None, &mut printer)?;
        printer.finish(&session.grounds)?;
        Ok(Status::Success)
    }
}
