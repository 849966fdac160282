//! A whole trace's requests and looks, collected in one pass with bounded
//! memory.

use serde::Serialize;

use crate::ingest::trace::TraceMessage;
use crate::netlink::names::NLM_F_REQUEST;

use super::asked::Asked;
use super::library::Library;
use super::look::{Grouper, Look};
use super::observe::Looks;

/// Requests and looks of a whole trace, as `nlorder who` prints them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Who {
    /// Every request, in capture order (empty unless the collector was made
    /// by [`Collector::listing`]).
    pub requests: Vec<Asked>,
    /// The requests grouped into looks, in capture order.
    pub looks: Vec<Look>,
}

/// A request whose answer just ended: what `--at auto` needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// The library the request's shape points to.
    pub library: Library,
    /// It was a dump, not a GET of one object.
    pub dump: bool,
    /// The requester's port id (usually its process id).
    pub port: Option<u32>,
}

/// Collects the looks of a trace (feed it with `read_trace`), and with
/// [`Collector::listing`] every request too. Requests are grouped as soon
/// as no earlier one is still waiting for its answer, so memory holds the
/// looks and at most the open requests, not every request of the capture.
#[derive(Debug, Default)]
pub struct Collector {
    looks: Looks,
    keep_requests: bool,
    /// Answered requests not yet grouped (an earlier one is still open).
    waiting: Vec<Asked>,
    requests: Vec<Asked>,
    grouper: Grouper,
}

impl Collector {
    /// A collector that also keeps every request (for `nlorder who`).
    pub fn listing() -> Collector {
        Collector {
            keep_requests: true,
            ..Collector::default()
        }
    }

    /// Takes one message; returns what ended when it ended a request.
    pub fn observe(&mut self, m: &TraceMessage<'_>) -> Option<Ended> {
        let r = self.looks.observe(m)?;
        let ended = Ended {
            library: r.library,
            dump: r.dump,
            port: r.port,
        };
        self.wait(r, None);
        Some(ended)
    }

    /// [`Collector::observe`], returning the whole request whose answer
    /// the message ended, and the requests it let the collector group (by
    /// their packet), each with the number of the look it joined (`None`:
    /// a GET, in no look). A request is grouped once no earlier one still
    /// waits for its answer: usually where its own answer ended.
    pub fn observe_grouped(&mut self, m: &TraceMessage<'_>) -> (Option<Asked>, Vec<(u64, Option<usize>)>) {
        let mut grouped = Vec::new();
        let Some(r) = self.looks.observe(m) else {
            return (None, grouped);
        };
        self.wait(r.clone(), Some(&mut grouped));
        (Some(r), grouped)
    }

    /// The request a reply answers while its answer is under way (before
    /// the reply is observed; not yet attributed to a library).
    pub fn answering(&self, m: &TraceMessage<'_>) -> Option<&Asked> {
        let h = &m.message.header;
        if h.flags & NLM_F_REQUEST != 0 {
            return None;
        }
        self.looks
            .open
            .iter()
            .find(|r| r.seq == h.seq && r.port.is_none_or(|p| p == h.pid))
    }

    /// Requests whose answer has not ended (yet), oldest first.
    pub fn unanswered(&self) -> &[Asked] {
        &self.looks.open
    }

    /// Requests not grouped into looks yet (answered or not), by packet:
    /// [`Collector::finish`] groups them.
    pub fn ungrouped(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self.waiting.iter().chain(&self.looks.open).map(|r| r.packet).collect();
        v.sort_unstable();
        v
    }

    /// An answered request waits until every earlier one is answered too,
    /// then joins its look (said in `grouped`).
    fn wait(&mut self, r: Asked, mut grouped: Option<&mut Vec<(u64, Option<usize>)>>) {
        self.waiting.push(r);
        let oldest_open = self.looks.open.iter().map(|o| o.packet).min();
        self.waiting.sort_by_key(|w| w.packet);
        let ready = match oldest_open {
            Some(p) => self.waiting.iter().take_while(|w| w.packet < p).count(),
            None => self.waiting.len(),
        };
        let drained: Vec<Asked> = self.waiting.drain(..ready).collect();
        for w in drained {
            let packet = w.packet;
            let look = self.take(w);
            if let Some(g) = grouped.as_deref_mut() {
                g.push((packet, look));
            }
        }
    }

    fn take(&mut self, r: Asked) -> Option<usize> {
        let look = self.grouper.push(&r);
        if self.keep_requests {
            self.requests.push(r);
        }
        look
    }

    /// The looks (and requests) of the whole trace, requests whose answer
    /// never ended included.
    pub fn finish(mut self) -> Who {
        let mut rest = std::mem::take(&mut self.waiting);
        rest.extend(self.looks.unfinished());
        rest.sort_by_key(|r| r.packet);
        for r in rest {
            let _ = self.take(r);
        }
        Who {
            requests: self.requests,
            looks: self.grouper.looks,
        }
    }
}
