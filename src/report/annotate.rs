//! Words for `nlorder annotate`: what nlorder read in one record, as the
//! packet comments written on it.
//!
//! Contract: formatting only. [`RecordNotes`] holds the facts of one
//! record as the pass found them (the request gathers them);
//! [`RecordNotes::comments`] turns them into one comment each, in the
//! order: what was not read, problems, requests and their answers, the
//! changes (in `timeline`'s words), the model's warnings. Each comment
//! starts with `nlorder: `, so that comments other tools wrote stay told
//! apart. A record with no facts gets no comment.

use crate::diag::Diagnostic;
use crate::ingest::trace::Skipped;
use crate::looks::{Asked, Library};
use crate::model::Event;
use crate::netlink::names;
use crate::report::summary::family_name;
use crate::report::timeline::describe;

/// What nlorder read in one record (or, for the notes of the end, after
/// the last one).
#[derive(Debug, Clone, Default)]
pub struct RecordNotes {
    /// The record's number, as `decode` and Wireshark number them.
    pub packet: u64,
    /// Why its bytes were not read as NETLINK_ROUTE messages.
    pub skipped: Option<Skipped>,
    /// What reading it met: bytes skipped, messages that did not decode.
    pub problems: Vec<Diagnostic>,
    /// The requests for the tables it holds (dumps, GETs), as sent: who
    /// sent them is known where their answers end.
    pub requests: Vec<Asked>,
    /// Requests whose answers it carries without ending them.
    pub answering: Vec<Asked>,
    /// Requests whose answers it ended, attributed, with the look each
    /// joined when it joined one here (`who`'s numbers).
    pub answered: Vec<(Asked, Option<usize>)>,
    /// Requests answered earlier that joined a look here (by packet),
    /// once the requests before them were answered.
    pub grouped: Vec<(u64, usize)>,
    /// The changes the model made in it, as `timeline` lists them.
    pub changes: Vec<Event>,
    /// The model's warnings about it.
    pub warnings: Vec<Diagnostic>,
    /// Requests whose answer never ended (the end's notes).
    pub unanswered: Vec<Asked>,
}

impl RecordNotes {
    /// Nothing to say.
    pub fn is_empty(&self) -> bool {
        self.skipped.is_none()
            && self.problems.is_empty()
            && self.requests.is_empty()
            && self.answering.is_empty()
            && self.answered.is_empty()
            && self.grouped.is_empty()
            && self.changes.is_empty()
            && self.warnings.is_empty()
            && self.unanswered.is_empty()
    }

    /// The comments of the record, one per fact.
    pub fn comments(&self) -> Vec<String> {
        self.sentences().into_iter().map(|s| format!("nlorder: {s}")).collect()
    }

    /// The comments of what happened after the last record (the kernel's
    /// timers, dumps that never ended), written on that record.
    pub fn end_comments(&self) -> Vec<String> {
        self.sentences()
            .into_iter()
            .map(|s| format!("nlorder: at the end of the capture: {s}"))
            .collect()
    }

    fn sentences(&self) -> Vec<String> {
        let mut out = Vec::new();
        match self.skipped {
            Some(Skipped::NotNetlink(why)) => out.push(format!("not read: {why}")),
            Some(Skipped::Protocol(p)) => out.push(format!(
                "not read: netlink family {p} ({}); only NETLINK_ROUTE (0) is decoded",
                family_name(p)
            )),
            None => {}
        }
        for d in &self.problems {
            out.push(format!("problem: {}", self.place(d)));
        }
        for r in &self.requests {
            out.push(format!(
                "{}, {} bytes, seq {}: who sent it is said where its answer ends",
                request(r),
                r.len,
                r.seq
            ));
        }
        for r in &self.answering {
            out.push(format!(
                "part of the answer to the {} in packet {}{}",
                request(r),
                r.packet,
                port(r)
            ));
        }
        for (r, look) in &self.answered {
            out.push(answered(r, *look));
        }
        for (packet, look) in &self.grouped {
            out.push(format!(
                "the request in packet {packet} is part of look {look} (as `nlorder who` numbers them)"
            ));
        }
        for e in &self.changes {
            let mut s = describe(&e.change);
            if e.packet != self.packet {
                s.push_str(&format!(" (listed at packet {} by `nlorder timeline`)", e.packet));
            }
            out.push(s);
        }
        for d in &self.warnings {
            out.push(format!("warning: {}", self.place(d)));
        }
        for r in &self.unanswered {
            out.push(format!(
                "the {} in packet {}{} got no complete answer in the capture",
                request(r),
                r.packet,
                port(r)
            ));
        }
        out
    }

    /// A diagnostic's words; its place only when it is not this record.
    fn place(&self, d: &Diagnostic) -> String {
        match (d.packet, d.offset) {
            (Some(p), Some(o)) if p == self.packet => format!("{} (byte offset {o})", d.message),
            (Some(p), None) if p == self.packet => d.message.clone(),
            _ => d.to_string(),
        }
    }
}

/// `dump request for addresses (inet)`, `GET request for one link`.
fn request(r: &Asked) -> String {
    match r.dump {
        true => format!("dump request for {}", r.asked()),
        false => format!("GET request for {}", r.asked()),
    }
}

/// `, port 2870`, when a reply told it.
fn port(r: &Asked) -> String {
    r.port.map(|p| format!(", port {p}")).unwrap_or_default()
}

/// Where a request's answer ended: who sent it (as `who` says it), how
/// it was answered, and the look it joined.
fn answered(r: &Asked, look: Option<usize>) -> String {
    let answer = match r.error {
        Some(e) => format!("refused: {}", names::errno(e)),
        None if r.replies == 1 => "1 reply".to_owned(),
        None => format!("{} replies", r.replies),
    };
    let sender = match r.library {
        Library::Unknown => format!("sent by a program no rule names ({})", r.evidence),
        Library::NlorderRecord => format!("sent by the recorder, not a node program ({})", r.evidence),
        l => format!("sent by {} ({}): {}", l.name(), r.confidence.name(), r.evidence),
    };
    let look = look
        .map(|l| format!("; look {l} (as `nlorder who` numbers them)"))
        .unwrap_or_default();
    format!(
        "end of the answer to the {} in packet {}{}: {answer}; {sender}{look}",
        request(r),
        r.packet,
        port(r)
    )
}

/// What `annotate` wrote, for the summary on stderr.
#[derive(Debug, Clone, Copy, Default)]
pub struct Written {
    /// Records written.
    pub records: u64,
    /// Of those, records with a comment added.
    pub commented: u64,
    /// Records whose comments could not be written (Simple Packet Blocks
    /// carry no options).
    pub uncommented: u64,
    /// Records the input numbered but the reader could not hand out (an
    /// unknown interface): not written.
    pub missing: u64,
}

impl Written {
    /// `33 records written to x.pcapng (pcapng), 24 with comments`.
    pub fn describe(&self, name: &str) -> String {
        let mut s = format!(
            "{} written to {name} (pcapng), {} with comments",
            super::count(self.records, "record", "records"),
            self.commented
        );
        if self.uncommented > 0 {
            s.push_str(&format!(
                "; {} Simple Packet Blocks written without theirs (they carry no options)",
                self.uncommented
            ));
        }
        if self.missing > 0 {
            s.push_str(&format!(
                "; {} left out: the capture's warnings say why",
                super::count(self.missing, "record", "records")
            ));
        }
        s
    }
}
