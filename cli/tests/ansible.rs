//! Ansible's default address facts against real Ansible: each host of
//! fixtures/ansible/ was recorded in a namespace, then Debian's
//! ansible-core gathered its network facts in the same namespace
//! (`record.sh ansible`; `NAME.facts.json` holds `ansible_default_ipv4`,
//! `ansible_default_ipv6` and the first line of the `ip route get` each
//! comes from). `nlorder detect --method ansible` must give the fact's
//! address and interface from the capture alone, and where the fact is
//! empty, no address and the error `ip` printed.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use serde_json::Value;

#[test]
fn ansible_default_address_equals_real_ansibles() {
    let dir = common::fixture("ansible");
    let mut checked = 0;
    let mut unknown = 0;
    for f in common::files_ending(&dir, ".facts.json") {
        let real: Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        let capture = f.to_string_lossy().replace(".facts.json", ".pcap");
        for (family, key, route_get) in [
            ("4", "ansible_default_ipv4", "route_get4"),
            ("6", "ansible_default_ipv6", "route_get6"),
        ] {
            let fact = &real["setup"]["ansible_facts"][key];
            let out = common::nlorder(&[
                "detect", "-q", "--method", "ansible", "--family", family, "--format", "json", &capture,
            ]);
            assert!(
                out.status.success() || out.status.code() == Some(1),
                "{capture}: {out:?}"
            );
            let got: Value = serde_json::from_slice(&out.stdout).unwrap();
            let node = &got["nodes"][0];
            let what = format!("{capture} IPv{family}");
            // A default of several next hops: the kernel hashes the flow to
            // one, which no capture shows. nlorder says unknown there (and
            // only there), never another answer.
            let error = node["error"].as_str().unwrap_or_default();
            let notes = node["notes"].to_string();
            let multipath = capture.ends_with("multipath.pcap");
            if error.starts_with("unknown:") {
                assert!(multipath, "{what}: unknown where Ansible answered {fact}");
                assert!(node["address"].is_null(), "{what}");
                unknown += 1;
                continue;
            }
            match fact["address"].as_str() {
                Some(address) => {
                    let ours = node["address"].as_str().unwrap_or_default();
                    assert_eq!(ours.split('/').next(), Some(address), "{what}: address");
                    if node["interface"].is_null() && notes.contains("interface unknown") {
                        assert!(
                            multipath,
                            "{what}: interface unknown where Ansible named {}",
                            fact["interface"]
                        );
                        unknown += 1;
                    } else {
                        assert_eq!(node["interface"], fact["interface"], "{what}: interface");
                    }
                }
                None => {
                    assert!(
                        node["address"].is_null(),
                        "{what}: Ansible's fact is empty, nlorder said {node}"
                    );
                    let line = real[route_get].as_str().unwrap();
                    assert!(line.starts_with("RTNETLINK answers: "), "{what}: {line}");
                    let error = node["error"].as_str().unwrap_or_default();
                    assert!(
                        error.contains(line),
                        "{what}: `ip` printed {line:?}; nlorder said {error:?}"
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "fixtures/ansible shrank: {checked} answers");
    assert_eq!(
        unknown, 2,
        "the multipath host's interface (IPv4) and answer (IPv6) are unknown"
    );
}

/// Ansible asks with `ip route get`, not a dump: `--at auto` finds no look
/// of it and says so, rather than taking a Go program's look.
#[test]
fn at_auto_says_ansible_asks_with_one_request() {
    let capture = common::fixture("incident-hotplug.pcap");
    let capture = capture.to_str().unwrap();
    let text = common::stdout_ok(&["detect", "-q", "--method", "ansible", "--at", "auto", capture]);
    common::assert_has(&text, &["asks with one request (`ip route get`)"]);
    let out = common::nlorder(&["detect", "-q", "--method", "kubelet", "--at", "auto", capture]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("no Go program looked"));
}

/// The same unknown, said by every replay that asks the kernel for a
/// source (calico-node's can-reach, flannel's --iface-can-reach, the
/// address sort): a default of several next hops without `src` has a
/// source the capture does not show, not "no usable address".
#[test]
fn a_source_behind_several_next_hops_is_unknown_everywhere() {
    let capture = common::fixture("ansible/multipath.pcap");
    let capture = capture.to_str().unwrap();
    let dst = "2404:6800:400a:800::1012";
    let method = format!("can-reach={dst}");
    for args in [
        vec!["detect", "-q", "--family", "6", "--method", &method, capture],
        vec![
            "detect",
            "-q",
            "--family",
            "6",
            "--method",
            "flannel",
            "--iface-can-reach",
            dst,
            capture,
        ],
        vec!["gai", "-q", capture, dst, "8.8.8.8"],
    ] {
        let text = common::stdout_ok(&args);
        assert!(text.contains("several next hops"), "{args:?}: {text}");
        assert!(!text.contains("no usable address"), "{args:?}: {text}");
    }
}
