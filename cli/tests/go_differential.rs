//! Differential tests against Go itself (Calico, kubelet and flannel are Go
//! programs): in a network namespace this test creates, Go's
//! `net.Interfaces()` and `Addrs()` must list what nlorder's Go view lists,
//! in the same order, from a capture of the same namespace; and Go's
//! `regexp.MatchString` must agree with nlorder's RE2 translation.
//!
//! Needs root (ip netns) and Go (Debian's golang-go); the namespace is
//! recorded with `nlorder record`. Without them it says so and skips, except in CI.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::path::Path;
use std::process::Command;

use common::{Netns, have};

use nlorder::replay::calico;
use nlorder::replay::go::regex::GoRegex;
use nlorder::replay::go::{self, AddrView};
use serde_json::Value;

#[test]
fn go_net_interfaces_and_addrs_match_nlorder() {
    if !common::can_run_netns(&["go"]) {
        return;
    }
    let bin = common::go_binary();
    let ns = Netns::new("go");
    ns.sh("ip link set lo up
         ip link add eth0 type veth peer name veth-eth0
         ip link add eth1 type veth peer name veth-eth1
         ip link add br0 type bridge
         ip link add mv0 link eth0 type macvlan mode bridge
         ip link add name hi300 index 300 type bridge
         ip link del eth1
         ip link add eth1 type veth peer name veth-eth1
         ip link set eth0 up
         ip link set veth-eth0 up
         ip link set br0 up
         ip addr add 10.9.0.2/24 dev eth0
         ip addr add 10.9.0.3/24 dev eth0
         ip addr add 10.9.0.4/24 label eth0:1 dev eth0
         ip addr add 192.168.100.5/24 dev eth0
         ip addr add 10.77.0.1/32 scope host dev eth0
         ip addr add 2001:db8:1::2/64 dev eth0 nodad
         ip addr add 2001:db8:1::3/64 dev eth0 nodad
         ip addr add 10.10.0.1 peer 10.10.0.2/32 dev eth1
         ip addr add 172.18.45.2/24 dev br0
         ip addr add fd00:10::1/64 dev br0 nodad
         ip addr add 10.30.0.1/16 dev hi300");
    let cap = Path::new(env!("CARGO_TARGET_TMPDIR")).join("go-differential/ns.pcap");
    ns.record(&cap).unwrap_or_else(|e| panic!("{e}"));
    let go = ns.exec(&[bin.to_str().expect("bin")]);
    assert!(go.status.success(), "go: {}", String::from_utf8_lossy(&go.stderr));
    let theirs: Vec<Value> = serde_json::from_slice(&go.stdout).expect("go json");

    let model = &common::rebuild_file(&cap);
    let ours: Vec<Value> = go::interfaces(model)
        .iter()
        .map(|l| {
            serde_json::json!({
                "index": l.index,
                "name": l.display_name(),
                "addrs": go::addrs(model, l.index, AddrView::GoNet).iter().map(|a| a.cidr()).collect::<Vec<_>>(),
            })
        })
        .collect();
    assert_eq!(ours, theirs, "Go's net.Interfaces()/Addrs() vs nlorder's Go view");
    assert_eq!(ours.len(), 8, "{ours:?}");

    // Calico walks the same list backwards.
    let d = calico::detect(model, "interface=.*", &calico::Options::default());
    let walked: Vec<String> = d.candidates.iter().map(|c| c.interface.clone()).collect();
    let mut go_reversed: Vec<String> = theirs
        .iter()
        .map(|i| i["name"].as_str().expect("name").to_owned())
        .collect();
    go_reversed.reverse();
    assert_eq!(walked, go_reversed);
}

#[test]
fn go_regexp_agrees_with_nlorder() {
    if !have("go", &["version"]) {
        assert!(
            std::env::var("CI").is_err(),
            "CI must run the Go regexp differential test"
        );
        eprintln!("SKIPPED: go is not installed");
        return;
    }
    let bin = common::go_binary();
    let cases: &[(&str, &str)] = &[
        ("eth.*", "veth0"),
        ("lo", "wlo1"),
        ("^lo", "wlo1"),
        ("^lo", "lo0"),
        (r"^\d+$", "١٢"),
        (r"^\w+$", "éth0"),
        (r"\bth\b", "éth"),
        (r"^\s$", "\u{b}"),
        (r"(?i)^k$", "\u{212a}"),
        (r"^\pL+\d$", "eth0"),
        (r"^[[:alpha:]]+$", "eth"),
        (r"\Qvxlan.calico\E", "vxlan.calico"),
        (r"^\Qvxlan.calico\E$", "vxlanXcalico"),
        (r"^\145th", "eth0"),
        (r"^[a&b]+$", "a&b"),
        (r"^[a-c--]+$", "a-c"),
        (r"^[\w.]+$", "eth0.100"),
        (r"^[^\D]+$", "42"),
        ("a{1000}", "a"),
        ("a{1001}", "a"),
        (r"(a)\1", "aa"),
        ("(?=x)", "x"),
        (r"\Z", "x"),
        ("(eth", "eth"),
        ("eth{", "eth{"),
        ("(?U)a+", "aaa"),
        ("(docker.*)|(^cbr.*)|(lo)", "vlan-lo"),
        (r"(^vxlan\.calico.*)|(^nodelocaldns.*)", "vxlan.calico"),
        ("ens1[0-9]{2}", "ens160"),
        ("^br-.*", "br0"),
    ];
    let input: String = cases.iter().map(|(p, n)| format!("{p}\t{n}\n")).collect();
    let mut child = Command::new(&bin)
        .arg("regexp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("go regexp");
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
    }
    let out = child.wait_with_output().expect("wait");
    let go: Vec<String> = serde_json::from_slice(&out.stdout).expect("json");
    for ((p, n), g) in cases.iter().zip(&go) {
        let ours = match GoRegex::new(p) {
            Err(_) => "error".to_string(),
            Ok(r) => r.is_match(n.as_bytes()).to_string(),
        };
        assert_eq!(&ours, g, "pattern {p:?} on {n:?}");
    }
    assert_eq!(go.len(), cases.len());
}
