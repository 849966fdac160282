//! `nlorder table`: the tables at a moment of the capture.

use std::io::Write;

use super::{Console, Error, Format, Source, Status};
use crate::ingest::rebuild::At;
use crate::model::ModelOptions;
use crate::replay::Family;
use crate::report;
pub use crate::report::ip_json::IpObject;
use crate::report::ip_json::IpTables;
use crate::report::table::{FamilyFilter, Tables};

/// How `table` prints the tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableFormat {
    /// nlorder's own text or JSON.
    Report(Format),
    /// What iproute2's `ip -j` prints for these tables (`link`, `addr`,
    /// `route`, in that order whatever the order given; duplicates count
    /// once; none: all three): one table as its array, several as an
    /// object of arrays.
    IpJson(Vec<IpObject>),
    /// nlorder's text of these tables only (`link`, `addr`, `route`; the
    /// notes on what was assumed follow any of them).
    TextOf(Vec<IpObject>),
}

impl From<Format> for TableFormat {
    fn from(f: Format) -> Self {
        TableFormat::Report(f)
    }
}

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
    /// `ip`-style text, one JSON document, or `ip -j`'s JSON.
    pub format: TableFormat,
}

impl Table {
    /// Rebuilds the tables and prints them to `out`.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut session = console.open(&self.capture)?.assumptions_in_output();
        let (rebuilt, diags) = session.rebuild(console.trace, self.model, self.at, &mut ())?;
        match &self.format {
            TableFormat::Report(format) => {
                let tables = Tables {
                    rebuilt: &rebuilt,
                    filter: FamilyFilter::from(self.family),
                    diagnostics: &diags,
                    objects: &[],
                };
                report::print(*format, console.style, &tables, out)?;
            }
            TableFormat::TextOf(objects) => {
                let tables = Tables {
                    rebuilt: &rebuilt,
                    filter: FamilyFilter::from(self.family),
                    diagnostics: &diags,
                    objects,
                };
                report::print(Format::Text, console.style, &tables, out)?;
            }
            TableFormat::IpJson(objects) => {
                let mut objects = objects.clone();
                objects.sort_unstable();
                objects.dedup();
                if objects.is_empty() {
                    objects = vec![IpObject::Link, IpObject::Addr, IpObject::Route];
                }
                let t = IpTables {
                    model: &rebuilt.model,
                    objects: &objects,
                    family: self.family,
                };
                report::ip_json::write(out, &t)?;
            }
        }
        out.flush()?;
        Ok(Status::Success)
    }
}
