//! `nlorder report`: the page of each recorded incident, opened in a real
//! browser (Debian's chromium, headless). The test reads the DOM as the
//! browser rendered it (after the page's own script ran) and holds what the
//! page draws against what `detect --timeline`, `detect` and `table` print
//! for the same capture and method: every flip (packet, answer before and
//! after, the changes that caused it), every program lane and its answer
//! with its candidates' verdicts, one lane per link in the kernel's order,
//! and the conflicts between nodes. It keeps a screenshot of each page in
//! target/report-pages/ (NLORDER_UPDATE_PICTURE=1 also copies the hot-plug
//! one to docs/incident-hotplug.png, the README's picture).
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::fx;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn pages_dir() -> PathBuf {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/report-pages")).to_path_buf();
    std::fs::create_dir_all(&dir).expect("target/report-pages");
    dir
}

/// Debian's chromium, headless, with nothing that reaches the network.
fn chromium(args: &[&str]) -> std::process::Output {
    // A profile of its own per run: chromium locks the one it uses, and the
    // tests run side by side.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let profile = std::env::temp_dir().join(format!("nlorder-report-chromium-{}-{run}", std::process::id()));
    std::fs::create_dir_all(&profile).expect("profile dir");
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("run chromium");
    let _ = std::fs::remove_dir_all(&profile);
    common::assert_ok(&out, format_args!("chromium {args:?}"));
    out
}

/// The rendered DOM of `page`, after its script ran.
fn dump_dom(page: &Path) -> String {
    let url = format!("file://{}", page.display());
    String::from_utf8(chromium(&["--dump-dom", &url]).stdout).expect("utf-8 DOM")
}

fn screenshot(page: &Path, png: &Path) {
    let url = format!("file://{}", page.display());
    chromium(&[
        &format!("--screenshot={}", png.display()),
        "--window-size=1400,1000",
        "--hide-scrollbars",
        &url,
    ]);
    let bytes = std::fs::read(png).expect("screenshot written");
    assert!(bytes.starts_with(b"\x89PNG"), "{} is no PNG", png.display());
    assert!(bytes.len() > 10_000, "{}: an empty picture?", png.display());
}

/// An element of the DOM: its tag's attributes, unescaped.
#[derive(Debug)]
struct Element {
    attrs: Vec<(String, String)>,
}

impl Element {
    fn get(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn attr(&self, name: &str) -> &str {
        self.get(name).unwrap_or_else(|| panic!("no {name} in {self:?}"))
    }
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Every `<tag ...>` whose class list holds `class`, in document order.
fn elements(dom: &str, tag: &str, class: &str) -> Vec<Element> {
    let open = regex::Regex::new(&format!(r"<{tag}\s([^>]*)>")).expect("regex");
    let attr = regex::Regex::new(r#"([\w:-]+)="([^"]*)""#).expect("regex");
    open.captures_iter(dom)
        .map(|c| Element {
            attrs: attr
                .captures_iter(&c[1])
                .map(|a| (a[1].to_owned(), unescape(&a[2])))
                .collect(),
        })
        .filter(|e| e.get("class").is_some_and(|c| c.split(' ').any(|w| w == class)))
        .collect()
}

/// The candidate rows of the answer of `method` on `node`: those inside
/// its `<details class="answer">`.
fn answer_chunk(dom: &str, node: &str, method: &str) -> Vec<Element> {
    let starts: Vec<usize> = dom.match_indices("<details class=\"answer\"").map(|(i, _)| i).collect();
    for start in starts {
        let end = dom[start..].find("</details>").map_or(dom.len(), |e| start + e);
        let chunk = &dom[start..end];
        let head = &elements(chunk, "details", "answer")[0];
        if head.attr("data-node") == node && head.attr("data-method") == method {
            return elements(chunk, "tr", "candidate");
        }
    }
    panic!("no answer of {method} on {node}");
}

/// The answer as `detect` JSON has it: address, interface, error.
fn answer_of(d: &Value) -> Value {
    serde_json::json!({ "address": d["address"], "interface": d["interface"], "error": d["error"] })
}

struct Case {
    name: &'static str,
    captures: Vec<String>,
    args: Vec<&'static str>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "incident-nerdctl",
            captures: vec![fx("incident-nerdctl.pcap")],
            args: vec!["--method", "first-found"],
        },
        Case {
            name: "incident-hotplug",
            captures: vec![fx("incident-hotplug.pcap")],
            args: vec!["--method", "first-found"],
        },
        Case {
            name: "incident-k8s-nodes",
            captures: vec![
                format!("node-1={}", fx("incident-k8s-node-1.pcap")),
                format!("node-2={}", fx("incident-k8s-node-2.pcap")),
            ],
            args: vec![
                "--method",
                "kubernetes-internal-ip",
                "--calico-version",
                "3.22.1",
                "--node-internal-ip",
                "node-1=172.29.231.161",
                "--node-internal-ip",
                "node-2=172.29.231.162",
            ],
        },
        Case {
            name: "incident-dual-nic",
            captures: vec![fx("incident-dual-nic.pcap")],
            args: vec!["--method", "can-reach=10.0.0.254", "--bgp-peer", "10.0.0.254"],
        },
        Case {
            name: "incident-gai-alias",
            captures: vec![fx("incident-gai-alias.pcap")],
            args: vec!["--method", "kubelet"],
        },
    ]
}

fn run_json(sub: &str, extra: &[&str], case: &Case) -> Value {
    let mut a: Vec<&str> = extra.to_vec();
    a.extend(case.args.iter().copied());
    a.extend(case.captures.iter().map(String::as_str));
    common::json_of(sub, &a).0
}

/// Checks the rendered page of `case` against `detect` and `table`.
fn check_page(case: &Case, dom: &str) {
    assert!(
        dom.contains("data-ready=\"1\""),
        "{}: the page's script did not run",
        case.name
    );
    let timeline = run_json("detect", &["--timeline"], case);
    let at_end = run_json("detect", &[], case);
    let lanes = elements(dom, "g", "program");
    let flips = elements(dom, "g", "flip");
    let answers = elements(dom, "details", "answer");
    let links = elements(dom, "g", "link");
    let nodes = timeline["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), case.captures.len());
    for (k, node) in nodes.iter().enumerate() {
        let name = node["node"].as_str().expect("node");
        let end = &at_end["nodes"][k];
        let method = end["method"].as_str().expect("method");
        // One program lane, its answer the one detect prints.
        let mine: Vec<&Element> = lanes.iter().filter(|l| l.attr("data-node") == name).collect();
        assert_eq!(mine.len(), 1, "{}: {name}: lanes {mine:?}", case.name);
        assert_eq!(mine[0].attr("data-method"), method, "{}", case.name);
        assert_eq!(
            mine[0].get("data-address"),
            end["address"].as_str(),
            "{}: {name}",
            case.name
        );
        // Every flip, as detect --timeline lists it.
        let want = node["flips"].as_array().expect("flips");
        let drawn: Vec<Value> = flips
            .iter()
            .filter(|f| f.attr("data-node") == name && f.attr("data-method") == method)
            .map(|f| serde_json::from_str(f.attr("data-flip")).expect("flip JSON"))
            .collect();
        assert_eq!(drawn.len(), want.len(), "{}: {name}: flips {drawn:?}", case.name);
        assert!(!want.is_empty(), "{}: {name}: nothing to compare", case.name);
        for (d, w) in drawn.iter().zip(want) {
            assert_eq!(d["packet"], w["packet"], "{}", case.name);
            assert_eq!(d["after"]["address"], w["after"]["address"], "{}", case.name);
            assert_eq!(d["after"]["interface"], w["after"]["interface"], "{}", case.name);
            assert_eq!(d["after"]["error"], w["after"]["error"], "{}", case.name);
            match w["before"].is_null() {
                true => assert!(d["before"].is_null(), "{}", case.name),
                false => assert_eq!(d["before"]["address"], w["before"]["address"], "{}", case.name),
            }
            assert_eq!(d["causes"], w["causes"], "{}: {name}", case.name);
        }
        // The answer at the end, with every candidate's verdict in order.
        let answer: Vec<&Element> = answers.iter().filter(|a| a.attr("data-node") == name).collect();
        assert_eq!(answer.len(), 1, "{}", case.name);
        let shown: Value = serde_json::from_str(answer[0].attr("data-detection")).expect("detection JSON");
        assert_eq!(shown, answer_of(end), "{}: {name}", case.name);
        let rows: Vec<(String, String)> = answer_chunk(dom, name, method)
            .iter()
            .map(|c| (c.attr("data-interface").to_owned(), c.attr("data-verdict").to_owned()))
            .collect();
        let expected: Vec<(String, String)> = end["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .map(|c| {
                (
                    c["interface"].as_str().expect("i").to_owned(),
                    c["verdict"].as_str().expect("v").to_owned(),
                )
            })
            .collect();
        assert_eq!(rows, expected, "{}: {name}", case.name);
        // One lane per link, the end's links first in the kernel's order.
        let capture = case.captures[k]
            .split_once('=')
            .map_or(case.captures[k].as_str(), |(_, p)| p);
        let (table, _) = common::json_of("table", &[capture]);
        let want = common::tables::our_links(&table);
        let drawn: Vec<(u64, String)> = links
            .iter()
            .filter(|l| l.attr("data-node") == name)
            .map(|l| {
                (
                    l.attr("data-ifindex").parse().expect("ifindex"),
                    l.attr("data-name").to_owned(),
                )
            })
            .collect();
        assert!(drawn.len() >= want.len(), "{}: {name}: {drawn:?}", case.name);
        assert_eq!(drawn[..want.len()], want[..], "{}: {name}", case.name);
    }
    // The conflicts detect reports, drawn.
    let conflicts: Vec<String> = elements(dom, "div", "conflict")
        .iter()
        .map(|c| c.attr("data-conflict-node").to_owned())
        .collect();
    let want = common::strs_at(&at_end["conflicts"], "node");
    assert_eq!(conflicts, want, "{}", case.name);
}

#[test]
fn every_incident_page_draws_what_detect_says() {
    if !common::have_tool("chromium") {
        return;
    }
    let dir = pages_dir();
    for case in cases() {
        let page = dir.join(format!("{}.html", case.name));
        let mut a = vec!["report", "-q", "-o", page.to_str().expect("path")];
        a.extend(case.args.iter().copied());
        a.extend(case.captures.iter().map(String::as_str));
        let out = common::nlorder(&a);
        common::assert_ok(&out, format_args!("{}", case.name));
        let html = std::fs::read_to_string(&page).expect("page");
        // One file: nothing fetched from elsewhere.
        for outside in ["src=\"http", "href=\"http", "<link ", "src=\"/", "@import", "url(http"] {
            assert!(!html.contains(outside), "{}: the page refers to {outside}", case.name);
        }
        check_page(&case, &dump_dom(&page));
        let png = dir.join(format!("{}.png", case.name));
        screenshot(&page, &png);
    }
}

/// The programs of `--all` whose settings include the family (one lane
/// per family); the others choose their own.
const PER_FAMILY: [&str; 5] = [
    "flannel",
    "k3s-flannel",
    "cilium",
    "cilium-nodeport",
    "cilium-masquerade",
];

fn per_family(method: &str) -> bool {
    PER_FAMILY.contains(&method)
        || [
            "first-found",
            "interface=",
            "cidr=",
            "can-reach=",
            "skip-interface=",
            "kubernetes-internal-ip",
        ]
        .iter()
        .any(|p| method.starts_with(p))
}

/// `--all`: a lane per program `detect --all` replays, each answer the one
/// it prints, each lane's flips those `detect --timeline --method` lists.
#[test]
fn the_all_page_draws_every_program_as_detect_all_does() {
    if !common::have_tool("chromium") {
        return;
    }
    let capture = fx("incident-hotplug.pcap");
    let dir = pages_dir();
    let page = dir.join("incident-hotplug-all.html");
    // The README's command, run from the top as the README runs it (the
    // page names the capture as given).
    let out = Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(["report", "-q", "--all", "fixtures/incident-hotplug.pcap", "-o"])
        .arg(&page)
        .output()
        .expect("run nlorder");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dom = dump_dom(&page);
    assert!(dom.contains("data-ready=\"1\""), "the page's script did not run");
    let (all, _) = common::json_of("detect", &["--all", &capture]);
    let rows = all["nodes"][0]["methods"].as_array().expect("methods");
    let lanes = elements(&dom, "g", "program");
    assert_eq!(lanes.len(), rows.len(), "{lanes:?}");
    let flips = elements(&dom, "g", "flip");
    for (lane, row) in lanes.iter().zip(rows) {
        let method = row["method"].as_str().expect("method");
        let family = row["family"].to_string();
        assert_eq!(lane.attr("data-method"), method);
        assert_eq!(lane.attr("data-family"), family);
        assert_eq!(lane.get("data-address"), row["address"].as_str(), "{method}");
        assert_eq!(lane.get("data-interface"), row["interface"].as_str(), "{method}");
        let mut args = vec!["--timeline", "--method", method];
        if per_family(method) {
            args.extend(["--family", &family]);
        }
        args.push(&capture);
        let (t, _) = common::json_of("detect", &args);
        let want: Vec<(u64, Value)> = t["nodes"][0]["flips"]
            .as_array()
            .expect("flips")
            .iter()
            .map(|f| (f["packet"].as_u64().expect("packet"), answer_of(&f["after"])))
            .collect();
        let drawn: Vec<(u64, Value)> = flips
            .iter()
            .filter(|f| f.attr("data-method") == method && f.attr("data-family") == family)
            .map(|f| {
                let v: Value = serde_json::from_str(f.attr("data-flip")).expect("flip JSON");
                (v["packet"].as_u64().expect("packet"), answer_of(&v["after"]))
            })
            .collect();
        assert_eq!(drawn, want, "{method} (IPv{family})");
    }
    let png = dir.join("incident-hotplug-all.png");
    screenshot(&page, &png);
    if std::env::var_os("NLORDER_UPDATE_PICTURE").is_some() {
        let docs = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/incident-hotplug.png"));
        std::fs::create_dir_all(docs.parent().expect("docs")).expect("docs/");
        std::fs::copy(&png, docs).expect("docs/incident-hotplug.png");
    }
}

#[test]
fn the_svg_draws_the_same_lanes() {
    let out = common::nlorder(&["report", "-q", "--format", "svg", &fx("incident-hotplug.pcap")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = String::from_utf8(out.stdout).expect("utf-8");
    assert!(svg.starts_with("<?xml"), "{}", &svg[..80]);
    assert!(!svg.contains("<script"), "a static picture has no script");
    let flips = elements(&svg, "g", "flip");
    let (t, _) = common::json_of("detect", &["--timeline", &fx("incident-hotplug.pcap")]);
    let want: Vec<u64> = t["nodes"][0]["flips"]
        .as_array()
        .expect("flips")
        .iter()
        .map(|f| f["packet"].as_u64().expect("packet"))
        .collect();
    let drawn: Vec<u64> = flips
        .iter()
        .map(|f| f.attr("data-packet").parse().expect("packet"))
        .collect();
    assert_eq!(drawn, want);
    assert_eq!(elements(&svg, "g", "link").len(), 5);
}

#[test]
fn a_capture_without_rtnetlink_is_refused() {
    let out = common::nlorder(&[
        "report",
        "-q",
        "-o",
        "/dev/null",
        &fx("third-party/nldecap__1pkt_not_netlink_le.pcap"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(&err, &["not a netlink capture", "Ethernet"]);
}

/// What `--at end+SECS` assumes is drawn as assumed: the addresses `table`
/// marks `"assumed": true`, and none without it.
#[test]
fn what_the_timers_did_after_the_capture_is_drawn_as_assumed() {
    let f = fx("incident-hotplug.pcap");
    let out = common::nlorder(&["report", "-q", "--format", "svg", "--at", "end+2", &f]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = String::from_utf8(out.stdout).expect("utf-8");
    let mut drawn: Vec<String> = elements(&svg, "g", "address")
        .iter()
        .filter(|a| a.get("data-assumed").is_some())
        .map(|a| a.attr("data-address").to_owned())
        .collect();
    let (t, _) = common::json_of("table", &["--at", "end+2", &f]);
    let mut want: Vec<String> = t["addresses"]
        .as_array()
        .expect("addresses")
        .iter()
        .filter(|a| a["assumed"] == true)
        .map(|a| format!("{}/{}", a["address"].as_str().expect("address"), a["prefix_len"]))
        .collect();
    drawn.sort();
    want.sort();
    assert_eq!(drawn.len(), 4, "{drawn:?}");
    assert_eq!(drawn, want);
    // At the end of the capture nothing is assumed.
    let out = common::nlorder(&["report", "-q", "--format", "svg", &f]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("data-assumed"));
}

/// What the browser laid out at a window `width` px wide, measured by a
/// script appended to a copy of the page.
struct Layout {
    /// The smallest scale any drawing was drawn at (its width on screen
    /// over its own).
    scale: f64,
    /// The smallest text of the drawings, in screen pixels (its font size
    /// times the scale it is drawn at).
    min_font_px: f64,
    /// Rename labels whose box overlaps an address bar's.
    overlaps: usize,
    /// Rename labels drawn.
    renames: usize,
    /// Drawings wider than their column that the column does not scroll to.
    clipped: usize,
}

fn layout_at(page: &Path, width: u32) -> Layout {
    const MEASURE: &str = "<script>
(function () {
  var scale = Infinity;
  document.querySelectorAll('svg.nl:not(.legend)').forEach(function (s) {
    var own = s.viewBox.baseVal.width;
    scale = Math.min(scale, s.getBoundingClientRect().width / own);
  });
  var labels = document.querySelectorAll('svg.nl text.rename');
  var bars = document.querySelectorAll('svg.nl g.address rect');
  var overlaps = 0;
  labels.forEach(function (t) {
    var a = t.getBoundingClientRect();
    bars.forEach(function (r) {
      var b = r.getBoundingClientRect();
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) { overlaps++; }
    });
  });
  var font = Infinity;
  document.querySelectorAll('svg.nl:not(.legend) text').forEach(function (t) {
    var m = t.getScreenCTM();
    var px = parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
    if (t.getBBox().width > 0) { font = Math.min(font, px); }
  });
  var clipped = 0;
  document.querySelectorAll('.node-col').forEach(function (c) {
    var o = getComputedStyle(c).overflowX;
    if (c.scrollWidth > c.clientWidth + 1 && o !== 'auto' && o !== 'scroll') { clipped++; }
  });
  document.body.setAttribute('data-min-font', String(font));
  document.body.setAttribute('data-clipped', String(clipped));
  document.body.setAttribute('data-min-scale', String(scale));
  document.body.setAttribute('data-overlaps', String(overlaps));
  document.body.setAttribute('data-renames', String(labels.length));
})();
</script>";
    let html = std::fs::read_to_string(page).expect("page");
    let measured = page.with_extension(format!("measure-{width}.html"));
    std::fs::write(&measured, html.replace("</body>", &format!("{MEASURE}</body>"))).expect("write");
    let url = format!("file://{}", measured.display());
    let dom = String::from_utf8(chromium(&[&format!("--window-size={width},1000"), "--dump-dom", &url]).stdout)
        .expect("utf-8 DOM");
    let attr = |name: &str| -> String {
        let at = dom
            .find(&format!("{name}=\""))
            .unwrap_or_else(|| panic!("{name} not set: did the script run?"));
        let rest = &dom[at + name.len() + 2..];
        rest[..rest.find('"').expect("closing quote")].to_owned()
    };
    Layout {
        scale: attr("data-min-scale").parse().expect("scale"),
        min_font_px: attr("data-min-font").parse().expect("font"),
        overlaps: attr("data-overlaps").parse().expect("overlaps"),
        renames: attr("data-renames").parse().expect("renames"),
        clipped: attr("data-clipped").parse().expect("clipped"),
    }
}

/// At a 900-px window as at 1400 px, the drawing is never shrunk below its
/// own size: no text of the lanes is drawn smaller than 9 px (the column
/// scrolls instead, and nothing wider than it is cut off), and a rename's
/// label lies over no address bar; a capture with renames and seven links
/// (notify-link.pcap: the bridge renamed to nerdctl0).
#[test]
fn the_page_reads_at_900_and_1400_px() {
    if !common::have_tool("chromium") {
        return;
    }
    let dir = pages_dir();
    let page = dir.join("notify-link-all.html");
    let out = common::nlorder(&[
        "report",
        "-q",
        "--all",
        "-o",
        page.to_str().expect("path"),
        &fx("notify-link.pcap"),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for width in [900, 1400] {
        let l = layout_at(&page, width);
        assert!(l.renames > 0, "notify-link.pcap draws its rename");
        assert!(
            l.scale >= 0.999,
            "{width} px: the drawing is shrunk to {:.2} of its size",
            l.scale
        );
        assert!(
            l.min_font_px >= 9.0,
            "{width} px: text drawn {:.1} px high",
            l.min_font_px
        );
        assert_eq!(
            l.clipped, 0,
            "{width} px: a drawing is cut off, with no scrolling to it"
        );
        assert_eq!(l.overlaps, 0, "{width} px: a rename label lies over an address bar");
        let png = dir.join(format!("notify-link-all-{width}.png"));
        let url = format!("file://{}", page.display());
        chromium(&[
            &format!("--screenshot={}", png.display()),
            &format!("--window-size={width},1400"),
            "--hide-scrollbars",
            &url,
        ]);
        assert!(std::fs::read(&png).expect("screenshot").starts_with(b"\x89PNG"));
    }
}
