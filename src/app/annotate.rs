//! `nlorder annotate`: the capture written back as pcapng, every record
//! with a packet comment saying what nlorder read in it.
//!
//! Contract: one pass. Each record's facts (what was not read, problems,
//! the requests for the tables and who sent them, the changes the model
//! made, whether a dump agreed with the prediction, the model's warnings)
//! are gathered while its messages are applied, and its comment is made
//! once they all are; a fact known only later (who sent a request: at the
//! end of its answer; a dump's agreement: at its NLMSG_DONE; a request's
//! effect: at the kernel's acknowledgement) is written on the record where
//! it became known, but for the record just before: a record is written
//! when the next one is read, so that the changes of a request the next
//! record acknowledges go on the request (where `timeline` lists them,
//! "known at" the answer), and what the model does after the last record
//! (dumps that never ended) lands on the last one. Memory: the model and
//! two records.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{Console, Error, Source, Status};
use crate::capture::{PcapngWriter, Record, StoredPacket};
use crate::ingest::rebuild::RecordSink;
use crate::ingest::trace::{RecordRead, TraceMessage};
use crate::looks::Collector;
use crate::model::{ChangeSink, Event, Model, ModelOptions};
use crate::netlink::Body;
use crate::report::annotate::{RecordNotes, Written};

/// Writes `capture` back to `output` (`-`: the output given to `run`)
/// as pcapng with comments.
#[derive(Debug, Clone)]
pub struct Annotate {
    /// The capture to read.
    pub capture: Source,
    /// How the tables are rebuilt.
    pub model: ModelOptions,
    /// The pcapng file to write; `-` for the output `run` is given.
    pub output: PathBuf,
}

impl Annotate {
    /// Reads the capture once, writing each record with its comments.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let to_out = self.output.as_os_str() == "-";
        let name = self.output.display().to_string();
        if !to_out
            && let Source::Path(input) = &self.capture
            && same_file(input, &self.output)
        {
            return Err(Error::Usage(format!(
                "{name} is the capture being read: annotate writes a new file (give another -w)"
            )));
        }
        let mut session = console.open(&self.capture)?;
        let mut file;
        let dest: &mut dyn Write = if to_out {
            out
        } else {
            file = File::create(&self.output)
                .map(BufWriter::new)
                .map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?;
            &mut file
        };
        let mut annotator = Annotator::new(PcapngWriter::new(dest));
        let written = session
            .rebuild_by_record(console.trace, self.model, &mut annotator)
            .and_then(|(rebuilt, _)| annotator.finish(&rebuilt.model).map_err(Error::from));
        let written = match written {
            Ok(w) => w,
            Err(e) => {
                if !to_out {
                    // what was written is not the capture: nothing is left
                    let _ = std::fs::remove_file(&self.output);
                }
                return Err(e);
            }
        };
        if !console.quiet {
            crate::diag::say(format_args!("nlorder: {}", written.describe(&name)));
        }
        Ok(Status::Success)
    }
}

/// Whether `a` and `b` name one file (the same device and inode).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Gathers each record's notes during the pass and writes the records.
struct Annotator<W: Write> {
    writer: PcapngWriter<W>,
    looks: Collector,
    /// The notes of the record being read.
    notes: RecordNotes,
    /// The record read last, with its comments: written when the next one
    /// is read, or at the end.
    held: Option<(StoredPacket, Vec<String>)>,
    /// The model's warnings already said.
    warnings_said: usize,
    /// The number of the last record the reader handed out.
    last_number: u64,
    /// The first write error: the pass stops there.
    error: Option<io::Error>,
}

impl<W: Write> Annotator<W> {
    fn new(writer: PcapngWriter<W>) -> Self {
        Annotator {
            writer,
            looks: Collector::default(),
            notes: RecordNotes::default(),
            held: None,
            warnings_said: 0,
            last_number: 0,
            error: None,
        }
    }

    /// The model's warnings since the last call.
    fn new_warnings(&mut self, model: &Model) {
        let all: Vec<_> = model.warnings().iter().skip(self.warnings_said).cloned().collect();
        self.warnings_said += all.len();
        self.notes.warnings.extend(all);
    }

    fn write_held(&mut self) -> io::Result<()> {
        if let Some((packet, comments)) = self.held.take() {
            self.writer.write(&packet, &comments)?;
        }
        Ok(())
    }

    /// After the pass: what the model did at the end goes on the last
    /// record, which is written; then the counts.
    fn finish(mut self, model: &Model) -> io::Result<Written> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.new_warnings(model);
        self.notes.unanswered = self.looks.unanswered().to_vec();
        // the looks of requests still waiting for an earlier one's answer
        let ungrouped = self.looks.ungrouped();
        let who = std::mem::take(&mut self.looks).finish();
        for look in &who.looks {
            for p in look.requests.iter().filter(|p| ungrouped.contains(p)) {
                self.notes.grouped.push((*p, look.number));
            }
        }
        self.notes.grouped.sort_unstable();
        if let Some((packet, comments)) = &mut self.held {
            self.notes.packet = packet.number;
            comments.extend(self.notes.end_comments());
        }
        self.write_held()?;
        let w = self.writer;
        let written = Written {
            records: w.records,
            commented: w.commented,
            uncommented: w.uncommented,
            missing: self.last_number.saturating_sub(w.records),
        };
        w.finish()?;
        Ok(written)
    }
}

impl<W: Write> ChangeSink for Annotator<W> {
    fn change(&mut self, event: Event) {
        self.notes.changes.push(event);
    }

    fn message(&mut self, m: &TraceMessage<'_>) {
        let answering = self.looks.answering(m).cloned();
        let (ended, grouped) = self.looks.observe_grouped(m);
        match ended {
            Some(asked) => {
                let look = grouped.iter().find(|(p, _)| *p == asked.packet).and_then(|(_, l)| *l);
                self.notes.answering.retain(|a| a.packet != asked.packet);
                self.notes.answered.push((asked, look));
            }
            None => {
                if let Some(mut a) = answering
                    && !self.notes.answering.iter().any(|x| x.packet == a.packet)
                {
                    // the port this reply goes to (the collector learns it as it takes the reply)
                    a.port = Some(m.message.header.pid);
                    self.notes.answering.push(a);
                }
            }
        }
        let ended_here: Vec<u64> = self.notes.answered.iter().map(|(a, _)| a.packet).collect();
        for (packet, look) in grouped {
            if let Some(look) = look
                && !ended_here.contains(&packet)
            {
                self.notes.grouped.push((packet, look));
            }
        }
        // a request for the tables: the collector holds it until its answer ends
        if matches!(m.decoded.body, Body::Request(_))
            && let Some(r) = self.looks.unanswered().last()
            && r.packet == m.packet
            && r.seq == m.message.header.seq
            && !self.notes.requests.iter().any(|q| q.seq == r.seq && q.kind == r.kind)
        {
            self.notes.requests.push(r.clone());
        }
    }
}

impl<W: Write> RecordSink for Annotator<W> {
    fn record(&mut self, rec: &Record<'_>, read: &RecordRead, model: &Model) -> bool {
        self.last_number = rec.number;
        self.notes.packet = rec.number;
        self.notes.skipped = read.skipped;
        self.notes.problems = read.problems.iter().cloned().collect();
        self.new_warnings(model);
        let comments = std::mem::take(&mut self.notes).comments();
        let done = self
            .write_held()
            .and_then(|()| self.writer.prepare(rec))
            .map(|packet| self.held = Some((packet, comments)));
        if let Err(e) = done {
            self.error = Some(e);
            return false;
        }
        true
    }
}
