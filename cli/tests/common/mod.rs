//! Shared helpers for the integration tests.
#![allow(dead_code)]
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn fixtures() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures")).to_path_buf()
}

pub fn fixture(name: &str) -> PathBuf {
    fixtures().join(name)
}

/// A fixture's path as a command-line argument (`fx("basic.pcap")`).
pub fn fx(name: &str) -> String {
    fixture(name).to_str().expect("path").to_owned()
}

/// Writes `contents` to `name` in this test file's folder of the target's
/// temporary directory (named after the test, as `answers`), and returns
/// its path.
pub fn tmp(name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(env!("CARGO_CRATE_NAME"));
    std::fs::create_dir_all(&dir).expect("dir");
    let p = dir.join(name);
    std::fs::write(&p, contents).expect("write");
    p
}

/// The string at `key` of each element of the JSON array `list`.
#[track_caller]
pub fn strs_at(list: &serde_json::Value, key: &str) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(|x| {
            x[key]
                .as_str()
                .unwrap_or_else(|| panic!("no string {key}: {x}"))
                .to_owned()
        })
        .collect()
}

/// Copies the fixture `name` to `as_name` in the folder [`tmp`] writes to
/// (where a manifest written there finds it), and returns its path.
pub fn tmp_fixture(name: &str, as_name: &str) -> PathBuf {
    tmp(as_name, std::fs::read(fixture(name)).expect("fixture"))
}

/// A JSON document's `warnings`, as strings.
pub fn warnings(doc: &serde_json::Value) -> Vec<String> {
    doc["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(|w| w.as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The files in `dir` (not below it) whose names end with `suffix`,
/// sorted; fails the test when `dir` cannot be read.
pub fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}

/// Every capture under fixtures/ (recursively), sorted.
pub fn all_captures() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if let Some(n) = p.file_name().and_then(|n| n.to_str())
                && (n.ends_with(".pcap") || n.ends_with(".pcapng") || n.ends_with(".pcap.gz"))
            {
                out.push(p);
            }
        }
    }
    let mut v = Vec::new();
    walk(&fixtures(), &mut v);
    v.sort();
    v
}

/// Fails the test unless `text` holds every one of `needles`, naming the
/// one missing and quoting the text.
#[track_caller]
pub fn assert_has(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "{needle:?} is not in:\n{text}");
    }
}

/// Fails the test when the command that gave `out` failed, naming it
/// (`what`) and quoting its stderr.
#[track_caller]
pub fn assert_ok(out: &Output, what: impl std::fmt::Display) {
    assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
}

/// `nlorder ARGS...`: its stdout; fails the test when nlorder fails.
#[track_caller]
pub fn stdout_ok(args: &[&str]) -> String {
    let out = nlorder(args);
    assert_ok(&out, format_args!("nlorder {args:?}"));
    String::from_utf8(out.stdout).expect("utf-8")
}

pub fn nlorder(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run nlorder")
}

/// `nlorder check ARGS...`: its stdout; fails the test, quoting what it
/// printed, unless every case of the manifest passed (exit 0).
#[track_caller]
pub fn check_ok(args: &[&str]) -> String {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    let out = nlorder(&all);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "nlorder {all:?}:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// `nlorder ARGS...` with the file `input` on its standard input (written
/// from another thread, so that its output cannot block the writing).
pub fn nlorder_stdin(args: &[&str], input: &Path) -> Output {
    use std::io::Write;
    let bytes = std::fs::read(input).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn nlorder");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer").expect("write");
    out
}

/// `tshark -r PATH ARGS...`: its stdout; fails the test when tshark fails.
pub fn tshark(path: &Path, args: &[&str]) -> String {
    let out = Command::new("tshark")
        .arg("-r")
        .arg(path)
        .args(args)
        .output()
        .expect("run tshark");
    assert_ok(&out, format_args!("tshark {args:?} on {}", path.display()));
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Per packet, each column's values joined by a comma, as tshark prints a
/// field that occurs more than once.
pub fn tshark_columns<K: Ord>(
    rows: std::collections::BTreeMap<K, Vec<Vec<String>>>,
) -> std::collections::BTreeMap<K, Vec<String>> {
    rows.into_iter()
        .map(|(p, cols)| (p, cols.into_iter().map(|c| c.join(",")).collect()))
        .collect()
}

/// Whether an external tool is on PATH. In CI (CI=true) a missing tool is a
/// failure, so a cross-check cannot silently stop checking.
pub fn have_tool(tool: &str) -> bool {
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        assert!(
            std::env::var("CI").is_err(),
            "{tool} is not installed, but CI must run this cross-check (.ci/run installs it)"
        );
        eprintln!("SKIPPED: {tool} is not installed; this cross-check did not run");
    }
    found
}

/// The folder of fresh recordings `.ci/run` makes and names in the
/// environment variable `var` (NLORDER_MATRIX_DIR, NLORDER_DAEMONS_DIR,
/// NLORDER_CHOOSERS_DIR). Outside CI a missing one is said as SKIPPED;
/// under CI (`CI` set) it fails, as a missing tool does: CI must check
/// the fresh runs, not pass without them.
pub fn fresh_dir(var: &str) -> Option<std::path::PathBuf> {
    match std::env::var(var) {
        Ok(dir) => Some(std::path::PathBuf::from(dir)),
        Err(_) => {
            assert!(
                std::env::var("CI").is_err(),
                "{var} is not set, but CI must check the fresh runs (.ci/run records them)"
            );
            eprintln!("SKIPPED: {var} is not set; no fresh runs were checked");
            None
        }
    }
}

/// `nlorder SUBCOMMAND -q --format json ARGS...`: the JSON document and the exit code.
pub fn json_of(subcommand: &str, args: &[&str]) -> (serde_json::Value, Option<i32>) {
    let mut a = vec![subcommand, "-q", "--format", "json"];
    a.extend_from_slice(args);
    let out = nlorder(&a);
    let v =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (v, out.status.code())
}

/// `detect --format json` on one capture: checks the one document shape
/// (`{nodes, conflicts}`) and returns that capture's entry.
#[allow(dead_code)]
pub fn detect_json(args: &[&str]) -> (serde_json::Value, Option<i32>) {
    let (v, code) = json_of("detect", args);
    assert!(v["conflicts"].is_array(), "{v}");
    let nodes = v["nodes"].as_array().unwrap_or_else(|| panic!("no nodes: {v}"));
    assert_eq!(nodes.len(), 1, "{v}");
    (nodes[0].clone(), code)
}

/// The kernel model rebuilt from a whole capture file.
pub fn rebuild_file(path: &Path) -> nlorder::model::Model {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = nlorder::capture::CaptureReader::new(file).expect("capture");
    let mut diags = nlorder::diag::Diagnostics::default();
    nlorder::ingest::rebuild::rebuild(
        &mut reader,
        nlorder::ingest::trace::TraceOptions::default(),
        nlorder::model::ModelOptions::default(),
        None,
        &mut diags,
        &mut (),
    )
    .expect("rebuild")
    .model
}

/// NDJSON lines of `nlorder decode --format json FILE`.
pub fn decode_json(path: &Path) -> Vec<serde_json::Value> {
    stdout_ok(&[
        "decode",
        "--format",
        "json",
        "--quiet",
        path.to_str().expect("utf-8 path"),
    ])
    .lines()
    .map(|l| serde_json::from_str(l).expect("json line"))
    .collect()
}

pub fn have(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd)
        .args(args)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// The arguments that record a namespace's tables into `cap` with
/// nlorder's own recorder (run them with `Netns::exec`).
/// Whether this machine can run tests in network namespaces (root,
/// iproute2, python3) plus `extra` tools; in CI it must.
pub fn can_run_netns(extra: &[&str]) -> bool {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n")
        .unwrap_or(false);
    let mut missing: Vec<String> = Vec::new();
    if !root {
        missing.push("root".into());
    }
    if !have("ip", &["-V"]) {
        missing.push("iproute2".into());
    }
    if !have("python3", &["--version"]) {
        missing.push("python3".into());
    }
    for t in extra {
        if !have(t, &["version"]) && !have(t, &["--version"]) {
            missing.push((*t).into());
        }
    }
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var("CI").is_err(),
        "CI must run the namespace tests; missing: {missing:?}"
    );
    eprintln!("SKIPPED: this test needs {missing:?}");
    false
}

/// A network namespace that is deleted when dropped.
pub struct Netns(pub String);

impl Netns {
    pub fn new(tag: &str) -> Netns {
        let name = format!("nlorder-test-{tag}-{}", std::process::id());
        let _ = Command::new("ip").args(["netns", "del", &name]).output();
        let ok = Command::new("ip")
            .args(["netns", "add", &name])
            .status()
            .expect("ip netns add")
            .success();
        assert!(ok, "ip netns add {name}");
        Netns(name)
    }

    pub fn sh(&self, script: &str) {
        for line in script.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let args: Vec<&str> = line.split_whitespace().collect();
            let out = Command::new("ip")
                .args(["netns", "exec", &self.0])
                .args(&args)
                .output()
                .expect("ip netns exec");
            assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }

    /// Records the namespace's tables into `cap` with `nlorder record`, as
    /// a program in it would see them; why not, when it fails.
    pub fn record(&self, cap: &Path) -> Result<(), String> {
        let out = self.exec(&[
            env!("CARGO_BIN_EXE_nlorder"),
            "record",
            "-q",
            "-w",
            cap.to_str().expect("path"),
        ]);
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("recorder: {}", String::from_utf8_lossy(&out.stderr)))
        }
    }

    pub fn exec(&self, cmd: &[&str]) -> std::process::Output {
        Command::new("ip")
            .args(["netns", "exec", &self.0])
            .args(cmd)
            .output()
            .expect("ip netns exec")
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        let _ = Command::new("ip").args(["netns", "del", &self.0]).output();
    }
}

/// Comparing `nlorder table --format json` with `ip -j` output.
pub mod matrix;

pub mod tables {
    use serde_json::Value;

    /// `ip -j link`'s (ifindex, name) in order.
    pub fn ip_links(ip: &Value) -> Vec<(u64, String)> {
        index_and_name(&ip["link"], "ifindex", "ifname")
    }

    /// (ifindex, name) in order.
    pub fn our_links(t: &Value) -> Vec<(u64, String)> {
        index_and_name(&t["links"], "index", "name")
    }

    /// The (`index`, `name`) of each link of the list `links`.
    fn index_and_name(links: &Value, index: &str, name: &str) -> Vec<(u64, String)> {
        links
            .as_array()
            .unwrap_or_else(|| panic!("no links: {links}"))
            .iter()
            .map(|l| {
                (
                    l[index].as_u64().unwrap_or_else(|| panic!("no {index}: {l}")),
                    l[name].as_str().unwrap_or_else(|| panic!("no {name}: {l}")).to_owned(),
                )
            })
            .collect()
    }

    /// Per ifindex, addresses in order: (family, address/prefix, label).
    pub fn our_addrs(t: &Value) -> Vec<(u64, String, String, String)> {
        // `ip addr` prints each link's IPv4 then IPv6 addresses; ours are in
        // AF_UNSPEC dump order (all IPv4, then all IPv6), so group per link.
        let mut out = Vec::new();
        for (idx, _) in our_links(t) {
            for fam in [4, 6] {
                for a in t["addresses"].as_array().expect("addresses") {
                    if a["index"].as_u64() == Some(idx) && a["family"].as_u64() == Some(fam) {
                        out.push((
                            idx,
                            if fam == 4 { "inet" } else { "inet6" }.to_owned(),
                            format!("{}/{}", a["address"].as_str().expect("addr"), a["prefix_len"]),
                            a["label"].as_str().unwrap_or_default().to_owned(),
                        ));
                    }
                }
            }
        }
        out
    }

    pub fn ip_addrs(ip: &Value) -> Vec<(u64, String, String, String)> {
        let mut out = Vec::new();
        for l in ip["addr"].as_array().expect("ip addr") {
            let idx = l["ifindex"].as_u64().expect("ifindex");
            for a in l["addr_info"].as_array().expect("addr_info") {
                out.push((
                    idx,
                    a["family"].as_str().expect("family").to_owned(),
                    format!("{}/{}", a["local"].as_str().expect("local"), a["prefixlen"]),
                    a["label"].as_str().unwrap_or_default().to_owned(),
                ));
            }
        }
        out
    }

    pub fn norm_dst(dst: &str, v6: bool) -> String {
        if dst == "default" || dst.contains('/') {
            dst.to_owned()
        } else {
            format!("{dst}/{}", if v6 { 128 } else { 32 })
        }
    }

    /// (type, dst, gateway, dev, table, prefsrc, metric) per route, sorted.
    pub fn ip_routes(ip: &Value) -> Vec<String> {
        let mut v = Vec::new();
        for (key, v6) in [("route4", false), ("route6", true)] {
            for r in ip[key].as_array().expect("routes") {
                let s = |k: &str| r[k].as_str().unwrap_or_default().to_owned();
                v.push(format!(
                    "{} {} via={} dev={} table={} src={} metric={}",
                    r["type"].as_str().unwrap_or("unicast"),
                    norm_dst(&s("dst"), v6),
                    s("gateway"),
                    s("dev"),
                    r["table"].as_str().unwrap_or("main"),
                    s("prefsrc"),
                    r["metric"].as_u64().map(|m| m.to_string()).unwrap_or_default(),
                ));
            }
        }
        v.sort();
        v
    }

    pub fn our_routes(t: &Value) -> Vec<String> {
        let mut v = Vec::new();
        for r in t["routes"].as_array().expect("routes") {
            let s = |k: &str| r[k].as_str().unwrap_or_default().to_owned();
            v.push(format!(
                "{} {} via={} dev={} table={} src={} metric={}",
                s("type"),
                s("dst"),
                s("gateway"),
                s("oif"),
                s("table"),
                s("prefsrc"),
                r["metric"].as_u64().map(|m| m.to_string()).unwrap_or_default(),
            ));
        }
        v.sort();
        v
    }
}

/// A small Go program (built CGO_ENABLED=0, so its resolver is Go's own):
/// `godiff` lists net.Interfaces()/Addrs() as JSON, `godiff regexp` answers
/// "pattern<TAB>name" lines with MatchString, `godiff lookup NAME` prints
/// LookupIPAddr's answers in order.
pub const GO_PROGRAM: &str = r#"package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"regexp"
	"strings"
)

type iface struct {
	Index int      `json:"index"`
	Name  string   `json:"name"`
	Addrs []string `json:"addrs"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "regexp" {
		// stdin: "pattern<TAB>name" lines; stdout: true/false/error per line
		in := bufio.NewScanner(os.Stdin)
		out := []string{}
		for in.Scan() {
			parts := strings.SplitN(in.Text(), "\t", 2)
			re, err := regexp.Compile(parts[0])
			if err != nil {
				out = append(out, "error")
				continue
			}
			if re.MatchString(parts[1]) {
				out = append(out, "true")
			} else {
				out = append(out, "false")
			}
		}
		json.NewEncoder(os.Stdout).Encode(out)
		return
	}
	if len(os.Args) > 2 && os.Args[1] == "lookup" {
		// the pure-Go resolver (built with CGO_ENABLED=0): hosts file, then DNS
		addrs, err := net.DefaultResolver.LookupIPAddr(context.Background(), os.Args[2])
		if err != nil {
			panic(err)
		}
		out := []string{}
		for _, a := range addrs {
			out = append(out, a.IP.String())
		}
		json.NewEncoder(os.Stdout).Encode(out)
		return
	}
	ifs, err := net.Interfaces()
	if err != nil {
		panic(err)
	}
	res := []iface{}
	for _, i := range ifs {
		addrs, err := i.Addrs()
		if err != nil {
			panic(err)
		}
		s := []string{}
		for _, a := range addrs {
			s = append(s, a.String())
		}
		res = append(res, iface{i.Index, i.Name, s})
	}
	json.NewEncoder(os.Stdout).Encode(res)
}
"#;

/// Built once per test binary: tests run in parallel threads, and two
/// builds writing the same go.mod at once made one read it half-written.
pub fn go_binary() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(build_go_binary).clone()
}

fn build_go_binary() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("go-differential");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("main.go"), GO_PROGRAM).expect("write go");
    std::fs::write(dir.join("go.mod"), "module nlorderdiff\n\ngo 1.19\n").expect("go.mod");
    let bin = dir.join("godiff");
    let out = Command::new("go")
        .args(["build", "-o", bin.to_str().expect("p"), "."])
        .current_dir(&dir)
        .env("GOCACHE", dir.join("cache"))
        .env("GOPATH", dir.join("gopath"))
        .env("CGO_ENABLED", "0")
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("go build");
    assert_ok(&out, "go build");
    bin
}

/// A small C program linked statically against musl: prints getaddrinfo's
/// answers for argv[1] (AF_UNSPEC, SOCK_STREAM), one per line.
pub const MUSL_PROGRAM: &str = r#"#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
int main(int argc, char **argv) {
    struct addrinfo hints, *res, *p;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    if (argc < 2 || getaddrinfo(argv[1], NULL, &hints, &res) != 0) return 1;
    for (p = res; p; p = p->ai_next) {
        char buf[64];
        void *a = p->ai_family == AF_INET ? (void *)&((struct sockaddr_in *)p->ai_addr)->sin_addr
                                          : (void *)&((struct sockaddr_in6 *)p->ai_addr)->sin6_addr;
        inet_ntop(p->ai_family, a, buf, sizeof buf);
        printf("%s\n", buf);
    }
    return 0;
}
"#;

/// Builds MUSL_PROGRAM with musl-gcc (Debian's musl-tools).
pub fn musl_binary() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("musl-differential");
    std::fs::create_dir_all(&dir).expect("dir");
    let src = dir.join("gai.c");
    std::fs::write(&src, MUSL_PROGRAM).expect("write c");
    let bin = dir.join("musl-gai");
    let out = Command::new("musl-gcc")
        .args([
            "-static",
            "-O2",
            "-o",
            bin.to_str().expect("p"),
            src.to_str().expect("p"),
        ])
        .output()
        .expect("musl-gcc");
    assert_ok(&out, "musl-gcc");
    bin
}

/// Removes the test's files when dropped.
pub struct TempDir(pub PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `program` in the namespace, in a private mount namespace with the
/// case's files over /etc/hosts, /etc/host.conf and /etc/nsswitch.conf.
pub fn in_mounts(ns: &Netns, dir: &Path, program: &[&str]) -> String {
    let script = "set -e\n\
        mount --bind \"$1/hosts\" /etc/hosts\n\
        mount --bind \"$1/host.conf\" /etc/host.conf\n\
        mount --bind \"$1/nsswitch.conf\" /etc/nsswitch.conf\n\
        if [ -d /run/nscd ]; then mount -t tmpfs none /run/nscd; fi\n\
        shift\n\
        exec \"$@\"";
    let out = Command::new("ip")
        .args(["netns", "exec", &ns.0, "unshare", "--mount", "sh", "-c", script, "sh"])
        .arg(dir)
        .args(program)
        .env_remove("RESOLV_MULTI")
        .env_remove("RESOLV_HOST_CONF")
        .env_remove("LOCALDOMAIN")
        .output()
        .expect("ip netns exec unshare");
    // getent exits 2 when the name has no address: an empty answer.
    assert!(
        out.status.success() || out.status.code() == Some(2),
        "{program:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Keys `ip -j -d link show` adds to `ip -j link show` (iproute2 6.1
/// `print_linkinfo` under `show_details`, with `print_linktype` and
/// `print_af_spec`).
pub const DETAILS_ONLY: &[&str] = &[
    "promiscuity",
    "allmulti",
    "min_mtu",
    "max_mtu",
    "linkinfo",
    "inet6_addr_gen_mode",
    "num_tx_queues",
    "num_rx_queues",
    "gso_max_size",
    "gso_max_segs",
    "tso_max_size",
    "tso_max_segs",
    "gro_max_size",
    "phys_port_name",
    "phys_port_id",
    "phys_switch_id",
    "parentbus",
    "parentdev",
];

/// From `ip -j` output saved beside a capture (`link`, `route4`, `route6`),
/// the links and the routes as `table --format ip-json` prints them: the
/// links without the keys only `ip -d` adds, the routes of both families in
/// one list without `expires` (it ticks, and nlorder leaves it out).
pub fn ip_json_links_and_routes(ip: &serde_json::Value) -> (serde_json::Value, serde_json::Value) {
    let mut link = ip["link"].clone();
    drop_keys(&mut link, DETAILS_ONLY);
    let mut route: Vec<serde_json::Value> = ip["route4"].as_array().cloned().unwrap_or_default();
    route.extend(ip["route6"].as_array().cloned().unwrap_or_default());
    let mut route = serde_json::Value::Array(route);
    drop_keys(&mut route, &["expires"]);
    (link, route)
}

/// `v` without `keys`, at every depth.
pub fn drop_keys(v: &mut serde_json::Value, keys: &[&str]) {
    match v {
        serde_json::Value::Object(m) => {
            for k in keys {
                m.remove(*k);
            }
            m.values_mut().for_each(|x| drop_keys(x, keys));
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(|x| drop_keys(x, keys)),
        _ => {}
    }
}
