//! Printers for `nlorder detect`: one detection with every candidate's
//! verdict, the `--all` matrix, the `--timeline` flips, and conflicts.
//!
//! Contract: formatting only, fed [`Detection`]s; text for people, one JSON
//! document for machines.

use std::io::{self, Write};

use serde::Serialize;

use crate::rebuild::{Flip, Grounds};
use crate::replay::conflict::Conflict;
use crate::replay::verdict::{Choice, Detection, Verdict};
use crate::report::decode::format_ts;
use crate::report::style::Style;

fn verdict_word(v: Verdict) -> &'static str {
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
fn at_line(moment: &crate::rebuild::Moment, style: &Style) -> String {
    style.dim(format!("at: {}", crate::report::moment::describe(moment)))
}

/// `10.4.0.1/24 on nerdctl0`, or the error.
pub fn outcome(d: &Detection) -> String {
    match (&d.address, &d.interface, &d.error) {
        (Some(a), Some(i), _) => format!("{a} on {i}"),
        (Some(a), None, _) => a.to_string(),
        (None, _, Some(e)) => format!("nothing: {e}"),
        _ => "nothing".into(),
    }
}

pub fn write_detection_text(out: &mut dyn Write, d: &Detection, node: Option<&str>, style: &Style) -> io::Result<()> {
    let who = node.map(|n| format!("[{n}] ")).unwrap_or_default();
    let res = outcome(d);
    let res = if d.address.is_some() {
        style.value(res)
    } else {
        style.bad(res)
    };
    writeln!(out, "{who}{} (IPv{}) -> {res}", style.kind(&d.method), d.family)?;
    writeln!(out, "  {}", style.dim(format!("semantics: {}", d.semantics)))?;
    if !d.candidates.is_empty() {
        writeln!(out, "  candidates, in the order examined:")?;
        for c in &d.candidates {
            let head = format!("{} (ifindex {})", c.interface, c.index);
            let verdict = verdict_word(c.verdict);
            let verdict = if c.verdict == Verdict::Chosen {
                style.value(verdict)
            } else {
                verdict.to_string()
            };
            writeln!(out, "    {head:<28} {verdict}: {}", c.reason)?;
            for a in &c.addresses {
                writeln!(
                    out,
                    "        {:<40} {}{}",
                    // IpNet's Display ignores the width: pad the text.
                    a.address.to_string(),
                    verdict_word(a.verdict),
                    a.reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default()
                )?;
            }
        }
    }
    for n in &d.notes {
        writeln!(out, "  note: {n}")?;
    }
    if let Some(l) = &d.log {
        writeln!(out, "  {}", style.dim(format!("log: {l}")))?;
    }
    Ok(())
}

pub fn write_matrix_text(out: &mut dyn Write, rows: &[Detection], style: &Style) -> io::Result<()> {
    let w = rows.iter().map(|d| d.method.len()).max().unwrap_or(6).max(6);
    writeln!(out, "{:<w$}  fam  result", "method")?;
    for d in rows {
        let res = outcome(d);
        let res = if d.address.is_some() {
            style.value(res)
        } else {
            style.bad(res)
        };
        writeln!(out, "{:<w$}  v{}   {res}", d.method, d.family)?;
    }
    Ok(())
}

pub fn write_flips_text(out: &mut dyn Write, flips: &[Flip<Choice>], style: &Style) -> io::Result<()> {
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

pub fn write_conflicts_text(out: &mut dyn Write, conflicts: &[Conflict], style: &Style) -> io::Result<()> {
    if conflicts.is_empty() {
        return writeln!(out, "no two nodes claim the same address");
    }
    for c in conflicts {
        writeln!(
            out,
            "{}",
            style.bad(format!(
                "CONFLICT: node '{}' would log \"{}\" and terminate",
                c.node, c.log
            ))
        )?;
    }
    Ok(())
}

#[derive(Serialize)]
pub struct JsonFlip<'a> {
    pub packet: u64,
    pub ts: Option<f64>,
    pub before: Option<&'a Detection>,
    pub after: &'a Detection,
    pub causes: Vec<String>,
}

pub fn json_flips(flips: &[Flip<Choice>]) -> Vec<JsonFlip<'_>> {
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

/// Adds what a result rests on to its JSON object.
fn insert_grounds(o: &mut serde_json::Map<String, serde_json::Value>, grounds: &Grounds) {
    o.insert("warnings".into(), grounds.warnings.clone().into());
    o.insert("assumptions".into(), serde_json::json!(grounds.assumptions));
}

/// The results of `nlorder detect` over one or more captures, printed as
/// text as they come or gathered into one JSON document; then conflicts
/// between nodes and the `--expect` check decide the exit status.
///
/// JSON: always one document `{"nodes": [...], "conflicts": [...]}`, one
/// entry per capture in argument order: a detection (with `node`,
/// `capture`, `at_packet` and `moment`), `{node, capture, methods}` with
/// `--all`, or `{node, capture, flips}` with `--timeline`; each entry also
/// has `warnings` and `assumptions` (see [`Grounds`]).
pub struct Report<'w> {
    out: &'w mut dyn Write,
    json: bool,
    style: Style,
    /// Several captures: label each and look for conflicts.
    multi: bool,
    nodes: Vec<serde_json::Value>,
    results: Vec<(String, Detection)>,
    /// Nodes evaluated at an `--at` outside their capture.
    outside: Vec<String>,
}

impl<'w> Report<'w> {
    pub fn new(out: &'w mut dyn Write, json: bool, style: Style, multi: bool) -> Self {
        Report {
            out,
            json,
            style,
            multi,
            nodes: Vec::new(),
            results: Vec::new(),
            outside: Vec::new(),
        }
    }

    /// One node's detection at the end of its capture (or `--at`).
    pub fn detection(
        &mut self,
        node: &str,
        capture: &std::path::Path,
        moment: &crate::rebuild::Moment,
        d: Detection,
        grounds: &Grounds,
    ) -> io::Result<()> {
        if self.json {
            let mut v = serde_json::to_value(&d).map_err(io::Error::other)?;
            if let Some(o) = v.as_object_mut() {
                o.insert("node".into(), node.into());
                o.insert("capture".into(), capture.display().to_string().into());
                o.insert("at_packet".into(), moment.packet.into());
                o.insert("moment".into(), super::moment::json(moment));
                insert_grounds(o, grounds);
            }
            self.nodes.push(v);
        } else {
            let label = self.multi.then_some(node);
            write_detection_text(self.out, &d, label, &self.style)?;
            writeln!(self.out, "  {}", at_line(moment, &self.style))?;
        }
        if let Some(w) = crate::report::moment::outside_warning(moment, "--at") {
            self.outside.push(format!("{node}: {w}"));
        }
        self.results.push((node.to_owned(), d));
        Ok(())
    }

    /// One node's detection at each moment asked for: one moment prints as
    /// [`Report::detection`]; `--all-looks` prints one line per look, marking
    /// where the answer changed.
    pub fn detections(
        &mut self,
        node: &str,
        capture: &std::path::Path,
        results: Vec<(crate::rebuild::Moment, Detection)>,
        every: bool,
        grounds: &Grounds,
    ) -> io::Result<()> {
        if !every {
            for (moment, d) in results {
                self.detection(node, capture, &moment, d, grounds)?;
            }
            return Ok(());
        }
        let mut before: Option<String> = None;
        let mut looks = Vec::new();
        for (moment, d) in &results {
            let now = outcome(d);
            let changed = before.as_ref().is_some_and(|b| *b != now);
            if self.json {
                looks.push(serde_json::json!({
                    "moment": super::moment::json(moment),
                    "changed": changed,
                    "detection": d,
                }));
            } else {
                let who = if self.multi {
                    format!("[{node}] ")
                } else {
                    String::new()
                };
                let mark = if changed { "  <- the answer changed" } else { "" };
                writeln!(
                    self.out,
                    "{who}{} (IPv{}) -> {now}{mark}",
                    self.style.kind(&d.method),
                    d.family
                )?;
                writeln!(self.out, "  {}", at_line(moment, &self.style))?;
            }
            before = Some(now);
        }
        if self.json {
            self.nodes
                .push(serde_json::json!({ "node": node, "capture": capture, "looks": looks,
                "warnings": grounds.warnings, "assumptions": grounds.assumptions }));
        }
        if let Some((_, last)) = results.into_iter().next_back() {
            self.results.push((node.to_owned(), last));
        }
        Ok(())
    }

    /// Every method side by side (`--all`).
    pub fn matrix(
        &mut self,
        node: &str,
        capture: &std::path::Path,
        moment: &crate::rebuild::Moment,
        rows: &[Detection],
        grounds: &Grounds,
    ) -> io::Result<()> {
        if self.json {
            let moment = super::moment::json(moment);
            self.nodes.push(
                serde_json::json!({ "node": node, "capture": capture, "moment": moment, "methods": rows,
                "warnings": grounds.warnings, "assumptions": grounds.assumptions }),
            );
            Ok(())
        } else {
            writeln!(self.out, "[{node}] every method on {}:", capture.display())?;
            write_matrix_text(self.out, rows, &self.style)?;
            writeln!(self.out, "  {}", at_line(moment, &self.style))
        }
    }

    /// The moments the choice changed (`--timeline`).
    pub fn flips(
        &mut self,
        node: &str,
        capture: &std::path::Path,
        flips: &[Flip<Choice>],
        grounds: &Grounds,
    ) -> io::Result<()> {
        if self.json {
            self.nodes.push(
                serde_json::json!({ "node": node, "capture": capture, "flips": json_flips(flips),
                "warnings": grounds.warnings, "assumptions": grounds.assumptions }),
            );
        } else {
            writeln!(
                self.out,
                "[{node}] {} over time:",
                flips.last().map(|f| f.after.0.method.as_str()).unwrap_or("")
            )?;
            write_flips_text(self.out, flips, &self.style)?;
        }
        if let Some(last) = flips.last() {
            self.results.push((node.to_owned(), last.after.0.clone()));
        }
        Ok(())
    }

    /// The last detection of each node so far, and the nodes evaluated
    /// at an `--at` outside their capture (with the warning said).
    pub fn results(&self) -> (&[(String, Detection)], &[String]) {
        (&self.results, &self.outside)
    }

    /// Prints the conflicts (and the JSON document).
    pub fn finish(self, conflicts: &[crate::replay::conflict::Conflict]) -> io::Result<()> {
        if self.json {
            let doc = serde_json::json!({ "nodes": self.nodes, "conflicts": conflicts });
            serde_json::to_writer_pretty(&mut *self.out, &doc).map_err(io::Error::from)?;
            writeln!(self.out)?;
        } else if self.multi && !self.results.is_empty() {
            write_conflicts_text(self.out, conflicts, &self.style)?;
        }
        Ok(())
    }
}
