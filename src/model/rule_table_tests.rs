//! Unit tests of `rule_table`: the kernel's order and default priorities.

use super::*;

fn rule(priority: u32, table: u32) -> RuleEntry {
    RuleEntry {
        priority,
        table: TableId::from(table),
        protocol: None,
        origin: RuleOrigin::Notification(1),
        ..RuleEntry::defaults(AddressFamily::Inet).remove(0)
    }
}

#[test]
fn the_kernels_own_rules() {
    let t = RuleTable::default();
    let prio = |f| t.rules(f).iter().map(|r| (r.priority, r.table)).collect::<Vec<_>>();
    assert_eq!(
        prio(AddressFamily::Inet),
        [(0, TableId::Local), (32766, TableId::Main), (32767, TableId::Default)]
    );
    assert_eq!(
        prio(AddressFamily::Inet6),
        [(0, TableId::Local), (32766, TableId::Main)]
    );
    assert_eq!(t.known(AddressFamily::Inet), RulesKnown::Assumed);
}

#[test]
fn a_rule_goes_after_those_of_its_priority() {
    let mut t = RuleTable::default();
    t.insert(rule(100, 10));
    t.insert(rule(100, 20));
    t.insert(rule(50, 30));
    let tables: Vec<u32> = t.rules(AddressFamily::Inet).iter().map(|r| r.table.into()).collect();
    assert_eq!(tables, [255, 30, 10, 20, 254, 253]);
    // fib_default_rule_pref: one less than the second rule's.
    assert_eq!(t.default_priority(AddressFamily::Inet), 49);
    assert!(t.remove(&rule(100, 10)));
    assert!(!t.remove(&rule(100, 10)));
}

#[test]
fn without_a_second_rule_or_with_priority_0_the_default_is_0() {
    let mut t = RuleTable::default();
    assert_eq!(t.default_priority(AddressFamily::Inet), 32765);
    t.insert(rule(0, 10));
    assert_eq!(t.default_priority(AddressFamily::Inet), 0);
}
