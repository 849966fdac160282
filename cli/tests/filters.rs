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
    common::stdout_ok(&all)
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

/// Runs `compare` on each of [`captures`] when tshark is here; `compare`
/// holds nlorder against tshark on one capture and says how many packets
/// it compared, and fewer than 500 in all would say little.
fn against_tshark(what: &str, compare: impl Fn(&Path) -> usize) {
    if !common::have_tool("tshark") {
        return;
    }
    let compared: usize = captures().iter().map(|path| compare(path)).sum();
    assert!(
        compared > 500,
        "{what}: only {compared} packets compared in all: the comparison says little"
    );
}

#[test]
fn filters_keep_the_packets_tshark_keeps() {
    against_tshark("filters", |path| {
        let mut kept = 0;
        for (ours_expr, tshark_expr) in FILTERS {
            let want = packets(&common::tshark(
                path,
                &["-Y", tshark_expr, "-T", "fields", "-e", "frame.number"],
            ));
            let got = packets(&ours(path, &["-Y", ours_expr, "-e", "packet"]));
            assert_eq!(
                got,
                want,
                "{}: nlorder `{ours_expr}` vs tshark `{tshark_expr}`",
                path.display()
            );
            kept += want.len();
        }
        kept
    });
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
    common::tshark_columns(out)
}

#[test]
fn fields_hold_what_tshark_prints() {
    against_tshark("fields", |path| {
        let theirs = common::tshark(
            path,
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
            path,
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
        got.len()
    });
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
fn count_reads_that_many_packets_as_tshark_does() {
    let cap = common::fixture("incident-hotplug.pcap");
    let check_tshark = common::have_tool("tshark");
    for (count, filter) in [
        ("1", "type"),
        ("2", "type"),
        ("7", "type"),
        ("30", "type == RTM_NEWADDR"),
    ] {
        let got = packets(&ours(&cap, &["-c", count, "-Y", filter, "-e", "packet"]));
        let limit: u64 = count.parse().unwrap();
        assert!(got.iter().all(|p| *p <= limit), "-c {count}: {got:?}");
        if check_tshark {
            let tshark_filter = if filter == "type" {
                "netlink"
            } else {
                "netlink-route.nltype == 20"
            };
            let want = packets(&common::tshark(
                &cap,
                &["-c", count, "-Y", tshark_filter, "-T", "fields", "-e", "frame.number"],
            ));
            assert_eq!(got, want, "-c {count} -Y {filter}");
        }
    }
    // a count of zero is a mistake to both
    let out = common::nlorder(&["decode", "-c", "0", cap.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    if check_tshark {
        let t = std::process::Command::new("tshark")
            .args(["-r", cap.to_str().unwrap(), "-c", "0"])
            .output()
            .unwrap();
        assert!(!t.status.success(), "tshark -c 0");
    }
}

/// tshark refuses a value name its field does not have; so does nlorder,
/// for the same mistakes, and both take the right name.
#[test]
fn an_unknown_value_name_is_refused_as_tshark_refuses_it() {
    let cap = common::fixture("incident-hotplug.pcap");
    let path = cap.to_str().unwrap();
    let pairs = [
        ("family == inet7", "netlink-route.ifa_family == AF_INET7", false),
        ("family == inet", "netlink-route.ifa_family == AF_INET", true),
        ("type == RTM_NEWADR", "netlink-route.nltype == RTM_NEWADR", false),
        ("scope == galaxy", "netlink-route.ifa_scope == galaxy", false),
    ];
    for (ours_expr, theirs, good) in pairs {
        let out = common::nlorder(&["decode", "-q", "-Y", ours_expr, path]);
        assert_eq!(
            out.status.code(),
            Some(if good { 0 } else { 2 }),
            "{ours_expr}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if common::have_tool("tshark") {
            let t = std::process::Command::new("tshark")
                .args(["-r", path, "-Y", theirs])
                .output()
                .unwrap();
            assert_eq!(t.status.success(), good, "tshark -Y '{theirs}'");
        }
    }
}

#[test]
fn a_misspelt_value_names_its_column_and_the_close_names() {
    let cap = common::fixture("incident-hotplug.pcap");
    for (sub, expr, words) in [
        (
            "decode",
            "type == RTM_NEWADR",
            "column 9: `RTM_NEWADR` is not a value of `type`; did you mean RTM_NEWADDR",
        ),
        ("decode", "family == inet7", "did you mean inet or inet6?"),
        ("decode", "table == mian", "did you mean main?"),
        ("decode", "dir == requset", "did you mean request?"),
        (
            "decode",
            "scope == galaxy",
            "it takes global, site, link, host or nowhere (or a number)",
        ),
        (
            "decode",
            "errno == EBOGUS",
            "`EBOGUS` is not a value of `errno` (`nlorder -G values`",
        ),
        ("decode", "type in {RTM_NEWLINK RTM_NEWADR}", "column 22"),
        (
            "timeline",
            "change == dump_applied",
            "it takes added, removed, expired, changed, refused, dump",
        ),
        ("who", "program == go-nte", "did you mean go-net?"),
    ] {
        let out = common::nlorder(&[sub, "-q", "-Y", expr, cap.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{expr}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{expr}: {err}");
        assert!(out.stdout.is_empty(), "{expr}: nothing is read");
    }
    // the words a listing prints for numbers without a name are values too
    for expr in [
        "family == af43",
        "type == TYPE_200",
        "dev == anything",
        "errno == ENOENT",
        "table == 100",
    ] {
        let out = common::nlorder(&["decode", "-q", "-Y", expr, cap.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{expr}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The listing subcommands, the fixture their examples are run on, and a
/// record their example must keep there.
const LISTINGS: &[(&str, &str)] = &[
    ("decode", "incident-dual-nic.pcap"),
    ("timeline", "incident-hotplug.pcap"),
    ("who", "looks/6.12/go-enum.l0.pcap"),
];

/// The backquoted `-Y` and `-e` examples a listing's help shows, and the
/// command lines of its EXAMPLE section.
fn examples(help: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
    let filter = regex::Regex::new(r"display filter keeps, e\.g\. `([^`]+)`").unwrap();
    let fields = regex::Regex::new(r"e\.g\. `-e ([^`]+)`").unwrap();
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let lines = help
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("nlorder "))
        .map(str::to_owned)
        .collect();
    (
        filter.captures_iter(&flat).map(|c| c[1].to_owned()).collect(),
        fields.captures_iter(&flat).map(|c| c[1].to_owned()).collect(),
        lines,
    )
}

/// Every `-Y` and `-e` example in a listing's `--help` and man page works
/// on that listing, and keeps something on a real capture.
#[test]
fn every_help_example_works_on_the_listing_that_shows_it() {
    for (sub, fixture) in LISTINGS {
        let cap = common::fixture(fixture);
        let path = cap.to_str().unwrap();
        let help = String::from_utf8(common::nlorder(&[sub, "--help"]).stdout).unwrap();
        let man = String::from_utf8(common::nlorder(&["man", sub]).stdout).unwrap();
        let man = man.replace("\\-", "-").replace("\\*(Aq", "'");
        for text in [&help, &man] {
            let (filters, columns, lines) = examples(text);
            assert_eq!((filters.len(), columns.len(), lines.len()), (1, 1, 1), "{sub}: {text}");
            let out = ours_sub(sub, &["-Y", &filters[0], "-e", &columns[0], path]);
            assert!(
                out.lines().count() > 0,
                "{sub} -Y '{}' keeps nothing in {fixture}",
                filters[0]
            );
            // the EXAMPLE line, run as a shell would
            let line = lines[0].replace("CAPTURE", path);
            let sh = std::process::Command::new("sh")
                .arg("-c")
                .arg(line.replacen("nlorder", env!("CARGO_BIN_EXE_nlorder"), 1))
                .output()
                .unwrap();
            assert!(sh.status.success(), "{line}: {}", String::from_utf8_lossy(&sh.stderr));
            assert_eq!(String::from_utf8_lossy(&sh.stdout), out, "{line}");
        }
    }
}

fn ours_sub(sub: &str, args: &[&str]) -> String {
    let mut all = vec![sub, "-q"];
    all.extend_from_slice(args);
    common::stdout_ok(&all)
}

/// `nlorder -G fields` names every field once with the listings that have
/// it; `-G values` lists names each of which the filters take.
#[test]
fn glossaries_list_fields_and_the_values_filters_take() {
    let fields = String::from_utf8(common::nlorder(&["-G", "fields"]).stdout).unwrap();
    let rows: Vec<Vec<&str>> = fields.lines().map(|l| l.split('\t').collect()).collect();
    assert!(rows.len() > 20, "{fields}");
    assert!(rows.iter().all(|r| r.len() == 5), "{fields}");
    let listed = |name: &str| rows.iter().find(|r| r[0] == name).map(|r| r[2].to_owned()).unwrap();
    assert_eq!(listed("dev"), "decode,timeline");
    assert_eq!(listed("program"), "timeline,who");
    let values = String::from_utf8(common::nlorder(&["-G", "values"]).stdout).unwrap();
    common::assert_has(&values, &["type\t20\tRTM_NEWADDR\n"]);
    common::assert_has(&values, &["change\t\tdump\n"]);
    // one value of each field, taken by a listing that has the field
    let cap = common::fixture("incident-hotplug.pcap");
    let mut seen = BTreeSet::new();
    for line in values.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        if !seen.insert(cols[0].to_owned()) {
            continue;
        }
        let sub = listed(cols[0]).split(',').next().unwrap().to_owned();
        let expr = format!("{} == \"{}\"", cols[0], cols[2]);
        let out = common::nlorder(&[&sub, "-q", "-Y", &expr, cap.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{sub} -Y '{expr}'");
    }
    assert!(seen.len() >= 9, "{seen:?}");
}
