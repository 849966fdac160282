//! glibc's own tst-rfc3484, tst-rfc3484-2 and tst-rfc3484-3 vectors, and
//! gai.conf parsing.

use std::cmp::Ordering;

use super::gai_conf::lookup;
use super::rfc6724::go_cmp;
use super::{CandidateFacts, GaiConf, SourceWhy, glibc_order};

fn cand(position: usize, dst: &str, src: &str, prefix_len: u8) -> CandidateFacts {
    CandidateFacts {
        address: dst.parse().expect("dst"),
        position,
        source: Some(src.parse().expect("src")),
        source_why: SourceWhy::Given,
        prefix_len,
        deprecated: false,
        home: false,
        index: 0,
        native: false,
    }
}

/// The destinations in their order, each with the same source.
fn all_from(dsts: &[&str], src: &str, prefix_len: u8) -> Vec<CandidateFacts> {
    dsts.iter()
        .enumerate()
        .map(|(i, d)| cand(i, d, src, prefix_len))
        .collect()
}

#[test]
fn tst_rfc3484() {
    let dsts = [
        "10.168.95.25",
        "172.16.95.25",
        "192.0.2.25",
        "192.168.109.29",
        "192.168.93.3",
        "192.168.44.61",
        "192.168.96.2",
        "192.168.2.243",
        "192.168.8.16",
        "192.168.94.2",
    ];
    let cands = all_from(&dsts, "192.168.95.25", 8);
    assert_eq!(glibc_order(&cands, &GaiConf::default()), [9, 4, 3, 6, 5, 7, 8, 2, 0, 1]);
}

#[test]
fn tst_rfc3484_2() {
    let a = |p| cand(p, "224.168.95.25", "192.168.95.25", 16);
    let b = |p| cand(p, "7d1:1:100:0:100:0:100:0", "fec0:1234:100:0:100:0:100:0", 16);
    assert_eq!(glibc_order(&[a(0), b(1)], &GaiConf::default()), [0, 1]);
    assert_eq!(glibc_order(&[b(0), a(1)], &GaiConf::default()), [1, 0]);
}

#[test]
fn tst_rfc3484_3() {
    let dsts = [
        "160.168.109.29",
        "160.168.93.3",
        "160.168.44.61",
        "160.168.96.2",
        "160.168.2.243",
        "160.168.8.16",
        "160.168.94.2",
        "172.22.35.17",
        "10.50.69.114",
    ];
    let cands = all_from(&dsts, "10.168.95.25", 8);
    let conf = GaiConf::parse(
        "scopev4 ::ffff:169.254.0.0/112 2\nscopev4 ::ffff:127.0.0.0/104 2\nscopev4 10.0.0.0/8 5\n\
         scopev4 192.168.0.0/16 5\nscopev4 0.0.0.0/0 14\n",
    );
    assert!(conf.ignored.is_empty(), "{:?}", conf.ignored);
    assert_eq!(glibc_order(&cands, &conf), [8, 0, 1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn gai_conf_replaces_whole_tables() {
    let c =
        GaiConf::parse("# prefer IPv4\nprecedence ::ffff:0:0/96 100\nbogus line here\nlabel nonsense 3\nreload yes\n");
    let p = c.precedence.expect("precedence");
    assert_eq!(p.len(), 2, "the defaults are gone, ::/0 40 appended: {p:?}");
    assert_eq!(lookup(&p, "10.0.0.1".parse().expect("ip")), 100);
    assert_eq!(lookup(&p, "2001:db8::1".parse().expect("ip")), 40);
    assert!(c.labels.is_none());
    assert!(c.reload);
    assert_eq!(c.ignored.len(), 2);
}

#[test]
fn rule9_subnet_restriction_and_unknown_prefix() {
    // B2 of the spec: .200 and .7 from source .2/24 -> .7 first (29 vs 24)
    let c = [
        cand(0, "172.18.45.200", "172.18.45.2", 24),
        cand(1, "172.18.45.7", "172.18.45.2", 24),
    ];
    assert_eq!(glibc_order(&c, &GaiConf::default()), [1, 0]);
    // A2: no IPv6 on the host -> prefix length 0 -> tie -> kept
    let c = [
        cand(0, "172.18.45.200", "172.18.45.2", 0),
        cand(1, "172.18.45.7", "172.18.45.2", 0),
    ];
    assert_eq!(glibc_order(&c, &GaiConf::default()), [0, 1]);
    // A1: the secondary .100 (source = primary .2) loses to .2 itself
    let c = [
        cand(0, "172.18.45.100", "172.18.45.2", 0),
        cand(1, "172.18.45.2", "172.18.45.2", 0),
    ];
    assert_eq!(glibc_order(&c, &GaiConf::default()), [1, 0]);
}

#[test]
fn go_keeps_the_order_of_two_unusable_destinations() {
    // Go's Less: both sources invalid -> "equal" (the stable sort keeps
    // them); found by the differential test against Go's own resolver.
    let mut a = cand(0, "10.0.0.1", "10.0.0.2", 0);
    let mut b = cand(1, "2001:db9::1", "2001:db8::5", 0);
    a.source = None;
    b.source = None;
    assert_eq!(go_cmp(&a, &b, false).0, Ordering::Equal);
    // musl ranks them by precedence (IPv6 40 > IPv4 35)
    assert_eq!(go_cmp(&a, &b, true).0, Ordering::Greater);
}

fn order(s: &str) -> Vec<std::net::IpAddr> {
    s.split(',').map(|a| a.parse().expect("address")).collect()
}

/// The stretches of a capture and which one explains an observed order:
/// the latest before the moment evaluated, else the earliest after, else
/// the one that holds it.
#[test]
fn the_moment_that_gives_an_observed_order() {
    use super::{explain_by_moment, spans};
    let (a, b) = (order("10.0.0.1,10.0.0.2"), order("10.0.0.2,10.0.0.1"));
    let changes = [
        (5, a.as_slice()),
        (9, b.as_slice()),
        (20, a.as_slice()),
        (31, b.as_slice()),
    ];
    let s = spans(changes, 40);
    let bounds: Vec<(u64, u64, Option<u64>)> = s.iter().map(|s| (s.from, s.to, s.changed_by)).collect();
    assert_eq!(
        bounds,
        [(5, 8, Some(9)), (9, 19, Some(20)), (20, 30, Some(31)), (31, 40, None)]
    );
    let why = |at: u64, o: &[std::net::IpAddr]| explain_by_moment(&s, at, o).map(|e| e.to_string()).unwrap_or_default();
    // at the end (b there): a was last seen up to packet 30
    assert!(
        why(40, &a).starts_with("moment: an earlier moment of the capture gives exactly this order (packet 30)"),
        "{}",
        why(40, &a)
    );
    // at packet 3, before any: the first stretch of b, from packet 9
    assert!(why(3, &b).starts_with("moment: a later moment of the capture gives exactly this order (packet 9)"));
    // inside a stretch of the same order (the end-of-capture rules made the difference)
    assert!(why(35, &b).starts_with("moment: the capture showed exactly this order at packet 35"));
    // never seen
    assert_eq!(explain_by_moment(&s, 40, &order("10.0.0.3,10.0.0.1")), None);
    assert!(spans(std::iter::empty(), 40).is_empty());
}

/// Flips of one packet are one; a packet that comes back to where it
/// started is no flip.
#[test]
fn flips_are_counted_per_packet() {
    use crate::ingest::rebuild::{Flip, per_packet};
    let flip = |packet: u64, before: Option<u8>, after: u8| Flip {
        packet,
        ts: None,
        before,
        after,
        causes: Vec::new(),
    };
    let flips = vec![
        flip(3, None, 1),
        flip(7, Some(1), 2),
        flip(7, Some(2), 1),
        flip(9, Some(1), 2),
        flip(9, Some(2), 3),
        flip(12, Some(3), 4),
        flip(12, Some(4), 3),
    ];
    let got: Vec<(u64, Option<u8>, u8)> = per_packet(flips, |a, b| a == b)
        .iter()
        .map(|f| (f.packet, f.before, f.after))
        .collect();
    assert_eq!(got, [(3, None, 1), (9, Some(1), 3)]);
}
