//! Policy routing against the kernel: each capture of fixtures/rules/ was
//! recorded in a namespace while rules were added (and deleted), then the
//! kernel's own `ip route get` answered every lookup there
//! (`record.sh rules`; `NAME.route-get.json`) and `ip -j rule` listed the
//! rules (`NAME.rule.json`). From the capture alone, nlorder's lookup must
//! give the kernel's device and source (or its error) for every one, and
//! its rule table must equal `ip -j rule`, both from the final dump and
//! from the notifications before it.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::net::IpAddr;

use nlorder::model::Model;
use nlorder::netlink::AddressFamily;
use nlorder::replay::source::{self, NoSource, Rejecting};
use serde_json::Value;

fn captures() -> Vec<String> {
    let dir = common::fixture("rules");
    common::files_ending(&dir, ".route-get.json")
        .iter()
        .map(|p| p.to_string_lossy().replace(".route-get.json", ""))
        .collect()
}

/// The kernel's answer, as `ip route get` printed it: the device and
/// source, or the error.
fn kernel(line: &str) -> Result<(String, Option<String>), String> {
    if let Some(e) = line.strip_prefix("RTNETLINK answers: ") {
        return Err(e.to_owned());
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |k: &str| words.iter().position(|w| *w == k).map(|i| words[i + 1].to_owned());
    Ok((after("dev").expect("dev"), after("src")))
}

/// nlorder's answer in the same terms.
fn ours(model: &Model, dst: IpAddr, from: Option<IpAddr>) -> Result<(String, Option<String>), String> {
    match source::route_get(model, dst, from, &mut Vec::new()) {
        Ok(c) => {
            // iproute2 prints `dev lo` for a local route; where a source
            // was given, it prints it as `src` in IPv6 only.
            let dev = if c.route.kind == nlorder::netlink::RouteType::Local {
                "lo".to_owned()
            } else {
                model.ifname(c.oif.expect("a device"))
            };
            let src = match from {
                Some(IpAddr::V4(_)) => None,
                _ => Some(c.source.to_string()),
            };
            Ok((dev, src))
        }
        Err(NoSource::Rejected { kind, .. }) => Err(match kind {
            Rejecting::Unreachable => "No route to host",
            Rejecting::Prohibit => "Permission denied",
            Rejecting::Blackhole => "Invalid argument",
        }
        .to_owned()),
        Err(NoSource::RuleRejected { kind, .. }) => Err(match kind {
            Rejecting::Unreachable => "Network is unreachable",
            Rejecting::Prohibit => "Permission denied",
            Rejecting::Blackhole => "Invalid argument",
        }
        .to_owned()),
        Err(NoSource::Unreachable) => Err("Network is unreachable".to_owned()),
        Err(other) => panic!("{dst}: {other:?}"),
    }
}

#[test]
fn every_lookup_equals_the_kernels_route_get() {
    let mut checked = 0;
    let mut by_rules = 0;
    for base in captures() {
        let model = common::rebuild_file(std::path::Path::new(&format!("{base}.pcap")));
        let lookups: Value = serde_json::from_slice(&std::fs::read(format!("{base}.route-get.json")).unwrap()).unwrap();
        for l in lookups.as_array().unwrap() {
            let dst: IpAddr = l["dst"].as_str().unwrap().parse().unwrap();
            let from: Option<IpAddr> = l["from"].as_str().map(|s| s.parse().unwrap());
            let line = l["kernel"].as_str().unwrap();
            let want = kernel(line);
            let got = ours(&model, dst, from);
            assert_eq!(
                got, want,
                "{base}: ip route get {dst} {from:?}: the kernel said `{line}`"
            );
            checked += 1;
            if line.contains(" table ") && !line.contains("table local") || line.starts_with("RTNETLINK") {
                by_rules += 1;
            }
        }
    }
    assert!(checked >= 56, "only {checked} lookups");
    assert!(by_rules >= 25, "only {by_rules} lookups decided by rules");
    eprintln!("{checked} lookups equal the kernel's, {by_rules} of them decided by rules");
}

/// Calico's `can-reach=DST` from the capture: the kernel's source for
/// every lookup without `from` (its interface is the one holding it).
#[test]
fn calico_can_reach_takes_the_kernels_source() {
    let mut checked = 0;
    for base in captures() {
        let lookups: Value = serde_json::from_slice(&std::fs::read(format!("{base}.route-get.json")).unwrap()).unwrap();
        for l in lookups.as_array().unwrap() {
            let line = l["kernel"].as_str().unwrap();
            if !l["from"].is_null() || line.starts_with("RTNETLINK") || line.starts_with("local") {
                continue;
            }
            let dst = l["dst"].as_str().unwrap();
            let family = if dst.contains(':') { "6" } else { "4" };
            let (got, _) = common::detect_json(&[
                "--method",
                &format!("can-reach={dst}"),
                "--family",
                family,
                &format!("{base}.pcap"),
            ]);
            let src = kernel(line).unwrap().1.unwrap();
            let address = got["address"].as_str().unwrap_or_default().to_owned();
            assert_eq!(
                address.split('/').next(),
                Some(src.as_str()),
                "{base}: can-reach={dst}: {got}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked}");
}

/// The rules as `ip -j rule` listed them at the end, from the final dump
/// and from the notifications alone (the tables just before that dump).
#[test]
fn rule_tables_equal_ip_j_rule() {
    for base in captures() {
        let ip: Value = serde_json::from_slice(&std::fs::read(format!("{base}.rule.json")).unwrap()).unwrap();
        let path = format!("{base}.pcap");
        let model = common::rebuild_file(std::path::Path::new(&path));
        assert_rules_are(&model, &ip, &base);
        // `table --format ip-json --objects rule` per family: `ip -j -4 rule`, `ip -j -6 rule`.
        for (flag, key) in [("-4", "rule4"), ("-6", "rule6")] {
            let out = common::nlorder(&["table", "-q", "--format", "ip-json", "--objects", "rule", flag, &path]);
            assert!(out.status.success(), "{out:?}");
            let got: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(got, ip[key], "{base}: table --objects rule {flag}");
        }
        // The record before the final rule dump: the rules from the first
        // dump and the notifications alone.
        let decoded = common::decode_json(std::path::Path::new(&path));
        let last_dump = decoded
            .iter()
            .rfind(|m| m["type"] == "RTM_GETRULE")
            .map(|m| m["packet"].as_u64().unwrap())
            .unwrap();
        let before = model_before(&path, last_dump);
        assert_rules_are(&before, &ip, &format!("{base} before the final dump"));
    }
}

/// The model's rules of each family, as JSON, are `ip -j -4 rule` and `ip
/// -j -6 rule` (`ip["rule4"]`, `ip["rule6"]`).
fn assert_rules_are(model: &Model, ip: &Value, what: &str) {
    for (family, key) in [(AddressFamily::Inet, "rule4"), (AddressFamily::Inet6, "rule6")] {
        assert_eq!(rules_json(model, family), ip[key], "{what} {key}");
    }
}

/// The model's rules of one family as `ip -j rule` lists them.
fn rules_json(model: &Model, family: AddressFamily) -> Value {
    model
        .rule_table()
        .rules(family)
        .iter()
        .map(|r| serde_json::to_value(nlorder::report::rule::rule_object(r)).unwrap())
        .collect()
}

/// The model just before record `packet` (the tables then).
fn model_before(path: &str, packet: u64) -> Model {
    let file = std::fs::File::open(path).unwrap();
    let mut reader = nlorder::capture::CaptureReader::new(file).unwrap();
    nlorder::ingest::rebuild::rebuild(
        &mut reader,
        nlorder::ingest::trace::TraceOptions::default(),
        nlorder::model::ModelOptions::default(),
        Some(nlorder::ingest::moment::At::Packet(packet - 1)),
        &mut nlorder::diag::Diagnostics::default(),
        &mut (),
    )
    .unwrap()
    .model
}

/// The 6.1 and 6.12 kernels under qemu (`fixtures/rules/scenarios/policy.ip`
/// through scripts/kernel-matrix.sh, real nlmon): the `ip rule add` and
/// `ip rule del` requests and their ACKs, with no listener (l0) only them,
/// with one (l1) the notifications too; no rule dump before the `ip -j
/// rule` runs at the end. From the records before those dumps, the rules
/// must be what `ip -j rule` printed (the kernel's defaults, then each
/// request applied on its ACK, priorities chosen as the kernel chooses
/// them) and every `ip route get` run's answer nlorder's.
#[test]
fn real_kernels_requests_and_route_get() {
    let mut checked = 0;
    for k in ["6.1", "6.12"] {
        for l in ["l0", "l1"] {
            let base = common::fixture(&format!("rules/{k}/policy.{l}"))
                .to_string_lossy()
                .into_owned();
            let path = format!("{base}.pcap");
            let runs: Value = serde_json::from_slice(&std::fs::read(format!("{base}.runs.json")).unwrap()).unwrap();
            let decoded = common::decode_json(std::path::Path::new(&path));
            let first_dump = decoded
                .iter()
                .find(|m| m["type"] == "RTM_GETRULE")
                .map(|m| m["packet"].as_u64().unwrap())
                .expect("ip -j rule's dump");
            assert!(
                decoded
                    .iter()
                    .any(|m| m["type"] == "RTM_NEWRULE" && m["request"] == true),
                "{base}: the requests"
            );
            let model = model_before(&path, first_dump);
            for r in runs.as_array().unwrap() {
                let cmd: Vec<&str> = r["command"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap())
                    .collect();
                let out = r["stdout"].as_array().unwrap();
                let first = |v: &Value| {
                    v.as_array()
                        .and_then(|a| a.first())
                        .and_then(|x| x.as_str())
                        .map(str::to_owned)
                };
                match cmd[1..] {
                    ["-j", fam, "rule"] => {
                        let ip: Value = serde_json::from_str(out[0].as_str().unwrap()).unwrap();
                        let family = if fam == "-4" {
                            AddressFamily::Inet
                        } else {
                            AddressFamily::Inet6
                        };
                        assert_eq!(rules_json(&model, family), ip, "{base}: ip -j {fam} rule");
                    }
                    _ => {
                        let get = cmd.iter().position(|c| *c == "get").unwrap();
                        let dst: IpAddr = cmd[get + 1].parse().unwrap();
                        let from: Option<IpAddr> = cmd.get(get + 3).map(|s| s.parse().unwrap());
                        let line = first(&r["stdout"]).or_else(|| first(&r["stderr"])).unwrap();
                        assert_eq!(
                            ours(&model, dst, from),
                            kernel(&line),
                            "{base}: {cmd:?}: the kernel said `{line}`"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked >= 70, "only {checked}");
}

/// A capture whose only notifications are rule notifications is not called
/// silent: the summary counts them apart from the links', addresses' and
/// routes'.
#[test]
fn rule_notifications_are_counted_in_the_summary() {
    let path = common::fixture("rules/selectors.pcap");
    let out = common::nlorder(&["table", path.to_str().unwrap()]);
    let err = String::from_utf8(out.stderr).unwrap();
    let summary = err.lines().nth(1).unwrap();
    common::assert_has(
        summary,
        &[
            "no link, address or route notifications in the capture",
            " rule notifications",
        ],
    );
    assert!(!summary.contains("no notifications in the capture"), "{summary}");
}
