//! Shared helpers for the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

pub fn fixture(name: &str) -> PathBuf {
    fixtures().join(name)
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

pub fn nlorder(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run nlorder")
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

/// NDJSON lines of `nlorder decode --format json FILE`.
pub fn decode_json(path: &Path) -> Vec<serde_json::Value> {
    let out = nlorder(&[
        "decode",
        "--format",
        "json",
        "--quiet",
        path.to_str().expect("utf-8 path"),
    ]);
    assert!(
        out.status.success(),
        "decode {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
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

pub fn recorder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/nlrecord.py")
}

/// Whether this machine can run tests in network namespaces (root,
/// iproute2, python3, the recorder in ../shared/tools) plus `extra` tools;
/// in CI it must.
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
    if !recorder().exists() {
        missing.push("../shared/tools/nlrecord.py".into());
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
