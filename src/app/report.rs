//! `nlorder report`: the picture of an incident, one self-contained HTML
//! page or an SVG drawing, from one capture or one per node.
//!
//! Contract: gathers, per node, the same typed results the other
//! subcommands print (the changes of `timeline` grouped into one lane per
//! link, the looks of `who`, the flips of `detect --timeline` through the
//! same function, the detections of `detect`, the tables of `table`) and
//! hands them to a printer of [`crate::report::picture`]. Each capture is
//! read once for the lanes and once per program replayed (stdin is read
//! into memory first); the page is written only once all of it was read.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;

use super::detect::Node;
use super::settings::DetectSettings;
use super::{Console, Error, Source, Status};
use crate::capture::Record;
use crate::ingest::rebuild::{At, RecordSink};
use crate::ingest::trace::{RecordRead, TraceMessage};
use crate::looks::Collector;
use crate::model::{AddrEntry, Change, ChangeSink, Event, LinkEntry, Model, ModelOptions, ObjectKind};
use crate::netlink::names::{IFF_LOWER_UP, IFF_UP};
use crate::replay::method::Method;
use crate::replay::verdict::Detection;
use crate::replay::{MethodSpec, matrix};
use crate::report::picture::{
    AddrBar, Began, Ended, Life, LinkLane, NodePicture, Picture, ProgramConflicts, ProgramLane, StateMark,
};

/// What `report` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PictureFormat {
    /// One HTML page: the drawing, the answers with their candidates, the
    /// tables; plain HTML/CSS/SVG with a little inline script.
    #[default]
    Html,
    /// The drawing alone, as an SVG document.
    Svg,
}

/// The picture of one capture, or of one per node side by side.
#[derive(Debug, Clone)]
pub struct Report {
    /// The captures, one per node (see [`super::detect::nodes`]).
    pub nodes: Vec<Node>,
    /// The program replayed and its settings (as `detect` takes them).
    pub settings: DetectSettings,
    /// Every program `detect --all` replays, instead of the one method.
    pub all: bool,
    /// What the capture cannot tell about the host's kernel.
    pub model: ModelOptions,
    /// The moment of the tables and answers shown (default: the end).
    pub at: Option<At>,
    /// HTML or SVG.
    pub format: PictureFormat,
    /// Where to write it (`None` or `-`: the output given to `run`).
    pub output: Option<PathBuf>,
}

impl Report {
    /// Reads every capture, replays the programs, and writes the picture.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        if self.settings.expect.is_some() {
            return Err(Error::Usage(
                "--expect is detect's: a picture checks nothing (run nlorder detect --expect)".into(),
            ));
        }
        let names: Vec<String> = self.nodes.iter().map(|n| n.name.clone()).collect();
        self.settings
            .validate(&names)
            .map_err(|e| Error::Usage(e.to_string()))?;
        // A method nlorder cannot use is refused before any capture is read.
        for name in &names {
            self.settings.spec(name).map_err(|e| Error::Usage(e.to_string()))?;
        }
        let mut nodes = Vec::new();
        for node in &self.nodes {
            nodes.push(self.node(console, node)?);
        }
        let conflicts = conflicts(&nodes);
        let picture = Picture { nodes, conflicts };
        let mut page = Vec::new();
        match self.format {
            PictureFormat::Html => crate::report::picture::html::write(&mut page, &picture)?,
            PictureFormat::Svg => crate::report::picture::svg::write(&mut page, &picture)?,
        }
        match &self.output {
            Some(path) if path.as_os_str() != "-" => {
                std::fs::write(path, &page).map_err(|e| Error::Unreadable(format!("{}: {e}", path.display())))?;
                if !console.quiet {
                    crate::diag::say(format_args!("nlorder: wrote {} ({} bytes)", path.display(), page.len()));
                }
            }
            _ => {
                out.write_all(&page)?;
                out.flush()?;
            }
        }
        Ok(Status::Success)
    }

    /// One node: its lanes, its programs' flips and answers, its tables.
    fn node(&self, console: &Console, node: &Node) -> Result<NodePicture, Error> {
        // Read more than once: a capture on stdin is kept in memory.
        let source = match &node.capture {
            Source::Path(p) if p.as_os_str() == "-" => {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
                    .map_err(|e| Error::Unreadable(format!("-: {e}")))?;
                Source::Bytes(Arc::from(bytes))
            }
            s => s.clone(),
        };
        let mut session = console.open(&source)?;
        let mut lanes = Lanes::default();
        let (end, _) = session.rebuild_by_record(console.trace, self.model, &mut lanes)?;
        session.replayable(&end.stats)?;
        lanes.end(&end.model);
        // The other passes say nothing more on stderr.
        let quiet = Console {
            quiet: true,
            style: console.style,
            trace: console.trace,
            progress: None,
        };
        // What the tables (and answers) rest on: those of the moment shown.
        let (tables, grounds) = match self.at {
            None => (end, session.grounds.clone()),
            Some(at) => {
                let mut s = quiet.open(&source)?;
                let (t, _) = s.rebuild(quiet.trace, self.model, Some(at), &mut ())?;
                (t, s.grounds.clone())
            }
        };
        let specs = self.specs(&tables.model, &node.name)?;
        let mut programs = Vec::new();
        for spec in &specs {
            let (flips, _) = super::detect::flips(&quiet, &source, self.model, spec)?;
            let answer: Detection = spec.detect(&tables.model);
            programs.push(ProgramLane {
                method: answer.method.clone(),
                flips,
                answer,
            });
        }
        lanes.after_capture(&tables.model);
        let links = lanes.finish(&tables.model);
        Ok(NodePicture {
            node: node.name.clone(),
            capture: node.capture.path().to_path_buf(),
            clock: lanes.clock,
            links,
            programs,
            looks: lanes.looks.finish().looks,
            tables,
            grounds,
        })
    }

    /// The programs replayed on `node`: the one method, or the `--all` set
    /// derived from the tables as `detect --all` derives it.
    fn specs(&self, model: &Model, node: &str) -> Result<Vec<MethodSpec>, Error> {
        let spec = self.settings.spec(node).map_err(|e| Error::Usage(e.to_string()))?;
        if !self.all {
            return Ok(vec![spec]);
        }
        let families = match self.settings.family {
            Some(f) => vec![f],
            None => vec![crate::replay::family::Family::V4, crate::replay::family::Family::V6],
        };
        Ok(matrix::methods(model, &spec, &families))
    }
}

/// Per program, the nodes that would claim one address (as `detect`
/// checks them), in the order the programs are listed.
fn conflicts(nodes: &[NodePicture]) -> Vec<ProgramConflicts> {
    let mut methods: Vec<&Method> = Vec::new();
    for n in nodes {
        for p in &n.programs {
            if !methods.contains(&&p.method) {
                methods.push(&p.method);
            }
        }
    }
    methods
        .into_iter()
        .filter_map(|m| {
            let last: Vec<(String, Detection)> = nodes
                .iter()
                .filter_map(|n| {
                    let p = n.programs.iter().find(|p| p.method == *m)?;
                    Some((n.node.clone(), p.answer.clone()))
                })
                .collect();
            let conflicts = crate::replay::conflict::check(&last);
            (!conflicts.is_empty()).then(|| ProgramConflicts {
                method: m.clone(),
                conflicts,
            })
        })
        .collect()
}

fn state_of(l: &LinkEntry, packet: u64) -> StateMark {
    StateMark {
        packet,
        up: l.flags & IFF_UP != 0,
        operstate: l.operstate,
        carrier: l.flags & IFF_LOWER_UP != 0,
    }
}

type AddrKey = (u32, IpAddr, u8);

fn addr_key(a: &AddrEntry) -> AddrKey {
    (a.index, a.address, a.prefix_len)
}

/// Follows the rebuild record by record and groups its changes by link.
#[derive(Default)]
struct Lanes {
    lanes: BTreeMap<u32, LinkLane>,
    /// Addresses there now: lane and position of their bar.
    open_addrs: HashMap<AddrKey, usize>,
    /// A dump was applied in the current record: what it listed is
    /// compared with the lanes once the record ends.
    dumped: bool,
    clock: Vec<(u64, Option<crate::capture::Timestamp>)>,
    looks: Collector,
}

impl Lanes {
    fn lane(&mut self, index: u32) -> &mut LinkLane {
        self.lanes.entry(index).or_insert_with(|| LinkLane {
            index,
            kind: None,
            names: Vec::new(),
            lives: Vec::new(),
            states: Vec::new(),
            addresses: Vec::new(),
            unknown: false,
        })
    }

    fn is_open(&self, index: u32) -> bool {
        self.lanes
            .get(&index)
            .and_then(|l| l.lives.last())
            .is_some_and(|l| l.to.is_none())
    }

    /// The link is there from `packet` on (`began`): opens its lane.
    fn link_there(&mut self, l: &LinkEntry, packet: u64, began: Began) {
        if self.is_open(l.index) {
            // A link message about a link known only from its addresses:
            // from here on it is known.
            if let Some(lane) = self.lanes.get_mut(&l.index)
                && lane.unknown
                && !l.placeholder
            {
                lane.unknown = false;
                lane.kind = l.kind.map(|k| k.display());
                let name = l.display_name();
                if lane.names.last().is_none_or(|(_, n)| *n != name) {
                    lane.names.push((packet, name));
                }
                lane.states.push(state_of(l, packet));
            }
            return;
        }
        let lane = self.lane(l.index);
        lane.lives.push(Life {
            from: packet,
            began,
            to: None,
        });
        lane.unknown = l.placeholder;
        if let Some(k) = l.kind {
            lane.kind = Some(k.display());
        }
        let name = l.display_name();
        if lane.names.last().is_none_or(|(_, n)| *n != name) {
            lane.names.push((packet, name));
        }
        if !l.placeholder {
            lane.states.push(state_of(l, packet));
        }
    }

    fn link_gone(&mut self, index: u32, packet: u64, how: Ended) {
        let open: Vec<AddrKey> = self.open_addrs.keys().filter(|k| k.0 == index).copied().collect();
        for k in open {
            self.addr_gone(k, packet, Ended::Removed);
        }
        if let Some(life) = self.lanes.get_mut(&index).and_then(|l| l.lives.last_mut())
            && life.to.is_none()
        {
            life.to = Some((packet, how));
        }
    }

    fn addr_there(&mut self, a: &AddrEntry, packet: u64, began: Began) {
        let key = addr_key(a);
        if self.open_addrs.contains_key(&key) {
            return;
        }
        let lane = self.lane(a.index);
        if lane.lives.is_empty() {
            // Known only from its addresses so far.
            lane.unknown = true;
            lane.lives.push(Life {
                from: packet,
                began,
                to: None,
            });
        }
        lane.addresses.push(AddrBar {
            address: a.address,
            prefix_len: a.prefix_len,
            family: a.family,
            life: Life {
                from: packet,
                began,
                to: None,
            },
            flags: vec![(packet, a.flags)],
            after: None,
        });
        let at = lane.addresses.len() - 1;
        self.open_addrs.insert(key, at);
    }

    fn addr_gone(&mut self, key: AddrKey, packet: u64, how: Ended) {
        let Some(at) = self.open_addrs.remove(&key) else {
            return;
        };
        if let Some(bar) = self.lanes.get_mut(&key.0).and_then(|l| l.addresses.get_mut(at))
            && bar.life.to.is_none()
        {
            bar.life.to = Some((packet, how));
        }
    }

    fn addr_flags(&mut self, a: &AddrEntry, packet: u64) {
        let Some(&at) = self.open_addrs.get(&addr_key(a)) else {
            return;
        };
        if let Some(bar) = self.lanes.get_mut(&a.index).and_then(|l| l.addresses.get_mut(at))
            && bar.flags.last().is_none_or(|(_, f)| *f != a.flags)
        {
            bar.flags.push((packet, a.flags));
        }
    }

    fn apply(&mut self, change: &Change, packet: u64) {
        match change {
            Change::LinkAdded(l) => self.link_there(l, packet, Began::Added(l.origin)),
            Change::LinkRemoved(l) => self.link_gone(l.index, packet, Ended::Removed),
            Change::LinkMovedAway { link, to } => self.link_gone(link.index, packet, Ended::Moved(to.to_string())),
            Change::LinkRenamed { link, .. } => {
                let name = link.display_name();
                let lane = self.lane(link.index);
                if lane.names.last().is_none_or(|(_, n)| *n != name) {
                    lane.names.push((packet, name));
                }
            }
            Change::LinkState { link, .. } => {
                let mark = state_of(link, packet);
                let lane = self.lane(link.index);
                lane.unknown = link.placeholder;
                lane.states.push(mark);
            }
            Change::AddrAdded { addr, .. } => self.addr_there(addr, packet, Began::Added(addr.origin)),
            Change::AddrRemoved {
                addr,
                promoted,
                removed_secondaries,
                ..
            } => {
                self.addr_gone(addr_key(addr), packet, Ended::Removed);
                for s in removed_secondaries {
                    self.addr_gone(addr_key(s), packet, Ended::Removed);
                }
                if let Some(p) = promoted {
                    self.addr_flags(p, packet);
                }
            }
            Change::AddrExpired { addr, .. } => self.addr_gone(addr_key(addr), packet, Ended::Expired),
            Change::AddrChanged { addr, .. } => self.addr_flags(addr, packet),
            Change::Unnotified { change, .. } => self.apply(change, packet),
            Change::DumpApplied {
                kind: ObjectKind::Links | ObjectKind::Addresses,
                ..
            } => self.dumped = true,
            _ => {}
        }
    }

    /// What the model holds that no change showed (a dump's first
    /// listing, a GET reply): there from `packet` (`None`: from where its
    /// origin says).
    fn reconcile(&mut self, model: &Model, packet: Option<u64>) {
        for l in model.links() {
            let p = packet.unwrap_or_else(|| crate::report::picture::origin_packet(&l.origin));
            self.link_there(l, p, Began::Listed(p));
        }
        for a in model.addresses(None) {
            let p = packet.unwrap_or_else(|| crate::report::picture::origin_packet(&a.origin));
            self.addr_there(a, p, Began::Listed(p));
        }
    }

    /// The lanes, in the kernel's link order at `model`'s moment, then the
    /// links gone by then.
    fn finish(&mut self, model: &Model) -> Vec<LinkLane> {
        let mut out = Vec::new();
        for l in model.links() {
            if let Some(mut lane) = self.lanes.remove(&l.index) {
                // A name the model learnt without a change (a request named
                // the device its addresses were first seen on).
                let name = l.display_name();
                match lane.names.as_mut_slice() {
                    [] => lane
                        .names
                        .push((crate::report::picture::origin_packet(&l.origin), name)),
                    [(_, only)] if *only == format!("if{}", l.index) => *only = name,
                    [.., (_, last)] if *last != name => lane
                        .names
                        .push((crate::report::picture::origin_packet(&l.origin), name)),
                    _ => {}
                }
                out.push(lane);
            }
        }
        out.extend(std::mem::take(&mut self.lanes).into_values());
        out
    }
}

impl ChangeSink for Lanes {
    fn change(&mut self, event: Event) {
        self.apply(&event.change, event.packet);
    }

    fn message(&mut self, m: &TraceMessage<'_>) {
        self.looks.observe(m);
    }
}

impl RecordSink for Lanes {
    fn record(&mut self, rec: &Record<'_>, read: &RecordRead, model: &Model) -> bool {
        if read.messages > 0 {
            self.clock.push((rec.number, rec.ts));
        }
        if std::mem::take(&mut self.dumped) {
            self.reconcile(model, Some(rec.number));
        }
        true
    }
}

/// After the last record: what the end model holds that the lanes miss.
impl Lanes {
    fn end(&mut self, model: &Model) {
        self.reconcile(model, None);
    }

    /// What the kernel's timers changed after the last record in `tables`
    /// (`--at end+SECS`): marked on the addresses, as assumed.
    fn after_capture(&mut self, tables: &Model) {
        for a in tables.addresses(None) {
            if !tables.address_after_capture(a) {
                continue;
            }
            let Some(&at) = self.open_addrs.get(&addr_key(a)) else {
                continue;
            };
            if let Some(bar) = self.lanes.get_mut(&a.index).and_then(|l| l.addresses.get_mut(at)) {
                bar.after = Some(a.flags);
            }
        }
    }
}
