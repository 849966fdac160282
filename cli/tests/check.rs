//! `nlorder check`: the project's own manifests pass; each kind of
//! expectation, broken on purpose in a copy, fails naming the expectation
//! with expected vs actual; malformed manifests give file and line.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::{fx, tmp};

use std::path::{Path, PathBuf};

fn run(args: &[&str]) -> (String, String, Option<i32>) {
    let mut a = vec!["check"];
    a.extend_from_slice(args);
    let out = common::nlorder(&a);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn the_projects_fixtures_pass() {
    let (out, err, code) = run(&[common::fixtures().to_str().expect("p")]);
    assert_eq!(code, Some(0), "{out}{err}");
    let last = out.lines().last().expect("summary");
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
    let n: usize = last.split(' ').next().and_then(|n| n.parse().ok()).expect("count");
    assert!(n >= 35, "{last}");
}

#[test]
fn each_kind_of_expectation_fails_when_broken() {
    let nerd = fx("incident-nerdctl.pcap");
    let alias = fx("incident-gai-alias.pcap");
    let cases = [
        (
            "link_order",
            format!("capture = {nerd:?}\n[[link_order]]\nlinks = [\"lo\", \"nerdctl0\"]\n"),
            "link order",
            "lo, veth-ens160, ens160, nerdctl0",
        ),
        (
            "address",
            format!("capture = {nerd:?}\n[[address]]\ninterface = \"ens160\"\naddress = \"10.4.0.1/24\"\n"),
            "address 10.4.0.1/24 on ens160",
            "absent",
        ),
        (
            "address_order",
            format!(
                "capture = {alias:?}\n[[address_order]]\nat = 11\ninterface = \"eth0\"\nfamily = 4\naddresses = [\"172.18.45.100/24\", \"172.18.45.2/24\"]\n"
            ),
            "address order on eth0",
            "172.18.45.2/24, 172.18.45.100/24",
        ),
        (
            "detect",
            format!("capture = {nerd:?}\n[[detect]]\nmethod = \"first-found\"\naddress = \"192.168.10.5/24\"\n"),
            "detect first-found (IPv4)",
            "10.4.0.1/24",
        ),
        (
            "gai",
            format!(
                "capture = {alias:?}\n[[gai]]\ncandidates = [\"172.18.45.2\", \"172.18.45.100\"]\norder = [\"172.18.45.2\", \"172.18.45.100\"]\n"
            ),
            "gai glibc",
            "172.18.45.100, 172.18.45.2",
        ),
        (
            "warnings",
            format!(
                "capture = {:?}\nwarnings = \"none\"\n",
                fx("derived/basic-snap100.pcap")
            ),
            "warnings",
            "record truncated",
        ),
    ];
    for (kind, text, name, actual) in cases {
        let p = tmp(&format!("broken-{kind}.nlorder.toml"), &text);
        let (out, _, code) = run(&[p.to_str().expect("p")]);
        assert_eq!(code, Some(1), "{kind}: {out}");
        let fail = out
            .lines()
            .find(|l| l.starts_with("FAIL"))
            .unwrap_or_else(|| panic!("{kind}: {out}"));
        assert!(fail.contains(name), "{kind}: {fail}");
        assert!(fail.contains("broken-"), "names the manifest: {fail}");
        assert!(out.contains("- expected:"), "{kind}: {out}");
        assert!(
            out.lines().any(|l| l.contains("+ actual:") && l.contains(actual)),
            "{kind}: {out}"
        );
        assert!(
            out.trim_end().ends_with("0 passed, 1 failed") || out.contains(" failed"),
            "{out}"
        );
    }
}

#[test]
fn malformed_manifests_name_file_and_line() {
    let nerd = fx("incident-nerdctl.pcap");
    // (file, its text, what the error must say)
    let cases = [
        (
            "unknown-key.nlorder.toml",
            format!("capture = {nerd:?}\n\n[[detect]]\nmethod = \"first-found\"\nadress = \"10.4.0.1/24\"\n"),
            &["unknown-key.nlorder.toml:5", "adress"][..],
        ),
        (
            "syntax.nlorder.toml",
            format!("capture = {nerd:?}\n[[detect]\n"),
            &["syntax.nlorder.toml:2"],
        ),
        (
            "nocapture.nlorder.toml",
            "[[detect]]\nmethod = \"first-found\"\n".to_owned(),
            &["names no capture"],
        ),
        (
            "missing.nlorder.toml",
            "capture = \"nope.pcap\"\n[[link_order]]\nlinks = []\n".to_owned(),
            &["nope.pcap"],
        ),
    ];
    for (name, text, says) in cases {
        let p = tmp(name, text);
        let (_, err, code) = run(&[p.to_str().expect("p")]);
        assert_eq!(code, Some(2), "{name}: {err}");
        common::assert_has(&err, says);
    }
}

#[test]
fn update_records_a_new_incident_in_one_command() {
    let p = tmp(
        "new-incident.nlorder.toml",
        format!("# incident 4711\ncapture = {:?}\n", fx("incident-dual-nic.pcap")),
    );
    // Nothing written down is not a pass: it fails and says how to record.
    let (out, _, code) = run(&[p.to_str().expect("p")]);
    assert_eq!(code, Some(1), "no expectations yet: {out}");
    common::assert_has(&out, &["nlorder check --update"]);
    let (_, _, code) = run(&["--update", p.to_str().expect("p")]);
    assert_eq!(code, Some(0));
    let text = std::fs::read_to_string(&p).expect("read");
    assert!(text.starts_with("# incident 4711\n"), "comments kept: {text}");
    common::assert_has(&text, &["address = \"192.168.50.5/24\""]);
    assert!(text.contains("address = \"10.0.0.5\""), "kubelet: {text}");
    common::assert_has(&text, &["warnings = \"none\""]);
    let (out, _, code) = run(&[p.to_str().expect("p")]);
    assert_eq!(code, Some(0), "{out}");
    // and a later change in behaviour would now fail it
    let broken = text.replace("192.168.50.5/24", "10.0.0.5/24");
    std::fs::write(&p, broken).expect("write");
    let (_, _, code) = run(&[p.to_str().expect("p")]);
    assert_eq!(code, Some(1));
}

#[test]
fn junit_and_json_reports() {
    let p = tmp(
        "report.nlorder.toml",
        format!(
            "capture = {:?}\n[[detect]]\naddress = \"10.4.0.1/24\"\n[[detect]]\nmethod = \"kubelet\"\naddress = \"1.2.3.4\"\n",
            fx("incident-nerdctl.pcap")
        ),
    );
    let junit = p.with_extension("xml");
    let (_, _, code) = run(&["--junit", junit.to_str().expect("p"), p.to_str().expect("p")]);
    assert_eq!(code, Some(1));
    let xml = std::fs::read_to_string(&junit).expect("junit");
    common::assert_has(&xml, &["<testsuite", "failures=\"1\""]);
    common::assert_has(&xml, &["expected 1.2.3.4, got 192.168.10.5"]);
    let (out, _, _) = run(&["--format", "json", p.to_str().expect("p")]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["failed"], 1);
    assert_eq!(v["results"][0]["kind"], "detect");
    assert_eq!(v["results"][0]["line"], 2);
}

/// A folder of manifests in a fresh temp dir (removed first).
fn folder(name: &str, files: &[(&str, String)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("check").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for (f, text) in files {
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
        std::fs::write(&p, text).expect("write");
    }
    dir
}

#[test]
fn one_broken_manifest_does_not_cancel_the_others() {
    let nerd = fx("incident-nerdctl.pcap");
    let dir = folder(
        "one-broken",
        &[
            (
                "bad/missing.nlorder.toml",
                "# no capture here\ncapture = \"missing.pcap\"\n[[detect]]\naddress = \"10.4.0.1/24\"\n".into(),
            ),
            (
                "good/good.nlorder.toml",
                format!(
                    "capture = {nerd:?}\n[[detect]]\naddress = \"10.4.0.1/24\"\n\
                     [[detect]]\nmethod = \"interface=eth(\"\naddress = \"10.4.0.1/24\"\n"
                ),
            ),
            (
                "good/typo.nlorder.toml",
                format!("capture = {nerd:?}\n\n[[detect]]\nadress = \"10.4.0.1/24\"\n"),
            ),
        ],
    );
    let junit = dir.join("junit.xml");
    let (out, err, code) = run(&["--junit", junit.to_str().expect("p"), dir.to_str().expect("p")]);
    // Every manifest ran; the broken ones make the run unreadable (2) only at the end.
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("PASS ") && l.contains("good.nlorder.toml:2")),
        "{out}"
    );
    let missing = out
        .lines()
        .position(|l| l.starts_with("ERROR ") && l.contains("missing.nlorder.toml:2"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        out.lines().nth(missing + 1).expect("why").contains("missing.pcap"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("ERROR ") && l.contains("typo.nlorder.toml:4")),
        "{out}"
    );
    // A setting nlorder cannot use is an error of that expectation alone.
    assert!(
        out.lines()
            .any(|l| l.starts_with("ERROR ") && l.contains("good.nlorder.toml:4")),
        "{out}"
    );
    assert!(out.trim_end().ends_with("1 passed, 0 failed, 3 errors"), "{out}");
    common::assert_has(&err, &["missing.pcap", "adress"]);
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    common::assert_has(&xml, &["errors=\"3\""]);
    assert_eq!(xml.matches("<error").count(), 3, "{xml}");
    common::assert_has(&xml, &["missing.nlorder.toml:2", "typo.nlorder.toml:4"]);
    common::assert_has(&xml, &["<testcase name=\"[", "detect first-found (IPv4)"]);
    let (out, _, code) = run(&["--format", "json", dir.to_str().expect("p")]);
    assert_eq!(code, Some(2));
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        (v["passed"].as_u64(), v["failed"].as_u64(), v["errors"].as_u64()),
        (Some(1), Some(0), Some(3)),
        "{v}"
    );
    let errors: Vec<&serde_json::Value> = v["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["kind"] == "error")
        .collect();
    assert_eq!(errors.len(), 3, "{v}");
    assert!(
        errors.iter().all(|e| e["line"].is_u64() && e["message"].is_string()),
        "{v}"
    );
}

#[test]
fn update_writes_nothing_when_the_run_fails() {
    let nerd = fx("incident-nerdctl.pcap");
    let dir = folder(
        "update-missing",
        &[
            ("x.nlorder.toml", "# incident 4712\ncapture = \"missing.pcap\"\n".into()),
            // One case that could be recorded, one that cannot: the file stays as it is.
            (
                "y.nlorder.toml",
                format!("[[case]]\ncapture = {nerd:?}\n\n[[case]]\ncapture = \"missing.pcap\"\n"),
            ),
            // A stale value next to settings nlorder cannot use: not rewritten either.
            (
                "z.nlorder.toml",
                format!(
                    "capture = {nerd:?}\n[[detect]]\naddress = \"1.2.3.4\"\n\
                     [[detect]]\nmethod = \"cidr=10.0.0.0/33\"\n"
                ),
            ),
            ("ok.nlorder.toml", format!("capture = {nerd:?}\n")),
        ],
    );
    let text = |f: &str| std::fs::read_to_string(dir.join(f)).expect("read");
    let before: Vec<String> = ["x", "y", "z"]
        .iter()
        .map(|f| text(&format!("{f}.nlorder.toml")))
        .collect();
    let (out, err, code) = run(&["--update", dir.to_str().expect("p")]);
    assert_eq!(code, Some(2), "{out}{err}");
    for (f, was) in ["x", "y", "z"].iter().zip(&before) {
        assert_eq!(&text(&format!("{f}.nlorder.toml")), was, "{f}: {err}");
        assert!(err.contains(&format!("{f}.nlorder.toml not updated")), "{f}: {err}");
    }
    assert!(
        out.lines()
            .any(|l| l.starts_with("ERROR ") && l.contains("x.nlorder.toml:2")),
        "{out}"
    );
    // The manifest that ran is still recorded.
    common::assert_has(&err, &["nlorder: updated", "ok.nlorder.toml"]);
    assert!(text("ok.nlorder.toml").contains("address = \"10.4.0.1/24\""));
}

#[test]
fn replay_errors_moments_and_line_order() {
    let nerd = fx("incident-nerdctl.pcap");
    let p = tmp(
        "replay-errors.nlorder.toml",
        format!(
            "capture = {nerd:?}\nwarnings = \"none\"\n\
             [[gai]]\ncandidates = [\"192.168.10.5\"]\norder = [\"192.168.10.5\"]\n\
             [[detect]]\nmethod = \"firstfound\"\naddress = \"1.2.3.4\"\n\
             [[detect]]\nat = 3\naddress = \"none\"\n\
             [[detect]]\naddress = \"10.4.0.1/24\"\n\
             [[detect]]\ncalico_version = \"3.23.3\"\naddress = \"10.4.0.1/24\"\n\
             [[link_order]]\nlinks = [\"lo\", \"veth-ens160\", \"ens160\", \"nerdctl0\"]\n"
        ),
    );
    let junit = p.with_extension("xml");
    let (out, err, code) = run(&["--junit", junit.to_str().expect("p"), p.to_str().expect("p")]);
    assert_eq!(code, Some(1), "{out}{err}");
    // The replay's own error, as `detect` prints it.
    let fail = out.lines().position(|l| l.starts_with("FAIL")).expect("a failure");
    assert!(
        out.lines().nth(fail).expect("l").contains("detect firstfound (IPv4)"),
        "{out}"
    );
    assert!(
        out.lines()
            .nth(fail + 1)
            .expect("why")
            .contains("Invalid IP autodetection method: firstfound"),
        "{out}"
    );
    // In manifest line order.
    let lines: Vec<usize> = out
        .lines()
        .filter(|l| l.starts_with("PASS") || l.starts_with("FAIL"))
        .map(|l| {
            let place = l.split(' ').nth(1).expect("place");
            place.rsplit(':').next().expect("line").parse().expect("number")
        })
        .collect();
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted, "{out}");
    assert_eq!(lines.first(), Some(&2), "{out}");
    // Two detections that differ only by their moment have two names.
    common::assert_has(&out, &["] detect first-found (IPv4) at 3\n"]);
    let xml = std::fs::read_to_string(&junit).expect("junit");
    let mut names: Vec<&str> = xml
        .split("<testcase name=\"")
        .skip(1)
        .map(|s| s.split('"').next().expect("name"))
        .collect();
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n, "{xml}");
    // Names that would still repeat (settings the name leaves out) name their line.
    common::assert_has(
        &xml,
        &[
            "detect first-found (IPv4) (line 12)",
            "detect first-found (IPv4) (line 14)",
        ],
    );
    common::assert_has(&xml, &["Invalid IP autodetection method: firstfound"]);
}

/// Cases run on several threads give the outcomes one thread gives, in
/// manifest order (text and JSON).
#[test]
fn cases_on_every_core_come_in_manifest_order() {
    let dir = common::fixtures();
    let dir = dir.to_str().expect("p");
    for format in ["text", "json"] {
        let one = run(&["-j", "1", "--format", format, dir]);
        assert_eq!(one.2, Some(0), "{}{}", one.0, one.1);
        assert_eq!(run(&["-j", "3", "--format", format, dir]), one, "{format}");
    }
}
