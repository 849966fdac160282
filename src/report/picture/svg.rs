//! The drawing: per node, a time axis over the capture's records, a row of
//! the moments programs looked, one band per program (its answer, each flip
//! marked with the changes that caused it), and one lane per link (its
//! life, state, renames, and its addresses as bars). The HTML page embeds
//! the same drawing; `--format svg` writes it alone.
//!
//! Contract: placement and styling only; every value comes from a
//! [`Picture`]. What the capture does not show as fact is drawn apart:
//! assumed entries hatched, links known only from other messages hatched
//! grey, inferred ones dashed, kernel-rule ones dotted, dump listings with
//! an open start (they were there before, since when is unknown).

use std::collections::HashMap;
use std::io::{self, Write};

use maud::{Markup, html};

use super::{AddrBar, Began, Ended, Life, LinkLane, NodePicture, Picture, ProgramLane, family_number};
use crate::model::Origin;
use crate::netlink::names::{IFA_F_DADFAILED, IFA_F_DEPRECATED, IFA_F_SECONDARY, IFA_F_TENTATIVE};
use crate::replay::method::Method;
use crate::replay::verdict::Detection;
use crate::report::detect::outcome;

/// Width of a node's drawing, in user units, alone...
const WIDTH: f64 = 1100.0;
/// ...and the least when several stand side by side (a narrower axis,
/// text of the same size).
const NARROWEST: f64 = 640.0;

/// The width of each node's drawing when `nodes` stand side by side.
pub(crate) fn node_width(nodes: usize) -> f64 {
    (WIDTH / nodes.max(1) as f64).max(NARROWEST)
}
/// The column of lane names.
const LEFT: f64 = 190.0;
/// Room right of the axis for what lasts to the end.
const RIGHT: f64 = 44.0;
const TOP: f64 = 54.0;
const LOOK_ROW: f64 = 20.0;
const PROGRAM_ROW: f64 = 28.0;
const LINK_ROW: f64 = 20.0;
const ADDR_ROW: f64 = 13.0;
const GAP: f64 = 16.0;

/// Fill colours of answers, in order of first appearance.
const ANSWER_COLOURS: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759", "#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#86bcb6",
];

/// The colour of each answer (by its words), the same in every node's
/// drawing: two nodes with one colour claim one address.
pub(crate) struct Palette(HashMap<String, &'static str>);

impl Palette {
    pub(crate) fn of(p: &Picture) -> Palette {
        let mut map = HashMap::new();
        let mut next = 0usize;
        let mut see = |d: &Detection| {
            if d.address.is_none() {
                return;
            }
            let key = answer_key(d);
            if let std::collections::hash_map::Entry::Vacant(e) = map.entry(key) {
                e.insert(
                    ANSWER_COLOURS
                        .get(next % ANSWER_COLOURS.len())
                        .copied()
                        .unwrap_or("#888"),
                );
                next += 1;
            }
        };
        for n in &p.nodes {
            for prog in &n.programs {
                for f in &prog.flips {
                    see(&f.after.0);
                }
                see(&prog.answer);
            }
        }
        Palette(map)
    }

    pub(crate) fn colour_of(&self, d: &Detection) -> &'static str {
        self.0.get(&answer_key(d)).copied().unwrap_or("url(#nothing)")
    }
}

/// What colours an answer: its IP alone (the same IP on two nodes is the
/// same colour).
fn answer_key(d: &Detection) -> String {
    d.ip().map(|ip| ip.to_string()).unwrap_or_default()
}

/// The time of day of a record (`20:15:40.737952`), or `-`.
pub(crate) fn time_of_day(ts: Option<crate::capture::Timestamp>) -> String {
    let t = crate::report::decode::format_ts(ts);
    match t.split_once('T') {
        Some((_, time)) => time.trim_end_matches('Z').to_owned(),
        None => t,
    }
}

/// Packet numbers to x.
#[derive(Clone, Copy)]
pub(crate) struct Axis {
    pub first: u64,
    pub last: u64,
    /// The drawing's width.
    pub width: f64,
}

impl Axis {
    pub(crate) fn of(n: &NodePicture, width: f64) -> Axis {
        let first = n.clock.first().map_or(1, |c| c.0);
        let last = n.clock.last().map_or(first, |c| c.0).max(first + 1);
        Axis { first, last, width }
    }

    fn x(&self, packet: u64) -> f64 {
        let span = (self.last - self.first) as f64;
        let p = packet.clamp(self.first, self.last);
        LEFT + (p - self.first) as f64 / span * (self.width - LEFT - RIGHT)
    }

    fn end(&self) -> f64 {
        self.width - RIGHT / 2.0
    }

    /// The x a stretch ends at: its end, or past the axis when it lasts.
    fn until(&self, life: &Life) -> f64 {
        life.to.as_ref().map_or(self.end(), |(p, _)| self.x(*p))
    }
}

/// The height of a node's drawing.
pub(crate) fn height(n: &NodePicture) -> f64 {
    let links: f64 = n
        .links
        .iter()
        .map(|l| LINK_ROW + ADDR_ROW * l.addresses.len() as f64)
        .sum();
    TOP + LOOK_ROW + PROGRAM_ROW * n.programs.len() as f64 + GAP + links + 10.0
}

/// The patterns the drawing refers to (hatching of assumed and unknown
/// entries, of "nothing chosen").
pub(crate) fn defs() -> Markup {
    html! {
        defs {
            pattern #assumed width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)" {
                rect width="6" height="6" fill="#fff" {}
                line x1="0" y1="0" x2="0" y2="6" stroke="#c0392b" stroke-width="3" {}
            }
            pattern #unknown width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)" {
                rect width="6" height="6" fill="#eee" {}
                line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2" {}
            }
            pattern #nothing width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)" {
                rect width="8" height="8" fill="#f4f4f4" {}
                line x1="0" y1="0" x2="0" y2="8" stroke="#bbb" stroke-width="2" {}
            }
        }
    }
}

/// The style of the drawing (shared by the page and the SVG document).
pub(crate) const STYLE: &str = "
svg.nl text { font: 11px ui-monospace, 'DejaVu Sans Mono', monospace; fill: #222; }
svg.nl .lane-name { font-weight: 600; }
svg.nl .small { font-size: 9px; fill: #555; }
svg.nl .axis line { stroke: #bbb; }
svg.nl .flipline { stroke: #c0392b; stroke-width: 1; stroke-dasharray: 3 3; opacity: .55; }
svg.nl .flip path { fill: #c0392b; stroke: #fff; stroke-width: 1; cursor: pointer; }
svg.nl .look line { stroke: #555; stroke-width: 2; }
svg.nl .life.up { fill: #8fd19e; }
svg.nl .life.nocarrier { fill: #f3c969; }
svg.nl .life.down { fill: #d5d5d5; }
svg.nl .life.unknown { fill: url(#unknown); }
svg.nl .addr.v4 { fill: #a8c6ea; }
svg.nl .addr.v6 { fill: #d3b8e6; }
svg.nl .addr.secondary { fill-opacity: .55; }
svg.nl .addr.deprecated { fill-opacity: .3; }
svg.nl .addr.tentative { stroke: #333; stroke-dasharray: 2 2; }
svg.nl .addr.dadfailed { fill: #e15759; }
svg.nl .origin-inferred { stroke: #333; stroke-dasharray: 5 3; }
svg.nl .origin-kernel-rule { stroke: #333; stroke-dasharray: 1 2; }
svg.nl .origin-dump { stroke: #333; }
svg.nl .origin-request { stroke: #111; stroke-width: 2; }
svg.nl .assumed { fill: url(#assumed) !important; stroke: #c0392b; stroke-dasharray: 4 2; }
svg.nl .listed { stroke: #333; stroke-dasharray: 2 3; fill: none; }
svg.nl .band { stroke: #fff; stroke-width: 1; }
svg.nl .band.conflict { stroke: #c0392b; stroke-width: 3; }
svg.nl .band-text { fill: #fff; font-weight: 600; }
svg.nl .band-text.dark { fill: #222; }
svg.nl .end-mark { fill: #c0392b; font-weight: 700; }
";

fn origin_class(o: &Origin) -> &'static str {
    match o {
        Origin::Dump(_) => "origin-dump",
        Origin::Inferred(_) => "origin-inferred",
        Origin::Request(_) => "origin-request",
        Origin::KernelRule(..) => "origin-kernel-rule",
    }
}

fn began_words(b: &Began) -> String {
    match b {
        Began::Added(o) => format!("from {}", o.text()),
        Began::Listed(p) => format!("listed by a dump at #{p}: there before, since when unknown"),
    }
}

fn ended_words(life: &Life) -> String {
    match &life.to {
        None => "to the end".to_owned(),
        Some((p, Ended::Removed)) => format!("removed at #{p}"),
        Some((p, Ended::Expired)) => format!("valid lifetime over at #{p} (expired)"),
        Some((p, Ended::Moved(ns))) => format!("moved to namespace {ns} at #{p}"),
    }
}

fn flags_words(family: crate::netlink::values::AddressFamily, flags: u32) -> String {
    crate::netlink::names::address_flags(family, flags).join(" ")
}

fn addr_class(bar: &AddrBar, flags: u32) -> String {
    let mut c = vec!["addr", if family_number(bar.family) == 6 { "v6" } else { "v4" }];
    if flags & IFA_F_SECONDARY != 0 && family_number(bar.family) == 4 {
        c.push("secondary");
    }
    if flags & IFA_F_DEPRECATED != 0 {
        c.push("deprecated");
    }
    if flags & IFA_F_TENTATIVE != 0 {
        c.push("tentative");
    }
    if flags & IFA_F_DADFAILED != 0 {
        c.push("dadfailed");
    }
    match bar.life.began {
        Began::Added(o) => c.push(origin_class(&o)),
        Began::Listed(_) => c.push("origin-dump"),
    }
    c.join(" ")
}

/// The text colour readable on an answer's band.
fn band_text_class(fill: &str) -> &'static str {
    match fill {
        "#edc948" | "#ff9da7" | "#86bcb6" | "#76b7b2" => "band-text dark",
        f if f.starts_with("url(") => "band-text dark",
        _ => "band-text",
    }
}

/// What a flip says, for the page's script and the test: the packet, the
/// answer before and after (address, interface, error, as `detect
/// --timeline --format json` has them), and the changes that caused it.
pub(crate) fn flip_json(f: &crate::ingest::rebuild::Flip<crate::replay::verdict::Choice>) -> String {
    let v = JsonFlip {
        packet: f.packet,
        time: crate::report::decode::format_ts(f.ts),
        before: f.before.as_ref().map(|b| JsonSide::of(&b.0)),
        after: JsonSide::of(&f.after.0),
        causes: f
            .causes
            .iter()
            .map(|c| crate::report::timeline::describe(&c.change))
            .collect(),
    };
    serde_json::to_string(&v).unwrap_or_default()
}

/// One side of a flip in the page's data (as `detect --timeline --format
/// json` has it).
#[derive(serde::Serialize)]
pub(crate) struct JsonSide<'a> {
    address: &'a Option<crate::replay::verdict::NodeAddress>,
    interface: &'a Option<String>,
    error: &'a Option<crate::replay::failure::Failure>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<String>,
}

impl<'a> JsonSide<'a> {
    pub(crate) fn of(d: &'a Detection) -> Self {
        JsonSide {
            address: &d.address,
            interface: &d.interface,
            error: &d.error,
            outcome: Some(outcome(d)),
        }
    }

    /// Without the outcome's words.
    pub(crate) fn bare(d: &'a Detection) -> Self {
        JsonSide {
            outcome: None,
            ..JsonSide::of(d)
        }
    }
}

#[derive(serde::Serialize)]
struct JsonFlip<'a> {
    packet: u64,
    time: String,
    before: Option<JsonSide<'a>>,
    after: JsonSide<'a>,
    causes: Vec<String>,
}

/// The lane of one program: its answer between flips as bands.
fn program_lane(
    n: &NodePicture,
    i: usize,
    p: &ProgramLane,
    y: f64,
    axis: Axis,
    palette: &Palette,
    conflict: Option<&str>,
) -> Markup {
    let h = PROGRAM_ROW - 6.0;
    let answer = outcome(&p.answer);
    html! {
        g .program data-node=(n.node) data-method=(p.method) data-family=(p.answer.family) data-answer=(answer)
            data-address=[p.answer.address.map(|a| a.to_string())]
            data-interface=[p.answer.interface.as_deref()]
            data-flips=(p.flips.len()) data-index=(i) {
            title { (p.method) " -> " (answer) }
            text .lane-name x="4" y=(y + h / 2.0 + 4.0) { (p.method) }
            @for (k, f) in p.flips.iter().enumerate() {
                @let x0 = axis.x(f.packet);
                @let x1 = p.flips.get(k + 1).map_or(axis.end(), |g| axis.x(g.packet));
                @let fill = palette.colour_of(&f.after.0);
                @let last = k + 1 == p.flips.len();
                rect .band.conflict[last && conflict.is_some()] x=(fmt(x0)) y=(fmt(y)) width=(fmt((x1 - x0).max(1.0)))
                    height=(fmt(h)) fill=(fill) rx="3" {
                    title { (outcome(&f.after.0)) " from packet " (f.packet) }
                }
                @if x1 - x0 > 60.0 {
                    text class=(band_text_class(fill)) x=(fmt(x0 + 4.0)) y=(fmt(y + h / 2.0 + 4.0)) {
                        (clip(&outcome(&f.after.0), ((x1 - x0 - 8.0) / 6.6) as usize))
                    }
                }
            }
            @if let (Some(c), Some(f)) = (conflict, p.flips.last()) {
                text .end-mark x=(fmt(axis.end())) y=(fmt(y - 1.0)) text-anchor="end" {
                    (clip(&format!("CONFLICT: {c}"), ((axis.end() - axis.x(f.packet)) / 6.6) as usize))
                    title { "CONFLICT: " (c) }
                }
            }
            @if p.flips.is_empty() {
                text .small x=(fmt(LEFT + 4.0)) y=(fmt(y + h / 2.0 + 4.0)) { "no address in the capture: nothing replayed" }
            }
            @for f in &p.flips {
                @let x = axis.x(f.packet);
                g .flip data-node=(n.node) data-method=(p.method) data-family=(p.answer.family) data-flip=(flip_json(f)) data-packet=(f.packet) {
                    title {
                        "packet " (f.packet) " " (time_of_day(f.ts)) ": "
                        (f.before.as_ref().map_or_else(|| "(start)".to_owned(), |b| outcome(&b.0)))
                        " -> " (outcome(&f.after.0))
                        @for c in &f.causes { "\nbecause: " (crate::report::timeline::describe(&c.change)) }
                    }
                    path d=(format!("M{} {} l5 -7 h-10 z", fmt(x), fmt(y + 1.0))) {}
                }
            }
        }
    }
}

/// Shortens `s` to `n` characters with an ellipsis.
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_owned();
    }
    let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// Coordinates with one decimal: shorter documents.
fn fmt(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// The lane of one link: its lives coloured by state, renames, the end,
/// then its addresses.
fn link_lane(node: &str, l: &LinkLane, y: f64, axis: Axis) -> Markup {
    let name = l
        .names
        .last()
        .map_or_else(|| format!("if{}", l.index), |(_, n)| n.clone());
    let h = LINK_ROW - 8.0;
    html! {
        g .link data-node=(node) data-ifindex=(l.index) data-name=(name) data-unknown=[l.unknown.then_some("true")] {
            text .lane-name x="4" y=(fmt(y + h)) {
                (clip(&name, 16))
                tspan .small { " " (l.index) @if let Some(k) = &l.kind { " " (clip(k, 8)) } }
                title {
                    (name) " (ifindex " (l.index) @if let Some(k) = &l.kind { ", " (k) } ")"
                    @if l.unknown { " — known only from address or route messages: flags, state and type unknown" }
                }
            }
            @for life in &l.lives {
                @for (k, (x0, sx1, class, words)) in stretches(l, life, axis).into_iter().enumerate() {
                    rect class=(class) x=(fmt(x0)) y=(fmt(y + 2.0)) width=(fmt((sx1 - x0).max(1.5)))
                        height=(fmt(h)) {
                        title {
                            (words)
                            // The life's start and end once, on its first stretch.
                            @if k == 0 { " (" (began_words(&life.began)) "; " (ended_words(life)) ")" }
                        }
                    }
                }
                @if let Began::Listed(_) = life.began {
                    line .listed x1=(fmt(axis.x(life.from) - 10.0)) y1=(fmt(y + 2.0 + h / 2.0)) x2=(fmt(axis.x(life.from)))
                        y2=(fmt(y + 2.0 + h / 2.0)) {}
                }
                @match &life.to {
                    Some((p, Ended::Moved(ns))) => {
                        text .end-mark x=(fmt(axis.x(*p) + 2.0)) y=(fmt(y + h)) { "→ netns " (ns) }
                    }
                    Some((p, _)) => { text .end-mark x=(fmt(axis.x(*p) + 1.0)) y=(fmt(y + h)) { "×" } }
                    None => {}
                }
            }
            // (inside the lane's own bar: above it, the label would lie over
            // the last address bar of the link drawn before)
            @for (p, n) in l.names.iter().skip(1) {
                text .small .rename x=(fmt(axis.x(*p) + 2.0)) y=(fmt(y + h - 0.5)) { "renamed " (n) }
            }
            @for (k, bar) in l.addresses.iter().enumerate() {
                (addr_bar(bar, y + LINK_ROW + ADDR_ROW * k as f64, axis))
            }
        }
    }
}

/// The stretches of a life to draw: from x, to x, class, words. A state
/// that lasted less than a pixel is left out (it could not be seen; the
/// timeline lists it), which keeps pages of big hosts small.
fn stretches(l: &LinkLane, life: &Life, axis: Axis) -> Vec<(f64, f64, &'static str, String)> {
    let segs = segments(l, life);
    let end = axis.until(life);
    let mut out: Vec<(f64, f64, &'static str, String)> = Vec::new();
    for (k, (p, class, words)) in segs.iter().enumerate() {
        let x0 = axis.x(*p);
        let x1 = segs.get(k + 1).map_or(end, |s| axis.x(s.0));
        if x1 - x0 < 1.0 && k + 1 < segs.len() {
            continue;
        }
        match out.last_mut() {
            // The same state again (a change of something not drawn here).
            Some(last) if last.2 == *class && last.3 == *words && (last.1 - x0).abs() < 1.0 => last.1 = x1,
            _ => out.push((x0, x1, class, words.clone())),
        }
    }
    out
}

/// A life split where the link's state changed: (packet, class, words).
fn segments(l: &LinkLane, life: &Life) -> Vec<(u64, &'static str, String)> {
    let end = life.to.as_ref().map_or(u64::MAX, |(p, _)| *p);
    let mut out = Vec::new();
    if l.unknown {
        out.push((life.from, "life unknown", "no link message: state unknown".to_owned()));
        return out;
    }
    let before = l.states.iter().rfind(|s| s.packet <= life.from);
    let words = |s: &super::StateMark| {
        let state = s.operstate.map_or_else(
            || "state not shown".to_owned(),
            |o| format!("state {}", crate::netlink::names::operstate(o)),
        );
        let class = match (s.up, s.carrier) {
            (true, true) => "life up",
            (true, false) => "life nocarrier",
            _ => "life down",
        };
        let admin = if s.up { "up" } else { "down" };
        let carrier = if s.carrier { "carrier" } else { "no carrier" };
        (class, format!("{admin}, {carrier}, {state}"))
    };
    match before {
        Some(s) => {
            let (c, w) = words(s);
            out.push((life.from, c, w));
        }
        None => out.push((life.from, "life down", "state not shown".to_owned())),
    }
    for s in l.states.iter().filter(|s| s.packet > life.from && s.packet < end) {
        let (c, w) = words(s);
        match out.last_mut() {
            // Two states in one record: only the last is ever seen.
            Some(last) if last.0 == s.packet => *last = (s.packet, c, w),
            _ => out.push((s.packet, c, w)),
        }
    }
    out
}

fn addr_bar(bar: &AddrBar, y: f64, axis: Axis) -> Markup {
    // What the kernel's timers did after the last record is drawn after
    // the axis, hatched: no message shows it.
    let x1 = match (&bar.after, &bar.life.to) {
        (Some(_), None) => axis.x(axis.last),
        _ => axis.until(&bar.life),
    };
    let text = format!("{}/{}", bar.address, bar.prefix_len);
    html! {
        g .address data-address=(text) data-family=(family_number(bar.family)) data-assumed=[bar.after.map(|_| "true")] {
            @for (k, (p, flags)) in bar.flags.iter().enumerate() {
                @let from = (*p).max(bar.life.from);
                @let sx1 = bar.flags.get(k + 1).map_or(x1, |(q, _)| axis.x(*q));
                rect class=(addr_class(bar, *flags)) x=(fmt(axis.x(from))) y=(fmt(y + 1.0))
                    width=(fmt((sx1 - axis.x(from)).max(1.5))) height=(fmt(ADDR_ROW - 3.0)) {
                    title {
                        (flags_words(bar.family, *flags))
                        @if k == 0 { " (" (began_words(&bar.life.began)) "; " (ended_words(&bar.life)) ")" }
                    }
                }
            }
            @if let (Some(after), None) = (bar.after, &bar.life.to) {
                rect .addr .assumed x=(fmt(x1)) y=(fmt(y + 1.0)) width=(fmt((axis.end() - x1).max(1.5)))
                    height=(fmt(ADDR_ROW - 3.0)) {
                    title { "after the capture (--at end+SECS): " (flags_words(bar.family, after)) " — assumed: the kernel's timers, no message shows it" }
                }
            }
            @if let Began::Listed(_) = bar.life.began {
                line .listed x1=(fmt(axis.x(bar.life.from) - 10.0)) y1=(fmt(y + ADDR_ROW / 2.0))
                    x2=(fmt(axis.x(bar.life.from))) y2=(fmt(y + ADDR_ROW / 2.0)) {}
            }
            text .small x=(fmt(axis.x(bar.life.from) + 3.0)) y=(fmt(y + ADDR_ROW - 3.5)) {
                (text)
            }
        }
    }
}

/// One node's drawing as an `<svg>` element; `conflicts`: per program
/// method, what the node would log.
pub(crate) fn node_svg(
    index: usize,
    width: f64,
    n: &NodePicture,
    palette: &Palette,
    conflicts: &HashMap<Method, String>,
) -> Markup {
    let axis = Axis::of(n, width);
    let h = height(n);
    let ticks = spaced(ticks(n, 8), axis);
    let y_looks = TOP;
    let y_programs = TOP + LOOK_ROW;
    let y_links = y_programs + PROGRAM_ROW * n.programs.len() as f64 + GAP;
    let flip_packets: Vec<u64> = {
        let mut v: Vec<u64> = n
            .programs
            .iter()
            .flat_map(|p| p.flips.iter().map(|f| f.packet))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let mut y = y_links;
    let link_rows: Vec<(f64, &LinkLane)> = n
        .links
        .iter()
        .map(|l| {
            let at = y;
            y += LINK_ROW + ADDR_ROW * l.addresses.len() as f64;
            (at, l)
        })
        .collect();
    html! {
        svg .nl xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 {} {}", fmt(width), fmt(h)))
            width=(fmt(width)) height=(fmt(h)) data-index=(index) data-node=(n.node) data-first=(axis.first) data-last=(axis.last)
            data-x0=(fmt(LEFT)) data-x1=(fmt(width - RIGHT)) {
            (defs())
            text .lane-name x="4" y="14" { (n.node) }
            text .small x=(fmt(LEFT)) y="14" {
                (clip(&format!("{}: records {}–{}, {} to {}", n.capture.display(), axis.first, axis.last,
                    crate::report::decode::format_ts(n.clock.first().and_then(|c| c.1)),
                    crate::report::decode::format_ts(n.clock.last().and_then(|c| c.1))),
                    ((width - LEFT) / 5.6) as usize))
            }
            g .axis {
                @for (p, ts) in &ticks {
                    line x1=(fmt(axis.x(*p))) y1="30" x2=(fmt(axis.x(*p))) y2=(fmt(h - 6.0)) stroke-dasharray="1 4" {}
                    // The last label ends at its tick, inside the drawing.
                    @let anchor = if axis.x(*p) > width - 70.0 { "end" } else { "middle" };
                    text .small x=(fmt(axis.x(*p))) y="28" text-anchor=(anchor) { "#" (p) }
                    text .small x=(fmt(axis.x(*p))) y="40" text-anchor=(anchor) { (time_of_day(*ts)) }
                }
                text .small x="4" y="28" { "packet" }
                text .small x="4" y="40" { "time (UTC)" }
            }
            @for p in &flip_packets {
                line .flipline x1=(fmt(axis.x(*p))) y1=(fmt(y_programs)) x2=(fmt(axis.x(*p))) y2=(fmt(h - 6.0)) {}
            }
            g .looks {
                text .lane-name x="4" y=(fmt(y_looks + 13.0)) { "programs looked" }
                @for l in n.looks.iter().filter(|l| !l.library.is_recorder()) {
                    g .look data-packet=(l.end_packet) data-library=(l.library.id()) {
                        title {
                            "look " (l.number) ": " (l.library.name()) " (" (l.confidence.name()) ")"
                            @if let Some(port) = l.port { ", port " (port) }
                            ", tables as it saw them at packet " (l.end_packet)
                        }
                        line x1=(fmt(axis.x(l.end_packet))) y1=(fmt(y_looks + 2.0)) x2=(fmt(axis.x(l.end_packet)))
                            y2=(fmt(y_looks + LOOK_ROW - 4.0)) {}
                    }
                }
                @if n.looks.iter().all(|l| l.library.is_recorder()) {
                    text .small x=(fmt(LEFT + 4.0)) y=(fmt(y_looks + 13.0)) {
                        "no program asked for the tables"
                        @if !n.looks.is_empty() { " (the dumps are the recorder's own, nlorder record's)" }
                    }
                }
            }
            @for (i, p) in n.programs.iter().enumerate() {
                (program_lane(n, i, p, y_programs + PROGRAM_ROW * i as f64 + 3.0, axis, palette,
                    conflicts.get(&p.method).map(String::as_str)))
            }
            line x1="0" x2=(fmt(width)) y1=(fmt(y_links - GAP / 2.0)) y2=(fmt(y_links - GAP / 2.0)) stroke="#ddd" {}
            @for (y, l) in &link_rows {
                (link_lane(&n.node, l, *y, axis))
            }
        }
    }
}

/// The ticks whose labels (a time of day is about 90 units wide) do not
/// run into each other; the last one stays.
fn spaced(
    ticks: Vec<(u64, Option<crate::capture::Timestamp>)>,
    axis: Axis,
) -> Vec<(u64, Option<crate::capture::Timestamp>)> {
    const ROOM: f64 = 96.0;
    let mut out: Vec<(u64, Option<crate::capture::Timestamp>)> = Vec::new();
    let n = ticks.len();
    for (k, t) in ticks.into_iter().enumerate() {
        let x = axis.x(t.0);
        let last = k + 1 == n;
        while last && out.last().is_some_and(|p| x - axis.x(p.0) < ROOM) && out.len() > 1 {
            out.pop();
        }
        if last || out.last().is_none_or(|p| x - axis.x(p.0) >= ROOM) {
            out.push(t);
        }
    }
    out
}

/// About `n` axis ticks at records of the capture, evenly spread.
fn ticks(n: &NodePicture, count: usize) -> Vec<(u64, Option<crate::capture::Timestamp>)> {
    let len = n.clock.len();
    if len == 0 {
        return Vec::new();
    }
    let mut out: Vec<(u64, Option<crate::capture::Timestamp>)> = (0..count)
        .filter_map(|k| n.clock.get(k * (len - 1) / (count - 1).max(1)).copied())
        .collect();
    out.dedup_by_key(|t| t.0);
    out
}

/// The legend's rows: what each mark and fill means.
fn legend_rows() -> Vec<(Markup, &'static str)> {
    vec![
        (
            html! { rect .life.up width="26" height="10" {} },
            "link up with carrier",
        ),
        (
            html! { rect .life.nocarrier width="26" height="10" {} },
            "link up, no carrier",
        ),
        (
            html! { rect .life.down width="26" height="10" {} },
            "link down (or state not shown)",
        ),
        (
            html! { rect .life.unknown width="26" height="10" {} },
            "link known only from addresses or routes: unknown",
        ),
        (
            html! { rect .addr.v4.origin-dump width="26" height="9" {} },
            "IPv4 address, as a dump or reply showed it (paler: secondary)",
        ),
        (
            html! { rect .addr.v4.origin-request width="26" height="9" {} },
            "from a change request the kernel acknowledged",
        ),
        (
            html! { rect .addr.v6.origin-dump width="26" height="9" {} },
            "IPv6 address (paler: deprecated)",
        ),
        (
            html! { rect .addr.v6.tentative width="26" height="9" {} },
            "tentative (DAD under way)",
        ),
        (
            html! { rect .addr.v4.origin-inferred width="26" height="9" {} },
            "inferred (placed by the kernel's rules after a notification)",
        ),
        (
            html! { rect .addr.v4.origin-kernel-rule width="26" height="9" {} },
            "made by the kernel itself (kernel rule; a quiet host's capture does not show it)",
        ),
        (
            html! { rect .addr.v4.assumed width="26" height="9" {} },
            "assumed: after the capture (--at end+SECS), no message shows it",
        ),
        (
            html! { line .listed x1="0" y1="5" x2="26" y2="5" {} },
            "listed by a dump: there before, since when unknown",
        ),
        (
            html! { path d="M13 8 l5 -7 h-10 z" fill="#c0392b" {} },
            "an answer changed (flip); hover or click for the changes that caused it",
        ),
        (
            html! { line x1="13" y1="0" x2="13" y2="12" stroke="#555" stroke-width="2" {} },
            "a program looked at the tables (who)",
        ),
        (
            html! { rect width="26" height="10" fill="url(#nothing)" {} },
            "no address chosen",
        ),
        (
            html! { text .end-mark x="8" y="10" { "×" } },
            "removed (→ netns: moved to another namespace)",
        ),
    ]
}

/// The legend, drawn.
pub(crate) fn legend() -> Markup {
    let rows = legend_rows();
    let h = 16.0 * rows.len() as f64 + 8.0;
    html! {
        svg .nl .legend xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 560 {}", fmt(h))) width="560" height=(fmt(h)) {
            (defs())
            @for (k, (mark, words)) in rows.into_iter().enumerate() {
                g transform=(format!("translate(4 {})", fmt(4.0 + 16.0 * k as f64))) { (mark) text x="34" y="9" { (words) } }
            }
        }
    }
}

/// Per node, the program methods it would conflict on, and the log line.
pub(crate) fn node_conflicts(p: &Picture, node: &str) -> HashMap<Method, String> {
    let mut out = HashMap::new();
    for pc in &p.conflicts {
        for c in pc.conflicts.iter().filter(|c| c.node == node) {
            out.insert(pc.method.clone(), format!("{} also claims {}", c.other, c.address));
        }
    }
    out
}

/// `--format svg`: every node's drawing side by side, the conflicts and the
/// legend, as one SVG document (no script).
pub fn write(out: &mut dyn Write, p: &Picture) -> io::Result<()> {
    let palette = Palette::of(p);
    let tallest = p.nodes.iter().map(height).fold(0.0, f64::max);
    let conflict_rows = p.conflicts.iter().map(|c| c.conflicts.len()).sum::<usize>() as f64;
    let top = 16.0 * conflict_rows + 8.0;
    let legend_h = 16.0 * legend_rows().len() as f64 + 8.0;
    let each = node_width(p.nodes.len());
    let w = each * p.nodes.len().max(1) as f64;
    let h = top + tallest + legend_h + 10.0;
    let doc = html! {
        svg xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 {} {}", fmt(w), fmt(h))) width=(fmt(w)) height=(fmt(h)) {
            style { (maud::PreEscaped(STYLE)) }
            rect width="100%" height="100%" fill="#fff" {}
            g .nl {
                @for (k, pc) in p.conflicts.iter().flat_map(|pc| pc.conflicts.iter().map(move |c| (pc, c))).enumerate() {
                    text x="4" y=(fmt(14.0 + 16.0 * k as f64)) fill="#c0392b" font-weight="700"
                        font-family="monospace" font-size="12" {
                        "(" (pc.0.method) ") " (crate::report::detect::conflict_line(pc.1))
                    }
                }
            }
            @for (k, n) in p.nodes.iter().enumerate() {
                g transform=(format!("translate({} {})", fmt(each * k as f64), fmt(top))) {
                    (node_svg(k, each, n, &palette, &node_conflicts(p, &n.node)))
                }
            }
            g transform=(format!("translate(0 {})", fmt(top + tallest + 6.0))) { (legend()) }
        }
    };
    out.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")?;
    out.write_all(doc.into_string().as_bytes())?;
    out.write_all(b"\n")
}
