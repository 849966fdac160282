//! The real-kernel matrix (`scripts/kernel-matrix.sh`): a capture taken with
//! tcpdump on a real `nlmon0`, and what `ip -j` printed right after it, held
//! against `nlorder table` — links, each link's addresses and every route,
//! all in the kernel's order.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use serde_json::Value;

/// One recorded run: `S.lN.pcap` beside `S.lN.ip.json`.
pub struct Run {
    pub pcap: PathBuf,
    pub ip: Value,
}

impl Run {
    pub fn load(pcap: &Path) -> Run {
        let json = pcap.with_extension("ip.json");
        let ip = serde_json::from_slice(&std::fs::read(&json).unwrap_or_else(|e| panic!("{}: {e}", json.display())))
            .unwrap_or_else(|e| panic!("{}: {e}", json.display()));
        Run {
            pcap: pcap.to_owned(),
            ip,
        }
    }

    pub fn kernel(&self) -> &str {
        self.ip["kernel"].as_str().unwrap_or_default()
    }

    pub fn listeners(&self) -> u64 {
        self.ip["listeners"].as_u64().unwrap_or_default()
    }

    /// What the user tells nlorder about the host: the kernel release and the
    /// promote_secondaries setting (a sysctl no capture shows).
    pub fn args(&self) -> Vec<String> {
        let mut v = vec!["--kernel".to_owned(), self.kernel().to_owned()];
        if let Some(p) = self.ip["promote_secondaries"].as_u64() {
            v.push("--promote-secondaries".into());
            v.push(if p == 1 { "on" } else { "off" }.into());
        }
        v
    }

    /// `nlorder table --format json` on the capture, as the tables stood
    /// when `ip -j` ran: at `ip_time` (when the guest ran it, on the
    /// capture's clock), or for runs recorded before that was kept, 3 s
    /// after the last record (the guest waits 3 s after the last step): the
    /// kernel's timers (the end of duplicate address detection, address
    /// lifetimes) have run on to then, which a quiet host's capture cannot
    /// show.
    pub fn table(&self) -> Value {
        let mut args: Vec<String> = vec!["table".into(), "--format".into(), "json".into(), "-q".into()];
        let at = self.ip["ip_time"].as_str().unwrap_or("end+3").to_owned();
        args.extend(["--at".into(), at]);
        args.extend(self.args());
        args.push(self.pcap.to_string_lossy().into_owned());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        serde_json::from_str(&super::stdout_ok(&refs)).expect("table json")
    }

    /// The ifindexes and names the capture's messages carry (`nlorder
    /// decode`, which tests/tshark.rs holds against tshark): links, the
    /// devices of addresses and routes, veth peers made here.
    pub fn named(&self) -> (Vec<u64>, Vec<String>) {
        let path = self.pcap.to_string_lossy().into_owned();
        let out = super::nlorder(&["decode", "--format", "json", "-q", &path]);
        let (mut indexes, mut names) = (Vec::new(), Vec::new());
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let m: Value = serde_json::from_str(line).expect("decode json");
            let l = &m["link"];
            indexes.extend(
                [&l["index"], &m["addr"]["index"], &m["route"]["oif"]]
                    .iter()
                    .filter_map(|v| v.as_u64()),
            );
            names.extend(
                [&l["name"], &l["peer"]["name"]]
                    .iter()
                    .filter_map(|v| v.as_str())
                    .map(String::from),
            );
        }
        (indexes, names)
    }
}

/// The three tables as comparable lines, in order.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tables {
    pub links: Vec<String>,
    pub addrs: Vec<String>,
    pub routes: Vec<String>,
}

fn s(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// An address as nlorder's JSON writes it (Rust's form): iproute2 prints
/// IPv4-compatible IPv6 addresses as glibc does, `::10.19.0.1`.
fn norm_ip(a: &str) -> String {
    let (ip, len) = a.split_once('/').map_or((a, None), |(i, l)| (i, Some(l)));
    let ip = ip.parse::<std::net::IpAddr>().map_or(ip.to_owned(), |x| x.to_string());
    match len {
        Some(l) => format!("{ip}/{l}"),
        None => ip,
    }
}

fn dst(d: &str, v6: bool) -> String {
    let d = &norm_ip(d);
    if d == "default" || d.contains('/') {
        d.to_owned()
    } else {
        format!("{d}/{}", if v6 { 128 } else { 32 })
    }
}

fn route_line(table: &str, kind: &str, dst: &str, r: &Value, dev: &str, proto: &str, scope: &str) -> String {
    format!(
        "{table} {kind} {dst} via={} dev={dev} src={} metric={} scope={scope} proto={proto}",
        s(&r["gateway"]),
        s(&r["prefsrc"]),
        s(&r["metric"]),
    )
}

/// What `ip -j` printed: links in dump order; per link its IPv4 then IPv6
/// addresses; IPv4 routes then IPv6 routes, each in dump order.
pub fn expected(ip: &Value) -> Tables {
    expected_of(ip, |_, _| true)
}

/// [`expected`] for the links `keep` accepts (ifindex, name), their
/// addresses and the routes through them.
pub fn expected_of(ip: &Value, keep: impl Fn(u64, &str) -> bool) -> Tables {
    let mut t = Tables::default();
    let kept = |l: &Value| keep(l["ifindex"].as_u64().unwrap_or(0), l["ifname"].as_str().unwrap_or(""));
    let dropped: Vec<String> = ip["link"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|l| !kept(l))
        .map(|l| s(&l["ifname"]))
        .collect();
    for l in ip["link"].as_array().into_iter().flatten().filter(|l| kept(l)) {
        t.links.push(format!("{}: {}", l["ifindex"], s(&l["ifname"])));
    }
    for l in ip["addr"].as_array().into_iter().flatten().filter(|l| kept(l)) {
        for a in l["addr_info"].as_array().into_iter().flatten() {
            t.addrs.push(format!(
                "{}: {} {}/{} scope {} label={}{}{}",
                l["ifindex"],
                s(&a["family"]),
                norm_ip(&s(&a["local"])),
                a["prefixlen"],
                s(&a["scope"]),
                s(&a["label"]),
                if a["secondary"] == true { " secondary" } else { "" },
                if a["tentative"] == true { " tentative" } else { "" },
            ));
        }
    }
    for (key, v6) in [("route4", false), ("route6", true)] {
        for r in ip[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|r| !dropped.contains(&s(&r["dev"])))
        {
            let table = r["table"].as_str().unwrap_or("main");
            let kind = r["type"].as_str().unwrap_or("unicast");
            let proto = r["protocol"].as_str().unwrap_or("boot");
            let scope = r["scope"].as_str().unwrap_or("global");
            t.routes.push(route_line(
                table,
                kind,
                &dst(&s(&r["dst"]), v6),
                r,
                &s(&r["dev"]),
                proto,
                scope,
            ));
        }
    }
    t
}

/// The same view of `nlorder table --format json`.
pub fn ours(t: &Value) -> Tables {
    let mut out = Tables::default();
    let links = t["links"].as_array().cloned().unwrap_or_default();
    for l in &links {
        out.links.push(format!("{}: {}", l["index"], s(&l["name"])));
    }
    for l in &links {
        for fam in [4, 6] {
            for a in t["addresses"].as_array().into_iter().flatten() {
                if a["index"] != l["index"] || a["family"] != fam {
                    continue;
                }
                let flag = |name: &str| a["flags"].as_array().is_some_and(|f| f.iter().any(|f| f == name));
                out.addrs.push(format!(
                    "{}: {} {}/{} scope {} label={}{}{}",
                    l["index"],
                    if fam == 4 { "inet" } else { "inet6" },
                    s(&a["address"]),
                    a["prefix_len"],
                    s(&a["scope"]),
                    if fam == 4 { s(&a["label"]) } else { String::new() },
                    if flag("secondary") { " secondary" } else { "" },
                    if flag("tentative") { " tentative" } else { "" },
                ));
            }
        }
    }
    for r in t["routes"].as_array().into_iter().flatten() {
        out.routes.push(route_line(
            &s(&r["table"]),
            &s(&r["type"]),
            &s(&r["dst"]),
            r,
            &s(&r["oif"]),
            &s(&r["protocol"]),
            &s(&r["scope"]),
        ));
    }
    out
}

/// A readable difference of two lists (both shown whole, differing lines marked).
pub fn diff(what: &str, want: &[String], got: &[String]) -> Option<String> {
    if want == got {
        return None;
    }
    let mut s = format!("{what} differ (- ip -j, + nlorder):\n");
    let n = want.len().max(got.len());
    for i in 0..n {
        match (want.get(i), got.get(i)) {
            (Some(a), Some(b)) if a == b => s.push_str(&format!("    {a}\n")),
            (a, b) => {
                if let Some(a) = a {
                    s.push_str(&format!("  - {a}\n"));
                }
                if let Some(b) = b {
                    s.push_str(&format!("  + {b}\n"));
                }
            }
        }
    }
    Some(s)
}

/// The verdict for one run.
pub struct Verdict {
    /// Listeners the capture implies, by nlorder.
    pub listeners: u64,
    pub links_and_addrs: Option<String>,
    pub routes: Option<String>,
    pub warnings: Vec<String>,
}

pub fn check(run: &Run) -> Verdict {
    let t = run.table();
    // Without a complete link dump nlorder lists only the links the capture
    // names, and says so: the links it never names are left out of `ip -j`'s.
    let want = if t["links_complete"] == false {
        let (indexes, names) = run.named();
        expected_of(&run.ip, |i, n| indexes.contains(&i) || names.iter().any(|x| x == n))
    } else {
        expected(&run.ip)
    };
    let got = ours(&t);
    let la = [
        diff("links", &want.links, &got.links),
        diff("addresses", &want.addrs, &got.addrs),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>();
    Verdict {
        listeners: t["listeners"].as_u64().unwrap_or(u64::MAX),
        links_and_addrs: (!la.is_empty()).then(|| la.join("")),
        routes: diff("routes", &want.routes, &got.routes),
        warnings: t["warnings"].as_array().into_iter().flatten().map(s).collect(),
    }
}

/// The fresh runs `.ci/run` recorded in the folder the environment
/// variable `var` names (see [`super::fresh_dir`]: without it, SKIPPED, or
/// a failure under CI): the folder and its runs, of which there must be
/// some.
pub fn fresh_runs(var: &str) -> Option<(PathBuf, Vec<PathBuf>)> {
    let dir = super::fresh_dir(var)?;
    let runs = runs_in(&dir);
    assert!(!runs.is_empty(), "{var}: no runs below {}", dir.display());
    Some((dir, runs))
}

/// Every `*.pcap` below `dir` that has its `ip.json`, sorted.
pub fn runs_in(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "pcap") && p.with_extension("ip.json").exists() {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}
