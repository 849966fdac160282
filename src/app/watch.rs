//! `nlorder watch`: the kernel's tables kept live, and a line whenever a
//! chooser's answer would change, with the changes that caused it.
//!
//! Contract: the recorder (the one `record --follow` runs) writes pcapng
//! into a pipe (and into `-w FILE` too) on its own thread, in the namespace
//! asked for; this thread reads the pipe like any capture, keeps the model
//! and re-evaluates the method after every change, printing each flip as
//! it happens. Nothing is evaluated before the first route dump ends (the
//! tables are incomplete until then). `--expect` stops at the first answer
//! that differs ([`Status::Mismatch`]); Ctrl-C, `--duration` or the end of
//! a `--read` capture end it otherwise.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::settings::DetectSettings;
use super::{Console, Error, Format, Session, Source, Status};
use crate::ingest::rebuild::Watcher;
use crate::model::{Model, ModelOptions};
use crate::record::{FileFormat, Options, RequestForm, record_into};
use crate::replay::verdict::Choice;
use crate::report::detect::{outcome, write_flip};

/// Where the messages come from.
#[derive(Debug, Clone)]
pub enum Feed {
    /// The running kernel, as `record --follow` records it.
    Kernel {
        /// The network namespace (`ip netns` name or path); this process's
        /// own when `None`.
        netns: Option<String>,
        /// Keep the capture in this file too.
        write: Option<PathBuf>,
        /// Stop after this long (default: Ctrl-C, or `--expect`).
        duration: Option<Duration>,
        /// How dump requests are spelled.
        request_form: RequestForm,
    },
    /// A capture, read as if it were arriving (`-` with
    /// `record --follow -w -` piped in is live too).
    Capture(Source),
}

/// Watches one method's answer.
#[derive(Debug, Clone)]
pub struct Watch {
    /// The method, its settings and `--expect`.
    pub settings: DetectSettings,
    /// What the capture cannot tell about the host's kernel.
    pub model: ModelOptions,
    /// The kernel, or a capture.
    pub feed: Feed,
    /// Text lines or JSON Lines.
    pub format: Format,
}

impl Watch {
    /// Prints every change of the answer as it happens; returns
    /// [`Status::Mismatch`] at the first answer `--expect` does not allow.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        const NODE: &str = "watch";
        self.settings
            .validate(&[NODE.to_owned()])
            .map_err(|e| Error::Usage(e.to_string()))?;
        let spec = self.settings.spec(NODE).map_err(|e| Error::Usage(e.to_string()))?;
        let key = |m: &Model| spec.outcome(m);
        let eval = |m: &Model| {
            let mut d = spec.detect(m);
            d.candidates = Vec::new();
            Choice(d)
        };
        let mut watcher = Watcher::new(self.model, key, eval).after_route_dump();
        let stop = Arc::new(AtomicBool::new(false));
        let (mut session, recorder) = match &self.feed {
            Feed::Capture(source) => (console.open(source)?, None),
            Feed::Kernel {
                netns,
                write,
                duration,
                request_form,
            } => {
                let (reader, writer) = io::pipe().map_err(|e| Error::Unreadable(format!("pipe: {e}")))?;
                let keep = match write {
                    Some(path) => Some(
                        std::fs::File::create(path)
                            .map_err(|e| Error::Unreadable(format!("{}: {e}", path.display())))?,
                    ),
                    None => None,
                };
                let options = Options {
                    follow: true,
                    duration: *duration,
                    request_form: *request_form,
                };
                let (netns, quiet, file) = (netns.clone(), console.quiet, write.clone());
                let thread_stop = Arc::clone(&stop);
                let recorder = std::thread::spawn(move || {
                    let mut started = || {
                        if !quiet {
                            let line = crate::report::record::started(
                                file.as_deref(),
                                netns.as_deref(),
                                FileFormat::Pcapng,
                                &options,
                            );
                            crate::diag::say(format_args!("nlorder: {line}"));
                        }
                    };
                    let tee = Tee {
                        pipe: writer,
                        file: keep.map(io::BufWriter::new),
                    };
                    record_into(
                        tee,
                        netns.as_deref(),
                        FileFormat::Pcapng,
                        &options,
                        thread_stop,
                        &mut started,
                    )
                });
                let session = Session::open(
                    &Source::Reader(super::session::SharedReader::new(Box::new(reader), "(kernel)")),
                    console.quiet,
                    console.style,
                    None,
                );
                match session {
                    Ok(session) => (session, Some(recorder)),
                    // Nothing came through the pipe: the recorder's own
                    // error (no such namespace, no rights) says why.
                    Err(e) => {
                        return Err(match recorder.join() {
                            Ok(Err(why)) => Error::Unreadable(why.to_string()),
                            _ => e,
                        });
                    }
                }
            }
        };
        let live = !matches!(&self.feed, Feed::Capture(s) if !s.is_stream());
        let mut failure: Option<String> = None;
        let mut write_error = None;
        let read = session.read(console.trace, |m| {
            watcher.apply(m);
            for flip in watcher.take_flips() {
                let printed = write_flip(out, &flip, self.format, &console.style)
                    .and_then(|()| if live { out.flush() } else { Ok(()) });
                if let Err(e) = printed {
                    write_error = Some(e);
                    return false;
                }
                if let Some(want) = &self.settings.expect
                    && !want.holds(&flip.after.0)
                {
                    failure = Some(format!(
                        "packet {}: expected {want}, got {}",
                        flip.packet,
                        outcome(&flip.after.0)
                    ));
                    return false;
                }
            }
            true
        });
        stop.store(true, Ordering::Relaxed);
        drop(session);
        if let Some(r) = recorder {
            match r.join() {
                Ok(Ok(summary)) => {
                    if let Feed::Kernel { write: Some(path), .. } = &self.feed
                        && !console.quiet
                    {
                        crate::diag::say(format_args!(
                            "nlorder: {}",
                            summary.describe(&path.display().to_string())
                        ));
                    }
                }
                // The reader stopped first (--expect): the recorder's
                // last writes met a closed pipe.
                Ok(Err(_)) if failure.is_some() || write_error.is_some() => {}
                Ok(Err(e)) => return Err(Error::Unreadable(e.to_string())),
                Err(_) => return Err(Error::Unreadable("the recorder stopped unexpectedly".into())),
            }
        }
        if let Some(e) = write_error {
            return Err(Error::Output(e));
        }
        read?;
        out.flush()?;
        if let Some(f) = failure {
            crate::diag::say(format_args!("nlorder: {f}"));
            return Ok(Status::Mismatch);
        }
        Ok(Status::Success)
    }
}

/// The recorder's output: the pipe this thread reads, and the `-w` file.
struct Tee {
    pipe: io::PipeWriter,
    file: Option<io::BufWriter<std::fs::File>>,
}

impl Write for Tee {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(f) = &mut self.file {
            f.write_all(buf)?;
        }
        self.pipe.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(f) = &mut self.file {
            f.flush()?;
        }
        self.pipe.flush()
    }
}
