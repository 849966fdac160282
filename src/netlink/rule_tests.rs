//! Unit tests of `rule`.

use super::super::rtnl::{Body, Problem, decode, rule};
use super::super::wire::ByteOrder;
use super::super::wire::Messages;
use super::*;

#[test]
fn a_recorded_rule_dump_reads_as_ip_rule_shows_it() {
    let records = crate::testutil::netlink_payloads("rules/selectors.pcap");
    let mut seen = Vec::new();
    for payload in &records {
        for m in Messages::new(payload, ByteOrder::native()).flatten() {
            let d = decode(&m);
            assert_eq!(d.problem, None, "{d:?}");
            if let Body::Rule(r) = d.body {
                seen.push(r);
            }
        }
    }
    // The kernel's own local rule: priority 0, which it leaves out.
    let local = seen
        .iter()
        .find(|r| r.family == AddressFamily::Inet && r.table == TableId::Local)
        .expect("local");
    assert_eq!(local.priority, None);
    assert_eq!((local.table, local.action), (TableId::Local, RuleAction::ToTable));
    assert_eq!(local.suppress_prefixlen(), None);
    // `to 8.8.8.8 lookup 100`: FRA_DST with dst_len 32, table 100.
    let r = seen
        .iter()
        .find(|r| r.dst == Some("8.8.8.8".parse().expect("ip")))
        .expect("to 8.8.8.8");
    assert_eq!(
        (r.dst_len, r.table, r.action),
        (32, TableId::from(100), RuleAction::ToTable)
    );
    // `iif lo`, `fwmark 1`, `goto 700`, `unreachable`.
    assert!(seen.iter().any(|r| r.iifname == Some(&b"lo"[..])));
    assert!(seen.iter().any(|r| r.fwmark == Some(1) && r.fwmask == Some(u32::MAX)));
    assert!(seen.iter().any(|r| r.action == RuleAction::Goto && r.goto == Some(700)));
    assert!(seen.iter().any(|r| r.action == RuleAction::Unreachable));
    assert!(
        seen.iter()
            .any(|r| r.family == AddressFamily::Inet6 && r.src_len == 128)
    );
}

#[test]
fn a_short_header_is_a_problem_not_a_panic() {
    let mut problem = None;
    let e = rule(&[2, 0, 0], ByteOrder::Little, &mut problem).expect_err("short");
    assert_eq!((e.needed, e.got), (FIB_RULE_HDR_LEN, 3));
    // A wrong-sized FRA_PRIORITY is ignored and said.
    let mut body = vec![2, 0, 0, 0, 254, 0, 0, 1, 0, 0, 0, 0];
    body.extend_from_slice(&[6, 0, 6, 0, 1, 0, 0, 0]);
    let r = rule(&body, ByteOrder::Little, &mut problem).expect("rule");
    assert_eq!((r.priority, r.table), (None, TableId::Main));
    assert!(matches!(problem, Some(Problem::AttrSize { kind: 6, len: 2 })));
}
