//! The `nlorder` binary: parses the command line and wires each subcommand
//! to the library (a session that opens and rebuilds the capture, a replay,
//! a printer). No decoding, model, replay or formatting logic here.

mod cli;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use cli::{
    CheckArgs, Cli, Command, DecodeArgs, DetectArgs, GaiArgs, OutputFormat, RecordArgs, TableArgs, TimelineArgs,
    WhoArgs,
};
use nlorder::report::decode::{JsonLinesPrinter, MessagePrinter, TextPrinter};
use nlorder::report::table::{FamilyFilter, write_table};
use nlorder::report::timeline::TimelinePrinter;
use nlorder::session::{Error, evaluate_following};

/// Exit status when an expectation does not hold.
const EXIT_EXPECTATION: u8 = 1;
/// Exit status for input that cannot be read, and for unusable arguments.
const EXIT_UNREADABLE: u8 = 2;

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Decode(args) => decode(&args),
        Command::Table(args) => table(&args),
        Command::Timeline(args) => timeline(&args),
        Command::Who(args) => who(&args),
        Command::Detect(args) => detect(&args),
        Command::Gai(args) => gai(&args),
        Command::Check(args) => check(&args),
        Command::Record(args) => record(&args),
        Command::Completions { shell } => {
            // Generated whole first: clap_complete panics on a failed write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "nlorder", &mut script);
            io::stdout()
                .lock()
                .write_all(&script)
                .map(|_| ExitCode::SUCCESS)
                .map_err(Error::Output)
        }
        Command::Man => cli::man_page(&mut io::stdout().lock())
            .map(|_| ExitCode::SUCCESS)
            .map_err(Error::Output),
    };
    match result {
        Ok(code) => code,
        // A reader that closed the pipe (`| head`) is not an error.
        Err(Error::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e @ Error::Output(_)) => {
            eprintln!("nlorder: {e}");
            ExitCode::FAILURE
        }
        Err(Error::Unreadable(msg)) => {
            eprintln!("nlorder: {msg}");
            ExitCode::from(EXIT_UNREADABLE)
        }
        Err(Error::Usage(msg)) => {
            // The subcommand's own usage line, as clap gives for its errors.
            let mut cmd = Cli::command();
            let sub = std::env::args()
                .nth(1)
                .and_then(|a| cmd.find_subcommand_mut(&a).cloned());
            let mut cmd = sub.map_or(cmd, |s| {
                let name = format!("nlorder {}", s.get_name());
                s.bin_name(name)
            });
            cmd.error(clap::error::ErrorKind::ValueValidation, msg).exit()
        }
    }
}

fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

fn decode(args: &DecodeArgs) -> Result<ExitCode, Error> {
    let mut session = args.input.io.open(&args.input.capture)?;
    let mut printer: Box<dyn MessagePrinter> = match args.format {
        OutputFormat::Text => Box::new(TextPrinter::new(stdout(), args.input.io.style(), args.attrs)),
        OutputFormat::Json => Box::new(JsonLinesPrinter::new(stdout(), args.attrs)),
    };
    let mut write_error = None;
    let (stats, diags) = session.read(args.input.io.trace(), |m| {
        printer.message(m).map_err(|e| write_error = Some(e)).is_ok()
    })?;
    if let Some(e) = write_error {
        return Err(Error::Output(e));
    }
    printer.finish()?;
    session.summary(&stats, &diags, None)?;
    Ok(ExitCode::SUCCESS)
}

fn table(args: &TableArgs) -> Result<ExitCode, Error> {
    let mut session = args.input.io.open(&args.input.capture)?.assumptions_in_output();
    let (rebuilt, diags) = session.rebuild(args.input.io.trace(), args.model.options(), args.at, &mut ())?;
    let filter = FamilyFilter::from(args.family);
    let (mut out, json) = (stdout(), args.format == OutputFormat::Json);
    write_table(&mut out, json, &rebuilt, filter, &diags, &args.input.io.style())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn timeline(args: &TimelineArgs) -> Result<ExitCode, Error> {
    let mut session = args.input.io.open(&args.input.capture)?;
    let json = args.format == OutputFormat::Json;
    let mut printer = TimelinePrinter::new(stdout(), json, args.input.io.style());
    session.rebuild(args.input.io.trace(), args.model.options(), None, &mut printer)?;
    printer.finish(&session.grounds)?;
    Ok(ExitCode::SUCCESS)
}

fn who(args: &WhoArgs) -> Result<ExitCode, Error> {
    let mut session = args.input.io.open(&args.input.capture)?;
    let who = session.who(args.input.io.trace())?;
    let (mut out, json) = (stdout(), args.format == OutputFormat::Json);
    let warnings = &session.grounds.warnings;
    nlorder::report::who::write_who(&mut out, json, &who, warnings, &args.input.io.style())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn detect(args: &DetectArgs) -> Result<ExitCode, Error> {
    use nlorder::replay::{calico, matrix, verdict::Outcome};
    use nlorder::report::detect::Report;
    let mut settings = nlorder::replay::DetectSettings::from(args.settings.clone());
    // Said even with --quiet: the answer is not the release asked for.
    if let Some(w) = settings.calico_version.unknown_warning() {
        eprintln!("nlorder: warning: --calico-version: {w}");
    }
    if let Some(path) = &args.installation {
        let (method, why) =
            nlorder::replay::operator::method_of_file(path, settings.family()).map_err(Error::Unreadable)?;
        if !args.io.quiet {
            eprintln!("nlorder: --installation: {method} ({why})");
        }
        settings.method = method;
    }
    let nodes = nlorder::report::detect::nodes(&args.captures).map_err(Error::Usage)?;
    let names: Vec<String> = nodes.iter().map(|(n, _)| n.clone()).collect();
    settings.validate(&names).map_err(|e| Error::Usage(e.to_string()))?;
    let mut out = stdout();
    let json = args.format == OutputFormat::Json;
    let multi = args.captures.len() > 1;
    let mut report = Report::new(&mut out, json, args.io.style(), multi);
    for (node, path) in nodes {
        let spec = settings.spec(&node).map_err(|e| Error::Usage(e.to_string()))?;
        if args.timeline {
            let key = |m: &nlorder::model::Model| spec.outcome(m);
            let eval = |m: &nlorder::model::Model| Outcome(spec.detect(m));
            let mut session = args.io.open(&path)?;
            let (flips, _) = session.watch(args.io.trace(), args.model.options(), key, eval)?;
            report.flips(&node, &path, &flips, &session.grounds)?;
            continue;
        }
        let (open, trace, model) = (|| args.io.open(&path), args.io.trace(), args.model.options());
        // Calico, kubelet and flannel are Go programs: `--at auto` finds Go's looks.
        let looker = (nlorder::looks::Looker::Go, args.all_looks);
        if args.all {
            let base = match &spec {
                nlorder::replay::MethodSpec::Calico { options, .. } => options.clone(),
                _ => calico::Options::default(),
            };
            let (results, grounds) =
                evaluate_following(open, trace, model, args.at, looker, &mut (), |m| matrix::run(m, &base))?;
            for (moment, rows) in results {
                report.matrix(&node, &path, &moment, &rows, &grounds)?;
            }
        } else {
            let (results, grounds) =
                evaluate_following(open, trace, model, args.at, looker, &mut (), |m| spec.detect(m))?;
            report.detections(&node, &path, results, args.all_looks, &grounds)?;
        }
    }
    let (failed, conflicts) = report.finish(settings.expect.as_ref())?;
    out.flush()?;
    for f in &failed {
        eprintln!("nlorder: {f}");
    }
    Ok(if failed.is_empty() && conflicts == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_EXPECTATION)
    })
}

fn gai(args: &GaiArgs) -> Result<ExitCode, Error> {
    use nlorder::replay::gai;
    let observed =
        nlorder::report::gai::observed(&args.observed, args.observed_file.as_deref()).map_err(Error::Unreadable)?;
    let options = gai::Options::read(args.resolver.resolver(), args.gai_conf.as_deref(), args.source.clone())
        .map_err(Error::Unreadable)?;
    if args.timeline {
        return gai_timeline(args, &options, &observed);
    }
    let looker = args.resolver.looker();
    let path = &args.input.capture;
    let open = || args.input.io.open(path);
    let (trace, model) = (args.input.io.trace(), args.model.options());
    if args.all_looks {
        let (results, grounds) = evaluate_following(open, trace, model, args.at, (looker, true), &mut (), |m| {
            gai::sort(m, &args.addrs, &options)
        })?;
        let (mut out, json) = (stdout(), args.format == OutputFormat::Json);
        nlorder::report::gai::write_looks(&mut out, json, &results, &grounds, &args.input.io.style())?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    // With an observed order, a second model watches the whole capture in
    // the same pass: the stretches whose order is the observed one.
    let order = |m: &nlorder::model::Model| gai::sort(m, &args.addrs, &options).order;
    let mut watcher = (!observed.is_empty()).then(|| nlorder::rebuild::Watcher::new(model, order, order));
    let (results, grounds) = evaluate_following(open, trace, model, args.at, (looker, false), &mut watcher, |m| {
        let result = gai::sort(m, &args.addrs, &options);
        let why = match !observed.is_empty() && observed != result.order {
            true => gai::explain_mismatch(m, &args.addrs, &options, &observed),
            false => Vec::new(),
        };
        (result, why)
    })?;
    let Some((moment, (result, mut why))) = results.into_iter().next_back() else {
        return Ok(ExitCode::SUCCESS);
    };
    let spans = watcher.map_or_else(Vec::new, |w| {
        let last = w.last_packet();
        let flips = nlorder::rebuild::per_packet(w.finish().0, |a, b| a == b);
        gai::spans(flips.iter().map(|f| (f.packet, f.after.as_slice())), last)
    });
    let mismatch = !observed.is_empty() && observed != result.order;
    if mismatch && let Some(e) = gai::explain_by_moment(&spans, moment.packet, &observed) {
        why.insert(0, e);
    }
    let moments: Vec<gai::Span> = spans.into_iter().filter(|s| s.order == observed).collect();
    let seen = nlorder::report::gai::Observed {
        order: &observed,
        why: &why,
        moments: &moments,
    };
    let mut out = stdout();
    let json = args.format == OutputFormat::Json;
    let style = args.input.io.style();
    nlorder::report::gai::write_gai(&mut out, json, (&result, &moment), &seen, &grounds, &style)?;
    out.flush()?;
    Ok(if mismatch {
        ExitCode::from(EXIT_EXPECTATION)
    } else {
        ExitCode::SUCCESS
    })
}

/// `gai --timeline`: the order re-sorted after every change, listed where
/// it changed (one entry per packet: what `--at PACKET` can name).
fn gai_timeline(
    args: &GaiArgs,
    options: &nlorder::replay::gai::Options,
    observed: &[std::net::IpAddr],
) -> Result<ExitCode, Error> {
    use nlorder::replay::gai;
    let key = |m: &nlorder::model::Model| gai::sort(m, &args.addrs, options).order;
    let eval = |m: &nlorder::model::Model| gai::sort(m, &args.addrs, options);
    let mut session = args.input.io.open(&args.input.capture)?;
    let (flips, _) = session.watch(args.input.io.trace(), args.model.options(), key, eval)?;
    let flips = nlorder::rebuild::per_packet(flips, |a, b| a.order == b.order);
    let (mut out, json) = (stdout(), args.format == OutputFormat::Json);
    let who = (options.resolver, args.addrs.as_slice());
    let listed = (flips.as_slice(), &session.grounds);
    nlorder::report::gai::write_timeline(&mut out, json, who, listed, observed, &args.input.io.style())?;
    out.flush()?;
    let explained = observed.is_empty() || flips.iter().any(|f| f.after.order == observed);
    Ok(match explained {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(EXIT_EXPECTATION),
    })
}

fn check(args: &CheckArgs) -> Result<ExitCode, Error> {
    use nlorder::report::check as printer;
    let updated = |f: &std::path::Path, written: bool| match written {
        true => eprintln!("nlorder: updated {}", f.display()),
        false => eprintln!("nlorder: {} not updated: some of it could not be run", f.display()),
    };
    let outcomes =
        nlorder::check::run_paths(&args.paths, args.update, updated).map_err(|e| Error::Unreadable(e.to_string()))?;
    let (mut out, json) = (stdout(), args.format == OutputFormat::Json);
    printer::write(&mut out, json, &outcomes, &args.style())?;
    out.flush()?;
    if let Some(path) = &args.junit {
        let xml = printer::junit(&outcomes).map_err(io::Error::other)?;
        std::fs::write(path, xml).map_err(|e| Error::Unreadable(format!("{}: {e}", path.display())))?;
    }
    // Whatever could not be run makes the run unreadable (2), said on
    // stderr too, once every manifest has run and the reports are written.
    let errors: Vec<&nlorder::check::Outcome> = outcomes.iter().filter(|o| o.is_error()).collect();
    for o in &errors {
        eprintln!("nlorder: {}: {}", o.place(), o.message.as_deref().unwrap_or_default());
    }
    Ok(if !errors.is_empty() {
        ExitCode::from(EXIT_UNREADABLE)
    } else if outcomes.iter().all(|o| o.passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_EXPECTATION)
    })
}

fn record(args: &RecordArgs) -> Result<ExitCode, Error> {
    let (format, options) = args.options();
    let summary = nlorder::record::record_to(&args.file, args.netns.as_deref(), format, &options)
        .map_err(|e| Error::Unreadable(e.to_string()))?;
    if !args.quiet {
        eprintln!("nlorder: {}", summary.describe(&args.file.display().to_string()));
    }
    Ok(ExitCode::SUCCESS)
}
