//! The page: one self-contained HTML file (no network, no other file; it
//! opens from a mail attachment). Each node's drawing side by side, the
//! conflicts between nodes, then per node every program's answer at the
//! tables' moment with its candidates and the reason each lost (folded, a
//! click on a band opens it), every flip with its causes, and the tables
//! in the kernel's order. A little inline script adds a packet cursor and
//! opens what is clicked; without it everything is still there.
//!
//! Contract: the values are the [`Picture`]'s; the drawing is
//! [`super::svg`]'s; markup only through `maud`, which escapes every value.
//! Elements carry `data-*` attributes with the values drawn (the flip's
//! answers as `detect --timeline --format json` has them), for scripts and
//! tests that read the rendered page.

use std::io::{self, Write};

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::svg::{self, Palette};
use super::{NodePicture, Picture, ProgramLane};
use crate::diag::Diagnostics;
use crate::replay::verdict::Detection;
use crate::report::detect::{outcome, verdict_word};
use crate::report::table::{FamilyFilter, table_json_whole};

const PAGE_STYLE: &str = "
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif; margin: 0; color: #222; background: #fafafa; }
header { background: #263238; color: #eceff1; padding: 14px 22px; }
header h1 { margin: 0 0 4px; font-size: 20px; }
header p { margin: 0; color: #b0bec5; font-size: 13px; }
main { padding: 12px 22px 40px; }
code, .mono, td { font-family: ui-monospace, 'DejaVu Sans Mono', monospace; font-size: 12.5px; }
.nodes { display: flex; gap: 14px; align-items: flex-start; }
.node-col { flex: 1 1 0; min-width: 0; background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 6px; overflow-x: auto; }
.node-col svg.nl { width: 100%; min-width: var(--drawing-width); height: auto; display: block; }
.conflict { background: #fdecea; border: 1px solid #c0392b; color: #7b1d14; border-radius: 6px; padding: 8px 12px; margin: 8px 0; font-weight: 600; }
.cursor { position: fixed; pointer-events: none; background: #263238; color: #fff; font: 12px ui-monospace, monospace; padding: 2px 6px; border-radius: 3px; display: none; z-index: 5; }
#panel { position: fixed; right: 16px; bottom: 16px; max-width: 560px; max-height: 50vh; overflow: auto; background: #fff; border: 1px solid #c0392b; border-radius: 6px; box-shadow: 0 4px 18px rgba(0,0,0,.2); padding: 10px 14px; display: none; z-index: 6; }
#panel h3 { margin: 0 0 6px; font-size: 14px; }
#panel button { float: right; }
section { margin-top: 18px; }
h2 { font-size: 17px; margin: 18px 0 6px; border-bottom: 1px solid #ddd; }
h3 { font-size: 15px; margin: 12px 0 4px; }
details { background: #fff; border: 1px solid #ddd; border-radius: 5px; margin: 4px 0; padding: 4px 10px; }
details[open] { border-color: #4e79a7; }
summary { cursor: pointer; font-family: ui-monospace, 'DejaVu Sans Mono', monospace; }
summary .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; vertical-align: -1px; margin-right: 4px; border: 1px solid #999; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { text-align: left; padding: 2px 8px; border-bottom: 1px solid #eee; vertical-align: top; }
th { font-size: 12px; color: #555; }
tr.chosen td { background: #e8f5e9; font-weight: 600; }
tr.addr td:first-child { padding-left: 26px; }
.dim { color: #777; }
.note { margin: 2px 0; }
.legend-box { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 6px; display: inline-block; }
.assumed-row td { background: repeating-linear-gradient(45deg, #fff, #fff 4px, #fdecea 4px, #fdecea 8px); }
.flash { outline: 3px solid #c0392b; }
";

/// The page's own script: a packet cursor over the drawings, flips and
/// bands that open what they stand for. It reads the page's `data-*`
/// attributes and writes text only (`textContent`), never markup.
const SCRIPT: &str = r#"
(function () {
  "use strict";
  var cursor = document.getElementById("cursor");
  var panel = document.getElementById("panel");
  var body = document.getElementById("panel-body");
  function packetAt(svg, ev) {
    var pt = svg.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
    var m = svg.getScreenCTM(); if (!m) return null;
    var p = pt.matrixTransform(m.inverse());
    var x0 = +svg.dataset.x0, x1 = +svg.dataset.x1, a = +svg.dataset.first, b = +svg.dataset.last;
    if (p.x < x0 || p.x > x1) return null;
    return Math.round(a + (p.x - x0) / (x1 - x0) * (b - a));
  }
  document.querySelectorAll("svg.nl[data-node]").forEach(function (svg) {
    svg.addEventListener("mousemove", function (ev) {
      var p = packetAt(svg, ev);
      if (p === null) { cursor.style.display = "none"; return; }
      cursor.textContent = svg.dataset.node + ": packet " + p;
      cursor.style.left = (ev.clientX + 12) + "px"; cursor.style.top = (ev.clientY + 12) + "px";
      cursor.style.display = "block";
    });
    svg.addEventListener("mouseleave", function () { cursor.style.display = "none"; });
  });
  function line(text, cls) { var d = document.createElement("div"); d.textContent = text; if (cls) d.className = cls; return d; }
  document.querySelectorAll("g.flip").forEach(function (g) {
    g.addEventListener("click", function (ev) {
      ev.stopPropagation();
      var f = JSON.parse(g.dataset.flip);
      var lane = g.closest("g.program");
      body.textContent = "";
      var h = document.createElement("h3");
      h.textContent = lane.dataset.node + " · " + lane.dataset.method + " · packet " + f.packet + " (" + f.time + ")";
      body.appendChild(h);
      body.appendChild(line((f.before ? f.before.outcome : "(start)") + "  →  " + f.after.outcome, "mono"));
      f.causes.forEach(function (c) { body.appendChild(line("because: " + c, "mono dim")); });
      panel.style.display = "block";
    });
  });
  document.getElementById("panel-close").addEventListener("click", function () { panel.style.display = "none"; });
  document.querySelectorAll("g.program").forEach(function (g) {
    g.style.cursor = "pointer";
    g.addEventListener("click", function () {
      var d = document.getElementById("answer-" + g.closest("svg").dataset.index + "-" + g.dataset.index);
      if (!d) return;
      d.open = true; d.scrollIntoView({ behavior: "smooth", block: "center" });
      d.classList.add("flash"); setTimeout(function () { d.classList.remove("flash"); }, 1200);
    });
  });
  document.body.dataset.ready = "1";
})();
"#;

fn swatch(palette: &Palette, d: &Detection) -> Markup {
    let fill = palette_fill(palette, d);
    html! { span .swatch style=(format!("background:{fill}")) {} }
}

fn palette_fill(palette: &Palette, d: &Detection) -> String {
    let c = palette.colour_of(d);
    if c.starts_with("url(") {
        "repeating-linear-gradient(45deg,#eee,#eee 2px,#bbb 2px,#bbb 4px)".to_owned()
    } else {
        c.to_owned()
    }
}

/// A JSON value's text, for `data-*` attributes the tests compare.
fn json_text(v: impl serde::Serialize) -> String {
    serde_json::to_string(&v).unwrap_or_default()
}

/// One program's answer at the tables' moment, folded: its candidates in
/// the order examined, each with its verdict and reason.
fn answer(node_no: usize, i: usize, n: &NodePicture, p: &ProgramLane, palette: &Palette) -> Markup {
    let d = &p.answer;
    html! {
        details .answer id=(format!("answer-{node_no}-{i}")) data-node=(n.node) data-method=(p.method)
            data-answer=(outcome(d)) data-detection=(json_text(super::svg::JsonSide::bare(d))) {
            summary { (swatch(palette, d)) (d.method) " (IPv" (d.family) ") → " (outcome(d))
                " " span .dim { "(" (p.flips.len()) " flips)" } }
            p .dim { "semantics: " (d.semantics.to_string()) }
            @if d.addresses.len() > 1 {
                p { "addresses: " (d.addresses.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")) }
            }
            @if !d.candidates.is_empty() {
                table .candidates {
                    tr { th { "candidate, in the order examined" } th { "verdict" } th { "reason" } }
                    @for c in &d.candidates {
                        tr .candidate .chosen[c.verdict == crate::replay::verdict::Verdict::Chosen]
                            data-interface=(c.interface) data-verdict=(json_text(c.verdict).trim_matches('"')) {
                            td { (c.interface) " " span .dim { "(ifindex " (c.index) ")" } }
                            td { (verdict_word(c.verdict)) }
                            td { (c.reason.to_string()) }
                        }
                        @for a in &c.addresses {
                            tr .addr .chosen[a.verdict == crate::replay::verdict::Verdict::Chosen] {
                                td { (a.address.to_string()) }
                                td { (verdict_word(a.verdict)) }
                                td { (a.reason.as_ref().map(ToString::to_string).unwrap_or_default()) }
                            }
                        }
                    }
                }
            }
            @for note in &d.notes { p .note { "note: " (note.to_string()) } }
            @for l in &d.log { p .dim .mono { "log: " (l.to_string()) } }
        }
    }
}

/// Every flip of one program, with the changes that caused it.
fn flips(p: &ProgramLane) -> Markup {
    html! {
        @if !p.flips.is_empty() {
            h3 { (p.method) }
            table .flips {
                tr { th { "packet" } th { "time" } th { "before → after" } th { "because" } }
                @for f in &p.flips {
                    tr .flip-row data-flip=(svg::flip_json(f)) {
                        td { (f.packet) }
                        td { (crate::report::decode::format_ts(f.ts)) }
                        td { (f.before.as_ref().map_or_else(|| "(start)".to_owned(), |b| outcome(&b.0))) " → " (outcome(&f.after.0)) }
                        td { @for c in &f.causes { div { (crate::report::timeline::describe(&c.change)) } } }
                    }
                }
            }
        }
    }
}

/// The tables at the moment shown, in the kernel's order (as `table
/// --format json` has them).
fn tables(n: &NodePicture) -> Markup {
    let t = table_json_whole(
        &n.tables.model,
        &n.tables.moment,
        FamilyFilter::All,
        &Diagnostics::default(),
    );
    let origin = |o: &crate::model::Origin| o.text();
    html! {
        p .dim { "tables " (crate::report::moment::describe(&n.tables.moment)) "; links in "
            (if t.links_complete { "full (a link dump listed them all)" } else { "part: no complete link dump, only the links the capture names" }) }
        details open {
            summary { "links (" (t.links.len()) ")" }
            table {
                tr { th { "#" } th { "name" } th { "kind" } th { "state" } th { "flags" } th { "mtu" } th { "from" } }
                @for l in &t.links {
                    tr .table-link data-ifindex=(l.index) data-name=(l.name) {
                        td { (l.index) } td { (l.name) } td { (l.kind.as_deref().unwrap_or("")) }
                        td { (l.state.as_deref().unwrap_or("not shown")) } td { (l.flags.join(",")) }
                        td { (l.mtu.map(|m| m.to_string()).unwrap_or_default()) }
                        td { (origin(&l.origin)) @if l.placeholder { " — no link message: unknown" } }
                    }
                }
            }
        }
        details open {
            summary { "addresses (" (t.addresses.len()) ")" }
            table {
                tr { th { "link" } th { "address" } th { "scope" } th { "flags" } th { "label" } th { "from" } }
                @for a in &t.addresses {
                    tr class=[a.assumed.then_some("assumed-row")] {
                        td { (a.index) ": " (a.ifname) } td { (a.address) "/" (a.prefix_len) } td { (a.scope) }
                        td { (a.flags.join(" ")) } td { (a.label.as_deref().unwrap_or("")) }
                        td { (origin(&a.origin)) @if a.assumed { " — after the capture: assumed" } }
                    }
                }
            }
        }
        details {
            summary { "routes (" (t.routes.len()) ")" }
            table {
                tr { th { "table" } th { "destination" } th { "via" } th { "dev" } th { "src" } th { "metric" } th { "type" } th { "from" } }
                @for r in &t.routes {
                    tr class=[r.assumed.then_some("assumed-row")] {
                        td { (r.table) } td { (r.dst) } td { (r.gateway.map(|g| g.to_string()).unwrap_or_default()) }
                        td { (r.oif.as_deref().unwrap_or("")) } td { (r.prefsrc.map(|g| g.to_string()).unwrap_or_default()) }
                        td { (r.metric.map(|g| g.to_string()).unwrap_or_default()) } td { (r.kind) }
                        td { (origin(&r.origin)) @if r.assumed { " — after the capture: assumed" } }
                    }
                }
            }
        }
        @if !n.grounds.assumptions.is_empty() {
            h3 { "not in the capture (assumed)" }
            ul { @for a in &n.grounds.assumptions { li { (a.to_string()) } } }
        }
        @if !n.grounds.warnings.is_empty() {
            h3 { "warnings" }
            ul { @for w in &n.grounds.warnings { li { (w) } } }
        }
    }
}

/// Writes the whole page.
pub fn write(out: &mut dyn Write, p: &Picture) -> io::Result<()> {
    let palette = Palette::of(p);
    let names: Vec<String> = p.nodes.iter().map(|n| n.capture.display().to_string()).collect();
    let title = format!("nlorder report: {}", names.join(", "));
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(PAGE_STYLE)) (PreEscaped(svg::STYLE)) }
            }
            body {
                header {
                    h1 { "What each program picked, and why" }
                    p { (names.join(" · ")) " — nlorder " (env!("CARGO_PKG_VERSION"))
                        ". Hover a mark for its details; click a flip for its causes, a band for its candidates." }
                }
                main {
                    @for pc in &p.conflicts {
                        @for c in &pc.conflicts {
                            div .conflict data-conflict-node=(c.node) data-conflict-other=(c.other) data-method=(pc.method) {
                                "(" (pc.method) ") " (crate::report::detect::conflict_line(c))
                            }
                        }
                    }
                    div .nodes {
                        @for (k, n) in p.nodes.iter().enumerate() {
                            // (drawn no smaller than its own size: in a narrow
                            // window the column scrolls, and its text stays as
                            // large as the drawing sets it)
                            @let width = svg::node_width(p.nodes.len());
                            div .node-col data-node=(n.node) style=(format!("--drawing-width: {width}px")) {
                                (svg::node_svg(k, width, n, &palette, &svg::node_conflicts(p, &n.node)))
                            }
                        }
                    }
                    section {
                        div .legend-box { (svg::legend()) }
                    }
                    @for (k, n) in p.nodes.iter().enumerate() {
                        section .node-details data-node=(n.node) {
                            h2 { (n.node) " — answers " (crate::report::moment::describe(&n.tables.moment)) }
                            @for (i, prog) in n.programs.iter().enumerate() { (answer(k, i, n, prog, &palette)) }
                            h2 { (n.node) " — when the answers changed" }
                            @for prog in &n.programs { (flips(prog)) }
                            @if n.programs.iter().all(|p| p.flips.is_empty()) { p .dim { "no answer: the capture holds no address" } }
                            h2 { (n.node) " — the tables" }
                            (tables(n))
                        }
                    }
                }
                div #cursor .cursor {}
                div #panel { button #panel-close type="button" { "close" } div #panel-body {} }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    out.write_all(page.into_string().as_bytes())?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::ingest::rebuild::{Grounds, Moment, Rebuilt};
    use crate::model::{Model, ModelOptions};
    use crate::replay::MethodSpec;
    use crate::report::picture::{Began, Life, LinkLane, NodePicture};

    /// A picture whose every capture-derived string is markup.
    fn hostile() -> Picture {
        let evil = "<script>x</script>\"'&";
        let model = Model::new(ModelOptions::default());
        let mut answer = MethodSpec::of::<crate::replay::etcd::Etcd>(()).detect(&model);
        answer.interface = Some(evil.into());
        let lane = LinkLane {
            index: 3,
            kind: Some(evil.into()),
            names: vec![(1, evil.into())],
            lives: vec![Life {
                from: 1,
                began: Began::Listed(1),
                to: None,
            }],
            states: Vec::new(),
            addresses: Vec::new(),
            unknown: true,
        };
        Picture {
            nodes: vec![NodePicture {
                node: evil.into(),
                capture: evil.into(),
                clock: vec![(1, None), (2, None)],
                links: vec![lane],
                programs: vec![ProgramLane {
                    method: evil.into(),
                    flips: Vec::new(),
                    answer,
                }],
                looks: Vec::new(),
                tables: Rebuilt {
                    model,
                    stats: Default::default(),
                    last_packet: 2,
                    moment: Moment::start(None),
                },
                grounds: Grounds {
                    warnings: vec![evil.into()],
                    ..Grounds::default()
                },
            }],
            conflicts: Vec::new(),
        }
    }

    #[test]
    fn every_name_from_the_capture_is_escaped() {
        let p = hostile();
        let mut page = Vec::new();
        write(&mut page, &p).unwrap();
        let page = String::from_utf8(page).unwrap();
        assert!(!page.contains("<script>x"), "{page}");
        assert!(page.contains("&lt;script&gt;x&lt;/script&gt;&quot;'&amp;"), "{page}");
        // The page's own script is its only one.
        assert_eq!(page.matches("<script").count(), 1);
        let mut svg = Vec::new();
        super::super::svg::write(&mut svg, &p).unwrap();
        let svg = String::from_utf8(svg).unwrap();
        assert!(!svg.contains("<script"), "{svg}");
        assert!(svg.contains("&lt;script&gt;x"), "{svg}");
    }
}
