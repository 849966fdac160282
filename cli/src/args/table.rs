//! `table` and `annotate`: the rebuilt tables, printed or written back as
//! comments on the capture.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::common::{InputArgs, ModelArgs};

#[derive(Debug, Args)]
pub struct TableArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    /// The tables as they stood once this record (a packet number, as `decode`
    /// numbers them) or the last record at or before this time (epoch seconds
    /// or RFC 3339) had been applied. A whole number below 1000000000 is a
    /// packet number (`--at 100`); from 1000000000 on, or with a fraction or an
    /// exponent (`1.7e9`), it is epoch seconds (`--at 1000000000` is 2001-09-09T01:46:40Z). `end+SECS`: that long after the last
    /// record, the kernel's own timers (duplicate address detection, address
    /// lifetimes) run on and nothing else assumed (what `ip` shows a few
    /// seconds after the capture of a quiet host). Default: the last record.
    #[arg(long)]
    pub at: Option<nlorder::ingest::rebuild::At>,
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
    /// The tables to print, comma-separated (link, addr, route, rule; default: link, addr and
    /// route, with the rules in text where the capture shows any). With
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
    Rule,
}

#[derive(Debug, Args)]
pub struct AnnotateArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The pcapng file to write (`-` for stdout); never the capture being read.
    #[arg(
        short = 'w',
        long = "write",
        value_name = "FILE",
        visible_short_alias = 'o',
        visible_alias = "output"
    )]
    pub file: PathBuf,
    #[command(flatten)]
    pub model: ModelArgs,
}
