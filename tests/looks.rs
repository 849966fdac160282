//! Who looked, and what they saw: real programs (glibc's getaddrinfo via
//! getent, Python and Go's cgo resolver, Go's net package, iproute2) ran
//! during real nlmon captures on Debian's 6.1 and 6.12 kernels
//! (fixtures/looks/). `who` must name each one from the bytes alone, and
//! the replays at each program's own look must print what it printed.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use serde_json::Value;

const FIXTURES: [&str; 4] = ["6.1/gai-node", "6.1/go-enum", "6.12/gai-node", "6.12/go-enum"];

struct Run {
    name: String,
    pid: u64,
    command: Vec<String>,
    env: Vec<String>,
    hosts: Vec<String>,
    stdout: Vec<String>,
}

fn runs(fixture: &str) -> Vec<Run> {
    let path = common::fixture(&format!("looks/{fixture}.l0.runs.json"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("runs.json")).expect("json");
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
            .unwrap_or_default()
    };
    v.as_array()
        .expect("a list of runs")
        .iter()
        .map(|r| Run {
            name: r["name"].as_str().expect("name").to_owned(),
            pid: r["pid"].as_u64().expect("pid"),
            command: strings(&r["command"]),
            env: r["env"]
                .as_object()
                .map(|o| {
                    o.iter()
                        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                        .collect()
                })
                .unwrap_or_default(),
            hosts: strings(&r["hosts"]),
            stdout: strings(&r["stdout"]),
        })
        .collect()
}

/// What a run is, and which library's requests it must have sent.
fn expected_library(run: &Run) -> Option<&'static str> {
    let cmd = run.command.join(" ");
    if cmd.contains("getent") || cmd.contains("pylook") || run.env.iter().any(|e| e.contains("netdns=cgo")) {
        Some("glibc")
    } else if run.env.iter().any(|e| e.contains("netdns=go")) {
        None // Go's own resolver asks netlink for nothing
    } else if cmd.contains("golook interfaces") {
        Some("go-net")
    } else if cmd.contains("/ip ") {
        Some("iproute2")
    } else {
        panic!("{}: a run this test does not know", run.name)
    }
}

fn capture(fixture: &str) -> String {
    common::fixture(&format!("looks/{fixture}.l0.pcap"))
        .to_str()
        .expect("path")
        .to_owned()
}

#[test]
fn who_names_every_program_that_ran() {
    for fixture in FIXTURES {
        let (who, code) = common::json_of("who", &[&capture(fixture)]);
        assert_eq!(code, Some(0));
        let requests = who["requests"].as_array().expect("requests");
        let all = runs(fixture);
        for run in &all {
            let mine: Vec<&Value> = requests
                .iter()
                .filter(|r| r["port"].as_u64() == Some(run.pid) && r["dump"] == true)
                .collect();
            match expected_library(run) {
                None => assert!(mine.is_empty(), "{fixture} {}: {mine:?}", run.name),
                Some(lib) => {
                    assert!(
                        !mine.is_empty(),
                        "{fixture} {}: no request from port {}",
                        run.name,
                        run.pid
                    );
                    for r in mine {
                        let got = r["library"].as_str().expect("library");
                        assert!(got.starts_with(lib), "{fixture} {}: {got} for {r}", run.name);
                        if lib != "iproute2" {
                            assert_eq!(r["confidence"], "certain", "{fixture} {}: {r}", run.name);
                        }
                    }
                }
            }
        }
        // The scenario's own `ip` steps are the only other requesters:
        // never taken for glibc or Go.
        let pids: Vec<u64> = all.iter().map(|r| r.pid).collect();
        for r in requests
            .iter()
            .filter(|r| !r["port"].as_u64().is_some_and(|p| pids.contains(&p)))
        {
            let lib = r["library"].as_str().expect("library");
            assert!(lib == "iproute2" || lib == "unknown", "{fixture}: {lib} for {r}");
        }
    }
}

/// The end packet of the look a run made (its port's last look).
fn look_of(who: &Value, pid: u64) -> u64 {
    who["looks"]
        .as_array()
        .expect("looks")
        .iter()
        .filter(|l| l["port"].as_u64() == Some(pid))
        .filter_map(|l| l["end_packet"].as_u64())
        .next_back()
        .unwrap_or_else(|| panic!("no look from port {pid}"))
}

/// The distinct addresses of getent/Python/Go output, in order.
fn printed_order(run: &Run) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in &run.stdout {
        let addr = line
            .split_whitespace()
            .find(|w| w.parse::<std::net::IpAddr>().is_ok())
            .map(str::to_owned);
        if let Some(a) = addr
            && !out.contains(&a)
        {
            out.push(a);
        }
    }
    out
}

#[test]
fn gai_at_each_programs_look_predicts_what_it_printed() {
    for fixture in FIXTURES.iter().filter(|f| f.ends_with("gai-node")) {
        let f = capture(fixture);
        let (who, _) = common::json_of("who", &[&f]);
        let all = runs(fixture);
        let glibc: Vec<&Run> = all.iter().filter(|r| expected_library(r) == Some("glibc")).collect();
        assert!(glibc.len() >= 3, "{fixture}");
        let mut last = None;
        for run in &glibc {
            let name = run.command.last().expect("name");
            // the name service's order: the hosts file's lines for the name
            let candidates: Vec<String> = run
                .hosts
                .iter()
                .filter(|l| l.split_whitespace().nth(1) == Some(name.as_str()))
                .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
                .collect();
            let at = look_of(&who, run.pid).to_string();
            let mut args = vec!["--at", at.as_str(), f.as_str()];
            args.extend(candidates.iter().map(String::as_str));
            let (g, _) = common::json_of("gai", &args);
            let order: Vec<String> = g["order"]
                .as_array()
                .expect("order")
                .iter()
                .map(|a| a.as_str().expect("addr").to_owned())
                .collect();
            assert_eq!(
                order,
                printed_order(run),
                "{fixture} {} at its look (packet {at})",
                run.name
            );
            last = Some((candidates, printed_order(run)));
        }
        // --at auto: the last getaddrinfo look, which is the last glibc run's
        let (candidates, printed) = last.expect("a glibc run");
        let mut args = vec!["--at", "auto", f.as_str()];
        args.extend(candidates.iter().map(String::as_str));
        let (g, _) = common::json_of("gai", &args);
        let order: Vec<String> = g["order"]
            .as_array()
            .expect("order")
            .iter()
            .map(|a| a.as_str().expect("addr").to_owned())
            .collect();
        assert_eq!(order, printed, "{fixture}: gai --at auto");
        let why = g["moment"]["description"].as_str().expect("moment");
        assert!(
            why.contains("--at auto: the last of") && why.contains("glibc getaddrinfo"),
            "{why}"
        );
        // Go's own resolver leaves no look: the end is used, and said
        let go = all
            .iter()
            .find(|r| r.env.iter().any(|e| e.contains("netdns=go")))
            .expect("a Go resolver run");
        let mut args = vec!["--at", "auto", "--resolver", "go", f.as_str()];
        args.extend(candidates.iter().map(String::as_str));
        let (g, _) = common::json_of("gai", &args);
        let order: Vec<String> = g["order"]
            .as_array()
            .expect("order")
            .iter()
            .map(|a| a.as_str().expect("addr").to_owned())
            .collect();
        assert_eq!(order, printed_order(go), "{fixture}: Go's resolver");
        assert!(
            g["moment"]["description"]
                .as_str()
                .expect("m")
                .contains("asks netlink for nothing"),
            "{g}"
        );
    }
}

/// `iface INDEX NAME ...` / `addr INDEX CIDR` lines of golook, grouped.
fn go_interfaces(run: &Run) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in &run.stdout {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["iface", _, name, ..] => out.push(((*name).to_owned(), Vec::new())),
            ["addr", _, cidr] => {
                if let Some(last) = out.last_mut() {
                    last.1.push((*cidr).to_owned());
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn at_a_go_look_the_tables_are_what_go_enumerated_and_first_found_walks_them_backwards() {
    for fixture in FIXTURES {
        let f = capture(fixture);
        let (who, _) = common::json_of("who", &[&f]);
        let all = runs(fixture);
        let go_runs: Vec<&Run> = all.iter().filter(|r| expected_library(r) == Some("go-net")).collect();
        assert!(!go_runs.is_empty(), "{fixture}");
        for run in &go_runs {
            let seen = go_interfaces(run);
            let at = look_of(&who, run.pid).to_string();
            let kernel = if fixture.starts_with("6.1/") { "6.1" } else { "6.12" };
            let (t, _) = common::json_of("table", &["--kernel", kernel, "--at", &at, &f]);
            let links: Vec<String> = t["links"]
                .as_array()
                .expect("links")
                .iter()
                .map(|l| l["name"].as_str().expect("name").to_owned())
                .collect();
            let names: Vec<String> = seen.iter().map(|(n, _)| n.clone()).collect();
            assert_eq!(links, names, "{fixture} {}: link order at packet {at}", run.name);
            for (name, addrs) in &seen {
                let index = t["links"]
                    .as_array()
                    .expect("links")
                    .iter()
                    .find(|l| l["name"] == name.as_str())
                    .and_then(|l| l["index"].as_u64())
                    .expect("index");
                let mine: Vec<String> = t["addresses"]
                    .as_array()
                    .expect("addresses")
                    .iter()
                    .filter(|a| a["index"].as_u64() == Some(index))
                    .map(|a| format!("{}/{}", a["address"].as_str().expect("a"), a["prefix_len"]))
                    .collect();
                assert_eq!(&mine, addrs, "{fixture} {}: addresses of {name}", run.name);
            }
        }
        // --at auto evaluates at the last Go look; calico walks its list backwards
        let last = go_interfaces(go_runs.last().expect("a Go run"));
        let kernel = if fixture.starts_with("6.1/") { "6.1" } else { "6.12" };
        let (d, _) = common::detect_json(&["--kernel", kernel, "--at", "auto", "--method", "first-found", &f]);
        let walked: Vec<String> = d["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .map(|c| c["interface"].as_str().expect("name").to_owned())
            .collect();
        let mut expected: Vec<String> = last.iter().map(|(n, _)| n.clone()).collect();
        expected.reverse();
        assert_eq!(walked, expected, "{fixture}: first-found at the last Go look");
        assert!(
            d["moment"]["description"].as_str().expect("m").contains("Go net"),
            "{}",
            d["moment"]
        );
    }
}

#[test]
fn a_capture_without_looks_says_so_and_the_timeline_marks_them() {
    // no request at all (sock_diag traffic)
    let f = common::fixture("third-party/xtcp2__6_10_3__6_10_3_tcp_10_sockets.pcap");
    let out = common::nlorder(&["who", "-q", &f.to_string_lossy()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(text.starts_with("no program asked for the tables"), "{text}");
    // GETs of single objects only
    let out = common::nlorder(&["who", "-q", &common::fixture("requests.pcap").to_string_lossy()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no looks: no dump requests"), "{text}");
    // and detect --at auto says it found none
    let (d, _) = common::detect_json(&["--at", "auto", &common::fixture("requests.pcap").to_string_lossy()]);
    assert!(
        d["moment"]["description"]
            .as_str()
            .expect("m")
            .contains("no Go program looked at the tables"),
        "{d}"
    );
    // a recorder's requests are not taken for a program's: nlorder record
    // sends full headers with time-seeded seq like iproute2, but no IFLA_EXT_MASK
    let (who, _) = common::json_of("who", &[&common::fixture("two-recordings.pcap").to_string_lossy()]);
    for r in who["requests"].as_array().expect("requests") {
        assert_eq!(r["library"], "unknown", "{r}");
    }
    let f = capture("6.12/gai-node");
    let out = common::nlorder(&["timeline", "-q", &f]);
    let text2 = String::from_utf8_lossy(&out.stdout);
    assert!(
        text2.contains("? glibc getaddrinfo (__check_pf) looked here"),
        "{text2}"
    );
    assert!(
        text2.contains("? Go net (net.Interfaces / Addrs) looked here"),
        "{text2}"
    );
}
