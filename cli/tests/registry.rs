//! The program registry end to end: a program added by its replay module,
//! its registry line and its wording file (kube-apiserver) answers on the
//! command line, in JSON and in manifests; an option of another program is
//! refused by what the programs declare they read.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::fx;

#[test]
fn kube_apiserver_answers_on_the_command_line_and_in_json() {
    // basic.pcap: IPv4 and IPv6 default routes via eth0, a /32 on lo.
    let basic = fx("basic.pcap");
    let out = common::nlorder(&["detect", "-q", "--method", "kube-apiserver", &basic]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("kube-apiserver (IPv4) -> 10.9.0.2 on eth0\n"),
        "{text}"
    );
    common::assert_has(&text, &["semantics: kube-apiserver DefaultAdvertiseAddress"]);
    let (d, code) = common::detect_json(&["--method", "kube-apiserver", "--bind-address", "::", &basic]);
    assert_eq!(code, Some(0));
    assert_eq!(
        (&d["method"], &d["address"], &d["interface"], &d["family"]),
        (
            &serde_json::json!("kube-apiserver"),
            &serde_json::json!("2001:db8:1::3"),
            &serde_json::json!("eth0"),
            &serde_json::json!(6)
        ),
        "{d}"
    );
    // A specific bind address is advertised as given.
    let (d, _) = common::detect_json(&["--method", "kube-apiserver", "--bind-address", "10.9.0.2", &basic]);
    assert_eq!(d["address"], "10.9.0.2", "{d}");
    assert!(d["candidates"].as_array().is_some_and(Vec::is_empty), "{d}");
}

#[test]
fn an_option_of_another_program_is_refused_by_the_registry() {
    let basic = fx("basic.pcap");
    for (args, said) in [
        (
            vec!["--method", "flannel", "--bind-address", "10.9.0.2"],
            "--bind-address is kube-apiserver's; it means nothing to --method flannel",
        ),
        (
            vec!["--method", "kube-apiserver", "--iface", "eth0"],
            "--iface is flannel's; it means nothing to --method kube-apiserver",
        ),
        (
            vec!["--method", "etcd", "--advertise-address", "10.9.0.2"],
            "--advertise-address is kubeadm's and kube-apiserver's; it means nothing to --method etcd",
        ),
        (
            vec!["--method", "cidr=10.0.0.0/8", "--node-ip", "10.9.0.2"],
            "--node-ip is kubelet's and k3s's; it means nothing to --method cidr=10.0.0.0/8",
        ),
    ] {
        let mut a = vec!["detect", "-q"];
        a.extend(args.iter().copied());
        a.push(&basic);
        let out = common::nlorder(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
    // Both readers of --advertise-address take it.
    for method in ["kubeadm", "kube-apiserver"] {
        let out = common::nlorder(&[
            "detect",
            "-q",
            "--method",
            method,
            "--advertise-address",
            "10.9.0.2",
            &basic,
        ]);
        assert_eq!(out.status.code(), Some(0), "{method}");
    }
}

#[test]
fn manifests_take_the_same_keys_and_refuse_the_same_options() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("registry");
    std::fs::create_dir_all(&dir).expect("dir");
    let basic = fx("basic.pcap");
    let good = dir.join("good.nlorder.toml");
    std::fs::write(
        &good,
        format!(
            "capture = {basic:?}\n\n[[detect]]\nmethod = \"kube-apiserver\"\nbind_address = \"::\"\n\
             address = \"2001:db8:1::3\"\ninterface = \"eth0\"\n"
        ),
    )
    .expect("write");
    common::check_ok(&[good.to_str().expect("p")]);
    let wrong = dir.join("wrong.nlorder.toml");
    std::fs::write(
        &wrong,
        format!("capture = {basic:?}\n\n[[detect]]\nmethod = \"swarm\"\nbind_address = \"::\"\n"),
    )
    .expect("write");
    let out = common::nlorder(&["check", wrong.to_str().expect("p")]);
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(out.status.code(), Some(0), "{all}");
    common::assert_has(
        &all,
        &["--bind-address is kube-apiserver's; it means nothing to --method swarm"],
    );
}

/// A program's name misspelt is no calico-node method either: refused
/// with the name meant, rather than replayed as calico-node rejecting it.
/// A value calico-node itself rejects, far from every name, is still
/// calico-node's answer (`eth1`, two edits from etcd, included).
#[test]
fn a_misspelt_program_is_refused_with_the_name_meant() {
    let basic = fx("basic.pcap");
    for (typo, meant) in [
        ("kube-apiservr", "kube-apiserver"),
        ("cilum", "cilium"),
        ("kubelt", "kubelet"),
        // Two letters swapped are one slip, not two.
        ("ansibel", "ansible"),
        ("kubeelt", "kubelet"),
    ] {
        let out = common::nlorder(&["detect", "-q", "--method", typo, &basic]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{typo}: {err}");
        assert!(err.contains(&format!("did you mean {meant}?")), "{typo}: {err}");
    }
    for value in ["bogus", "eth1"] {
        let out = common::nlorder(&["detect", "-q", "--method", value, &basic]);
        assert_eq!(out.status.code(), Some(0), "{value}");
        let want = format!("Invalid IP autodetection method: {value}");
        assert!(String::from_utf8_lossy(&out.stdout).contains(&want), "{value}");
    }
}
