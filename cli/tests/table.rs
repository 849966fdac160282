//! `nlorder table` / `nlorder timeline` against the kernel: the rebuilt
//! tables must equal what `ip -j` printed in the same namespace, the order
//! inferred from notifications must equal the order of the next dump, and
//! the checks that say otherwise must fire when they should.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::warnings;

use std::path::Path;

use common::tables::*;
use serde_json::Value;

fn table_json(path: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["table", "--format", "json", "-q", path.to_str().expect("path")];
    args.extend_from_slice(extra);
    let out = common::nlorder(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("table json")
}

#[test]
fn rebuilt_tables_equal_ip_json_of_the_same_namespace() {
    let mut checked = 0;
    for name in ["basic", "rtgen-nanos", "notify-addr", "notify-link", "notify-order"] {
        let ip: Value =
            serde_json::from_slice(&std::fs::read(common::fixture(&format!("{name}.ip.json"))).expect("ip json"))
                .expect("parse ip json");
        let t = table_json(&common::fixture(&format!("{name}.pcap")), &[]);
        assert_eq!(our_links(&t), ip_links(&ip), "{name}: links in order");
        assert_eq!(our_addrs(&t), ip_addrs(&ip), "{name}: addresses per link in order");
        if name != "rtgen-nanos" {
            // (rtgen-nanos records no route dump)
            assert_eq!(our_routes(&t), ip_routes(&ip), "{name}: routes");
        }
        assert!(warnings(&t).is_empty(), "{name}: {:?}", warnings(&t));
        checked += 1;
    }
    assert_eq!(checked, 5);
}

/// The last record before the final dumps: the tables there come from the
/// first dumps plus notifications only.
fn before_final_dumps(path: &Path) -> u64 {
    let lines = common::decode_json(path);
    let requests: Vec<u64> = lines
        .iter()
        .filter(|l| l["request"] == true && l["type"] == "RTM_GETLINK")
        .map(|l| l["packet"].as_u64().expect("packet"))
        .collect();
    requests.last().expect("a final link dump") - 1
}

#[test]
fn order_inferred_from_notifications_equals_the_next_dump() {
    for name in ["notify-addr.pcap", "notify-link.pcap", "notify-order.pcap"] {
        let path = common::fixture(name);
        let at = before_final_dumps(&path);
        let predicted = table_json(&path, &["--at", &at.to_string()]);
        let dumped = table_json(&path, &[]);
        assert_eq!(our_links(&predicted), our_links(&dumped), "{name}: links");
        assert_eq!(our_addrs(&predicted), our_addrs(&dumped), "{name}: addresses");
        assert_eq!(our_routes(&predicted), our_routes(&dumped), "{name}: routes");
        // The prediction really was inferred, not copied from a dump.
        let inferred = predicted["addresses"]
            .as_array()
            .expect("a")
            .iter()
            .filter(|a| a["origin"] == "inferred")
            .count();
        assert!(inferred >= 1, "{name}: nothing inferred");
        assert!(warnings(&dumped).is_empty(), "{name}: {:?}", warnings(&dumped));
    }
    // notify-addr: the promoted secondary moved behind the other primary.
    let path = common::fixture("notify-addr.pcap");
    let t = table_json(&path, &["--at", &before_final_dumps(&path).to_string()]);
    let eth0: Vec<String> = our_addrs(&t)
        .into_iter()
        .filter(|a| a.1 == "inet" && a.0 == 3)
        .map(|a| a.2)
        .collect();
    assert_eq!(eth0, ["192.168.100.5/24", "10.9.0.3/24", "10.9.0.4/24", "10.9.0.2/24"]);
}

#[test]
fn the_kernel_s_notifications_decide_over_a_wrong_flag() {
    // With promote_secondaries off the model would drop 10.9.0.3 and
    // 10.9.0.4 when 10.9.0.2 goes; but the kernel announces a secondary's
    // deletion before its primary's when it does not promote
    // (`__inet_del_ifa`), so a primary's deletion notified while its
    // secondaries are still there says it promoted, whatever the flag says.
    let t = table_json(&common::fixture("notify-addr.pcap"), &["--promote-secondaries", "off"]);
    let w = warnings(&t);
    assert!(!w.iter().any(|w| w.contains("dump disagrees")), "{w:?}");
    let text = common::stdout_ok(&[
        "timeline",
        "--promote-secondaries",
        "off",
        "-q",
        common::fixture("notify-addr.pcap").to_str().expect("p"),
    ]);
    common::assert_has(&text, &["secondary 10.9.0.3 promoted"]);
    assert!(!text.contains("DISAGREES"), "{text}");
}

#[test]
fn hash_bucket_link_order_is_kept_and_inferred() {
    let t = table_json(&common::fixture("third-party/pyroute2__nl0.pcap"), &[]);
    let order: Vec<u64> = our_links(&t).into_iter().map(|l| l.0).collect();
    assert_eq!(order, [1, 2, 3, 4, 5, 2622, 238, 239, 240, 243, 246]);
    assert_eq!(t["kernel_order"]["links"], "buckets");
    assert_eq!(t["kernel_order"]["source"], "dump");
    assert!(t["kernel_order"]["evidence"].as_str().expect("e").contains("2622"));
    // Addresses follow the same device walk: wg-int (2622) before virbr1? No:
    // IPv4 list is lo, wlp0s20f3, virbr1, virbr0, wg-int as the kernel sent it.
    let v4: Vec<String> = t["addresses"]
        .as_array()
        .expect("a")
        .iter()
        .filter(|a| a["family"] == 4)
        .map(|a| a["ifname"].as_str().expect("n").to_owned())
        .collect();
    assert_eq!(v4, ["lo", "wlp0s20f3", "virbr1", "virbr0", "wg-int"]);
    // Our own kernel walks in ascending order.
    let t = table_json(&common::fixture("notify-link.pcap"), &[]);
    assert_eq!(t["kernel_order"]["links"], "ascending");
}

#[test]
fn at_packet_and_family_filter() {
    let path = common::fixture("notify-link.pcap");
    // Right after ens19 got its address (packet 21), before it was deleted.
    let t = table_json(&path, &["--at", "21", "--family", "4"]);
    assert_eq!(t["at_packet"], 21);
    let ens19: Vec<&Value> = t["addresses"]
        .as_array()
        .expect("a")
        .iter()
        .filter(|a| a["ifname"] == "ens19")
        .collect();
    assert_eq!(ens19.len(), 1);
    assert_eq!(ens19[0]["address"], "192.168.100.5");
    assert_eq!(ens19[0]["index"], 6);
    assert!(t["addresses"].as_array().expect("a").iter().all(|a| a["family"] == 4));
    // By time: the timestamp of packet 21 gives the same tables.
    let ts = common::decode_json(&path)
        .into_iter()
        .find(|l| l["packet"] == 21)
        .and_then(|l| l["ts"].as_f64())
        .expect("ts");
    let by_time = table_json(&path, &["--at", &format!("{ts:.6}"), "--family", "4"]);
    assert_eq!(by_time["at_packet"], 21);
    assert_eq!(by_time["addresses"], t["addresses"]);
}

fn mutate_first(path: &Path, kind: &str, multi: bool, f: impl Fn(&mut [u8])) -> Vec<u8> {
    let mut bytes = std::fs::read(path).expect("read");
    let line = common::decode_json(path)
        .into_iter()
        .find(|l| l["type"] == kind && l["flag_names"].as_array().expect("f").iter().any(|f| f == "MULTI") == multi)
        .expect("message");
    let off = line["offset"].as_u64().expect("offset") as usize;
    f(&mut bytes[off..]);
    bytes
}

fn write_tmp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("table");
    std::fs::create_dir_all(&dir).expect("dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

#[test]
fn inconsistent_or_unfinished_dumps_and_unknown_devices_are_reported() {
    let base = common::fixture("notify-addr.pcap");
    // NLM_F_DUMP_INTR on a dump reply.
    let b = mutate_first(&base, "RTM_NEWADDR", true, |m| m[6] |= 0x10);
    let t = table_json(&write_tmp("intr.pcap", &b), &[]);
    assert!(
        warnings(&t).iter().any(|w| w.contains("NLM_F_DUMP_INTR")),
        "{:?}",
        warnings(&t)
    );
    // A notification for an ifindex nobody introduced.
    let b = mutate_first(&base, "RTM_NEWADDR", false, |m| {
        m[20..24].copy_from_slice(&77u32.to_le_bytes())
    });
    let t = table_json(&write_tmp("unknown-if.pcap", &b), &[]);
    assert!(
        warnings(&t).iter().any(|w| w.contains("ifindex 77")),
        "{:?}",
        warnings(&t)
    );
    // A capture that ends before the last dump's NLMSG_DONE.
    let lines = common::decode_json(&base);
    let last_done = lines.iter().rev().find(|l| l["type"] == "NLMSG_DONE").expect("done");
    let cut = last_done["offset"].as_u64().expect("o") as usize - 16 - 16;
    let t = table_json(
        &write_tmp("no-done.pcap", &std::fs::read(&base).expect("r")[..cut]),
        &[],
    );
    assert!(
        warnings(&t).iter().any(|w| w.contains("no NLMSG_DONE")),
        "{:?}",
        warnings(&t)
    );
}

#[test]
fn timeline_lists_changes_with_packet_numbers() {
    let text = common::stdout_ok(&[
        "timeline",
        "-q",
        common::fixture("notify-link.pcap").to_str().expect("p"),
    ]);
    common::assert_has(
        &text,
        &[
            "+ link ens19 (ifindex 6, veth)",
            "+ 192.168.100.5/24 on ens19 (new link ens19, ifindex 6",
            "- link ens19 (ifindex 6)",
            "+ link ens19 (ifindex 8, veth)",
            "~ link br0 renamed nerdctl0 (ifindex 4)",
        ],
    );
    let out = common::nlorder(&[
        "timeline",
        "-q",
        "--format",
        "json",
        common::fixture("notify-addr.pcap").to_str().expect("p"),
    ]);
    let events: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let promo = events
        .iter()
        .find(|e| e["event"] == "addr_removed" && e["detail"]["promoted"] == "10.9.0.3/24");
    assert!(promo.is_some(), "no promotion event");
    assert_eq!(promo.expect("p")["packet"], 21);
}

/// `timeline`'s lines about one dump.
fn dump_line(path: &Path, dump: u64) -> String {
    let out = common::nlorder(&["timeline", "-q", path.to_str().expect("p")]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find(|l| l.contains(&format!("= dump #{dump} ")))
        .unwrap_or_else(|| panic!("no dump #{dump} in\n{text}"))
        .to_owned()
}

#[test]
fn the_dump_check_compares_the_routes_of_a_group_in_order() {
    // The hot-plug capture's last route dump (#31) lists fe80::/64 through
    // veth-ens160, then ens160, as the first dump did. Swapped in the
    // capture's bytes (two replies of the same length), the dump contradicts
    // the order of that group, which the check must say, not take as a set.
    let base = common::fixture("incident-hotplug.pcap");
    let lines = common::decode_json(&base);
    let reply = |dev: &str| {
        lines
            .iter()
            .find(|l| l["packet"] == 32 && l["route"]["dst"] == "fe80::/64" && l["route"]["oif_name"] == dev)
            .map(|l| {
                (
                    l["offset"].as_u64().expect("o") as usize,
                    l["len"].as_u64().expect("l") as usize,
                )
            })
            .expect("reply")
    };
    let (a, la) = reply("veth-ens160");
    let (b, lb) = reply("ens160");
    assert_eq!(la, lb);
    let mut bytes = std::fs::read(&base).expect("read");
    let first = bytes[a..a + la].to_vec();
    let second = bytes[b..b + lb].to_vec();
    bytes[a..a + la].copy_from_slice(&second);
    bytes[b..b + lb].copy_from_slice(&first);
    let line = dump_line(&write_tmp("hotplug-swapped.pcap", &bytes), 31);
    assert!(
        line.contains(
            "DISAGREES with the prediction: routes fe80::/64 table main metric 256: expected [dev veth-ens160, dev ens160,"
        ) && line.contains("seen [dev ens160, dev veth-ens160,"),
        "{line}"
    );
    let t = table_json(&write_tmp("hotplug-swapped.pcap", &bytes), &[]);
    assert!(
        warnings(&t)
            .iter()
            .any(|w| w.contains("routes fe80::/64 table main metric 256")),
        "{:?}",
        warnings(&t)
    );
}

#[test]
fn hotplug_per_device_routes_in_the_kernel_s_order() {
    // The dump after the hot-plug (#31) puts veth-ens19's fe80::/64 and
    // ff00::/8 before ens19's, as the notifications (packets 15 to 19) did.
    // (`ip link add ens19 type veth peer name veth-ens19` registers both
    // ends under one rtnl lock, so linkwatch handles their creation events
    // together; bringing veth-ens19 up queues its event before ens19's.)
    let path = common::fixture("incident-hotplug.pcap");
    let line = dump_line(&path, 31);
    assert!(line.ends_with("19 entries, as predicted"), "{line}");
    let text = common::stdout_ok(&[
        "table",
        "-q",
        "-6",
        "--objects",
        "route",
        "--at",
        "24",
        path.to_str().expect("p"),
    ]);
    let devs = |prefix: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with(prefix))
            .filter_map(|l| l.split(" dev ").nth(1))
            .filter_map(|d| d.split(' ').next())
            .map(str::to_owned)
            .collect()
    };
    let want = ["veth-ens160", "ens160", "veth-ens19", "ens19"];
    assert_eq!(devs("fe80::/64"), want, "{text}");
    assert_eq!(devs("multicast ff00::/8"), want, "{text}");
    // Each device's routes are told at the notification that shows them:
    // ens19's come after veth-ens19's link message (packet 17), at 18.
    let text = common::stdout_ok(&["timeline", "-q", path.to_str().expect("p")]);
    let at = |what: &str| {
        text.lines()
            .find(|l| l.contains(what))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|p| p.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{what} in\n{text}"))
    };
    assert_eq!(at("+ route ff00::/8 dev veth-ens19"), 15, "{text}");
    assert_eq!(at("+ route ff00::/8 dev ens19"), 18, "{text}");
    assert_eq!(at("+ route fe80::/64 dev ens19"), 18, "{text}");
}
