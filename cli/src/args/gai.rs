//! `gai`: the candidates, the resolver and the host's files.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::common::{IoOptions, ModelArgs, OutputFormat};

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
    /// Evaluate the tables as they stood at this record or time (a whole number below
    /// 1000000000 is a packet number, a larger one epoch seconds; see `table --at`),
    /// or `auto`: when the resolver last looked at them (glibc: its __check_pf
    /// dump). Go's own resolver never asks: its moment is inferred from the last
    /// interface look of a Go program that sent no __check_pf (the program that
    /// resolves usually enumerates too), else the end is used; musl never asks,
    /// so the end is used.
    #[arg(long)]
    pub at: Option<nlorder::ingest::rebuild::AtSpec>,
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

fn parse_source(s: &str) -> Result<(std::net::IpAddr, std::net::IpAddr), nlorder::bad_value::BadValue> {
    let bad = || nlorder::bad_value::BadValue::new(s, "not DEST=SRC (two addresses)");
    let (d, src) = s.split_once('=').ok_or_else(bad)?;
    Ok((d.parse().map_err(|_| bad())?, src.parse().map_err(|_| bad())?))
}
