//! Regression checks: a recorded trace and what must hold in it, in one
//! manifest file; run in CI so that a change of CNI version, interface
//! naming or gai.conf that would make a node pick another address fails.
//!
//! Contract: [`run`] reads each manifest's captures (through `rebuild`, one
//! rebuild per distinct `at`), evaluates every expectation with the same
//! replays the commands use, and returns one [`Outcome`] per expectation;
//! with `update` it also returns the values to write back (`update`
//! module). A manifest, case or expectation that cannot be run (unreadable
//! or malformed manifest, missing capture, settings nlorder cannot use) is
//! an outcome of kind `error` placed at its file and line, so one broken
//! input never cancels the others (the CLI exits 2 once all have run);
//! failed expectations are outcomes of their own kind.

pub mod error;
pub mod manifest;
pub mod request;
mod run;
pub mod update;

pub use error::Error;
pub use request::Check;
pub use run::{Outcome, run, run_jobs, run_paths};
