//! The parsed flags as the library's requests ([`nlorder::app`]).
//! Contract: each subcommand's arguments become one typed request (and
//! the [`Console`] it talks through) here, once; flags that clap's own
//! rules cannot refuse together are refused here as `Error::Usage`.
//! Nothing is read, run or printed.

use std::io::IsTerminal;

use nlorder::app::{self, Console, Error, Format, ReadProgress, Source};
use nlorder::ingest::trace::TraceOptions;
use nlorder::model::{LinkOrder, ModelOptions};
use nlorder::netlink::ByteOrder;
use nlorder::report::style::Style;

use crate::args::{
    CheckArgs, ColorChoice, Command, DetectSettingsArgs, Endian, InputArgs, IoOptions, IpObjectArg, KernelOrderArg,
    ModelArgs, OnOff, OutputFormat, PictureFormatArg, RecordArgs, RequestFormArg, ResolverArg, SelectArgs, TableArgs,
    TableFormatArg, TsharkFormat,
};
use crate::progress::Progress;

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

impl From<IpObjectArg> for app::table::IpObject {
    fn from(o: IpObjectArg) -> Self {
        match o {
            IpObjectArg::Link => app::table::IpObject::Link,
            IpObjectArg::Addr => app::table::IpObject::Addr,
            IpObjectArg::Route => app::table::IpObject::Route,
            IpObjectArg::Rule => app::table::IpObject::Rule,
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
                "--objects applies to text and ip-json (the JSON document always holds links, addresses, routes and rules)".into(),
            )),
            TableFormatArg::Json => Ok(Format::Json.into()),
        }
    }

    /// The family `--family`, `-4` or `-6` asks for.
    fn family(&self) -> Option<nlorder::replay::Family> {
        family_of(self.family, self.ipv4, self.ipv6)
    }
}

/// The family `--family`, `-4` or `-6` asks for (clap lets one of them through).
fn family_of(family: Option<nlorder::replay::Family>, ipv4: bool, ipv6: bool) -> Option<nlorder::replay::Family> {
    use nlorder::replay::Family;
    match (ipv4, ipv6) {
        (true, _) => Some(Family::V4),
        (_, true) => Some(Family::V6),
        _ => family,
    }
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
            ipv6_mip6: self
                .kernel_config
                .iter()
                .rev()
                .map(|o| match o {
                    nlorder::model::KernelConfigOption::Ipv6Mip6(on) => *on,
                })
                .next(),
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

impl From<DetectSettingsArgs> for nlorder::app::settings::DetectSettings {
    fn from(a: DetectSettingsArgs) -> Self {
        nlorder::app::settings::DetectSettings {
            method: a.method,
            family: family_of(a.family, a.ipv4, a.ipv6),
            expect: a.expect,
            programs: a.programs,
            ..Default::default()
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
                    settings: a.replay.settings.into(),
                    installation: a.installation,
                    model: a.replay.model.options(),
                    at: a.at,
                    timeline: a.timeline,
                    all: a.all,
                    all_looks: a.all_looks,
                    brief: a.brief,
                    format: a.format.into(),
                    jobs: a.jobs.map(|j| j as usize),
                })),
                a.replay.io.console(),
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
                    settings: a.replay.settings.into(),
                    all: a.all,
                    model: a.replay.model.options(),
                    at: a.at,
                    format: match a.format {
                        PictureFormatArg::Html => app::report::PictureFormat::Html,
                        PictureFormatArg::Svg => app::report::PictureFormat::Svg,
                    },
                    output: a.output,
                };
                (Job::Report(Box::new(report)), a.replay.io.console())
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
                    settings: a.replay.settings.into(),
                    model: a.replay.model.options(),
                    feed,
                    format: a.format.into(),
                };
                (Job::Watch(Box::new(watch)), a.replay.io.console())
            }
            Command::Completions { .. } | Command::Man { .. } => return Ok(None),
        }))
    }
}
