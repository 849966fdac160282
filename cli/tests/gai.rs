//! `nlorder gai` end to end on the recorded alias incident, whose real
//! `getent ahosts` output was saved from the same namespace.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::fx;

use serde_json::Value;

fn gai(args: &[&str]) -> (Value, Option<i32>) {
    common::json_of("gai", args)
}

/// The alias incident's two addresses, as getent listed them.
const ADDRESSES: [&str; 2] = ["172.18.45.2", "172.18.45.100"];

/// The arguments `opts`, then the capture `cap`, the incident's two
/// [`ADDRESSES`], then `rest` (what was observed).
fn on_alias<'a>(opts: &[&'a str], cap: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut a = opts.to_vec();
    a.push(cap);
    a.extend(ADDRESSES);
    a.extend_from_slice(rest);
    a
}

#[test]
fn alias_secondary_keeps_kernel_order_promoted_alias_goes_first() {
    let cap = fx("incident-gai-alias.pcap");
    // Packet 11: after the first dumps, before the delete/re-add.
    let (before, code) = gai(&on_alias(
        &["--at", "11"],
        &cap,
        &["--observed-file", &fx("incident-gai-alias.before.getent")],
    ));
    assert_eq!(code, Some(0));
    assert_eq!(before["resolver"], "glibc");
    assert_eq!(before["order"], serde_json::json!(["172.18.45.2", "172.18.45.100"]));
    assert_eq!(before["matches_observed"], true);
    let step = &before["steps"][0];
    assert_eq!(step["rule"], 9);
    assert!(
        step["explanation"]
            .as_str()
            .expect("e")
            .contains("32 vs 25 common bits"),
        "{step}"
    );
    assert_eq!(
        before["candidates"][1]["source"], "172.18.45.2",
        "the alias's source is the primary"
    );

    let (after, code) = gai(&on_alias(
        &[],
        &cap,
        &["--observed-file", &fx("incident-gai-alias.after.getent")],
    ));
    assert_eq!(code, Some(0));
    assert_eq!(after["order"], serde_json::json!(["172.18.45.100", "172.18.45.2"]));
    assert_eq!(after["steps"][0]["swapped"], true);
    assert_eq!(after["candidates"][0]["source"], "172.18.45.100");
}

#[test]
fn a_mismatch_exits_1_and_names_the_assumption() {
    let cap = fx("incident-gai-alias.pcap");
    let (r, code) = gai(&on_alias(&[], &cap, &["--observed", "172.18.45.2,172.18.45.100"]));
    assert_eq!(code, Some(1));
    assert_eq!(r["matches_observed"], false);
    let why = r["mismatch_explanations"].to_string();
    common::assert_has(&why, &["resolver: Go"]);
    // text form
    let out = common::nlorder(&on_alias(
        &["gai", "-q"],
        &cap,
        &["--observed", "172.18.45.2,172.18.45.100"],
    ));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("MISMATCH"));
}

#[test]
fn go_and_musl_keep_ipv4_order_and_gai_conf_applies() {
    let cap = fx("incident-gai-alias.pcap");
    for r in ["go", "musl"] {
        let (v, _) = gai(&on_alias(&["--resolver", r], &cap, &[]));
        assert_eq!(v["order"], serde_json::json!(["172.18.45.2", "172.18.45.100"]), "{r}");
        assert!(!v["notes"].as_array().expect("notes").is_empty());
    }
    // IPv6 before IPv4 by default (precedence 40 vs 10); gai.conf can prefer IPv4.
    let basic = fx("basic.pcap");
    let (v, _) = gai(&[&basic, "10.9.0.2", "2001:db8:1::2"]);
    assert_eq!(v["order"][0], "2001:db8:1::2");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gai");
    std::fs::create_dir_all(&dir).expect("dir");
    let conf = dir.join("gai.conf");
    std::fs::write(&conf, "precedence ::ffff:0:0/96 100\n").expect("write");
    let (v, _) = gai(&[
        "--gai-conf",
        conf.to_str().expect("p"),
        &basic,
        "10.9.0.2",
        "2001:db8:1::2",
    ]);
    assert_eq!(v["order"][0], "10.9.0.2");
}

#[test]
fn sources_come_from_routes_or_overrides() {
    let basic = fx("basic.pcap");
    // 203.0.113.9 is only in table 100 (no rule captured): unreachable from main
    let (v, _) = gai(&[&basic, "198.51.100.7", "10.9.0.3"]);
    let remote = &v["candidates"][0];
    assert_eq!(remote["source"], "10.9.0.3", "default route's src");
    assert!(
        remote["source_why"]
            .as_str()
            .expect("why")
            .contains("default via 10.9.0.1")
    );
    let (v, _) = gai(&[
        &basic,
        "198.51.100.7",
        "10.9.0.3",
        "--source",
        "198.51.100.7=192.168.100.5",
    ]);
    assert_eq!(v["candidates"][0]["source"], "192.168.100.5");
    // a capture without routes: connected routes inferred, and said so
    let (v, _) = gai(&[&fx("third-party/pyroute2__nl0.pcap"), "172.16.254.133", "192.168.39.1"]);
    assert!(v["notes"].to_string().contains("inferred"), "{}", v["notes"]);
}

/// The recorded `getent` output from before the alias was promoted: at the
/// end of the capture glibc sorts the other way, but an earlier moment of
/// the capture gives exactly the observed order, and that is said first.
#[test]
fn a_mismatch_names_the_earlier_moment_that_gives_the_observed_order() {
    let cap = fx("incident-gai-alias.pcap");
    let before = fx("incident-gai-alias.before.getent");
    let (r, code) = gai(&on_alias(&[], &cap, &["--observed-file", &before]));
    assert_eq!(code, Some(1));
    assert_eq!(r["matches_observed"], false);
    let why = r["mismatch_explanations"].as_array().expect("why");
    assert_eq!(
        why[0],
        "moment: an earlier moment of the capture gives exactly this order (packet 11): it held from \
         packet 10 until packet 12 changed it; --at 11 replays it",
    );
    assert_eq!(
        r["observed_moments"],
        serde_json::json!([{"from": 10, "to": 11, "changed_by": 12, "order": ["172.18.45.2", "172.18.45.100"]}])
    );
    // and that moment does give it
    let (at, code) = gai(&on_alias(&["--at", "11"], &cap, &["--observed-file", &before]));
    assert_eq!(
        (at["matches_observed"].clone(), code),
        (serde_json::json!(true), Some(0))
    );
    // text, with the capture on stdin: the capture is still read once
    let out = common::nlorder_stdin(
        &on_alias(&["gai", "-q"], "-", &["--observed-file", &before]),
        std::path::Path::new(&cap),
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "could be explained by moment: an earlier moment of the capture gives exactly this order (packet 11)"
        ),
        "{text}"
    );
    // from an earlier --at, the order the capture turns to later is found there
    let after = fx("incident-gai-alias.after.getent");
    let (r, code) = gai(&on_alias(&["--at", "11"], &cap, &["--observed-file", &after]));
    assert_eq!(code, Some(1));
    assert_eq!(
        r["mismatch_explanations"][0],
        "moment: a later moment of the capture gives exactly this order (packet 12): it held from packet 12 \
         to the end of the capture; --at 12 replays it"
    );
    // an answer set the capture never sorts to has no moment
    let (r, _) = gai(&on_alias(&[], &cap, &["--observed", "172.18.45.100"]));
    assert!(!r["mismatch_explanations"].to_string().contains("moment:"), "{r}");
    assert_eq!(r["observed_moments"], serde_json::json!([]));
}

/// `gai --timeline`: where the order changed along the capture, with the
/// rule behind each new order and the changes that caused it.
#[test]
fn the_timeline_lists_where_the_order_changed() {
    let cap = fx("incident-gai-alias.pcap");
    let before = fx("incident-gai-alias.before.getent");
    let out = common::nlorder(&on_alias(
        &["gai", "-q", "--timeline"],
        &cap,
        &["--observed-file", &before],
    ));
    assert_eq!(out.status.code(), Some(0), "a moment gives the observed order");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "glibc order over time:");
    assert_eq!(
        lines[1],
        "    10 2026-11-21T20:22:00.479537Z (start) -> 172.18.45.2, 172.18.45.100  <- the observed order"
    );
    assert!(lines[2].contains("rule 9, 32 vs 25 common bits"), "{text}");
    let change = lines
        .iter()
        .position(|l| l.starts_with("    12 "))
        .expect("the change in packet 12");
    assert_eq!(
        lines[change],
        "    12 2026-11-21T20:22:00.486485Z 172.18.45.2, 172.18.45.100 -> 172.18.45.100, 172.18.45.2"
    );
    common::assert_has(
        &text,
        &["because: - 172.18.45.2/24 eth0: secondary 172.18.45.100 promoted"],
    );
    assert_eq!(text.matches(" -> ").count(), 2, "two moments: {text}");
    // JSON
    let (t, code) = gai(&on_alias(&["--timeline"], &cap, &[]));
    assert_eq!(code, Some(0));
    let flips = t["flips"].as_array().expect("flips");
    let packets: Vec<u64> = flips.iter().map(|f| f["packet"].as_u64().expect("p")).collect();
    assert_eq!(packets, [10, 12]);
    assert_eq!(flips[1]["before"], serde_json::json!(["172.18.45.2", "172.18.45.100"]));
    assert_eq!(flips[1]["after"], serde_json::json!(["172.18.45.100", "172.18.45.2"]));
    assert_eq!(flips[1]["steps"][0]["rule"], 9);
    assert_eq!(t["resolver"], "glibc");
    // an observed order no moment gives: exit 1
    let out = common::nlorder(&on_alias(
        &["gai", "-q", "--timeline"],
        &cap,
        &["--observed", "172.18.45.100"],
    ));
    assert_eq!(out.status.code(), Some(1));
    // a timeline has no single moment
    let out = common::nlorder(&["gai", "--timeline", "--at", "10", &cap, "172.18.45.2"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `gai NAME --hosts FILE`: the incident's own hosts file and host.conf
/// give the candidates getent got, each with its line; the program's
/// orders before and after the promotion match at their moments.
#[test]
fn hosts_file_gives_the_candidates_and_their_lines() {
    let cap = fx("incident-gai-alias.pcap");
    let hosts = fx("incident-gai-alias.hosts");
    let conf = fx("incident-gai-alias.host.conf");
    let files = ["--hosts", hosts.as_str(), "--host-conf", conf.as_str()];
    for (at, getent) in [
        ("11", "incident-gai-alias.before.getent"),
        ("30", "incident-gai-alias.after.getent"),
    ] {
        let mut args = vec!["--at", at, &cap, "node1", "--observed-file"];
        let observed = fx(getent);
        args.push(&observed);
        args.extend(files);
        let (r, code) = gai(&args);
        assert_eq!(code, Some(0), "{getent}: {r}");
        assert_eq!(r["input"], serde_json::json!(["172.18.45.2", "172.18.45.100"]));
        let h = &r["hosts"];
        assert_eq!(h["name"], "node1");
        assert_eq!(h["multi"], true);
        assert_eq!(h["asked"], "both");
        let lines: Vec<(String, u64)> = h["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .map(|c| (c["address"].as_str().unwrap().to_owned(), c["line"].as_u64().unwrap()))
            .collect();
        assert_eq!(lines, [("172.18.45.2".into(), 2), ("172.18.45.100".into(), 3)]);
        assert_eq!(h["not_returned"], serde_json::json!([]));
    }
    // Without host.conf, multi is off: only line 2; what the program got
    // is explained by `multi on`.
    let after = fx("incident-gai-alias.after.getent");
    let (r, code) = gai(&[&cap, "node1", "--hosts", &hosts, "--observed-file", &after]);
    assert_eq!(code, Some(1), "{r}");
    assert_eq!(r["order"], serde_json::json!(["172.18.45.2"]));
    assert_eq!(r["hosts"]["multi"], false);
    assert_eq!(r["hosts"]["not_returned"][0]["line"], 3);
    let why = r["mismatch_explanations"][0].as_str().unwrap();
    assert!(why.starts_with("host.conf: with `multi on`"), "{why}");
    // the timeline sorts the hosts file's candidates too
    let mut args = vec!["--timeline", &cap, "node1"];
    args.extend(files);
    let (t, code) = gai(&args);
    assert_eq!(code, Some(0));
    assert_eq!(t["input"], serde_json::json!(["172.18.45.2", "172.18.45.100"]));
    assert_eq!(t["flips"].as_array().expect("flips").len(), 2);
    // the text names each candidate's line
    let mut args = vec!["gai", "-q", &cap, "node1"];
    args.extend(files);
    let text = common::stdout_ok(&args);
    common::assert_has(&text, &["    172.18.45.100: line 3, `172.18.45.100 node1`\n"]);
}

/// What `--hosts` refuses, with exit 2: a file it cannot read (named), a
/// name no line names, two names, an address for a name, a resolver other
/// than glibc; and an argument that is not an address without it.
#[test]
fn hosts_file_errors_exit_2() {
    let cap = fx("incident-gai-alias.pcap");
    let hosts = fx("incident-gai-alias.hosts");
    let fails = |args: &[&str], says: &str| {
        let mut a = vec!["gai", "-q", cap.as_str()];
        a.extend_from_slice(args);
        let out = common::nlorder(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    };
    fails(&["node1", "--hosts", "/nonexistent/hosts"], "/nonexistent/hosts");
    fails(
        &["node1", "--hosts", &hosts, "--host-conf", "/nonexistent/host.conf"],
        "/nonexistent/host.conf",
    );
    fails(&["node2", "--hosts", &hosts], "no line names node2");
    fails(&["node1", "localhost", "--hosts", &hosts], "one NAME, not 2");
    fails(&["172.18.45.2", "--hosts", &hosts], "not a name");
    fails(&["node1", "--hosts", &hosts, "--resolver", "go"], "--resolver glibc");
    fails(&["node1"], "give --hosts FILE");
    fails(&["172.18.45.2", "--host-conf", &hosts], "--hosts");
}
