//! The route table: every route the model knows, kept in the order a route
//! dump lists them, with the lookups the kernel's rules need.
//!
//! Contract: a route is identified by its [`RouteKey`]; at most one route
//! per key. Routes live in a slab (a fixed number of bytes each) and are
//! indexed four ways: by key (a hash table of slots), in dump order (see
//! [`route_order`](super::route_order): family, table, the trie or radix
//! walk, metric, then `seq` inside a group), routes by output device, and
//! routes by preferred source. Insert, delete, the lookup of a key, of a
//! group (same table, prefix, tos, metric) and of a prefix cost O(log n)
//! plus the size of the group (a key's lookup is O(1): a group can hold a
//! route per device, `fe80::/64` on every veth); walks by device or source cost the routes
//! they return. Nothing here scans the whole table except [`retain`]
//! (dumps replace what they cover) and the iteration itself.
//!
//! [`retain`]: RouteTable::retain

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::net::IpAddr;

use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};

use super::entries::{RouteEntry, RouteKey};
use super::prefix;
use crate::netlink::names::AF_INET6;

/// A route's place in dump order (see [`route_order::dump_order`], which
/// this restates as a key), with its slot as the last tie-break.
///
/// [`route_order::dump_order`]: super::route_order::dump_order
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OrderKey {
    /// The destination masked to its prefix, as [`prefix::bits`].
    bits: (u64, u64),
    table: u32,
    priority: u32,
    seq: i64,
    slot: u32,
    family: u8,
    dst_len: u8,
    tos: u8,
}

impl OrderKey {
    fn of(r: &RouteEntry, slot: u32) -> Self {
        let b = prefix::bits(r.dst) & prefix::mask(r.dst_len);
        OrderKey {
            bits: ((b >> 64) as u64, b as u64),
            table: r.table,
            priority: r.priority.unwrap_or(0),
            seq: r.seq,
            slot,
            family: r.family,
            dst_len: r.dst_len,
            tos: r.tos,
        }
    }

    fn bits(&self) -> u128 {
        (u128::from(self.bits.0) << 64) | u128::from(self.bits.1)
    }

    /// The first and last key a prefix can have (any tos, metric, seq);
    /// with `group`, those of one group (its tos and metric).
    fn bounds(family: u8, table: u32, dst: Option<IpAddr>, dst_len: u8, group: Option<(u8, u32)>) -> (Self, Self) {
        let b = prefix::bits(dst) & prefix::mask(dst_len);
        let base = OrderKey {
            bits: ((b >> 64) as u64, b as u64),
            table,
            priority: 0,
            seq: i64::MIN,
            slot: 0,
            family,
            dst_len,
            tos: 0,
        };
        let v6 = family == AF_INET6;
        let (lo_tos, hi_tos, lo_prio, hi_prio) = match group {
            // IPv4 orders tos inside the prefix (higher first); IPv6 only
            // after seq, so a group's range there holds every tos.
            Some((_, prio)) if v6 => (0, u8::MAX, prio, prio),
            Some((tos, prio)) => (tos, tos, prio, prio),
            None if v6 => (0, u8::MAX, 0, u32::MAX),
            None => (u8::MAX, 0, 0, u32::MAX),
        };
        let lo = OrderKey {
            tos: lo_tos,
            priority: lo_prio,
            ..base
        };
        let hi = OrderKey {
            tos: hi_tos,
            priority: hi_prio,
            seq: i64::MAX,
            slot: u32::MAX,
            ..base
        };
        (lo, hi)
    }
}

impl Ord for OrderKey {
    fn cmp(&self, o: &Self) -> Ordering {
        self.family
            .cmp(&o.family)
            .then_with(|| (self.table & 255).cmp(&(o.table & 255)))
            .then_with(|| self.table.cmp(&o.table))
            .then_with(|| {
                if self.family == AF_INET6 {
                    super::route_order::v6_walk(self.bits(), self.dst_len, o.bits(), o.dst_len)
                } else {
                    self.bits
                        .cmp(&o.bits)
                        .then_with(|| o.dst_len.cmp(&self.dst_len))
                        .then_with(|| o.tos.cmp(&self.tos))
                }
            })
            .then_with(|| self.priority.cmp(&o.priority))
            .then_with(|| self.seq.cmp(&o.seq))
            .then_with(|| self.tos.cmp(&o.tos))
            .then_with(|| self.slot.cmp(&o.slot))
    }
}

impl PartialOrd for OrderKey {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Which routes a removal looks at.
#[derive(Debug, Clone, Copy)]
pub enum Through {
    /// Routes whose output device is this ifindex.
    Device(u32),
    /// Routes with this preferred source.
    Source(IpAddr),
    /// Routes to exactly this prefix (family, destination, length) in any table.
    Prefix(u8, Option<IpAddr>, u8),
}

fn hash_key(key: &RouteKey) -> u64 {
    FxBuildHasher.hash_one(key)
}

#[derive(Debug, Default, Clone)]
pub struct RouteTable {
    slots: Vec<Option<RouteEntry>>,
    free: Vec<u32>,
    /// Slots by the hash of their route's key.
    by_key: HashTable<u32>,
    order: BTreeSet<OrderKey>,
    by_device: FxHashMap<u32, FxHashSet<u32>>,
    by_source: FxHashMap<IpAddr, FxHashSet<u32>>,
    /// How many routes each (family, table) holds.
    tables: FxHashMap<(u8, u32), usize>,
    /// The last `seq` handed out: a route appended to its group gets the next.
    last_seq: i64,
}

impl RouteTable {
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    fn entry(&self, slot: u32) -> Option<&RouteEntry> {
        self.slots.get(slot as usize).and_then(Option::as_ref)
    }

    /// Every route in dump order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &RouteEntry> + '_ {
        self.order.iter().filter_map(|k| self.entry(k.slot))
    }

    fn range(&self, lo: OrderKey, hi: OrderKey) -> impl Iterator<Item = (&OrderKey, &RouteEntry)> + '_ {
        self.order
            .range(lo..=hi)
            .filter_map(|k| self.entry(k.slot).map(|r| (k, r)))
    }

    /// The slot of the route with this key.
    fn find(&self, key: &RouteKey) -> Option<u32> {
        let slots = &self.slots;
        self.by_key
            .find(hash_key(key), |&s| {
                slots
                    .get(s as usize)
                    .and_then(Option::as_ref)
                    .is_some_and(|r| r.key() == *key)
            })
            .copied()
    }

    pub fn get(&self, key: &RouteKey) -> Option<&RouteEntry> {
        self.find(key).and_then(|s| self.entry(s))
    }

    pub fn contains(&self, key: &RouteKey) -> bool {
        self.find(key).is_some()
    }

    /// The routes of `r`'s group (same family, table, prefix, tos and
    /// metric), in list order.
    pub fn group<'a>(&'a self, r: &RouteEntry) -> impl Iterator<Item = &'a RouteEntry> + 'a {
        let (lo, hi) = OrderKey::bounds(
            r.family,
            r.table,
            r.dst,
            r.dst_len,
            Some((r.tos, r.priority.unwrap_or(0))),
        );
        let tos = r.tos;
        self.range(lo, hi).map(|(_, x)| x).filter(move |x| x.tos == tos)
    }

    /// Routes to exactly `dst/dst_len` in a table (any tos and metric), in dump order.
    pub fn prefix(
        &self,
        family: u8,
        table: u32,
        dst: Option<IpAddr>,
        dst_len: u8,
    ) -> impl Iterator<Item = &RouteEntry> + '_ {
        let (lo, hi) = OrderKey::bounds(family, table, dst, dst_len, None);
        self.range(lo, hi).map(|(_, r)| r)
    }

    /// Routes of a table whose destination, masked, is all zeros (the
    /// default route and `0.0.0.0/N`, `::/N`), in dump order.
    pub fn zero_prefixes(&self, family: u8, table: u32) -> impl Iterator<Item = &RouteEntry> + '_ {
        let width = if family == AF_INET6 { 128u8 } else { 32 };
        (0..=width)
            .rev()
            .flat_map(move |len| self.prefix(family, table, None, len))
    }

    /// The longest-prefix match for `ip` in a table among the routes `usable`
    /// accepts; among routes to the same prefix the lowest metric, then the
    /// first in list order.
    pub fn longest_match(
        &self,
        family: u8,
        table: u32,
        ip: IpAddr,
        usable: impl Fn(&RouteEntry) -> bool,
    ) -> Option<&RouteEntry> {
        let width = prefix::width(ip);
        for len in (0..=width).rev() {
            let net = (len > 0).then(|| prefix::network(ip, len));
            let best = self
                .prefix(family, table, net, len)
                .filter(|r| usable(r))
                .min_by_key(|r| (r.priority.unwrap_or(0), r.seq));
            if best.is_some() {
                return best;
            }
        }
        None
    }

    /// The first route of `r`'s group in list order, as its key and seq.
    pub fn group_first(&self, r: &RouteEntry) -> Option<(RouteKey, i64)> {
        self.group(r).next().map(|x| (x.key(), x.seq))
    }

    /// A fresh `seq` after every one handed out (the end of any group).
    pub fn next_seq(&mut self) -> i64 {
        self.last_seq += 1;
        self.last_seq
    }

    /// Inserts a route whose key is not in the table yet; a route with the
    /// same key is replaced (and returned). `r.seq` places it in its group.
    pub fn insert(&mut self, r: RouteEntry) -> Option<RouteEntry> {
        let old = self.remove(&r.key());
        self.last_seq = self.last_seq.max(r.seq);
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                self.slots.push(None);
                (self.slots.len() - 1) as u32
            }
        };
        self.order.insert(OrderKey::of(&r, slot));
        let slots = &self.slots;
        self.by_key.insert_unique(hash_key(&r.key()), slot, |&s| {
            slots
                .get(s as usize)
                .and_then(Option::as_ref)
                .map_or(0, |x| hash_key(&x.key()))
        });
        if let Some(oif) = r.oif {
            self.by_device.entry(oif).or_default().insert(slot);
        }
        if let Some(src) = r.prefsrc {
            self.by_source.entry(src).or_default().insert(slot);
        }
        *self.tables.entry((r.family, r.table)).or_default() += 1;
        if let Some(s) = self.slots.get_mut(slot as usize) {
            *s = Some(r);
        }
        old
    }

    /// Changes the route with `new`'s key in place: it keeps its position
    /// (its `seq`); the rest is `new`'s.
    pub fn update(&mut self, mut new: RouteEntry) -> bool {
        let Some(slot) = self.find(&new.key()) else {
            return false;
        };
        let Some(Some(cur)) = self.slots.get_mut(slot as usize) else {
            return false;
        };
        new.seq = cur.seq;
        let old_src = cur.prefsrc;
        *cur = new;
        let new_src = cur.prefsrc;
        if old_src != new_src {
            self.unindex_source(old_src, slot);
            if let Some(src) = new_src {
                self.by_source.entry(src).or_default().insert(slot);
            }
        }
        true
    }

    fn unindex_source(&mut self, src: Option<IpAddr>, slot: u32) {
        if let Some(src) = src
            && let Some(set) = self.by_source.get_mut(&src)
        {
            set.remove(&slot);
            if set.is_empty() {
                self.by_source.remove(&src);
            }
        }
    }

    fn take(&mut self, slot: u32) -> Option<RouteEntry> {
        let r = self.slots.get_mut(slot as usize)?.take()?;
        self.order.remove(&OrderKey::of(&r, slot));
        if let Ok(e) = self.by_key.find_entry(hash_key(&r.key()), |&s| s == slot) {
            e.remove();
        }
        if let Some(oif) = r.oif
            && let Some(set) = self.by_device.get_mut(&oif)
        {
            set.remove(&slot);
            if set.is_empty() {
                self.by_device.remove(&oif);
            }
        }
        self.unindex_source(r.prefsrc, slot);
        if let Some(n) = self.tables.get_mut(&(r.family, r.table)) {
            *n -= 1;
            if *n == 0 {
                self.tables.remove(&(r.family, r.table));
            }
        }
        self.free.push(slot);
        Some(r)
    }

    pub fn remove(&mut self, key: &RouteKey) -> Option<RouteEntry> {
        let slot = self.find(key)?;
        self.take(slot)
    }

    /// Removes the routes through a device, or with a source, that `gone`
    /// selects; returns them in dump order.
    pub fn remove_where(&mut self, through: Through, gone: impl Fn(&RouteEntry) -> bool) -> Vec<RouteEntry> {
        let candidates: Vec<u32> = match through {
            Through::Device(i) => self.by_device.get(&i).into_iter().flatten().copied().collect(),
            Through::Source(ip) => self.by_source.get(&ip).into_iter().flatten().copied().collect(),
            Through::Prefix(family, dst, len) => self
                .tables
                .keys()
                .filter(|(f, _)| *f == family)
                .flat_map(|&(_, table)| {
                    let (lo, hi) = OrderKey::bounds(family, table, dst, len, None);
                    self.order.range(lo..=hi).map(|k| k.slot)
                })
                .collect(),
        };
        let mut slots: Vec<(OrderKey, u32)> = candidates
            .into_iter()
            .filter_map(|s| self.entry(s).filter(|r| gone(r)).map(|r| (OrderKey::of(r, s), s)))
            .collect();
        slots.sort_unstable_by_key(|s| s.0);
        slots.into_iter().filter_map(|(_, s)| self.take(s)).collect()
    }

    /// The (family, table) pairs that hold routes.
    pub fn tables(&self) -> impl Iterator<Item = (u8, u32)> + '_ {
        self.tables.keys().copied()
    }

    /// Whether any route is of this family.
    pub fn has_family(&self, family: u8) -> bool {
        self.tables.keys().any(|(f, _)| *f == family)
    }

    /// Whether any route has this preferred source.
    pub fn has_source(&self, ip: IpAddr) -> bool {
        self.by_source.contains_key(&ip)
    }

    /// Whether any route through `oif` satisfies `f`.
    pub fn any_through(&self, oif: u32, f: impl Fn(&RouteEntry) -> bool) -> bool {
        self.by_device
            .get(&oif)
            .is_some_and(|set| set.iter().filter_map(|&s| self.entry(s)).any(f))
    }

    /// Moves every route through device `from` to device `to`.
    pub fn move_device(&mut self, from: u32, to: u32) {
        let slots: Vec<u32> = self
            .by_device
            .get(&from)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default();
        for s in slots {
            if let Some(mut r) = self.take(s) {
                r.oif = Some(to);
                self.insert(r);
            }
        }
    }

    /// Every route, in dump order, taking the table apart.
    pub fn into_routes(mut self) -> Vec<RouteEntry> {
        let order = std::mem::take(&mut self.order);
        self.by_key.clear();
        order
            .into_iter()
            .filter_map(|k| self.slots.get_mut(k.slot as usize).and_then(Option::take))
            .collect()
    }

    /// Keeps the routes `keep` accepts (a scan of the whole table).
    pub fn retain(&mut self, keep: impl Fn(&RouteEntry) -> bool) {
        let gone: Vec<u32> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().filter(|r| !keep(r)).map(|_| i as u32))
            .collect();
        for s in gone {
            self.take(s);
        }
    }
}

#[cfg(test)]
#[path = "route_table_tests.rs"]
mod tests;
