//! Who looked, and what they saw: real programs (glibc's getaddrinfo via
//! getent, Python and Go's cgo resolver, Go's net package, Go's own
//! resolver in a program that enumerates its interfaces, iproute2) ran
//! during real nlmon captures on Debian's 6.1 and 6.12 kernels
//! (fixtures/looks/). `who` must name each one from the bytes alone, and
//! the replays at each program's own look must print what it printed.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use serde_json::Value;

const FIXTURES: [&str; 6] = [
    "6.1/gai-node",
    "6.1/go-enum",
    "6.1/go-resolver",
    "6.12/gai-node",
    "6.12/go-enum",
    "6.12/go-resolver",
];

struct Run {
    name: String,
    pid: u64,
    command: Vec<String>,
    env: Vec<String>,
    hosts: Vec<String>,
    stdout: Vec<String>,
}

/// One capture with what its programs printed.
struct Case {
    /// `6.12/gai-node.l0`, for messages.
    name: String,
    capture: String,
    runs: Vec<Run>,
    /// The kernel release it was taken on (`--kernel`).
    kernel: String,
    /// `nlorder who --format json` on the capture: every check starts from
    /// the looks it names.
    who: Value,
}

fn case(dir: &std::path::Path, kernel: &str, stem: &str) -> Case {
    let capture = dir.join(format!("{stem}.pcap")).to_str().expect("path").to_owned();
    let (who, code) = common::json_of("who", &[&capture]);
    assert_eq!(code, Some(0), "who on {capture}");
    Case {
        name: format!("{kernel}/{stem}"),
        capture,
        runs: runs(&dir.join(format!("{stem}.runs.json"))),
        kernel: kernel.to_owned(),
        who,
    }
}

impl Case {
    /// The runs that sent requests of `lib`.
    fn sending(&self, lib: &str) -> Vec<&Run> {
        self.runs.iter().filter(|r| sends(r, lib)).collect()
    }
}

/// The committed fixtures (fixtures/looks/).
fn committed() -> Vec<Case> {
    FIXTURES
        .iter()
        .map(|f| {
            let (kernel, stem) = f.split_once('/').expect("KERNEL/NAME");
            case(
                &common::fixture(&format!("looks/{kernel}")),
                kernel,
                &format!("{stem}.l0"),
            )
        })
        .collect()
}

/// Fresh runs with programs, below NLORDER_MATRIX_DIR/KERNEL/ (CI records
/// them on both kernels).
fn fresh() -> Vec<Case> {
    let Some(dir) = common::fresh_dir("NLORDER_MATRIX_DIR") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for k in std::fs::read_dir(&dir).expect("NLORDER_MATRIX_DIR").flatten() {
        let kernel = k.file_name().to_string_lossy().into_owned();
        let Ok(files) = std::fs::read_dir(k.path()) else {
            continue;
        };
        let mut stems: Vec<String> = files
            .flatten()
            .filter_map(|f| f.file_name().to_str()?.strip_suffix(".runs.json").map(str::to_owned))
            .collect();
        stems.sort();
        out.extend(stems.iter().map(|s| case(&k.path(), &kernel, s)));
    }
    out
}

fn runs(path: &std::path::Path) -> Vec<Run> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("runs.json")).expect("json");
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

/// What a run is, and which libraries' requests it must have sent (none:
/// it asks netlink for nothing).
fn expected_libraries(run: &Run) -> Vec<&'static str> {
    let cmd = run.command.join(" ");
    let cgo = run.env.iter().any(|e| e.contains("netdns=cgo"));
    if cmd.contains("golook node") {
        // interfaces first, then the lookup: through glibc with cgo
        if cgo { vec!["go-net", "glibc"] } else { vec!["go-net"] }
    } else if cmd.contains("getent") || cmd.contains("pylook") || cgo {
        vec!["glibc"]
    } else if run.env.iter().any(|e| e.contains("netdns=go")) {
        Vec::new() // Go's own resolver asks netlink for nothing
    } else if cmd.contains("golook interfaces") {
        vec!["go-net"]
    } else if cmd.contains("/ip ") {
        vec!["iproute2"]
    } else {
        panic!("{}: a run this test does not know", run.name)
    }
}

/// Whether the run sent requests of `lib`.
fn sends(run: &Run, lib: &str) -> bool {
    expected_libraries(run).contains(&lib)
}

#[test]
fn who_names_every_program_that_ran() {
    for c in committed() {
        check_who(&c);
    }
}

fn check_who(c: &Case) {
    let fixture = &c.name;
    let requests = c.who["requests"].as_array().expect("requests");
    for run in &c.runs {
        let mine: Vec<&Value> = requests
            .iter()
            .filter(|r| r["port"].as_u64() == Some(run.pid) && r["dump"] == true)
            .collect();
        let libs = expected_libraries(run);
        if libs.is_empty() {
            assert!(mine.is_empty(), "{fixture} {}: {mine:?}", run.name);
        }
        for lib in &libs {
            assert!(
                mine.iter()
                    .any(|r| r["library"].as_str().is_some_and(|l| l.starts_with(lib))),
                "{fixture} {}: no {lib} request from port {}",
                run.name,
                run.pid
            );
        }
        for r in mine {
            let got = r["library"].as_str().expect("library");
            assert!(
                libs.iter().any(|lib| got.starts_with(lib)),
                "{fixture} {}: {got} for {r}",
                run.name
            );
            if got != "iproute2" {
                assert_eq!(r["confidence"], "certain", "{fixture} {}: {r}", run.name);
            }
        }
    }
    // The scenario's own `ip` steps are the only other requesters:
    // never taken for glibc or Go.
    let pids: Vec<u64> = c.runs.iter().map(|r| r.pid).collect();
    for r in requests
        .iter()
        .filter(|r| !r["port"].as_u64().is_some_and(|p| pids.contains(&p)))
    {
        let lib = r["library"].as_str().expect("library");
        assert!(lib == "iproute2" || lib == "unknown", "{fixture}: {lib} for {r}");
    }
}

/// The end packet of the look a run made with `lib` (its port's last such look).
fn look_of(who: &Value, pid: u64, lib: &str) -> u64 {
    who["looks"]
        .as_array()
        .expect("looks")
        .iter()
        .filter(|l| l["port"].as_u64() == Some(pid))
        .filter(|l| l["library"].as_str().is_some_and(|l| l.starts_with(lib)))
        .filter_map(|l| l["end_packet"].as_u64())
        .next_back()
        .unwrap_or_else(|| panic!("no {lib} look from port {pid}"))
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

/// The candidates of the name a run looked up, in the name service's
/// order: the addresses of the hosts file's lines for the name.
fn hosts_candidates(run: &Run) -> Vec<String> {
    let name = run.command.last().expect("name");
    run.hosts
        .iter()
        .filter(|l| l.split_whitespace().nth(1) == Some(name.as_str()))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// `gai ARGS CANDIDATES --format json`: the order it predicts, and the document.
fn gai_order(args: &[&str], candidates: &[String]) -> (Vec<String>, Value) {
    let mut a = args.to_vec();
    a.extend(candidates.iter().map(String::as_str));
    let (g, _) = common::json_of("gai", &a);
    let order = g["order"]
        .as_array()
        .expect("order")
        .iter()
        .map(|a| a.as_str().expect("addr").to_owned())
        .collect();
    (order, g)
}

#[test]
fn gai_at_each_programs_look_predicts_what_it_printed() {
    let cases = committed();
    let with_glibc: Vec<&Case> = cases.iter().filter(|c| !c.sending("glibc").is_empty()).collect();
    assert_eq!(with_glibc.len(), 4, "gai-node and go-resolver on both kernels");
    for c in with_glibc {
        check_gai(c);
    }
}

fn check_gai(c: &Case) {
    let fixture = &c.name;
    let f = &c.capture;
    let glibc = c.sending("glibc");
    assert!(!glibc.is_empty(), "{fixture}");
    let mut last = None;
    for run in &glibc {
        let candidates = hosts_candidates(run);
        let at = look_of(&c.who, run.pid, "glibc").to_string();
        let (order, _) = gai_order(&["--at", &at, f], &candidates);
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
    let (order, g) = gai_order(&["--at", "auto", f], &candidates);
    assert_eq!(order, printed, "{fixture}: gai --at auto");
    let why = g["moment"]["description"].as_str().expect("moment");
    common::assert_has(why, &["--at auto: the last of", "glibc getaddrinfo"]);
    // Go's own resolver asks netlink for nothing: --at auto infers its
    // moment from the last interface look of a Go program whose port
    // sent no __check_pf (a cgo program's is left out), and says so
    let go = c
        .runs
        .iter()
        .find(|r| r.env.iter().any(|e| e.contains("netdns=go")))
        .expect("a Go resolver run");
    let (order, g) = gai_order(&["--at", "auto", "--resolver", "go", f], &hosts_candidates(go));
    assert_eq!(order, printed_order(go), "{fixture}: Go's resolver");
    let moment = &g["moment"];
    let why = moment["description"].as_str().expect("m");
    common::assert_has(why, &["asks netlink for nothing"]);
    let mut go_programs = c.runs.iter().filter(|r| sends(r, "go-net") && !sends(r, "glibc"));
    match go_programs.next_back() {
        Some(r) => {
            let look = look_of(&c.who, r.pid, "go-net");
            assert_eq!(moment["packet"], look, "{fixture}: {}'s interface look", r.name);
            assert_eq!(moment["inferred"], true, "{fixture}");
            common::assert_has(why, &["(--at auto, inferred: "]);
            assert!(why.contains(&format!("port {},", r.pid)), "{why}");
            for cgo in c.runs.iter().filter(|r| sends(r, "go-net") && sends(r, "glibc")) {
                assert!(why.contains(&format!("port {} also sent __check_pf", cgo.pid)), "{why}");
            }
        }
        None => {
            assert_eq!(moment["end_of_capture"], true, "{fixture}");
            assert_eq!(moment["inferred"], false, "{fixture}");
        }
    }
}

/// Go's own resolver in a program that enumerates its interfaces first (as
/// kubelet does), then an address change, then the same program built with
/// cgo: the end of the capture gives another order than the one Go printed;
/// the program's own look gives it, and a cgo program's later look is not
/// taken for Go's resolver's.
#[test]
fn go_resolver_at_auto_is_its_programs_interface_look_not_the_end() {
    for c in committed().iter().filter(|c| c.name.contains("go-resolver")) {
        let fixture = &c.name;
        let who = &c.who;
        let go = c.runs.iter().find(|r| r.name == "go-node").expect("go-node");
        let cgo = c.runs.iter().find(|r| r.name == "cgo-node").expect("cgo-node");
        let candidates = ["10.0.6.2".to_owned(), "2001:db8:20::2".to_owned()];
        let printed = printed_order(go);
        assert_eq!(printed, ["2001:db8:20::2", "10.0.6.2"], "{fixture}");
        // the end of the capture: the IPv6 address is gone, IPv4 first
        let (at_end, _) = gai_order(&["--resolver", "go", &c.capture], &candidates);
        assert_ne!(at_end, printed, "{fixture}: the end is not Go's moment");
        let (at_auto, g) = gai_order(&["--at", "auto", "--resolver", "go", &c.capture], &candidates);
        assert_eq!(at_auto, printed, "{fixture}");
        assert_eq!(g["moment"]["packet"], look_of(who, go.pid, "go-net"), "{fixture}");
        // the cgo program's Go look is later, and left out
        assert!(look_of(who, cgo.pid, "go-net") > look_of(who, go.pid, "go-net"));
        // every look of a Go program that is not a cgo one: only go-node's
        let text = common::stdout_ok(&[
            "gai",
            "-q",
            "--at",
            "auto",
            "--all-looks",
            "--resolver",
            "go",
            &c.capture,
            "10.0.6.2",
            "2001:db8:20::2",
        ]);
        assert_eq!(text.matches("go order:").count(), 1, "{fixture}: {text}");
        common::assert_has(&text, &["(--at auto, inferred: look 1 of the capture"]);
        // manifests' at = "auto" for resolver = "go" is the same moment
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("go-resolver");
        std::fs::create_dir_all(&dir).expect("dir");
        let manifest = dir.join(format!("{}.nlorder.toml", fixture.replace('/', "-")));
        let capture = std::fs::canonicalize(&c.capture).expect("capture");
        std::fs::write(
            &manifest,
            format!(
                "capture = {:?}\nkernel = {:?}\n\n[[gai]]\ncandidates = [\"10.0.6.2\", \"2001:db8:20::2\"]\n\
                 resolver = \"go\"\nat = \"auto\"\norder = [\"2001:db8:20::2\", \"10.0.6.2\"]\n",
                capture.to_str().expect("path"),
                c.kernel
            ),
        )
        .expect("manifest");
        common::check_ok(&[manifest.to_str().expect("path")]);
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
    for c in committed() {
        check_go(&c);
    }
}

fn check_go(c: &Case) {
    let fixture = &c.name;
    let (f, kernel) = (c.capture.as_str(), c.kernel.as_str());
    let go_runs = c.sending("go-net");
    assert!(!go_runs.is_empty(), "{fixture}");
    for run in &go_runs {
        let seen = go_interfaces(run);
        let at = look_of(&c.who, run.pid, "go-net").to_string();
        let (t, _) = common::json_of("table", &["--kernel", kernel, "--at", &at, f]);
        let links = common::strs_at(&t["links"], "name");
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
    let (d, _) = common::detect_json(&["--kernel", kernel, "--at", "auto", "--method", "first-found", f]);
    let walked = common::strs_at(&d["candidates"], "interface");
    let mut expected: Vec<String> = last.iter().map(|(n, _)| n.clone()).collect();
    expected.reverse();
    assert_eq!(walked, expected, "{fixture}: first-found at the last Go look");
    assert!(
        d["moment"]["description"].as_str().expect("m").contains("Go net"),
        "{}",
        d["moment"]
    );
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
    let text = common::stdout_ok(&["who", "-q", &common::fixture("requests.pcap").to_string_lossy()]);
    common::assert_has(&text, &["no looks: no dump requests"]);
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
    let f = common::fixture("looks/6.12/gai-node.l0.pcap")
        .to_string_lossy()
        .into_owned();
    let text2 = common::stdout_ok(&["timeline", "-q", &f]);
    common::assert_has(&text2, &["? glibc getaddrinfo (__check_pf) looked here"]);
    common::assert_has(&text2, &["? Go net (net.Interfaces / Addrs) looked here"]);
}

/// Fresh recordings of the same scenarios (CI makes them on both kernels
/// with 0, 1 and 2 listeners): the same checks, so the fixtures cannot
/// drift from what the programs and kernels do.
#[test]
fn fresh_look_runs_meet_the_same_checks() {
    let cases = fresh();
    if cases.is_empty() {
        // Under CI a missing NLORDER_MATRIX_DIR has failed in fresh(); a
        // folder without runs with programs fails here (.ci/run records
        // scenarios with programs: none is a broken run).
        assert!(
            std::env::var("CI").is_err(),
            "no fresh runs with programs below NLORDER_MATRIX_DIR"
        );
        eprintln!("SKIPPED: no fresh runs with programs below NLORDER_MATRIX_DIR");
        return;
    }
    for c in &cases {
        eprintln!("checking {}", c.name);
        check_who(c);
        if !c.sending("glibc").is_empty() {
            check_gai(c);
        }
        if !c.sending("go-net").is_empty() {
            check_go(c);
        }
    }
}

/// `--at auto` finds the looks while it rebuilds, in one pass: a capture
/// on stdin gives the same answer as the file.
#[test]
fn at_auto_reads_the_capture_once_so_stdin_works() {
    let path = common::fixture("looks/6.12/gai-node.l0.pcap");
    let (from_file, _) = common::detect_json(&["--at", "auto", &path.to_string_lossy()]);
    let out = common::nlorder_stdin(&["detect", "-q", "--format", "json", "--at", "auto", "-"], &path);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("json");
    let from_stdin = &doc["nodes"][0];
    assert_eq!(from_stdin["address"], from_file["address"]);
    assert_eq!(from_stdin["moment"]["packet"], from_file["moment"]["packet"]);
    assert_eq!(
        from_file["moment"]["packet"], 80,
        "the Go program's look ends at packet 80"
    );
}
