//! `nlorder who`: who asked the kernel for its tables, and when.

use std::io::Write;

use super::{Console, Error, Format, Source, Status};
use crate::report::who::write_who;

/// The requests of `capture` and the looks they form.
#[derive(Debug, Clone)]
pub struct Who {
    pub capture: Source,
    pub format: Format,
}

impl Who {
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut session = console.open(&self.capture)?;
        let who = session.who(console.trace)?;
        let json = self.format == Format::Json;
        write_who(out, json, &who, &session.grounds.warnings, &console.style)?;
        out.flush()?;
        Ok(Status::Success)
    }
}
