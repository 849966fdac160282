//! The options several subcommands share: how a capture is given and read,
//! how nlorder talks on the terminal, the kernel model's settings, and the
//! output formats.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Endian {
    Little,
    Big,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Options shared by every command that reads a capture.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// The capture: a pcap or pcapng file (gzip is detected), or - for stdin.
    #[arg(required_unless_present = "read", value_name = "CAPTURE")]
    pub capture: Option<PathBuf>,
    /// The capture, given as tshark takes it (-r FILE) instead of in its place.
    #[arg(short = 'r', long = "read", value_name = "CAPTURE")]
    pub read: Option<PathBuf>,
    #[command(flatten)]
    pub io: IoOptions,
}

/// How captures are read and how nlorder talks on the terminal.
#[derive(Debug, Args, Clone)]
pub struct IoOptions {
    /// Byte order of the netlink data (default: detected from the capture).
    #[arg(long, value_enum)]
    pub netlink_endian: Option<Endian>,
    /// No progress bar, no colour, no summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Colour the output (auto: only on a terminal, and never with NO_COLOR set).
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KernelOrderArg {
    Ascending,
    Buckets,
}

/// Options of the kernel model.
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// net.ipv4.conf.all.promote_secondaries on the captured host: deleting a
    /// primary address promotes a secondary when this or the device's own setting
    /// is on. Each device's own is read from the capture's link messages
    /// (IFLA_AF_SPEC); without this flag, `all` is assumed off where a device showed
    /// 0, and on (as systemd sets it) where no message showed the device.
    #[arg(long, value_enum)]
    pub promote_secondaries: Option<OnOff>,
    /// Device walk order of the captured kernel: ascending ifindex (Linux 6.9+) or
    /// hash buckets (ifindex & 255, newest first; older kernels). Default: inferred
    /// from a link dump, else ascending.
    #[arg(long, value_enum)]
    pub kernel_order: Option<KernelOrderArg>,
    /// Kernel release of the captured host (`6.1`, `6.12.117+deb12-amd64`, as
    /// `uname -r` prints it): chooses the release's rules (link dump order).
    /// Default: the capture's pcapng `shb_os`, else inferred from a link dump.
    #[arg(long, value_name = "RELEASE")]
    pub kernel: Option<nlorder::model::KernelVersion>,
    /// A build option of the captured host's kernel the answers depend on:
    /// CONFIG_IPV6_MIP6=y|m|n (source address selection prefers home addresses
    /// only with =y). Default: as the distribution the capture's shb_os names
    /// builds it (Debian, Fedora: =y; Ubuntu, Red Hat, Amazon Linux, SUSE: =m),
    /// else =m (most distributions); said where an answer rests on it.
    #[arg(long, value_name = "CONFIG_X=y|m|n")]
    pub kernel_config: Vec<nlorder::model::KernelConfigOption>,
}
