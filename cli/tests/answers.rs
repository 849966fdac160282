//! Right answers for every input a user gives, and a clear refusal for
//! wrong ones: each case here failed (or answered wrongly) once.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::{fx, tmp};

use std::path::PathBuf;

/// Exit status and stderr of a run whose stdout must stay empty.
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let out = common::nlorder(args);
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {}",
        String::from_utf8_lossy(&out.stdout)
    );
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Exit status and stderr of a `check` whose one manifest cannot be run:
/// its results are that one ERROR (each manifest is reported, so that one
/// broken manifest does not hide the others' results).
fn check_refused(args: &[&str]) -> (Option<i32>, String) {
    let out = common::nlorder(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("ERROR ") && stdout.trim_end().ends_with("0 passed, 0 failed, 1 error"),
        "{args:?} printed {stdout}"
    );
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn mistakes_in_detect_arguments_are_refused_with_one_line() {
    let f = fx("incident-nerdctl.pcap");
    for (args, says) in [
        (
            vec!["--method", "kubernetes-internal-ip"],
            "needs the Node's InternalIP",
        ),
        (
            vec![
                "--method",
                "kubernetes-internal-ip",
                "--node-internal-ip",
                "node-9=10.0.0.1",
            ],
            "no --node-internal-ip is for node incident-nerdctl",
        ),
        (vec!["--method", "cidr=10.0.0.0/33"], "is not a CIDR"),
        (vec!["--method", "interface=eth("], "invalid pattern"),
        (vec!["--expect", "banana"], "'banana' is not an address"),
        (vec!["--expect", "10.0.0.1", "--all"], "cannot be used with '--all'"),
        (vec!["--iface", "eth0"], "--iface is flannel's"),
        (vec!["--resolved", "10.0.0.1"], "--resolved is kubelet's"),
    ] {
        let mut a = vec!["detect", "-q"];
        a.extend_from_slice(&args);
        a.push(&f);
        let (code, err) = refused(&a);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(says), "{args:?}: {err}");
    }
    let (code, err) = refused(&["detect", "-q", "a=-", "b=-"]);
    assert_eq!(code, Some(2));
    common::assert_has(&err, &["two captures read stdin"]);
    let (code, err) = refused(&["detect", "-q", &f, &f]);
    assert_eq!(code, Some(2));
    common::assert_has(&err, &["two captures are named incident-nerdctl"]);
}

#[test]
fn a_calico_configuration_error_stays_a_replay() {
    // calico-node itself rejects the method: that is the answer, with its message.
    let (d, code) = common::detect_json(&["--method", "eth1", &fx("incident-nerdctl.pcap")]);
    assert_eq!(code, Some(0));
    assert!(
        d["error"]
            .as_str()
            .expect("error")
            .starts_with("Invalid IP autodetection method: eth1")
    );
}

#[test]
fn kubelet_takes_resolved_none() {
    let (d, code) = common::detect_json(&[
        "--method",
        "kubelet",
        "--resolved",
        "none",
        &fx("incident-nerdctl.pcap"),
    ]);
    assert_eq!(code, Some(0), "{d}");
    assert!(
        d["notes"].to_string().contains("resolved to nothing"),
        "step 3 with no answer: {d}"
    );
    // No answers given at all: what the name resolves to is unknown, not nothing.
    let (d, _) = common::detect_json(&["--method", "kubelet", &fx("incident-nerdctl.pcap")]);
    let notes = d["notes"].to_string();
    assert!(
        notes.contains("resolves to is unknown") && !notes.contains("resolved to nothing"),
        "{d}"
    );
}

#[test]
fn manifests_refuse_what_the_command_line_refuses_with_file_and_line() {
    common::tmp_fixture("incident-nerdctl.pcap", "n.pcap");
    // the header carries a trailing comment: the line number must survive it
    let p = tmp(
        "bad-method.nlorder.toml",
        "capture = \"n.pcap\"\n\n[[detect]]  # why this one\nmethod = \"interface=eth(\"\naddress = \"none\"\n",
    );
    let (code, err) = check_refused(&["check", p.to_str().expect("p")]);
    assert_eq!(code, Some(2), "{err}");
    common::assert_has(&err, &["bad-method.nlorder.toml:3: --method interface=eth("]);
    let p = tmp(
        "comment-line.nlorder.toml",
        "capture = \"n.pcap\"\n\n[[detect]]  # why this one\nmethod = \"first-found\"\naddress = \"10.1.1.1\"\n",
    );
    let out = common::nlorder(&["check", "--format", "json", p.to_str().expect("p")]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["results"][0]["line"], 3, "{v}");
}

#[test]
fn a_capture_given_to_check_is_named_as_such() {
    for f in ["basic.pcap", "derived/notify-addr.pcap.gz", "pcapng/basic.pcapng"] {
        let (code, err) = check_refused(&["check", &fx(f)]);
        assert_eq!(code, Some(2), "{f}");
        assert!(err.contains("a capture, not a manifest"), "{f}: {err}");
        assert!(err.contains("nlorder check --update"), "{f}: {err}");
    }
}

#[test]
fn a_manifest_without_expectations_fails_and_says_how_to_record() {
    common::tmp_fixture("basic.pcap", "b.pcap");
    let p = tmp("empty.nlorder.toml", "capture = \"b.pcap\"\n");
    let out = common::nlorder(&["check", p.to_str().expect("p")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    common::assert_has(&text, &["0 passed, 1 failed"]);
    common::assert_has(&text, &["nlorder check --update"]);
}

#[test]
fn times_with_a_utc_offset_of_either_sign_are_the_same_moment() {
    let f = fx("notify-addr.pcap");
    let lines = common::decode_json(std::path::Path::new(&f));
    // a record in the middle of the capture
    let mid = &lines[lines.len() / 2];
    let packet = mid["packet"].as_u64().expect("packet");
    let ns = mid["ts_ns"].as_i64().expect("ts_ns");
    let (secs, frac) = (ns.div_euclid(1_000_000_000), ns.rem_euclid(1_000_000_000));
    let at = |shift: i64, suffix: &str| {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs((secs + shift) as u64);
        let base = humantime::format_rfc3339_seconds(t).to_string();
        format!("{}.{frac:09}{suffix}", base.trim_end_matches('Z'))
    };
    let mut seen = Vec::new();
    for when in [at(0, "Z"), at(3600, "+01:00"), at(-3600, "-01:00"), at(19800, "+05:30")] {
        let (t, code) = common::json_of("table", &["--at", &when, &f]);
        assert_eq!(code, Some(0), "{when}");
        seen.push((when, t["at_packet"].as_u64().expect("at_packet")));
    }
    assert!(
        seen.iter().all(|(_, p)| *p >= packet && *p == seen[0].1),
        "{packet}: {seen:?}"
    );
}

#[test]
fn a_cut_gzip_capture_is_read_as_far_as_it_decompresses() {
    // Like zcat: keep what decompressed, say the stream was cut.
    let gz = std::fs::read(common::fixture("derived/notify-addr.pcap.gz")).expect("read");
    let cut = tmp_bytes("cut.pcap.gz", &gz[..gz.len() * 8 / 10]);
    let out = common::nlorder(&["decode", "--format", "json", cut.to_str().expect("p")]);
    assert_eq!(out.status.code(), Some(0));
    let whole = common::decode_json(&common::fixture("notify-addr.pcap"));
    let got = String::from_utf8_lossy(&out.stdout).lines().count();
    assert!(
        got > whole.len() / 2 && got < whole.len(),
        "{got} of {} messages",
        whole.len()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(&err, &["unexpected end of file: the gzip stream ends early"]);
}

/// A gzip file cut before the capture's header is complete says what
/// `gzip -t` says (unexpected end of file), not "empty file".
#[test]
fn a_gzip_cut_before_the_header_says_unexpected_end_of_file() {
    let gz = std::fs::read(common::fixture("derived/notify-addr.pcap.gz")).expect("read");
    for n in [5, 20, 40] {
        let cut = tmp_bytes(&format!("cut{n}.pcap.gz"), &gz[..n]);
        let out = common::nlorder(&["decode", cut.to_str().expect("p")]);
        assert_eq!(out.status.code(), Some(2), "{n} bytes");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("unexpected end of file"), "{n} bytes: {err}");
        assert!(!err.contains("empty file"), "{n} bytes: {err}");
        if std::process::Command::new("gzip").arg("--version").output().is_ok() {
            let t = std::process::Command::new("gzip")
                .arg("-t")
                .arg(&cut)
                .output()
                .expect("gzip -t");
            assert!(String::from_utf8_lossy(&t.stderr).contains("unexpected end of file"));
        }
    }
}

/// An Ethernet capture (a real one, third-party) is one clear error naming
/// its link type, exit 2, nothing before it, on every subcommand that
/// reads captures.
#[test]
fn an_ethernet_capture_is_one_error_naming_its_link_type() {
    let eth = common::fixture("third-party/nldecap__1pkt_not_netlink_le.pcap");
    let eth = eth.to_str().expect("p");
    let out_file = tmp_bytes("eth-annotated.pcapng", b"");
    let out_path = out_file.to_str().expect("p");
    for args in [
        vec!["decode", eth],
        vec!["who", eth],
        vec!["table", eth],
        vec!["timeline", eth],
        vec!["detect", eth],
        vec!["gai", eth, "10.0.0.1"],
        vec!["annotate", eth, "-w", out_path],
    ] {
        let out = common::nlorder(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("not a netlink capture") && err.contains("link type 1 (Ethernet)"),
            "{args:?}: {err}"
        );
    }
    // and the guide says so: decode and who refuse it too, they list nothing
    let guide = std::fs::read_to_string(common::fixtures().join("../docs/detect.md")).expect("docs/detect.md");
    let guide = guide.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        guide.contains(
            "A capture of another link type (an Ethernet pcap) is the wrong file: every subcommand, \
             `decode` and `who` too, says \"not a netlink capture\", names its link type and exits 2."
        ),
        "docs/detect.md no longer says what an Ethernet capture gets"
    );
}

fn tmp_bytes(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("answers");
    std::fs::create_dir_all(&dir).expect("dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

#[test]
fn kubelet_rows_name_the_interface_index_and_family_6_prefers_ipv6() {
    let f = fx("incident-nerdctl.pcap");
    let (d, _) = common::detect_json(&["--method", "kubelet", "--resolved", "192.168.10.5", &f]);
    assert_eq!(d["candidates"][0]["interface"], "ens160");
    assert_eq!(d["candidates"][0]["index"], 3, "{d}");
    // --family 6 is kubelet's --node-ip ::: prefer IPv6 (this host has none, so IPv4 follows,
    // said, and labelled with the answer's family)
    let (d, _) = common::detect_json(&["--method", "kubelet", "--family", "6", &f]);
    assert_eq!(d["family"], 4, "{d}");
    assert!(d["notes"].to_string().contains("kubelet falls back to IPv4"), "{d}");
    let out = common::nlorder(&[
        "detect",
        "-q",
        "--method",
        "kubelet",
        "--family",
        "6",
        "--node-ip",
        "192.168.10.5",
        &f,
    ]);
    assert_eq!(out.status.code(), Some(2), "a contradiction is refused");
}

#[test]
fn flannel_rows_agree_with_the_choice_of_a_name_pattern() {
    let (d, _) = common::detect_json(&[
        "--method",
        "flannel",
        "--iface-regex",
        "ens.*",
        &fx("incident-nerdctl.pcap"),
    ]);
    assert_eq!(d["interface"], "ens160");
    let rows = d["candidates"].as_array().expect("rows");
    let ens = rows.iter().find(|r| r["interface"] == "ens160").expect("ens160 row");
    assert_eq!(ens["verdict"], "chosen", "{ens}");
    assert!(ens["reason"].as_str().expect("r").contains("name matches"), "{ens}");
    let later = rows
        .iter()
        .find(|r| r["interface"] == "nerdctl0")
        .expect("nerdctl0 row");
    assert_eq!(later["verdict"], "not_reached", "{later}");
}

#[test]
fn a_dump_lists_what_nothing_had_notified_and_disagrees() {
    // Two recordings of one namespace, joined: links, an address and routes
    // appeared in between without any message in the capture.
    let text = common::stdout_ok(&["timeline", "-q", &fx("two-recordings.pcap")]);
    common::assert_has(
        &text,
        &[
            "+ link ens19 (ifindex 3, veth) (never notified",
            "+ link ens20 (ifindex 5, veth) (never notified",
            "+ 10.5.0.1/24 on ens19",
            "= dump #8 of links (family unspec): 5 entries, DISAGREES with the model: 4 changes",
            "= dump #13 of addresses (family unspec): 1 entry, DISAGREES",
            "+ route 10.5.0.0/24 dev ens19 table main (never notified: seen in dump #16)",
        ],
    );
    // the first dumps are the starting state, not news
    let first = text.lines().find(|l| l.contains("= dump")).expect("a line");
    assert!(first.ends_with("as predicted"), "{first}");
    // the same in JSON
    let out = common::nlorder(&["timeline", "-q", "--format", "json", &fx("two-recordings.pcap")]);
    let unnotified = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"unnotified\":true"))
        .count();
    assert_eq!(unnotified, 8, "4 links, 1 address, 3 routes");
    // the two-section pcapng joins two hosts' recordings: the second
    // host's dumps are its starting state, not news about the first
    let text = common::stdout_ok(&["timeline", "-q", &fx("pcapng/two-sections.pcapng")]);
    assert_eq!(text.matches("never notified").count(), 0, "{text}");
    assert!(!text.contains("DISAGREES"), "{text}");
}

/// Recordings of four hosts joined one after another (the first cut off
/// before its closing dump, so its tables end with what notifications
/// showed): each join is said once, in one line, and the next host's dumps
/// are not compared route by route with the tables the previous one left.
#[test]
fn joined_recordings_are_said_once_per_join() {
    let out = common::nlorder(&["table", &fx("v6hosts/joined.pcap")]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    let joins: Vec<&str> = err.lines().filter(|l| l.contains("another recording starts")).collect();
    // (the packets of host01's, host02's and host03's link dump requests)
    let packets: Vec<&str> = joins
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap_or_default())
        .collect();
    assert_eq!(packets, ["17", "27", "37"], "{err}");
    assert!(!err.contains("dump disagrees"), "{err}");
    // what the tables hold is the last host's alone
    let out = common::nlorder(&["table", "-q", &fx("v6hosts/joined.pcap")]);
    let last = common::nlorder(&["table", "-q", &fx("v6hosts/host03.pcap")]);
    let body = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .skip(1)
            .map(|l| l.split("  [").next().unwrap_or_default().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&out), body(&last));
    // one host dumped twice is no join
    let out = common::nlorder(&["table", &fx("two-recordings.pcap")]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("another recording"));
}

#[test]
fn an_operator_quickstart_file_replays_the_operators_default() {
    let p = tmp(
        "custom-resources.yaml",
        "apiVersion: operator.tigera.io/v1\nkind: Installation\nmetadata:\n  name: default\nspec:\n  calicoNetwork:\n    \
         ipPools:\n    - cidr: 192.168.0.0/16\n---\napiVersion: operator.tigera.io/v1\nkind: APIServer\nmetadata:\n  name: default\nspec: {}\n",
    );
    let out = common::nlorder(&[
        "detect",
        "--installation",
        p.to_str().expect("p"),
        &fx("incident-nerdctl.pcap"),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(
        &err,
        &["first-found (nodeAddressAutodetectionV4 not set: the operator's default"],
    );
    let p = tmp(
        "typo.yaml",
        "kind: Installation\nspec:\n  calicoNetwork:\n    nodeAddressAutodetectionV4:\n      interfce: ens.*\n",
    );
    let (code, err) = refused(&[
        "detect",
        "-q",
        "--installation",
        p.to_str().expect("p"),
        &fx("incident-nerdctl.pcap"),
    ]);
    assert_eq!(code, Some(2));
    common::assert_has(&err, &["interfce", "line 5"]);
}

#[test]
fn without_a_link_dump_names_come_from_the_capture_or_are_unknown() {
    // lo is named by its address label: Calico's ^lo exclude applies to it
    let (d, _) = common::detect_json(&[&fx("requests.pcap")]);
    assert_eq!(d["candidates"][0]["interface"], "lo", "{d}");
    assert_eq!(d["candidates"][0]["verdict"], "excluded", "{d}");
    assert!(d["address"].is_null(), "{d}");
    if !common::have_tool("editcap") {
        return;
    }
    // Only the IPv6 notifications of a real recording (records 33-38 of
    // notify-addr.pcap): no link message, no IPv4 label names eth0.
    let cut = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("answers")
        .join("v6-only.pcap");
    std::fs::create_dir_all(cut.parent().expect("dir")).expect("dir");
    let st = std::process::Command::new("editcap")
        .args(["-r", &fx("notify-addr.pcap"), cut.to_str().expect("p"), "33-38"])
        .status()
        .expect("editcap");
    assert!(st.success());
    for method in ["first-found", "interface=eth.*", "interface=if.*"] {
        let (d, _) = common::detect_json(&["--family", "6", "--method", method, cut.to_str().expect("p")]);
        assert_eq!(d["candidates"][0]["verdict"], "name_unknown", "{method}: {d}");
        assert!(d["address"].is_null(), "{method}: an invented name matched: {d}");
    }
}

#[test]
fn update_keeps_the_comments_of_values_it_does_not_change() {
    common::tmp_fixture("incident-nerdctl.pcap", "n.pcap");
    // first-found's answer is right and commented; kubelet's is wrong
    let (doc, _) = common::detect_json(&[&fx("incident-nerdctl.pcap")]);
    let right = doc["address"].as_str().expect("address").to_owned();
    let text = format!(
        "capture = \"n.pcap\"  # the incident\n\n\
         [[detect]]  # what calico-node chose\n\
         method = \"first-found\"  # the default\n\
         address = \"{right}\"  # checked by hand on the node\n\n\
         [[detect]]\n\
         method = \"first-found\"\n\
         address = \"192.0.2.99/32\"  # a stale value\n"
    );
    let p = tmp("comments.nlorder.toml", &text);
    common::check_ok(&["--update", p.to_str().expect("p")]);
    let after = std::fs::read_to_string(&p).expect("read");
    assert!(
        after.contains(&format!("address = \"{right}\"  # checked by hand on the node")),
        "{after}"
    );
    common::assert_has(&after, &["# what calico-node chose", "# the default"]);
    // the stale value is replaced, its comment kept
    assert!(
        after.contains(&format!("address = \"{right}\"  # a stale value")),
        "{after}"
    );
}

#[test]
fn timeline_names_devices_tables_and_dumps_as_the_table_does() {
    let f = fx("two-recordings.pcap");
    let out = common::nlorder(&["timeline", "-q", "--format", "json", &f]);
    let events: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    let route = events
        .iter()
        .find(|e| e["event"] == "route_added" && e["detail"]["dst"] == "10.5.0.0/24")
        .expect("route event");
    assert_eq!(route["detail"]["table"], "main", "{route}");
    assert_eq!(route["detail"]["oif"], "ens19", "{route}");
    // the table says the same of the same route
    let (t, _) = common::json_of("table", &[&f]);
    let r = t["routes"]
        .as_array()
        .expect("routes")
        .iter()
        .find(|r| r["dst"] == "10.5.0.0/24")
        .expect("route in table")
        .clone();
    assert_eq!(
        (&r["table"], &r["oif"]),
        (&route["detail"]["table"], &route["detail"]["oif"])
    );
    // one number for one dump: the event, what it revealed, the entries it gave
    let dump = events
        .iter()
        .find(|e| e["event"] == "dump_applied" && e["detail"]["kind"] == "routes" && e["detail"]["revealed"] != 0)
        .expect("dump");
    assert_eq!(
        route["detail"]["dump_packet"], dump["detail"]["dump_packet"],
        "{route}\n{dump}"
    );
    assert_eq!(r["origin_packet"], dump["detail"]["dump_packet"], "{r}");
    // positions count from 1, as the text's "#1 on the link"
    let addr = events.iter().find(|e| e["event"] == "addr_added").expect("addr");
    assert_eq!(addr["detail"]["position"], 1, "{addr}");
    assert!(
        addr["text"].as_str().expect("text").contains("#1 on the link"),
        "{addr}"
    );
}

#[test]
fn answers_say_the_moment_and_moments_outside_the_capture_are_warned() {
    let f = fx("basic.pcap");
    // inside: said, no warning
    let out = common::nlorder(&["detect", "-q", "--at", "5", &f]);
    let text = String::from_utf8_lossy(&out.stdout);
    common::assert_has(&text, &["at: packet 5, 2026-"]);
    common::assert_has(&text, &["(--at 5)"]);
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = common::nlorder(&["gai", "-q", &fx("incident-gai-alias.pcap"), "172.18.45.2", "10.0.0.1"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("(the end of the capture)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // after the end and before the start: a warning with the capture's range, even with -q
    for (cmd, at, says) in [
        (
            "table",
            "99999",
            "is after the capture (packet 1, 2026-11-21T19:47:09.595961Z to packet 10",
        ),
        ("detect", "99999", "is after the capture"),
        ("gai", "99999", "is after the capture"),
        ("table", "2020-01-01T00:00:00Z", "is before the capture (from packet 1"),
    ] {
        let mut args = vec![cmd, "-q", "--at", at, &f];
        if cmd == "gai" {
            args.extend(["10.0.0.1", "10.0.0.2"]);
        }
        let out = common::nlorder(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{cmd} --at {at}: {err}");
        assert_eq!(out.status.code(), Some(0), "{cmd}: a warning, not an error");
    }
    // --expect does not pass on a moment the capture does not hold
    let out = common::nlorder(&["detect", "-q", "--at", "99999", "--expect", "172.18.45.2/24", &f]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let out = common::nlorder(&["detect", "-q", "--at", "10", "--expect", "172.18.45.2/24", &f]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // nor does check
    common::tmp_fixture("basic.pcap", "outside.pcap");
    let p = tmp(
        "outside.nlorder.toml",
        "capture = \"outside.pcap\"\n[[detect]]\nmethod = \"first-found\"\nat = 99999\naddress = \"172.18.45.2/24\"\n",
    );
    let out = common::nlorder(&["check", p.to_str().expect("p")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    common::assert_has(&text, &["at = 99999 is after the capture"]);
}

fn run(args: &[&str]) -> (String, String) {
    let out = common::nlorder(args);
    assert!(
        out.status.code() == Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The words of the second pass of the habits list, each on a real capture.
#[test]
fn counts_names_and_moments_read_as_written() {
    let fx = |n: &str| common::fixture(n).to_str().unwrap().to_owned();
    // one of a thing is singular
    let (_, err) = run(&[
        "decode",
        &fx("third-party/xtcp2__4_19_319__netlink_sock_diag_response_dump_done.pcap"),
    ]);
    assert!(
        err.starts_with("nlorder: 1 record read (pcap), 0 NETLINK_ROUTE records, 0 messages decoded;"),
        "{err}"
    );
    let (out, _) = run(&["timeline", "-q", &fx("notify-order.pcap")]);
    common::assert_has(&out, &["= dump #1 of links (family unspec): 1 entry, as predicted"]);
    // a program no rule names is said once, not "unknown (unknown)"
    let (out, _) = run(&["who", "-q", &fx("incident-dual-nic.pcap")]);
    assert!(!out.contains("unknown (unknown)"), "{out}");
    common::assert_has(&out, &["a program no rule names, port 2814, packet 1;"]);
    // the message's own label names the device no link message named yet
    let (out, _) = run(&["decode", "-q", &fx("third-party/nldecap__two_packets_le.pcap")]);
    assert!(out.contains(" 1: lo inet 127.0.0.1/8") && !out.contains("if1"), "{out}");
    // the links' header does not say "no dump" above links from a dump
    let (out, _) = run(&["table", "-q", &fx("notify-addr.pcap")]);
    common::assert_has(
        &out,
        &["# links (kernel order ascending, assumed: the link dump does not tell which)"],
    );
    assert!(!out.contains("no dump could tell"));
    // a packet number past the end names no time to run timers on to
    let (_, err) = run(&["table", &fx("notify-addr.pcap"), "--at", "999"]);
    assert!(
        err.contains("--at 999 is after the capture") && !err.contains("run on to 999"),
        "{err}"
    );
    let (out, _) = run(&["table", "-q", &fx("notify-addr.pcap"), "--at", "0"]);
    assert!(
        out.starts_with("# tables at the start, before the first packet"),
        "{out}"
    );
    // timeline JSON names changes as the filter does
    let (out, _) = run(&["timeline", "-q", "--format", "json", &fx("incident-hotplug.pcap")]);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let names: std::collections::BTreeSet<&str> = lines.iter().map(|l| l["change"].as_str().unwrap()).collect();
    let values = String::from_utf8(common::nlorder(&["-G", "values"]).stdout).unwrap();
    for n in names.iter().filter(|n| **n != "end") {
        assert!(
            values.contains(&format!("change\t\t{n}\n")),
            "{n} is not a value of the change filter"
        );
        let (kept, _) = run(&[
            "timeline",
            "-q",
            "-Y",
            &format!("change == {n}"),
            &fx("incident-hotplug.pcap"),
        ]);
        assert!(!kept.is_empty(), "change == {n} keeps nothing");
    }
    assert!(names.contains("dump") && !names.contains("dump_applied"), "{names:?}");
    assert!(
        lines
            .iter()
            .any(|l| l["event"] == "dump_applied" && l["object"] == "route")
    );
    // watch does not send its user to a flag it does not have
    let (out, _) = run(&["watch", "-q", "--format", "json", "-r", &fx("incident-hotplug.pcap")]);
    assert!(!out.contains("--timeline shows"), "{out}");
    // an IPv6 BGP peer in IPv4 mode is said, not dropped
    let (out, _) = run(&[
        "detect",
        "-q",
        "--bgp-peer",
        "2001:db8::1",
        &fx("incident-hotplug.pcap"),
    ]);
    common::assert_has(
        &out,
        &["BGP peer 2001:db8::1: not checked, it is IPv6 and this detects IPv4"],
    );
}

#[test]
fn a_time_no_capture_can_hold_is_refused_in_the_users_words() {
    let f = fx("basic.pcap");
    let page = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("answers-at.html");
    let page = page.to_str().expect("path");
    for at in ["1e30", "99999999999999999999"] {
        for args in [
            vec!["table", f.as_str()],
            vec!["detect", f.as_str()],
            vec!["gai", f.as_str(), "10.0.0.1"],
            vec!["report", "-o", page, f.as_str()],
        ] {
            let out = common::nlorder(&[&args[..1], &["-q", "--at", at], &args[1..]].concat());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?} --at {at}: {err}");
            assert!(err.contains(&format!("'{at}' is after the year 9999")), "{err}");
            assert!(!err.contains("9223372036854775807"), "{err}");
        }
    }
    // `inf` reads as a float but is no moment: detect's list of forms names auto
    let out = common::nlorder(&["detect", "-q", "--at", "inf", &f]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    common::assert_has(&err, &["'inf' is neither auto, a packet number"]);
    // where a number stops being a packet number is in each --at's help ...
    for args in [
        ["table", "--help"],
        ["detect", "--help"],
        ["gai", "--help"],
        ["report", "--help"],
    ] {
        let out = common::nlorder(&args);
        let help = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(help.contains("below 1000000000 is a packet number"), "{args:?}: {help}");
    }
    // ... and the tool reads it so: the last packet number, then the first time
    let stderr = |at: &str| String::from_utf8_lossy(&common::nlorder(&["table", "--at", at, &f]).stderr).into_owned();
    let err = stderr("999999999");
    common::assert_has(&err, &["--at 999999999 is after the capture (packet 1,"]);
    let err = stderr("1000000000");
    common::assert_has(&err, &["--at 2001-09-09T01:46:40.000000Z is before the capture"]);
}

#[test]
fn a_calico_method_one_slip_away_keeps_calicos_answer_and_names_the_method_meant() {
    let f = fx("basic.pcap");
    let out = common::nlorder(&["detect", "-q", "--method", "first-fund", &f]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "Invalid IP autodetection method: first-fund (calico-node terminates); did you mean first-found?"
        ),
        "{text}"
    );
    // (calico-node's log line is its own, with no guess in it)
    common::assert_has(&text, &["log: Invalid IP autodetection method: first-fund\n"]);
    // a replay of what calico-node does with that method: it ran, exit 0
    assert_eq!(out.status.code(), Some(0));
    // a method that takes an argument, given none: the argument is left to fill
    let text = common::stdout_ok(&["detect", "-q", "--method", "interface", &f]);
    common::assert_has(&text, &["(calico-node terminates); did you mean interface=...?"]);
    let text = common::stdout_ok(&["detect", "-q", "--format", "json", "--method", "interfce=eth.*", &f]);
    common::assert_has(&text, &["did you mean interface=eth.*?"]);
    // an interface name given as the method is calico-node's to reject, with no guess
    let text = common::stdout_ok(&["detect", "-q", "--method", "eth1", &f]);
    common::assert_has(&text, &["Invalid IP autodetection method: eth1"]);
    assert!(!text.contains("did you mean"), "{text}");
}
