//! `nlorder table`: the tables at a moment of the capture.

use std::io::Write;

use super::{Console, Error, Format, Source, Status};
use crate::model::ModelOptions;
use crate::rebuild::At;
use crate::replay::Family;
use crate::report;
use crate::report::table::{FamilyFilter, Tables};

/// The tables of `capture` at `at` (its end if none), of one family or
/// both.
#[derive(Debug, Clone)]
pub struct Table {
    /// The capture to read.
    pub capture: Source,
    /// How the tables are rebuilt.
    pub model: ModelOptions,
    /// The moment to stop at; the end of the capture when `None`.
    pub at: Option<At>,
    /// Only this family's addresses and routes; both when `None`.
    pub family: Option<Family>,
    /// `ip`-style text or one JSON document.
    pub format: Format,
}

impl Table {
    /// Rebuilds the tables and prints them to `out`.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut session = console.open(&self.capture)?.assumptions_in_output();
        let (rebuilt, diags) = session.rebuild(console.trace, self.model, self.at, &mut ())?;
        let tables = Tables {
            rebuilt: &rebuilt,
            filter: FamilyFilter::from(self.family),
            diagnostics: &diags,
        };
        report::print(self.format, console.style, &tables, out)?;
        out.flush()?;
        Ok(Status::Success)
    }
}
