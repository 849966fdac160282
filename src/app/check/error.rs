//! Why a manifest, case or expectation could not be run.

use std::path::{Path, PathBuf};

/// Why a manifest, case or expectation could not be run; [`super::run()`] and
/// [`super::run_paths`] turn each into an [`super::Outcome`] of kind `error` (exit 2 in
/// the CLI), failed expectations are outcomes of their own kind.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder that cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why it could not be.
        #[source]
        source: std::io::Error,
    },
    /// A manifest nlorder cannot use, with the line when known.
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// The 1-based line the problem is on.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A capture named by a manifest that cannot be read.
    #[error("{}: {message}", path.display())]
    Capture {
        /// The capture.
        path: PathBuf,
        /// Why it cannot be read.
        message: String,
    },
    /// The paths given hold no manifest.
    #[error("no manifests (*.nlorder.toml, nlorder.toml) found")]
    NoManifests,
}

impl Error {
    /// The manifest line the error is about, when known.
    pub fn line(&self) -> Option<usize> {
        match self {
            Error::Manifest { line, .. } => *line,
            _ => None,
        }
    }

    /// What went wrong, for a result already placed at `manifest` (and
    /// its line): the path is said only when it is another file's.
    pub fn detail(&self, manifest: &Path) -> String {
        match self {
            Error::Manifest { path, message, .. } if path == manifest => message.clone(),
            Error::Io { path, source } if path == manifest => source.to_string(),
            Error::Capture { path, message } if path == manifest => message.clone(),
            other => other.to_string(),
        }
    }

    pub(crate) fn manifest(path: &Path, line: Option<usize>, message: impl Into<String>) -> Error {
        Error::Manifest {
            path: path.to_path_buf(),
            line,
            message: message.into(),
        }
    }
}
