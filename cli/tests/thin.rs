//! Honest answers on thin captures: what a capture cannot show is said next
//! to the answer, and a capture with nothing to replay is not answered as if
//! the host had no interfaces. All fixtures are real bytes (third-party
//! captures and real-kernel recordings).
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::fx;

use serde_json::Value;

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().expect("string").to_owned())
        .collect()
}

/// An Ethernet pcap and a SOCK_DIAG-only capture hold no rtnetlink data:
/// every command that rebuilds tables refuses (exit 2) and says why,
/// instead of replaying an empty host.
#[test]
fn no_rtnetlink_data_is_unreadable_for_replays() {
    for f in [
        "third-party/nldecap__1pkt_not_netlink_le.pcap",
        "third-party/xtcp2__6_10_3__6_10_3_tcp_10_sockets.pcap",
    ] {
        let f = fx(f);
        for args in [
            vec!["detect", f.as_str()],
            vec!["detect", "--format", "json", f.as_str()],
            vec!["detect", "--timeline", f.as_str()],
            vec!["detect", "--all", f.as_str()],
            vec!["detect", "--at", "auto", f.as_str()],
            vec!["table", f.as_str()],
            vec!["timeline", f.as_str()],
            vec!["gai", f.as_str(), "10.0.0.1", "10.0.0.2"],
        ] {
            let out = common::nlorder(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            let ethernet = f.contains("not_netlink");
            let why = if ethernet {
                "not a netlink capture"
            } else {
                "no rtnetlink data"
            };
            assert!(err.contains(why), "{args:?}: {err}");
            assert!(
                !String::from_utf8_lossy(&out.stdout).contains("first-found"),
                "{args:?}"
            );
        }
        // decoding and listing requests still work on netlink that is not
        // rtnetlink (and find nothing); an Ethernet capture is the wrong file
        let status = if f.contains("not_netlink") { 2 } else { 0 };
        let out = common::nlorder(&["decode", &f]);
        assert_eq!(out.status.code(), Some(status));
        let out = common::nlorder(&["who", &f]);
        assert_eq!(out.status.code(), Some(status));
    }
}

/// A capture cut short (two records, no NLMSG_DONE, no link dump): the
/// JSON of every replay carries the capture's warning and the model's
/// assumptions, and the answer says the link order and the links it rests
/// on are assumed.
#[test]
fn a_truncated_capture_says_what_its_answer_rests_on() {
    let f = fx("third-party/nldecap__two_packets_le.pcap");
    let (d, code) = common::detect_json(&[&f]);
    assert_eq!(code, Some(0));
    assert_eq!(d["address"], "172.30.1.94/24");
    let warnings = strings(&d["warnings"]);
    assert!(warnings.iter().any(|w| w.contains("no NLMSG_DONE")), "{warnings:?}");
    let assumptions = strings(&d["assumptions"]);
    assert!(
        assumptions.iter().any(|a| a.contains("no complete link dump")),
        "{assumptions:?}"
    );
    let notes = strings(&d["notes"]);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("assumed: eth0.4002, eth0.23 known only from address messages")),
        "{notes:?}"
    );
    // ifindex 1, 5 and 6 come in the same order whichever way a kernel
    // walks its links: no order is assumed
    assert!(!notes.iter().any(|n| n.contains("link order")), "{notes:?}");
    // the text says it next to the answer
    let text = common::stdout_ok(&["detect", "-q", &f]);
    common::assert_has(&text, &["note: assumed: eth0.4002, eth0.23 known only"]);
    // --all and --timeline carry the same
    for flag in ["--all", "--timeline"] {
        let (v, _) = common::json_of("detect", &[flag, &f]);
        let node = &v["nodes"][0];
        assert!(
            strings(&node["warnings"]).iter().any(|w| w.contains("no NLMSG_DONE")),
            "{flag}: {node}"
        );
        assert!(!strings(&node["assumptions"]).is_empty(), "{flag}: {node}");
    }
}

/// The same capture through `gai` (plain, `--all-looks`, `--timeline`) and
/// `timeline`: every JSON document carries the warning and the assumption,
/// and the text summary on stderr says the assumption (not with `-q`).
#[test]
fn every_json_carries_the_grounds_of_a_truncated_capture() {
    let f = fx("third-party/nldecap__two_packets_le.pcap");
    let has = |v: &Value, what: &str| {
        assert!(
            strings(&v["warnings"]).iter().any(|w| w.contains("no NLMSG_DONE")),
            "{what}: {v}"
        );
        assert!(
            strings(&v["assumptions"])
                .iter()
                .any(|a| a.contains("no complete link dump")),
            "{what}: {v}"
        );
    };
    for extra in [&[][..], &["--at", "auto", "--all-looks"][..], &["--timeline"][..]] {
        let mut args = extra.to_vec();
        args.extend([f.as_str(), "10.0.0.1", "fe80::1"]);
        let (v, _) = common::json_of("gai", &args);
        has(&v, &format!("gai {extra:?}"));
    }
    let stdout = common::stdout_ok(&["timeline", "--format", "json", &f]);
    let last: Value = serde_json::from_str(stdout.lines().last().expect("a line")).expect("JSON");
    assert_eq!(last["change"], "end", "{stdout}");
    assert_eq!(last["packet"], 2, "{last}");
    has(&last["detail"], "timeline");
    // every line before it is a change of the capture
    assert!(stdout.lines().rev().skip(1).all(|l| !l.contains("\"end\"")), "{stdout}");
    let out = common::nlorder(&["timeline", &f]);
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(&err, &["  assumed: no complete link dump"]);
    let out = common::nlorder(&["timeline", "-q", &f]);
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    // `who` rebuilds nothing: what reading met, nothing assumed
    let (w, _) = common::json_of("who", &[&f]);
    assert!(w["warnings"].is_array(), "{w}");
}

/// A real-kernel capture with a link dump assumes no order.
#[test]
fn a_complete_capture_assumes_no_link_order() {
    let (d, _) = common::detect_json(&[&fx("incident-nerdctl.pcap")]);
    assert!(!strings(&d["notes"]).iter().any(|n| n.starts_with("assumed:")), "{d}");
    assert_eq!(strings(&d["warnings"]), Vec::<String>::new());
}

/// A quiet host's capture and one with no change at all are told apart:
/// silence only says "nothing listened" when something changed.
#[test]
fn the_summary_says_what_missing_notifications_mean() {
    // requests applied on a quiet host (real kernel, no listener)
    let out = common::nlorder(&["table", &fx("kernels/6.12/links.l0.pcap")]);
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(&err, &["no notifications in the capture although", "nothing listened"]);
    // only a dump: nothing changed, so nothing can be said of listeners
    let out = common::nlorder(&["table", &fx("third-party/pyroute2__nl0.pcap")]);
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(
        &err,
        &["no notifications in the capture: either nothing changed or nothing listened"],
    );
    assert!(!err.contains("although"), "{err}");
}

/// kubelet with `--node-ip ::` (`--family 6`) on a host with no IPv6
/// default route falls back to IPv4: said, and labelled IPv4.
#[test]
fn kubelet_says_its_fall_back_to_ipv4() {
    let f = fx("incident-gai-alias.pcap");
    let (d, _) = common::detect_json(&["--family", "6", "--method", "kubelet", &f]);
    assert_eq!(d["address"], "172.18.45.100");
    assert_eq!(d["family"], 4, "{d}");
    assert!(
        strings(&d["notes"]).contains(&"no IPv6 default route: kubelet falls back to IPv4".to_owned()),
        "{}",
        d["notes"]
    );
    let text = common::stdout_ok(&["detect", "-q", "--family", "6", "--method", "kubelet", &f]);
    assert!(text.starts_with("kubelet (IPv4) -> 172.18.45.100"), "{text}");
    // with an IPv6 default route, IPv6 it is
    let (d, _) = common::detect_json(&["--family", "6", "--method", "kubelet", &fx("basic.pcap")]);
    assert_eq!(d["family"], 6, "{d}");
    assert!(!strings(&d["notes"]).iter().any(|n| n.contains("falls back")), "{d}");
}
