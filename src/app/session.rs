//! A capture opened for one command: read from a file or stdin (watched by
//! the caller's [`ReadProgress`], a progress bar in the CLI), rebuilt into
//! the kernel model, and summarised on stderr.
//!
//! Contract: every subcommand opens, rebuilds and summarises through here,
//! so they all report the same way; failures are typed ([`Error`]): input
//! that cannot be read, arguments nlorder cannot use, and output that cannot
//! be written are told apart (the CLI maps them to exit status 2, 2 with
//! usage, and 0 for a closed pipe or 1).

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::capture::CaptureReader;
use crate::diag::Diagnostics;
use crate::ingest::rebuild::{At, Flip, Follow, Grounds, Rebuilt, Watcher};
use crate::ingest::trace::{TraceMessage, TraceOptions, TraceStats};
use crate::model::{ChangeSink, Model, ModelOptions};
use crate::report::style::Style;
use crate::report::summary::{write_model_summary, write_summary};

/// Why a command could not do its job.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Input that cannot be read (a file, a capture, a manifest).
    #[error("{0}")]
    Unreadable(String),
    /// An argument nlorder cannot use.
    #[error("{0}")]
    Usage(String),
    /// Output that cannot be written.
    #[error("cannot write output: {0}")]
    Output(#[from] io::Error),
}

/// Where a capture comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A file, or `-` for stdin.
    Path(PathBuf),
    /// Bytes already in memory (the fuzz target, tests); named `<bytes>`.
    Bytes(Arc<[u8]>),
    /// A stream the caller opened (`watch` reads its recorder's pipe);
    /// it can be opened once.
    Reader(SharedReader),
}

/// A byte stream a [`Source`] hands to the first session that opens it.
#[derive(Clone)]
pub struct SharedReader {
    reader: Arc<std::sync::Mutex<Option<Box<dyn Read + Send>>>>,
    name: PathBuf,
}

impl SharedReader {
    /// A stream, named `name` in messages.
    pub fn new(reader: Box<dyn Read + Send>, name: &str) -> SharedReader {
        SharedReader {
            reader: Arc::new(std::sync::Mutex::new(Some(reader))),
            name: PathBuf::from(name),
        }
    }

    fn take(&self) -> Option<Box<dyn Read + Send>> {
        self.reader.lock().ok().and_then(|mut r| r.take())
    }
}

impl std::fmt::Debug for SharedReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedReader")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Source {
    /// The path as the user gave it (`-`: stdin, `<bytes>`: in memory).
    pub fn path(&self) -> &Path {
        match self {
            Source::Path(p) => p,
            Source::Bytes(_) => Path::new("<bytes>"),
            Source::Reader(r) => &r.name,
        }
    }

    /// Whether records arrive while it is read (a pipe, a FIFO, a socket,
    /// a terminal): listings then write each record out as it comes.
    pub fn is_stream(&self) -> bool {
        use std::os::unix::fs::FileTypeExt;
        let p = match self {
            Source::Path(p) => p,
            Source::Reader(_) => return true,
            Source::Bytes(_) => return false,
        };
        let path = if p.as_os_str() == "-" {
            Path::new("/dev/stdin")
        } else {
            p.as_path()
        };
        std::fs::metadata(path).is_ok_and(|m| {
            let t = m.file_type();
            t.is_fifo() || t.is_socket() || t.is_char_device()
        })
    }
}

impl From<PathBuf> for Source {
    fn from(p: PathBuf) -> Source {
        Source::Path(p)
    }
}

/// How a command talks on the terminal and reads its captures: the same
/// for every request of one run.
pub struct Console {
    /// No summary on stderr.
    pub quiet: bool,
    /// Colours of the output.
    pub style: Style,
    /// Netlink byte order and the like.
    pub trace: TraceOptions,
    /// Makes the watcher of a capture's reading (a progress bar), if any.
    pub progress: Option<fn() -> Box<dyn ReadProgress>>,
}

impl Console {
    /// Quiet, colourless, default trace options: for callers that want the
    /// output alone (tests, the fuzz target).
    pub fn quiet() -> Console {
        Console {
            quiet: true,
            style: Style { color: false },
            trace: TraceOptions::default(),
            progress: None,
        }
    }

    /// Opens `capture` for one command.
    pub fn open(&self, capture: &Source) -> Result<Session, Error> {
        Session::open(capture, self.quiet, self.style, self.progress.map(|p| p()))
    }

    /// Opens `capture` for `command`, which lists its messages: a
    /// snapshot has none, and is refused (see [`Session::refuse_snapshot`]).
    pub fn open_messages(&self, capture: &Source, command: &str) -> Result<Session, Error> {
        let session = self.open(capture)?;
        session.refuse_snapshot(command)?;
        Ok(session)
    }
}

/// Watches the bytes a session reads: the CLI's progress bar.
pub trait ReadProgress {
    /// Wraps the capture's reader; `len`: the file's size, when known.
    fn wrap(&mut self, source: Box<dyn Read + Send>, len: Option<u64>) -> Box<dyn Read + Send>;
    /// The capture has been read (or reading stopped).
    fn finish(&mut self);
}

/// A capture opened for one command.
pub struct Session {
    /// The capture's records, read once.
    pub reader: CaptureReader<'static>,
    progress: Option<Box<dyn ReadProgress>>,
    /// The path as the user gave it (`-` for stdin).
    pub name: String,
    quiet: bool,
    style: Style,
    /// What the last rebuild rests on (see [`Grounds`]).
    pub grounds: Grounds,
    /// The command's own output lists the assumptions (`table`): the
    /// summary does not repeat them.
    assumptions_in_output: bool,
    /// Nothing on stderr, not even a moment outside the capture (the
    /// caller reports it itself: `check`).
    silent: bool,
    /// Read from a snapshot, not a capture: its form and what it lacks.
    pub snapshot: Option<crate::snapshot::Facts>,
}

impl Session {
    /// Opens `capture`, its reading watched by `progress`; `quiet`: no
    /// summary.
    pub fn open(
        capture: &Source,
        quiet: bool,
        style: Style,
        mut progress: Option<Box<dyn ReadProgress>>,
    ) -> Result<Session, Error> {
        let name = capture.path().display().to_string();
        let mut gaps = None;
        let (source, len): (Box<dyn Read + Send>, Option<u64>) = match capture {
            Source::Bytes(b) => (Box::new(io::Cursor::new(b.clone())), Some(b.len() as u64)),
            Source::Reader(r) => (
                r.take()
                    .ok_or_else(|| Error::Unreadable(format!("{name}: already read")))?,
                None,
            ),
            Source::Path(p) if p.as_os_str() == "-" => (Box::new(io::stdin()), None),
            Source::Path(p) if crate::snapshot::is_snapshot(p) => {
                let snap = crate::snapshot::load(p).map_err(|e| Error::Unreadable(e.to_string()))?;
                gaps = Some(snap.facts);
                let len = snap.capture.len() as u64;
                (Box::new(io::Cursor::new(snap.capture)), Some(len))
            }
            Source::Path(p) => {
                // (a program's name where a capture goes: `detect flannel x.pcap`)
                let f = File::open(p).map_err(|e| match crate::replay::program::Program::by_name(&name) {
                    Some(prog) if e.kind() == io::ErrorKind::NotFound => Error::Unreadable(format!(
                        "{name}: {e}; to replay the program {}, give it as --method {}",
                        prog.name(),
                        prog.name()
                    )),
                    _ => Error::Unreadable(format!("{name}: {e}")),
                })?;
                let len = f.metadata().ok().map(|m| m.len());
                (Box::new(f), len)
            }
        };
        let source = match &mut progress {
            Some(p) => p.wrap(source, len),
            None => source,
        };
        let reader = CaptureReader::new(source).map_err(|e| Error::Unreadable(format!("{name}: {e}")))?;
        Ok(Session {
            reader,
            progress,
            name,
            quiet,
            style,
            grounds: Grounds::default(),
            assumptions_in_output: false,
            silent: false,
            snapshot: gaps,
        })
    }

    /// A snapshot (see [`crate::snapshot`]) has one dump of each table and
    /// no messages: the commands that list messages refuse it.
    pub fn refuse_snapshot(&self, command: &str) -> Result<(), Error> {
        match self.snapshot {
            Some(_) => Err(Error::Usage(format!(
                "{}: a snapshot (`ip` output or a sosreport) is one dump at one moment and has no messages: `{command}` needs a capture",
                self.name
            ))),
            None => Ok(()),
        }
    }

    /// Whether the model's assumption `a` applies to what was read: a
    /// snapshot is no recording, so what a capture without listeners
    /// could not hear (devices leaving unseen, router advertisements, a
    /// listener leaving, a dump answered after the moment) does not: the
    /// dump shows the tables as they were when `ip` ran.
    fn applies(&self, a: crate::model::Assumption) -> Option<crate::model::Assumption> {
        match self.snapshot {
            None => Some(a),
            Some(_) => a.at_snapshot(),
        }
    }

    /// The command lists the model's assumptions itself: the summary on
    /// stderr leaves them out.
    pub fn assumptions_in_output(mut self) -> Session {
        self.assumptions_in_output = true;
        self
    }

    /// Nothing on stderr: no summary, no warning of a moment outside the
    /// capture (the caller says it its own way).
    pub fn silent(mut self) -> Session {
        (self.quiet, self.silent) = (true, true);
        self
    }

    fn done(&mut self) {
        if let Some(p) = &mut self.progress {
            p.finish();
        }
    }

    fn unreadable(&self, e: impl std::fmt::Display) -> Error {
        Error::Unreadable(format!("{}: {e}", self.name))
    }

    /// A capture with no rtnetlink message (up to the moment asked for)
    /// cannot be replayed: an empty model would answer as if the host had
    /// no interfaces. Unreadable for this purpose.
    pub(super) fn replayable(&self, stats: &TraceStats) -> Result<(), Error> {
        if stats.messages > 0 {
            return Ok(());
        }
        let what = match stats.records {
            0 => "no records".to_owned(),
            1 if stats.route_records == 0 => "1 record, not rtnetlink (NETLINK_ROUTE)".to_owned(),
            n if stats.route_records == 0 => format!("{n} records, none of them rtnetlink (NETLINK_ROUTE)"),
            n => format!("{n} records, no rtnetlink message decoded"),
        };
        Err(self.unreadable(format!(
            "no rtnetlink data ({what}): no tables can be rebuilt and nothing can be replayed"
        )))
    }

    /// A capture none of whose records is netlink (an Ethernet capture,
    /// say) is the wrong file, not an empty trace: one error naming its
    /// link type, before any summary, whatever the subcommand.
    fn netlink_at_all(&self, stats: &TraceStats) -> Result<(), Error> {
        if stats.records > 0 && stats.route_records == 0 && stats.skipped_link_types() == stats.records {
            return Err(self.unreadable(crate::report::summary::not_netlink(stats)));
        }
        Ok(())
    }

    /// Streams every message to `visit` (which stops the walk by returning
    /// false); writes the capture summary.
    pub fn read<F>(&mut self, trace: TraceOptions, visit: F) -> Result<(TraceStats, Diagnostics), Error>
    where
        F: FnMut(&TraceMessage<'_>) -> bool,
    {
        let mut diags = Diagnostics::default();
        let stats = crate::ingest::trace::read_trace(&mut self.reader, trace, &mut diags, visit);
        self.done();
        let stats = stats.map_err(|e| self.unreadable(e))?;
        self.netlink_at_all(&stats)?;
        Ok((stats, diags))
    }

    /// Every request of the capture and the looks they form (see
    /// [`crate::looks`]); writes the summary and keeps what reading met in
    /// [`Session::grounds`].
    pub fn who(&mut self, trace: TraceOptions) -> Result<crate::looks::Who, Error> {
        let mut collector = crate::looks::Collector::listing();
        let (stats, diags) = self.read(trace, |m| {
            collector.observe(m);
            true
        })?;
        self.summary(&stats, &diags, None)?;
        self.grounds = Grounds {
            warnings: diags.iter().map(ToString::to_string).collect(),
            assumptions: Vec::new(),
            truncated: self.reader.info.cut_after.is_some(),
            truncated_after: self.reader.info.cut_after,
            ..Grounds::default()
        };
        Ok(collector.finish())
    }

    /// After a rebuild: the summary, the refusal of a capture with nothing
    /// to replay, and what the answers will rest on.
    fn rebuilt(&mut self, rebuilt: &Rebuilt, diags: &Diagnostics) -> Result<(), Error> {
        self.netlink_at_all(&rebuilt.stats)?;
        self.summary(&rebuilt.stats, diags, Some(&rebuilt.model))?;
        self.replayable(&rebuilt.stats)?;
        self.grounds = Grounds::of(&rebuilt.model, diags);
        let all = std::mem::take(&mut self.grounds.assumptions);
        self.grounds.assumptions = all.into_iter().filter_map(|a| self.applies(a)).collect();
        self.grounds.truncated = self.reader.info.cut_after.is_some();
        self.grounds.truncated_after = self.reader.info.cut_after;
        Ok(())
    }

    /// Writes the capture summary (not with `quiet`).
    pub fn summary(&self, stats: &TraceStats, diags: &Diagnostics, model: Option<&Model>) -> Result<(), Error> {
        if self.quiet {
            return Ok(());
        }
        // (held and written in argument order when captures are read on
        // several threads)
        super::parallel::stderr(|err| {
            match &self.snapshot {
                Some(facts) => crate::report::summary::write_snapshot_summary(err, facts)?,
                None => write_summary(err, &self.reader.info, stats, diags, self.style)?,
            }
            if let Some(m) = model {
                // (a snapshot applied no requests and heard no notification)
                if self.snapshot.is_none() {
                    write_model_summary(err, m.stats())?;
                }
                for w in m.warnings().iter() {
                    writeln!(err, "  {w}")?;
                }
                // What the tables rest on where the capture is silent.
                if !self.assumptions_in_output {
                    for n in m.assumptions().into_iter().filter_map(|a| self.applies(a)) {
                        writeln!(err, "  assumed: {n}")?;
                    }
                }
            }
            Ok(())
        })?;
        Ok(())
    }

    /// Runs one pass over the capture (a function of [`crate::ingest::rebuild`]):
    /// then the summary, the refusal of a capture with nothing to replay,
    /// and what the answers rest on. Every pass goes through here.
    fn pass<R>(
        &mut self,
        run: impl FnOnce(&mut CaptureReader<'static>, &mut Diagnostics) -> Result<(R, Rebuilt), crate::capture::Error>,
    ) -> Result<(R, Rebuilt, Diagnostics), Error> {
        let mut diags = Diagnostics::default();
        let done = run(&mut self.reader, &mut diags);
        self.done();
        let (r, mut rebuilt) = done.map_err(|e| self.unreadable(e))?;
        rebuilt.moment.snapshot = self.snapshot.is_some();
        self.rebuilt(&rebuilt, &diags)?;
        Ok((r, rebuilt, diags))
    }

    /// Rebuilds the model up to `at`, every change to `sink`.
    pub fn rebuild<S: ChangeSink>(
        &mut self,
        trace: TraceOptions,
        model: ModelOptions,
        at: Option<At>,
        sink: &mut S,
    ) -> Result<(Rebuilt, Diagnostics), Error> {
        self.rebuild_following(trace, model, at, sink, &mut ())
    }

    /// [`Session::rebuild`], every message also given to `follow` (see
    /// [`crate::ingest::rebuild::rebuild_following`]).
    pub fn rebuild_following<S: ChangeSink>(
        &mut self,
        trace: TraceOptions,
        model: ModelOptions,
        at: Option<At>,
        sink: &mut S,
        follow: &mut impl Follow,
    ) -> Result<(Rebuilt, Diagnostics), Error> {
        if at.is_some() && self.snapshot.is_some() {
            return Err(Error::Usage(format!(
                "{}: a snapshot is one dump at one moment: --at needs a capture",
                self.name
            )));
        }
        let ((), rebuilt, diags) = self.pass(|reader, diags| {
            let r = crate::ingest::rebuild::rebuild_following(reader, trace, model, at, diags, sink, follow)?;
            Ok(((), r))
        })?;
        // Said even with --quiet: the answer is not about the moment asked for.
        if !self.silent
            && let Some(w) = crate::report::moment::outside_warning(&rebuilt.moment, "--at")
        {
            super::parallel::stderr(|err| writeln!(err, "nlorder: {}: warning: {w}", self.name))?;
        }
        Ok((rebuilt, diags))
    }

    /// Rebuilds the whole capture record by record (see
    /// [`crate::ingest::rebuild::rebuild_by_record`]); then the summary and what
    /// the rebuild rests on. Unlike the other passes it accepts a capture
    /// with no rtnetlink message: `annotate` writes every record back
    /// whatever it holds, and says why nothing was read.
    pub fn rebuild_by_record<S: crate::ingest::rebuild::RecordSink>(
        &mut self,
        trace: TraceOptions,
        model: ModelOptions,
        sink: &mut S,
    ) -> Result<(Rebuilt, Diagnostics), Error> {
        let mut diags = Diagnostics::default();
        let done = crate::ingest::rebuild::rebuild_by_record(&mut self.reader, trace, model, &mut diags, sink);
        self.done();
        let rebuilt = done.map_err(|e| self.unreadable(e))?;
        self.netlink_at_all(&rebuilt.stats)?;
        self.summary(&rebuilt.stats, &diags, Some(&rebuilt.model))?;
        self.grounds = Grounds::of(&rebuilt.model, &diags);
        self.grounds.truncated = self.reader.info.cut_after.is_some();
        self.grounds.truncated_after = self.reader.info.cut_after;
        Ok((rebuilt, diags))
    }

    /// `--at auto` (see [`crate::ingest::rebuild::evaluate_at_looks`]).
    pub fn evaluate_at_looks<T>(
        &mut self,
        trace: TraceOptions,
        model: ModelOptions,
        who: (crate::looks::Looker, bool),
        follow: &mut impl Follow,
        eval: impl FnMut(&Model) -> T,
    ) -> Result<(Vec<(crate::ingest::rebuild::Moment, T)>, Rebuilt), Error> {
        let (results, rebuilt, _) = self.pass(|reader, diags| {
            crate::ingest::rebuild::evaluate_at_looks_following(reader, trace, model, who, diags, follow, eval)
        })?;
        Ok((results, rebuilt))
    }

    /// Rebuilds the model, re-evaluating `key` after every change and `eval`
    /// where it changed (see [`crate::ingest::rebuild::watch`]).
    pub fn watch<K: PartialEq, T: Clone>(
        &mut self,
        trace: TraceOptions,
        model: ModelOptions,
        key: impl FnMut(&Model) -> K,
        eval: impl FnMut(&Model) -> T,
    ) -> Result<(Vec<Flip<T>>, Rebuilt), Error> {
        self.watch_with(trace, Watcher::new(model, key, eval))
    }

    /// [`Session::watch`] with the watcher given (one that evaluates only
    /// where [`Watcher::only_where`] says, say).
    pub fn watch_with<K: PartialEq, T: Clone, FK: FnMut(&Model) -> K, FE: FnMut(&Model) -> T>(
        &mut self,
        trace: TraceOptions,
        watcher: Watcher<K, T, FK, FE>,
    ) -> Result<(Vec<Flip<T>>, Rebuilt), Error> {
        let (flips, rebuilt, _) =
            self.pass(|reader, diags| crate::ingest::rebuild::watch_with(reader, trace, diags, watcher))?;
        Ok((flips, rebuilt))
    }
}

/// Evaluates `eval` at the moment(s) `at` names: the end of the capture,
/// a packet or time, or with `auto` the last look of `who` (every look
/// with `every`; the end of the capture, said so, when there is none); and
/// what the answers rest on (of the final rebuild). `open` opens the
/// capture; it is read once, `auto` included, every message also given to
/// `follow` in the same pass (a [`crate::ingest::rebuild::Watcher`] watches the
/// whole capture whatever `at` says).
pub fn evaluate_following<T>(
    open: impl FnOnce() -> Result<Session, Error>,
    trace: TraceOptions,
    model: ModelOptions,
    at: Option<crate::ingest::rebuild::AtSpec>,
    (who, every): (crate::looks::Looker, bool),
    follow: &mut impl Follow,
    mut eval: impl FnMut(&Model) -> T,
) -> Result<(Vec<(crate::ingest::rebuild::Moment, T)>, Grounds), Error> {
    use crate::ingest::rebuild::AtSpec;
    if every && at != Some(AtSpec::Auto) {
        return Err(Error::Usage(
            "--all-looks replays the looks --at auto finds: give --at auto".into(),
        ));
    }
    match at {
        Some(AtSpec::Auto) => {
            let mut session = open()?;
            let (results, mut rebuilt) = session.evaluate_at_looks(trace, model, (who, every), follow, &mut eval)?;
            let grounds = std::mem::take(&mut session.grounds);
            if !results.is_empty() {
                return Ok((results, grounds));
            }
            rebuilt.moment.chosen = Some(match who {
                crate::looks::Looker::Nobody => crate::looks::Chosen::NobodyAsks,
                crate::looks::Looker::OneRequest => crate::looks::Chosen::OneRequest,
                crate::looks::Looker::GoResolver => crate::looks::Chosen::NoGoProgramLooked,
                _ => crate::looks::Chosen::NoLook(who),
            });
            let v = eval(&rebuilt.model);
            Ok((vec![(rebuilt.moment, v)], grounds))
        }
        other => {
            let mut session = open()?;
            let (rebuilt, _) =
                session.rebuild_following(trace, model, other.and_then(AtSpec::moment), &mut (), follow)?;
            let v = eval(&rebuilt.model);
            Ok((vec![(rebuilt.moment, v)], std::mem::take(&mut session.grounds)))
        }
    }
}
