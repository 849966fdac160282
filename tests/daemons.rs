//! Real node software on real kernels: captures taken on Debian's 6.1 and
//! 6.12 while CNI plugins, DHCP clients, radvd, keepalived, bird,
//! systemd-networkd, a hypervisor's NIC hot-plug, tunnel modules and
//! namespace moves changed the network (`fixtures/daemons/`, recorded by
//! `scripts/kernel-matrix.sh`), held against what `ip -j` printed right
//! afterwards, as `tests/kernels.rs` does: the links, each link's addresses
//! and every route, in order, and no warnings.
//!
//! Some runs do not match yet. Each such difference is listed in `KNOWN`
//! with what the capture holds that explains it; a listed difference is
//! reported and tolerated, one not listed fails, and one listed that no
//! longer occurs is reported. `STRICT = true` (or `NLORDER_DAEMONS_STRICT=1`)
//! makes every difference fail.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use common::matrix::{self, Run};

/// Fail on every difference, listed or not.
const STRICT: bool = false;

/// Differences known today: (run, aspect, kernels, why). The run is
/// `SCENARIO.lN`, the aspect `links`, `addresses`, `routes` or `warnings`,
/// the kernels those (of `6.1`, `6.12`) where it differs; why is what the
/// capture holds (or lacks) that explains it.
type Known = (&'static str, &'static str, &'static [&'static str], &'static str);
const KNOWN: &[Known] = &[
    (
        "bird-kernel.l0",
        "routes",
        &["6.1", "6.12"],
        "the IPv6 blackhole is listed twice: once as bird requested it (no device) and once as the kernel notified it (dev lo, as fib6 puts reject routes on lo); the two are the same route",
    ),
    (
        "bird-kernel.l1",
        "routes",
        &["6.1", "6.12"],
        "the IPv6 blackhole is listed twice: once as bird requested it (no device) and once as the kernel notified it (dev lo, as fib6 puts reject routes on lo); the two are the same route",
    ),
    (
        "cni-bridge.l0",
        "addresses",
        &["6.1", "6.12"],
        "the link-local address nlorder infers for the node's veth end, which DEL deleted silently from inside c1",
    ),
    (
        "cni-bridge.l0",
        "links",
        &["6.1", "6.12"],
        "lo and nlmon0 are never named in the capture; the node's veth end appears in a GETLINK reply (made in c1 and moved here by requests inside c1) and DEL, run inside c1, deletes it with no message here",
    ),
    (
        "cni-bridge.l0",
        "routes",
        &["6.1", "6.12"],
        "the IPv6 routes nlorder infers for the node's veth end, deleted silently with it",
    ),
    (
        "cni-ipvlan.l0",
        "links",
        &["6.1", "6.12"],
        "lo and nlmon0 are never named; the ipvlan is created by a request with IFLA_NET_NS_FD (born in c1) but counted here",
    ),
    (
        "cni-ipvlan.l1",
        "links",
        &["6.1", "6.12"],
        "the ipvlan created with IFLA_NET_NS_FD in c1 is counted here though no notification came",
    ),
    (
        "cni-macvlan.l0",
        "links",
        &["6.1", "6.12"],
        "lo and nlmon0 are never named; the macvlan is created by a request with IFLA_NET_NS_FD (it is born in c1; GETLINK by its name then fails with ENODEV) but counted here",
    ),
    (
        "cni-macvlan.l1",
        "links",
        &["6.1", "6.12"],
        "the macvlan created with IFLA_NET_NS_FD in c1 is counted here though no notification came and GETLINK by its name failed with ENODEV",
    ),
    (
        "cni-ptp.l0",
        "addresses",
        &["6.1", "6.12"],
        "the /32 and the link-local address of the node's veth end, gone silently with it",
    ),
    (
        "cni-ptp.l0",
        "links",
        &["6.1", "6.12"],
        "lo and nlmon0 are never named; the node's veth end (moved here by requests inside c1) is deleted silently by DEL inside c1",
    ),
    (
        "cni-ptp.l0",
        "routes",
        &["6.1", "6.12"],
        "the host route to the container and the inferred routes of the node's veth end, gone silently with it",
    ),
    (
        "cni-vlan.l0",
        "links",
        &["6.1", "6.12"],
        "lo and nlmon0 are never named; the VLAN is created by a request with IFLA_NET_NS_FD (born in c1) but counted here",
    ),
    (
        "cni-vlan.l1",
        "links",
        &["6.1", "6.12"],
        "the VLAN created with IFLA_NET_NS_FD in c1 is counted here though no notification came",
    ),
    (
        "dhclient-expiry.l0",
        "addresses",
        &["6.1", "6.12"],
        "the lease's address (valid_lft 120 in the request) expired without a message; the capture's last record is 0.2 s after it was added",
    ),
    (
        "dhclient-expiry.l0",
        "routes",
        &["6.1", "6.12"],
        "the routes of the expired address (prefix, local, broadcast) and the default route went with it, silently",
    ),
    (
        "dhcpcd-renew.l0",
        "routes",
        &["6.1", "6.12"],
        "fe80::/64 and ff00::/8 were made at link-up before dhcpcd started listening; its later notifications make nlorder assume a listener from the start",
    ),
    (
        "dhcpcd-renew.l0",
        "warnings",
        &["6.1", "6.12"],
        "dhcpcd dumps with NLM_F_REQUEST|NLM_F_ACK|NLM_F_MATCH (0x205), no NLM_F_ROOT: the kernel dumps, nlorder does not pair the replies with the request",
    ),
    (
        "dhcpcd-renew.l1",
        "warnings",
        &["6.1", "6.12"],
        "dhcpcd dumps with NLM_F_REQUEST|NLM_F_ACK|NLM_F_MATCH (0x205), no NLM_F_ROOT: the kernel dumps, nlorder does not pair the replies with the request",
    ),
    (
        "hotplug-nic.l0",
        "addresses",
        &["6.1", "6.12"],
        "the addresses of the hot-removed NIC, gone with it silently",
    ),
    (
        "hotplug-nic.l0",
        "links",
        &["6.1", "6.12"],
        "lo, dummy0 and nlmon0 of the initial namespace are never named; the NIC removed by the hypervisor (device_del) leaves no message on a quiet host",
    ),
    (
        "hotplug-nic.l0",
        "routes",
        &["6.1", "6.12"],
        "the routes of the hot-removed NIC, gone with it silently",
    ),
    (
        "keepalived-vip.l0",
        "routes",
        &["6.1", "6.12"],
        "keepalived listens to link and address groups only: its address notifications make nlorder expect route notifications, but fe80::/64 and ff00::/8 (link-up, before it started) and the link-local's local route were never notified",
    ),
    (
        "netns-moves.l0",
        "addresses",
        &["6.1", "6.12"],
        "the addresses of eth0 (moved away) and of veth2 (gone with the deleted namespace)",
    ),
    (
        "netns-moves.l0",
        "links",
        &["6.1", "6.12"],
        "links moved away (RTM_NEWLINK with IFLA_NET_NS_FD on an existing index), a link created with IFLA_NET_NS_FD and a veth peer created in another namespace are all kept here; veth2 died silently with namespace 'gone'; lo and nlmon0 are never named",
    ),
    (
        "netns-moves.l0",
        "routes",
        &["6.1", "6.12"],
        "the routes of eth0 (moved away) and of veth2 (gone with the deleted namespace)",
    ),
    (
        "netns-moves.l1",
        "links",
        &["6.1", "6.12"],
        "eth3, created by a request with IFLA_NET_NS_FD directly in another namespace, is counted here though no notification came",
    ),
    (
        "radvd-slaac.l0",
        "addresses",
        &["6.1", "6.12"],
        "eth0's link-local address is not inferred: nlorder takes the peer for a local link that is down, so eth0 for one without carrier",
    ),
    (
        "radvd-slaac.l0",
        "links",
        &["6.1", "6.12"],
        "the veth peer created in the router's namespace (VETH_INFO_PEER with IFLA_NET_NS_FD) is counted here; lo and nlmon0 are never named",
    ),
    (
        "radvd-slaac.l0",
        "routes",
        &["6.1", "6.12"],
        "eth0's link-local routes are not inferred (carrier, as above); on 6.1 the expired RA prefix routes also stay in the dump (negative expires) until the fib6 garbage collector runs",
    ),
    (
        "radvd-slaac.l1",
        "routes",
        &["6.1"],
        "6.1 keeps the expired RA prefix routes in its dumps (negative expires, no RTM_DELROUTE) until the fib6 garbage collector runs; 6.12 deletes them at expiry with a notification; nlorder drops them at expiry",
    ),
    (
        "tunnel-modules.l0",
        "addresses",
        &["6.1", "6.12"],
        "the link-local address the kernel gives an ipip tunnel (fe80::5efe:<local IPv4>) is not inferred",
    ),
    (
        "tunnel-modules.l0",
        "links",
        &["6.1", "6.12"],
        "the fallback devices (tunl0, gre0, gretap0, erspan0, ip6tnl0) that loading the modules made in this namespace leave no message on a quiet host; nlmon0 is never named",
    ),
    (
        "tunnel-modules.l0",
        "routes",
        &["6.1", "6.12"],
        "the tunnel's link-local routes (fe80::/64, its local route, ff00::/8) are not inferred",
    ),
];

fn strict() -> bool {
    STRICT || std::env::var("NLORDER_DAEMONS_STRICT").is_ok_and(|v| v == "1")
}

#[test]
fn daemon_runs_match_ip_or_are_known() {
    let dir = common::fixture("daemons");
    let runs = matrix::runs_in(&dir);
    assert!(runs.len() >= 64, "the daemon fixtures shrank: {} runs", runs.len());
    let mut unexpected = String::new();
    let mut known = 0;
    let mut seen: Vec<(String, &str)> = Vec::new();
    for p in &runs {
        let name = p
            .strip_prefix(&dir)
            .expect("below")
            .with_extension("")
            .to_string_lossy()
            .into_owned();
        let r = Run::load(p);
        let v = matrix::check(&r);
        let warnings = (!v.warnings.is_empty()).then(|| format!("warnings: {:#?}\n", v.warnings));
        let (links_and_addrs, routes) = (v.links_and_addrs.clone(), v.routes.clone());
        for (aspect, diff) in [
            ("links", links_and_addrs.as_ref().filter(|d| d.contains("links differ"))),
            (
                "addresses",
                links_and_addrs.as_ref().filter(|d| d.contains("addresses differ")),
            ),
            ("routes", routes.as_ref()),
            ("warnings", warnings.as_ref()),
        ] {
            let Some(diff) = diff else { continue };
            seen.push((name.clone(), aspect));
            let listed = KNOWN
                .iter()
                .find(|(r, a, ks, _)| *a == aspect && ks.iter().any(|k| format!("{k}/{r}") == name));
            match listed {
                Some((_, _, _, why)) if !strict() => {
                    known += 1;
                    eprintln!("KNOWN {name} {aspect}: {why}");
                }
                _ => unexpected.push_str(&format!("{name} ({aspect}):\n{diff}\n")),
            }
        }
    }
    for (run, aspect, kernels, _) in KNOWN {
        for k in *kernels {
            let name = format!("{k}/{run}");
            if !seen.iter().any(|(r, a)| *r == name && a == aspect) {
                eprintln!("NOW MATCHES {name} {aspect}: take it out of KNOWN");
            }
        }
    }
    eprintln!("{} runs, {known} known differences", runs.len());
    assert!(unexpected.is_empty(), "differences not in KNOWN:\n{unexpected}");
}

/// Every entry of KNOWN names a run that exists and an aspect the test knows.
#[test]
fn known_differences_name_real_runs() {
    let dir = common::fixture("daemons");
    for (run, aspect, kernels, why) in KNOWN {
        for k in *kernels {
            assert!(dir.join(format!("{k}/{run}.pcap")).exists(), "{k}/{run}: no such run");
        }
        assert!(
            ["links", "addresses", "routes", "warnings"].contains(aspect),
            "{run}: unknown aspect {aspect}"
        );
        assert!(!why.is_empty(), "{run} {aspect}: say why");
    }
}
