//! `detect`, `report` and `watch`: the subcommands that replay node-IP
//! choosers, and the chooser settings they share.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::common::{IoOptions, ModelArgs, OutputFormat};
use super::record::RequestFormArg;

#[derive(Debug, Args)]
pub struct DetectArgs {
    /// One capture, or one per node (`NODE=PATH` names the node; default: the file name)
    /// to check that no two nodes claim the same address.
    #[arg(required = true)]
    pub captures: Vec<String>,
    #[command(flatten)]
    pub replay: ReplayArgs,
    /// Take the method from a Tigera operator Installation (YAML or JSON):
    /// nodeAddressAutodetectionV4/V6 (so not together with --method).
    #[arg(long, conflicts_with = "method")]
    pub installation: Option<PathBuf>,
    /// Every method, with defaults derived from the host, side by side.
    #[arg(long, conflicts_with_all = ["timeline", "expect"])]
    pub all: bool,
    /// Re-evaluate after every change in the capture and list when the choice changed.
    #[arg(long)]
    pub timeline: bool,
    /// Evaluate the tables as they stood at this record or time (a whole number below
    /// 1000000000 is a packet number, a larger one epoch seconds; see `table --at`),
    /// or `auto`: when the replayed program (a Go program) last looked at them.
    #[arg(long)]
    pub at: Option<nlorder::ingest::rebuild::AtSpec>,
    /// With --at auto: replay every look, not only the last, and say where the answer changed.
    #[arg(long)]
    pub all_looks: bool,
    /// Text: the answer, the candidate that came closest and why it lost (not every candidate).
    #[arg(long, conflicts_with_all = ["all", "timeline", "all_looks"])]
    pub brief: bool,
    /// Output format: the answer and why each candidate lost as text, or one JSON document.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    /// Read this many captures at once, one per thread (default: one per
    /// core). The output is the same, in the order the captures are given.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// One capture, or one per node (`NODE=PATH` names the node; default: the file name),
    /// drawn side by side.
    #[arg(required = true)]
    pub captures: Vec<String>,
    /// Write the picture to FILE (default, or `-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// html: the whole page (drawing, answers with their candidates, flips, tables);
    /// svg: the drawing alone, a static picture.
    #[arg(long, value_enum, default_value = "html")]
    pub format: PictureFormatArg,
    #[command(flatten)]
    pub replay: ReplayArgs,
    /// One lane for every program `detect --all` replays, instead of the one --method.
    #[arg(long)]
    pub all: bool,
    /// The tables and answers shown at the end of the page as they stood at this record or
    /// time (a whole number below 1000000000 is a packet number, a larger one epoch
    /// seconds; see `table --at`); the lanes always cover the whole capture.
    #[arg(long)]
    pub at: Option<nlorder::ingest::rebuild::At>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PictureFormatArg {
    Html,
    Svg,
}

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Read this capture (`-`: stdin, e.g. `nlorder record --follow -w - | nlorder watch -r -`)
    /// instead of subscribing to the kernel.
    #[arg(short = 'r', long = "read", value_name = "CAPTURE", conflicts_with_all = ["netns", "write"])]
    pub read: Option<PathBuf>,
    /// Keep what is recorded in this pcapng file too.
    #[arg(
        short = 'w',
        long = "write",
        value_name = "FILE",
        visible_short_alias = 'o',
        visible_alias = "output"
    )]
    pub write: Option<PathBuf>,
    /// Watch inside this network namespace: a name from `ip netns list`, or a path such as
    /// /proc/PID/ns/net.
    #[arg(long)]
    pub netns: Option<String>,
    /// Stop after this long, e.g. 30s, 5m (default: until Ctrl-C or --expect fails).
    #[arg(long, value_parser = humantime::parse_duration, conflicts_with = "read")]
    pub duration: Option<std::time::Duration>,
    /// Dump requests with the full family header, or the 1-byte rtgenmsg body Go's net package sends.
    #[arg(long, value_enum, default_value = "full", conflicts_with = "read")]
    pub request_form: RequestFormArg,
    #[command(flatten)]
    pub replay: ReplayArgs,
    /// Text lines, or one JSON object per change of the answer.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
}

/// What the subcommands that replay the programs share: the terminal's
/// options, the kernel model's and the programs' settings.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub io: IoOptions,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub settings: DetectSettingsArgs,
}

/// The command-line side of `nlorder::app::settings::DetectSettings`: the method, what every
/// program shares, and every program's flags: the library's registry of programs
/// (`ProgramSettings`, whose fields are each program's settings, with their flags under the
/// library's `clap` feature), so no program is named here.
#[derive(Debug, Clone, Args)]
pub struct DetectSettingsArgs {
    #[arg(long, default_value = "first-found", help = method_help())]
    pub method: nlorder::replay::method::Method,
    /// Address family to detect (calico-node detects IPv4 and IPv6 separately): 4 or 6.
    #[arg(long, conflicts_with_all = ["ipv4", "ipv6"])]
    pub family: Option<nlorder::replay::Family>,
    /// IPv4 only (--family 4).
    #[arg(short = '4', conflicts_with = "ipv6")]
    pub ipv4: bool,
    /// IPv6 only (--family 6).
    #[arg(short = '6')]
    pub ipv6: bool,
    #[command(flatten)]
    pub programs: nlorder::replay::method::ProgramSettings,
    /// Exit 1 unless the chosen address is this one (ADDR compares the IP, ADDR/LEN also
    /// the prefix, none: nothing chosen). In a manifest: `address`.
    #[arg(long, value_name = "ADDR[/LEN]|none")]
    pub expect: Option<nlorder::app::settings::Expected>,
}

/// `--method`'s help: every program's name from the library's registry
/// (calico-node's methods are its values), then calico-node's methods.
fn method_help() -> String {
    use nlorder::replay::Program;
    let names: Vec<String> = Program::ALL
        .iter()
        .filter(|p| !p.is_calico_node())
        .map(|p| format!("`{}`", p.name()))
        .collect();
    format!(
        "A program ({}), or a Calico IP_AUTODETECTION_METHOD value: first-found, interface=REGEX[,REGEX], \
         skip-interface=REGEX[,REGEX], cidr=CIDR[,CIDR], can-reach=DEST, kubernetes-internal-ip. REGEX means what \
         it means to calico-node: Go's RE2 (ASCII \\d \\w \\s \\b, \\Q..\\E), not the regex crate",
        names.join(", ")
    )
}
