//! The application: one typed request per subcommand, run through the
//! whole pipeline (capture → model → replay → printer), and the settings
//! they are made of, parsed once from the command line or a manifest.
//!
//! Contract: everything a command does besides parsing its arguments and
//! choosing an exit status lives here, including reading the files it names
//! (gai.conf, a hosts file and host.conf, an operator `Installation`,
//! getent's output), `NODE=PATH`, and writing its summary to stderr. Each
//! request's `run` writes the command's output to the writer it is given
//! and returns a [`Status`]; the command line builds the requests from its
//! flags, and the fuzz target builds them over arbitrary bytes.

pub mod annotate;
pub mod check;
pub mod decode;
pub mod detect;
pub mod gai;
pub mod operator;
pub mod parallel;
pub mod record;
pub mod report;
pub mod selection;
pub mod session;
pub mod settings;
pub mod table;
pub mod timeline;
pub mod watch;
pub mod who;

pub use crate::report::Format;
pub use session::{Console, Error, ReadProgress, Session, Source};

/// How a request's run ended, when it could run at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Everything asked for holds.
    Success,
    /// An expectation does not hold (`--expect`, `--observed`, a conflict
    /// between nodes, a failed check).
    Mismatch,
    /// Some input could not be read, said once all of it ran (`check`).
    Unreadable,
}
