//! Printers for `nlorder detect`: one detection with every candidate's
//! verdict, the `--all` matrix, the `--timeline` flips, and conflicts.
//!
//! Contract: formatting only, fed [`Detection`]s; text for people, one JSON
//! document for machines.

use std::io::{self, Write};

use serde::Serialize;

use std::path::PathBuf;

use crate::ingest::moment::Moment;
use crate::ingest::rebuild::{Flip, Grounds};
use crate::replay::conflict::{Check, Conflict, Said};
use crate::replay::matrix::Group;
use crate::replay::verdict::{Candidate, Choice, Detection, Verdict};
use crate::report::decode::format_ts;
use crate::report::moment::{self, JsonMoment};
use crate::report::style::Style;
use crate::report::{Json, Print, Text};

pub(crate) fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Chosen => "chosen",
        Verdict::Excluded => "excluded",
        Verdict::NotIncluded => "not included",
        Verdict::NoAddress => "no address",
        Verdict::NotGlobalUnicast => "not global unicast",
        Verdict::OutsideCidrs => "outside the CIDRs",
        Verdict::NotMatching => "not matching",
        Verdict::NotUp => "down",
        Verdict::OtherFamily => "other family",
        Verdict::Filtered => "filtered",
        Verdict::NameUnknown => "name unknown",
        Verdict::NotReached => "not reached",
    }
}

/// `at: packet 10, … (the end of the capture)`, dimmed.
fn at_line(moment: &Moment, style: &Style) -> String {
    style.dim(format!("at: {}", crate::report::moment::describe(moment)))
}

/// `10.4.0.1/24 on nerdctl0`, or the error.
pub fn outcome(d: &Detection) -> String {
    let unsure = |s: String| {
        if d.unshown.is_empty() {
            s
        } else {
            format!(
                "{s} (the capture cannot tell whether this holds: {})",
                super::assumption::unshown_list(&d.unshown)
            )
        }
    };
    match (&d.address, &d.interface, &d.error) {
        (Some(a), Some(i), _) => unsure(format!("{a} on {i}")),
        (Some(a), None, _) => unsure(a.to_string()),
        (None, _, Some(e)) => format!("nothing: {e}"),
        _ => "nothing".into(),
    }
}

/// `[node] method (IPv4) -> answer`, the first line of every detection.
fn write_answer_line(out: &mut dyn Write, d: &Detection, node: Option<&str>, style: &Style) -> io::Result<()> {
    let who = node.map(|n| format!("[{n}] ")).unwrap_or_default();
    let res = outcome(d);
    let res = if d.address.is_some() {
        style.value(res)
    } else {
        style.bad(res)
    };
    writeln!(out, "{who}{} (IPv{}) -> {res}", style.kind(&d.method), d.family)?;
    Ok(())
}

/// What follows the answer line in full: every address, the semantics,
/// every candidate with its verdict, the notes and the logs.
fn write_details(out: &mut dyn Write, d: &Detection, style: &Style) -> io::Result<()> {
    if d.addresses.len() > 1 {
        let all: Vec<String> = d.addresses.iter().map(|a| a.to_string()).collect();
        writeln!(out, "  addresses: {}", style.value(all.join(", ")))?;
    }
    writeln!(out, "  {}", style.dim(format!("semantics: {}", d.semantics)))?;
    if !d.candidates.is_empty() {
        writeln!(out, "  candidates, in the order examined:")?;
        // The columns widen to the longest name and address (a 15-byte
        // name with a 5-digit ifindex, an IPv6 /128) so verdicts stay aligned.
        let head_of = |c: &crate::replay::verdict::Candidate| candidate_head(d, c);
        let head_width = d
            .candidates
            .iter()
            .map(|c| head_of(c).chars().count())
            .fold(28, usize::max);
        let addr_width = d
            .candidates
            .iter()
            .flat_map(|c| &c.addresses)
            .map(|a| a.address.to_string().len())
            .fold(40, usize::max);
        for c in &d.candidates {
            let head = candidate_head(d, c);
            let verdict = verdict_word(c.verdict);
            let verdict = if c.verdict == Verdict::Chosen {
                style.value(verdict)
            } else {
                verdict.to_string()
            };
            writeln!(out, "    {head:<head_width$} {verdict}: {}", c.reason)?;
            for a in &c.addresses {
                let word = verdict_word(a.verdict);
                // (a reason that only repeats the verdict is not said twice)
                let reason = a
                    .reason
                    .as_ref()
                    .map(ToString::to_string)
                    .filter(|r| r != word)
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "        {:<addr_width$} {word}{reason}",
                    // IpNet's Display ignores the width: pad the text.
                    a.address.to_string(),
                )?;
            }
        }
    }
    for n in &d.notes {
        writeln!(out, "  note: {n}")?;
    }
    for l in &d.log {
        writeln!(out, "  {}", style.dim(format!("log: {l}")))?;
    }
    Ok(())
}

/// `eth1 (ifindex 3)`, with `, DOWN` for an interface that is
/// administratively down.
fn candidate_head(d: &Detection, c: &Candidate) -> String {
    let down = if d.down.contains(&c.index) { ", DOWN" } else { "" };
    format!("{} (ifindex {}{down})", c.interface, c.index)
}

/// What follows the answer line with `--brief`: the candidate that came
/// closest and why it lost.
fn write_runner_up(out: &mut dyn Write, d: &Detection) -> io::Result<()> {
    match d.runner_up() {
        Some((c, Some(a))) => writeln!(
            out,
            "  runner-up: {} {}: {}: {}",
            candidate_head(d, c),
            a.address,
            verdict_word(a.verdict),
            // Passed over with its whole interface: the interface's reason.
            match &a.reason {
                Some(r) if c.verdict != Verdict::NotReached => r,
                _ => &c.reason,
            }
        ),
        Some((c, None)) => writeln!(
            out,
            "  runner-up: {}: {}: {}",
            candidate_head(d, c),
            verdict_word(c.verdict),
            c.reason
        ),
        None => writeln!(out, "  runner-up: none (no other candidate)"),
    }
}

pub(crate) fn write_matrix_text(out: &mut dyn Write, m: &MatrixAt, style: &Style) -> io::Result<()> {
    let rows = &m.rows;
    let names: Vec<String> = rows.iter().map(|d| d.method.to_string()).collect();
    let w = names.iter().map(String::len).max().unwrap_or(6).max(6);
    writeln!(out, "{:<w$}  fam  result", "method")?;
    for (d, method) in rows.iter().zip(&names) {
        let res = outcome(d);
        let res = if d.address.is_some() {
            style.value(res)
        } else {
            style.bad(res)
        };
        writeln!(out, "{method:<w$}  v{}   {res}", d.family)?;
    }
    let name = |i: &usize| names.get(*i).map_or("", String::as_str);
    let words = |g: &Group| {
        let ip = g.ip.map_or_else(|| "nothing".to_owned(), |ip| ip.to_string());
        format!("{ip} ({})", g.rows.iter().map(name).collect::<Vec<_>>().join(", "))
    };
    match m.agreement.as_slice() {
        [] => {}
        [one] => writeln!(out, "the programs agree: {}", words(one))?,
        [most, rest @ ..] => {
            // In the order the methods were listed.
            let mut odd: Vec<usize> = rest.iter().flat_map(|g| g.rows.iter().copied()).collect();
            odd.sort_unstable();
            let odd: Vec<&str> = odd.iter().map(name).collect();
            writeln!(
                out,
                "{} disagree: {}; {}",
                odd.join(", "),
                words(most),
                rest.iter().map(words).collect::<Vec<_>>().join("; ")
            )?;
        }
    }
    Ok(())
}

pub(crate) fn write_flips_text(out: &mut dyn Write, flips: &[Flip<Choice>], style: &Style) -> io::Result<()> {
    for f in flips {
        let was = f
            .before
            .as_ref()
            .map(|b| outcome(&b.0))
            .unwrap_or_else(|| "(start)".into());
        writeln!(
            out,
            "{} {} {} -> {}",
            style.dim(format!("{:>6}", f.packet)),
            format_ts(f.ts),
            was,
            style.value(outcome(&f.after.0))
        )?;
        for c in &f.causes {
            writeln!(
                out,
                "         because: {}",
                crate::report::timeline::describe(&c.change)
            )?;
        }
    }
    Ok(())
}

/// One flip as `nlorder watch` prints it the moment it happens: the text
/// lines `detect --timeline` prints for it, or one JSON object per line.
pub fn write_flip(out: &mut dyn Write, flip: &Flip<Choice>, format: super::Format, style: &Style) -> io::Result<()> {
    let one = std::slice::from_ref(flip);
    match format {
        super::Format::Text => write_flips_text(out, one, style),
        super::Format::Json => {
            for f in json_flips(one) {
                serde_json::to_writer(&mut *out, &f)?;
                writeln!(out)?;
            }
            Ok(())
        }
    }
}

pub(crate) fn write_conflicts_text(
    out: &mut dyn Write,
    conflicts: &[Conflict],
    said: &[Said],
    style: &Style,
) -> io::Result<()> {
    if conflicts.is_empty() {
        return writeln!(out, "no two nodes claim the same address");
    }
    for s in said {
        let all = match s {
            Said::Pair(i) => {
                if let Some(c) = conflicts.get(*i) {
                    writeln!(out, "{}", style.bad(conflict_line(c)))?;
                }
                continue;
            }
            Said::Address(all) => all,
        };
        let group: Vec<&Conflict> = all.iter().filter_map(|i| conflicts.get(*i)).collect();
        let (Some(c), n) = (group.first(), group.len()) else {
            continue;
        };
        const NAMED: usize = 5;
        let later: Vec<String> = group.iter().take(NAMED).map(|x| format!("'{}'", x.node)).collect();
        let more = match n > NAMED {
            true => format!(" and {} more", n - NAMED),
            false => String::new(),
        };
        let line = match c.check {
            Check::CalicoNode => format!(
                "CONFLICT: {} nodes claim IPv{} {}: {}{more} would each log \"{}\" and terminate",
                n + 1,
                c.family.number(),
                c.address,
                later.join(", "),
                crate::report::calico::AlreadyUsing(c)
            ),
            Check::None => format!(
                "COLLISION: {} nodes use IPv{} {}: '{}', then {}{more} (the program checks nothing of the kind: all run on)",
                n + 1,
                c.family.number(),
                c.address,
                c.other,
                later.join(", ")
            ),
        };
        writeln!(out, "{}", style.bad(line))?;
    }
    Ok(())
}

/// One conflict in the words of the program that checks it (or none).
pub(crate) fn conflict_line(c: &Conflict) -> String {
    match c.check {
        Check::CalicoNode => format!(
            "CONFLICT: node '{}' would log \"{}\" and terminate",
            c.node,
            crate::report::calico::AlreadyUsing(c)
        ),
        Check::None => format!(
            "COLLISION: nodes '{}' and '{}' both use {} (the program checks nothing of the kind: both run on)",
            c.other, c.node, c.address
        ),
    }
}

/// A conflict in JSON: `log` only where the program logs one.
#[derive(Serialize)]
struct JsonConflict<'a> {
    node: &'a str,
    other: &'a str,
    family: u8,
    address: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    log: Option<String>,
}

impl Serialize for Conflict {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        JsonConflict {
            node: &self.node,
            other: &self.other,
            family: self.family.number(),
            address: self.address.to_string(),
            log: match self.check {
                Check::CalicoNode => Some(crate::report::calico::AlreadyUsing(self).to_string()),
                Check::None => None,
            },
        }
        .serialize(s)
    }
}

#[derive(Serialize)]
struct JsonFlip<'a> {
    packet: u64,
    ts: Option<f64>,
    before: Option<&'a Detection>,
    after: &'a Detection,
    causes: Vec<String>,
}

fn json_flips(flips: &[Flip<Choice>]) -> Vec<JsonFlip<'_>> {
    flips
        .iter()
        .map(|f| JsonFlip {
            packet: f.packet,
            ts: f.ts.map(|t| t.as_secs_f64()),
            before: f.before.as_ref().map(|b| &b.0),
            after: &f.after.0,
            causes: f
                .causes
                .iter()
                .map(|c| crate::report::timeline::describe(&c.change))
                .collect(),
        })
        .collect()
}

/// What `nlorder detect` answers for one node (capture).
#[derive(Debug)]
pub struct NodeAnswer {
    /// The node's name.
    pub node: String,
    /// Its capture's path (`-`: stdin).
    pub capture: PathBuf,
    /// What the method chose there.
    pub answer: Answer,
    /// What the answer rests on.
    pub grounds: Grounds,
}

/// One node's answer, in the shape its options asked for.
#[derive(Debug)]
pub enum Answer {
    /// The method's detection at each moment asked for (the end of the
    /// capture, `--at`, or the last look of `--at auto`).
    At(Vec<(Moment, Detection)>),
    /// At every look (`--all-looks`), marking where the answer changed.
    Looks(Vec<Look>),
    /// Every method side by side (`--all`), at each moment asked for.
    Matrix(Vec<MatrixAt>),
    /// The moments the choice changed (`--timeline`).
    Flips(Vec<Flip<Choice>>),
}

/// One look of `--all-looks`.
#[derive(Debug)]
pub struct Look {
    /// When the program looked.
    pub moment: Moment,
    /// What it chose then.
    pub detection: Detection,
    /// The outcome (address, interface, error) differs from the previous
    /// look's.
    pub changed: bool,
}

/// `--all` at one moment: every method's answer, and the programs grouped
/// by the IP they pick.
#[derive(Debug)]
pub struct MatrixAt {
    /// The moment evaluated.
    pub moment: Moment,
    /// Every method's detection, in the order tried.
    pub rows: Vec<Detection>,
    /// The programs grouped by the IP they pick (indices into `rows`).
    pub agreement: Vec<Group>,
}

/// Everything `nlorder detect` answers: each node, and the conflicts
/// between them.
#[derive(Debug)]
pub struct DetectReport {
    /// One answer per capture, in argument order.
    pub nodes: Vec<NodeAnswer>,
    /// Nodes that would claim one address (see [`crate::replay::conflict`]).
    pub conflicts: Vec<Conflict>,
    /// Text: each answer with its runner-up only, not every candidate.
    pub brief: bool,
    /// Several nodes were answered (one node's families, from an
    /// Installation, are not several nodes): each answer is labelled.
    pub labelled: bool,
    /// How the conflicts are said, where they are (several nodes, at
    /// least one with an answer); `None`: not said.
    pub said: Option<Vec<Said>>,
}

/// Each node as it was answered, then the conflicts between nodes.
impl Print<DetectReport> for Text {
    fn print(&mut self, r: &DetectReport, out: &mut dyn Write) -> io::Result<()> {
        let style = &self.0;
        let multi = r.labelled;
        for n in &r.nodes {
            let node = n.node.as_str();
            match &n.answer {
                Answer::At(results) => {
                    for (moment, d) in results {
                        write_answer_line(out, d, multi.then_some(node), style)?;
                        if r.brief {
                            write_runner_up(out, d)?;
                        } else {
                            write_details(out, d, style)?;
                        }
                        writeln!(out, "  {}", at_line(moment, style))?;
                    }
                }
                Answer::Looks(looks) => {
                    for Look {
                        moment,
                        detection: d,
                        changed,
                    } in looks
                    {
                        let who = if multi { format!("[{node}] ") } else { String::new() };
                        let mark = if *changed { "  <- the answer changed" } else { "" };
                        writeln!(
                            out,
                            "{who}{} (IPv{}) -> {}{mark}",
                            style.kind(&d.method),
                            d.family,
                            outcome(d)
                        )?;
                        writeln!(out, "  {}", at_line(moment, style))?;
                    }
                }
                Answer::Matrix(results) => {
                    for m in results {
                        writeln!(out, "[{node}] every method on {}:", n.capture.display())?;
                        write_matrix_text(out, m, style)?;
                        writeln!(out, "  {}", at_line(&m.moment, style))?;
                    }
                }
                Answer::Flips(flips) => {
                    writeln!(
                        out,
                        "[{node}] {} over time:",
                        flips.last().map(|f| f.after.0.method.to_string()).unwrap_or_default()
                    )?;
                    write_flips_text(out, flips, style)?;
                }
            }
        }
        if let Some(said) = &r.said {
            write_conflicts_text(out, &r.conflicts, said, style)?;
        }
        Ok(())
    }
}

/// Programs of `--all` that end up with one IP (`null`: nothing).
#[derive(Serialize)]
struct JsonGroup {
    address: Option<std::net::IpAddr>,
    programs: Vec<crate::replay::method::Method>,
}

/// One document `{"nodes": [...], "conflicts": [...]}`, an entry per
/// capture in argument order: a detection (with `node`, `capture`,
/// `at_packet` and `moment`), `{node, capture, looks}` with
/// `--all-looks`, `{node, capture, moment, methods}` with `--all`, or
/// `{node, capture, flips}` with `--timeline`; each entry also has
/// `warnings` and `assumptions` (see [`Grounds`]).
impl Print<DetectReport> for Json {
    fn print(&mut self, r: &DetectReport, out: &mut dyn Write) -> io::Result<()> {
        let mut nodes = Vec::new();
        for n in &r.nodes {
            let capture = n.capture.display().to_string();
            let grounds = &n.grounds;
            match &n.answer {
                Answer::At(results) => nodes.extend(results.iter().map(|(moment, d)| JsonNode::Detection {
                    detection: d,
                    node: &n.node,
                    capture: capture.clone(),
                    at_packet: moment.packet,
                    moment: moment::json(moment),
                    grounds,
                })),
                Answer::Looks(results) => {
                    let looks = results
                        .iter()
                        .map(|l| JsonLook {
                            moment: moment::json(&l.moment),
                            changed: l.changed,
                            detection: &l.detection,
                        })
                        .collect();
                    nodes.push(JsonNode::Looks {
                        node: &n.node,
                        capture: capture.clone(),
                        looks,
                        grounds,
                    });
                }
                Answer::Matrix(results) => nodes.extend(results.iter().map(|m| {
                    JsonNode::Matrix {
                        node: &n.node,
                        capture: capture.clone(),
                        moment: moment::json(&m.moment),
                        methods: &m.rows,
                        agreement: m
                            .agreement
                            .iter()
                            .map(|g| JsonGroup {
                                address: g.ip,
                                programs: g
                                    .rows
                                    .iter()
                                    .filter_map(|i| m.rows.get(*i))
                                    .map(|d| d.method.clone())
                                    .collect(),
                            })
                            .collect(),
                        grounds,
                    }
                })),
                Answer::Flips(flips) => nodes.push(JsonNode::Flips {
                    node: &n.node,
                    capture,
                    flips: json_flips(flips),
                    grounds,
                }),
            }
        }
        let doc = JsonDetect {
            nodes,
            conflicts: &r.conflicts,
        };
        super::document(out, &doc)
    }
}

#[derive(Serialize)]
struct JsonDetect<'a> {
    nodes: Vec<JsonNode<'a>>,
    conflicts: &'a [Conflict],
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsonNode<'a> {
    Detection {
        #[serde(flatten)]
        detection: &'a Detection,
        node: &'a str,
        capture: String,
        at_packet: u64,
        moment: JsonMoment,
        #[serde(flatten)]
        grounds: &'a Grounds,
    },
    Looks {
        node: &'a str,
        capture: String,
        looks: Vec<JsonLook<'a>>,
        #[serde(flatten)]
        grounds: &'a Grounds,
    },
    Matrix {
        node: &'a str,
        capture: String,
        moment: JsonMoment,
        methods: &'a [Detection],
        /// The programs grouped by the IP they end up with, largest group
        /// first; every group after the first disagrees with it.
        agreement: Vec<JsonGroup>,
        #[serde(flatten)]
        grounds: &'a Grounds,
    },
    Flips {
        node: &'a str,
        capture: String,
        flips: Vec<JsonFlip<'a>>,
        #[serde(flatten)]
        grounds: &'a Grounds,
    },
}

#[derive(Serialize)]
struct JsonLook<'a> {
    moment: JsonMoment,
    changed: bool,
    detection: &'a Detection,
}
