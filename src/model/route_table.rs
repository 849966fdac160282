//! The route table: every route the model knows, kept in the order a route
//! dump lists them, with the lookups the kernel's rules need.
//!
//! Contract: a route is identified by what the kernel matches to replace
//! or delete it (family, table, prefix, tos, metric, type, next hop, device
//! and, for IPv4, preferred source); at most one route per such key.
//! Routes live in a slab (a fixed number of bytes each) and are indexed
//! four ways: by key (a hash table of slots), in dump order (see
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

use std::net::IpAddr;

use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};

use super::entries::{RouteEntry, RouteKey};
use super::order_index::OrderIndex;
use super::prefix;
use crate::netlink::values::{AddressFamily, TableId};

/// A route's place in dump order, packed into five words that compare as
/// its fields do in this order (see [`route_order::dump_order`], which says
/// the same with a comparison function), its slot as the last tie-break:
///
/// | word | bits, most significant first |
/// |---|---|
/// | 0 | family 8, `table & 255` 8 (tables are walked by hash bucket), table 32, 0 16 |
/// | 1, 2 | the walk position of the prefix (see [`walk`]) |
/// | 3 | `255 - dst_len` 8 (longer first), IPv4 `255 - tos` 8 (higher first; IPv6 0), metric 32, `seq` high 16 |
/// | 4 | `seq` low 24, tos 8 (IPv6's last tie-break), slot 32 |
///
/// `seq` is kept in 40 bits (biased by 2^39, clamped): it counts routes
/// added and dump positions, far below 2^39. Five words rather than the
/// fields keep the index at 40 bytes per route and make a comparison a
/// few word compares (every route of a table shares the first word).
///
/// [`route_order::dump_order`]: super::route_order::dump_order
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct OrderKey([u64; 5]);

/// The walk position of a prefix as two words (high, low): the IPv6
/// radix-tree walk (a more specific prefix before the one that covers it,
/// the 0 branch before the 1 branch) is lexicographic on the prefix's bits
/// with every bit after the prefix set; IPv4's trie walk is on the masked
/// bits. The longer prefix first breaks ties in both.
fn walk(family: u8, dst: Option<IpAddr>, dst_len: u8) -> (u64, u64) {
    let m = prefix::mask(dst_len);
    let mut b = prefix::bits(dst) & m;
    if AddressFamily::from(family) == AddressFamily::Inet6 {
        b |= !m;
    }
    ((b >> 64) as u64, b as u64)
}

/// `seq` in 40 bits, order kept: biased by 2^39 and clamped.
fn seq40(seq: i64) -> u64 {
    const HALF: i64 = 1 << 39;
    (seq.clamp(-HALF, HALF - 1) + HALF) as u64
}

/// The place of a prefix's routes in a table before the tie-breaks.
struct Head {
    family: u8,
    table: u32,
    walk: (u64, u64),
    dst_len: u8,
}

impl Head {
    fn new(family: u8, table: u32, dst: Option<IpAddr>, dst_len: u8) -> Self {
        Head {
            family,
            table,
            walk: walk(family, dst, dst_len),
            dst_len,
        }
    }

    /// The key with these tie-breaks (`lower_tos`, metric, seq, tos, slot).
    fn key(&self, lower_tos: u8, priority: u32, seq: u64, tos: u8, slot: u32) -> OrderKey {
        let w0 = (u64::from(self.family) << 56) | ((u64::from(self.table) & 255) << 48) | (u64::from(self.table) << 16);
        let w3 = (u64::from(255 - self.dst_len) << 56)
            | (u64::from(lower_tos) << 48)
            | (u64::from(priority) << 16)
            | (seq >> 24);
        let w4 = ((seq & 0xff_ffff) << 40) | (u64::from(tos) << 32) | u64::from(slot);
        OrderKey([w0, self.walk.0, self.walk.1, w3, w4])
    }
}

impl OrderKey {
    fn of(r: &RouteEntry, slot: u32) -> Self {
        let lower_tos = if r.family == AddressFamily::Inet6 {
            0
        } else {
            255 - r.tos
        };
        Head::new(r.family.into(), r.table.into(), r.dst, r.dst_len).key(
            lower_tos,
            r.priority.unwrap_or(0),
            seq40(r.seq),
            r.tos,
            slot,
        )
    }

    /// The slot: the last tie-break.
    fn slot(&self) -> u32 {
        self.0[4] as u32
    }

    /// The first and last key a prefix can have (any tos, metric, seq);
    /// with `group`, those of one group (its tos and metric).
    fn bounds(family: u8, table: u32, dst: Option<IpAddr>, dst_len: u8, group: Option<(u8, u32)>) -> (Self, Self) {
        let v6 = AddressFamily::from(family) == AddressFamily::Inet6;
        let head = Head::new(family, table, dst, dst_len);
        // (lower_tos, tos, priority) at each end
        let ((lo_lt, lo_tos, lo_prio), (hi_lt, hi_tos, hi_prio)) = match group {
            // IPv6 compares tos only after seq: a group's range holds every tos.
            Some((_, prio)) if v6 => ((0, 0, prio), (0, u8::MAX, prio)),
            Some((tos, prio)) => ((255 - tos, tos, prio), (255 - tos, tos, prio)),
            None if v6 => ((0, 0, 0), (0, u8::MAX, u32::MAX)),
            None => ((0, 0, 0), (u8::MAX, u8::MAX, u32::MAX)),
        };
        let lo = head.key(lo_lt, lo_prio, 0, lo_tos, 0);
        let hi = head.key(hi_lt, hi_prio, (1 << 40) - 1, hi_tos, u32::MAX);
        (lo, hi)
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
    Prefix(AddressFamily, Option<IpAddr>, u8),
}

/// A route key's hash, kept in 32 bits next to its slot so that growing
/// the key index never reads the routes again.
fn hash_key(key: &RouteKey) -> u32 {
    let h = FxBuildHasher.hash_one(key);
    (h ^ (h >> 32)) as u32
}

/// The 64-bit hash the index probes with, spread from the 32 kept.
fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// No slot.
const NIL: u32 = u32::MAX;

/// The routes of one (family, table): how many, in all and per prefix
/// length (so that a lookup tries only the lengths the table has).
#[derive(Debug, Clone, Default)]
struct TableCount {
    routes: usize,
    per_len: Vec<u32>,
}

impl TableCount {
    fn add(&mut self, len: u8, n: i32) {
        self.routes = self.routes.saturating_add_signed(n as isize);
        if self.per_len.len() <= usize::from(len) {
            self.per_len.resize(usize::from(len) + 1, 0);
        }
        if let Some(c) = self.per_len.get_mut(usize::from(len)) {
            *c = c.saturating_add_signed(n);
        }
    }

    fn has_len(&self, len: u8) -> bool {
        self.per_len.get(usize::from(len)).is_some_and(|c| *c > 0)
    }
}

/// Slots chained by a shared value (an output device, a source): a doubly
/// linked list through the slots, so adding and removing a route costs
/// O(1) and no set per value grows with the table.
#[derive(Debug, Clone)]
struct Chains<K> {
    heads: FxHashMap<K, u32>,
    /// `[previous, next]` per slot.
    links: Vec<[u32; 2]>,
}

impl<K> Default for Chains<K> {
    fn default() -> Self {
        Chains {
            heads: FxHashMap::default(),
            links: Vec::new(),
        }
    }
}

impl<K: std::hash::Hash + Eq + Copy> Chains<K> {
    fn set(&mut self, slot: u32, side: usize, to: u32) {
        if let Some(l) = self.links.get_mut(slot as usize).and_then(|l| l.get_mut(side)) {
            *l = to;
        }
    }

    fn get(&self, slot: u32) -> [u32; 2] {
        self.links.get(slot as usize).copied().unwrap_or([NIL, NIL])
    }

    fn push(&mut self, key: K, slot: u32) {
        if self.links.len() <= slot as usize {
            self.links.resize(slot as usize + 1, [NIL, NIL]);
        }
        // One probe of the heads: the slot becomes the head.
        let head = std::mem::replace(self.heads.entry(key).or_insert(NIL), slot);
        if let Some(l) = self.links.get_mut(slot as usize) {
            *l = [NIL, head];
        }
        if head != NIL {
            self.set(head, 0, slot);
        }
    }

    fn unlink(&mut self, key: K, slot: u32) {
        let [prev, next] = self.get(slot);
        if prev != NIL {
            self.set(prev, 1, next);
        } else if next != NIL {
            self.heads.insert(key, next);
        } else {
            self.heads.remove(&key);
        }
        if next != NIL {
            self.set(next, 0, prev);
        }
        if let Some(l) = self.links.get_mut(slot as usize) {
            *l = [NIL, NIL];
        }
    }

    fn contains(&self, key: &K) -> bool {
        self.heads.contains_key(key)
    }

    fn iter(&self, key: &K) -> impl Iterator<Item = u32> + '_ {
        let first = self.heads.get(key).copied().unwrap_or(NIL);
        std::iter::successors((first != NIL).then_some(first), |&s| {
            let next = self.get(s)[1];
            (next != NIL).then_some(next)
        })
    }

    fn clear(&mut self) {
        self.heads.clear();
        self.links.clear();
    }
}

/// Every route the model knows, of every family and table, in dump order
/// with the lookups the kernel's rules need (see the module doc).
#[derive(Debug, Default, Clone)]
pub struct RouteTable {
    slots: Vec<Option<RouteEntry>>,
    free: Vec<u32>,
    /// Slots by the hash of their route's key (slot, hash).
    by_key: HashTable<(u32, u32)>,
    /// The hash of each slot's route's key (a removal finds its entry in
    /// `by_key` without hashing the key again).
    hashes: Vec<u32>,
    order: OrderIndex<OrderKey>,
    by_device: Chains<u32>,
    by_source: Chains<IpAddr>,
    /// The mark of the dump that last listed each slot's route (0: none).
    marks: Vec<u32>,
    last_mark: u32,
    /// How many routes each (family, table) holds, in all and per prefix
    /// length.
    tables: FxHashMap<(u8, u32), TableCount>,
    /// The last `seq` handed out: a route appended to its group gets the next.
    last_seq: i64,
    /// Where the last route a dump upserted is, and the dump's mark.
    /// (with the index's hint of where it is)
    cursor: Option<(OrderKey, u32, usize)>,
    /// The dump (by mark) that has given a route a new place: from then on
    /// none keeps its old one, or a route kept in place could stay before
    /// one of its group the dump listed earlier.
    moved_in: Option<u32>,
    /// How many multipath routes it holds (the rules for a device's next
    /// hops look at them only when there are some).
    multipath: usize,
}

impl RouteTable {
    /// How many routes it holds.
    pub(super) fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether it holds no route.
    pub(super) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    fn entry(&self, slot: u32) -> Option<&RouteEntry> {
        self.slots.get(slot as usize).and_then(Option::as_ref)
    }

    /// Every route in dump order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &RouteEntry> + '_ {
        self.order.iter().filter_map(|k| self.entry(k.slot()))
    }

    fn range(&self, lo: OrderKey, hi: OrderKey) -> impl Iterator<Item = (&OrderKey, &RouteEntry)> + '_ {
        self.order
            .range(&lo, &hi)
            .filter_map(|k| self.entry(k.slot()).map(|r| (k, r)))
    }

    /// The slot of the route with this key.
    fn find(&self, key: &RouteKey) -> Option<u32> {
        self.find_hashed(key, hash_key(key))
    }

    /// [`find`](Self::find) with the key's hash.
    fn find_hashed(&self, key: &RouteKey, h: u32) -> Option<u32> {
        let slots = &self.slots;
        self.by_key
            .find(spread(h), |&(s, hs)| {
                hs == h
                    && slots
                        .get(s as usize)
                        .and_then(Option::as_ref)
                        .is_some_and(|r| r.key() == *key)
            })
            .map(|&(s, _)| s)
    }

    /// The route with this key.
    pub(super) fn get(&self, key: &RouteKey) -> Option<&RouteEntry> {
        self.find(key).and_then(|s| self.entry(s))
    }

    /// Whether the table holds a route with this key.
    pub(super) fn contains(&self, key: &RouteKey) -> bool {
        self.find(key).is_some()
    }

    /// The routes of `r`'s group (same family, table, prefix, tos and
    /// metric), in list order.
    pub fn group<'a>(&'a self, r: &RouteEntry) -> impl Iterator<Item = &'a RouteEntry> + 'a {
        let (lo, hi) = OrderKey::bounds(
            r.family.into(),
            r.table.into(),
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
        family: AddressFamily,
        table: TableId,
        dst: Option<IpAddr>,
        dst_len: u8,
    ) -> impl Iterator<Item = &RouteEntry> + '_ {
        let (lo, hi) = OrderKey::bounds(family.into(), table.into(), dst, dst_len, None);
        self.range(lo, hi).map(|(_, r)| r)
    }

    /// [`prefix`](Self::prefix) of the routes through one device, in the
    /// same order: the routes of the device are looked at, not those of
    /// the prefix (`ff00::/8` in table local has a route per device).
    pub fn prefix_via(
        &self,
        family: AddressFamily,
        table: TableId,
        dst: Option<IpAddr>,
        dst_len: u8,
        oif: u32,
    ) -> impl Iterator<Item = &RouteEntry> + '_ {
        let (lo, hi) = OrderKey::bounds(family.into(), table.into(), dst, dst_len, None);
        let mut places: Vec<OrderKey> = self
            .by_device
            .iter(&oif)
            .filter_map(|s| self.entry(s).map(|r| OrderKey::of(r, s)))
            .filter(|k| lo <= *k && *k <= hi)
            .collect();
        places.sort_unstable();
        places.into_iter().filter_map(|k| self.entry(k.slot()))
    }

    /// Routes of a table whose destination, masked, is all zeros (the
    /// default route and `0.0.0.0/N`, `::/N`), in dump order.
    pub fn zero_prefixes(&self, family: AddressFamily, table: TableId) -> impl Iterator<Item = &RouteEntry> + '_ {
        let width = if family == AddressFamily::Inet6 { 128u8 } else { 32 };
        (0..=width)
            .rev()
            .flat_map(move |len| self.prefix(family, table, None, len))
    }

    /// The longest-prefix match for `ip` in a table among the routes `usable`
    /// accepts; among routes to the same prefix the lowest metric, then the
    /// first in list order.
    pub fn longest_match(
        &self,
        family: AddressFamily,
        table: TableId,
        ip: IpAddr,
        usable: impl Fn(&RouteEntry) -> bool,
    ) -> Option<&RouteEntry> {
        let width = prefix::width(ip);
        // Only the prefix lengths the table has: a BGP table of /24s is
        // looked up at a few lengths, not at 33 (or 129).
        let count = self.tables.get(&(family.into(), table.into()))?;
        for len in (0..=width).rev().filter(|&l| count.has_len(l)) {
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
    pub(super) fn group_first(&self, r: &RouteEntry) -> Option<(RouteKey, i64)> {
        self.group(r).next().map(|x| (x.key(), x.seq))
    }

    /// A fresh `seq` after every one handed out (the end of any group).
    pub fn next_seq(&mut self) -> i64 {
        self.last_seq += 1;
        self.last_seq
    }

    /// Inserts a route; a route with the same key is replaced (and
    /// returned). `r.seq` places it in its group.
    pub fn insert(&mut self, r: RouteEntry) -> Option<RouteEntry> {
        let old = self.remove(&r.key());
        self.insert_new(r);
        old
    }

    /// A mark for the routes a dump lists (see [`upsert_marked`](Self::upsert_marked)).
    pub fn new_mark(&mut self) -> u32 {
        self.last_mark = self.last_mark.wrapping_add(1).max(1);
        self.last_mark
    }

    /// Inserts or replaces a route as a dump lists it, marked with `mark`;
    /// whether it is new. A route the table has keeps its slot, key index
    /// and device chain (the key is the same) and moves to its new place
    /// in dump order.
    pub fn upsert_marked(&mut self, r: RouteEntry, mark: u32) -> bool {
        self.upsert_marked_seeing(r, mark, |_, _| {})
    }

    /// [`upsert_marked`](Self::upsert_marked), `see` first shown the route
    /// and the one the table holds with its key (if any), found by the same
    /// lookup: a dump's reply is looked up once, not once to compare it
    /// with the prediction and again to apply it.
    pub fn upsert_marked_seeing(
        &mut self,
        r: RouteEntry,
        mark: u32,
        see: impl FnOnce(&RouteEntry, Option<&RouteEntry>),
    ) -> bool {
        let key = r.key();
        // A dump lists routes in dump order, which is the table's: the
        // route after the one upserted last is most often this one, found
        // by a walk that stays in cache rather than a random probe.
        let after = match self.cursor {
            _ if self.moved_in == Some(mark) => None,
            Some(c) if c.1 == mark => self.order.after(&c.0, c.2),
            _ => self.order.first_hinted(),
        };
        let hint = after.map_or(usize::MAX, |a| a.1);
        let next = after
            .map(|a| *a.0)
            .filter(|k| self.entry(k.slot()).is_some_and(|e| e.key() == key));
        if next.is_none() {
            self.moved_in = Some(mark);
        }
        // (the hint says where `next` is; a stale one costs a search)
        let hint = if next.is_some() { hint } else { usize::MAX };
        let (slot, new, place) = match next {
            Some(place) => {
                // Already where the dump lists it (right after the route
                // listed before it): it keeps its place (its seq; the
                // fields its place is made of are the key's), and the
                // order index is not touched. A repeated dump of an
                // unchanged table is then a walk.
                let slot = place.slot();
                let Some(Some(cur)) = self.slots.get_mut(slot as usize) else {
                    return false;
                };
                see(&r, Some(cur));
                let mut r = r;
                r.seq = cur.seq;
                let new_src = r.prefsrc;
                let (was, now) = (cur.multipath, r.multipath);
                let old_src = std::mem::replace(cur, r).prefsrc;
                self.multipath = (self.multipath + usize::from(now)).saturating_sub(usize::from(was));
                self.move_source(slot, old_src, new_src);
                (slot, false, place)
            }
            None => {
                let hash = hash_key(&key);
                // One probe of the key index finds the route or the place
                // for a new one (a dump into emptied tables is all new
                // routes): the slot a new route takes is known before.
                let new_slot = self.next_slot();
                let slots = &self.slots;
                let found = match self.by_key.entry(
                    spread(hash),
                    |&(s, hs)| {
                        hs == hash
                            && slots
                                .get(s as usize)
                                .and_then(Option::as_ref)
                                .is_some_and(|r| r.key() == key)
                    },
                    |&(_, hs)| spread(hs),
                ) {
                    hashbrown::hash_table::Entry::Occupied(o) => Some(o.get().0),
                    hashbrown::hash_table::Entry::Vacant(v) => {
                        v.insert((new_slot, hash));
                        None
                    }
                };
                match found {
                    Some(slot) => {
                        let new_src = r.prefsrc;
                        let Some(Some(cur)) = self.slots.get_mut(slot as usize) else {
                            return false;
                        };
                        see(&r, Some(cur));
                        self.last_seq = self.last_seq.max(r.seq);
                        let old_place = OrderKey::of(cur, slot);
                        let (was, now) = (cur.multipath, r.multipath);
                        let old_src = std::mem::replace(cur, r).prefsrc;
                        self.multipath = (self.multipath + usize::from(now)).saturating_sub(usize::from(was));
                        let new_place = OrderKey::of(cur, slot);
                        if new_place != old_place {
                            self.order.remove(&old_place);
                            self.order.insert(new_place);
                        }
                        self.move_source(slot, old_src, new_src);
                        (slot, false, new_place)
                    }
                    None => {
                        see(&r, None);
                        let place = self.insert_indexed(r, hash);
                        (place.slot(), true, place)
                    }
                }
            }
        };
        self.cursor = Some((place, mark, hint));
        if self.marks.len() <= slot as usize {
            self.marks.resize(slot as usize + 1, 0);
        }
        if let Some(m) = self.marks.get_mut(slot as usize) {
            *m = mark;
        }
        new
    }

    /// Moves a slot from one preferred source's chain to another's.
    fn move_source(&mut self, slot: u32, old_src: Option<IpAddr>, new_src: Option<IpAddr>) {
        if old_src != new_src {
            if let Some(src) = old_src {
                self.by_source.unlink(src, slot);
            }
            if let Some(src) = new_src {
                self.by_source.push(src, slot);
            }
        }
    }

    /// Removes the routes `covered` selects that the dump marked `mark`
    /// did not list; returns them in dump order (a scan of the table).
    pub fn sweep(&mut self, mark: u32, covered: impl Fn(&RouteEntry) -> bool) -> Vec<RouteEntry> {
        let marks = &self.marks;
        let mut gone: Vec<OrderKey> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let r = r.as_ref()?;
                let listed = marks.get(i).is_some_and(|m| *m == mark);
                (!listed && covered(r)).then(|| OrderKey::of(r, i as u32))
            })
            .collect();
        gone.sort_unstable();
        self.take_sorted(&gone)
    }

    /// Inserts a route whose key the caller knows is not in the table;
    /// returns its slot.
    pub fn insert_new(&mut self, r: RouteEntry) -> u32 {
        let h = hash_key(&r.key());
        self.insert_hashed(r, h).slot()
    }

    /// [`insert_new`](Self::insert_new) of a route whose key's hash the
    /// caller has; returns its place in dump order.
    fn insert_hashed(&mut self, r: RouteEntry, h: u32) -> OrderKey {
        self.by_key
            .insert_unique(spread(h), (self.next_slot(), h), |&(_, hs)| spread(hs));
        self.insert_indexed(r, h)
    }

    /// The slot the next route inserted takes: the last one freed, else a
    /// new one past the end.
    fn next_slot(&self) -> u32 {
        self.free.last().copied().unwrap_or(self.slots.len() as u32)
    }

    /// [`insert_hashed`](Self::insert_hashed) of a route the key index
    /// already holds in the slot it takes (the last free one, or a new
    /// one past the end).
    fn insert_indexed(&mut self, r: RouteEntry, h: u32) -> OrderKey {
        self.last_seq = self.last_seq.max(r.seq);
        self.multipath += usize::from(r.multipath);
        let slot = self.next_slot();
        self.free.pop();
        let place = OrderKey::of(&r, slot);
        self.order.insert(place);
        if self.hashes.len() <= slot as usize {
            self.hashes.resize(slot as usize + 1, 0);
        }
        if let Some(x) = self.hashes.get_mut(slot as usize) {
            *x = h;
        }
        if let Some(oif) = r.oif {
            self.by_device.push(oif, slot);
        }
        if let Some(src) = r.prefsrc {
            self.by_source.push(src, slot);
        }
        self.tables
            .entry((r.family.into(), r.table.into()))
            .or_default()
            .add(r.dst_len, 1);
        // (a new slot is pushed with its route, not made empty and filled)
        match self.slots.get_mut(slot as usize) {
            Some(s) => *s = Some(r),
            None => self.slots.push(Some(r)),
        }
        place
    }

    /// Changes the route with `new`'s key in place: it keeps its position
    /// (its `seq`); the rest is `new`'s.
    pub fn update(&mut self, new: RouteEntry) -> bool {
        self.update_with(new, |_, _| {}).is_ok()
    }

    /// Like [`update`](Self::update), `merge` first seeing the route there
    /// and the new one; gives `new` back when no route has its key (one
    /// lookup for "change it if it is there").
    // (the route handed back is moved, not copied out of a box: 128 bytes
    // since its wire values are typed)
    #[allow(clippy::result_large_err)]
    pub fn update_with(
        &mut self,
        mut new: RouteEntry,
        merge: impl FnOnce(&RouteEntry, &mut RouteEntry),
    ) -> Result<(), RouteEntry> {
        let Some(slot) = self.find(&new.key()) else {
            return Err(new);
        };
        let Some(Some(cur)) = self.slots.get_mut(slot as usize) else {
            return Err(new);
        };
        merge(cur, &mut new);
        new.seq = cur.seq;
        let new_src = new.prefsrc;
        let (was, now) = (cur.multipath, new.multipath);
        let old_src = std::mem::replace(cur, new).prefsrc;
        self.multipath = (self.multipath + usize::from(now)).saturating_sub(usize::from(was));
        self.move_source(slot, old_src, new_src);
        Ok(())
    }

    fn take(&mut self, slot: u32) -> Option<RouteEntry> {
        let place = OrderKey::of(self.entry(slot)?, slot);
        self.take_at(place)
    }

    /// [`take`](Self::take) of the route at this place in dump order (its
    /// key, when the caller has it already).
    fn take_at(&mut self, place: OrderKey) -> Option<RouteEntry> {
        let r = self.detach(place.slot())?;
        self.order.remove(&place);
        Some(r)
    }

    /// [`take_at`](Self::take_at) of many places, given in dump order
    /// (the order index is passed over once).
    fn take_sorted(&mut self, places: &[OrderKey]) -> Vec<RouteEntry> {
        let taken = places.iter().filter_map(|k| self.detach(k.slot())).collect();
        self.order.remove_sorted(places);
        taken
    }

    /// Takes a slot's route out of every index but the order.
    fn detach(&mut self, slot: u32) -> Option<RouteEntry> {
        let r = self.slots.get_mut(slot as usize)?.take()?;
        self.multipath = self.multipath.saturating_sub(usize::from(r.multipath));
        let h = match self.hashes.get(slot as usize) {
            Some(h) => *h,
            None => hash_key(&r.key()),
        };
        if let Ok(e) = self.by_key.find_entry(spread(h), |&(s, _)| s == slot) {
            e.remove();
        }
        if let Some(oif) = r.oif {
            self.by_device.unlink(oif, slot);
        }
        if let Some(src) = r.prefsrc {
            self.by_source.unlink(src, slot);
        }
        if let Some(n) = self.tables.get_mut(&(r.family.into(), r.table.into())) {
            n.add(r.dst_len, -1);
        }
        if let Some(m) = self.marks.get_mut(slot as usize) {
            *m = 0;
        }
        self.free.push(slot);
        Some(r)
    }

    /// Removes the route with this key, and returns it.
    pub(super) fn remove(&mut self, key: &RouteKey) -> Option<RouteEntry> {
        let slot = self.find(key)?;
        self.take(slot)
    }

    /// Removes the routes through a device, or with a source, that `gone`
    /// selects; returns them in dump order.
    pub fn remove_where(&mut self, through: Through, gone: impl Fn(&RouteEntry) -> bool) -> Vec<RouteEntry> {
        let candidates: Vec<u32> = match through {
            Through::Device(i) => self.by_device.iter(&i).collect(),
            Through::Source(ip) => self.by_source.iter(&ip).collect(),
            Through::Prefix(family, dst, len) => self.prefix_slots(family, dst, len).collect(),
        };
        let mut places: Vec<OrderKey> = candidates
            .into_iter()
            .filter_map(|s| self.entry(s).filter(|r| gone(r)).map(|r| OrderKey::of(r, s)))
            .collect();
        places.sort_unstable();
        self.take_sorted(&places)
    }

    /// Removes every route through these devices (gone devices'), in one
    /// pass over the order index.
    pub fn remove_devices(&mut self, devices: &[u32]) {
        let mut places: Vec<OrderKey> = devices
            .iter()
            .flat_map(|d| self.by_device.iter(d))
            .filter_map(|s| self.entry(s).map(|r| OrderKey::of(r, s)))
            .collect();
        places.sort_unstable();
        self.take_sorted(&places);
    }

    /// The (family, table) pairs that hold routes.
    pub fn tables(&self) -> impl Iterator<Item = (AddressFamily, TableId)> + '_ {
        self.tables
            .iter()
            .filter(|(_, n)| n.routes > 0)
            .map(|(&(f, t), _)| (AddressFamily::from(f), TableId::from(t)))
    }

    /// Whether any route is of this family.
    pub fn has_family(&self, family: AddressFamily) -> bool {
        self.tables
            .iter()
            .any(|((f, _), n)| *f == u8::from(family) && n.routes > 0)
    }

    /// Whether it holds a multipath route.
    pub fn has_multipath(&self) -> bool {
        self.multipath > 0
    }

    /// Whether any route has this preferred source.
    pub fn has_source(&self, ip: IpAddr) -> bool {
        self.by_source.contains(&ip)
    }

    /// Routes to exactly `dst/dst_len` in any table of the family.
    pub fn to_prefix(
        &self,
        family: AddressFamily,
        dst: Option<IpAddr>,
        dst_len: u8,
    ) -> impl Iterator<Item = &RouteEntry> + '_ {
        self.prefix_slots(family, dst, dst_len).filter_map(|s| self.entry(s))
    }

    fn prefix_slots(&self, family: AddressFamily, dst: Option<IpAddr>, dst_len: u8) -> impl Iterator<Item = u32> + '_ {
        self.tables
            .keys()
            .filter(move |(f, _)| *f == u8::from(family))
            .flat_map(move |&(_, table)| {
                let (lo, hi) = OrderKey::bounds(family.into(), table, dst, dst_len, None);
                self.order.range(&lo, &hi).map(|k| k.slot())
            })
    }

    /// Moves every route through device `from` to device `to`.
    pub fn move_device(&mut self, from: u32, to: u32) {
        let slots: Vec<u32> = self.by_device.iter(&from).collect();
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
        self.by_device.clear();
        self.by_source.clear();
        order
            .iter()
            .filter_map(|k| self.slots.get_mut(k.slot() as usize).and_then(Option::take))
            .collect()
    }

    /// Empties the table at once, keeping the room of its indexes and the
    /// `seq` and marks handed out (the next dump fills it again).
    pub fn clear(&mut self) {
        self.slots.clear();
        self.free.clear();
        self.by_key.clear();
        self.hashes.clear();
        self.order.clear();
        self.by_device.clear();
        self.by_source.clear();
        self.marks.clear();
        for n in self.tables.values_mut() {
            n.routes = 0;
            n.per_len.fill(0);
        }
        self.cursor = None;
        self.moved_in = None;
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
