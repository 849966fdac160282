//! Command-line definitions (clap derive) and their conversion into the
//! library's requests ([`nlorder::app`]). Parsing and mapping only;
//! `main.rs` runs the requests.

use std::io::IsTerminal;
use std::net::IpAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use nlorder::app::{self, Console, Error, Format, ReadProgress, Source};
use nlorder::model::{LinkOrder, ModelOptions};
use nlorder::netlink::ByteOrder;
use nlorder::report::style::Style;
use nlorder::trace::TraceOptions;

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
    /// Rebuild the kernel's links, addresses and routes, in the kernel's order.
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

#[derive(Debug, Args)]
#[command(
    mut_arg("filter", |a| a.help(filter_help(Listing::Decode))),
    mut_arg("fields", |a| a.help(fields_help(Listing::Decode))),
    after_long_help = listing_guide(Listing::Decode)
)]
pub struct DecodeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format: text lines like `ip monitor` (the default), or JSON Lines (one object
    /// per message).
    #[arg(long, value_enum)]
    pub format: Option<OutputFormat>,
    /// Also list every attribute by name (IFLA_IFNAME, ...) with its value typed as
    /// netlink-packet-route decodes it (raw bytes where no crate can); -V as in tshark.
    #[arg(long, short = 'V')]
    pub attrs: bool,
    #[command(flatten)]
    pub select: SelectArgs,
}

/// The three listings that take filters and field columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    Decode,
    Timeline,
    Who,
}

impl Listing {
    /// The fields this listing's records have.
    pub fn fields(self) -> &'static [nlorder::filter::Field] {
        use nlorder::filter::Field;
        match self {
            Listing::Decode => Field::MESSAGE,
            Listing::Timeline => Field::CHANGE,
            Listing::Who => Field::REQUEST,
        }
    }

    /// A filter that works on this listing (and keeps records of the
    /// fixtures its test runs it on).
    pub fn example(self) -> &'static str {
        match self {
            Listing::Decode => r#"type == RTM_NEWADDR && dev == "eth0""#,
            Listing::Timeline => "object == addr && change == added",
            Listing::Who => "program == go-net && dump",
        }
    }

    /// Field columns that work on this listing.
    pub fn columns(self) -> &'static str {
        match self {
            Listing::Decode => "packet,type,dev,addr",
            Listing::Timeline => "packet,change,object,dev",
            Listing::Who => "packet,program,type,family",
        }
    }

    fn names(self) -> String {
        let names: Vec<&str> = self.fields().iter().map(|f| f.name()).collect();
        names.join(", ")
    }
}

/// `-Y`'s help on one listing: an example that works there, and its fields.
fn filter_help(listing: Listing) -> String {
    format!(
        "Only the records this display filter keeps, e.g. `{}`. Fields: {}. \
         `nlorder -G values` lists the names fields take; FILTERS below has the grammar",
        listing.example(),
        listing.names()
    )
}

/// `-e`'s help on one listing.
fn fields_help(listing: Listing) -> String {
    format!(
        "Print tab-separated columns of these fields instead of whole lines (comma-separated or \
         repeated, like tshark's `-e`), e.g. `-e {}`",
        listing.columns()
    )
}

/// The filter grammar and field list, at the end of a listing's long help
/// and man page.
fn listing_guide(listing: Listing) -> String {
    let mut s = String::from(
        "FILTERS (-Y)\n  \
         A test is FIELD OP VALUE, FIELD in {V V LO..HI}, or FIELD alone (true when the record has \
         it). OP is == != < <= > >= (or eq ne lt le gt ge), contains, or matches (~, a regular \
         expression). Tests join with && (and), || (or), ! (not) and parentheses. VALUE is a \
         number, an address or prefix (10.0.0.0/8 matches every address in it), a name, or \
         \"quoted text\". A name a field cannot take is refused (exit 2) with the close ones; \
         `nlorder -G values` lists them. As in tshark, a comparison on a field the record does \
         not have is false; tshark's names frame.number, frame.time_epoch, netlink.hdr_type, \
         netlink-route.nltype, netlink.hdr_pid, netlink.hdr_seq and netlink.hdr_len are accepted.\n\n\
         FIELDS\n",
    );
    for &f in listing.fields() {
        s.push_str(&format!(
            "  {:<10} {}\n",
            f.name(),
            nlorder::report::fields::describe(f)
        ));
    }
    s.push_str(&format!(
        "\nEXAMPLE\n  nlorder {} -Y '{}' -e {} CAPTURE\n",
        match listing {
            Listing::Decode => "decode",
            Listing::Timeline => "timeline",
            Listing::Who => "who",
        },
        listing.example(),
        listing.columns()
    ));
    s
}

/// Which records a listing shows, and how: tshark's habits.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// Only the records this display filter keeps (each listing's help names its fields).
    #[arg(short = 'Y', long = "filter", value_name = "EXPR")]
    pub filter: Option<String>,
    /// Print tab-separated columns of these fields instead of whole lines (comma-separated or
    /// repeated, like tshark's `-e`).
    #[arg(short = 'e', long = "fields", value_name = "FIELD", action = clap::ArgAction::Append)]
    pub fields: Vec<String>,
    /// Output as tshark's -T names it: text, fields (the -e columns; -e required), json or ek
    /// (both one JSON object per line, as ek prints them; not tshark's layout). Not with --format.
    #[arg(short = 'T', value_enum, value_name = "FORMAT")]
    pub output: Option<TsharkFormat>,
    /// Read only the first N packets (capture records, as `decode` numbers them), as tshark's
    /// -c does: the filter picks among their records. N is 1 or more.
    #[arg(short = 'c', long = "count", value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
}

/// tshark's -T formats nlorder has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TsharkFormat {
    Text,
    Fields,
    Json,
    Ek,
}

impl SelectArgs {
    fn selection(&self, offered: &'static [nlorder::filter::Field]) -> Result<app::selection::Selection, Error> {
        if self.output == Some(TsharkFormat::Fields) && self.fields.is_empty() {
            return Err(Error::Usage("-T fields needs the columns: -e FIELD[,FIELD]".into()));
        }
        app::selection::Selection::parse(self.filter.as_deref(), &self.fields, self.count, offered)
    }

    /// The format `--format` or `-T` asks for (not both).
    fn format(&self, format: Option<OutputFormat>) -> Result<Format, Error> {
        match (format, self.output) {
            (Some(_), Some(_)) => Err(Error::Usage("-T and --format say the same thing: give one".into())),
            (Some(f), None) => Ok(f.into()),
            (None, Some(TsharkFormat::Json | TsharkFormat::Ek)) => Ok(Format::Json),
            (None, _) => Ok(Format::Text),
        }
    }
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
}

#[derive(Debug, Args)]
pub struct TableArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    /// The tables as they stood once this record (a packet number, as `decode`
    /// numbers them) or the last record at or before this time (epoch seconds
    /// or RFC 3339) had been applied; `end+SECS`: that long after the last
    /// record, the kernel's own timers (duplicate address detection, address
    /// lifetimes) run on and nothing else assumed (what `ip` shows a few
    /// seconds after the capture of a quiet host). Default: the last record.
    #[arg(long)]
    pub at: Option<nlorder::rebuild::At>,
    /// Only this address family: 4 or 6 (also inet, inet6, ipv4, ipv6).
    #[arg(long, conflicts_with_all = ["ipv4", "ipv6"])]
    pub family: Option<nlorder::replay::Family>,
    /// IPv4 only, as `ip -4` (--family 4).
    #[arg(short = '4', conflicts_with = "ipv6")]
    pub ipv4: bool,
    /// IPv6 only, as `ip -6` (--family 6).
    #[arg(short = '6')]
    pub ipv6: bool,
    /// Output format: text (nlorder's lines: ip-like, with where each entry came from and
    /// what was assumed; not byte for byte what `ip` prints), nlorder's JSON, or ip-json:
    /// what iproute2's `ip -j link show`, `ip -j addr show` and `ip -j route show table all`
    /// print (see --objects).
    #[arg(long, value_enum)]
    pub format: Option<TableFormatArg>,
    /// --format ip-json, as `ip -j`.
    #[arg(short = 'j', conflicts_with = "format")]
    pub ip_json: bool,
    /// The tables to print, comma-separated (link, addr, route; default: all three). With
    /// ip-json, one table is the array `ip -j OBJECT show` prints; several an object holding
    /// each array under its name. Not with --format json.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "OBJECTS")]
    pub objects: Vec<IpObjectArg>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormatArg {
    Text,
    Json,
    IpJson,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IpObjectArg {
    Link,
    Addr,
    Route,
}

impl From<IpObjectArg> for app::table::IpObject {
    fn from(o: IpObjectArg) -> Self {
        match o {
            IpObjectArg::Link => app::table::IpObject::Link,
            IpObjectArg::Addr => app::table::IpObject::Addr,
            IpObjectArg::Route => app::table::IpObject::Route,
        }
    }
}

impl TableArgs {
    /// The output the flags ask for; `--objects` means nothing to the other formats.
    fn table_format(&self) -> Result<app::table::TableFormat, Error> {
        let objects = || self.objects.iter().map(|&o| o.into()).collect();
        let format = match (self.ip_json, self.format) {
            (true, _) => TableFormatArg::IpJson,
            (false, f) => f.unwrap_or(TableFormatArg::Text),
        };
        match format {
            TableFormatArg::IpJson => Ok(app::table::TableFormat::IpJson(objects())),
            TableFormatArg::Text if self.objects.is_empty() => Ok(Format::Text.into()),
            TableFormatArg::Text => Ok(app::table::TableFormat::TextOf(objects())),
            TableFormatArg::Json if !self.objects.is_empty() => Err(Error::Usage(
                "--objects applies to text and ip-json (the JSON document always holds all three)".into(),
            )),
            TableFormatArg::Json => Ok(Format::Json.into()),
        }
    }

    /// The family `--family`, `-4` or `-6` asks for.
    fn family(&self) -> Option<nlorder::replay::Family> {
        use nlorder::replay::Family;
        match (self.ipv4, self.ipv6) {
            (true, _) => Some(Family::V4),
            (_, true) => Some(Family::V6),
            _ => self.family,
        }
    }
}

#[derive(Debug, Args)]
#[command(
    mut_arg("filter", |a| a.help(filter_help(Listing::Timeline))),
    mut_arg("fields", |a| a.help(fields_help(Listing::Timeline))),
    after_long_help = listing_guide(Listing::Timeline)
)]
pub struct TimelineArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Output format: one line per change (the default), or one JSON object per line and a
    /// last one, `"change": "end"`, with the warnings and assumptions.
    #[arg(long, value_enum)]
    pub format: Option<OutputFormat>,
    #[command(flatten)]
    pub select: SelectArgs,
}

#[derive(Debug, Args)]
#[command(
    mut_arg("filter", |a| a.help(filter_help(Listing::Who))),
    mut_arg("fields", |a| a.help(fields_help(Listing::Who))),
    after_long_help = listing_guide(Listing::Who)
)]
pub struct WhoArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format: a line per request and per look (the default), or one JSON document.
    #[arg(long, value_enum)]
    pub format: Option<OutputFormat>,
    #[command(flatten)]
    pub select: SelectArgs,
}

#[derive(Debug, Args)]
pub struct AnnotateArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The pcapng file to write (`-` for stdout); never the capture being read.
    #[arg(short = 'w', long = "write", value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub model: ModelArgs,
}

#[derive(Debug, Args)]
pub struct DetectArgs {
    /// One capture, or one per node (`NODE=PATH` names the node; default: the file name)
    /// to check that no two nodes claim the same address.
    #[arg(required = true)]
    pub captures: Vec<String>,
    #[command(flatten)]
    pub io: IoOptions,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub settings: DetectSettingsArgs,
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
    /// Evaluate the tables as they stood at this record or time (see `table --at`),
    /// or `auto`: when the replayed program (a Go program) last looked at them.
    #[arg(long)]
    pub at: Option<nlorder::rebuild::AtSpec>,
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
    pub io: IoOptions,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub settings: DetectSettingsArgs,
    /// One lane for every program `detect --all` replays, instead of the one --method.
    #[arg(long)]
    pub all: bool,
    /// The tables and answers shown at the end of the page as they stood at this record or
    /// time (see `table --at`); the lanes always cover the whole capture.
    #[arg(long)]
    pub at: Option<nlorder::rebuild::At>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PictureFormatArg {
    Html,
    Svg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ResolverArg {
    Glibc,
    Go,
    Musl,
}

#[derive(Debug, Args)]
pub struct GaiArgs {
    /// The capture: a pcap or pcapng file (gzip is detected), or - for stdin.
    pub capture: PathBuf,
    #[command(flatten)]
    pub io: IoOptions,
    /// The candidates, in the order the name service returned them (hosts file or DNS);
    /// with --hosts, the one NAME to look up there instead.
    #[arg(required = true, value_name = "ADDR|NAME")]
    pub addrs: Vec<String>,
    /// Read the candidates for NAME from this hosts file as glibc's files backend does for
    /// getaddrinfo (glibc only): `#` starts a comment, the name is matched case-insensitively
    /// against each line's name and aliases, lines whose address inet_pton cannot read
    /// (`fe80::1%eth0`) are skipped, and only the first line that names it counts unless
    /// host.conf says `multi on`. The answer says which line each candidate came from.
    #[arg(long, value_name = "FILE")]
    pub hosts: Option<PathBuf>,
    /// The host's /etc/host.conf, read for its `multi on|off` (default: off, glibc's default
    /// without the file; Debian's host.conf says `multi on`; RESOLV_MULTI is not read).
    #[arg(long, value_name = "FILE", requires = "hosts")]
    pub host_conf: Option<PathBuf>,
    /// With --hosts: the program passed AI_ADDRCONFIG and AI_V4MAPPED, as `getent ahosts`
    /// does: on a host with addresses of one family only (loopback aside), glibc asks the
    /// hosts file for that family only (IPv4: IPv4-mapped lines read as IPv4, `::1` as
    /// 127.0.0.1, other IPv6 lines skipped). Go's cgo lookups do not pass it.
    #[arg(long, requires = "hosts")]
    pub addrconfig: bool,
    #[command(flatten)]
    pub model: ModelArgs,
    #[arg(long, value_enum, default_value = "glibc")]
    pub resolver: ResolverArg,
    /// The host's /etc/gai.conf (label, precedence, scopev4, reload lines).
    #[arg(long)]
    pub gai_conf: Option<PathBuf>,
    /// Evaluate the tables as they stood at this record or time (see `table --at`),
    /// or `auto`: when the resolver last looked at them (glibc: its __check_pf
    /// dump). Go's own resolver never asks: its moment is inferred from the last
    /// interface look of a Go program that sent no __check_pf (the program that
    /// resolves usually enumerates too), else the end is used; musl never asks,
    /// so the end is used.
    #[arg(long)]
    pub at: Option<nlorder::rebuild::AtSpec>,
    /// With --at auto: the order at every look, not only the last, marking where it changed.
    #[arg(long, conflicts_with_all = ["observed", "observed_file"])]
    pub all_looks: bool,
    /// Re-sort after every change in the capture and list where the order changed, with
    /// the rules behind each new order and the changes that caused it. With --observed:
    /// mark the moments that give the observed order; exit 1 when none does.
    #[arg(long, conflicts_with_all = ["at", "all_looks"])]
    pub timeline: bool,
    /// DEST=SRC: the source address for DEST, where the capture cannot tell. Repeatable.
    #[arg(long, value_parser = parse_source)]
    pub source: Vec<(std::net::IpAddr, std::net::IpAddr)>,
    /// The order the program actually got (comma-separated); exit 1 on mismatch, with what
    /// could explain it, first a moment of the capture that gives the observed order (the
    /// latest before the moment evaluated, else the earliest after it).
    #[arg(long, value_delimiter = ',')]
    pub observed: Vec<std::net::IpAddr>,
    /// The same, from `getent ahosts NAME` output (or one address per line).
    #[arg(long, conflicts_with = "observed")]
    pub observed_file: Option<PathBuf>,
    /// Output format: the order and every swap's rule as text, or one JSON document.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
}

/// `gai`'s candidates: every one an address.
fn gai_addrs(given: &[String]) -> Result<Vec<std::net::IpAddr>, Error> {
    given
        .iter()
        .map(|s| {
            s.parse().map_err(|_| {
                Error::Usage(format!(
                    "{s:?} is not an address (to look a name up in a hosts file, give --hosts FILE)"
                ))
            })
        })
        .collect()
}

/// `gai --hosts`: the one name to look up.
fn gai_name(given: Vec<String>) -> Result<String, Error> {
    let n = given.len();
    match <[String; 1]>::try_from(given) {
        Ok([name]) => Ok(name),
        Err(_) => Err(Error::Usage(format!("--hosts looks up one NAME, not {n}"))),
    }
}

fn parse_source(s: &str) -> Result<(std::net::IpAddr, std::net::IpAddr), nlorder::bad_value::BadValue> {
    let bad = || nlorder::bad_value::BadValue::new(s, "not DEST=SRC (two addresses)");
    let (d, src) = s.split_once('=').ok_or_else(bad)?;
    Ok((d.parse().map_err(|_| bad())?, src.parse().map_err(|_| bad())?))
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Manifests, or folders searched for *.nlorder.toml and nlorder.toml.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write the values computed now into the manifests (snapshot style); a
    /// manifest that only names its capture gets default expectations. A
    /// manifest any part of which cannot be run is not written at all.
    #[arg(long)]
    pub update: bool,
    /// Also write JUnit XML to this file: a test case per expectation, and an
    /// <error> one for each manifest, case or expectation that could not be run.
    #[arg(long)]
    pub junit: Option<PathBuf>,
    /// Output format: a line per expectation as text, or one JSON document.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// Run this many cases at once, one per thread (default: one per
    /// core). The output is the same, in manifest order.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The capture to write (`-` for stdout).
    #[arg(short = 'w', long = "write")]
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

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Read this capture (`-`: stdin, e.g. `nlorder record --follow -w - | nlorder watch -r -`)
    /// instead of subscribing to the kernel.
    #[arg(short = 'r', long = "read", value_name = "CAPTURE", conflicts_with_all = ["netns", "write"])]
    pub read: Option<PathBuf>,
    /// Keep what is recorded in this pcapng file too.
    #[arg(short = 'w', long = "write", value_name = "FILE")]
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
    pub io: IoOptions,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub settings: DetectSettingsArgs,
    /// Text lines, or one JSON object per change of the answer.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RequestFormArg {
    Full,
    Rtgenmsg,
}

impl IoOptions {
    /// Colour only when asked, or on a terminal without NO_COLOR.
    pub fn style(&self) -> Style {
        let color = match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                !self.quiet
                    && std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        Style { color }
    }

    pub fn trace(&self) -> TraceOptions {
        TraceOptions {
            byte_order: self.netlink_endian.map(|e| match e {
                Endian::Little => ByteOrder::Little,
                Endian::Big => ByteOrder::Big,
            }),
        }
    }

    /// How the command talks: a progress bar only on a terminal, not with --quiet.
    pub fn console(&self) -> Console {
        let bar = || Box::new(Progress::default()) as Box<dyn ReadProgress>;
        Console {
            quiet: self.quiet,
            style: self.style(),
            trace: self.trace(),
            progress: (!self.quiet && std::io::stderr().is_terminal()).then_some(bar as fn() -> _),
        }
    }
}

impl ModelArgs {
    pub fn options(&self) -> ModelOptions {
        ModelOptions {
            promote_secondaries: self.promote_secondaries.map(|p| p == OnOff::On),
            link_order: self.kernel_order.map(|o| match o {
                KernelOrderArg::Ascending => LinkOrder::Ascending,
                KernelOrderArg::Buckets => LinkOrder::Buckets,
            }),
            kernel: self.kernel,
        }
    }
}

impl CheckArgs {
    /// Colours as `--color` says (check reads no capture, so no other I/O option).
    fn console(&self) -> Console {
        IoOptions {
            netlink_endian: None,
            quiet: false,
            color: self.color,
        }
        .console()
    }
}

impl RecordArgs {
    /// The file format and recording options the flags ask for.
    pub fn options(&self) -> (nlorder::record::FileFormat, nlorder::record::Options) {
        let format = match self.pcap {
            true => nlorder::record::FileFormat::Pcap,
            false => nlorder::record::FileFormat::Pcapng,
        };
        let options = nlorder::record::Options {
            follow: self.follow,
            duration: self.duration,
            request_form: self.request_form.form(),
        };
        (format, options)
    }
}

impl ResolverArg {
    pub fn resolver(self) -> nlorder::replay::gai::Resolver {
        use nlorder::replay::gai::Resolver;
        match self {
            ResolverArg::Glibc => Resolver::Glibc,
            ResolverArg::Go => Resolver::Go,
            ResolverArg::Musl => Resolver::Musl,
        }
    }
}

impl RequestFormArg {
    pub fn form(self) -> nlorder::record::RequestForm {
        match self {
            RequestFormArg::Full => nlorder::record::RequestForm::Full,
            RequestFormArg::Rtgenmsg => nlorder::record::RequestForm::Rtgenmsg,
        }
    }
}

/// The subcommands that have a page of their own (`help` has none).
fn man_subcommands(cmd: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    cmd.get_subcommands().filter(|s| s.get_name() != "help")
}

/// nlorder-SUBCOMMAND(1): one subcommand's page, as the top page's
/// SEE ALSO names it (`None`: no such subcommand).
pub fn sub_page(name: &str, out: &mut dyn std::io::Write) -> Option<std::io::Result<()>> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let sub = man_subcommands(&cmd).find(|s| s.get_name() == name)?.clone();
    let page = format!("nlorder-{name}");
    let man = clap_mangen::Man::new(sub.name(page.clone()).bin_name(format!("nlorder {name}"))).title(page);
    let mut buf = Vec::new();
    if let Err(e) = man.render(&mut buf) {
        return Some(Err(e));
    }
    let text = headings(&String::from_utf8_lossy(&buf), ".SH");
    Some(out.write_all(text.as_bytes()))
}

/// The guide at the end of a listing's help (FILTERS, FIELDS, EXAMPLE) as
/// man sections (`.SH`) or subsections (`.SS`), instead of one EXTRA.
fn headings(roff: &str, level: &str) -> String {
    let mut out = String::with_capacity(roff.len());
    let mut lines = roff.lines().peekable();
    while let Some(line) = lines.next() {
        if line == ".SH EXTRA" {
            continue;
        }
        let heading = !line.is_empty()
            && !line.starts_with([' ', '.'])
            && line == line.to_uppercase()
            && line.chars().any(|c| c.is_ascii_alphabetic())
            && lines.peek().is_some_and(|next| next.starts_with("  "));
        if heading && ["FILTERS", "FIELDS", "EXAMPLE"].iter().any(|h| line.starts_with(h)) {
            out.push_str(&format!("{level} {line}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The names `nlorder man PAGE` takes.
pub fn sub_pages() -> Vec<String> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    man_subcommands(&cmd).map(|s| s.get_name().to_owned()).collect()
}

/// `nlorder man --dir DIR`: nlorder.1 and one page per subcommand; the
/// files written, in order.
pub fn write_pages(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let top = dir.join("nlorder.1");
    man_page(&mut std::io::BufWriter::new(std::fs::File::create(&top)?))?;
    written.push(top);
    for name in sub_pages() {
        let path = dir.join(format!("nlorder-{name}.1"));
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path)?);
        if let Some(r) = sub_page(&name, &mut f) {
            r?;
        }
        std::io::Write::flush(&mut f)?;
        written.push(path);
    }
    Ok(written)
}

/// `nlorder man`: the top-level page, then a section per subcommand with its
/// synopsis and every option (clap_mangen renders one command per page).
pub fn man_page(out: &mut dyn std::io::Write) -> std::io::Result<()> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    clap_mangen::Man::new(cmd.clone()).render(out)?;
    for sub in man_subcommands(&cmd) {
        let name = format!("nlorder {}", sub.get_name());
        let man = clap_mangen::Man::new(sub.clone().bin_name(name.clone()));
        let mut buf = Vec::new();
        man.render_synopsis_section(&mut buf)?;
        man.render_description_section(&mut buf)?;
        man.render_options_section(&mut buf)?;
        if sub.get_after_long_help().is_some() {
            man.render_extra_section(&mut buf)?;
        }
        let text = String::from_utf8_lossy(&buf)
            .replace(".SH SYNOPSIS", ".SS Synopsis")
            .replace(".SH DESCRIPTION", ".SS Description")
            .replace(".SH OPTIONS", ".SS Options");
        let text = headings(&text, ".SS");
        writeln!(out, ".SH \"{}\"", name.to_uppercase())?;
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

/// The command-line side of `nlorder::app::settings::DetectSettings`: the same fields, with
/// their flags (the manifests deserialize the library's type directly).
#[derive(Debug, Clone, Args)]
pub struct DetectSettingsArgs {
    /// A program (`kubelet`, `flannel`, `kubeadm`, `k3s`, `k3s-flannel`, `cilium`, `cilium-nodeport`,
    /// `cilium-masquerade`, `etcd`,
    /// `swarm`, `consul`, `nomad`), or a Calico IP_AUTODETECTION_METHOD value: first-found,
    /// interface=REGEX[,REGEX], skip-interface=REGEX[,REGEX], cidr=CIDR[,CIDR],
    /// can-reach=DEST, kubernetes-internal-ip. REGEX means what it means to
    /// calico-node: Go's RE2 (ASCII \d \w \s \b, \Q..\E), not the regex crate.
    #[arg(long, default_value = "first-found")]
    pub method: nlorder::replay::method::Method,
    /// Calico release whose behaviour to replay (exclude list, bugs), e.g. 3.22.1;
    /// a later release than any nlorder knows is replayed as the newest it knows, with a warning.
    #[arg(long, default_value = "latest")]
    pub calico_version: nlorder::replay::calico::Version,
    /// Address family to detect (calico-node detects IPv4 and IPv6 separately): 4 or 6.
    #[arg(long)]
    pub family: Option<nlorder::replay::Family>,
    /// The Node's InternalIP (kubernetes-internal-ip), repeatable, in status order;
    /// `NODE=IP` gives it for one node of several captures.
    #[arg(long, value_name = "[NODE=]IP")]
    pub node_internal_ip: Vec<nlorder::app::settings::NodeInternalIp>,
    /// calico-node's IP (or IP6) setting: autodetect, none, or ADDR[/LEN].
    #[arg(long, default_value = "autodetect")]
    pub ip: nlorder::replay::calico::IpSetting,
    /// A BGP peer: say whether the kernel would reach it from the chosen address. Repeatable.
    #[arg(long)]
    pub bgp_peer: Vec<IpAddr>,
    /// kubelet --node-ip (one, or two comma-separated for dual stack).
    #[arg(long, value_delimiter = ',')]
    pub node_ip: Vec<IpAddr>,
    /// kubelet --hostname-override.
    #[arg(long)]
    pub hostname_override: Option<String>,
    /// What the node name (kubelet) or can-reach=NAME (calico-node) resolved to, in resolver order
    /// (repeatable); none: the lookup returned nothing.
    #[arg(long, value_name = "ADDR|none")]
    pub resolved: Vec<nlorder::app::settings::Resolved>,
    /// kubelet: look the node name (--hostname-override, else the capture's NODE name) up in this
    /// hosts file and sort the answers as glibc's getaddrinfo does on the captured host.
    #[arg(long, value_name = "FILE", conflicts_with = "resolved")]
    pub hosts: Option<PathBuf>,
    /// With --hosts: the host's /etc/host.conf (`multi on` returns every line naming the name).
    #[arg(long, value_name = "FILE", requires = "hosts")]
    pub host_conf: Option<PathBuf>,
    /// flannel --iface (name or IP), repeatable.
    #[arg(long)]
    pub iface: Vec<String>,
    /// flannel --iface-regex, repeatable.
    #[arg(long)]
    pub iface_regex: Vec<String>,
    /// flannel --iface-can-reach.
    #[arg(long)]
    pub iface_can_reach: Option<IpAddr>,
    /// flannel --public-ip.
    #[arg(long)]
    pub public_ip: Option<IpAddr>,
    /// kubeadm --apiserver-advertise-address: `::` prefers IPv6, a loopback address
    /// selects a global address on lo, any other is used as given.
    #[arg(long)]
    pub advertise_address: Option<IpAddr>,
    /// k3s --flannel-iface (k3s, k3s-flannel).
    #[arg(long, value_name = "IFACE")]
    pub flannel_iface: Option<String>,
    /// flannel release whose address sort to replay (flannel, k3s-flannel): before 0.28.0 an
    /// interface's addresses are taken in dump order (global before link-local).
    #[arg(long, default_value = "0.28.0", value_name = "X.Y.Z")]
    pub flannel_version: nlorder::replay::calico::Version,
    /// Cilium's devices (its `devices` setting): the node-IP fallback walks the first one's addresses only;
    /// NodePort and masquerade take the devices named (comma-separated, `eth+` a prefix).
    #[arg(long, value_name = "DEV[,DEV]")]
    pub cilium_device: Option<String>,
    /// Cilium release to replay: the node-IP fallback takes the lowest address and counts
    /// secondaries before 1.14, the lowest link index without secondaries from 1.14, stops
    /// excluding down dummy links in 1.17 and skips tentative addresses from 1.20; NodePort and
    /// masquerade follow 1.15, or the code after it.
    #[arg(long, default_value = "1.20", value_name = "X.Y")]
    pub cilium_version: nlorder::replay::calico::Version,
    /// Exit 1 unless the chosen address is this one (ADDR compares the IP, ADDR/LEN also
    /// the prefix, none: nothing chosen). In a manifest: `address`.
    #[arg(long, value_name = "ADDR[/LEN]|none")]
    pub expect: Option<nlorder::app::settings::Expected>,
}

impl From<DetectSettingsArgs> for nlorder::app::settings::DetectSettings {
    fn from(a: DetectSettingsArgs) -> Self {
        nlorder::app::settings::DetectSettings {
            method: a.method,
            calico_version: a.calico_version,
            family: a.family,
            node_internal_ip: a.node_internal_ip,
            ip: a.ip,
            bgp_peer: a.bgp_peer,
            node_ip: a.node_ip,
            hostname_override: a.hostname_override,
            resolved: a.resolved,
            hosts: a.hosts,
            host_conf: a.host_conf,
            iface: a.iface,
            iface_regex: a.iface_regex,
            iface_can_reach: a.iface_can_reach,
            public_ip: a.public_ip,
            advertise_address: a.advertise_address,
            flannel_iface: a.flannel_iface,
            flannel_version: a.flannel_version,
            cilium_device: a.cilium_device,
            cilium_version: a.cilium_version,
            expect: a.expect,
            ..Default::default()
        }
    }
}

/// Files larger than this get a progress bar on a terminal.
const PROGRESS_FROM: u64 = 8 << 20;

/// The progress bar of a large capture read on a terminal.
#[derive(Default)]
struct Progress(Option<indicatif::ProgressBar>);

impl ReadProgress for Progress {
    fn wrap(&mut self, source: Box<dyn std::io::Read + Send>, len: Option<u64>) -> Box<dyn std::io::Read + Send> {
        use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
        let Some(len) = len.filter(|l| *l > PROGRESS_FROM) else {
            return source;
        };
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        if let Ok(s) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}") {
            bar.set_style(s);
        }
        self.0 = Some(bar.clone());
        Box::new(bar.wrap_read(source))
    }

    fn finish(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl From<OutputFormat> for Format {
    fn from(f: OutputFormat) -> Format {
        match f {
            OutputFormat::Text => Format::Text,
            OutputFormat::Json => Format::Json,
        }
    }
}

/// A subcommand as the library's request, and how it talks.
pub enum Job {
    Decode(app::decode::Decode),
    Table(app::table::Table),
    Timeline(app::timeline::Timeline),
    Who(app::who::Who),
    Annotate(app::annotate::Annotate),
    Detect(Box<app::detect::Detect>),
    Gai(Box<app::gai::Gai>),
    Check(app::check::Check),
    Report(Box<app::report::Report>),
    Record(app::record::Record),
    Watch(Box<app::watch::Watch>),
}

impl InputArgs {
    /// The capture, given in its place or with -r.
    fn source(&self) -> Result<Source, Error> {
        match (&self.capture, &self.read) {
            (Some(_), Some(_)) => Err(Error::Usage("the capture is given twice (CAPTURE and -r)".into())),
            (Some(p), None) | (None, Some(p)) => Ok(Source::Path(p.clone())),
            (None, None) => Err(Error::Usage("no capture: give CAPTURE or -r CAPTURE".into())),
        }
    }
}

impl Command {
    /// The request this subcommand makes (`None`: completions and man,
    /// which are the command line's own).
    pub fn request(self) -> Result<Option<(Job, Console)>, Error> {
        Ok(Some(match self {
            Command::Decode(a) => (
                Job::Decode(app::decode::Decode {
                    capture: a.input.source()?,
                    format: a.select.format(a.format)?,
                    attrs: a.attrs,
                    selection: a.select.selection(nlorder::filter::Field::MESSAGE)?,
                }),
                a.input.io.console(),
            ),
            Command::Table(a) => (
                Job::Table(app::table::Table {
                    capture: a.input.source()?,
                    model: a.model.options(),
                    at: a.at,
                    family: a.family(),
                    format: a.table_format()?,
                }),
                a.input.io.console(),
            ),
            Command::Timeline(a) => (
                Job::Timeline(app::timeline::Timeline {
                    capture: a.input.source()?,
                    model: a.model.options(),
                    format: a.select.format(a.format)?,
                    selection: a.select.selection(nlorder::filter::Field::CHANGE)?,
                }),
                a.input.io.console(),
            ),
            Command::Who(a) => (
                Job::Who(app::who::Who {
                    capture: a.input.source()?,
                    format: a.select.format(a.format)?,
                    selection: a.select.selection(nlorder::filter::Field::REQUEST)?,
                }),
                a.input.io.console(),
            ),
            Command::Annotate(a) => (
                Job::Annotate(app::annotate::Annotate {
                    capture: a.input.source()?,
                    model: a.model.options(),
                    output: a.file,
                }),
                a.input.io.console(),
            ),
            Command::Detect(a) => (
                Job::Detect(Box::new(app::detect::Detect {
                    nodes: app::detect::nodes(&a.captures)?,
                    settings: a.settings.into(),
                    installation: a.installation,
                    model: a.model.options(),
                    at: a.at,
                    timeline: a.timeline,
                    all: a.all,
                    all_looks: a.all_looks,
                    brief: a.brief,
                    format: a.format.into(),
                    jobs: a.jobs.map(|j| j as usize),
                })),
                a.io.console(),
            ),
            Command::Gai(a) => (
                Job::Gai(Box::new(app::gai::Gai {
                    capture: Source::Path(a.capture),
                    addrs: if a.hosts.is_some() {
                        Vec::new()
                    } else {
                        gai_addrs(&a.addrs)?
                    },
                    hosts: match a.hosts {
                        Some(file) => Some(app::gai::HostsQuery {
                            name: gai_name(a.addrs)?,
                            file,
                            host_conf: a.host_conf,
                            addrconfig: a.addrconfig,
                        }),
                        None => None,
                    },
                    model: a.model.options(),
                    resolver: a.resolver.resolver(),
                    gai_conf: a.gai_conf,
                    at: a.at,
                    all_looks: a.all_looks,
                    timeline: a.timeline,
                    sources: a.source,
                    observed: a.observed,
                    observed_file: a.observed_file,
                    format: a.format.into(),
                })),
                a.io.console(),
            ),
            Command::Check(a) => {
                let console = a.console();
                let check = app::check::Check {
                    paths: a.paths,
                    update: a.update,
                    junit: a.junit,
                    format: a.format.into(),
                    jobs: a.jobs.map(|j| j as usize),
                };
                (Job::Check(check), console)
            }
            Command::Report(a) => {
                let a = *a;
                if a.output.is_none() && std::io::stdout().is_terminal() {
                    return Err(Error::Usage(
                        "the picture is a file, not text for a terminal: give -o FILE.html (or -o FILE.svg with \
                         --format svg), or redirect the output"
                            .into(),
                    ));
                }
                let report = app::report::Report {
                    nodes: app::detect::nodes(&a.captures)?,
                    settings: a.settings.into(),
                    all: a.all,
                    model: a.model.options(),
                    at: a.at,
                    format: match a.format {
                        PictureFormatArg::Html => app::report::PictureFormat::Html,
                        PictureFormatArg::Svg => app::report::PictureFormat::Svg,
                    },
                    output: a.output,
                };
                (Job::Report(Box::new(report)), a.io.console())
            }
            Command::Record(a) => {
                let (format, options) = a.options();
                let console = Console {
                    quiet: a.quiet,
                    ..Console::quiet()
                };
                let record = app::record::Record {
                    file: a.file,
                    netns: a.netns,
                    format,
                    options,
                };
                (Job::Record(record), console)
            }
            Command::Watch(a) => {
                let feed = match a.read {
                    Some(path) => app::watch::Feed::Capture(Source::Path(path)),
                    None => app::watch::Feed::Kernel {
                        netns: a.netns,
                        write: a.write,
                        duration: a.duration,
                        request_form: a.request_form.form(),
                    },
                };
                let watch = app::watch::Watch {
                    settings: a.settings.into(),
                    model: a.model.options(),
                    feed,
                    format: a.format.into(),
                };
                (Job::Watch(Box::new(watch)), a.io.console())
            }
            Command::Completions { .. } | Command::Man { .. } => return Ok(None),
        }))
    }
}
