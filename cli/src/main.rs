//! The `nlorder` binary: parses the command line into one of the library's
//! requests ([`nlorder::app`]), runs it on stdout, and maps how it ended to
//! an exit status. No decoding, model, replay or formatting logic here.

mod args;
mod man;
mod progress;
mod requests;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use args::{Cli, Command};
use nlorder::app::{Error, Status};
use requests::Job;

/// Exit status when an expectation does not hold.
const EXIT_EXPECTATION: u8 = 1;
/// Exit status for input that cannot be read, and for unusable arguments.
const EXIT_UNREADABLE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let done = match (cli.glossary, cli.command) {
        (Some(g), _) => glossary(g),
        (None, Some(command)) => run(command),
        // arg_required_else_help: clap prints the help before this
        (None, None) => Ok(Status::Success),
    };
    match done {
        Ok(Status::Success) => ExitCode::SUCCESS,
        Ok(Status::Mismatch) => ExitCode::from(EXIT_EXPECTATION),
        Ok(Status::Unreadable) => ExitCode::from(EXIT_UNREADABLE),
        // A reader that closed the pipe (`| head`) is not an error.
        Err(Error::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e @ Error::Output(_)) => {
            nlorder::diag::say(format_args!("nlorder: {e}"));
            ExitCode::FAILURE
        }
        Err(Error::Unreadable(msg)) => {
            nlorder::diag::say(format_args!("nlorder: {msg}"));
            ExitCode::from(EXIT_UNREADABLE)
        }
        Err(Error::Usage(msg)) => usage_error(&msg),
    }
}

/// `nlorder -G fields|values`.
fn glossary(g: args::Glossary) -> Result<Status, Error> {
    let mut out = BufWriter::new(io::stdout().lock());
    match g {
        args::Glossary::Fields => nlorder::report::fields::write_glossary(&mut out)?,
        args::Glossary::Values => nlorder::report::fields::write_values(&mut out)?,
    }
    out.flush()?;
    Ok(Status::Success)
}

/// Runs the subcommand's request, its output on stdout.
fn run(command: Command) -> Result<Status, Error> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match command {
        Command::Completions { shell } => {
            // Generated whole first: clap_complete panics on a failed write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "nlorder", &mut script);
            out.write_all(&script)?;
        }
        Command::Man { page: None, dir: None } => man::man_page(&mut out)?,
        Command::Man { dir: Some(dir), .. } => {
            for path in man::write_pages(&dir).map_err(|e| Error::Unreadable(format!("{}: {e}", dir.display())))? {
                nlorder::diag::say(format_args!("nlorder: wrote {}", path.display()));
            }
        }
        Command::Man { page: Some(name), .. } => match man::sub_page(&name, &mut out) {
            Some(r) => r?,
            None => {
                return Err(Error::Usage(format!(
                    "no man page nlorder-{name}(1): the pages are {}",
                    man::sub_pages().join(", ")
                )));
            }
        },
        command => {
            let Some((request, console)) = command.request()? else {
                return Ok(Status::Success);
            };
            let status = match request {
                Job::Decode(r) => r.run(&console, &mut out),
                Job::Table(r) => r.run(&console, &mut out),
                Job::Timeline(r) => r.run(&console, &mut out),
                Job::Who(r) => r.run(&console, &mut out),
                Job::Annotate(r) => r.run(&console, &mut out),
                Job::Detect(r) => r.run(&console, &mut out),
                Job::Gai(r) => r.run(&console, &mut out),
                Job::Check(r) => r.run(&console, &mut out),
                Job::Report(r) => r.run(&console, &mut out),
                Job::Record(r) => r.run(&console),
                Job::Watch(r) => r.run(&console, &mut out),
            }?;
            out.flush()?;
            return Ok(status);
        }
    }
    out.flush()?;
    Ok(Status::Success)
}

/// An argument nlorder cannot use: said as clap says its own errors, with
/// the subcommand's usage line (exit 2).
fn usage_error(msg: &str) -> ExitCode {
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
