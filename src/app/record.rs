//! `nlorder record`: a live kernel's tables (and, following, its
//! notifications) written as an nlmon-format capture.

use std::path::PathBuf;

use super::{Console, Error, Status};
use crate::record::{FileFormat, Options, record_to};

/// Records the host (or the namespace `netns`) into `file` (`-`: stdout).
#[derive(Debug, Clone)]
pub struct Record {
    /// The capture to write (`-`: stdout).
    pub file: PathBuf,
    /// The network namespace to record, by `ip netns` name or path; this
    /// process's own when `None`.
    pub netns: Option<String>,
    /// pcap or pcapng.
    pub format: FileFormat,
    /// Following notifications, for how long, and the requests' form.
    pub options: Options,
}

impl Record {
    /// Records, then says on stderr (unless quiet) what was written.
    pub fn run(&self, console: &Console) -> Result<Status, Error> {
        let mut started = || {
            if !console.quiet {
                let line =
                    crate::report::record::started(Some(&self.file), self.netns.as_deref(), self.format, &self.options);
                crate::diag::say(format_args!("nlorder: {line}"));
            }
        };
        let summary = record_to(
            &self.file,
            self.netns.as_deref(),
            self.format,
            &self.options,
            &mut started,
        )
        .map_err(|e| Error::Unreadable(e.to_string()))?;
        if !console.quiet {
            crate::diag::say(format_args!(
                "nlorder: {}",
                summary.describe(&self.file.display().to_string())
            ));
        }
        Ok(Status::Success)
    }
}
