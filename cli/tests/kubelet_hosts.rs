//! `detect --method kubelet --hosts FILE [--host-conf FILE]`: kubelet's
//! step 3 with the node name looked up in a hosts file and sorted as
//! glibc's getaddrinfo sorts it on the captured host, in one command; on
//! the recorded alias incident, and against the real glibc in a namespace
//! this test creates.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::fx;

use std::net::IpAddr;
use std::path::Path;

use common::Netns;

/// kubelet's answer and the order its step-3 note shows.
fn kubelet(capture: &str, hosts: &str, host_conf: &str, at: Option<&str>) -> (String, String) {
    let mut args = vec!["--method", "kubelet", "--hosts", hosts, "--host-conf", host_conf];
    if let Some(at) = at {
        args.extend(["--at", at]);
    }
    args.push(capture);
    let (d, code) = common::json_of("detect", &args);
    assert_eq!(code, Some(0), "{d}");
    let n = &d["nodes"][0];
    let note = n["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|x| x.as_str())
        .find(|x| x.contains("glibc's getaddrinfo sorts them"))
        .unwrap_or_else(|| panic!("no sort note: {n}"))
        .to_owned();
    (n["address"].as_str().expect("address").to_owned(), note)
}

#[test]
fn the_alias_incident_in_one_command() {
    let cap = format!("node1={}", fx("incident-gai-alias.pcap"));
    let (hosts, conf) = (fx("incident-gai-alias.hosts"), fx("incident-gai-alias.host.conf"));
    // What getent ahosts node1 printed on that host after the alias came.
    let after = std::fs::read_to_string(fx("incident-gai-alias.after.getent")).expect("getent");
    let glibc_first: IpAddr = after
        .split_whitespace()
        .next()
        .expect("first")
        .parse()
        .expect("address");
    let (address, note) = kubelet(&cap, &hosts, &conf, None);
    assert_eq!(address, glibc_first.to_string(), "{note}");
    common::assert_has(
        &note,
        &["172.18.45.2, 172.18.45.100; glibc's getaddrinfo sorts them 172.18.45.100, 172.18.45.2"],
    );
    assert!(note.contains("rule 9"), "the swap's rule is shown: {note}");
    // Before the alias (packet 11, fixtures/incidents.nlorder.toml) the
    // file's order stood.
    let (address, _) = kubelet(&cap, &hosts, &conf, Some("11"));
    assert_eq!(address, "172.18.45.2");
}

#[test]
fn hosts_is_kubelets_and_excludes_resolved() {
    let f = fx("incident-gai-alias.pcap");
    let hosts = fx("incident-gai-alias.hosts");
    let out = common::nlorder(&["detect", "--hosts", &hosts, &f]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--hosts is kubelet's"));
}

/// Python's getaddrinfo with Go's cgo hints, as kubelet's net.LookupIP
/// asks (AF_UNSPEC, AI_CANONNAME | AI_V4MAPPED | AI_ALL).
const GETADDRINFO: &str = r#"import socket, sys
r = socket.getaddrinfo(sys.argv[1], None, 0, socket.SOCK_STREAM, 0,
                       socket.AI_CANONNAME | socket.AI_V4MAPPED | socket.AI_ALL)
print(' '.join(a[4][0] for a in r))
"#;

#[test]
fn agrees_with_real_glibc_in_a_namespace() {
    if !common::can_run_netns(&["unshare", "getent", "python3"]) {
        return;
    }
    let root =
        common::TempDir(Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("kubelet-hosts-{}", std::process::id())));
    std::fs::create_dir_all(&root.0).unwrap();
    std::fs::copy(fx("incident-gai-alias.hosts"), root.0.join("hosts")).unwrap();
    std::fs::copy(fx("incident-gai-alias.host.conf"), root.0.join("host.conf")).unwrap();
    std::fs::write(root.0.join("nsswitch.conf"), "hosts: files\n").unwrap();
    // The incident's host: eth0 with its address, then the eth0:100 alias.
    let ns = Netns::new("kubelethosts");
    ns.sh("ip link set lo up\n\
         ip link add eth0 type veth peer name veth-eth0\n\
         ip link set eth0 up\n\
         ip link set veth-eth0 up\n\
         ip addr add 172.18.45.2/24 dev eth0\n\
         ip route add default via 172.18.45.1 dev eth0\n\
         ip addr add 172.18.45.100/24 dev eth0 label eth0:100");
    let cap = root.0.join("node1.pcap");
    ns.record(&cap).unwrap_or_else(|e| panic!("{e}"));
    let dir = root.0.to_str().unwrap();
    let cgo: Vec<String> = common::in_mounts(&ns, &root.0, &["python3", "-c", GETADDRINFO, "node1"])
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let getent: Vec<String> = common::in_mounts(&ns, &root.0, &["getent", "ahosts", "node1"])
        .lines()
        .filter(|l| l.split_whitespace().nth(1) == Some("STREAM"))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect();
    assert_eq!(
        cgo, getent,
        "both ask glibc; only AI_ADDRCONFIG differs, which an IPv4-only file ignores"
    );
    let (address, note) = kubelet(
        &format!("node1={}", cap.display()),
        &format!("{dir}/hosts"),
        &format!("{dir}/host.conf"),
        None,
    );
    assert_eq!(address, cgo[0], "{note}");
    assert!(
        note.contains(&format!("sorts them {}", cgo.join(", "))),
        "glibc: {cgo:?}; {note}"
    );
}
