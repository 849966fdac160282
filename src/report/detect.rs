//! Printers for `nlorder detect`: one detection with every candidate's
//! verdict, the `--all` matrix, the `--timeline` flips, and conflicts.
//!
//! Contract: formatting only, fed [`Detection`]s; text for people, one JSON
//! document for machines.

use std::io::{self, Write};

use serde::Serialize;

use crate::rebuild::Flip;
use crate::replay::conflict::Conflict;
use crate::replay::verdict::{Detection, Outcome, Verdict};
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
        Verdict::NotReached => "not reached",
    }
}

/// `10.4.0.1/24 on nerdctl0`, or the error.
pub fn outcome(d: &Detection) -> String {
    match (&d.address, &d.interface, &d.error) {
        (Some(a), Some(i), _) => format!("{a} on {i}"),
        (Some(a), None, _) => a.clone(),
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
                    a.address,
                    verdict_word(a.verdict),
                    if a.reason.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", a.reason)
                    }
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

pub fn write_flips_text(out: &mut dyn Write, flips: &[Flip<Outcome>], style: &Style) -> io::Result<()> {
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

pub fn json_flips(flips: &[Flip<Outcome>]) -> Vec<JsonFlip<'_>> {
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
