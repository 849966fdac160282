//! What each replayed program says and checks, in its own words: node
//! conflicts only where the program checks them, an operator Installation
//! per family, `--all` in the family asked for.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::{fx, tmp};

#[test]
fn a_collision_is_worded_as_calicos_check_only_for_calico_node() {
    let f = fx("incident-nerdctl.pcap");
    let (a, b) = (format!("a={f}"), format!("b={f}"));
    let out = common::nlorder(&["detect", "--method", "kubelet", &a, &b]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("Calico node"),
        "kubelet checks nothing of the kind: {text}"
    );
    common::assert_has(&text, &["COLLISION: nodes 'a' and 'b' both use 192.168.10.5"]);
    let (d, _) = common::json_of("detect", &["--method", "kubelet", &a, &b]);
    let c = &d["conflicts"][0];
    assert_eq!(c["address"], "192.168.10.5", "{d}");
    assert!(c.get("log").is_none(), "no invented log line: {d}");
    // calico-node's check, in its words (startup.go checkConflictingNodes).
    let out = common::nlorder(&["detect", &a, &b]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "CONFLICT: node 'b' would log \"Calico node 'a' is already using the IPv4 address 10.4.0.1.\" and terminate"
        ),
        "{text}"
    );
}

const DUAL: &str = "kind: Installation\nmetadata: {name: default}\nspec:\n  calicoNetwork:\n    ipPools:\n    \
                    - cidr: 192.168.0.0/16\n    - cidr: fd00:10::/48\n    nodeAddressAutodetectionV4:\n      \
                    interface: eth.*\n    nodeAddressAutodetectionV6:\n      firstFound: true\n";

const V6_ONLY: &str = "kind: Installation\nmetadata: {name: default}\nspec:\n  calicoNetwork:\n    ipPools:\n    \
                       - cidr: fd00:10::/48\n    nodeAddressAutodetectionV6:\n      interface: eth.*\n";

#[test]
fn an_installation_replays_each_family_it_configures() {
    let f = fx("basic.pcap");
    let dual = tmp("dual.yaml", DUAL);
    let (d, code) = common::json_of("detect", &["--installation", dual.to_str().expect("p"), &f]);
    assert_eq!(code, Some(0), "{d}");
    let nodes = d["nodes"].as_array().expect("nodes");
    let got: Vec<(&str, u64)> = nodes
        .iter()
        .map(|n| (n["method"].as_str().expect("m"), n["family"].as_u64().expect("f")))
        .collect();
    assert_eq!(got, [("interface=eth.*", 4), ("first-found", 6)], "{d}");
    assert_eq!(nodes[1]["address"], "fd00:10::1/64");
    // --family picks one of them.
    let (d, _) = common::json_of(
        "detect",
        &["--installation", dual.to_str().expect("p"), "--family", "6", &f],
    );
    assert_eq!(d["nodes"].as_array().expect("nodes").len(), 1, "{d}");
    assert_eq!(d["nodes"][0]["family"], 6);
    // An IPv6-only Installation is replayed in IPv6, not as IPv4 first-found.
    let v6 = tmp("v6.yaml", V6_ONLY);
    let (d, _) = common::json_of("detect", &["--installation", v6.to_str().expect("p"), &f]);
    let nodes = d["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), 1, "{d}");
    assert_eq!(nodes[0]["method"], "interface=eth.*");
    assert_eq!(nodes[0]["family"], 6);
    assert_eq!(nodes[0]["address"], "2001:db8:1::3/64");
}

#[test]
fn all_replays_the_family_asked_for() {
    let (d, _) = common::json_of("detect", &["--all", "--family", "6", &fx("basic.pcap")]);
    let methods = d["nodes"][0]["methods"].as_array().expect("methods");
    let per_family = ["first-found", "flannel", "cilium"];
    for m in methods {
        let name = m["method"].as_str().expect("m");
        if per_family.contains(&name) {
            assert_eq!(m["family"], 6, "{name}: {m}");
        }
    }
    let kubelet = methods.iter().find(|m| m["method"] == "kubelet").expect("kubelet");
    assert_eq!(
        kubelet["family"], 6,
        "kubelet told --node-ip :: prefers IPv6: {kubelet}"
    );
}

#[test]
fn brief_gives_the_answer_the_runner_up_and_why_it_lost() {
    let text = common::stdout_ok(&["detect", "-q", "--brief", &fx("notify-link.pcap")]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "first-found (IPv4) -> 192.168.100.5/24 on ens19", "{text}");
    assert_eq!(
        lines[1], "  runner-up: nerdctl0 (ifindex 4) 10.4.0.1/24: not reached: an earlier interface won",
        "{text}"
    );
    assert!(lines[2].starts_with("  at: "), "{text}");
    assert_eq!(lines.len(), 3, "no candidate rows: {text}");
}

#[test]
fn down_interfaces_are_marked() {
    // notify-link.pcap's dump shows peer0 and peer19 without IFF_UP.
    let text = common::stdout_ok(&["detect", "-q", &fx("notify-link.pcap")]);
    common::assert_has(&text, &["    peer19 (ifindex 7, DOWN)"]);
    common::assert_has(&text, &["    peer0 (ifindex 2, DOWN)"]);
    assert!(
        text.contains("    eth0 (ifindex 3)  "),
        "up, without carrier, is not DOWN: {text}"
    );
    let (d, _) = common::json_of("detect", &[&fx("notify-link.pcap")]);
    assert_eq!(d["nodes"][0]["down"], serde_json::json!([7, 2]), "{d}");
    let (d, _) = common::json_of("detect", &[&fx("incident-nerdctl.pcap")]);
    assert!(d["nodes"][0].get("down").is_none(), "no key when nothing is down: {d}");
}
