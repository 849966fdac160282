//! The `nlorder` binary: parses the command line, opens the input, and wires
//! the library's layers to its printers. No decoding or model logic here.

mod cli;

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use cli::{
    CheckArgs, Cli, ColorChoice, Command, DecodeArgs, DetectArgs, Endian, Family, GaiArgs, InputArgs, IoOptions,
    KernelOrder, ModelArgs, OnOff, OutputFormat, RecordArgs, ResolverArg, TableArgs, TimelineArgs,
};
use nlorder::capture::CaptureReader;
use nlorder::diag::Diagnostics;
use nlorder::model::{ChangeSink, Event, LinkOrder, ModelOptions};
use nlorder::netlink::ByteOrder;
use nlorder::rebuild::{Rebuilt, rebuild};
use nlorder::report::decode::{JsonLinesPrinter, MessagePrinter, TextPrinter};
use nlorder::report::style::Style;
use nlorder::report::summary::write_summary;
use nlorder::report::table::{FamilyFilter, table_json, write_table_json, write_table_text};
use nlorder::report::timeline::{write_event_json, write_event_text};
use nlorder::trace::{TraceOptions, read_trace};

/// Exit status for input that cannot be read.
const EXIT_UNREADABLE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Decode(args) => decode(&args),
        Command::Table(args) => table(&args),
        Command::Timeline(args) => timeline(&args),
        Command::Detect(args) => detect(&args),
        Command::Gai(args) => gai(&args),
        Command::Check(args) => check(&args),
        Command::Record(args) => record(&args),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "nlorder", &mut io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => clap_mangen::Man::new(Cli::command())
            .render(&mut io::stdout())
            .map(|_| ExitCode::SUCCESS)
            .map_err(Failure::Output),
    };
    match result {
        Ok(code) => code,
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("nlorder: cannot write output: {e}");
            ExitCode::FAILURE
        }
        Err(Failure::Input(msg)) => {
            eprintln!("nlorder: {msg}");
            ExitCode::from(EXIT_UNREADABLE)
        }
    }
}

enum Failure {
    /// Unreadable input (exit 2), with a one-line reason.
    Input(String),
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Output(e)
    }
}

/// An opened capture and how to talk to the user about it.
struct Opened {
    reader: CaptureReader<'static>,
    progress: Option<ProgressBar>,
    name: String,
}

fn open(input: &InputArgs) -> Result<Opened, Failure> {
    open_path(&input.capture, &input.io)
}

fn open_path(path: &std::path::Path, io_opts: &IoOptions) -> Result<Opened, Failure> {
    let name = path.display().to_string();
    let show_progress = !io_opts.quiet && io::stderr().is_terminal();
    let (source, len): (Box<dyn Read + Send>, Option<u64>) = if name == "-" {
        (Box::new(io::stdin()), None)
    } else {
        let f = File::open(path).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
        let len = f.metadata().ok().map(|m| m.len());
        (Box::new(f), len)
    };
    let progress = match (show_progress, len) {
        (true, Some(len)) if len > 8 << 20 => {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}") {
                bar.set_style(style);
            }
            Some(bar)
        }
        _ => None,
    };
    let source: Box<dyn Read + Send> = match &progress {
        Some(bar) => Box::new(bar.wrap_read(source)),
        None => source,
    };
    let reader = CaptureReader::new(source).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    Ok(Opened { reader, progress, name })
}

fn style_for(input: &InputArgs) -> Style {
    style_of(&input.io)
}

fn style_of(input: &IoOptions) -> Style {
    let color = match input.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            !input.quiet && io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    Style { color }
}

fn trace_options(input: &InputArgs) -> TraceOptions {
    trace_options_of(&input.io)
}

fn trace_options_of(input: &IoOptions) -> TraceOptions {
    TraceOptions {
        byte_order: input.netlink_endian.map(|e| match e {
            Endian::Little => ByteOrder::Little,
            Endian::Big => ByteOrder::Big,
        }),
    }
}

fn decode(args: &DecodeArgs) -> Result<ExitCode, Failure> {
    let mut opened = open(&args.input)?;
    let style = style_for(&args.input);
    let stdout = io::stdout();
    let out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut printer: Box<dyn MessagePrinter> = match args.format {
        OutputFormat::Text => Box::new(TextPrinter::new(out, style, args.attrs)),
        OutputFormat::Json => Box::new(JsonLinesPrinter::new(out, args.attrs)),
    };
    let mut diags = Diagnostics::default();
    let mut write_error = None;
    let stats = read_trace(
        &mut opened.reader,
        trace_options(&args.input),
        &mut diags,
        |m| match printer.message(m) {
            Ok(()) => true,
            Err(e) => {
                write_error = Some(e);
                false
            }
        },
    );
    if let Some(bar) = &opened.progress {
        bar.finish_and_clear();
    }
    if let Some(e) = write_error {
        return Err(Failure::Output(e));
    }
    let stats = stats.map_err(|e| Failure::Input(format!("{}: {e}", opened.name)))?;
    printer.finish()?;
    if !args.input.io.quiet {
        let stderr = io::stderr();
        let mut err = stderr.lock();
        write_summary(&mut err, &opened.reader.info, &stats, &diags, style_for(&args.input))?;
        err.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn model_options(m: &ModelArgs) -> ModelOptions {
    ModelOptions {
        promote_secondaries: m.promote_secondaries == OnOff::On,
        link_order: m.kernel_order.map(|o| match o {
            KernelOrder::Ascending => LinkOrder::Ascending,
            KernelOrder::Buckets => LinkOrder::Buckets,
        }),
        kernel: m.kernel,
    }
}

/// Reads the whole capture (up to `at`) into the model; prints the summary.
fn run_model<S: ChangeSink>(
    input: &InputArgs,
    model: &ModelArgs,
    at: Option<nlorder::rebuild::At>,
    sink: &mut S,
) -> Result<(Rebuilt, Diagnostics), Failure> {
    let mut opened = open(input)?;
    let mut diags = Diagnostics::default();
    let rebuilt = rebuild(
        &mut opened.reader,
        trace_options(input),
        model_options(model),
        at,
        &mut diags,
        sink,
    );
    if let Some(bar) = &opened.progress {
        bar.finish_and_clear();
    }
    let rebuilt = rebuilt.map_err(|e| Failure::Input(format!("{}: {e}", opened.name)))?;
    if !input.io.quiet {
        let stderr = io::stderr();
        let mut err = stderr.lock();
        write_summary(&mut err, &opened.reader.info, &rebuilt.stats, &diags, style_for(input))?;
        nlorder::report::summary::write_model_summary(&mut err, rebuilt.model.stats())?;
        err.flush()?;
    }
    Ok((rebuilt, diags))
}

fn table(args: &TableArgs) -> Result<ExitCode, Failure> {
    let (rebuilt, diags) = run_model(&args.input, &args.model, args.at, &mut ())?;
    let filter = match args.family {
        None => FamilyFilter::All,
        Some(Family::V4) => FamilyFilter::V4,
        Some(Family::V6) => FamilyFilter::V6,
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.format {
        OutputFormat::Json => {
            let t = table_json(&rebuilt.model, rebuilt.last_packet, filter, &diags);
            write_table_json(&mut out, &t)?;
        }
        OutputFormat::Text => {
            let style = style_for(&args.input);
            write_table_text(&mut out, &rebuilt.model, rebuilt.last_packet, filter, &style)?;
            if !args.input.io.quiet {
                let stderr = io::stderr();
                let mut err = stderr.lock();
                for w in rebuilt.model.warnings().iter() {
                    writeln!(err, "  {w}")?;
                }
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Prints each change as it happens.
struct TimelinePrinter<W: Write> {
    out: W,
    json: bool,
    style: Style,
    error: Option<io::Error>,
}

impl<W: Write> ChangeSink for TimelinePrinter<W> {
    fn change(&mut self, e: Event) {
        if self.error.is_some() {
            return;
        }
        let r = if self.json {
            write_event_json(&mut self.out, &e)
        } else {
            write_event_text(&mut self.out, &e, &self.style)
        };
        if let Err(err) = r {
            self.error = Some(err);
        }
    }
}

fn timeline(args: &TimelineArgs) -> Result<ExitCode, Failure> {
    let stdout = io::stdout();
    let mut printer = TimelinePrinter {
        out: BufWriter::new(stdout.lock()),
        json: args.format == OutputFormat::Json,
        style: style_for(&args.input),
        error: None,
    };
    let (rebuilt, _) = run_model(&args.input, &args.model, None, &mut printer)?;
    if let Some(e) = printer.error.take() {
        return Err(Failure::Output(e));
    }
    printer.out.flush()?;
    if !args.input.io.quiet {
        let stderr = io::stderr();
        let mut err = stderr.lock();
        for w in rebuilt.model.warnings().iter() {
            writeln!(err, "  {w}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Exit status when an expectation does not hold.
const EXIT_EXPECTATION: u8 = 1;

/// `--node-internal-ip [NODE=]IP` values that apply to `node`.
fn internal_ips(args: &DetectArgs, node: &str) -> Result<Vec<std::net::IpAddr>, Failure> {
    let mut out = Vec::new();
    for v in &args.node_internal_ip {
        let (who, ip) = match v.split_once('=') {
            Some((n, ip)) => (Some(n), ip),
            None => (None, v.as_str()),
        };
        if who.is_some_and(|n| n != node) {
            continue;
        }
        out.push(
            ip.parse()
                .map_err(|_| Failure::Input(format!("--node-internal-ip {v}: not an IP address")))?,
        );
    }
    Ok(out)
}

fn detect_spec(args: &DetectArgs, node: &str) -> Result<nlorder::replay::MethodSpec, Failure> {
    use nlorder::replay::calico;
    let family = match args.family {
        Some(Family::V6) => 6,
        _ => 4,
    };
    let mut method = args.method.clone();
    if let Some(path) = &args.installation {
        let text = std::fs::read_to_string(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
        let doc: serde_json::Value = serde_yaml_ng::from_str(&text)
            .map_err(|e| Failure::Input(format!("{}: not YAML or JSON: {e}", path.display())))?;
        method = match calico::method_from_installation(&doc, family == 6).map_err(Failure::Input)? {
            Some(m) => m,
            None => {
                return Err(Failure::Input(format!(
                    "{}: no nodeAddressAutodetectionV{family}: the operator sets IP{}=none",
                    path.display(),
                    if family == 6 { "6" } else { "" }
                )));
            }
        };
    }
    Ok(nlorder::replay::Settings {
        method,
        calico_version: Some(args.calico_version),
        family: Some(family),
        node_internal_ips: internal_ips(args, node)?,
        ip: Some(args.ip.clone()),
        bgp_peers: args.bgp_peer.clone(),
        node_ip: args.node_ip.clone(),
        hostname_override: args.hostname_override.clone(),
        resolved: args.resolved.clone(),
        iface: args.iface.clone(),
        iface_regex: args.iface_regex.clone(),
        iface_can_reach: args.iface_can_reach,
        public_ip: args.public_ip,
    }
    .spec())
}

fn expectation_holds(expect: &str, d: &nlorder::replay::verdict::Detection) -> bool {
    match &d.address {
        None => expect == "none",
        Some(a) if expect.contains('/') => a == expect,
        Some(_) => d.ip().map(|ip| ip.to_string()) == expect.parse::<std::net::IpAddr>().ok().map(|e| e.to_string()),
    }
}

fn detect(args: &DetectArgs) -> Result<ExitCode, Failure> {
    use nlorder::report::detect::*;
    let style = style_of(&args.io);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut results: Vec<(String, nlorder::replay::verdict::Detection)> = Vec::new();
    let mut json_nodes = Vec::new();
    for c in &args.captures {
        let (node, path) = match c.split_once('=') {
            Some((n, p)) if !n.is_empty() && !n.contains('/') => (n.to_string(), std::path::PathBuf::from(p)),
            _ => {
                let p = std::path::PathBuf::from(c);
                let stem = p
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_else(|| c.clone());
                (stem.split('.').next().unwrap_or(&stem).to_string(), p)
            }
        };
        let spec = detect_spec(args, &node)?;
        let mut opened = open_path(&path, &args.io)?;
        let mut diags = Diagnostics::default();
        if args.timeline {
            let watched = nlorder::rebuild::watch(
                &mut opened.reader,
                trace_options_of(&args.io),
                model_options(&args.model),
                &mut diags,
                |m| nlorder::replay::verdict::Outcome(spec.detect(m)),
            );
            if let Some(bar) = &opened.progress {
                bar.finish_and_clear();
            }
            let (flips, rebuilt) = watched.map_err(|e| Failure::Input(format!("{}: {e}", opened.name)))?;
            summary(&args.io, &opened, &rebuilt, &diags)?;
            match args.format {
                OutputFormat::Text => {
                    writeln!(
                        out,
                        "[{node}] {} over time:",
                        flips.last().map(|f| f.after.0.method.as_str()).unwrap_or("")
                    )?;
                    write_flips_text(&mut out, &flips, &style)?;
                }
                OutputFormat::Json => {
                    json_nodes.push(serde_json::json!({ "node": node, "capture": path, "flips": json_flips(&flips) }))
                }
            }
            if let Some(last) = flips.last() {
                results.push((node, last.after.0.clone()));
            }
            continue;
        }
        let rebuilt = nlorder::rebuild::rebuild(
            &mut opened.reader,
            trace_options_of(&args.io),
            model_options(&args.model),
            args.at,
            &mut diags,
            &mut (),
        );
        if let Some(bar) = &opened.progress {
            bar.finish_and_clear();
        }
        let rebuilt = rebuilt.map_err(|e| Failure::Input(format!("{}: {e}", opened.name)))?;
        summary(&args.io, &opened, &rebuilt, &diags)?;
        if args.all {
            let base = match &spec {
                nlorder::replay::MethodSpec::Calico { options, .. } => options.clone(),
                _ => nlorder::replay::calico::Options::default(),
            };
            let rows = nlorder::replay::matrix::run(&rebuilt.model, &base);
            match args.format {
                OutputFormat::Text => {
                    writeln!(out, "[{node}] every method on {}:", path.display())?;
                    write_matrix_text(&mut out, &rows, &style)?;
                }
                OutputFormat::Json => {
                    json_nodes.push(serde_json::json!({ "node": node, "capture": path, "methods": rows }))
                }
            }
            continue;
        }
        let d = spec.detect(&rebuilt.model);
        match args.format {
            OutputFormat::Text => {
                let label = (args.captures.len() > 1).then_some(node.as_str());
                write_detection_text(&mut out, &d, label, &style)?;
            }
            OutputFormat::Json => {
                let mut v = serde_json::to_value(&d).map_err(|e| Failure::Output(io::Error::other(e)))?;
                if let Some(o) = v.as_object_mut() {
                    o.insert("node".into(), node.clone().into());
                    o.insert("capture".into(), path.display().to_string().into());
                    o.insert("at_packet".into(), rebuilt.last_packet.into());
                }
                json_nodes.push(v);
            }
        }
        results.push((node, d));
    }
    let conflicts = nlorder::replay::conflict::check(&results);
    let multi = args.captures.len() > 1;
    match args.format {
        OutputFormat::Text => {
            if multi && !args.all {
                write_conflicts_text(&mut out, &conflicts, &style)?;
            }
        }
        OutputFormat::Json => {
            let doc = if multi || args.all || args.timeline {
                serde_json::json!({ "nodes": json_nodes, "conflicts": conflicts })
            } else {
                json_nodes.pop().unwrap_or(serde_json::Value::Null) // ok: one capture gives one node
            };
            serde_json::to_writer_pretty(&mut out, &doc).map_err(|e| Failure::Output(io::Error::other(e)))?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    if let Some(expect) = &args.expect {
        let failed: Vec<String> = results
            .iter()
            .filter(|(_, d)| !expectation_holds(expect, d))
            .map(|(n, d)| format!("{n}: expected {expect}, got {}", outcome(d)))
            .collect();
        if !failed.is_empty() {
            for f in failed {
                eprintln!("nlorder: {f}");
            }
            return Ok(ExitCode::from(EXIT_EXPECTATION));
        }
    }
    if !conflicts.is_empty() {
        return Ok(ExitCode::from(EXIT_EXPECTATION));
    }
    Ok(ExitCode::SUCCESS)
}

fn summary(io_opts: &IoOptions, opened: &Opened, rebuilt: &Rebuilt, diags: &Diagnostics) -> Result<(), Failure> {
    if io_opts.quiet {
        return Ok(());
    }
    let stderr = io::stderr();
    let mut err = stderr.lock();
    write_summary(&mut err, &opened.reader.info, &rebuilt.stats, diags, style_of(io_opts))?;
    for w in rebuilt.model.warnings().iter() {
        writeln!(err, "  {w}")?;
    }
    Ok(())
}

fn gai(args: &GaiArgs) -> Result<ExitCode, Failure> {
    use nlorder::replay::gai::{self, GaiConf, Resolver};
    let conf = match &args.gai_conf {
        Some(p) => {
            GaiConf::parse(&std::fs::read_to_string(p).map_err(|e| Failure::Input(format!("{}: {e}", p.display())))?)
        }
        None => GaiConf::default(),
    };
    let observed = match &args.observed_file {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| Failure::Input(format!("{}: {e}", p.display())))?;
            nlorder::report::gai::parse_observed(&text).map_err(|e| Failure::Input(format!("{}: {e}", p.display())))?
        }
        None => args.observed.clone(),
    };
    let (rebuilt, _) = run_model(&args.input, &args.model, args.at, &mut ())?;
    let options = gai::Options {
        resolver: match args.resolver {
            ResolverArg::Glibc => Resolver::Glibc,
            ResolverArg::Go => Resolver::Go,
            ResolverArg::Musl => Resolver::Musl,
        },
        gai_conf: conf,
        sources: args.source.clone(),
    };
    let result = gai::sort(&rebuilt.model, &args.addrs, &options);
    let mismatch = !observed.is_empty() && observed != result.order;
    let why = if mismatch {
        gai::explain_mismatch(&rebuilt.model, &args.addrs, &options, &observed)
    } else {
        Vec::new()
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.format {
        OutputFormat::Text => {
            let obs = (!observed.is_empty()).then_some((observed.as_slice(), why.as_slice()));
            nlorder::report::gai::write_gai_text(&mut out, &result, obs, &style_for(&args.input))?;
        }
        OutputFormat::Json => {
            let mut v = serde_json::to_value(&result).map_err(|e| Failure::Output(io::Error::other(e)))?;
            if let Some(o) = v.as_object_mut() {
                o.insert("at_packet".into(), rebuilt.last_packet.into());
                if !observed.is_empty() {
                    o.insert("observed".into(), serde_json::json!(observed));
                    o.insert("matches_observed".into(), (!mismatch).into());
                    o.insert("mismatch_explanations".into(), serde_json::json!(why));
                }
            }
            serde_json::to_writer_pretty(&mut out, &v).map_err(|e| Failure::Output(io::Error::other(e)))?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(if mismatch {
        ExitCode::from(EXIT_EXPECTATION)
    } else {
        ExitCode::SUCCESS
    })
}

fn check(args: &CheckArgs) -> Result<ExitCode, Failure> {
    use nlorder::check::{self, manifest, update};
    use nlorder::report::check as printer;
    let style = style_of(&IoOptions {
        netlink_endian: None,
        quiet: false,
        color: args.color,
    });
    let files = manifest::discover(&args.paths).map_err(Failure::Input)?;
    if files.is_empty() {
        return Err(Failure::Input(
            "no manifests (*.nlorder.toml, nlorder.toml) found".into(),
        ));
    }
    let mut outcomes = Vec::new();
    for f in &files {
        let mut m = manifest::load(f).map_err(Failure::Input)?;
        if args.update {
            let empty: Vec<Option<usize>> = m
                .cases()
                .iter()
                .filter(|(_, c)| c.expectation_count() == 0)
                .map(|(i, _)| *i)
                .collect();
            if !empty.is_empty() {
                let text =
                    update::skeleton(&m.text, &empty).map_err(|e| Failure::Input(format!("{}: {e}", f.display())))?;
                std::fs::write(f, &text).map_err(|e| Failure::Input(format!("{}: {e}", f.display())))?;
                m = manifest::load(f).map_err(Failure::Input)?;
            }
            let (_, values) = check::run(&m).map_err(Failure::Input)?;
            let text = update::apply(&m.text, &values).map_err(|e| Failure::Input(format!("{}: {e}", f.display())))?;
            if text != m.text {
                std::fs::write(f, &text).map_err(|e| Failure::Input(format!("{}: {e}", f.display())))?;
                eprintln!("nlorder: updated {}", f.display());
            }
            m = manifest::load(f).map_err(Failure::Input)?;
        }
        let (mut o, _) = check::run(&m).map_err(Failure::Input)?;
        outcomes.append(&mut o);
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match args.format {
        OutputFormat::Text => {
            printer::write_text(&mut out, &outcomes, &style)?;
            writeln!(out, "{}", printer::summary(&outcomes))?;
        }
        OutputFormat::Json => printer::write_json(&mut out, &outcomes)?,
    }
    out.flush()?;
    if let Some(path) = &args.junit {
        let xml = printer::junit(&outcomes).map_err(|e| Failure::Output(io::Error::other(e)))?;
        std::fs::write(path, xml).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    }
    Ok(if outcomes.iter().all(|o| o.passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_EXPECTATION)
    })
}

fn record(args: &RecordArgs) -> Result<ExitCode, Failure> {
    use nlorder::record::{self, FileFormat, Options};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&stop))
            .map_err(|e| Failure::Input(format!("cannot handle signals: {e}")))?;
    }
    let format = if args.pcapng {
        FileFormat::Pcapng
    } else {
        FileFormat::Pcap
    };
    let options = Options {
        follow: args.follow,
        duration: args.duration,
        request_form: match args.request_form {
            cli::RequestFormArg::Full => record::RequestForm::Full,
            cli::RequestFormArg::Rtgenmsg => record::RequestForm::Rtgenmsg,
        },
    };
    if let Some(ns) = &args.netns {
        record::enter_netns(ns).map_err(|e| Failure::Input(e.to_string()))?;
    }
    let name = args.file.display().to_string();
    let result = if name == "-" {
        record::record(io::stdout().lock(), format, &options, stop)
    } else {
        let f = File::create(&args.file).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
        record::record(BufWriter::new(f), format, &options, stop)
    };
    let summary = result.map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    if !args.quiet {
        eprintln!(
            "nlorder: {} records written to {name} ({} dumps, {} notification buffers{})",
            summary.records,
            summary.dumps,
            summary.notifications,
            if summary.overruns > 0 {
                format!(", {} lost: the kernel's queue overflowed (ENOBUFS)", summary.overruns)
            } else {
                String::new()
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}
