//! The `nlorder` binary: parses the command line, opens the input, and wires
//! the library's layers to its printers. No decoding or model logic here.

mod cli;

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use cli::{
    Cli, ColorChoice, Command, DecodeArgs, Endian, Family, InputArgs, KernelOrder, ModelArgs, OnOff, OutputFormat,
    TableArgs, TimelineArgs,
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
    let name = input.capture.display().to_string();
    let show_progress = !input.quiet && io::stderr().is_terminal();
    let (source, len): (Box<dyn Read + Send>, Option<u64>) = if name == "-" {
        (Box::new(io::stdin()), None)
    } else {
        let f = File::open(&input.capture).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
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
    if !args.input.quiet {
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
    if !input.quiet {
        let stderr = io::stderr();
        let mut err = stderr.lock();
        write_summary(&mut err, &opened.reader.info, &rebuilt.stats, &diags, style_for(input))?;
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
            if !args.input.quiet {
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
    if !args.input.quiet {
        let stderr = io::stderr();
        let mut err = stderr.lock();
        for w in rebuilt.model.warnings().iter() {
            writeln!(err, "  {w}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
