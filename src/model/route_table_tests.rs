//! The route table against an obviously correct reference: a plain list
//! that finds groups, prefixes and devices by scanning and sorts by
//! [`dump_order`] (the model's route store before the table existed).

use std::net::IpAddr;

use proptest::prelude::*;

use super::*;
use crate::model::address_rules::kernel_route;
use crate::model::route_order::dump_order;
use crate::model::tables::Placement;
use crate::netlink::values::{AddressFamily, RouteProtocol, RouteType, TableId};

fn route(family: AddressFamily, table: u32, dst: IpAddr, len: u8, tos: u8, prio: Option<u32>, oif: u32) -> RouteEntry {
    RouteEntry {
        dst: (len > 0).then(|| prefix::network(dst, len)),
        tos,
        priority: prio,
        protocol: RouteProtocol::Static,
        ..kernel_route(family, TableId::from(table), RouteType::Unicast, dst, len, oif)
    }
}

/// Routes from small domains, so that groups, nested prefixes, shared
/// tables buckets (100 and 356) and devices collide often.
fn any_route() -> impl Strategy<Value = RouteEntry> {
    let v4 = (
        prop::sample::select(vec![
            "10.0.0.0",
            "10.1.0.0",
            "10.1.2.3",
            "192.168.1.0",
            "0.0.0.0",
            "128.0.0.0",
        ]),
        prop::sample::select(vec![0u8, 1, 8, 16, 24, 32]),
        prop::sample::select(vec![0u8, 4]),
    )
        .prop_map(|(a, l, t)| {
            (
                AddressFamily::Inet,
                a.parse::<IpAddr>().unwrap_or(IpAddr::from([0u8; 4])),
                l,
                t,
            )
        });
    let v6 = (
        prop::sample::select(vec![
            "::",
            "fe80::",
            "2001:db8::",
            "2001:db8:0:1::",
            "2001:db8::5",
            "ff00::",
            "8000::",
        ]),
        prop::sample::select(vec![0u8, 1, 8, 32, 48, 64, 128]),
    )
        .prop_map(|(a, l)| {
            (
                AddressFamily::Inet6,
                a.parse::<IpAddr>().unwrap_or(IpAddr::from([0u8; 16])),
                l,
                0u8,
            )
        });
    (
        prop_oneof![v4, v6],
        prop::sample::select(vec![100u32, 254, 255, 356]),
        prop::sample::select(vec![None, Some(0u32), Some(100), Some(256)]),
        1u32..4,
        prop::option::of(prop::sample::select(vec!["10.1.2.3", "192.168.1.7"])),
        prop::option::of(prop::sample::select(vec!["10.0.0.1", "fe80::1"])),
    )
        .prop_map(|((family, dst, len, tos), table, prio, oif, src, gw)| {
            let mut r = route(family, table, dst, len, tos, prio, oif);
            r.prefsrc = src.and_then(|s| s.parse().ok());
            r.gateway = gw.and_then(|s| s.parse().ok());
            r
        })
}

#[derive(Debug, Clone)]
enum Op {
    Add(RouteEntry, Placement),
    Delete(RouteEntry),
    DeviceGone(u32),
    SourceGone(IpAddr),
    /// A complete dump: which routes it still lists (by position in dump
    /// order, repeated as needed), new ones, and whether they come in dump
    /// order (a kernel's dump) or shuffled (the slow path of the lookup).
    Dump(Vec<bool>, Vec<RouteEntry>, bool),
}

fn any_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (any_route(), prop::sample::select(vec![Placement::Append, Placement::Prepend, Placement::Replace]))
            .prop_map(|(r, p)| Op::Add(r, p)),
        2 => any_route().prop_map(Op::Delete),
        1 => (1u32..4).prop_map(Op::DeviceGone),
        1 => prop::sample::select(vec!["10.1.2.3", "192.168.1.7"])
            .prop_map(|s| Op::SourceGone(s.parse().unwrap_or(IpAddr::from([0u8; 4])))),
        1 => (
            prop::collection::vec(prop::bool::weighted(0.8), 1..8),
            prop::collection::vec(any_route(), 0..4),
            prop::bool::weighted(0.7),
        )
            .prop_map(|(keep, new, ordered)| Op::Dump(keep, new, ordered)),
    ]
}

/// The reference: every operation a scan of a list.
#[derive(Default)]
struct Reference {
    routes: Vec<RouteEntry>,
    last_seq: i64,
}

impl Reference {
    fn add(&mut self, mut new: RouteEntry, placement: Placement) {
        if let Some(old) = self.routes.iter_mut().find(|r| r.key() == new.key()) {
            new.seq = old.seq;
            *old = new;
            return;
        }
        let first = self
            .routes
            .iter()
            .filter(|r| r.same_group(&new))
            .min_by_key(|r| r.seq)
            .map(|r| (r.key(), r.seq));
        new.seq = match (placement, first) {
            (Placement::Prepend, Some((_, s))) => s - 1,
            (Placement::Replace, Some((k, s))) => {
                self.routes.retain(|r| r.key() != k);
                s
            }
            _ => {
                self.last_seq += 1;
                self.last_seq
            }
        };
        self.last_seq = self.last_seq.max(new.seq);
        self.routes.push(new);
    }

    fn sorted(&self) -> Vec<RouteEntry> {
        let mut v = self.routes.clone();
        v.sort_by(dump_order);
        v
    }
}

/// The same operation on the table, as the model performs it.
fn add(t: &mut RouteTable, mut new: RouteEntry, placement: Placement) {
    if t.contains(&new.key()) {
        t.update(new);
        return;
    }
    new.seq = match (placement, t.group_first(&new)) {
        (Placement::Prepend, Some((_, s))) => s - 1,
        (Placement::Replace, Some((k, s))) => {
            t.remove(&k);
            s
        }
        _ => t.next_seq(),
    };
    t.insert(new);
}

fn check(t: &RouteTable, reference: &Reference, probe: &RouteEntry) -> Result<(), TestCaseError> {
    let want = reference.sorted();
    let got: Vec<RouteEntry> = t.iter().cloned().collect();
    prop_assert_eq!(&got, &want);
    prop_assert_eq!(t.len(), want.len());
    // A group, a prefix, a device and a source through the indexes.
    let group: Vec<&RouteEntry> = t.group(probe).collect();
    let want_group: Vec<&RouteEntry> = want.iter().filter(|r| r.same_group(probe)).collect();
    prop_assert_eq!(group, want_group);
    let pfx: Vec<&RouteEntry> = t.prefix(probe.family, probe.table, probe.dst, probe.dst_len).collect();
    let want_pfx: Vec<&RouteEntry> = want
        .iter()
        .filter(|r| {
            r.family == probe.family && r.table == probe.table && r.dst == probe.dst && r.dst_len == probe.dst_len
        })
        .collect();
    // The same through the probe's device's routes, in the same order.
    if let Some(oif) = probe.oif {
        let via: Vec<&RouteEntry> = t
            .prefix_via(probe.family, probe.table, probe.dst, probe.dst_len, oif)
            .collect();
        let want_via: Vec<&RouteEntry> = want_pfx.iter().copied().filter(|r| r.oif == Some(oif)).collect();
        prop_assert_eq!(via, want_via);
    }
    prop_assert_eq!(pfx, want_pfx);
    // The same prefix in every table (tables in no particular order).
    let mut any_table: Vec<&RouteEntry> = t.to_prefix(probe.family, probe.dst, probe.dst_len).collect();
    any_table.sort_by(|a, b| dump_order(a, b));
    let want_any: Vec<&RouteEntry> = want
        .iter()
        .filter(|r| r.family == probe.family && r.dst == probe.dst && r.dst_len == probe.dst_len)
        .collect();
    prop_assert_eq!(any_table, want_any);
    // Longest match for an address inside the probe's prefix.
    if let Some(ip) = probe.dst {
        let got = t.longest_match(probe.family, probe.table, ip, |_| true);
        let want_lpm = want
            .iter()
            .filter(|r| {
                r.family == probe.family
                    && r.table == probe.table
                    && r.dst.is_none_or(|d| prefix::contains(d, r.dst_len, ip))
            })
            .max_by(|a, b| {
                a.dst_len
                    .cmp(&b.dst_len)
                    .then(b.priority.unwrap_or(0).cmp(&a.priority.unwrap_or(0)))
                    .then(b.seq.cmp(&a.seq))
            });
        prop_assert_eq!(got, want_lpm);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn dump_order_matches_a_scanning_reference(ops in prop::collection::vec(any_op(), 1..60), probe in any_route()) {
        let mut t = RouteTable::default();
        let mut reference = Reference::default();
        for op in ops {
            match op {
                Op::Add(r, p) => {
                    reference.add(r.clone(), p);
                    add(&mut t, r, p);
                }
                Op::Delete(r) => {
                    reference.routes.retain(|x| x.key() != r.key());
                    t.remove(&r.key());
                }
                Op::DeviceGone(i) => {
                    let mut want: Vec<RouteEntry> =
                        reference.routes.iter().filter(|r| r.oif == Some(i)).cloned().collect();
                    want.sort_by(dump_order);
                    reference.routes.retain(|r| r.oif != Some(i));
                    let got = t.remove_where(Through::Device(i), |_| true);
                    prop_assert_eq!(got, want);
                }
                Op::SourceGone(ip) => {
                    reference.routes.retain(|r| r.prefsrc != Some(ip));
                    t.remove_where(Through::Source(ip), |_| true);
                    prop_assert!(!t.has_source(ip));
                }
                Op::Dump(keep, new, ordered) => {
                    // What the dump lists: the kept routes and the new ones
                    // (one route per key), in dump order or shuffled.
                    let mut listed: Vec<RouteEntry> = reference
                        .sorted()
                        .into_iter()
                        .enumerate()
                        .filter(|(i, _)| keep.get(i % keep.len()).copied().unwrap_or(true))
                        .map(|(_, r)| r)
                        .collect();
                    for r in new {
                        if !listed.iter().any(|x| x.key() == r.key()) {
                            listed.push(r);
                        }
                    }
                    listed.sort_by(dump_order);
                    if !ordered {
                        listed.reverse();
                        let half = listed.len() / 2;
                        listed.rotate_left(half);
                    }
                    let mark = t.new_mark();
                    reference.routes.clear();
                    for mut r in listed {
                        r.seq = t.next_seq();
                        reference.last_seq = r.seq;
                        reference.routes.push(r.clone());
                        t.upsert_marked(r, mark);
                    }
                    let mut gone: Vec<RouteKey> = t.sweep(mark, |_| true).iter().map(RouteEntry::key).collect();
                    gone.sort();
                    gone.dedup();
                    prop_assert!(gone.iter().all(|k| !reference.routes.iter().any(|r| r.key() == *k)));
                    // A route the dump lists where the table has it keeps
                    // its seq: the order is the reference's (fresh seqs in
                    // dump order), then the reference takes the seqs kept.
                    let got: Vec<RouteKey> = t.iter().map(RouteEntry::key).collect();
                    let want: Vec<RouteKey> = reference.sorted().iter().map(RouteEntry::key).collect();
                    prop_assert_eq!(got, want);
                    for r in &mut reference.routes {
                        if let Some(x) = t.iter().find(|x| x.key() == r.key()) {
                            r.seq = x.seq;
                        }
                    }
                }
            }
            check(&t, &reference, &probe)?;
        }
        // Taking the table apart keeps the order.
        let all = t.clone().into_routes();
        prop_assert_eq!(all, reference.sorted());
    }
}

#[test]
fn zero_prefixes_come_in_dump_order() {
    let mut t = RouteTable::default();
    let any4: IpAddr = "0.0.0.0".parse().unwrap_or(IpAddr::from([0u8; 4]));
    for (i, len) in [0u8, 1, 8].into_iter().enumerate() {
        let mut r = route(AddressFamily::Inet, 254, any4, len, 0, None, 1);
        r.seq = i as i64;
        t.insert(r);
    }
    let lens: Vec<u8> = t
        .zero_prefixes(AddressFamily::Inet, TableId::Main)
        .map(|r| r.dst_len)
        .collect();
    let all: Vec<u8> = t.iter().map(|r| r.dst_len).collect();
    assert_eq!(lens, all);
    assert_eq!(lens, vec![8, 1, 0]);
}
