//! Display filters and field columns against tshark: on real kernel
//! captures, `nlorder decode -Y EXPR -e packet` must keep the packets
//! `tshark -Y` keeps for the same question, and `-e` columns must hold the
//! values tshark's `-T fields -e` prints (per packet, messages joined by a
//! comma as tshark joins them).
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn ours(path: &Path, args: &[&str]) -> String {
    let mut all = vec!["decode", "-q"];
    all.extend_from_slice(args);
    all.push(path.to_str().unwrap());
    let out = common::nlorder(&all);
    assert!(
        out.status.success(),
        "nlorder {all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn packets(text: &str) -> BTreeSet<u64> {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.trim().parse().expect("packet number"))
        .collect()
}

/// Real kernel captures: the matrix's 6.1 and 6.12 runs and the incidents.
fn captures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = ["6.1", "6.12"]
        .iter()
        .flat_map(|k| std::fs::read_dir(common::fixtures().join("kernels").join(k)).expect("kernels dir"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pcap"))
        .collect();
    v.sort();
    v.truncate(6);
    v.extend(["incident-hotplug.pcap", "incident-nerdctl.pcap", "notify-addr.pcap"].map(common::fixture));
    v
}

/// The same questions in both languages. tshark also reads the request
/// header an NLMSG_ERROR quotes as a netlink header (a second
/// `netlink.hdr_pid`, `hdr_seq`, `hdr_len` in that frame); nlorder's `port`,
/// `seq` and `len` are the message's own, so those questions leave error
/// frames out on both sides (an error is alone in its frame).
const FILTERS: &[(&str, &str)] = &[
    ("type == RTM_NEWADDR", "netlink-route.nltype == 20"),
    ("type == 24", "netlink-route.nltype == 24"),
    ("type == NLMSG_DONE", "netlink.hdr_type == 3"),
    ("type in {RTM_NEWLINK RTM_DELLINK}", "netlink-route.nltype in {16, 17}"),
    (
        "port == 0 && type != NLMSG_ERROR",
        "netlink.hdr_pid == 0 && !netlink.error",
    ),
    (
        "seq > 1000 and not type == 2",
        "netlink.hdr_seq > 1000 && !netlink.error",
    ),
    (
        "len >= 100 && len <= 200 && type != NLMSG_ERROR",
        "netlink.hdr_len >= 100 && netlink.hdr_len <= 200 && !netlink.error",
    ),
    ("type == NLMSG_ERROR && errno", "netlink.error < 0"),
    ("type == NLMSG_ERROR && !errno", "netlink.error == 0"),
    (
        "type == RTM_NEWADDR && family == inet6",
        "netlink-route.nltype == 20 && netlink-route.ifa_family == 10",
    ),
    (
        "type == RTM_NEWROUTE && (family == inet || table == local)",
        "netlink-route.nltype == 24 && (netlink-route.rt_family == 2 || netlink-route.rt_table == 255)",
    ),
    (
        "type == RTM_NEWADDR && ifindex == 1",
        "netlink-route.nltype == 20 && netlink-route.ifa_index == 1",
    ),
    (
        "type == RTM_NEWLINK && ifindex == 2",
        "netlink-route.nltype == 16 && netlink-route.ifi_index == 2",
    ),
    ("addr == 127.0.0.0/8", "netlink-route.ifa_address.ipv4 == 127.0.0.0/8"),
    (
        "addr == fe80::/10 && type == RTM_DELADDR",
        "netlink-route.ifa_address.ipv6 == fe80::/10 && netlink-route.nltype == 21",
    ),
    ("packet in {3..7}", "frame.number in {3..7}"),
];

#[test]
fn filters_keep_the_packets_tshark_keeps() {
    if !common::have_tool("tshark") {
        return;
    }
    let mut kept = 0;
    for path in captures() {
        for (ours_expr, tshark_expr) in FILTERS {
            let want = packets(&common::tshark(
                path.as_path(),
                &["-Y", tshark_expr, "-T", "fields", "-e", "frame.number"],
            ));
            let got = packets(&ours(&path, &["-Y", ours_expr, "-e", "packet"]));
            assert_eq!(
                got,
                want,
                "{}: nlorder `{ours_expr}` vs tshark `{tshark_expr}`",
                path.display()
            );
            kept += want.len();
        }
    }
    assert!(
        kept > 500,
        "the filters kept only {kept} packets in all: the comparison says little"
    );
}

/// nlorder's rows grouped per packet, each column's values joined by a
/// comma: tshark's layout.
fn per_packet(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    for line in text.lines() {
        let mut cols = line.split('\t');
        let packet = cols.next().unwrap().to_owned();
        let row = out.entry(packet).or_default();
        for (i, c) in cols.enumerate() {
            if row.len() <= i {
                row.push(Vec::new());
            }
            row[i].push(c.to_owned());
        }
    }
    out.into_iter()
        .map(|(p, cols)| (p, cols.into_iter().map(|c| c.join(",")).collect()))
        .collect()
}

#[test]
fn fields_hold_what_tshark_prints() {
    if !common::have_tool("tshark") {
        return;
    }
    let mut rows = 0;
    for path in captures() {
        let theirs = common::tshark(
            &path,
            &[
                "-Y",
                "!netlink.error",
                "-T",
                "fields",
                "-e",
                "frame.number",
                "-e",
                "netlink.hdr_seq",
                "-e",
                "netlink.hdr_pid",
                "-e",
                "netlink.hdr_len",
            ],
        );
        let want: BTreeMap<String, Vec<String>> = theirs
            .lines()
            .map(|l| {
                let mut cols: Vec<String> = l.split('\t').map(str::to_owned).collect();
                // tshark 4.0 reads the zero padding after a request's last
                // attribute as one more netlink header, of length 0 and
                // without seq or pid: not a message.
                let messages = cols[1].split(',').count();
                let lens: Vec<&str> = cols[3].split(',').collect();
                if lens.len() > messages {
                    cols[3] = lens.into_iter().filter(|l| *l != "0").collect::<Vec<_>>().join(",");
                }
                let packet = cols.remove(0);
                (packet, cols)
            })
            .collect();
        // tshark's names for the columns are accepted too.
        let got = per_packet(&ours(
            &path,
            &[
                "-Y",
                "type != NLMSG_ERROR",
                "-e",
                "frame.number,netlink.hdr_seq",
                "-e",
                "port",
                "-e",
                "len",
            ],
        ));
        assert_eq!(got, want, "{}", path.display());
        rows += got.len();
    }
    assert!(rows > 500, "only {rows} packets compared");
}

#[test]
fn a_mistake_in_a_filter_is_a_usage_error_naming_its_column() {
    let cap = common::fixture("incident-hotplug.pcap");
    for (expr, words) in [
        ("typ == 3", "column 1: no field is called `typ`"),
        ("ifindex == eth0", "column 12: `eth0` does not fit `ifindex`"),
        ("type == RTM_NEWADDR &&", "column 21"),
        ("dev > 3", "only == and != compare it"),
        ("addr == 10.0.0.300", "holds addresses"),
    ] {
        let out = common::nlorder(&["decode", "-Y", expr, cap.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{expr}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{expr}: {err}");
    }
    let out = common::nlorder(&["timeline", "-e", "seq", cap.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`seq` is not a field of this listing"));
}

#[test]
fn count_stops_after_that_many_shown() {
    let cap = common::fixture("incident-hotplug.pcap");
    let all = ours(&cap, &["-Y", "notification", "-e", "packet,type"]);
    let two = ours(&cap, &["-Y", "notification", "-e", "packet,type", "-c", "2"]);
    assert!(all.lines().count() > 2);
    assert_eq!(two.lines().collect::<Vec<_>>(), all.lines().take(2).collect::<Vec<_>>());
}
