//! `nlorder record` in network namespaces this test creates: the capture it
//! writes rebuilds to exactly what `ip -j` shows, notifications recorded
//! with --follow appear in the timeline in order, and tshark decodes the
//! file without errors.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::Netns;
use common::tables::*;
use serde_json::Value;

fn out_path(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("record");
    std::fs::create_dir_all(&dir).expect("dir");
    dir.join(name)
}

fn ip_json(ns: &Netns) -> Value {
    let j = |args: &[&str]| -> Value {
        let mut a = vec!["-n", ns.0.as_str(), "-j"];
        a.extend_from_slice(args);
        let o = Command::new("ip").args(&a).output().expect("ip");
        serde_json::from_slice(&o.stdout).expect("ip json")
    };
    serde_json::json!({
        "link": j(&["-d", "link", "show"]),
        "addr": j(&["addr", "show"]),
        "route4": j(&["-4", "route", "show", "table", "all"]),
        "route6": j(&["-6", "route", "show", "table", "all"]),
    })
}

fn table(path: &Path) -> Value {
    let out = common::nlorder(&["table", "--format", "json", "-q", path.to_str().expect("p")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("json")
}

/// A fresh namespace (named after `tag`) with [`topology`], when this
/// machine can make one (under CI it must).
fn with_topology(tag: &str) -> Option<Netns> {
    if !common::can_run_netns(&[]) {
        return None;
    }
    let ns = Netns::new(tag);
    topology(&ns);
    Some(ns)
}

fn topology(ns: &Netns) {
    ns.sh("ip link set lo up
         sysctl -qw net.ipv4.conf.all.promote_secondaries=1
         ip link add eth0 type veth peer name veth-eth0
         ip link add br0 type bridge
         ip link add mv0 link eth0 type macvlan mode bridge
         ip link set eth0 up
         ip link set veth-eth0 up
         ip link set br0 up
         ip addr add 10.9.0.2/24 dev eth0
         ip addr add 10.9.0.3/24 label eth0:1 dev eth0
         ip addr add 192.168.100.5/24 dev eth0
         ip addr add 2001:db8:1::2/64 dev eth0 nodad
         ip addr add 172.18.45.2/24 dev br0
         ip route add default via 10.9.0.1 dev eth0 src 10.9.0.3
         ip route add 203.0.113.0/24 dev br0 table 100
         ip -6 route add default via 2001:db8:1::1 dev eth0");
}

/// Frame numbers tshark calls malformed (None: tshark missing).
fn tshark_malformed(path: &Path) -> Option<Vec<u64>> {
    if !common::have_tool("tshark") {
        return None;
    }
    let out = Command::new("tshark")
        .args(["-r", path.to_str().expect("p"), "-V"])
        .output()
        .expect("tshark");
    assert!(out.status.success(), "tshark: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Linux rtnetlink"), "not decoded as rtnetlink");
    let mut frame = 0;
    let mut bad = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Frame ") {
            frame = rest.split(':').next().and_then(|n| n.parse().ok()).unwrap_or(0);
        }
        if (line.contains("Malformed") || line.contains("Expert Info (Error")) && bad.last() != Some(&frame) {
            bad.push(frame);
        }
    }
    Some(bad)
}

fn tshark_clean(path: &Path) {
    if let Some(bad) = tshark_malformed(path) {
        assert!(
            bad.is_empty(),
            "tshark reports malformed frames {bad:?} in {}",
            path.display()
        );
    }
}

#[test]
fn recorded_tables_equal_ip_json() {
    let Some(ns) = with_topology("rec") else {
        return;
    };
    for (name, extra) in [("rec.pcap", Some("--pcap")), ("rec.pcapng", None)] {
        let path = out_path(name);
        let mut args = vec![
            "record",
            "-q",
            "--netns",
            ns.0.as_str(),
            "-w",
            path.to_str().expect("p"),
        ];
        args.extend(extra);
        let out = common::nlorder(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let ip = ip_json(&ns);
        let t = table(&path);
        assert_eq!(our_links(&t), ip_links(&ip), "{name}");
        assert_eq!(our_addrs(&t), ip_addrs(&ip), "{name}");
        assert_eq!(our_routes(&t), ip_routes(&ip), "{name}");
        assert!(
            t["warnings"].as_array().expect("w").is_empty(),
            "{name}: {}",
            t["warnings"]
        );
        tshark_clean(&path);
    }
}

#[test]
fn follow_records_changes_in_order() {
    let Some(ns) = with_topology("follow") else {
        return;
    };
    let path = out_path("follow.pcap");
    let mut child = Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .args([
            "record",
            "-q",
            "--follow",
            "--netns",
            &ns.0,
            "-w",
            path.to_str().expect("p"),
        ])
        .stdin(Stdio::null())
        .spawn()
        .expect("spawn");
    std::thread::sleep(Duration::from_millis(500));
    ns.sh("ip link add ens19 type veth peer name veth-ens19
         ip link set ens19 up
         ip addr add 192.168.200.5/24 dev ens19
         ip addr del 10.9.0.2/24 dev eth0
         ip addr add 10.9.0.2/24 dev eth0");
    std::thread::sleep(Duration::from_millis(500));
    // Ctrl-C ends the recording: final dumps, then a complete file.
    let _ = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    let status = child.wait().expect("wait");
    assert!(status.success(), "{status:?}");
    let text = common::stdout_ok(&["timeline", "-q", path.to_str().expect("p")]);
    let expected = [
        "+ link ens19",
        "+ 192.168.200.5/24 on ens19 (new link ens19",
        "- 10.9.0.2/24 eth0: secondary 10.9.0.3 promoted",
        "+ 10.9.0.2/24 on eth0 (secondary",
    ];
    let mut at = 0;
    for e in expected {
        let pos = text[at..]
            .find(e)
            .unwrap_or_else(|| panic!("missing or out of order: {e:?} in\n{text}"));
        at += pos + e.len();
    }
    assert!(
        text.trim_end()
            .lines()
            .last()
            .is_some_and(|l| l.contains("= dump #") && l.contains(" of routes") && l.contains("as predicted")),
        "{text}"
    );
    let ip = ip_json(&ns);
    let t = table(&path);
    assert_eq!(our_addrs(&t), ip_addrs(&ip));
    tshark_clean(&path);
    // --duration ends it too
    let path = out_path("duration.pcapng");
    let out = common::nlorder(&[
        "record",
        "--follow",
        "--duration",
        "300ms",
        "--pcapng",
        "--netns",
        &ns.0,
        "-w",
        path.to_str().expect("p"),
    ]);
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("8 dumps"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn legacy_request_form_and_errors() {
    let Some(ns) = with_topology("rtgen") else {
        return;
    };
    let path = out_path("rtgen.pcap");
    let out = common::nlorder(&[
        "record",
        "-q",
        "--request-form",
        "rtgenmsg",
        "--netns",
        &ns.0,
        "-w",
        path.to_str().expect("p"),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = common::decode_json(&path);
    // (the rule dump is asked for in full whatever the form: Go dumps no rules)
    let reqs: Vec<&Value> = lines
        .iter()
        .filter(|l| l["request"] == true && l["type"] != "RTM_GETRULE")
        .collect();
    assert_eq!(reqs.len(), 3);
    assert!(
        reqs.iter()
            .all(|r| r["len"] == 17 && r["dump_request"]["short_form"] == true)
    );
    assert!(
        lines.iter().any(|l| l["type"] == "RTM_NEWADDR"),
        "the kernel answered the short form"
    );
    // tshark's dissector expects an ifinfomsg after RTM_GETLINK and calls
    // the 17-byte form Go sends malformed; nothing else may be.
    if let Some(bad) = tshark_malformed(&path) {
        let getlink: Vec<u64> = reqs
            .iter()
            .filter(|r| r["type"] == "RTM_GETLINK")
            .filter_map(|r| r["packet"].as_u64())
            .collect();
        assert_eq!(bad, getlink, "only the short RTM_GETLINK may puzzle tshark");
    }
    // a namespace that does not exist: exit 2, one line, no file
    let missing = out_path("missing.pcap");
    let _ = std::fs::remove_file(&missing);
    let out = common::nlorder(&[
        "record",
        "--netns",
        "nlorder-no-such-ns",
        "-w",
        missing.to_str().expect("p"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("network namespace nlorder-no-such-ns not found"));
    assert!(!missing.exists());
    // a path that is a file but no namespace: said so, not "run as root"
    let out = common::nlorder(&["record", "--netns", "/etc/hostname", "-w", missing.to_str().expect("p")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(&err, &["/etc/hostname is not a network namespace"]);
    assert!(!err.contains("root"), "{err}");
    // the namespace's own file works as well as its name
    let by_path = out_path("by-path.pcap");
    let out = common::nlorder(&[
        "record",
        "--netns",
        &format!("/run/netns/{}", ns.0),
        "-w",
        by_path.to_str().expect("p"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // an unwritable destination
    let out = common::nlorder(&["record", "-w", "/proc/nlorder-cannot-write.pcap"]);
    assert_eq!(out.status.code(), Some(2));
    // a full disk: said, with what is left
    let out = common::nlorder(&["record", "--netns", &ns.0, "-w", "/dev/full"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(
        &err,
        &["No space left on device", "readable up to the last complete record"],
    );
}

/// pcapng files name the kernel they were recorded on (`shb_os`, as dumpcap
/// writes it); Wireshark's capinfos reads it back, and nlorder uses that
/// kernel's rules when reading the file.
#[test]
fn pcapng_names_the_kernel_and_readers_use_it() {
    if !common::have_tool("capinfos") {
        return;
    }
    let path = out_path("shb-os.pcapng");
    // pcapng is the default: the kernel release is kept without asking
    let out = common::nlorder(&["record", "-w", path.to_str().expect("p")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").expect("osrelease");
    let info = Command::new("capinfos").arg(&path).output().expect("capinfos");
    let info = String::from_utf8_lossy(&info.stdout);
    assert!(
        info.lines()
            .any(|l| l.contains("oper-sys") && l.trim_end().ends_with(&format!("Linux {}", release.trim()))),
        "{info}"
    );
    let t = table(&path);
    assert_eq!(t["kernel_order"]["source"], "kernel", "{}", t["kernel_order"]);
    let version = t["kernel_order"]["version"].as_str().expect("version");
    common::assert_has(version, &["shb_os"]);
    // the release's rule: link dumps ascend from 6.9 on, walk hash buckets before
    let v: Vec<u32> = release
        .split(['.', '-'])
        .take(2)
        .filter_map(|x| x.parse().ok())
        .collect();
    let want = if (v[0], v[1]) >= (6, 9) { "ascending" } else { "buckets" };
    assert_eq!(t["kernel_order"]["links"], want);
}

/// Like tcpdump's "listening on": a line on stderr says what is recorded,
/// where, in which format (pcapng names the kernel, pcap cannot) and how it
/// ends; `-q` silences it.
#[test]
fn recording_says_when_it_starts() {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").expect("osrelease");
    let path = out_path("start-line.pcapng");
    let p = path.to_str().expect("p");
    let out = common::nlorder(&["record", "--follow", "--duration", "200ms", "-w", p]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let first = err.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!(
            "nlorder: recording links, addresses, routes and rules of this network namespace into {p} (pcapng, kernel {} in its section header): then notifications for 200ms (Ctrl-C to stop sooner)",
            release.trim()
        )
    );
    let out = common::nlorder(&["record", "--pcap", "-w", p]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("(pcap, which cannot name the kernel): the dumps only"));
    let out = common::nlorder(&["record", "-q", "-w", p]);
    assert!(out.stderr.is_empty());
}
