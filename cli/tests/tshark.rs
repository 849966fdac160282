//! Cross-check against Wireshark's netlink dissectors: for every fixture,
//! nlorder must find the same NETLINK_ROUTE messages as `tshark -T json`
//! (per packet: count, type, length, seq, pid, and the identifying fields of
//! addresses, links, routes and errors).
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// What both tools must agree on for one message.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Msg {
    kind: u64,
    len: u64,
    seq: u64,
    pid: u64,
    detail: String,
}

fn s(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.first().map(s).unwrap_or_default(),
        other => other.to_string(),
    }
}

fn n(v: &Value) -> u64 {
    let t = s(v);
    if let Some(hex) = t.strip_prefix("0x") {
        u64::from_str_radix(hex, 16).unwrap_or(u64::MAX)
    } else {
        t.parse().unwrap_or(u64::MAX)
    }
}

fn as_list(v: &Value) -> Vec<&Value> {
    match v {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    }
}

/// Attributes of a tshark message object: (attr type, the object).
fn attrs<'a>(m: &'a Value, type_field: &str) -> Vec<(u64, &'a Value)> {
    let mut out = Vec::new();
    if let Value::Object(map) = m {
        for (k, v) in map {
            if k.starts_with("Attribute") {
                for a in as_list(v) {
                    let t = a
                        .get("netlink.attr_type_tree")
                        .and_then(|t| t.get(type_field))
                        .map(n)
                        .unwrap_or(u64::MAX);
                    out.push((t, a));
                }
            }
        }
    }
    out
}

fn tshark_messages(path: &Path) -> BTreeMap<u64, (Vec<Msg>, Vec<Msg>)> {
    let out = Command::new("tshark")
        .args(["-r", path.to_str().expect("path"), "-T", "json", "--no-duplicate-keys"])
        .output()
        .expect("run tshark");
    // (a cut capture: tshark prints its whole records, then fails with
    // "appears to have been cut short"; those records are compared)
    let cut = String::from_utf8_lossy(&out.stderr).contains("cut short");
    assert!(out.status.success() || cut, "tshark failed on {}", path.display());
    let frames: Value = serde_json::from_slice(&out.stdout).expect("tshark json");
    let mut by_packet = BTreeMap::new();
    for f in frames.as_array().expect("array") {
        let layers = &f["_source"]["layers"];
        let number = n(&layers["frame"]["frame.number"]);
        if layers.get("netlink").map(|l| n(&l["netlink.family"])) != Some(0) {
            continue;
        }
        let mut route = Vec::new();
        let mut control = Vec::new();
        if let Some(r) = layers.get("netlink-route") {
            for m in as_list(r) {
                route.push(route_msg(m));
            }
        }
        if let Some(c) = layers.get("Netlink message") {
            for m in as_list(c) {
                control.push(control_msg(m));
            }
        }
        by_packet.insert(number, (route, control));
    }
    by_packet
}

/// The message's header as a [`Msg`] without detail, and its flags.
fn header(m: &Value) -> (Msg, u64) {
    let map = m.as_object().expect("message object");
    let (_, h) = map
        .iter()
        .find(|(k, _)| k.starts_with("Netlink message header"))
        .expect("header");
    let h = as_list(h)[0];
    let kind = h
        .get("netlink-route.nltype")
        .or_else(|| h.get("netlink.hdr_type"))
        .map(n)
        .unwrap_or(u64::MAX);
    let msg = Msg {
        kind,
        len: n(&h["netlink.hdr_len"]),
        seq: n(&h["netlink.hdr_seq"]),
        pid: n(&h["netlink.hdr_pid"]),
        detail: String::new(),
    };
    (msg, n(&h["netlink.hdr_flags"]))
}

fn route_msg(m: &Value) -> Msg {
    let (msg, flags) = header(m);
    let request = flags & 1 == 1;
    let detail = match msg.kind {
        20 | 21 if !request => {
            let mut address = String::new();
            let mut local = String::new();
            for (t, a) in attrs(m, "netlink-route.ifa_attr_type") {
                // (tshark writes IPv4-compatible IPv6 addresses as glibc
                // does, `::127.0.0.1`; nlorder's JSON in Rust's form)
                let ip = a
                    .get("netlink-route.ifa_address.ipv4")
                    .or_else(|| a.get("netlink-route.ifa_address.ipv6"))
                    .map(s)
                    .map(|x| x.parse::<std::net::IpAddr>().map_or(x, |ip| ip.to_string()))
                    .unwrap_or_default();
                match t {
                    1 => address = ip,
                    2 => local = ip,
                    _ => {}
                }
            }
            let label = attrs(m, "netlink-route.ifa_attr_type")
                .iter()
                .find(|(t, _)| *t == 3)
                .and_then(|(_, a)| a.get("netlink-route.ifa_label"))
                .map(s)
                .unwrap_or_default();
            format!(
                "addr fam={} idx={} plen={} address={address} local={local} label={label}",
                n(&m["netlink-route.ifa_family"]),
                n(&m["netlink-route.ifa_index"]),
                n(&m["netlink-route.ifa_prefixlen"]),
            )
        }
        16 | 17 if !request => {
            let name = attrs(m, "netlink-route.ifla_attr_type")
                .iter()
                .find_map(|(_, a)| a.get("netlink-route.ifla_ifname"))
                .map(s)
                .unwrap_or_default();
            format!("link idx={} name={name}", n(&m["netlink-route.ifi_index"]))
        }
        24 | 25 if !request => {
            let oif = attrs(m, "netlink-route.rta_attr_type")
                .iter()
                .find_map(|(_, a)| a.get("netlink-route.rta_oif"))
                .map(n);
            format!(
                "route fam={} dst_len={} table={} oif={oif:?}",
                n(&m["netlink-route.rt_family"]),
                n(&m["netlink-route.rt_dst_len"]),
                n(&m["netlink-route.rt_table"]),
            )
        }
        _ => String::new(),
    };
    Msg { detail, ..msg }
}

fn control_msg(m: &Value) -> Msg {
    let (msg, _) = header(m);
    if msg.kind == 2 {
        let detail = format!("error {}", s(&m["netlink.error"]));
        return Msg { detail, ..msg };
    }
    msg
}

fn family_num(f: &Value) -> u64 {
    match f.as_str() {
        Some("inet") => 2,
        Some("inet6") => 10,
        Some("unspec") => 0,
        Some("bridge") => 7,
        _ => u64::MAX,
    }
}

fn nlorder_messages(path: &Path) -> BTreeMap<u64, (Vec<Msg>, Vec<Msg>)> {
    let mut by_packet: BTreeMap<u64, (Vec<Msg>, Vec<Msg>)> = BTreeMap::new();
    // (a cut capture's listing closes with `{"truncated": true, ...}`)
    for m in common::decode_json(path)
        .into_iter()
        .filter(|m| m.get("truncated").is_none())
    {
        let kind = m["type_id"].as_u64().expect("type_id");
        let request = m["request"].as_bool().expect("request");
        let str_or_empty = |v: &Value| v.as_str().map(str::to_owned).unwrap_or_default();
        let detail = if let Some(a) = m.get("addr").filter(|_| !request) {
            format!(
                "addr fam={} idx={} plen={} address={} local={} label={}",
                family_num(&m["family"]),
                a["index"],
                a["prefix_len"],
                str_or_empty(&a["address"]),
                str_or_empty(&a["local"]),
                str_or_empty(&a["label"]),
            )
        } else if let Some(l) = m.get("link").filter(|_| !request) {
            format!("link idx={} name={}", l["index"], str_or_empty(&l["name"]))
        } else if let Some(r) = m.get("route").filter(|_| !request) {
            let table = r["table_id"].as_u64().expect("table");
            format!(
                "route fam={} dst_len={} table={} oif={:?}",
                family_num(&m["family"]),
                r["dst_len"],
                // tshark shows the 8-bit header field; RTA_TABLE can be wider.
                if table > 255 { 252 } else { table },
                r["oif"].as_u64(),
            )
        } else if let Some(e) = m.get("error") {
            format!("error {}", e["error"])
        } else {
            String::new()
        };
        let msg = Msg {
            kind,
            len: m["len"].as_u64().expect("len"),
            seq: m["seq"].as_u64().expect("seq"),
            pid: m["pid"].as_u64().expect("pid"),
            detail,
        };
        let entry = by_packet.entry(m["packet"].as_u64().expect("packet")).or_default();
        if kind < 16 {
            entry.1.push(msg)
        } else {
            entry.0.push(msg)
        }
    }
    by_packet
}

#[test]
fn every_fixture_decodes_like_tshark() {
    if !common::have_tool("tshark") {
        return;
    }
    let mut checked_messages = 0;
    let mut checked_files = 0;
    for path in common::all_captures() {
        let theirs = tshark_messages(&path);
        if path.to_string_lossy().contains("not_netlink") {
            // an Ethernet capture: no netlink for tshark either, and nlorder
            // refuses the file (tests/answers.rs)
            assert!(
                theirs.values().all(|(r, c)| r.is_empty() && c.is_empty()),
                "{}",
                path.display()
            );
            continue;
        }
        let ours = nlorder_messages(&path);
        // tshark lists route packets with no complete message (snaplen cut) too.
        let theirs: BTreeMap<_, _> = theirs
            .into_iter()
            .filter(|(_, (r, c))| !r.is_empty() || !c.is_empty())
            .collect();
        let name = path
            .strip_prefix(common::fixtures())
            .unwrap_or(&path)
            .display()
            .to_string();
        if name.contains("snap100") {
            // tshark also shows the header of the message the snaplen cut in
            // half; nlorder decodes only whole messages. Compare those.
            for (p, (r, c)) in &ours {
                let (tr, tc) = theirs.get(p).expect("packet known to tshark");
                assert_eq!(&tr[..r.len()], &r[..], "{name} packet {p}");
                assert_eq!(&tc[..c.len()], &c[..], "{name} packet {p}");
            }
            continue;
        }
        assert_eq!(
            ours.keys().collect::<Vec<_>>(),
            theirs.keys().collect::<Vec<_>>(),
            "{name}: packets with route messages"
        );
        for (p, mine) in &ours {
            // tshark does not dissect the body of an RTM_SETLINK sent
            // without NLM_F_REQUEST (others/ignored.pcap): the header must
            // agree, the body is ours alone.
            let mut mine = mine.clone();
            if let Some((their_r, _)) = theirs.get(p) {
                for (m, t) in mine.0.iter_mut().zip(their_r) {
                    if m.kind == 19 && t.kind == 19 && t.detail.is_empty() {
                        m.detail.clear();
                    }
                }
            }
            let mine = &mine;
            assert_eq!(Some(mine), theirs.get(p), "{name} packet {p}");
            checked_messages += mine.0.len() + mine.1.len();
        }
        checked_files += 1;
    }
    assert!(checked_files >= 12, "only {checked_files} fixtures compared");
    assert!(checked_messages > 500, "only {checked_messages} messages compared");
    eprintln!("tshark agrees on {checked_messages} messages in {checked_files} captures");
}
