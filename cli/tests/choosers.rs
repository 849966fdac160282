//! Every node-IP chooser against a Go program that implements it from
//! the upstream source (scripts/looks/gochoose), on real kernels: in each
//! capture of fixtures/choosers/ (generated hosts that make the choosers
//! disagree, recorded on Debian's 6.1 and 6.12 by scripts/kernel-matrix.sh),
//! `gochoose` ran once per chooser and flag set, read the host through
//! netlink (and /proc/net/route) as the real program does, and printed its
//! answer. `nlorder detect` must give the same addresses, interface and
//! error from the capture alone.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// One gochoose run: its arguments and answer.
struct Run {
    name: String,
    args: Vec<String>,
    answer: Value,
}

/// The captures with gochoose runs below `dir/KERNEL/`.
fn cases(dir: &Path) -> Vec<(String, PathBuf, Vec<Run>)> {
    let mut out = Vec::new();
    let Ok(kernels) = std::fs::read_dir(dir) else {
        return out;
    };
    for k in kernels.flatten().filter(|k| k.path().is_dir()) {
        let kernel = k.file_name().to_string_lossy().into_owned();
        for f in common::files_ending(&k.path(), ".runs.json") {
            let runs = gochoose_runs(&f);
            if runs.is_empty() {
                continue;
            }
            let stem = f.file_name().unwrap().to_string_lossy().replace(".runs.json", "");
            let capture = f.with_file_name(format!("{stem}.pcap"));
            out.push((format!("{kernel}/{stem}"), capture, runs));
        }
    }
    out
}

fn gochoose_runs(path: &Path) -> Vec<Run> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("runs.json")).expect("json");
    v.as_array()
        .expect("runs")
        .iter()
        .filter(|r| r["command"][0].as_str().is_some_and(|c| c.ends_with("gochoose")))
        .map(|r| {
            let args: Vec<String> = r["command"]
                .as_array()
                .unwrap()
                .iter()
                .skip(1)
                .map(|a| a.as_str().unwrap().to_owned())
                .collect();
            let name = r["name"].as_str().unwrap().to_owned();
            assert_eq!(r["exit"], 0, "{name}: gochoose failed: {r}");
            let line = r["stdout"].as_array().and_then(|l| l.first()).and_then(Value::as_str);
            let answer = serde_json::from_str(line.unwrap_or("null")).expect("gochoose prints one JSON line");
            Run { name, args, answer }
        })
        .collect()
}

/// gochoose's arguments as `nlorder detect`'s (both replay the newest
/// Cilium release they know, 1.20, when not told).
fn detect_args(args: &[String]) -> Vec<String> {
    let (chooser, flags) = args.split_first().expect("a chooser");
    let mut out = vec!["--method".to_owned(), chooser.clone()];
    for pair in flags.chunks(2) {
        let [flag, value] = pair else {
            panic!("{args:?}: a flag without a value")
        };
        // Antrea's Node IPs are the Node's InternalIPs, one flag each.
        if (chooser.as_str(), flag.as_str()) == ("antrea", "--node-ip") {
            for ip in value.split(',') {
                out.extend(["--node-internal-ip".to_owned(), ip.to_owned()]);
            }
            continue;
        }
        let flag = match (chooser.as_str(), flag.as_str()) {
            (c, "--device") if c.starts_with("cilium") => "--cilium-device",
            (c, "--version") if c.starts_with("cilium") => "--cilium-version",
            (_, f) => f,
        };
        out.extend([flag.to_owned(), value.clone()]);
    }
    out
}

/// What a detection answered, in gochoose's terms.
fn nlorder_answer(capture: &Path, args: &[String]) -> (Vec<String>, String, String) {
    let mut argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let cap = capture.to_str().unwrap();
    argv.push(cap);
    let (d, code) = common::detect_json(&argv);
    assert_eq!(code, Some(0), "nlorder detect {argv:?}: {d}");
    let addresses = d["addresses"]
        .as_array()
        .expect("addresses")
        .iter()
        .map(|a| a.as_str().unwrap().split('/').next().unwrap().to_owned())
        .collect();
    let s = |k: &str| d[k].as_str().unwrap_or("").to_owned();
    (addresses, s("interface"), s("error"))
}

/// `snapshot`: each host's `ip -j` output (its `.ip.json`) in place of its
/// capture.
fn compare(dir: &Path, snapshot: bool) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (case, capture, runs) in cases(dir) {
        let capture = if snapshot {
            capture.with_extension("ip.json")
        } else {
            capture
        };
        for run in runs {
            let want_addrs: Vec<String> = run.answer["addresses"]
                .as_array()
                .expect("addresses")
                .iter()
                .map(|a| a.as_str().unwrap().to_owned())
                .collect();
            let want_if = run.answer["interface"].as_str().unwrap_or("").to_owned();
            let want_err = run.answer["error"].as_str().unwrap_or("").to_owned();
            let args = detect_args(&run.args);
            let (addrs, iface, err) = nlorder_answer(&capture, &args);
            let iface_ok = want_if.is_empty() || want_if == iface;
            // kubeadm's 0.0.0.0 carries its warning with nlorder's comment
            // after it; where the program ends with nothing and no message
            // (Cilium's node addresses, go-sockaddr), nlorder's error says why.
            let err_ok = err == want_err
                || (!want_err.is_empty() && err.starts_with(&want_err))
                || (want_err.is_empty() && want_addrs.is_empty() && addrs.is_empty() && !err.is_empty());
            if addrs != want_addrs || !iface_ok || !err_ok {
                wrong.push(format!(
                    "{case} {} (nlorder detect {}):\n    gochoose: {want_addrs:?} on {want_if:?} error {want_err:?}\n    nlorder:  {addrs:?} on {iface:?} error {err:?}",
                    run.name,
                    args.join(" ")
                ));
            }
            checked += 1;
        }
    }
    (checked, wrong)
}

/// Every gochoose run below `dir` (at least `min` of them) answered as
/// nlorder does.
fn assert_agree(dir: &Path, min: usize) {
    assert_agree_from(dir, min, false);
}

/// [`assert_agree`], from captures or from snapshots.
fn assert_agree_from(dir: &Path, min: usize, snapshot: bool) {
    let (checked, wrong) = compare(dir, snapshot);
    assert!(checked >= min, "only {checked} gochoose runs below {}", dir.display());
    assert!(
        wrong.is_empty(),
        "{} of {checked} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn every_chooser_answers_as_its_go_reimplementation_on_real_kernels() {
    assert_agree(&common::fixture("choosers"), 100);
}

/// The same hosts' `ip -j` output (a snapshot, see docs/snapshot.md), read
/// in place of their captures, answers as the programs did.
#[test]
fn every_chooser_answers_from_the_snapshot_too() {
    assert_agree_from(&common::fixture("choosers"), 100, true);
}

/// The runs CI records afresh (NLORDER_CHOOSERS_DIR, see .ci/run).
#[test]
fn fresh_chooser_runs_agree_too() {
    if let Some(dir) = common::fresh_dir("NLORDER_CHOOSERS_DIR") {
        assert_agree(&dir, 1);
    }
}

/// `--timeline` compares answers through `MethodSpec::outcome`, which
/// skips the candidate rows of the whole-host replays: it must give what
/// the full replay gives, on every chooser capture.
#[test]
fn the_timeline_outcome_is_the_full_answer() {
    use nlorder::replay::method::MethodSpec;
    use nlorder::replay::{Family, cilium, consul, nomad};
    let mut checked = 0;
    for (case, capture, _) in cases(&common::fixture("choosers")) {
        let model = common::rebuild_file(&capture);
        let mut specs = vec![MethodSpec::of::<consul::Consul>(()), MethodSpec::of::<nomad::Nomad>(())];
        for family in [Family::V4, Family::V6] {
            for version in ["1.13", "1.16", "1.20"] {
                specs.push(MethodSpec::of::<cilium::Cilium>(cilium::Options {
                    device: None,
                    version: version.parse().unwrap(),
                    family,
                }));
            }
        }
        for spec in specs {
            let d = spec.detect(&model);
            assert_eq!(
                spec.outcome(&model),
                (d.address, d.interface, d.error),
                "{case}: {spec:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

/// Cilium's release boundary for the node-address sort (pkg/datapath/
/// tables/node_address.go): v1.15.0 sorts primary, scope, address and
/// takes the first address of each family as primary; cilium/cilium#30579,
/// first in v1.16.0, sorts public before private and takes the first
/// public one, a public secondary before a private primary. On the
/// recorded host (6.1 and 6.12) the masquerade address of each device
/// changes between the two releases, never within them.
#[test]
fn cilium_prefers_public_addresses_from_1_16_on() {
    for kernel in ["6.1", "6.12"] {
        let capture = common::fixture("choosers")
            .join(kernel)
            .join("cilium-public-secondary.l0.pcap");
        let cap = capture.to_str().unwrap();
        let masq = |version: &str, device: &str| {
            let (d, code) = common::detect_json(&[
                "--method",
                "cilium-masquerade",
                "--cilium-version",
                version,
                "--cilium-device",
                device,
                cap,
            ]);
            assert_eq!(code, Some(0), "{d}");
            d["addresses"][0]
                .as_str()
                .unwrap_or("")
                .split('/')
                .next()
                .unwrap()
                .to_owned()
        };
        for (device, old, new) in [
            ("eth0", "172.16.0.10", "172.1.0.10"),
            ("eth1", "10.33.0.7", "45.91.33.7"),
        ] {
            for v in ["1.15", "1.15.19"] {
                assert_eq!(masq(v, device), old, "{kernel} {device} {v}");
            }
            for v in ["1.16", "1.17", "1.20"] {
                assert_eq!(masq(v, device), new, "{kernel} {device} {v}");
            }
        }
    }
}
