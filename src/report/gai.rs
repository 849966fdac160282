//! Printers for `nlorder gai`: the predicted order, the rule behind every
//! adjacent pair, each candidate's source, the comparison with what the
//! program observed, and (`--timeline`) where the order changed.
//!
//! Contract: formatting only, fed a [`GaiReport`], [`GaiLooks`] or
//! [`GaiTimeline`] (a [`GaiResult`] at one moment, at every look, or
//! [`Flip`]s of them). The verdicts arrive as values, decided in
//! `app::gai`: whether the observed order matches ([`Observed::matches`]),
//! whether a look's order changed ([`GaiLook::changed`]), which flips give
//! the observed order ([`GaiTimeline::gives_observed`]).

use std::io::{self, Write};
use std::net::IpAddr;

use serde::Serialize;

use crate::ingest::moment::Moment;
use crate::ingest::rebuild::{Flip, Grounds};
use crate::replay::gai::{Explanation, GaiResult, Resolver, Span, Step};
use crate::report::gai_hosts::{self, HostsShown, JsonHosts};
use crate::report::moment::{self, JsonMoment};
use crate::report::style::Style;
use crate::report::{Json, Print, Text};

/// What the program observed, whether it is the order predicted, what
/// could explain a mismatch, and the stretches of the capture whose order
/// is the observed one (empty when nothing was observed).
#[derive(Debug, Clone, Copy, Default)]
pub struct Observed<'a> {
    /// The order the program got (empty: not given).
    pub order: &'a [IpAddr],
    /// It is the order predicted.
    pub matches: bool,
    /// What could explain a mismatch, most likely first.
    pub why: &'a [Explanation],
    /// The stretches of the capture whose order is the observed one.
    pub moments: &'a [Span],
}

fn list(v: &[IpAddr]) -> String {
    v.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
}

/// The order, or why there is none, and what it rests on that no message
/// shows.
fn answer(r: &GaiResult, style: &Style) -> String {
    if let Some(e) = &r.error {
        return style.bad(format!("nothing: {e}"));
    }
    let order = style.value(list(&r.order));
    if r.unshown.is_empty() {
        order
    } else {
        format!(
            "{order} (the capture cannot tell whether this holds: {})",
            super::assumption::unshown_list(&r.unshown)
        )
    }
}

fn write_gai_text(
    out: &mut dyn Write,
    r: &GaiResult,
    observed: Option<&Observed<'_>>,
    (moment, hosts): (&Moment, Option<&HostsShown<'_>>),
    style: &Style,
) -> io::Result<()> {
    writeln!(
        out,
        "{} order: {}",
        style.kind(format!("{:?}", r.resolver).to_lowercase()),
        answer(r, style)
    )?;
    writeln!(
        out,
        "  {}",
        style.dim(format!("at: {}", crate::report::moment::describe(moment)))
    )?;
    writeln!(out, "  name-service order: {}", list(&r.input))?;
    if r.error.is_some() {
        return Ok(());
    }
    if let Some(h) = hosts {
        gai_hosts::write_text(out, h)?;
    }
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
    if let Some(obs) = observed {
        if obs.matches {
            writeln!(out, "  observed: {} (matches)", list(obs.order))?;
        } else {
            writeln!(
                out,
                "  {}",
                style.bad(format!("observed: {} (MISMATCH)", list(obs.order)))
            )?;
            for w in obs.why {
                writeln!(out, "    could be explained by {w}")?;
            }
        }
    }
    Ok(())
}

/// One look of `gai --all-looks`.
#[derive(Debug)]
pub struct GaiLook {
    /// When the program looked.
    pub moment: Moment,
    /// The order then.
    pub result: GaiResult,
    /// The order differs from the previous look's.
    pub changed: bool,
}

/// `gai --all-looks`: the order at every look.
pub struct GaiLooks<'a> {
    /// The order at each look, in capture order.
    pub looks: &'a [GaiLook],
    /// What the answers rest on.
    pub grounds: &'a Grounds,
}

/// One line per look, marking where the order changed.
impl Print<GaiLooks<'_>> for Text {
    fn print(&mut self, l: &GaiLooks<'_>, out: &mut dyn Write) -> io::Result<()> {
        let style = &self.0;
        for GaiLook {
            moment,
            result: r,
            changed,
        } in l.looks
        {
            let mark = if *changed { "  <- the order changed" } else { "" };
            let resolver = format!("{:?}", r.resolver).to_lowercase();
            writeln!(out, "{} order: {}{mark}", style.kind(resolver), answer(r, style))?;
            writeln!(
                out,
                "  {}",
                style.dim(format!("at: {}", crate::report::moment::describe(moment)))
            )?;
        }
        Ok(())
    }
}

/// `{"looks": [{"moment", "order", "changed"}], "warnings", "assumptions"}`.
impl Print<GaiLooks<'_>> for Json {
    fn print(&mut self, l: &GaiLooks<'_>, out: &mut dyn Write) -> io::Result<()> {
        let looks = l
            .looks
            .iter()
            .map(|look| JsonLook {
                moment: moment::json(&look.moment),
                order: &look.result.order,
                changed: look.changed,
            })
            .collect();
        let doc = JsonLooks {
            looks,
            grounds: l.grounds,
        };
        super::document(out, &doc)
    }
}

#[derive(Serialize)]
struct JsonLooks<'a> {
    looks: Vec<JsonLook<'a>>,
    #[serde(flatten)]
    grounds: &'a Grounds,
}

#[derive(Serialize)]
struct JsonLook<'a> {
    moment: JsonMoment,
    order: &'a [IpAddr],
    changed: bool,
}

/// `nlorder gai`'s answer: the prediction at one moment, and what the
/// program observed.
pub struct GaiReport<'a> {
    /// The predicted order and the rules behind it.
    pub result: &'a GaiResult,
    /// When the tables were evaluated.
    pub moment: &'a Moment,
    /// What the program got, if given.
    pub observed: Observed<'a>,
    /// What the answer rests on.
    pub grounds: &'a Grounds,
    /// With `--hosts`: the lines the candidates came from.
    pub hosts: Option<HostsShown<'a>>,
}

impl Print<GaiReport<'_>> for Text {
    fn print(&mut self, r: &GaiReport<'_>, out: &mut dyn Write) -> io::Result<()> {
        let obs = (!r.observed.order.is_empty()).then_some(&r.observed);
        write_gai_text(out, r.result, obs, (r.moment, r.hosts.as_ref()), &self.0)
    }
}

/// The prediction, the moment it was made at, and (with `--observed`)
/// whether the program's order matched, which assumption would explain a
/// mismatch, and the stretches of the capture (`observed_moments`:
/// `from`, `to`, `changed_by`, `order`) that give the observed order;
/// with `--hosts`, `hosts` (see [`JsonHosts`]).
impl Print<GaiReport<'_>> for Json {
    fn print(&mut self, r: &GaiReport<'_>, out: &mut dyn Write) -> io::Result<()> {
        let o = &r.observed;
        let doc = JsonGai {
            result: r.result,
            grounds: r.grounds,
            at_packet: r.moment.packet,
            moment: moment::json(r.moment),
            hosts: r.hosts.as_ref().map(gai_hosts::json),
            observed: (!o.order.is_empty()).then_some(JsonObserved {
                observed: o.order,
                matches_observed: o.matches,
                mismatch_explanations: o.why,
                observed_moments: o.moments,
            }),
        };
        super::document(out, &doc)
    }
}

#[derive(Serialize)]
struct JsonGai<'a> {
    #[serde(flatten)]
    result: &'a GaiResult,
    #[serde(flatten)]
    grounds: &'a Grounds,
    at_packet: u64,
    moment: JsonMoment,
    #[serde(skip_serializing_if = "Option::is_none")]
    hosts: Option<JsonHosts<'a>>,
    #[serde(flatten)]
    observed: Option<JsonObserved<'a>>,
}

#[derive(Serialize)]
struct JsonObserved<'a> {
    observed: &'a [IpAddr],
    matches_observed: bool,
    mismatch_explanations: &'a [Explanation],
    observed_moments: &'a [Span],
}

/// `gai --timeline`: where the order changed along the capture, each
/// change with the rules behind the new order and the changes in that
/// packet that caused it; with an observed order, the moments that give
/// it are marked.
pub struct GaiTimeline<'a> {
    /// Whose sort was replayed.
    pub resolver: Resolver,
    /// The addresses in the name service's order.
    pub input: &'a [IpAddr],
    /// Where the order changed (one per packet).
    pub flips: &'a [Flip<GaiResult>],
    /// What the answers rest on.
    pub grounds: &'a Grounds,
    /// The order the program got (empty: not given).
    pub observed: &'a [IpAddr],
    /// For each flip, whether its order is the observed one.
    pub gives_observed: &'a [bool],
}

impl Print<GaiTimeline<'_>> for Text {
    fn print(&mut self, t: &GaiTimeline<'_>, out: &mut dyn Write) -> io::Result<()> {
        let style = &self.0;
        let name = format!("{:?}", t.resolver).to_lowercase();
        writeln!(out, "{} order over time:", style.kind(name))?;
        if t.flips.is_empty() {
            writeln!(out, "  no address in the capture: nothing to sort")?;
        }
        for (f, &observed) in t.flips.iter().zip(t.gives_observed) {
            let was = f.before.as_ref().map_or_else(|| "(start)".into(), |b| list(&b.order));
            let mark = if observed { "  <- the observed order" } else { "" };
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
}

/// `{"resolver", "input", "observed", "flips": [{"packet", "ts", "time",
/// "before", "after", "steps", "causes", "observed"}], "warnings",
/// "assumptions"}`.
impl Print<GaiTimeline<'_>> for Json {
    fn print(&mut self, t: &GaiTimeline<'_>, out: &mut dyn Write) -> io::Result<()> {
        let flips = t
            .flips
            .iter()
            .zip(t.gives_observed)
            .map(|(f, &observed)| JsonFlip {
                packet: f.packet,
                ts: f.ts.map(|t| t.as_secs_f64()),
                time: f.ts.map(|t| t.rfc3339()),
                before: f.before.as_ref().map(|b| b.order.as_slice()),
                after: &f.after.order,
                steps: &f.after.steps,
                causes: f.causes.iter().map(|c| super::timeline::describe(&c.change)).collect(),
                observed,
            })
            .collect();
        let doc = JsonTimeline {
            resolver: t.resolver,
            input: t.input,
            observed: t.observed,
            flips,
            grounds: t.grounds,
        };
        super::document(out, &doc)
    }
}

#[derive(Serialize)]
struct JsonTimeline<'a> {
    resolver: Resolver,
    input: &'a [IpAddr],
    observed: &'a [IpAddr],
    flips: Vec<JsonFlip<'a>>,
    #[serde(flatten)]
    grounds: &'a Grounds,
}

#[derive(Serialize)]
struct JsonFlip<'a> {
    packet: u64,
    ts: Option<f64>,
    time: Option<String>,
    before: Option<&'a [IpAddr]>,
    after: &'a [IpAddr],
    steps: &'a [Step],
    causes: Vec<String>,
    observed: bool,
}
