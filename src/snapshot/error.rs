//! Why a snapshot cannot be read.
//!
//! Contract: one error type for every reader of a snapshot (JSON, text,
//! sosreport), each variant naming the file and what is missing or wrong.

use std::io;
use std::path::PathBuf;

/// Why a snapshot cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or directory that cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A file that is not JSON, or JSON cut short.
    #[error("{path}: not `ip -j` output: {why}")]
    NotJson {
        /// The file.
        path: PathBuf,
        /// serde_json's words.
        why: String,
    },
    /// JSON of something else than the commands a snapshot holds.
    #[error("{path}: JSON of another command: {what}")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What it is, as far as it can be told.
        what: String,
    },
    /// An output present but not as `ip` prints it.
    #[error("{path}: {what}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// No address listing: nothing to replay.
    #[error(
        "{0}: no `ip addr show` output (`ip -j addr show`, `ip addr`, `ip -o addr`, or a sosreport's `ip_-d_address`): a snapshot needs at least the addresses"
    )]
    NoAddresses(PathBuf),
    /// `ip -o addr` alone: the links' flags and state are nowhere.
    #[error("{0}: `ip -o addr` shows no link's flags or state: give `ip link show` (or `ip addr show`) output with it")]
    NoLinkState(PathBuf),
    /// Writing the in-memory capture failed.
    #[error("building the snapshot's dumps: {0}")]
    Build(io::Error),
}
