//! Snapshots (`ip -j` output read instead of a capture) against what `ip`
//! printed and against the captures: for every recorded host in fixtures/
//! (every `*.ip.json`, what `ip -j -d link`, `ip -j addr` and `ip -j route
//! show table all` of both families printed right after its capture):
//!
//! - `table --format ip-json` from the snapshot prints the snapshot back:
//!   links in order, addresses per link in order, routes in order (but for
//!   the keys only `ip -d` prints, which ip-json leaves out as `ip -j link`
//!   does, and a route's `expires`);
//! - `detect --all` picks from the snapshot what it picks from the capture
//!   at its end, wherever the capture's own tables at its end are the
//!   snapshot's (the same ip-json), so the snapshot path loses nothing;
//! - `timeline`, `who` and `decode` refuse a snapshot, which has no messages.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn snapshots() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("fixtures") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.to_string_lossy().ends_with(".ip.json") {
                out.push(p);
            }
        }
    }
    let mut v = Vec::new();
    walk(&common::fixtures(), &mut v);
    v.sort();
    v
}

fn ip_json(path: &Path) -> Value {
    let out = common::nlorder(&["table", "--format", "ip-json", "-q", path.to_str().expect("path")]);
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("ip-json")
}

/// What the snapshot holds, as ip-json prints it.
fn expected(ip: &Value) -> Value {
    let mut link = ip["link"].clone();
    common::drop_keys(&mut link, common::DETAILS_ONLY);
    let mut route: Vec<Value> = ip["route4"].as_array().cloned().unwrap_or_default();
    route.extend(ip["route6"].as_array().cloned().unwrap_or_default());
    let mut route = Value::Array(route);
    common::drop_keys(&mut route, &["expires"]);
    serde_json::json!({"link": link, "addr": ip["addr"].clone(), "route": route})
}

fn load(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).expect("read")).expect("json")
}

#[test]
fn a_snapshot_s_tables_are_the_snapshot() {
    let (mut same, mut failures) = (0, Vec::new());
    for p in snapshots() {
        let want = expected(&load(&p));
        let got = ip_json(&p);
        for t in ["link", "addr", "route"] {
            if got[t] != want[t] {
                failures.push(format!("{}: {t} differs", p.display()));
            }
        }
        if got == want {
            same += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(same >= 239, "only {same} snapshots");
    eprintln!("{same} snapshots print back as they are");
}

/// `detect --all`'s picks: one line per method and family, the address
/// picked or `nothing` (why nothing, and what a capture cannot tell, are
/// worded for each input and not compared).
fn picks(path: &Path) -> Vec<String> {
    let out = common::nlorder(&["detect", "--all", "-q", path.to_str().expect("path")]);
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty() && !l.starts_with(' '))
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let (method, fam) = (w.next()?, w.next()?);
            if fam != "v4" && fam != "v6" {
                return None;
            }
            let rest: Vec<&str> = w.collect();
            let rest = rest.join(" ");
            let pick = if rest.starts_with("nothing") {
                "nothing"
            } else {
                rest.split(" (").next().unwrap_or_default()
            };
            Some(format!("{method} {fam} {pick}"))
        })
        .collect()
}

#[test]
fn a_snapshot_answers_as_its_capture() {
    let (mut agreed, mut compared, mut failures) = (0, 0, Vec::new());
    for snap in snapshots() {
        let name = snap.to_string_lossy().replace(".ip.json", ".pcap");
        let pcap = PathBuf::from(name);
        if !pcap.exists() {
            continue;
        }
        // Only where the capture's tables at its end are the snapshot's and
        // complete (a capture without a whole route dump says what it
        // cannot tell; the snapshot's listing is whole).
        let (node, _) = common::detect_json(&[pcap.to_str().expect("path")]);
        if node["routes_complete"] != true || node["links_complete"] != true || node["addresses_complete"] != true {
            continue;
        }
        // (and hold routes: a capture without a route dump knows none,
        // a snapshot holding an empty listing knows there are none)
        let tables = ip_json(&snap);
        // (a host recorded with its own `ip -j rule` beside it has rules of
        // its own, which a snapshot of links, addresses and routes does not
        // hold: its lookups rest on the default rules, and say so)
        let has_rules = snap.with_extension("").with_extension("rule.json").exists();
        if has_rules || ip_json(&pcap) != tables || tables["route"].as_array().is_none_or(Vec::is_empty) {
            continue;
        }
        compared += 1;
        let (a, b) = (picks(&pcap), picks(&snap));
        assert!(!a.is_empty(), "{}: no picks", pcap.display());
        if a == b {
            agreed += 1;
        } else {
            failures.push(format!("{}:\n  capture {a:?}\n  snapshot {b:?}", snap.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 50, "only {compared} compared");
    eprintln!("{agreed} of {compared} snapshots pick as their captures");
}

#[test]
fn commands_of_messages_refuse_a_snapshot() {
    let snap = common::fixture("kernels/6.12/routes.l2.ip.json");
    for cmd in ["timeline", "who", "decode"] {
        let out = common::nlorder(&[cmd, snap.to_str().expect("path")]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(err.contains("has no messages"), "{cmd}: {err}");
    }
}

#[test]
fn bad_snapshots_are_named() {
    let dir = std::env::temp_dir().join(format!("nlorder-snapshot-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let run = |p: &Path| {
        let out = common::nlorder(&["detect", p.to_str().expect("path")]);
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, err) = run(&dir);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no `ip -j addr show` output"), "{err}");
    // A paste cut in the middle, from a real snapshot.
    let real = std::fs::read(common::fixture("kernels/6.12/routes.l2.ip.json")).expect("read");
    let cut = dir.join("cut.json");
    std::fs::write(&cut, &real[..real.len() / 2]).expect("write");
    let (code, err) = run(&cut);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cut short"), "{err}");
    // JSON of another command (`ip -j neigh`).
    let other = dir.join("neigh.json");
    std::fs::write(
        &other,
        br#"[{"dst":"10.0.0.1","lladdr":"aa:bb:cc:dd:ee:ff","state":["REACHABLE"]}]"#,
    )
    .expect("write");
    let (code, err) = run(&other);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no `ip -j addr show`") || err.contains("route"), "{err}");
    std::fs::remove_dir_all(&dir).expect("clean");
}

/// Split into the four commands' outputs, in a directory, the snapshot
/// answers as the combined form does; without link output it says so.
#[test]
fn a_directory_of_outputs_is_a_snapshot() {
    let src = common::fixture("kernels/6.12/routes.l2.ip.json");
    let ip = load(&src);
    let dir = std::env::temp_dir().join(format!("nlorder-snapshot-dir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for (file, key) in [("a", "addr"), ("b", "route4"), ("c", "route6"), ("d", "link")] {
        std::fs::write(dir.join(file), serde_json::to_vec(&ip[key]).expect("json")).expect("write");
    }
    assert_eq!(ip_json(&dir), ip_json(&src));
    assert_eq!(picks(&dir), picks(&src));
    std::fs::remove_file(dir.join("c")).expect("rm");
    let out = common::nlorder(&["table", dir.to_str().expect("p")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("one dump of each table at one moment"), "{err}");
    assert!(err.contains("no IPv6 route listing"), "{err}");
    std::fs::remove_dir_all(&dir).expect("clean");
}
