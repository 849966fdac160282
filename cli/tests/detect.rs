//! `nlorder detect` on recorded incidents (real kernel fixtures): each
//! reproduces a failure users report, end to end.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::fx;

use serde_json::Value;

fn detect_json(args: &[&str]) -> (Value, Option<i32>) {
    common::detect_json(args)
}

#[test]
fn a_bridge_created_last_wins_first_found() {
    let f = fx("incident-nerdctl.pcap");
    let (d, _) = detect_json(&[&f]);
    assert_eq!(d["method"], "first-found");
    assert_eq!(d["address"], "10.4.0.1/24");
    assert_eq!(d["interface"], "nerdctl0");
    assert_eq!(d["error"], Value::Null);
    let c: Vec<(&str, &str)> = d["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| (c["interface"].as_str().expect("i"), c["verdict"].as_str().expect("v")))
        .collect();
    assert_eq!(
        c,
        [
            ("nerdctl0", "chosen"),
            ("ens160", "not_reached"),
            ("veth-ens160", "excluded"),
            ("lo", "excluded")
        ]
    );
    let (d, _) = detect_json(&["--method", "interface=ens.*", &f]);
    assert_eq!(d["address"], "192.168.10.5/24");
    // --all shows both at once
    let (m, _) = common::json_of("detect", &["--all", &f]);
    let rows = m["nodes"][0]["methods"].as_array().expect("rows");
    let pick = |method: &str| {
        rows.iter()
            .find(|r| r["method"] == method)
            .map(|r| r["interface"].clone())
    };
    assert_eq!(pick("first-found"), Some("nerdctl0".into()));
    assert_eq!(pick("interface=ens.*"), Some("ens160".into()));
    assert_eq!(pick("kubelet"), Some("ens160".into()));
    // --expect
    let out = common::nlorder(&["detect", "-q", "--expect", "192.168.10.5", &f]);
    assert_eq!(out.status.code(), Some(1));
    let out = common::nlorder(&["detect", "-q", "--expect", "10.4.0.1/24", &f]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn b_kubernetes_internal_ip_bug_and_node_conflict() {
    let n1 = format!("node-1={}", fx("incident-k8s-node-1.pcap"));
    let n2 = format!("node-2={}", fx("incident-k8s-node-2.pcap"));
    let ips = [
        "--node-internal-ip",
        "node-1=172.29.231.161",
        "--node-internal-ip",
        "node-2=172.29.231.162",
    ];
    let run = |version: &str, captures: &[&str]| {
        let mut a = vec!["--method", "kubernetes-internal-ip", "--calico-version", version];
        a.extend_from_slice(&ips);
        a.extend_from_slice(captures);
        common::json_of("detect", &a)
    };
    let (d, _) = run("3.22.1", &[&n1]);
    assert_eq!(d["nodes"][0]["address"], "172.29.231.0/24");
    let (d, _) = run("3.22.4", &[&n1]);
    assert_eq!(d["nodes"][0]["address"], "172.29.231.161/24");
    let (both, code) = run("3.22.1", &[&n1, &n2]);
    assert_eq!(code, Some(1));
    let conflicts = both["conflicts"].as_array().expect("conflicts");
    assert_eq!(conflicts.len(), 1);
    assert_eq!(conflicts[0]["node"], "node-2");
    assert_eq!(
        conflicts[0]["log"],
        "Calico node 'node-1' is already using the IPv4 address 172.29.231.0."
    );
    let (both, code) = run("3.22.4", &[&n1, &n2]);
    assert_eq!(code, Some(0));
    assert!(both["conflicts"].as_array().expect("c").is_empty());
}

#[test]
fn c_dual_nic_first_found_and_bgp_peer_disagree() {
    let f = fx("incident-dual-nic.pcap");
    let (ff, _) = detect_json(&["--bgp-peer", "10.0.0.254", &f]);
    assert_eq!(ff["address"], "192.168.50.5/24");
    let notes = ff["notes"].to_string();
    common::assert_has(&notes, &["MISMATCH", "from 10.0.0.5 on eth0"]);
    let (cr, _) = detect_json(&["--method", "can-reach=10.0.0.254", "--bgp-peer", "10.0.0.254", &f]);
    assert_eq!(cr["address"], "10.0.0.5/24");
    assert!(cr["notes"].to_string().contains("matches the node address"));
    let (k, _) = detect_json(&["--method", "kubelet", &f]);
    assert_eq!(k["address"], "10.0.0.5");
}

#[test]
fn d_nic_added_mid_capture_flips_first_found() {
    let f = fx("incident-hotplug.pcap");
    let (t, _) = common::json_of("detect", &["--timeline", &f]);
    let flips = t["nodes"][0]["flips"].as_array().expect("flips");
    assert_eq!(flips.len(), 2, "{flips:?}");
    assert_eq!(flips[0]["after"]["address"], "192.168.10.5/24");
    assert_eq!(flips[1]["before"]["interface"], "ens160");
    assert_eq!(flips[1]["after"]["interface"], "ens19");
    assert!(
        flips[1]["causes"][0]
            .as_str()
            .expect("cause")
            .contains("+ 192.168.100.5/24 on ens19")
    );
    // the flip's packet is where the address was added
    let packet = flips[1]["packet"].as_u64().expect("packet");
    let (before, _) = detect_json(&["--at", &(packet - 1).to_string(), &f]);
    assert_eq!(before["interface"], "ens160");
    let (after, _) = detect_json(&["--at", &packet.to_string(), &f]);
    assert_eq!(after["interface"], "ens19");
}

#[test]
fn e_alias_label_and_the_unanchored_exclude_list() {
    let f = fx("incident-vlan-lo.pcap");
    let (old, _) = detect_json(&["--calico-version", "3.23.3", &f]);
    assert_eq!(old["address"], "10.9.0.2/24");
    let vlan = old["candidates"]
        .as_array()
        .expect("c")
        .iter()
        .find(|c| c["interface"] == "vlan-lo")
        .cloned()
        .expect("vlan-lo");
    assert_eq!(vlan["verdict"], "excluded");
    assert_eq!(vlan["reason"], "excluded by pattern lo");
    let (new, _) = detect_json(&["--calico-version", "3.23.4", &f]);
    assert_eq!(new["address"], "172.20.0.5/24");
    // eth0:1 is a label, invisible to Go: never an interface name
    assert!(!old["candidates"].to_string().contains("eth0:1"));
    let (iface, _) = detect_json(&["--method", "interface=eth0", "--calico-version", "3.23.3", &f]);
    assert_eq!(iface["address"], "10.9.0.2/24");
}

/// A Tigera operator Installation whose IPv4 method is `interface: ens.*`,
/// written to `name` in the test's folder.
fn installation(name: &str) -> std::path::PathBuf {
    common::tmp(
        name,
        "apiVersion: operator.tigera.io/v1\nkind: Installation\nmetadata: {name: default}\nspec:\n  calicoNetwork:\n    nodeAddressAutodetectionV4:\n      interface: ens.*\n",
    )
}

#[test]
fn operator_installation_and_bad_methods() {
    let inst = installation("installation.yaml");
    let (d, _) = detect_json(&[
        "--installation",
        inst.to_str().expect("p"),
        &fx("incident-nerdctl.pcap"),
    ]);
    assert_eq!(d["method"], "interface=ens.*");
    assert_eq!(d["address"], "192.168.10.5/24");
    // (a method calico-node itself rejects is its answer: answers.rs,
    // a_calico_configuration_error_stays_a_replay)
    // A pattern or CIDR that does not compile is nlorder's argument to fix:
    // refused with exit 2 and a one-line reason (not replayed as a result).
    for bad in ["interface=eth(", "cidr=10.0.0.0/33"] {
        let out = common::nlorder(&["detect", "-q", "--method", bad, &fx("incident-nerdctl.pcap")]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(out.stdout.is_empty(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: --method"), "{bad}: {err}");
    }
}

#[test]
fn installation_and_method_together_are_refused() {
    let inst = installation("installation-conflict.yaml");
    let out = common::nlorder(&[
        "detect",
        "--installation",
        inst.to_str().expect("p"),
        "--method",
        "kubelet",
        &fx("incident-nerdctl.pcap"),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "{err}");
    assert!(
        err.starts_with("error:") && err.contains("--installation") && err.contains("--method"),
        "{err}"
    );
}

#[test]
fn a_calico_release_newer_than_any_known_is_said_and_replayed_as_the_newest() {
    let f = fx("incident-nerdctl.pcap");
    let out = common::nlorder(&["detect", "--calico-version", "9.9.9", &f]);
    let (stdout, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{err}");
    let latest = nlorder::replay::calico::Version::LATEST;
    assert!(
        err.lines().any(|l| l.contains("v9.9.9")
            && l.contains("newer than any release nlorder knows")
            && l.contains(&latest.to_string())),
        "{err}"
    );
    let semantics = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("semantics:"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        semantics.contains(&format!("calico-node {latest} ")) && semantics.contains("v9.9.9"),
        "{semantics}"
    );
    // The same with an invalid method (the replay stops before it walks anything).
    let (d, _) = detect_json(&["--calico-version", "4.0", "--method", "firstfound", &f]);
    assert!(
        d["semantics"]
            .as_str()
            .expect("semantics")
            .starts_with(&format!("calico-node {latest} ")),
        "{d}"
    );
    // A release nlorder knows is named as it is, with no warning.
    let out = common::nlorder(&["detect", "--calico-version", "3.22.1", &f]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("newer than"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("semantics: calico-node v3.22.1:"));
}

/// A 15-byte interface name with a five-digit ifindex (recorded here, in a
/// namespace) and an IPv6 /128 keep the candidate columns aligned: every
/// verdict of the interface rows starts in one column, and so does every
/// verdict of the address rows.
#[test]
fn long_interface_names_keep_the_candidate_columns() {
    if !common::can_run_netns(&[]) {
        return;
    }
    let ns = common::Netns::new("longname");
    ns.sh("ip link set lo up
         ip link add name cali0123456789a index 40000 type veth peer name eth0
         ip link set cali0123456789a up
         ip addr add 10.77.0.1/24 dev cali0123456789a
         ip link set eth0 up
         ip addr add 10.78.0.1/24 dev eth0
         ip addr add 2001:db8:ffff:ffff:ffff:ffff:ffff:ffff/128 dev eth0 nodad");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("detect");
    std::fs::create_dir_all(&dir).unwrap();
    let cap = dir.join("longname.pcapng");
    let cap = cap.to_str().unwrap();
    let rec = common::nlorder(&["record", "-q", "--netns", &ns.0, "-w", cap]);
    assert!(rec.status.success(), "{}", String::from_utf8_lossy(&rec.stderr));
    let verdict = regex::Regex::new(r"\s(chosen|excluded|not reached|skipped|rejected|no address)[:\s]").unwrap();
    for family in ["4", "6"] {
        let text = common::stdout_ok(&["detect", "-q", "--family", family, cap]);
        common::assert_has(&text, &["cali0123456789a (ifindex 40000)"]);
        let mut columns = (std::collections::BTreeSet::new(), std::collections::BTreeSet::new());
        for line in text.lines() {
            let at = verdict.find(line).map(|m| m.start());
            if line.starts_with("    ") && !line.starts_with("        ") && line.contains("(ifindex") {
                columns.0.insert(at);
            } else if line.starts_with("        ") {
                columns.1.insert(at);
            }
        }
        assert_eq!(columns.0.len(), 1, "interface verdicts in several columns:\n{text}");
        assert!(columns.1.len() <= 1, "address verdicts in several columns:\n{text}");
    }
}

/// Many captures on several threads: the same stdout and stderr as on one,
/// nodes in argument order; where more than four nodes claim one address,
/// one line says so for all of them.
#[test]
fn many_nodes_on_every_core_answer_in_argument_order() {
    let mut args: Vec<String> = Vec::new();
    let names = [
        "incident-nerdctl.pcap",
        "basic.pcap",
        "incident-dual-nic.pcap",
        "incident-hotplug.pcap",
        "incident-vlan-lo.pcap",
    ];
    // Six copies of one host: six nodes claiming one address.
    for i in 0..6 {
        args.push(format!("same-{i}={}", fx("incident-k8s-node-1.pcap")));
    }
    for (i, n) in names.iter().enumerate() {
        args.push(format!("n{i}={}", fx(n)));
    }
    let run = |jobs: &str| {
        let mut a: Vec<&str> = vec!["detect", "-j", jobs];
        a.extend(args.iter().map(String::as_str));
        let out = common::nlorder(&a);
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    };
    let one = run("1");
    for jobs in ["2", "5"] {
        assert_eq!(run(jobs), one, "-j {jobs}");
    }
    let (out, err, code) = one;
    assert_eq!(code, Some(1), "a conflict: {err}");
    let labelled: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix('[').and_then(|l| l.split(']').next()))
        .collect();
    let mut order: Vec<&str> = labelled.clone();
    order.dedup();
    assert_eq!(
        order,
        [
            "same-0", "same-1", "same-2", "same-3", "same-4", "same-5", "n0", "n1", "n2", "n3", "n4"
        ]
    );
    // The summaries on stderr in the same order.
    let summaries: Vec<usize> = names.iter().filter_map(|n| err.find(n)).collect();
    assert!(summaries.windows(2).all(|w| w[0] < w[1]), "{err}");
    let conflicts: Vec<&str> = out.lines().filter(|l| l.contains("CONFLICT")).collect();
    assert_eq!(conflicts.len(), 1, "{out}");
    assert!(
        conflicts[0].contains("6 nodes claim IPv4")
            && conflicts[0].contains("'same-1', 'same-2', 'same-3', 'same-4', 'same-5' would each log")
            && conflicts[0].contains("Calico node 'same-0' is already using"),
        "{}",
        conflicts[0]
    );
}
