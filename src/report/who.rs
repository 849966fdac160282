//! `nlorder who`: the capture's requests and looks, as text or one JSON
//! document.
//!
//! Contract: [`write_who_text`] prints one line per request (packet, time,
//! what was asked, port, library, confidence and evidence), then the looks
//! with what each implies; a capture without requests says so in one line.
//! [`who_json`] is `{"requests": [...], "looks": [...], "warnings": [...]}`
//! with the same fields (times as RFC 3339) and what reading the capture
//! met (no tables are rebuilt: nothing is assumed).

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::looks::{Confidence, Who};
use crate::netlink::names;
use crate::report::style::Style;

fn confidence(c: Confidence) -> &'static str {
    c.name()
}

pub fn write_who_text(out: &mut dyn Write, who: &Who, style: &Style) -> io::Result<()> {
    if who.requests.is_empty() {
        writeln!(
            out,
            "no program asked for the tables in this capture: no dump or GET request (nothing to attribute)"
        )?;
        return Ok(());
    }
    for r in &who.requests {
        let port = r
            .port
            .map_or_else(|| "unknown (no reply)".to_owned(), |p| p.to_string());
        let answer = match (r.error, r.end_packet) {
            (Some(e), _) => format!("refused: {}", names::errno(e)),
            (None, Some(p)) => match r.replies {
                1 => format!("1 reply, ended in packet {p}"),
                n => format!("{n} replies, ended in packet {p}"),
            },
            (None, None) => "no end in the capture".to_owned(),
        };
        writeln!(
            out,
            "{} {} {} port {port}: {} ({}) — {}; {answer}",
            style.dim(format!("{:>6}", r.packet)),
            r.time().unwrap_or_else(|| "-".into()),
            style.kind(r.asked()),
            style.value(r.library.name()),
            confidence(r.confidence),
            r.evidence,
        )?;
    }
    writeln!(out)?;
    if who.looks.is_empty() {
        writeln!(out, "no looks: no dump requests, only GETs of single objects")?;
        return Ok(());
    }
    for l in &who.looks {
        let port = l
            .port
            .map_or_else(|| "unknown (no reply)".to_owned(), |p| p.to_string());
        let packets: Vec<String> = l.requests.iter().map(u64::to_string).collect();
        writeln!(
            out,
            "look {}: {} ({}), port {port}, packets {}; tables as it saw them at packet {}",
            l.number,
            style.value(l.library.name()),
            confidence(l.confidence),
            packets.join(", "),
            l.end_packet
        )?;
        for i in &l.implies {
            writeln!(out, "    {i}")?;
        }
    }
    Ok(())
}

/// Prints `nlorder who`: text, or the JSON document.
pub fn write_who(out: &mut dyn Write, json: bool, who: &Who, warnings: &[String], style: &Style) -> io::Result<()> {
    if json {
        let mut doc = who_json(who);
        if let Some(o) = doc.as_object_mut() {
            o.insert("warnings".into(), warnings.into());
        }
        serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
        writeln!(out)
    } else {
        write_who_text(out, who, style)
    }
}

pub fn who_json(who: &Who) -> Value {
    let requests: Vec<Value> = who
        .requests
        .iter()
        .map(|r| {
            let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert("time".into(), r.time().into());
                o.insert("asked".into(), r.asked().into());
                o.insert("family".into(), names::address_family(r.family).into());
                o.insert("library_name".into(), r.library.name().into());
            }
            v
        })
        .collect();
    let looks: Vec<Value> = who
        .looks
        .iter()
        .map(|l| {
            let mut v = serde_json::to_value(l).unwrap_or(Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert("time".into(), l.ts.map(|t| t.rfc3339()).into());
                o.insert("library_name".into(), l.library.name().into());
            }
            v
        })
        .collect();
    json!({ "requests": requests, "looks": looks })
}
