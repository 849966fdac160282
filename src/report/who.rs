//! `nlorder who`: the capture's requests and looks, as text or one JSON
//! document.
//!
//! Contract: [`write_who_text`] prints one line per request (packet, time,
//! what was asked, port, library, confidence and evidence), then the looks
//! with what each implies; a capture without requests says so in one line.
//! the JSON printer writes `{"requests": [...], "looks": [...], "warnings": [...]}`
//! with the same fields (times as RFC 3339) and what reading the capture
//! met (no tables are rebuilt: nothing is assumed).

use std::io::{self, Write};

use serde::Serialize;

use crate::looks::{Asked, Confidence, Library, Look, Who};
use crate::model::ObjectKind;
use crate::netlink::names;
use crate::report::style::Style;
use crate::report::{Json, Print, Text};

/// The program and how sure its naming is (`iproute2 (certain)`); a
/// shape no rule knows is said once, not as `unknown (unknown)`.
fn sender(library: Library, confidence: Confidence) -> String {
    match library {
        Library::Unknown => "a program no rule names".to_owned(),
        Library::NlorderRecord => "the recorder (nlorder record), not a node program".to_owned(),
        l => format!("{} ({})", l.name(), confidence.name()),
    }
}

/// Writes `who` as text: its requests, then its looks.
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
            "{} {} {} port {port}: {} — {}; {answer}",
            style.dim(format!("{:>6}", r.packet)),
            r.time().unwrap_or_else(|| "-".into()),
            style.kind(r.asked()),
            style.value(sender(r.library, r.confidence)),
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
            "look {}: {}, port {port}, {} {}; tables as it saw them at packet {}",
            l.number,
            style.value(sender(l.library, l.confidence)),
            if packets.len() == 1 { "packet" } else { "packets" },
            packets.join(", "),
            l.end_packet
        )?;
        for i in &l.implies {
            writeln!(out, "    {i}")?;
        }
    }
    Ok(())
}

/// What `nlorder who` prints: the capture's requests and looks, and what
/// reading it met.
pub(crate) struct WhoReport<'a> {
    pub who: &'a Who,
    pub warnings: &'a [String],
    /// The capture is cut: the number of its last whole record.
    pub truncated_after: Option<u64>,
}

impl Print<WhoReport<'_>> for Text {
    fn print(&mut self, r: &WhoReport<'_>, out: &mut dyn Write) -> io::Result<()> {
        write_who_text(out, r.who, &self.0)?;
        match r.truncated_after {
            Some(n) => writeln!(out, "# {}", super::moment::end_of_capture(n)),
            None => Ok(()),
        }
    }
}

impl Print<WhoReport<'_>> for Json {
    fn print(&mut self, r: &WhoReport<'_>, out: &mut dyn Write) -> io::Result<()> {
        let doc = JsonWho {
            requests: r.who.requests.iter().map(JsonAsked::of).collect(),
            looks: r.who.looks.iter().map(JsonLook::of).collect(),
            warnings: r.warnings,
            truncated: r.truncated_after.is_some(),
            truncated_after: r.truncated_after,
        };
        super::document(out, &doc)
    }
}

#[derive(Serialize)]
struct JsonWho<'a> {
    requests: Vec<JsonAsked<'a>>,
    looks: Vec<JsonLook<'a>>,
    warnings: &'a [String],
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated_after: Option<u64>,
}

/// A request as JSON: its fields, the family by name, and the words the
/// text shows.
#[derive(Serialize)]
struct JsonAsked<'a> {
    packet: u64,
    kind: ObjectKind,
    family: std::borrow::Cow<'static, str>,
    dump: bool,
    len: u32,
    flags: u16,
    seq: u32,
    port: Option<u32>,
    replies: u32,
    end_packet: Option<u64>,
    error: Option<i32>,
    ipv6_seen: bool,
    library: Library,
    confidence: Confidence,
    evidence: &'a crate::looks::Evidence,
    time: Option<String>,
    asked: String,
    library_name: &'static str,
}

impl<'a> JsonAsked<'a> {
    fn of(r: &'a Asked) -> Self {
        JsonAsked {
            packet: r.packet,
            kind: r.kind,
            family: r.family.name(),
            dump: r.dump,
            len: r.len,
            flags: r.flags,
            seq: r.seq,
            port: r.port,
            replies: r.replies,
            end_packet: r.end_packet,
            error: r.error,
            ipv6_seen: r.ipv6_seen,
            library: r.library,
            confidence: r.confidence,
            evidence: &r.evidence,
            time: r.time(),
            asked: r.asked(),
            library_name: r.library.name(),
        }
    }
}

/// A look as JSON: its fields, its time and the library's name.
#[derive(Serialize)]
struct JsonLook<'a> {
    #[serde(flatten)]
    look: &'a Look,
    time: Option<String>,
    library_name: &'static str,
}

impl<'a> JsonLook<'a> {
    fn of(l: &'a Look) -> Self {
        JsonLook {
            look: l,
            time: l.ts.map(|t| t.rfc3339()),
            library_name: l.library.name(),
        }
    }
}
