//! `nlorder check`: the project's own manifests pass; each kind of
//! expectation, broken on purpose in a copy, fails naming the expectation
//! with expected vs actual; malformed manifests give file and line.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::path::{Path, PathBuf};

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("check");
    std::fs::create_dir_all(&dir).expect("dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

fn fx(name: &str) -> String {
    common::fixture(name).to_str().expect("path").to_owned()
}

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
    let p = tmp(
        "unknown-key.nlorder.toml",
        &format!("capture = {nerd:?}\n\n[[detect]]\nmethod = \"first-found\"\nadress = \"10.4.0.1/24\"\n"),
    );
    let (_, err, code) = run(&[p.to_str().expect("p")]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unknown-key.nlorder.toml:5") && err.contains("adress"),
        "{err}"
    );
    let p = tmp("syntax.nlorder.toml", &format!("capture = {nerd:?}\n[[detect]\n"));
    let (_, err, code) = run(&[p.to_str().expect("p")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("syntax.nlorder.toml:2"), "{err}");
    let p = tmp("nocapture.nlorder.toml", "[[detect]]\nmethod = \"first-found\"\n");
    let (_, err, code) = run(&[p.to_str().expect("p")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("names no capture"), "{err}");
    let p = tmp(
        "missing.nlorder.toml",
        "capture = \"nope.pcap\"\n[[link_order]]\nlinks = []\n",
    );
    let (_, err, code) = run(&[p.to_str().expect("p")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("nope.pcap"), "{err}");
}

#[test]
fn update_records_a_new_incident_in_one_command() {
    let p = tmp(
        "new-incident.nlorder.toml",
        &format!("# incident 4711\ncapture = {:?}\n", fx("incident-dual-nic.pcap")),
    );
    // Nothing written down is not a pass: it fails and says how to record.
    let (out, _, code) = run(&[p.to_str().expect("p")]);
    assert_eq!(code, Some(1), "no expectations yet: {out}");
    assert!(out.contains("nlorder check --update"), "{out}");
    let (_, _, code) = run(&["--update", p.to_str().expect("p")]);
    assert_eq!(code, Some(0));
    let text = std::fs::read_to_string(&p).expect("read");
    assert!(text.starts_with("# incident 4711\n"), "comments kept: {text}");
    assert!(text.contains("address = \"192.168.50.5/24\""), "{text}");
    assert!(text.contains("address = \"10.0.0.5\""), "kubelet: {text}");
    assert!(text.contains("warnings = \"none\""), "{text}");
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
        &format!(
            "capture = {:?}\n[[detect]]\naddress = \"10.4.0.1/24\"\n[[detect]]\nmethod = \"kubelet\"\naddress = \"1.2.3.4\"\n",
            fx("incident-nerdctl.pcap")
        ),
    );
    let junit = p.with_extension("xml");
    let (_, _, code) = run(&["--junit", junit.to_str().expect("p"), p.to_str().expect("p")]);
    assert_eq!(code, Some(1));
    let xml = std::fs::read_to_string(&junit).expect("junit");
    assert!(xml.contains("<testsuite") && xml.contains("failures=\"1\""), "{xml}");
    assert!(xml.contains("expected 1.2.3.4, got 192.168.10.5"), "{xml}");
    let (out, _, _) = run(&["--format", "json", p.to_str().expect("p")]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["failed"], 1);
    assert_eq!(v["results"][0]["kind"], "detect");
    assert_eq!(v["results"][0]["line"], 2);
}
