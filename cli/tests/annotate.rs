//! `nlorder annotate` on real captures, read back by Wireshark's tshark:
//! every record comes back with the same bytes, lengths, times and link
//! types, and the comments stand where the facts are: each change
//! `timeline` lists, each request and the end of its answer as `who`
//! lists them, the problems of truncated records, records of another
//! netlink family; nothing on records with nothing to say; comments a
//! record already had are kept.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A path for this test's output (removed by the test that made it).
fn out_path(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("nlorder-annotate-{}-{tag}.pcapng", std::process::id()))
}

fn annotate(input: &Path, output: &Path) {
    let out = common::nlorder(&[
        "annotate",
        "-q",
        input.to_str().unwrap(),
        "-w",
        output.to_str().unwrap(),
    ]);
    common::assert_ok(&out, format_args!("annotate {}", input.display()));
}

/// Per frame: number, time, length on the wire, captured length, link
/// type as tshark reads them.
fn frames(path: &Path) -> Vec<String> {
    common::tshark(
        path,
        &[
            "-T",
            "fields",
            "-e",
            "frame.number",
            "-e",
            "frame.time_epoch",
            "-e",
            "frame.len",
            "-e",
            "frame.cap_len",
            "-e",
            "frame.encap_type",
        ],
    )
    .lines()
    .map(str::to_owned)
    .collect()
}

/// The comments of each commented frame, as tshark joins them (`,`).
fn comments(path: &Path) -> BTreeMap<u64, String> {
    common::tshark(
        path,
        &[
            "-Y",
            "frame.comment",
            "-T",
            "fields",
            "-e",
            "frame.number",
            "-e",
            "frame.comment",
        ],
    )
    .lines()
    .map(|l| {
        let (n, c) = l.split_once('\t').expect("number and comment");
        (n.parse().expect("frame number"), c.to_owned())
    })
    .collect()
}

fn json_lines(args: &[&str]) -> Vec<Value> {
    let out = common::nlorder(args);
    let err = String::from_utf8_lossy(&out.stderr);
    if args.first() == Some(&"timeline") && out.status.code() == Some(2) && err.contains("no rtnetlink data") {
        // nothing to rebuild: no change to find
        return Vec::new();
    }
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// `decode --format json` without the byte offsets (the containers differ).
fn decoded(path: &Path) -> Vec<Value> {
    json_lines(&["decode", "-q", "--format", "json", path.to_str().unwrap()])
        .into_iter()
        .map(|mut m| {
            m.as_object_mut().unwrap().remove("offset");
            m
        })
        .collect()
}

/// Annotates `name` and checks the output against the input and the
/// comments against `timeline` and `who`; returns the comments.
fn check(name: &str) -> BTreeMap<u64, String> {
    let input = common::fixture(name);
    let output = out_path(&name.replace('/', "_"));
    annotate(&input, &output);

    // the records: as many, the same lengths, times and link types; the
    // same bytes (tshark's hex dump) and the same messages (decode)
    let (a, b) = (frames(&input), frames(&output));
    assert!(!a.is_empty(), "{name}");
    assert_eq!(a, b, "{name}: frames");
    assert_eq!(
        common::tshark(&input, &["-x"]),
        common::tshark(&output, &["-x"]),
        "{name}: bytes"
    );
    assert_eq!(decoded(&input), decoded(&output), "{name}: messages");

    let comments = comments(&output);
    let at = |p: u64| comments.get(&p).map(String::as_str).unwrap_or("");

    // every change timeline lists, on its packet; or, where the pass
    // learnt it later, on a later one naming that packet
    let mut changes = 0;
    for e in json_lines(&["timeline", "-q", "--format", "json", input.to_str().unwrap()]) {
        let kind = e["event"].as_str().unwrap();
        if kind == "looked" || kind == "end" {
            continue;
        }
        let p = e["packet"].as_u64().unwrap();
        let text = e["text"].as_str().unwrap();
        let later = format!("{text} (listed at packet {p} by `nlorder timeline`)");
        assert!(
            at(p).contains(&format!("nlorder: {text}")) || comments.range(p..).any(|(_, c)| c.contains(&later)),
            "{name}: packet {p} has no comment `{text}`: {:?}",
            at(p)
        );
        if kind == "dump_applied" && text.ends_with("as predicted") {
            assert!(at(p).contains(", as predicted"), "{name} packet {p}");
        }
        changes += 1;
    }

    // every request and the end of its answer, as who lists them
    let who = common::json_of("who", &[input.to_str().unwrap()]).0;
    for r in who["requests"].as_array().unwrap() {
        let p = r["packet"].as_u64().unwrap();
        let seq = r["seq"].as_u64().unwrap();
        assert!(
            at(p).contains(&format!("bytes, seq {seq}: who sent it is said where its answer ends")),
            "{name}: request in packet {p}: {:?}",
            at(p)
        );
        if let Some(end) = r["end_packet"].as_u64() {
            let said = at(end);
            assert!(
                said.contains("end of the answer to the ")
                    && said.contains(&format!(" in packet {p}"))
                    && said.contains(r["evidence"].as_str().unwrap()),
                "{name}: the answer to packet {p} ends in {end}: {said:?}"
            );
        }
    }

    // records with nothing to say: notifications that changed nothing
    let changed: std::collections::BTreeSet<u64> =
        json_lines(&["timeline", "-q", "--format", "json", input.to_str().unwrap()])
            .iter()
            .map(|e| e["packet"].as_u64().unwrap())
            .collect();
    let mut by_packet: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
    for m in decoded(&input) {
        by_packet.entry(m["packet"].as_u64().unwrap()).or_default().push(m);
    }
    let last = a.len() as u64;
    let mut silent = 0;
    for (p, msgs) in &by_packet {
        let notifications = msgs.iter().all(|m| m["pid"] == 0 && m["request"] == false);
        if notifications && !changed.contains(p) && *p != last {
            // at most the model's warnings about it
            let said = at(*p);
            assert_eq!(
                said.matches("nlorder: ").count(),
                said.matches("nlorder: warning: ").count(),
                "{name}: packet {p} changed nothing: {said:?}"
            );
            silent += 1;
        }
    }
    eprintln!(
        "{name}: {} of {} records commented, {changes} changes found, {silent} quiet notifications",
        comments.len(),
        a.len()
    );
    let _ = std::fs::remove_file(&output);
    comments
}

#[test]
fn comments_stand_where_the_facts_are() {
    if !common::have_tool("tshark") {
        return;
    }
    // the hot-plug incident: kernel rules at the new link, each device's at
    // the notification that shows them (veth-ens19's at 15, ens19's after
    // veth-ens19's link message, at 18)
    let c = check("incident-hotplug.pcap");
    assert!(
        c[&15].contains("nlorder: + route fe80::/64 dev veth-ens19 table main (by the kernel: ipv6-link-local-route)"),
        "{:?}",
        c.get(&15)
    );
    assert!(
        c[&18].contains("nlorder: + route fe80::/64 dev ens19 table main (by the kernel: ipv6-link-local-route)"),
        "{:?}",
        c.get(&18)
    );
    assert!(c[&7].contains("nlorder: = dump #5 of addresses (family unspec): 5 entries, as predicted"));
    assert!(c[&7].contains("nlorder: end of the answer to the dump request for addresses in packet 5, port 2870"));
    assert!(
        !c.contains_key(&16) && !c.contains_key(&19),
        "notifications that changed nothing: {c:?}"
    );

    // a real 6.12 kernel: refused requests, requests acknowledged by the next record
    let c = check("kernels/6.12/refused.l1.pcap");
    assert!(
        c.values().any(|v| v.contains("! refused: ") && v.contains("EEXIST")),
        "{c:?}"
    );
    // a CNI plugin's requests, each acknowledged by the next record: on the
    // acknowledgement, where the change took effect (as `timeline` lists it)
    let c = check("daemons/6.1/cni-ptp.l0.pcap");
    assert!(
        c[&10].contains("nlorder: + 10.5.0.1/32 on veth53d37f6d (inet #1 on the link)"),
        "{c:?}"
    );
    assert!(!c.get(&9).is_some_and(|v| v.contains("10.5.0.1/32 on")), "{c:?}");

    // pcapng, two sections (interface ids restart): two hosts' recordings
    // joined, said where the second starts
    let c = check("pcapng/two-sections.pcapng");
    assert!(c.values().any(|v| v.contains("another recording starts")), "{c:?}");

    // gzip; a dump of glibc's that stops mid-answer: the end of the capture
    check("derived/notify-addr.pcap.gz");
    let c = check("looks/6.12/gai-native.l0.pcap");
    let last = c.last_key_value().unwrap().1;
    common::assert_has(last, &["nlorder: at the end of the capture: "]);
    assert!(
        c.values()
            .any(|v| v.contains("sent by glibc getaddrinfo (__check_pf) (certain)"))
    );
}

/// Bytes nlorder skipped: each truncated record with messages says how
/// many bytes it lost; records of another netlink family say they were
/// not read.
#[test]
fn problems_and_skipped_records_are_said() {
    if !common::have_tool("tshark") {
        return;
    }
    let c = check("derived/basic-snap100.pcap");
    let input = common::fixture("derived/basic-snap100.pcap");
    let mut truncated = 0;
    for line in frames(&input) {
        let f: Vec<&str> = line.split('\t').collect();
        if f[2] != f[3] {
            let p: u64 = f[0].parse().unwrap();
            let said = c.get(&p).map(String::as_str).unwrap_or("");
            assert!(
                said.contains(&format!(
                    "nlorder: problem: record truncated (captured {} of {} bytes",
                    f[3], f[2]
                )),
                "packet {p}: {said:?}"
            );
            truncated += 1;
        }
    }
    assert!(truncated > 3, "only {truncated} truncated records");

    let c = check("third-party/xtcp2__4_19_319__4_19_319_tcp_10_sockets.pcap");
    let n = frames(&common::fixture(
        "third-party/xtcp2__4_19_319__4_19_319_tcp_10_sockets.pcap",
    ))
    .len();
    assert_eq!(c.len(), n);
    assert!(
        c.values()
            .all(|v| v == "nlorder: not read: netlink family 4 (sock_diag); only NETLINK_ROUTE (0) is decoded"),
        "{c:?}"
    );
}

/// A record's own comments stay, ours come after them: annotating an
/// annotated capture again keeps the first comments and adds the same
/// ones (nothing in the capture changed).
#[test]
fn comments_already_there_are_kept() {
    if !common::have_tool("tshark") {
        return;
    }
    let input = common::fixture("incident-hotplug.pcap");
    let (once, twice) = (out_path("once"), out_path("twice"));
    annotate(&input, &once);
    annotate(&once, &twice);
    let (a, b) = (comments(&once), comments(&twice));
    assert!(a.len() > 20);
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (p, c) in &a {
        assert_eq!(b[p], format!("{c},{c}"), "packet {p}");
    }
    assert_eq!(frames(&once), frames(&twice));
    let _ = std::fs::remove_file(&once);
    let _ = std::fs::remove_file(&twice);
}

/// stdin to stdout gives the file a path gives; the capture being read is
/// never written over (a link to it neither), and nothing is left behind
/// when the input cannot be read.
#[test]
fn stdin_stdout_and_refusals() {
    let input = common::fixture("derived/notify-addr.pcap.gz");
    let file = out_path("file");
    annotate(&input, &file);
    let piped = Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .args(["annotate", "-q", "-", "-w", "-"])
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .expect("run nlorder");
    assert!(piped.status.success());
    assert_eq!(piped.stdout, std::fs::read(&file).unwrap());
    let _ = std::fs::remove_file(&file);

    let copy = out_path("copy").with_extension("pcap");
    std::fs::copy(common::fixture("basic.pcap"), &copy).unwrap();
    let link = out_path("link").with_extension("pcap");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&copy, &link).unwrap();
    for target in [&copy, &link] {
        let out = common::nlorder(&["annotate", "-q", copy.to_str().unwrap(), "-w", target.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("is the capture being read"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(common::fixture("basic.pcap")).unwrap()
    );
    let _ = std::fs::remove_file(&link);
    let _ = std::fs::remove_file(&copy);

    let garbage = out_path("garbage");
    let out = common::nlorder(&[
        "annotate",
        "-q",
        common::fixture("third-party/nldecap__garbage").to_str().unwrap(),
        "-w",
        garbage.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!garbage.exists());
}
