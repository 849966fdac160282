//! Rebuilding the kernel model from a capture, up to a chosen moment.
//!
//! Contract: streams the capture once through the trace and the model,
//! stopping after the record the user named (`--at PACKET`) or the last
//! record at or before a time (`--at TIME`); changes go to the caller's
//! sink. [`watch`] re-evaluates after every change, [`evaluate_at`] at
//! chosen packets (the looks of `--at auto`). Each returns the [`Moment`]
//! it stopped at. Memory: one record plus the model.

use crate::capture::{self, CaptureReader, Timestamp};
use crate::diag::Diagnostics;
use crate::model::{ChangeSink, Model, ModelOptions};
pub use crate::moment::{At, AtSpec, AtValue, Moment, Outside};
use crate::trace::{TraceOptions, TraceStats, read_trace};

/// The result of a rebuild.
pub struct Rebuilt {
    pub model: Model,
    pub stats: TraceStats,
    /// The last record applied.
    pub last_packet: u64,
    /// The moment the model stands at, and how it relates to the capture.
    pub moment: Moment,
}

pub fn rebuild<S: ChangeSink>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    at: Option<At>,
    diags: &mut Diagnostics,
    sink: &mut S,
) -> Result<Rebuilt, capture::Error> {
    let mut model = Model::new(options);
    let mut moment = Moment::start(at);
    let stats = read_trace(reader, trace, diags, |m| {
        moment.first.get_or_insert((m.packet, m.ts));
        moment.last = Some((m.packet, m.ts));
        let past = match at {
            Some(At::Packet(n)) => m.packet > n,
            Some(At::Time(t)) => m.ts.is_some_and(|ts| ts > t),
            None => false,
        };
        if past {
            moment.to_end = false;
            return false;
        }
        moment.packet = m.packet;
        moment.ts = m.ts;
        sink.message(m);
        model.apply(m, sink);
        true
    })?;
    model.finish(sink);
    Ok(Rebuilt {
        model,
        stats,
        last_packet: moment.packet,
        moment,
    })
}

/// A moment when a re-evaluated result changed.
#[derive(Debug, Clone)]
pub struct Flip<T> {
    pub packet: u64,
    pub ts: Option<Timestamp>,
    pub before: Option<T>,
    pub after: T,
    /// The changes in that message that caused the re-evaluation.
    pub causes: Vec<crate::model::Event>,
}

/// Rebuilds the model and re-evaluates `eval` after every message that
/// changed it; returns the moments the result changed (the first
/// evaluation included) and the final rebuild.
pub fn watch<T: PartialEq + Clone>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    diags: &mut Diagnostics,
    mut eval: impl FnMut(&Model) -> T,
) -> Result<(Vec<Flip<T>>, Rebuilt), capture::Error> {
    let mut model = Model::new(options);
    let mut moment = Moment::start(None);
    let mut flips: Vec<Flip<T>> = Vec::new();
    let mut events: Vec<crate::model::Event> = Vec::new();
    let stats = read_trace(reader, trace, diags, |m| {
        moment.first.get_or_insert((m.packet, m.ts));
        moment.last = Some((m.packet, m.ts));
        moment.packet = m.packet;
        moment.ts = m.ts;
        events.clear();
        model.apply(m, &mut events);
        // Before any address is known there is nothing to choose from.
        if !events.is_empty() && !model.addresses(None).is_empty() {
            let now = eval(&model);
            let before = flips.last().map(|f| f.after.clone());
            if before.as_ref() != Some(&now) {
                flips.push(Flip {
                    packet: m.packet,
                    ts: m.ts,
                    before,
                    after: now,
                    causes: events.clone(),
                });
            }
        }
        true
    })?;
    model.finish(&mut ());
    Ok((
        flips,
        Rebuilt {
            model,
            stats,
            last_packet: moment.packet,
            moment,
        },
    ))
}

/// Rebuilds the whole capture, evaluating `eval` on the model as it stood
/// once each of `packets` (ascending) had been applied; returns the
/// evaluations with their moments, and the final rebuild.
pub fn evaluate_at<T>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    packets: &[u64],
    diags: &mut Diagnostics,
    mut eval: impl FnMut(&Model) -> T,
) -> Result<(Vec<(Moment, T)>, Rebuilt), capture::Error> {
    let mut model = Model::new(options);
    let mut moment = Moment::start(None);
    let mut out = Vec::new();
    let mut next = packets.iter().copied().peekable();
    let stats = read_trace(reader, trace, diags, |m| {
        while let Some(p) = next.next_if(|p| m.packet > *p) {
            let mut at = moment.clone();
            at.at = Some(At::Packet(p));
            at.to_end = false;
            out.push((at, eval(&model)));
        }
        moment.first.get_or_insert((m.packet, m.ts));
        moment.last = Some((m.packet, m.ts));
        moment.packet = m.packet;
        moment.ts = m.ts;
        model.apply(m, &mut ());
        true
    })?;
    model.finish(&mut ());
    for p in next {
        let mut at = moment.clone();
        at.at = Some(At::Packet(p));
        out.push((at, eval(&model)));
    }
    Ok((
        out,
        Rebuilt {
            model,
            stats,
            last_packet: moment.packet,
            moment,
        },
    ))
}
