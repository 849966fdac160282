//! `nlorder who`: who asked the kernel for its tables, and when (or the
//! requests a filter keeps).

use std::io::Write;

use super::selection::{Admit, Selection};
use super::{Console, Error, Format, Source, Status};
use crate::filter::records::RequestFields;
use crate::looks::{Who as Requests, group};
use crate::report;
use crate::report::fields::write_row;
use crate::report::who::WhoReport;

fn fields_of(r: &crate::looks::Asked) -> RequestFields<'_> {
    RequestFields {
        asked: r,
        packet: r.packet,
        ts: r.ts,
        look: false,
    }
}

/// The requests of `capture` and the looks they form.
#[derive(Debug, Clone)]
pub struct Who {
    /// The capture to read.
    pub capture: Source,
    /// Text or JSON.
    pub format: Format,
    /// Which requests, how many, and as which columns.
    pub selection: Selection,
}

impl Who {
    /// Reads the capture and prints its requests and looks to `out`.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut session = console.open_messages(&self.capture, "who")?;
        let mut who = session.who(console.trace)?;
        let mut gate = self.selection.gate();
        if let Some(fields) = gate.fields().map(<[_]>::to_vec) {
            for r in &who.requests {
                match gate.admit(&fields_of(r)) {
                    Admit::Show => write_row(out, &fields, &fields_of(r))?,
                    Admit::Skip => {}
                    Admit::Full => break,
                }
            }
        } else {
            if self.selection.filter.is_some() || self.selection.count.is_some() {
                let requests: Vec<_> = who
                    .requests
                    .into_iter()
                    .filter(|r| gate.admit(&fields_of(r)) == Admit::Show)
                    .collect();
                who = Requests {
                    looks: group(&requests),
                    requests,
                };
            }
            let report = WhoReport {
                who: &who,
                warnings: &session.grounds.warnings,
                truncated_after: session.grounds.truncated_after,
            };
            report::print(self.format, console.style, &report, out)?;
        }
        out.flush()?;
        Ok(Status::Success)
    }
}
