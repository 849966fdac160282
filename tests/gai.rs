//! `nlorder gai` end to end on the recorded alias incident, whose real
//! `getent ahosts` output was saved from the same namespace.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use serde_json::Value;

fn gai(args: &[&str]) -> (Value, Option<i32>) {
    common::json_of("gai", args)
}

fn fx(name: &str) -> String {
    common::fixture(name).to_str().expect("path").to_owned()
}

#[test]
fn alias_secondary_keeps_kernel_order_promoted_alias_goes_first() {
    let cap = fx("incident-gai-alias.pcap");
    // Packet 11: after the first dumps, before the delete/re-add.
    let (before, code) = gai(&[
        "--at",
        "11",
        &cap,
        "172.18.45.2",
        "172.18.45.100",
        "--observed-file",
        &fx("incident-gai-alias.before.getent"),
    ]);
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

    let (after, code) = gai(&[
        &cap,
        "172.18.45.2",
        "172.18.45.100",
        "--observed-file",
        &fx("incident-gai-alias.after.getent"),
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(after["order"], serde_json::json!(["172.18.45.100", "172.18.45.2"]));
    assert_eq!(after["steps"][0]["swapped"], true);
    assert_eq!(after["candidates"][0]["source"], "172.18.45.100");
}

#[test]
fn a_mismatch_exits_1_and_names_the_assumption() {
    let cap = fx("incident-gai-alias.pcap");
    let (r, code) = gai(&[
        &cap,
        "172.18.45.2",
        "172.18.45.100",
        "--observed",
        "172.18.45.2,172.18.45.100",
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(r["matches_observed"], false);
    let why = r["mismatch_explanations"].to_string();
    assert!(why.contains("resolver: Go"), "{why}");
    // text form
    let out = common::nlorder(&[
        "gai",
        "-q",
        &cap,
        "172.18.45.2",
        "172.18.45.100",
        "--observed",
        "172.18.45.2,172.18.45.100",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("MISMATCH"));
}

#[test]
fn go_and_musl_keep_ipv4_order_and_gai_conf_applies() {
    let cap = fx("incident-gai-alias.pcap");
    for r in ["go", "musl"] {
        let (v, _) = gai(&["--resolver", r, &cap, "172.18.45.2", "172.18.45.100"]);
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
