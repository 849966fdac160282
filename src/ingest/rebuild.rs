//! Rebuilding the kernel model from a capture, up to a chosen moment.
//!
//! Contract: streams the capture once through the trace and the model,
//! stopping after the record the user named (`--at PACKET`) or the last
//! record at or before a time (`--at TIME`); changes go to the caller's
//! sink. [`watch`] re-evaluates after every change, [`evaluate_at_looks`]
//! where the looks of `--at auto` ended, found in the same pass. Each returns the [`Moment`]
//! it stopped at. Memory: one record plus the model. A [`Watcher`] given
//! to [`rebuild_following`] or [`evaluate_at_looks_following`] watches
//! the whole capture in the same pass with a second model (the pass then
//! reads on past `--at PACKET|TIME`), so a capture on stdin is still read
//! once. Every pass goes through one loop (`drive`), which keeps the
//! moment and stops at `--at`; the passes differ only in what they do with
//! each message (and [`rebuild_by_record`]'s, `annotate`'s, also with the
//! end of each record).

use crate::capture::{self, CaptureReader, Record, Timestamp};
use crate::diag::Diagnostics;
pub use crate::ingest::moment::{At, AtSpec, AtValue, Moment, Outside};
use crate::ingest::trace::{RecordRead, TraceMessage, TraceOptions, TraceStats, Visitor, read_trace_records};
use crate::looks::Looker;
use crate::model::{ChangeSink, Model, ModelOptions};

/// The result of a rebuild.
pub struct Rebuilt {
    /// The tables as they stand at the moment the rebuild stopped.
    pub model: Model,
    /// What reading the capture counted (the whole capture when a follower
    /// read on past `--at`).
    pub stats: TraceStats,
    /// The last record applied.
    pub last_packet: u64,
    /// The moment the model stands at, and how it relates to the capture.
    pub moment: Moment,
}

/// What answers from a rebuilt model rest on beyond the capture's bytes:
/// the problems met reading it, and what the model had to assume. Every
/// subcommand's JSON carries both.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Grounds {
    /// The capture's diagnostics and the model's warnings, in that order.
    pub warnings: Vec<String>,
    /// What the model assumed because the capture cannot say (see
    /// [`Model::assumptions`]).
    pub assumptions: Vec<crate::model::Assumption>,
    /// What the answers could read: a complete link dump, complete address
    /// and route dumps (of both families) were applied (`None` where no
    /// tables were rebuilt).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links_complete: Option<bool>,
    /// See `links_complete`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub addresses_complete: Option<bool>,
    /// See `links_complete`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routes_complete: Option<bool>,
    /// The capture is cut (a record cut short at the end of the file, a
    /// gzip stream ending early): JSON `truncated: true` and
    /// `truncated_after`, the number of its last whole record.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// See `truncated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_after: Option<u64>,
}

impl Grounds {
    /// The grounds of answers from `model`, read with `diags`.
    pub(crate) fn of(model: &Model, diags: &Diagnostics) -> Grounds {
        Grounds {
            warnings: diags
                .iter()
                .chain(model.warnings().iter())
                .map(ToString::to_string)
                .collect(),
            assumptions: model.assumptions(),
            links_complete: Some(model.links_complete()),
            addresses_complete: Some(model.addresses_complete()),
            routes_complete: Some(model.routes_complete()),
            truncated: false,
            truncated_after: None,
        }
    }
}

/// Rebuilds the model from `reader` up to `at` (the end when `None`),
/// reporting each message and change to `sink`.
pub fn rebuild<S: ChangeSink>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    at: Option<At>,
    diags: &mut Diagnostics,
    sink: &mut S,
) -> Result<Rebuilt, capture::Error> {
    rebuild_following(reader, trace, options, at, diags, sink, &mut ())
}

/// The one loop over a capture's messages that every pass shares: it keeps
/// the [`Moment`] (the capture's range as far as it was read, the last
/// record applied) and stops after `at`. `step` gets each message with
/// the moment as it stands after it, and whether it lies past `at`; with
/// `read_past` the pass reads on to the end for those, else it stops at
/// the first.
fn drive(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    diags: &mut Diagnostics,
    at: Option<At>,
    read_past: bool,
    step: impl FnMut(&TraceMessage<'_>, &Moment, bool),
) -> Result<(TraceStats, Moment), capture::Error> {
    drive_steps(reader, trace, diags, at, read_past, &mut Closure(step))
}

/// What a pass does with each message (and, if it wants, each record).
trait Step {
    /// A message, with the moment as it stands after it, and whether it
    /// lies past `at`.
    fn message(&mut self, m: &TraceMessage<'_>, moment: &Moment, past: bool);
    /// A record, once its messages were given (see [`crate::ingest::trace::Visitor`]).
    fn record(&mut self, _rec: &Record<'_>, _read: &RecordRead) -> bool {
        true
    }
}

/// A pass that only takes messages.
struct Closure<F>(F);

impl<F: FnMut(&TraceMessage<'_>, &Moment, bool)> Step for Closure<F> {
    fn message(&mut self, m: &TraceMessage<'_>, moment: &Moment, past: bool) {
        (self.0)(m, moment, past)
    }
}

/// [`drive`], with the pass's steps as a [`Step`].
fn drive_steps(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    diags: &mut Diagnostics,
    at: Option<At>,
    read_past: bool,
    step: &mut impl Step,
) -> Result<(TraceStats, Moment), capture::Error> {
    struct Driver<'s, S> {
        step: &'s mut S,
        at: Option<At>,
        read_past: bool,
        moment: Moment,
        stopped: bool,
    }
    impl<S: Step> Visitor for Driver<'_, S> {
        fn message(&mut self, m: &TraceMessage<'_>) -> bool {
            let moment = &mut self.moment;
            if !self.stopped {
                moment.first.get_or_insert((m.packet, m.ts));
                moment.last = Some((m.packet, m.ts));
                self.stopped = match self.at {
                    Some(At::Packet(n)) => m.packet > n,
                    Some(At::Time(t)) => m.ts.is_some_and(|ts| ts > t),
                    None | Some(At::AfterEnd(_)) => false,
                };
                if self.stopped {
                    moment.to_end = false;
                } else {
                    moment.packet = m.packet;
                    moment.ts = m.ts;
                }
            }
            if self.stopped && !self.read_past {
                return false;
            }
            self.step.message(m, &self.moment, self.stopped);
            true
        }

        fn record(&mut self, rec: &Record<'_>, read: &RecordRead) -> bool {
            self.step.record(rec, read)
        }
    }
    let mut driver = Driver {
        step,
        at,
        read_past,
        moment: Moment::start(at),
        stopped: false,
    };
    let stats = read_trace_records(reader, trace, diags, &mut driver)?;
    if driver.moment.to_end {
        driver.moment.truncated_after = reader.info.cut_after;
    }
    Ok((stats, driver.moment))
}

/// The whole capture with the default trace options: the tables at its
/// end, and what reading met (the library's shortest path from a capture
/// to a [`Model`]).
pub fn rebuild_to_end(
    reader: &mut CaptureReader<'_>,
    options: ModelOptions,
) -> Result<(Rebuilt, Diagnostics), capture::Error> {
    let mut diags = Diagnostics::default();
    let rebuilt = rebuild(reader, TraceOptions::default(), options, None, &mut diags, &mut ())?;
    Ok((rebuilt, diags))
}

/// [`rebuild`], with every message of the capture also given to `follow`:
/// when it is active the pass reads on past `at` for it alone (the
/// returned model and moment are still those at `at`; the statistics count
/// the whole capture).
pub fn rebuild_following<S: ChangeSink>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    at: Option<At>,
    diags: &mut Diagnostics,
    sink: &mut S,
    follow: &mut impl Follow,
) -> Result<Rebuilt, capture::Error> {
    let mut model = Model::new(options);
    let (stats, moment) = drive(reader, trace, diags, at, follow.active(), |m, _, past| {
        if !past {
            sink.message(m);
            model.apply(m, sink);
        }
        follow.message(m);
    })?;
    if !moment.to_end {
        model.cut_before_end();
    }
    model.finish(until(at, &moment), sink);
    Ok(Rebuilt {
        model,
        stats,
        last_packet: moment.packet,
        moment,
    })
}

/// Follows a rebuild record by record: every message and change (as a
/// [`ChangeSink`]), and the end of every record the capture holds,
/// skipped ones included, with the model as it stands after it.
pub trait RecordSink: ChangeSink {
    /// Record `rec` was read and its messages applied; `read`: what
    /// reading it met. `false` stops the pass.
    fn record(&mut self, rec: &Record<'_>, read: &RecordRead, model: &Model) -> bool;
}

/// Rebuilds the whole capture, handing `sink` every message and change
/// and, after each record's messages, the record itself (see
/// [`RecordSink`]); the changes [`Model::finish`] makes at the end come
/// after the last record.
pub fn rebuild_by_record<S: RecordSink>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    diags: &mut Diagnostics,
    sink: &mut S,
) -> Result<Rebuilt, capture::Error> {
    struct ByRecord<'s, S> {
        model: Model,
        sink: &'s mut S,
    }
    impl<S: RecordSink> Step for ByRecord<'_, S> {
        fn message(&mut self, m: &TraceMessage<'_>, _: &Moment, _: bool) {
            self.sink.message(m);
            self.model.apply(m, self.sink);
        }

        fn record(&mut self, rec: &Record<'_>, read: &RecordRead) -> bool {
            self.sink.record(rec, read, &self.model)
        }
    }
    let mut pass = ByRecord {
        model: Model::new(options),
        sink,
    };
    let (stats, moment) = drive_steps(reader, trace, diags, None, false, &mut pass)?;
    let mut model = pass.model;
    model.finish(moment.ts, pass.sink);
    Ok(Rebuilt {
        model,
        stats,
        last_packet: moment.packet,
        moment,
    })
}

/// The time the tables are asked for: the last record applied, or the
/// time `--at` names past it (`end+SECS`, a time between records or after
/// the capture), which the kernel's own timers run on to.
fn until(at: Option<At>, moment: &Moment) -> Option<Timestamp> {
    let last = moment.ts;
    match at {
        Some(At::Time(t)) => Some(last.map_or(t, |l| l.max(t))),
        Some(At::AfterEnd(n)) => last.map(|l| l.plus_nanos(n)),
        Some(At::Packet(_)) | None => last,
    }
}

/// A moment when a re-evaluated result changed.
#[derive(Debug, Clone)]
pub struct Flip<T> {
    /// The record whose message changed the result.
    pub packet: u64,
    /// Its time.
    pub ts: Option<Timestamp>,
    /// The result before it; `None` at the first evaluation.
    pub before: Option<T>,
    /// The result from it on.
    pub after: T,
    /// The changes in that message that caused the re-evaluation.
    pub causes: Vec<crate::model::Event>,
}

/// Something that follows every message of a pass besides the pass's own
/// model: a [`Watcher`], or nothing (`()`, `None`).
pub trait Follow {
    /// Whether it wants the messages at all (a pass reads on past its own
    /// `--at` only for one that does).
    fn active(&self) -> bool;
    /// Takes the pass's next message, in capture order.
    fn message(&mut self, m: &TraceMessage<'_>);
}

impl Follow for () {
    fn active(&self) -> bool {
        false
    }

    fn message(&mut self, _: &TraceMessage<'_>) {}
}

impl<F: Follow> Follow for Option<F> {
    fn active(&self) -> bool {
        self.as_ref().is_some_and(Follow::active)
    }

    fn message(&mut self, m: &TraceMessage<'_>) {
        if let Some(f) = self {
            f.message(m);
        }
    }
}

/// What [`watch`] does, message by message, with its own model: after
/// every message that changed the model (once it holds an address),
/// re-evaluates `key`, and where it changed (the first evaluation
/// included) evaluates `eval` in full and keeps a [`Flip`].
pub struct Watcher<K, T, FK, FE> {
    model: Model,
    key: FK,
    eval: FE,
    last: Option<K>,
    /// The result of the last flip (taken flips included).
    previous: Option<T>,
    flips: Vec<Flip<T>>,
    events: Vec<crate::model::Event>,
    last_packet: u64,
    /// Evaluates only once a route dump completed the tables.
    after_route_dump: bool,
    /// Kinds (links, addresses, routes) whose first dump has completed.
    dumped: [bool; 3],
    /// An evaluation held back at the end of a first dump: a recording
    /// dumps links, addresses and routes one after the other, and until the
    /// next dump is asked for, what it will show is unknown, not absent.
    held: Option<(u64, Option<Timestamp>)>,
    /// The next first dump was asked for and has not ended yet: the
    /// changes so far wait for it.
    waiting: bool,
    /// Whether a message's changes may have changed the key (see
    /// [`Watcher::only_where`]).
    matters: Option<Matters>,
}

/// Says whether the changes of one message, on the model they left, may
/// have changed a watched key.
pub type Matters = Box<dyn FnMut(&Model, &[crate::model::Event]) -> bool>;

impl<K: PartialEq, T: Clone, FK: FnMut(&Model) -> K, FE: FnMut(&Model) -> T> Watcher<K, T, FK, FE> {
    /// A watcher with an empty model built with `options`; `key` is what
    /// results are compared by, `eval` the result kept where it changes.
    pub fn new(options: ModelOptions, key: FK, eval: FE) -> Self {
        Watcher {
            model: Model::new(options),
            key,
            eval,
            last: None,
            previous: None,
            flips: Vec::new(),
            events: Vec::new(),
            last_packet: 0,
            after_route_dump: false,
            dumped: [false; 3],
            held: None,
            waiting: false,
            matters: None,
        }
    }

    /// Re-evaluates the key only after a message whose changes `matters`
    /// says may have changed it; the others keep the last key without
    /// computing it (a BGP table learnt route by route, for a key that
    /// looks up a few addresses). `matters` must never say no to a change
    /// that changes the key: the flips are then the same as without it.
    pub fn only_where(mut self, matters: Matters) -> Self {
        self.matters = Some(matters);
        self
    }

    /// Evaluates nothing before the first route dump ends: a recording
    /// dumps links, then addresses, then routes, and an answer that needs
    /// routes would otherwise flip at the start only because the routes
    /// were still to come.
    pub fn after_route_dump(mut self) -> Self {
        self.after_route_dump = true;
        self
    }

    /// The flips since the last call (a long watch keeps none itself).
    pub fn take_flips(&mut self) -> Vec<Flip<T>> {
        std::mem::take(&mut self.flips)
    }

    /// The model as the messages so far left it.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Applies one message and re-evaluates where it changed the model.
    pub fn apply(&mut self, m: &TraceMessage<'_>) {
        self.last_packet = m.packet;
        if let Some((packet, ts)) = self.held.take() {
            let h = m.decoded.header;
            let next_first_dump = crate::netlink::names::is_dump_request(h.kind, h.flags)
                && dump_slot(h.kind).is_some_and(|i| !self.dumped.get(i).copied().unwrap_or(true));
            if next_first_dump {
                // The tables are still being read: the answer comes with them.
                self.waiting = true;
            } else {
                self.evaluate(packet, ts);
                self.events.clear();
            }
        } else if !self.waiting {
            self.events.clear();
        }
        self.model.apply(m, &mut self.events);
        if self.after_route_dump {
            let routes_dumped = self.events.iter().any(|e| {
                matches!(
                    e.change,
                    crate::model::Change::DumpApplied {
                        kind: crate::model::ObjectKind::Routes,
                        ..
                    }
                )
            });
            if !routes_dumped {
                return;
            }
            self.after_route_dump = false;
        }
        let mut first_dump = false;
        for e in &self.events {
            if let crate::model::Change::DumpApplied { kind, .. } = &e.change {
                let i = match kind {
                    crate::model::ObjectKind::Links => 0,
                    crate::model::ObjectKind::Addresses => 1,
                    crate::model::ObjectKind::Routes => 2,
                };
                if let Some(d) = self.dumped.get_mut(i) {
                    first_dump |= !*d;
                    *d = true;
                }
            }
        }
        if first_dump {
            self.waiting = false;
            if self.dumped.iter().any(|d| !d) {
                self.held = Some((m.packet, m.ts));
                return;
            }
        }
        if self.waiting {
            return;
        }
        self.evaluate(m.packet, m.ts);
    }

    /// Re-evaluates after the changes in `events`, keeping a flip where the
    /// result changed.
    fn evaluate(&mut self, packet: u64, ts: Option<Timestamp>) {
        // Before any address is known there is nothing to choose from.
        if !self.events.is_empty() && self.model.has_addresses() {
            if self.last.is_some()
                && let Some(matters) = self.matters.as_mut()
                && !matters(&self.model, &self.events)
            {
                return;
            }
            let k = (self.key)(&self.model);
            if self.last.as_ref() != Some(&k) {
                self.last = Some(k);
                let now = (self.eval)(&self.model);
                let before = self.previous.replace(now.clone());
                self.flips.push(Flip {
                    packet,
                    ts,
                    before,
                    after: now,
                    causes: self.events.clone(),
                });
            }
        }
    }

    /// The last packet it was given (0: none).
    pub fn last_packet(&self) -> u64 {
        self.last_packet
    }

    /// The flips, and the model at the end of the capture.
    pub fn finish(mut self) -> (Vec<Flip<T>>, Model) {
        if let Some((packet, ts)) = self.held.take() {
            self.evaluate(packet, ts);
        } else if self.waiting {
            let (packet, ts) = (self.last_packet, self.model.last_ts());
            self.evaluate(packet, ts);
        }
        let last = self.model.last_ts();
        self.model.finish(last, &mut ());
        (self.flips, self.model)
    }
}

/// Which of the watcher's first-dump flags a dump request of this type
/// concerns (links, addresses, routes).
fn dump_slot(msg_type: u16) -> Option<usize> {
    use crate::netlink::names::{RTM_GETADDR, RTM_GETLINK, RTM_GETROUTE};
    match msg_type {
        RTM_GETLINK => Some(0),
        RTM_GETADDR => Some(1),
        RTM_GETROUTE => Some(2),
        _ => None,
    }
}

impl<K: PartialEq, T: Clone, FK: FnMut(&Model) -> K, FE: FnMut(&Model) -> T> Follow for Watcher<K, T, FK, FE> {
    fn active(&self) -> bool {
        true
    }

    fn message(&mut self, m: &TraceMessage<'_>) {
        self.apply(m);
    }
}

/// Rebuilds the model and re-evaluates `key` after every message that
/// changed it; where the key changes (the first evaluation included),
/// evaluates `eval` in full. Returns those moments and the final rebuild.
/// `key` is what the result is compared by (cheap; it runs after every
/// change), `eval` the result shown.
pub fn watch<K: PartialEq, T: Clone>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    diags: &mut Diagnostics,
    key: impl FnMut(&Model) -> K,
    eval: impl FnMut(&Model) -> T,
) -> Result<(Vec<Flip<T>>, Rebuilt), capture::Error> {
    watch_with(reader, trace, diags, Watcher::new(options, key, eval))
}

/// [`watch`] with the watcher given (one that evaluates only where
/// [`Watcher::only_where`] says, say).
pub fn watch_with<K: PartialEq, T: Clone, FK: FnMut(&Model) -> K, FE: FnMut(&Model) -> T>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    diags: &mut Diagnostics,
    mut watcher: Watcher<K, T, FK, FE>,
) -> Result<(Vec<Flip<T>>, Rebuilt), capture::Error> {
    let (stats, moment) = drive(reader, trace, diags, None, false, |m, _, _| watcher.apply(m))?;
    let (flips, model) = watcher.finish();
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

/// Flips of one packet as one: only the state after a whole packet is a
/// moment `--at PACKET` can name. Within a packet the first `before` and
/// the last `after` stand, causes are joined, and a packet whose flips
/// come back to where they started (by `same`) is left out.
pub fn per_packet<T>(flips: Vec<Flip<T>>, same: impl Fn(&T, &T) -> bool) -> Vec<Flip<T>> {
    let mut out: Vec<Flip<T>> = Vec::new();
    for f in flips {
        match out.last_mut() {
            Some(last) if last.packet == f.packet => {
                last.after = f.after;
                last.causes.extend(f.causes);
            }
            _ => {
                // The packet before is complete: drop it if it changed nothing.
                if out
                    .last()
                    .is_some_and(|l| l.before.as_ref().is_some_and(|b| same(b, &l.after)))
                {
                    out.pop();
                }
                out.push(f);
            }
        }
    }
    if out
        .last()
        .is_some_and(|l| l.before.as_ref().is_some_and(|b| same(b, &l.after)))
    {
        out.pop();
    }
    out
}

/// `--at auto`: rebuilds the whole capture once, attributing its requests
/// as it goes (see [`crate::looks`]), and evaluates `eval` as the tables
/// stood when each answer to `who` ended. Returns, for the last look of
/// `who` (every look with `every`), the evaluation at its end with the
/// reason it was chosen; and the final rebuild. Memory: with `every`
/// false only the latest evaluation is kept (for Go's own resolver, the
/// latest of each port not yet seen sending glibc's `__check_pf`: which
/// look counts is only known at the end).
pub fn evaluate_at_looks<T>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    who: (Looker, bool),
    diags: &mut Diagnostics,
    eval: impl FnMut(&Model) -> T,
) -> Result<(Vec<(Moment, T)>, Rebuilt), capture::Error> {
    evaluate_at_looks_following(reader, trace, options, who, diags, &mut (), eval)
}

/// [`evaluate_at_looks`], with every message also given to `follow`.
pub fn evaluate_at_looks_following<T>(
    reader: &mut CaptureReader<'_>,
    trace: TraceOptions,
    options: ModelOptions,
    (who, every): (Looker, bool),
    diags: &mut Diagnostics,
    follow: &mut impl Follow,
    mut eval: impl FnMut(&Model) -> T,
) -> Result<(Vec<(Moment, T)>, Rebuilt), capture::Error> {
    let mut model = Model::new(options);
    let mut collector = crate::looks::Collector::default();
    // The packet whose end a wanted answer reached, and the port that
    // asked: evaluated once all of that packet's messages are applied.
    let mut due: Option<(u64, Option<u32>)> = None;
    let mut evaluated: Vec<(Moment, Option<u32>, T)> = Vec::new();
    // Ports that sent glibc's getaddrinfo requests (Go's resolver only).
    let mut glibc_ports: std::collections::BTreeSet<u32> = std::collections::BTreeSet::new();
    let per_port = who == Looker::GoResolver;
    let mut evaluate = |model: &Model, moment: &Moment, port: Option<u32>, evaluated: &mut Vec<_>| {
        let mut at = moment.clone();
        at.at = Some(At::Packet(moment.packet));
        at.inferred = who.inferred();
        if !every {
            match per_port {
                true => evaluated.retain(|(_, p, _)| *p != port),
                false => evaluated.clear(),
            }
        }
        evaluated.push((at, port, eval(model)));
    };
    // The record applied before this one: where a due answer is evaluated.
    let mut before: Option<(u64, Option<Timestamp>)> = None;
    let (stats, moment) = drive(reader, trace, diags, None, false, |m, moment, _| {
        if let Some((p, port)) = due
            && m.packet > p
            && let Some((packet, ts)) = before
        {
            let mut then = moment.clone();
            (then.packet, then.ts, then.last) = (packet, ts, before);
            evaluate(&model, &then, port, &mut evaluated);
            due = None;
        }
        before = Some((m.packet, m.ts));
        // A port known to be a cgo program's is never Go's resolver.
        let cgo = |port: Option<u32>| per_port && port.is_some_and(|p| glibc_ports.contains(&p));
        match collector.observe(m) {
            Some(r) if r.dump && who.wants(r.library) && !cgo(r.port) => due = Some((m.packet, r.port)),
            Some(r) if per_port && r.library.is_glibc_getaddrinfo() => {
                if let Some(p) = r.port {
                    glibc_ports.insert(p);
                    if !every {
                        evaluated.retain(|(_, q, _)| *q != Some(p));
                    }
                }
            }
            _ => {}
        }
        model.apply(m, &mut ());
        follow.message(m);
    })?;
    model.finish(moment.ts, &mut ());
    if let Some((_, port)) = due {
        evaluate(&model, &moment, port, &mut evaluated);
    }
    let looks = collector.finish().looks;
    let mut out = Vec::new();
    for look in crate::looks::choose(&looks, who, every) {
        // A look ends where its last answer ended, which was evaluated.
        let i = evaluated.iter().position(|(m, _, _)| m.packet == look.look.end_packet);
        if let Some(i) = i {
            let (mut at, _, v) = evaluated.swap_remove(i);
            at.chosen = Some(crate::looks::Chosen::Look(look));
            out.push((at, v));
        }
    }
    out.sort_by_key(|(m, _)| m.packet);
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
