//! Printers for `nlorder gai`: the predicted order, the rule behind every
//! adjacent pair, each candidate's source, the comparison with what the
//! program observed, and (`--timeline`) where the order changed.
//!
//! Contract: formatting only, fed a [`GaiResult`] (and [`Flip`]s of them).

use std::io::{self, Write};
use std::net::IpAddr;

use crate::rebuild::{Flip, Grounds};
use crate::replay::gai::{Explanation, GaiResult, Span};
use crate::report::style::Style;

/// What the program observed, what could explain a mismatch, and the
/// stretches of the capture whose order is the observed one (empty when
/// nothing was observed).
#[derive(Debug, Clone, Copy, Default)]
pub struct Observed<'a> {
    pub order: &'a [IpAddr],
    pub why: &'a [Explanation],
    pub moments: &'a [Span],
}

fn list(v: &[IpAddr]) -> String {
    v.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
}

pub fn write_gai_text(
    out: &mut dyn Write,
    r: &GaiResult,
    observed: Option<(&[IpAddr], &[Explanation])>,
    moment: &crate::rebuild::Moment,
    style: &Style,
) -> io::Result<()> {
    writeln!(
        out,
        "{} order: {}",
        style.kind(format!("{:?}", r.resolver).to_lowercase()),
        style.value(list(&r.order))
    )?;
    writeln!(
        out,
        "  {}",
        style.dim(format!("at: {}", crate::report::moment::describe(moment)))
    )?;
    writeln!(out, "  name-service order: {}", list(&r.input))?;
    for s in &r.steps {
        writeln!(out, "  {s}{}", if s.swapped { "  [swapped]" } else { "" })?;
    }
    writeln!(out, "  sources:")?;
    for c in &r.candidates {
        let src = c.source.map_or_else(|| "none".to_string(), |s| s.to_string());
        let pl = if c.prefix_len > 0 {
            format!(" (entry /{})", c.prefix_len)
        } else {
            String::new()
        };
        writeln!(out, "    {} <- {src}{pl}: {}", c.address, c.source_why)?;
    }
    for n in &r.notes {
        writeln!(out, "  note: {n}")?;
    }
    if let Some((obs, why)) = observed {
        if obs == r.order.as_slice() {
            writeln!(out, "  observed: {} (matches)", list(obs))?;
        } else {
            writeln!(out, "  {}", style.bad(format!("observed: {} (MISMATCH)", list(obs))))?;
            for w in why {
                writeln!(out, "    could be explained by {w}")?;
            }
        }
    }
    Ok(())
}

/// `--all-looks`: the order at every look, marking where it changed; JSON
/// `{"looks": [{"moment", "order", "changed"}], "warnings", "assumptions"}`.
pub fn write_looks(
    out: &mut dyn Write,
    json: bool,
    results: &[(crate::rebuild::Moment, GaiResult)],
    grounds: &Grounds,
    style: &Style,
) -> io::Result<()> {
    let mut rows = Vec::new();
    let mut before: Option<&[IpAddr]> = None;
    for (moment, r) in results {
        let changed = before.is_some_and(|b| b != r.order.as_slice());
        if json {
            rows.push(serde_json::json!({
                "moment": super::moment::json(moment), "order": r.order, "changed": changed,
            }));
        } else {
            let mark = if changed { "  <- the order changed" } else { "" };
            let resolver = format!("{:?}", r.resolver).to_lowercase();
            writeln!(
                out,
                "{} order: {}{mark}",
                style.kind(resolver),
                style.value(list(&r.order))
            )?;
            writeln!(
                out,
                "  {}",
                style.dim(format!("at: {}", crate::report::moment::describe(moment)))
            )?;
        }
        before = Some(r.order.as_slice());
    }
    if json {
        let doc = serde_json::json!({
            "looks": rows, "warnings": grounds.warnings, "assumptions": grounds.assumptions,
        });
        serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
        writeln!(out)?;
    }
    Ok(())
}

/// Prints `nlorder gai`'s answer: text, or the JSON document (see
/// [`json_document`]).
pub fn write_gai(
    out: &mut dyn Write,
    json: bool,
    (result, moment): (&GaiResult, &crate::rebuild::Moment),
    observed: &Observed<'_>,
    grounds: &Grounds,
    style: &Style,
) -> io::Result<()> {
    if json {
        let doc = json_document(result, moment, observed, grounds).map_err(io::Error::from)?;
        serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
        writeln!(out)
    } else {
        let obs = (!observed.order.is_empty()).then_some((observed.order, observed.why));
        write_gai_text(out, result, obs, moment, style)
    }
}

/// `--timeline`: where the order changed along the capture, each change
/// with the rules behind the new order and the changes in that packet
/// that caused it; with an observed order, the moments that give it are
/// marked. JSON `{"resolver", "input", "observed", "flips": [{"packet",
/// "ts", "time", "before", "after", "steps", "causes", "observed"}],
/// "warnings", "assumptions"}`.
pub fn write_timeline(
    out: &mut dyn Write,
    json: bool,
    (resolver, input): (crate::replay::gai::Resolver, &[IpAddr]),
    (flips, grounds): (&[Flip<GaiResult>], &Grounds),
    observed: &[IpAddr],
    style: &Style,
) -> io::Result<()> {
    let is_observed = |r: &GaiResult| !observed.is_empty() && r.order == observed;
    if json {
        let rows: Vec<serde_json::Value> = flips
            .iter()
            .map(|f| {
                serde_json::json!({
                    "packet": f.packet,
                    "ts": f.ts.map(|t| t.as_secs_f64()),
                    "time": f.ts.map(|t| t.rfc3339()),
                    "before": f.before.as_ref().map(|b| &b.order),
                    "after": f.after.order,
                    "steps": f.after.steps,
                    "causes": f.causes.iter().map(|c| super::timeline::describe(&c.change)).collect::<Vec<_>>(),
                    "observed": is_observed(&f.after),
                })
            })
            .collect();
        let doc = serde_json::json!({
            "resolver": resolver, "input": input, "observed": observed, "flips": rows,
            "warnings": grounds.warnings, "assumptions": grounds.assumptions,
        });
        serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
        return writeln!(out);
    }
    let name = format!("{resolver:?}").to_lowercase();
    writeln!(out, "{} order over time:", style.kind(name))?;
    if flips.is_empty() {
        writeln!(out, "  no address in the capture: nothing to sort")?;
    }
    for f in flips {
        let was = f.before.as_ref().map_or_else(|| "(start)".into(), |b| list(&b.order));
        let mark = if is_observed(&f.after) {
            "  <- the observed order"
        } else {
            ""
        };
        writeln!(
            out,
            "{} {} {was} -> {}{mark}",
            style.dim(format!("{:>6}", f.packet)),
            super::decode::format_ts(f.ts),
            style.value(list(&f.after.order)),
        )?;
        for s in &f.after.steps {
            writeln!(out, "         {s}")?;
        }
        for c in &f.causes {
            writeln!(out, "         because: {}", super::timeline::describe(&c.change))?;
        }
    }
    Ok(())
}

/// The JSON document of `nlorder gai`: the prediction, the moment it was
/// made at, and (with `--observed`) whether the program's order matched,
/// which assumption would explain a mismatch, and the stretches of the
/// capture (`observed_moments`: `from`, `to`, `changed_by`, `order`) that
/// give the observed order.
pub fn json_document(
    result: &crate::replay::gai::GaiResult,
    moment: &crate::rebuild::Moment,
    observed: &Observed<'_>,
    grounds: &Grounds,
) -> serde_json::Result<serde_json::Value> {
    let mut v = serde_json::to_value(result)?;
    if let Some(o) = v.as_object_mut() {
        o.insert("warnings".into(), grounds.warnings.clone().into());
        o.insert("assumptions".into(), serde_json::json!(grounds.assumptions));
        o.insert("at_packet".into(), moment.packet.into());
        o.insert("moment".into(), super::moment::json(moment));
        if !observed.order.is_empty() {
            o.insert("observed".into(), serde_json::json!(observed.order));
            o.insert(
                "matches_observed".into(),
                (observed.order == result.order.as_slice()).into(),
            );
            o.insert("mismatch_explanations".into(), serde_json::json!(observed.why));
            o.insert("observed_moments".into(), serde_json::to_value(observed.moments)?);
        }
    }
    Ok(v)
}
