//! `nlorder who`: who asked the kernel for its tables, and when.

use std::io::Write;

use super::{Console, Error, Format, Source, Status};
use crate::report;
use crate::report::who::WhoReport;

/// The requests of `capture` and the looks they form.
#[derive(Debug, Clone)]
pub struct Who {
    /// The capture to read.
    pub capture: Source,
    /// Text or JSON.
    pub format: Format,
}

impl Who {
    /// Reads the capture and prints its requests and looks to `out`.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut session = console.open(&self.capture)?;
        let who = session.who(console.trace)?;
        let report = WhoReport {
            who: &who,
            warnings: &session.grounds.warnings,
        };
        report::print(self.format, console.style, &report, out)?;
        out.flush()?;
        Ok(Status::Success)
    }
}
