//! The command line as clap parses it: one struct of flags per subcommand,
//! grouped by the subcommands that share them, and the options several
//! share. Contract: definitions only (flags, their help, their value
//! parsers); what they ask of the library is `requests.rs`'s.

mod check;
mod common;
mod detect;
mod gai;
mod listing;
mod record;
mod table;

use clap::{Parser, Subcommand, ValueEnum};

pub use check::CheckArgs;
pub use common::{ColorChoice, Endian, InputArgs, IoOptions, KernelOrderArg, ModelArgs, OnOff, OutputFormat};
pub use detect::{DetectArgs, DetectSettingsArgs, PictureFormatArg, ReportArgs, WatchArgs};
pub use gai::{GaiArgs, ResolverArg};
pub use listing::{DecodeArgs, SelectArgs, TimelineArgs, TsharkFormat, WhoArgs};
pub use record::{RecordArgs, RequestFormArg};
pub use table::{AnnotateArgs, IpObjectArg, TableArgs, TableFormatArg};

#[derive(Debug, Parser)]
#[command(
    name = "nlorder",
    version,
    about = "Why did this node pick that IP address? Replays netlink (nlmon) captures.",
    long_about = "nlorder reads netlink captures (tcpdump -i nlmon0 -w x.pcap, pcap or pcapng, \
                  optionally gzip-compressed), decodes the rtnetlink traffic, rebuilds the kernel's \
                  interface, address and route tables in the kernel's own order, and replays what \
                  node-IP detection methods and resolvers would choose.\n\n\
                  Exit status: 0 on success, 1 when an expectation fails, 2 on unreadable input.",
    arg_required_else_help = true,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Print a glossary, as tshark -G does: `fields` lists every field of the filters (-Y)
    /// and columns (-e) with the listings (decode, timeline, who) that have it; `values`
    /// lists the names each field's values take.
    #[arg(short = 'G', value_enum, value_name = "REPORT")]
    pub glossary: Option<Glossary>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What `nlorder -G` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Glossary {
    /// Every field: name, kind, listings, tshark's names, what it holds.
    Fields,
    /// Every named value of every field.
    Values,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Decode every rtnetlink message, one line (or JSON object) per message.
    Decode(DecodeArgs),
    /// Rebuild the kernel's links, addresses, routes and rules, in the kernel's order.
    Table(TableArgs),
    /// List every change to the tables, in capture order.
    Timeline(TimelineArgs),
    /// Name the program behind every dump request: when each one looked at the tables.
    Who(WhoArgs),
    /// Write the capture back as pcapng with a comment on each record saying what nlorder read
    /// there (who asked, the changes and kernel rules, dumps as predicted or not, problems).
    Annotate(AnnotateArgs),
    /// Replay the node-IP choice of Calico, kubelet, flannel, kubeadm, k3s, Cilium, etcd, Swarm,
    /// Consul or Nomad, and say why each candidate lost.
    Detect(Box<DetectArgs>),
    /// Predict the order getaddrinfo returns for these addresses (or a name in a hosts file), and explain every swap.
    Gai(GaiArgs),
    /// Run regression manifests (*.nlorder.toml) against their recorded traces.
    ///
    /// Every manifest runs: one that cannot (malformed, its capture missing or
    /// unreadable, settings nlorder cannot use) is an ERROR result at its file
    /// and line, and the others still run. Exit status: 0 when every
    /// expectation holds, 1 when one fails, 2 when anything could not be run.
    Check(CheckArgs),
    /// Draw the incident: one self-contained HTML page (or SVG) of each node's links and
    /// addresses over the capture, every program's answer as a band with its flips and their
    /// causes, the moments programs looked, and the tables and candidates at the end.
    ///
    /// The page needs no network and no other file: it opens from a mail attachment.
    /// Assumed, inferred and unknown entries are drawn as such (hatched, dashed), never as
    /// fact; a legend says which is which. Several captures (`NODE=PATH`) are drawn side by
    /// side, with the addresses two nodes would both claim marked as conflicts.
    Report(Box<ReportArgs>),
    /// Record the kernel's tables (and, with --follow, its notifications) as an nlmon-format capture.
    Record(RecordArgs),
    /// Follow the running kernel (or a capture as it arrives) and print a line whenever a
    /// method's node IP would change, with the changes that caused it.
    ///
    /// Exit status: 0 when it ends (Ctrl-C, --duration, the end of --read), 1 at the first
    /// answer --expect does not allow, 2 when the kernel or the capture cannot be read.
    Watch(Box<WatchArgs>),
    /// Print a shell completion script.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print the man pages (roff) on stdout: nlorder(1) with every subcommand's section, or
    /// one subcommand's own page (`nlorder man decode` is nlorder-decode(1)); --dir writes them all.
    Man {
        /// A subcommand whose page to print alone (decode, table, ...).
        page: Option<String>,
        /// Write nlorder.1 and nlorder-SUBCOMMAND.1 for every subcommand into this directory.
        #[arg(long, value_name = "DIR", conflicts_with = "page")]
        dir: Option<std::path::PathBuf>,
    },
}
