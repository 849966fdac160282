//! `record`: where and how to record the kernel's tables.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The capture to write (`-` for stdout).
    #[arg(short = 'w', long = "write", visible_short_alias = 'o', visible_alias = "output")]
    pub file: PathBuf,
    /// After the dumps, record notifications until --duration or Ctrl-C, then dump again.
    #[arg(long)]
    pub follow: bool,
    /// How long to follow, e.g. 30s, 5m (default: until Ctrl-C).
    #[arg(long, requires = "follow", value_parser = humantime::parse_duration)]
    pub duration: Option<std::time::Duration>,
    /// Record inside this network namespace: a name from `ip netns list`, or a
    /// path to a namespace file such as /proc/PID/ns/net.
    #[arg(long)]
    pub netns: Option<String>,
    /// Write classic pcap instead of pcapng. pcap has no room for the kernel release, so readers
    /// of the file must assume the kernel's link order (or be told with --kernel).
    #[arg(long, conflicts_with = "pcapng")]
    pub pcap: bool,
    /// Write pcapng, whose section header names the running kernel (the default).
    #[arg(long)]
    pub pcapng: bool,
    /// Dump requests with the full family header, or the 1-byte rtgenmsg body Go's net package sends.
    #[arg(long, value_enum, default_value = "full")]
    pub request_form: RequestFormArg,
    /// No summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RequestFormArg {
    Full,
    Rtgenmsg,
}
