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
    let text = common::stdout_ok(&["table", "--format", "ip-json", "-q", path.to_str().expect("path")]);
    serde_json::from_str(&text).expect("ip-json")
}

/// What the snapshot holds, as ip-json prints it.
fn expected(ip: &Value) -> Value {
    let (link, route) = common::ip_json_links_and_routes(ip);
    serde_json::json!({"link": link, "addr": ip["addr"].clone(), "route": route})
}

fn load(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).expect("read")).expect("json")
}

/// Snapshots whose tables do not print back yet, with why. All three were
/// taken while eth0's linkwatch event was queued (up with LOWER_UP but not
/// RUNNING, operstate DOWN: it or its veth peer had just come up): the model
/// runs an urgent event at the next request, the address dump's, so the
/// snapshot shows eth0 RUNNING, state UP, which the kernel did a moment
/// later. A snapshot is one moment: nothing should run in it.
const KNOWN: &[(&str, &str)] = &[
    ("heldout/tables.pcap.ip.json", "linkwatch run inside one moment"),
    ("heldout/v4mp.pcap.ip.json", "linkwatch run inside one moment"),
    ("heldout2/lifetimes.pcap.ip.json", "linkwatch run inside one moment"),
];

#[test]
fn a_snapshot_s_tables_are_the_snapshot() {
    let (mut same, mut failures) = (0, Vec::new());
    let known = |p: &Path| KNOWN.iter().any(|(k, _)| p.ends_with(k));
    for p in snapshots() {
        if known(&p) {
            // (held the other way: it must still differ, so that the list
            // stays the truth)
            assert_ne!(
                expected(&load(&p)),
                ip_json(&p),
                "{} now prints back: leave KNOWN",
                p.display()
            );
            continue;
        }
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

/// What `detect --all -q` prints on `path`, which it must read.
fn detect_stdout(path: &Path) -> String {
    common::stdout_ok(&["detect", "--all", "-q", path.to_str().expect("path")])
}

/// `detect --all`'s picks: one line per method and family, the address
/// picked or `nothing` (why nothing, and what a capture cannot tell, are
/// worded for each input and not compared).
fn picks(path: &Path) -> Vec<String> {
    detect_stdout(path)
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
    common::assert_has(&err, &["no `ip addr show` output"]);
    // A paste cut in the middle, from a real snapshot.
    let real = std::fs::read(common::fixture("kernels/6.12/routes.l2.ip.json")).expect("read");
    let cut = dir.join("cut.json");
    std::fs::write(&cut, &real[..real.len() / 2]).expect("write");
    let (code, err) = run(&cut);
    assert_eq!(code, Some(2), "{err}");
    common::assert_has(&err, &["cut short"]);
    // JSON of another command (`ip -j neigh`).
    let other = dir.join("neigh.json");
    std::fs::write(
        &other,
        br#"[{"dst":"10.0.0.1","lladdr":"aa:bb:cc:dd:ee:ff","state":["REACHABLE"]}]"#,
    )
    .expect("write");
    let (code, err) = run(&other);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no `ip addr show`") || err.contains("route"), "{err}");
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
    common::assert_has(&err, &["one dump of each table at one moment"]);
    common::assert_has(&err, &["no IPv6 route listing"]);
    std::fs::remove_dir_all(&dir).expect("clean");
}

/// `detect --all`'s whole output, but for the lines naming the input and
/// its moment.
fn detect_all(path: &Path) -> String {
    detect_stdout(path)
        .lines()
        .filter(|l| !l.contains("every method on") && !l.trim_start().starts_with("at:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The kernel matrix's hosts again (`fixtures/kernels/text/`, the same
/// scenarios re-run by `scripts/kernel-matrix.sh`), with what `ip` printed
/// as text at the same moment as its JSON: `S.lN.ip.txt` (`ip -d link`,
/// `ip addr`, both route listings and `ip rule`, each after a `$ ip ...`
/// line, as pasted into a ticket) and `S.lN.ip-o.txt` (the one-line
/// forms). Each text gives the JSON's tables, in order, and every
/// method's answer the JSON gives.
#[test]
fn ip_text_answers_as_its_json() {
    let (mut compared, mut failures) = (0, Vec::new());
    for kernel in ["6.1", "6.12"] {
        let dir = common::fixture(&format!("kernels/text/{kernel}"));
        for json in common::files_ending(&dir, ".ip.json") {
            let base = json.to_string_lossy().replace(".ip.json", "");
            let (tables, answers) = (ip_json(&json), detect_all(&json));
            for text in [format!("{base}.ip.txt"), format!("{base}.ip-o.txt")] {
                let text = PathBuf::from(text);
                compared += 1;
                if ip_json(&text) != tables {
                    failures.push(format!("{}: tables differ from the JSON's", text.display()));
                } else if detect_all(&text) != answers {
                    failures.push(format!("{}: answers differ from the JSON's", text.display()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(compared, 132, "two texts for each of 66 hosts");
}

/// A ticket's paste: prompts of every shape, another command's output in
/// between, and the outputs in another order.
#[test]
fn a_ticket_paste_is_read_whatever_its_prompts() {
    let base = common::fixture("kernels/text/6.12/routes.l0");
    let text = std::fs::read_to_string(base.with_extension("l0.ip.txt")).expect("read");
    let sections: Vec<&str> = text.split("$ ip ").skip(1).collect();
    let body = |cmd: &str| {
        sections
            .iter()
            .find(|s| s.starts_with(&format!("{cmd}\n")))
            .map(|s| s.split_once('\n').expect("line").1)
            .expect(cmd)
    };
    let paste = format!(
        "[root@node1 ~]# ip -6 route show table all\n{}root@node1:~# sudo ip addr show\n{}# ip neigh\n\
         10.0.0.1 dev eth0 lladdr aa:bb:cc:dd:ee:ff REACHABLE\nuser@node1:~$ ip -d link show\n{}$ ip route show table all\n{}",
        body("-6 route show table all"),
        body("addr show"),
        body("-d link show"),
        body("route show table all"),
    );
    let dir = std::env::temp_dir().join(format!("nlorder-snapshot-paste-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let p = dir.join("ticket-1234.log");
    std::fs::write(&p, paste).expect("write");
    let json = base.with_extension("l0.ip.json");
    assert_eq!(ip_json(&p), ip_json(&json));
    assert_eq!(detect_all(&p), detect_all(&json));
    std::fs::remove_dir_all(&dir).expect("clean");
}

/// A paste cut short is named so, wherever the cut falls in an address
/// or a route; `ip -o addr` alone names what is missing.
#[test]
fn a_cut_paste_is_named() {
    let text = std::fs::read_to_string(common::fixture("kernels/text/6.12/routes.l0.ip.txt")).expect("read");
    let dir = std::env::temp_dir().join(format!("nlorder-snapshot-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let run = |content: &str| {
        let p = dir.join("paste.txt");
        std::fs::write(&p, content).expect("write");
        let out = common::nlorder(&["detect", p.to_str().expect("path")]);
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // before an address's lifetimes, and in the middle of a route
    let lifetimes = text.find("valid_lft").expect("an address");
    let route = text.find("$ ip route show table all\n").expect("routes") + 26;
    for cut in [lifetimes, lifetimes - 10, route + 14, route + 25, route + 45] {
        let (code, err) = run(&text[..cut]);
        assert_eq!(code, Some(2), "{err}");
        common::assert_has(&err, &["cut short"]);
    }
    // the one-line addresses alone
    let o = std::fs::read_to_string(common::fixture("kernels/text/6.12/routes.l0.ip-o.txt")).expect("read");
    let addr = o.split("# ip ").find(|s| s.starts_with("-o addr")).expect("addr");
    let (code, err) = run(&format!("# ip {addr}"));
    assert_eq!(code, Some(2), "{err}");
    common::assert_has(&err, &["no link's flags or state"]);
    std::fs::remove_dir_all(&dir).expect("clean");
}

/// A real sosreport (sos 4.0's networking, kernel and host plugins, run in
/// a namespace right after `ip -j`; `fixtures/sos/README.md`) gives the
/// tables and every method's answer of the `ip -j` output of the same
/// moment, as a directory and packed as sos packs it (`tar.xz`); what it
/// is and its kernel are said.
#[test]
fn a_sosreport_answers_as_its_json() {
    let json = common::fixture("sos/node1.ip.json");
    let dir = common::fixture("sos/node1");
    let (tables, answers) = (ip_json(&json), detect_all(&json));
    assert_eq!(ip_json(&dir), tables);
    assert_eq!(detect_all(&dir), answers);
    let out = common::nlorder(&["table", dir.to_str().expect("path")]);
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(&err, &["snapshot of a sosreport, kernel 6."]);
    assert!(!err.contains("no IPv6 route listing"), "{err}");
    assert!(!err.contains("no link listener"), "{err}");
    // (nor in the tables' own list of what they rest on)
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(!listed.contains("listener"), "{listed}");
    // the release `uname -a` printed is the kernel whose rules apply
    common::assert_has(&listed, &["# links (kernel order ascending, the rule of linux 6.18"]);
    if !common::have("tar", &["--version"]) {
        eprintln!("no tar: the tarball is not checked");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("nlorder-snapshot-sos-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("dir");
    let top = std::fs::read_dir(&dir)
        .expect("dir")
        .next()
        .expect("the report's directory")
        .expect("entry")
        .file_name();
    let tarball = tmp.join(format!("{}.tar.xz", top.to_string_lossy()));
    let packed = std::process::Command::new("tar")
        .arg("-cJf")
        .arg(&tarball)
        .arg("-C")
        .arg(&dir)
        .arg(&top)
        .status()
        .expect("tar");
    assert!(packed.success());
    assert_eq!(ip_json(&tarball), tables);
    assert_eq!(detect_all(&tarball), answers);
    std::fs::remove_dir_all(&tmp).expect("clean");
}

/// Several files given as one snapshot, joined by commas (a node named as
/// for captures: `NODE=a,b`), answer as the one paste holding them all.
#[test]
fn several_files_are_one_snapshot() {
    let base = common::fixture("kernels/text/6.1/links.l0");
    let text = std::fs::read_to_string(base.with_extension("l0.ip.txt")).expect("read");
    let dir = std::env::temp_dir().join(format!("nlorder-snapshot-several-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let mut files = Vec::new();
    for (i, section) in text.split("$ ip ").skip(1).enumerate() {
        let f = dir.join(format!("out{i}.txt"));
        std::fs::write(&f, format!("$ ip {section}")).expect("write");
        files.push(f.to_str().expect("path").to_owned());
    }
    let joined = files.join(",");
    let whole = base.with_extension("l0.ip.json");
    assert_eq!(ip_json(Path::new(&joined)), ip_json(&whole));
    let out = common::nlorder(&["detect", "--all", "-q", &format!("node1={joined}")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = String::from_utf8_lossy(&out.stdout);
    common::assert_has(&got, &["[node1]"]);
    std::fs::remove_dir_all(&dir).expect("clean");
}

/// Snapshots in a regression manifest (`fixtures/snapshots.nlorder.toml`):
/// a sosreport, `ip` text and `ip -j` output of one host, each where a
/// capture goes.
#[test]
fn snapshots_in_a_manifest() {
    let m = common::fixture("snapshots.nlorder.toml");
    let text = common::check_ok(&[m.to_str().expect("path")]);
    common::assert_has(&text, &["8 passed, 0 failed"]);
}

/// A snapshot is one moment: `--at` is refused, and the moment is said as
/// the snapshot's, not a packet's.
#[test]
fn a_snapshot_is_one_moment() {
    let snap = common::fixture("kernels/text/6.12/routes.l0.ip.txt");
    let out = common::nlorder(&["table", "--at", "1", snap.to_str().expect("path")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    common::assert_has(&err, &["--at needs a capture"]);
    let (node, _) = common::detect_json(&["--method", "first-found", snap.to_str().expect("path")]);
    let text = node.to_string();
    common::assert_has(&text, &["\"snapshot\":true"]);
    assert!(!text.contains("the end of the capture"), "{text}");
    // a tentative address is said as `ip` showed it, not as a capture's
    // packet with an --at a snapshot refuses
    let paste = common::fixture("pastes/bridge-tentative.txt");
    let listed = common::stdout_ok(&["table", paste.to_str().expect("path")]);
    common::assert_has(
        &listed,
        &["duplicate address detection of fe80::ec91:a2ff:fec2:a434 on br9 was under way when `ip` ran"],
    );
    assert!(!listed.contains("--at end") && !listed.contains("packet "), "{listed}");
}
