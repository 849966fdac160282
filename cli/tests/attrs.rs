//! `decode --attrs`: attributes by uapi name with typed values, checked
//! against Wireshark's netlink-route dissector (names, MTU, queue length,
//! qdisc, labels, per packet) and against `ip -j` for the next hops of a
//! real multipath route.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn attrs_json(path: &Path) -> Vec<Value> {
    let out = common::nlorder(&["decode", "-q", "--attrs", "--format", "json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// Per packet, the values of these attributes in message order, as tshark
/// joins them (a comma between occurrences).
fn ours(messages: &[Value], names: &[&str]) -> BTreeMap<u64, Vec<String>> {
    let mut out: BTreeMap<u64, Vec<Vec<String>>> = BTreeMap::new();
    for m in messages {
        let row = out
            .entry(m["packet"].as_u64().unwrap())
            .or_insert_with(|| vec![Vec::new(); names.len()]);
        for a in m["attrs"].as_array().into_iter().flatten() {
            if let Some(i) = names.iter().position(|n| a["name"] == *n) {
                row[i].push(match &a["value"] {
                    Value::String(s) => s.clone(),
                    v => v.to_string(),
                });
            }
        }
    }
    common::tshark_columns(out)
}

#[test]
fn attribute_values_equal_what_tshark_reads() {
    if !common::have_tool("tshark") {
        return;
    }
    let names = ["IFLA_IFNAME", "IFLA_MTU", "IFLA_TXQLEN", "IFLA_QDISC", "IFA_LABEL"];
    let fields = [
        "netlink-route.ifla_ifname",
        "netlink-route.ifla_mtu",
        "netlink-route.ifla_txqlen",
        "netlink-route.ifla_qdisc",
        "netlink-route.ifa_label",
    ];
    let mut compared = 0;
    for name in [
        "basic.pcap",
        "notify-link.pcap",
        "incident-hotplug.pcap",
        "kernels/6.12/links.l0.pcap",
        "kernels/6.1/links.l0.pcap",
    ] {
        let path = common::fixture(name);
        let mut args = vec![
            "-r".to_owned(),
            path.to_str().unwrap().to_owned(),
            "-T".into(),
            "fields".into(),
        ];
        args.extend(["-e".to_owned(), "frame.number".to_owned()]);
        for f in fields {
            args.extend(["-e".to_owned(), f.to_owned()]);
        }
        let out = Command::new("tshark").args(&args).output().expect("tshark");
        assert!(out.status.success());
        let theirs: BTreeMap<u64, Vec<String>> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let mut c = l.split('\t').map(str::to_owned);
                (c.next().unwrap().parse().unwrap(), c.collect())
            })
            .collect();
        let mine = ours(&attrs_json(&path), &names);
        for (packet, row) in &mine {
            assert_eq!(Some(row), theirs.get(packet), "{name} packet {packet}");
            compared += row.iter().filter(|c| !c.is_empty()).count();
        }
    }
    assert!(compared > 100, "only {compared} values compared");
}

#[test]
fn multipath_next_hops_are_what_ip_shows() {
    let path = common::fixture("multipath.pcapng");
    let messages = attrs_json(&path);
    let ip: Vec<Value> =
        serde_json::from_slice(&std::fs::read(common::fixture("multipath.route.json")).unwrap()).unwrap();
    let mut names = BTreeMap::new();
    for m in &messages {
        if let Some(l) = m.get("link") {
            names.insert(l["index"].as_u64().unwrap(), l["name"].as_str().unwrap().to_owned());
        }
    }
    let mut checked = 0;
    for route in ip.iter().filter(|r| r.get("nexthops").is_some()) {
        let dst = route["dst"].as_str().unwrap().split('/').next().unwrap();
        let m = messages
            .iter()
            .find(|m| {
                m["type"] == "RTM_NEWROUTE"
                    && m["attrs"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|a| a["name"] == "RTA_DST" && a["value"] == dst)
            })
            .expect("the route in the capture");
        let hops = m["attrs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == "RTA_MULTIPATH")
            .expect("RTA_MULTIPATH")["value"]
            .as_array()
            .unwrap()
            .clone();
        let want = route["nexthops"].as_array().unwrap();
        assert_eq!(hops.len(), want.len());
        for (h, w) in hops.iter().zip(want) {
            // rtnh_hops is the weight less one (iproute2 prints hops + 1)
            assert_eq!(h["hops"].as_u64().unwrap() + 1, w["weight"].as_u64().unwrap());
            assert_eq!(
                names[&h["interface_index"].as_u64().unwrap()],
                w["dev"].as_str().unwrap()
            );
            assert_eq!(h["attributes"][0]["Gateway"], w["gateway"]);
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}
