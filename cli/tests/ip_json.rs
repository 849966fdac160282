//! `nlorder table --format ip-json` against iproute2 itself: for every
//! capture with an `.ip.json` (what `ip -j -d link show`, `ip -j addr show`
//! and `ip -j -4/-6 route show table all` printed in the same namespace
//! right after it) at the top of fixtures/, in the kernel matrix and among
//! the daemons' runs with a listener, the tables rebuilt at that moment must
//! print exactly that, every key and value, but for:
//!
//! - the keys only `ip -d` prints ([`common::DETAILS_ONLY`]: ip-json mirrors `ip -j
//!   link show`);
//! - what ticks ([`TICKING`]): an address's lifetimes, compared only when
//!   `ip` says forever, and a route's `expires`, never printed;
//! - on a quiet host's capture (no rtnetlink listener: `S.l0`), the state the
//!   kernel changes without a message ([`QUIET_STATE`]), and the attributes
//!   of a device that only requests described ([`REQUEST_ONLY`]), which
//!   nlorder leaves out rather than guess.
//!
//! The README lists the same keys.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::path::{Path, PathBuf};

use nlorder::netlink::{Body, strict};
use serde_json::{Map, Value};

/// Values that count down: compared only as present (lifetimes that are
/// not forever), or left out by nlorder (`expires`).
const TICKING: &[&str] = &["valid_life_time", "preferred_life_time", "expires"];

/// A device's state the kernel changes by itself (carrier, operational
/// state, the qdisc attached when it comes up), which only a listener's
/// notifications show.
const QUIET_STATE: &[&str] = &["flags", "operstate", "qdisc"];

/// What only a message from the kernel says of a device (a device only
/// requests described has none of it in nlorder's output).
const REQUEST_ONLY: &[&str] = &[
    "mtu",
    "qdisc",
    "operstate",
    "linkmode",
    "group",
    "txqlen",
    "address",
    "broadcast",
];

const FOREVER: u64 = u64::MAX >> 32;

/// One capture and how nlorder is told about its host.
struct Case {
    pcap: PathBuf,
    ip: Value,
    args: Vec<String>,
    /// No listener: the kernel's own changes are not in the capture.
    quiet: bool,
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for p in common::all_captures() {
        let json = p.with_extension("ip.json");
        if !json.exists() || p.extension().is_none_or(|x| x != "pcap") {
            continue;
        }
        let Ok(rel) = p.strip_prefix(common::fixtures()) else {
            continue;
        };
        let name = rel.to_string_lossy();
        let in_matrix = rel.starts_with("kernels") || rel.starts_with("daemons");
        // Of the daemons, the runs with a listener: the quiet ones hold no
        // complete link dump (see cli/tests/daemons.rs). netns-moves: a veth
        // whose peer was moved away shows `link_netnsid` from then on, and no
        // message about it says so (the listener sees the peer's
        // RTM_DELLINK only).
        if rel.starts_with("daemons") && (!name.ends_with(".l1.pcap") || name.contains("netns-moves")) {
            continue;
        }
        if rel.components().count() > 1 && !in_matrix {
            continue;
        }
        let ip: Value = serde_json::from_slice(&std::fs::read(&json).expect("read")).expect("ip json");
        let mut args = Vec::new();
        let mut quiet = false;
        if in_matrix {
            let run = common::matrix::Run::load(&p);
            args.push("--at".to_owned());
            args.push(ip["ip_time"].as_str().unwrap_or("end+3").to_owned());
            args.extend(run.args());
            quiet = run.listeners() == 0;
        }
        v.push(Case {
            pcap: p,
            ip,
            args,
            quiet,
        });
    }
    v.sort_by(|a, b| a.pcap.cmp(&b.pcap));
    v
}

/// The case of the capture whose path ends with `path`.
fn case_of(path: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.pcap.ends_with(path))
        .unwrap_or_else(|| panic!("no case {path}"))
}

fn ip_json(case: &Case, extra: &[&str]) -> Value {
    let mut args: Vec<&str> = vec!["table", "--format", "ip-json", "-q"];
    args.extend(case.args.iter().map(String::as_str));
    args.extend_from_slice(extra);
    let path = case.pcap.to_str().expect("path");
    args.push(path);
    let text = common::stdout_ok(&args);
    // One line, as `ip -j` prints it.
    assert_eq!(text.lines().count(), 1, "{}: {text}", case.pcap.display());
    serde_json::from_str(&text).expect("ip-json")
}

/// Lifetimes that are not forever tick: equal as "some number".
fn settle_lifetimes(addr: &mut Value) {
    for l in addr.as_array_mut().into_iter().flatten() {
        for a in l["addr_info"].as_array_mut().into_iter().flatten() {
            for k in ["valid_life_time", "preferred_life_time"] {
                if let Some(x) = a.get_mut(k)
                    && x.as_u64() != Some(FOREVER)
                {
                    *x = Value::String(if x.is_number() { "ticking" } else { "not a number" }.into());
                }
            }
        }
    }
}

/// The three tables of `ip -j`, as the fixture holds them.
fn expected(ip: &Value) -> Value {
    // (a route's `expires` is the only key of TICKING routes have)
    let (link, route) = common::ip_json_links_and_routes(ip);
    let mut addr = ip["addr"].clone();
    settle_lifetimes(&mut addr);
    serde_json::json!({"link": link, "addr": addr, "route": route})
}

/// A quiet host's capture: the kernel's own link state is not in it, and
/// a device only requests described shows what they said.
fn settle_quiet_links(ours: &mut Value, want: &mut Value) {
    for table in ["link", "addr"] {
        let (Some(o), Some(w)) = (ours[table].as_array_mut(), want[table].as_array_mut()) else {
            continue;
        };
        for (o, w) in o.iter_mut().zip(w.iter_mut()) {
            let (Some(o), Some(w)) = (o.as_object_mut(), w.as_object_mut()) else {
                continue;
            };
            for k in QUIET_STATE {
                o.remove(*k);
                w.remove(*k);
            }
            if !o.contains_key("group") {
                for k in REQUEST_ONLY {
                    if !o.contains_key(*k) {
                        w.remove(*k);
                    }
                }
            }
        }
    }
}

/// Every difference, one line each: the object (by position and name) and
/// the keys whose values differ.
fn differences(want: &Value, got: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for table in ["link", "addr", "route"] {
        let (w, g) = (
            want[table].as_array().cloned().unwrap_or_default(),
            got[table].as_array().cloned().unwrap_or_default(),
        );
        if w.len() != g.len() {
            out.push(format!("{table}: ip lists {}, nlorder {}", w.len(), g.len()));
        }
        for (i, (w, g)) in w.iter().zip(&g).enumerate() {
            if w == g {
                continue;
            }
            let (empty, name) = (
                Map::new(),
                w.get("ifname").or(w.get("dst")).cloned().unwrap_or_default(),
            );
            let (wm, gm) = (w.as_object().unwrap_or(&empty), g.as_object().unwrap_or(&empty));
            let keys: std::collections::BTreeSet<&String> = wm.keys().chain(gm.keys()).collect();
            let diff: Vec<String> = keys
                .into_iter()
                .filter(|k| wm.get(*k) != gm.get(*k))
                .map(|k| format!("{k}: ip {:?} nlorder {:?}", wm.get(k), gm.get(k)))
                .collect();
            out.push(format!("{table}[{i}] {name}: {}", diff.join("; ")));
        }
    }
    out
}

fn check(case: &Case) -> Vec<String> {
    let mut got = ip_json(case, &[]);
    let mut want = expected(&case.ip);
    // nlorder prints no route expiry
    let mut unticked = got.clone();
    common::drop_keys(&mut unticked, &["expires"]);
    assert_eq!(unticked, got, "{}: nlorder printed `expires`", case.pcap.display());
    settle_lifetimes(&mut got["addr"]);
    let name = case.pcap.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if name == "rtgen-nanos.pcap" {
        // The recipe dumps no routes: nothing in the capture shows them.
        want["route"] = Value::Array(Vec::new());
        got["route"] = Value::Array(Vec::new());
    }
    if case.quiet {
        settle_quiet_links(&mut got, &mut want);
    }
    // The kernel sets a router advertisement's hop limit on its default
    // route after announcing it (`fib6_metric_set`, RTAX_HOPLIMIT): no
    // message carries it.
    for r in want["route"].as_array_mut().into_iter().flatten() {
        if r["protocol"] == "ra"
            && r["dst"] == "default"
            && let Some(m) = r.as_object_mut()
        {
            m.remove("metrics");
        }
    }
    differences(&want, &got)
}

#[test]
fn ip_json_is_what_ip_printed() {
    let cases = cases();
    assert!(cases.len() >= 90, "only {} captures with ip -j output", cases.len());
    let mut failures = String::new();
    let (mut listened, mut quiet) = (0, 0);
    for c in &cases {
        let d = check(c);
        if d.is_empty() {
            if c.quiet {
                quiet += 1;
            } else {
                listened += 1;
            }
        } else {
            failures.push_str(&format!("{}:\n  {}\n", c.pcap.display(), d.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{failures}");
    assert!(listened >= 72 && quiet >= 18, "{listened} listened, {quiet} quiet");
}

/// On a quiet host's capture the kernel's own state is left as the last
/// message showed it; where nothing changed since, it is exact: the runs
/// whose devices all kept their state match `ip -j` whole.
#[test]
fn quiet_runs_without_silent_changes_match_whole() {
    for run in ["refused.l0", "shared-broadcast.l0"] {
        for kernel in ["6.1", "6.12"] {
            let mut c = case_of(&format!("kernels/{kernel}/{run}.pcap"));
            c.quiet = false;
            assert_eq!(check(&c), Vec::<String>::new(), "{}", c.pcap.display());
        }
    }
}

/// One table is exactly the array `ip -j OBJECT show` prints; `--family`
/// is `ip -4`/`ip -6`; several tables are one object, in a fixed order.
#[test]
fn objects_and_family_are_ip_s_options() {
    let case = case_of("kernels/6.12/routes.l1.pcap");
    let all = ip_json(&case, &[]);
    assert_eq!(
        all.as_object().expect("object").keys().collect::<Vec<_>>(),
        ["link", "addr", "route"]
    );
    for (objects, key) in [("link", "link"), ("addr", "addr"), ("route", "route")] {
        assert_eq!(ip_json(&case, &["--objects", objects]), all[key], "{objects}");
    }
    assert_eq!(
        ip_json(&case, &["--objects", "route,link,route"]),
        ip_json(&case, &["--objects", "link,route"])
    );
    let both = ip_json(&case, &["--objects", "route,link"]);
    assert_eq!(
        both.as_object().expect("o").keys().collect::<Vec<_>>(),
        ["link", "route"]
    );
    // `ip -j -4 route show table all` and `ip -j -6 ...` are the fixture's own.
    let mut want = case.ip.clone();
    common::drop_keys(&mut want, TICKING);
    assert_eq!(ip_json(&case, &["--objects", "route", "--family", "4"]), want["route4"]);
    assert_eq!(ip_json(&case, &["--objects", "route", "--family", "6"]), want["route6"]);
    // `ip -4 addr show` lists only the links with an IPv4 address, and only those.
    let v4 = ip_json(&case, &["--objects", "addr", "--family", "4"]);
    for l in v4.as_array().expect("a") {
        let info = l["addr_info"].as_array().expect("info");
        assert!(!info.is_empty() && info.iter().all(|a| a["family"] == "inet"), "{l}");
    }
    let with_v4 = all["addr"]
        .as_array()
        .expect("a")
        .iter()
        .filter(|l| {
            l["addr_info"]
                .as_array()
                .expect("i")
                .iter()
                .any(|a| a["family"] == "inet")
        })
        .count();
    assert_eq!(v4.as_array().expect("a").len(), with_v4);
    // --objects picks the text's sections too, and means nothing to nlorder's JSON.
    let out = common::nlorder(&["table", "-q", "--objects", "link", case.pcap.to_str().expect("p")]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("# links") && !text.contains("# routes"), "{text}");
    let out = common::nlorder(&[
        "table",
        "--format",
        "json",
        "--objects",
        "link",
        case.pcap.to_str().expect("p"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The comparison can fail: a capture whose last link dump is changed by
/// one byte (an MTU) no longer prints what `ip` printed.
#[test]
fn a_changed_byte_is_caught() {
    let case = case_of("fixtures/basic.pcap");
    assert!(check(&case).is_empty());
    let lines = common::decode_json(&case.pcap);
    let link = lines
        .iter()
        .rev()
        .find(|l| l["type"] == "RTM_NEWLINK" && l["link"]["name"] == "eth0")
        .expect("eth0 in a dump");
    let mut bytes = std::fs::read(&case.pcap).expect("read");
    let off = link["offset"].as_u64().expect("offset") as usize;
    // IFLA_MTU's value: find the attribute (len 8, type 4) after the header.
    let msg_len = u32::from_le_bytes(bytes[off..off + 4].try_into().expect("4")) as usize;
    let mut at = off + 16 + 16;
    let mut found = false;
    while at + 8 <= off + msg_len {
        let len = u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
        let kind = u16::from_le_bytes([bytes[at + 2], bytes[at + 3]]);
        if kind == 4 && len == 8 {
            bytes[at + 4] ^= 1;
            found = true;
            break;
        }
        at += len.div_ceil(4) * 4;
    }
    assert!(found, "no IFLA_MTU");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ip_json");
    std::fs::create_dir_all(&dir).expect("dir");
    let changed = dir.join("basic-mtu.pcap");
    std::fs::write(&changed, &bytes).expect("write");
    let mutated = Case {
        pcap: changed,
        ip: case.ip.clone(),
        args: Vec::new(),
        quiet: false,
    };
    let d = check(&mutated);
    assert!(d.iter().any(|l| l.contains("eth0") && l.contains("mtu")), "{d:?}");
}

/// `ip -j OBJECT show` in a namespace, as one object of the three tables.
fn ip_now(ns: &common::Netns) -> Value {
    let j = |args: &[&str]| -> Value {
        let mut cmd = vec!["ip", "-j"];
        cmd.extend_from_slice(args);
        let out = ns.exec(&cmd);
        common::assert_ok(&out, format_args!("{cmd:?}"));
        serde_json::from_slice(&out.stdout).expect("ip json")
    };
    serde_json::json!({
        "link": j(&["link", "show"]),
        "addr": j(&["addr", "show"]),
        "route": j(&["route", "show", "table", "all"]),
    })
}

/// Live, against the `ip` of this machine: what no fixture holds (multipath
/// routes of both families with weights, route metrics with a congestion
/// control, a source-specific route, a router preference, an alternative
/// name, an alias, a device group, a queue length and the dormant mode),
/// recorded by `nlorder record` and printed as `ip -j` printed it then.
#[test]
fn a_live_namespace_prints_as_ip_does() {
    if !common::can_run_netns(&[]) {
        return;
    }
    let ns = common::Netns::new("ipjson");
    ns.sh("sysctl -qw net.ipv6.conf.all.accept_dad=0
         sysctl -qw net.ipv6.conf.default.accept_dad=0
         ip link set lo up
         ip link add a0 type veth peer name a1
         ip link add b0 type veth peer name b1
         ip link set a0 up
         ip link set a1 up
         ip link set b0 up
         ip link set b1 up
         ip addr add 10.1.0.1/24 dev a0
         ip addr add 10.2.0.1/24 dev b0
         ip -6 addr add 2001:db8:5::1/64 dev a0
         ip route add 10.9.0.0/16 nexthop via 10.1.0.2 dev a0 weight 2 nexthop via 10.2.0.2 dev b0
         ip route add 10.8.0.0/16 via 10.1.0.2 mtu lock 1400 advmss 1300 congctl cubic
         ip route add 10.7.0.0/16 via 10.2.0.2 tos 0x10 table 100 proto 186 metric 7
         ip -6 route add 2001:db8:9::/48 nexthop via 2001:db8:5::2 dev a0 nexthop via 2001:db8:5::3 dev a0
         ip -6 route add 2001:db8:7::/48 from 2001:db8:5::/64 via 2001:db8:5::2 dev a0 pref high
         ip link property add dev a0 altname uplink-a
         ip link set a0 alias uplinkA
         ip link set b0 group 7 txqueuelen 500 mode dormant");
    // Until linkwatch has run and the tables hold still.
    let mut ip = ip_now(&ns);
    for _ in 0..20 {
        std::thread::sleep(std::time::Duration::from_millis(250));
        let again = ip_now(&ns);
        if again == ip {
            break;
        }
        ip = again;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ip_json");
    std::fs::create_dir_all(&dir).expect("dir");
    let pcap = dir.join("live.pcap");
    let out = common::nlorder(&["record", "-q", "--netns", &ns.0, "-w", pcap.to_str().expect("p")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after = ip_now(&ns);
    assert_eq!(ip, after, "the namespace changed while it was recorded");
    let case = Case {
        pcap,
        ip: Value::Null,
        args: Vec::new(),
        quiet: false,
    };
    let mut got = ip_json(&case, &[]);
    let mut want = after;
    settle_lifetimes(&mut got["addr"]);
    settle_lifetimes(&mut want["addr"]);
    assert_eq!(differences(&want, &got), Vec::<String>::new());
    // What this test is for is there.
    let routes = got["route"].to_string();
    common::assert_has(
        &routes,
        &[
            "\"nexthops\"",
            "\"congestion\":\"cubic\"",
            "\"from\"",
            "\"pref\":\"high\"",
            "\"tos\"",
        ],
    );
    // The next hops and link attributes read here are the crate's too.
    let file = std::fs::File::open(&case.pcap).expect("open");
    let mut reader = nlorder::capture::CaptureReader::new(file).expect("capture");
    let mut diags = nlorder::diag::Diagnostics::default();
    let mut compared = 0;
    nlorder::ingest::trace::read_trace(&mut reader, Default::default(), &mut diags, |m| {
        if matches!(m.decoded.body, Body::Link(_) | Body::Route(_)) {
            let full = strict::decode_full(&m.message).expect("crate").expect("link or route");
            assert_eq!(
                strict::cross_check(&m.decoded, &full),
                Vec::<String>::new(),
                "packet {}",
                m.packet
            );
            compared += 1;
        }
        true
    })
    .expect("readable");
    assert!(compared > 20, "{compared}");
    let links = got["link"].to_string();
    common::assert_has(
        &links,
        &[
            "\"altnames\":[\"uplink-a\"]",
            "\"ifalias\":\"uplinkA\"",
            "\"linkmode\":\"DORMANT\"",
            "\"group\":\"7\"",
        ],
    );
}
