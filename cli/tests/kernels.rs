//! Real kernels, real nlmon: every capture of the kernel matrix
//! (`fixtures/kernels/<kernel>/`, recorded by `scripts/kernel-matrix.sh` on
//! Debian's 6.1 and 6.12 with 0, 1 and 2 rtnetlink listeners) must rebuild
//! into exactly the links, per-link addresses and routes, in order, that
//! `ip -j` printed right afterwards, without warnings.
//!
//! `NLORDER_MATRIX_DIR=DIR` also checks every run below DIR (fresh random
//! histories, or CI's re-recording) and prints the success rates per kernel
//! and listener count; the test fails below 99% (links and addresses) or
//! 95% (routes).
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::matrix::{self, Run};

fn fixture_dir() -> PathBuf {
    common::fixture("kernels")
}

fn check_fixture(kernel: &str, run: &str) {
    let pcap = fixture_dir().join(kernel).join(format!("{run}.pcap"));
    let r = Run::load(&pcap);
    let v = matrix::check(&r);
    let mut problems = String::new();
    for d in [&v.links_and_addrs, &v.routes].into_iter().flatten() {
        problems.push_str(d);
    }
    if v.listeners != r.listeners() {
        problems.push_str(&format!(
            "the capture implies {} listeners, {} ran\n",
            v.listeners,
            r.listeners()
        ));
    }
    if !v.warnings.is_empty() {
        problems.push_str(&format!("warnings: {:#?}\n", v.warnings));
    }
    assert!(problems.is_empty(), "{}:\n{problems}", pcap.display());
}

macro_rules! fixtures {
    ($($name:ident: $kernel:literal $run:literal;)*) => {
        $(
            #[test]
            fn $name() {
                check_fixture($kernel, $run);
            }
        )*

        /// Every committed run has its test above.
        #[test]
        fn every_matrix_fixture_has_a_test() {
            let listed: Vec<String> = vec![$(format!("{}/{}.pcap", $kernel, $run)),*];
            for p in matrix::runs_in(&fixture_dir()) {
                let rel = p.strip_prefix(fixture_dir()).expect("below").to_string_lossy().into_owned();
                assert!(listed.contains(&rel), "{rel} has no test in tests/kernels.rs");
            }
            assert!(listed.len() >= 42, "the matrix shrank: {}", listed.len());
        }
    };
}

fixtures! {
    k61_links_l0: "6.1" "links.l0";
    k61_links_l1: "6.1" "links.l1";
    k61_links_l2: "6.1" "links.l2";
    k61_ipv4_promote_on_l0: "6.1" "ipv4-promote-on.l0";
    k61_ipv4_promote_on_l1: "6.1" "ipv4-promote-on.l1";
    k61_ipv4_promote_on_l2: "6.1" "ipv4-promote-on.l2";
    k61_ipv4_promote_off_l0: "6.1" "ipv4-promote-off.l0";
    k61_ipv4_promote_off_l1: "6.1" "ipv4-promote-off.l1";
    k61_ipv4_promote_off_l2: "6.1" "ipv4-promote-off.l2";
    k61_ipv6_l0: "6.1" "ipv6.l0";
    k61_ipv6_l1: "6.1" "ipv6.l1";
    k61_ipv6_l2: "6.1" "ipv6.l2";
    k61_routes_l0: "6.1" "routes.l0";
    k61_routes_l1: "6.1" "routes.l1";
    k61_routes_l2: "6.1" "routes.l2";
    k61_refused_l0: "6.1" "refused.l0";
    k61_refused_l1: "6.1" "refused.l1";
    k61_refused_l2: "6.1" "refused.l2";
    k61_bridge_port_mac_l0: "6.1" "bridge-port-mac.l0";
    k61_bridge_port_mac_l1: "6.1" "bridge-port-mac.l1";
    k61_bridge_port_mac_l2: "6.1" "bridge-port-mac.l2";
    k612_links_l0: "6.12" "links.l0";
    k612_links_l1: "6.12" "links.l1";
    k612_links_l2: "6.12" "links.l2";
    k612_ipv4_promote_on_l0: "6.12" "ipv4-promote-on.l0";
    k612_ipv4_promote_on_l1: "6.12" "ipv4-promote-on.l1";
    k612_ipv4_promote_on_l2: "6.12" "ipv4-promote-on.l2";
    k612_ipv4_promote_off_l0: "6.12" "ipv4-promote-off.l0";
    k612_ipv4_promote_off_l1: "6.12" "ipv4-promote-off.l1";
    k612_ipv4_promote_off_l2: "6.12" "ipv4-promote-off.l2";
    k612_ipv6_l0: "6.12" "ipv6.l0";
    k612_ipv6_l1: "6.12" "ipv6.l1";
    k612_ipv6_l2: "6.12" "ipv6.l2";
    k612_routes_l0: "6.12" "routes.l0";
    k612_routes_l1: "6.12" "routes.l1";
    k612_routes_l2: "6.12" "routes.l2";
    k612_refused_l0: "6.12" "refused.l0";
    k612_refused_l1: "6.12" "refused.l1";
    k612_refused_l2: "6.12" "refused.l2";
    k612_bridge_port_mac_l0: "6.12" "bridge-port-mac.l0";
    k612_bridge_port_mac_l1: "6.12" "bridge-port-mac.l1";
    k612_bridge_port_mac_l2: "6.12" "bridge-port-mac.l2";
    k61_shared_broadcast_l0: "6.1" "shared-broadcast.l0";
    k61_shared_broadcast_l1: "6.1" "shared-broadcast.l1";
    k61_shared_broadcast_l2: "6.1" "shared-broadcast.l2";
    k612_shared_broadcast_l0: "6.12" "shared-broadcast.l0";
    k612_shared_broadcast_l1: "6.12" "shared-broadcast.l1";
    k612_shared_broadcast_l2: "6.12" "shared-broadcast.l2";
    k61_ipv6_ready_l0: "6.1" "ipv6-ready.l0";
    k61_ipv6_ready_l1: "6.1" "ipv6-ready.l1";
    k61_ipv6_ready_l2: "6.1" "ipv6-ready.l2";
    k612_ipv6_ready_l0: "6.12" "ipv6-ready.l0";
    k612_ipv6_ready_l1: "6.12" "ipv6-ready.l1";
    k612_ipv6_ready_l2: "6.12" "ipv6-ready.l2";
    k61_promote_mixed_l0: "6.1" "promote-mixed.l0";
    k61_promote_mixed_l1: "6.1" "promote-mixed.l1";
    k61_promote_mixed_l2: "6.1" "promote-mixed.l2";
    k61_filtered_dumps_l0: "6.1" "filtered-dumps.l0";
    k61_filtered_dumps_l1: "6.1" "filtered-dumps.l1";
    k61_filtered_dumps_l2: "6.1" "filtered-dumps.l2";
    k612_promote_mixed_l0: "6.12" "promote-mixed.l0";
    k612_promote_mixed_l1: "6.12" "promote-mixed.l1";
    k612_promote_mixed_l2: "6.12" "promote-mixed.l2";
    k612_filtered_dumps_l0: "6.12" "filtered-dumps.l0";
    k612_filtered_dumps_l1: "6.12" "filtered-dumps.l1";
    k612_filtered_dumps_l2: "6.12" "filtered-dumps.l2";
}

/// Fresh runs (`NLORDER_MATRIX_DIR`): success rates per kernel and listener count.
#[test]
fn fresh_matrix_runs_meet_the_bar() {
    let Some((_, runs)) = matrix::fresh_runs("NLORDER_MATRIX_DIR") else {
        return;
    };
    // (kernel, listeners) -> (runs, links+addrs right, routes right)
    let mut rates: BTreeMap<(String, u64), (u32, u32, u32)> = BTreeMap::new();
    let verbose = std::env::var("NLORDER_MATRIX_VERBOSE").is_ok();
    for p in &runs {
        let r = Run::load(p);
        let v = matrix::check(&r);
        let e = rates.entry((r.kernel().to_owned(), r.listeners())).or_default();
        e.0 += 1;
        e.1 += u32::from(v.links_and_addrs.is_none());
        e.2 += u32::from(v.routes.is_none());
        if verbose {
            for d in [&v.links_and_addrs, &v.routes].into_iter().flatten() {
                eprintln!("{}:\n{d}", p.display());
            }
        }
    }
    let mut ok = true;
    eprintln!("kernel                 listeners  runs  links+addresses  routes");
    for ((k, l), (n, la, rt)) in &rates {
        let (pla, prt) = (
            f64::from(*la) * 100.0 / f64::from(*n),
            f64::from(*rt) * 100.0 / f64::from(*n),
        );
        eprintln!("{k:<22} {l:>9} {n:>5}  {la:>5} ({pla:5.1}%)  {rt:>4} ({prt:5.1}%)");
        ok &= pla >= 99.0 && prt >= 95.0;
    }
    assert!(ok, "below the bar (99% links and addresses, 95% routes)");
}
