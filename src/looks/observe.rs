//! Requests matched with the replies that answer them, in one pass over
//! the trace, each attributed once its answer ends.

use crate::ingest::trace::TraceMessage;
use crate::model::ObjectKind;
use crate::netlink::Body;
use crate::netlink::names::{
    NLM_F_DUMP, NLM_F_MULTI, NLM_F_REQUEST, NLMSG_DONE, NLMSG_ERROR, RTM_GETADDR, RTM_GETLINK, RTM_GETROUTE,
};

use super::asked::{Asked, Evidence};
use super::library::{Confidence, Library};

/// Requests waiting for the end of their answer, at most.
const MAX_OPEN: usize = 64;

/// The attribution state of one capture.
#[derive(Debug, Default)]
pub struct Looks {
    pub(super) open: Vec<Asked>,
    /// The last finished request, for the rules that look at pairs.
    last: Option<Asked>,
}

fn kind_of(t: u16) -> Option<ObjectKind> {
    match t {
        RTM_GETLINK => Some(ObjectKind::Links),
        RTM_GETADDR => Some(ObjectKind::Addresses),
        RTM_GETROUTE => Some(ObjectKind::Routes),
        _ => None,
    }
}

impl Looks {
    /// The state before the capture's first message: no request seen.
    pub fn new() -> Looks {
        Looks::default()
    }

    /// Takes one message; returns a request whose answer it ended.
    pub fn observe(&mut self, m: &TraceMessage<'_>) -> Option<Asked> {
        let h = &m.message.header;
        if let Body::Request(q) = &m.decoded.body
            && h.flags & NLM_F_REQUEST != 0
        {
            let kind = kind_of(h.kind)?;
            if self.open.len() >= MAX_OPEN {
                self.open.remove(0);
            }
            self.open.push(Asked {
                packet: m.packet,
                ts: m.ts,
                kind,
                family: q.family,
                dump: h.flags & NLM_F_DUMP == NLM_F_DUMP,
                len: h.len,
                flags: h.flags,
                seq: h.seq,
                port: None,
                replies: 0,
                end_packet: None,
                error: None,
                ipv6_seen: false,
                library: Library::Unknown,
                confidence: Confidence::Unknown,
                evidence: Evidence::Unattributed,
                body_len: q.body_len,
                short_form: q.short_form,
                table: q.table,
                recorder: m.app.is_some_and(|a| a == "nlorder" || a.starts_with("nlorder ")),
            });
            return None;
        }
        if h.flags & NLM_F_REQUEST != 0 {
            return None;
        }
        // A reply: the oldest open request with its sequence number (and
        // port, once a first reply told it).
        let i = self
            .open
            .iter()
            .position(|r| r.seq == h.seq && r.port.is_none_or(|p| p == h.pid))?;
        let r = self.open.get_mut(i)?;
        r.port = Some(h.pid);
        let end = match &m.decoded.body {
            Body::Done { error } => {
                r.error = (*error != 0).then_some(*error);
                true
            }
            Body::Error(e) => {
                r.error = (e.error != 0).then_some(e.error);
                true
            }
            Body::Link(_) | Body::Route(_) => {
                r.replies += 1;
                !r.dump || h.flags & NLM_F_MULTI == 0
            }
            Body::Addr(a) => {
                r.replies += 1;
                if a.family == crate::netlink::values::AddressFamily::Inet6
                    && a.address.is_some_and(|ip| !ip.is_loopback())
                {
                    r.ipv6_seen = true;
                }
                !r.dump || h.flags & NLM_F_MULTI == 0
            }
            _ => h.kind == NLMSG_DONE || h.kind == NLMSG_ERROR,
        };
        if !end {
            return None;
        }
        let mut r = self.open.remove(i);
        r.end_packet = Some(m.packet);
        self.attribute(&mut r);
        self.last = Some(r.clone());
        Some(r)
    }

    /// Requests whose answer never ended in the capture.
    pub fn unfinished(&mut self) -> Vec<Asked> {
        let mut v: Vec<Asked> = std::mem::take(&mut self.open);
        for r in &mut v {
            self.attribute(r);
        }
        v
    }

    fn attribute(&self, r: &mut Asked) {
        let (library, confidence, evidence) = super::rules::attribution(self.last.as_ref(), r);
        r.library = library;
        r.confidence = confidence;
        r.evidence = evidence;
    }
}
