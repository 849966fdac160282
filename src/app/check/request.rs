//! `nlorder check`: every manifest under the paths given, run, printed,
//! and (with `--junit`) written as JUnit XML.

use std::io::Write;
use std::path::PathBuf;

use super::run::{Outcome, run_paths};
use crate::app::{Console, Error, Status};
use crate::report::Format;
use crate::report::{self, JUnit, Print};

/// Runs the manifests found under `paths`.
#[derive(Debug, Clone)]
pub struct Check {
    /// Manifests, or folders searched for them.
    pub paths: Vec<PathBuf>,
    /// Write the values computed now into the manifests.
    pub update: bool,
    /// Also write JUnit XML here.
    pub junit: Option<PathBuf>,
    /// One line per expectation, or one JSON document.
    pub format: Format,
    /// Cases run at once, one per thread (`None`: one per core).
    pub jobs: Option<usize>,
}

impl Check {
    /// Runs every manifest, prints the outcomes to `out` (and the JUnit
    /// file), and says on stderr what could not be run.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let updated = |f: &std::path::Path, written: bool| match written {
            true => crate::diag::say(format_args!("nlorder: updated {}", f.display())),
            false => crate::diag::say(format_args!(
                "nlorder: {} not updated: some of it could not be run",
                f.display()
            )),
        };
        let outcomes =
            run_paths(&self.paths, self.update, self.jobs, updated).map_err(|e| Error::Unreadable(e.to_string()))?;
        report::print(self.format, console.style, outcomes.as_slice(), out)?;
        out.flush()?;
        if let Some(path) = &self.junit {
            let mut xml = Vec::new();
            JUnit.print(outcomes.as_slice(), &mut xml)?;
            std::fs::write(path, xml).map_err(|e| Error::Unreadable(format!("{}: {e}", path.display())))?;
        }
        // Whatever could not be run makes the run unreadable, said on stderr
        // too, once every manifest has run and the reports are written.
        let errors: Vec<&Outcome> = outcomes.iter().filter(|o| o.is_error()).collect();
        for o in &errors {
            crate::diag::say(format_args!(
                "nlorder: {}: {}",
                o.place(),
                o.message.as_deref().unwrap_or_default()
            ));
        }
        Ok(if !errors.is_empty() {
            Status::Unreadable
        } else if outcomes.iter().all(|o| o.passed) {
            Status::Success
        } else {
            Status::Mismatch
        })
    }
}
