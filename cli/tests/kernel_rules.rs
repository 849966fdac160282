//! Kernel behaviours checked on the bytes real kernels sent: each test
//! names the committed real-kernel capture and the packets that show the
//! behaviour, and asserts what the model does at those packets.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::fx;

/// The packet of the first timeline line that contains all of `words`.
fn first_packet(timeline: &str, words: &[&str]) -> Option<u64> {
    timeline
        .lines()
        .find(|l| words.iter().all(|w| l.contains(w)))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|p| p.parse().ok())
}

/// DAD ends per address. `kernels/6.12/ipv6.l1.pcap` (one listener):
/// fd00:99::1 on veth0 is announced tentative in packet 127; 2001:db8:1::7
/// on veth1 is announced without the tentative flag in packet 134 (133 on
/// 6.1); fd00:99::1's DAD ends in packet 189 (188) and the kernel announces
/// its local route right after. Another address's announcement does not
/// end this one's DAD.
#[test]
fn dad_ends_per_address() {
    for (kernel, tentative, other_done, own_done) in [("6.12", 127, 134, 189), ("6.1", 127, 133, 188)] {
        let f = fx(&format!("kernels/{kernel}/ipv6.l1.pcap"));
        let text = common::stdout_ok(&["timeline", "-q", &f]);
        assert_eq!(
            first_packet(&text, &["+ fd00:99::1/64 on veth0"]),
            Some(tentative),
            "{kernel}: {text}"
        );
        // the capture: another address announced done while fd00:99::1 is tentative
        let decoded = common::stdout_ok(&["decode", "-q", &f]);
        let line = decoded
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{other_done} ")) && l.contains("RTM_NEWADDR"))
            .unwrap_or_else(|| panic!("{kernel}: no RTM_NEWADDR in packet {other_done}"));
        assert!(
            line.contains("K>U") && line.contains("2001:db8:1::7/64") && !line.contains("tentative"),
            "{kernel}: {line}"
        );
        let local = first_packet(&text, &["+ route fd00:99::1/128 dev veth0 table local"]);
        assert!(
            local.is_some_and(|p| p >= own_done),
            "{kernel}: the local route of fd00:99::1 came in packet {local:?}, before its DAD ended ({own_done})"
        );
    }
}

/// The local broadcast routes of one device, as `(dst, prefsrc)`.
fn broadcasts(capture: &str, at: u64) -> Vec<(String, String)> {
    let (t, _) = common::json_of("table", &["--at", &at.to_string(), capture]);
    t["routes"]
        .as_array()
        .expect("routes")
        .iter()
        .filter(|r| r["type"] == "broadcast" && r["oif"] == "eth0")
        .map(|r| {
            (
                r["dst"].as_str().expect("dst").to_owned(),
                r["prefsrc"].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect()
}

/// Routes that differ only by their preferred source are two routes.
/// `kernels/*/shared-broadcast.l0.pcap` (a quiet host): 10.9.0.9/24 and
/// 10.9.0.200/25 on eth0 share the broadcast address 10.9.0.255; the dump
/// in packet 35 lists two broadcast routes, one per source, and after the
/// /25 is deleted (packet 43) the one with source 10.9.0.9 is left.
#[test]
fn routes_that_differ_only_by_prefsrc_are_two_routes() {
    let pair = |src: &str| ("10.9.0.255/32".to_owned(), src.to_owned());
    for kernel in ["6.1", "6.12"] {
        let f = fx(&format!("kernels/{kernel}/shared-broadcast.l0.pcap"));
        // predicted by the kernel's rules before the dump, then the dump
        for at in [33, 35] {
            assert_eq!(
                broadcasts(&f, at),
                [pair("10.9.0.9"), pair("10.9.0.200")],
                "{kernel} at {at}"
            );
        }
        assert_eq!(broadcasts(&f, 44), [pair("10.9.0.9")], "{kernel}");
    }
}

/// glibc's abandoned dumps. `looks/*/gai-native.l0.pcap`: getent resolves
/// a name twice; each time glibc's `__check_native` dumps the links on a
/// fresh socket and stops reading once it has seen d1 and d2 (on 6.12:
/// request 54, replies 55-57, no NLMSG_DONE), then the next `__check_pf`
/// asks for the addresses with the same port and seq (58, replies 59, done
/// 60). Those replies belong to the address dump: every link and address
/// is still there, and nothing is said to be cut short but the last
/// abandoned dump's merge.
#[test]
fn replies_pair_with_the_newest_request_of_their_kind() {
    for (kernel, done) in [("6.1", 62), ("6.12", 60)] {
        let f = fx(&format!("looks/{kernel}/gai-native.l0.pcap"));
        let (t, _) = common::json_of("table", &["--at", &done.to_string(), &f]);
        let links: Vec<&str> = t["links"]
            .as_array()
            .expect("links")
            .iter()
            .map(|l| l["name"].as_str().expect("name"))
            .collect();
        assert_eq!(links, ["lo", "nlmon0", "d1", "d2", "x1", "x2", "x3", "x4"], "{kernel}");
        let addrs = t["addresses"].as_array().expect("addresses").len();
        assert_eq!(addrs, 6, "{kernel}: {}", t["addresses"]);
        assert!(
            t["warnings"].as_array().expect("w").is_empty(),
            "{kernel}: {}",
            t["warnings"]
        );
    }
}

/// DAD still under way when the capture ends is not assumed over.
/// `incident-hotplug.pcap` (`nlorder record`, a real 6.12 host): ens19's
/// and veth-ens19's link-locals start DAD at packet 15 (linkwatch has made
/// them ready: their first IPv6 route is notified there), the
/// address dump at packet 30 shows all four link-locals tentative (the
/// ens160 pair's first in the dump at packet 7) and the route dump that
/// ends the capture (packet 33, 0.5 s after link-up) has no local route
/// for any of them, as `ip -j` right after it. Every one of the four is
/// treated alike: tentative, no local route, a note each; `--at end+3`
/// runs DAD to its end for all four, marked assumed; the timeline has a
/// time on every line.
#[test]
fn dad_under_way_at_the_end_of_the_capture() {
    let f = fx("incident-hotplug.pcap");
    let (t, _) = common::json_of("table", &[&f]);
    let link_locals: Vec<&serde_json::Value> = t["addresses"]
        .as_array()
        .expect("addresses")
        .iter()
        .filter(|a| a["address"].as_str().is_some_and(|s| s.starts_with("fe80:")))
        .collect();
    assert_eq!(link_locals.len(), 4, "{t}");
    let local_fe80 = |t: &serde_json::Value| -> Vec<serde_json::Value> {
        t["routes"]
            .as_array()
            .expect("routes")
            .iter()
            .filter(|r| r["type"] == "local" && r["dst"].as_str().is_some_and(|d| d.starts_with("fe80:")))
            .cloned()
            .collect()
    };
    for a in &link_locals {
        assert!(a["flags"].to_string().contains("tentative"), "{a}");
        assert_eq!(a["assumed"], false, "{a}");
    }
    assert_eq!(local_fe80(&t), Vec::<serde_json::Value>::new(), "{t}");
    let notes: Vec<String> = t["assumptions"]
        .as_array()
        .expect("assumptions")
        .iter()
        .filter_map(|n| n.as_str())
        .filter(|n| n.contains("duplicate address detection") && n.contains("still under way"))
        .map(String::from)
        .collect();
    assert_eq!(notes.len(), 4, "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("packet 15:") && n.contains("veth-ens19")),
        "{notes:?}"
    );

    let (later, _) = common::json_of("table", &["--at", "end+3", &f]);
    let locals = local_fe80(&later);
    assert_eq!(locals.len(), 4, "{later}");
    assert!(locals.iter().all(|r| r["assumed"] == true), "{locals:?}");
    for a in later["addresses"].as_array().expect("addresses") {
        if a["address"].as_str().is_some_and(|s| s.starts_with("fe80:")) {
            assert!(!a["flags"].to_string().contains("tentative"), "{a}");
            assert_eq!(a["assumed"], true, "{a}");
        }
    }
    assert!(
        later["moment"].to_string().contains("3s after packet 33"),
        "{}",
        later["moment"]
    );
    // 1.2 s on is too early: every DAD began at most 0.51 s before the end
    let (early, _) = common::json_of("table", &["--at", "end+1.2s", &f]);
    assert_eq!(local_fe80(&early).len(), 0, "{early}");

    let text = common::stdout_ok(&["timeline", "-q", &f]);
    for line in text.lines() {
        let time = line.split_whitespace().nth(1).unwrap_or_default();
        assert!(time.starts_with("2026-11-21T"), "a line without its time: {line}");
    }
}

/// The devices of one kind of the kernel's own IPv6 routes (`fe80::/64`
/// unicast in main, `ff00::/8` multicast in local), in dump order.
fn ipv6_route_devices(capture: &str, kernel: &str, at: Option<u64>, dst: &str) -> Vec<String> {
    let mut args = vec!["--kernel", kernel];
    let at = at.map(|p| p.to_string());
    if let Some(p) = &at {
        args.extend(["--at", p.as_str()]);
    }
    args.push(capture);
    let (t, _) = common::json_of("table", &args);
    t["routes"]
        .as_array()
        .expect("routes")
        .iter()
        .filter(|r| r["dst"] == dst)
        .map(|r| r["oif"].as_str().expect("oif").to_owned())
        .collect()
}

/// IPv6 readiness follows the operational state, not the carrier
/// (`addrconf_link_ready`: oper up and a tx qdisc). `kernels/*/ipv6-ready.l0.pcap`
/// (a quiet host): `ip link set veth0 up` (request 32, acknowledged in 33)
/// gives veth0 and veth1 carrier and brings the VLAN veth0.10 up, none of
/// them oper up yet; linkwatch then takes its queue in order, and the
/// VLAN's event, queued when it was made (packet 20) and held back by the
/// once-a-second limit, comes first. The route dump of packet 34 lists
/// fe80::/64 and ff00::/8 through veth0.10, veth0, veth1, as predicted at
/// 33. Then `ip link set veth1 up` (request 67) brings veth1.20 up with
/// veth1: on 6.1 veth1's operstate is still UP from before it went down
/// (request 55; its event waits for the limit), so veth1 is ready at
/// NETDEV_UP and comes first; on 6.12 the GETLINK of `ip link set`
/// (packet 65) ran that event first, and the VLAN comes first.
#[test]
fn ipv6_readiness_follows_the_operational_state() {
    for (kernel, second) in [("6.1", ["veth1", "veth1.20"]), ("6.12", ["veth1.20", "veth1"])] {
        let f = fx(&format!("kernels/{kernel}/ipv6-ready.l0.pcap"));
        for dst in ["fe80::/64", "ff00::/8"] {
            assert_eq!(
                ipv6_route_devices(&f, kernel, Some(33), dst),
                ["veth0.10", "veth0", "veth1"],
                "{kernel} {dst} at 33"
            );
            let all = ipv6_route_devices(&f, kernel, None, dst);
            assert_eq!(all[..2], ["veth0.10", "veth0"], "{kernel} {dst}");
            assert_eq!(all[2..], second, "{kernel} {dst}");
        }
    }
}

/// With listeners the notifications show the same order, and the model
/// keeps it. `kernels/6.1/ipv6-ready.l2.pcap`: veth0.10's fe80::/64 is
/// announced in packet 97, veth0's in 103, veth1's in 109 (veth0 came up
/// LOWERLAYERDOWN in 91: it had carrier, it was not ready).
/// `kernels/6.12/ipv6-ready.l1.pcap`: the listener's GETLINK of the new
/// VLAN (packet 50, answered in 51) ran its event at once, so veth0's comes
/// first (67), then veth1's (70) and veth0.10's (73); after `ip link set
/// veth1 up` (137), veth1.20's (141) comes before veth1's (143).
#[test]
fn ipv6_readiness_with_listeners() {
    for (kernel, run, first) in [
        ("6.1", "l2", ["veth0.10", "veth0", "veth1"]),
        ("6.12", "l1", ["veth0", "veth1", "veth0.10"]),
    ] {
        let f = fx(&format!("kernels/{kernel}/ipv6-ready.{run}.pcap"));
        let text = common::stdout_ok(&["timeline", "-q", "--kernel", kernel, &f]);
        let added = |dev: &str| {
            first_packet(&text, &[&format!("+ route fe80::/64 dev {dev} table main")])
                .unwrap_or_else(|| panic!("{kernel} {run}: no fe80::/64 through {dev}: {text}"))
        };
        let packets: Vec<u64> = first.iter().map(|d| added(d)).collect();
        assert!(
            packets.is_sorted(),
            "{kernel} {run}: {first:?} added in packets {packets:?}"
        );
    }
    let f = fx("kernels/6.12/ipv6-ready.l1.pcap");
    assert_eq!(
        ipv6_route_devices(&f, "6.12", Some(147), "fe80::/64"),
        ["veth0", "veth0.10", "veth1.20", "veth1"]
    );
}

/// Linkwatch events still queued at the last packet are not assumed to have
/// run: `kernels/6.12/ipv6-ready.l0.pcap` ends with veth1 brought up again
/// (no listener shows linkwatch's run); the table says so, and `--at end+2`
/// runs it.
#[test]
fn linkwatch_queued_at_the_end_is_said() {
    let f = fx("kernels/6.12/ipv6-ready.l0.pcap");
    let said = |extra: &[&str]| {
        let mut args = vec!["--kernel", "6.12"];
        args.extend_from_slice(extra);
        args.push(&f);
        let (t, _) = common::json_of("table", &args);
        t["assumptions"].to_string().contains("queued for linkwatch")
    };
    assert!(said(&[]));
    assert!(!said(&["--at", "end+2"]));
    // every route the timers added after the last packet is marked assumed
    let routes = |extra: &[&str]| {
        let mut args = vec!["--kernel", "6.12"];
        args.extend_from_slice(extra);
        args.push(&f);
        let (t, _) = common::json_of("table", &args);
        t["routes"].as_array().expect("routes").clone()
    };
    let (before, after) = (routes(&[]), routes(&["--at", "end+2"]));
    let same = |a: &serde_json::Value, b: &serde_json::Value| {
        a["dst"] == b["dst"] && a["oif"] == b["oif"] && a["table"] == b["table"]
    };
    let new: Vec<&serde_json::Value> = after.iter().filter(|r| !before.iter().any(|b| same(b, r))).collect();
    assert!(!new.is_empty(), "{after:?}");
    assert!(new.iter().all(|r| r["assumed"] == true), "{new:?}");
    assert!(before.iter().all(|r| r["assumed"] == false));
}

/// `keep_addr_on_down` (a sysctl no message carries) set on eth0, then
/// eth0 down, recorded with a listener (fixtures/heldout2/v6off, steps 22
/// and 23): the kernel announced the deletion of the link-local only, not
/// of the permanent global before it in the list, so it kept that one. At
/// the next dump, before it and after the capture, eth0 holds it; the
/// warning says why.
#[test]
fn an_address_kept_on_down_is_read_from_the_deletions_announced() {
    let cap = common::fixture("heldout2/v6off.pcap.gz");
    let p = cap.to_str().unwrap();
    let out = common::nlorder(&["table", "--at", "252", "--objects", "addr", "-6", p]);
    let text = String::from_utf8_lossy(&out.stdout);
    let eth0: Vec<&str> = text.lines().filter(|l| l.starts_with("2: eth0 inet6")).collect();
    assert_eq!(eth0.len(), 1, "{text}");
    assert!(eth0[0].contains("2001:db8:80::2/64"), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(
        &err,
        &[
            "packet 249",
            "not of 2001:db8:80::2 before it: it kept it (keep_addr_on_down is on for eth0)",
        ],
    );
}

/// A link dump showing a veth up with carrier but not RUNNING after the
/// model had run its linkwatch event (fixtures/heldout2/policy: wan0 set
/// up at packet 62; the kernel ran the event at packet 73, 0.46 s later):
/// the link-local, `fe80::/64` and `ff00::/8` the model's run made are
/// undone at the dump and come again with the kernel's own announcements.
#[test]
fn a_linkwatch_run_the_kernel_had_not_made_is_undone() {
    let cap = common::fixture("heldout2/policy.pcap.gz");
    let p = cap.to_str().unwrap();
    let at = |n: &str| {
        let out = common::nlorder(&["table", "-q", "--at", n, "-6", p]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(at("63").contains("wan0 inet6 fe80::"), "the model's early run");
    let after = at("66");
    assert!(!after.contains("wan0 inet6") && !after.contains("dev wan0"), "{after}");
    assert!(at("75").contains("wan0 inet6 fe80::74ee:a0ff:fe25:b8b/64"));
    let out = common::nlorder(&["timeline", p]);
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(
        &err,
        &["wan0 is shown up with carrier but not yet running: linkwatch had not run its event"],
    );
}

/// The same on Debian's 6.1 and 6.12 under real nlmon
/// (fixtures/between/*/keep-addr): with a listener the addresses kept are
/// read from the deletions announced and every address dump is predicted;
/// with none, the tables say until the next address dump that what became
/// of eth0's permanent addresses is unknown.
#[test]
fn keep_addr_on_down_is_read_with_a_listener_and_said_without() {
    for k in ["6.1", "6.12"] {
        let l1 = common::fixture(&format!("between/{k}/keep-addr.l1.pcap"));
        let text = common::stdout_ok(&["timeline", "-q", "--kernel", k, l1.to_str().unwrap()]);
        assert!(!text.contains("DISAGREES"), "{k}: {text}");
        let l0 = common::fixture(&format!("between/{k}/keep-addr.l0.pcap"));
        let p = l0.to_str().unwrap();
        let decoded = common::decode_json(&l0);
        let dumps: Vec<u64> = decoded
            .iter()
            .filter(|m| m["type"] == "RTM_GETADDR" && m["request"] == true)
            .map(|m| m["packet"].as_u64().unwrap())
            .collect();
        assert!(dumps.len() > 3, "{k}: {dumps:?}");
        let said = dumps
            .iter()
            .filter(|&&d| {
                let out = common::nlorder(&["table", "-q", "--kernel", k, "--at", &(d - 1).to_string(), p]);
                String::from_utf8_lossy(&out.stdout).contains(
                    "eth0 went down and no address listener shows what became of 2001:db8:a::3, 2001:db8:a::2",
                )
            })
            .count();
        assert_eq!(said, 2, "{k}: eth0 went down twice before an address dump");
    }
}
