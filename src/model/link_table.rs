//! The link table: every device the model knows, in the order a link dump
//! lists them, found by ifindex or name in O(1), with the relations the
//! kernel's carrier and stacking rules follow.
//!
//! Contract: at most one link per ifindex, and one per name among links a
//! message named. The list is in dump order; a new link goes where
//! [`kernel_order::link_insert_position`] puts it (a binary search while the
//! list is sorted by the walk order in use, as every kernel dump is). Every
//! change goes through this type, which keeps three indexes in step:
//! ifindex → position, name → ifindex, and the reverse relations (a
//! device's ports, and the devices that follow it: VLANs, macvlans and
//! ipvlans on it, its veth peer). A link inserted in the middle moves the
//! positions after it (a memmove of the tail), which the ascending walk of
//! kernels since 6.9 never needs for new, higher ifindexes.

use rustc_hash::FxHashMap;

use super::entries::{LinkEntry, ShortName};
use super::kernel_order::{self, LinkOrder};

/// Every device the model knows, in dump order, with its indexes.
#[derive(Debug, Default, Clone)]
pub(super) struct LinkTable {
    list: Vec<LinkEntry>,
    position: FxHashMap<u32, usize>,
    names: FxHashMap<ShortName, u32>,
    /// Device → the devices whose carrier follows it (IFLA_LINK or veth peer).
    followers: FxHashMap<u32, Vec<u32>>,
    /// Master → its ports.
    ports: FxHashMap<u32, Vec<u32>>,
    /// Emptied lists of `followers` and `ports`, for the next device that
    /// needs one (a small host dumped again and again allocates none).
    spare: Vec<Vec<u32>>,
    /// Whether the list is sorted by ascending ifindex, and by hash bucket.
    sorted: [bool; 2],
}

fn bucket(index: u32) -> u32 {
    index & 255
}

/// Spare lists kept at most (a host's devices that lead others).
const SPARE: usize = 64;

fn add_to(map: &mut FxHashMap<u32, Vec<u32>>, spare: &mut Vec<Vec<u32>>, key: u32, value: u32) {
    let v = map.entry(key).or_insert_with(|| spare.pop().unwrap_or_default());
    if !v.contains(&value) {
        v.push(value);
    }
}

fn remove_from(map: &mut FxHashMap<u32, Vec<u32>>, spare: &mut Vec<Vec<u32>>, key: u32, value: u32) {
    if let Some(v) = map.get_mut(&key) {
        v.retain(|&x| x != value);
        if v.is_empty()
            && let Some(v) = map.remove(&key)
        {
            keep_spare(spare, v);
        }
    }
}

fn keep_spare(spare: &mut Vec<Vec<u32>>, mut v: Vec<u32>) {
    if spare.len() < SPARE && v.capacity() > 0 {
        v.clear();
        spare.push(v);
    }
}

/// The devices a link follows (its IFLA_LINK and its veth peer).
fn leaders(l: &LinkEntry) -> impl Iterator<Item = u32> {
    let peer = l.peer.filter(|p| Some(*p) != l.link);
    let link = l.link.filter(|_| !l.link_elsewhere);
    link.into_iter().chain(peer).filter(move |&i| i != l.index)
}

impl LinkTable {
    pub fn new() -> Self {
        LinkTable {
            sorted: [true, true],
            ..LinkTable::default()
        }
    }

    /// Every link in dump order.
    pub fn as_slice(&self) -> &[LinkEntry] {
        &self.list
    }

    pub fn get(&self, index: u32) -> Option<&LinkEntry> {
        self.position.get(&index).and_then(|&p| self.list.get(p))
    }

    pub fn contains(&self, index: u32) -> bool {
        self.position.contains_key(&index)
    }

    /// The position of a link in dump order.
    pub fn position_of(&self, index: u32) -> Option<usize> {
        self.position.get(&index).copied()
    }

    /// The link a message named so (placeholders have no name of their own).
    pub fn by_name(&self, name: &[u8]) -> Option<&LinkEntry> {
        self.names.get(&ShortName::new(name)).and_then(|&i| self.get(i))
    }

    /// The ports of a master (bridge, bond), in no particular order.
    pub fn ports(&self, master: u32) -> &[u32] {
        self.ports.get(&master).map(Vec::as_slice).unwrap_or_default()
    }

    /// The devices whose carrier follows `index` (stacked on it, or its veth peer).
    pub fn followers(&self, index: u32) -> &[u32] {
        self.followers.get(&index).map(Vec::as_slice).unwrap_or_default()
    }

    fn index_relations(&mut self, l: &LinkEntry) {
        for lead in leaders(l) {
            add_to(&mut self.followers, &mut self.spare, lead, l.index);
        }
        if let Some(m) = l.master {
            add_to(&mut self.ports, &mut self.spare, m, l.index);
        }
        if !l.placeholder && l.has_name() {
            self.names.insert(l.name, l.index);
        }
    }

    fn unindex_relations(&mut self, l: &LinkEntry) {
        for lead in leaders(l) {
            remove_from(&mut self.followers, &mut self.spare, lead, l.index);
        }
        if let Some(m) = l.master {
            remove_from(&mut self.ports, &mut self.spare, m, l.index);
        }
        if self.names.get(&l.name) == Some(&l.index) {
            self.names.remove(&l.name);
        }
    }

    fn check_sorted_at(&mut self, p: usize) {
        let around = [
            p.checked_sub(1).and_then(|q| self.list.get(q)),
            self.list.get(p),
            self.list.get(p + 1),
        ];
        let pairs = [(around[0], around[1]), (around[1], around[2])];
        for (a, b) in pairs {
            if let (Some(a), Some(b)) = (a, b) {
                self.sorted[0] &= a.index < b.index;
                self.sorted[1] &= bucket(a.index) <= bucket(b.index);
            }
        }
    }

    fn renumber_from(&mut self, from: usize) {
        for (p, l) in self.list.iter().enumerate().skip(from) {
            self.position.insert(l.index, p);
        }
    }

    /// Where a new link goes in the kernel's walk order.
    pub fn insert_position(&self, index: u32, order: LinkOrder) -> usize {
        match order {
            LinkOrder::Ascending if self.sorted[0] => self.list.partition_point(|l| l.index <= index),
            LinkOrder::Buckets if self.sorted[1] => self.list.partition_point(|l| bucket(l.index) < bucket(index)),
            _ => kernel_order::link_insert_position(&self.list, index, order),
        }
    }

    /// Adds a link the table does not hold, where the walk order puts it.
    pub fn insert(&mut self, l: LinkEntry, order: LinkOrder) {
        if self.contains(l.index) {
            self.replace(l);
            return;
        }
        let p = self.insert_position(l.index, order);
        self.index_relations(&l);
        self.list.insert(p, l);
        self.renumber_from(p);
        self.check_sorted_at(p);
    }

    /// Replaces the link with `l`'s index in place (it keeps its position).
    pub fn replace(&mut self, l: LinkEntry) -> Option<LinkEntry> {
        let p = self.position_of(l.index)?;
        let old = std::mem::replace(self.list.get_mut(p)?, l.clone());
        self.unindex_relations(&old);
        self.index_relations(&l);
        Some(old)
    }

    /// Changes a link in place.
    pub fn update(&mut self, index: u32, f: impl FnOnce(&mut LinkEntry)) {
        let Some(mut l) = self.get(index).cloned() else { return };
        f(&mut l);
        l.index = index;
        self.replace(l);
    }

    pub fn remove(&mut self, index: u32) -> Option<LinkEntry> {
        let p = self.position.remove(&index)?;
        if p >= self.list.len() {
            return None;
        }
        let l = self.list.remove(p);
        self.unindex_relations(&l);
        self.renumber_from(p);
        Some(l)
    }

    /// The whole table as a dump listed it; gives back the list it held,
    /// emptied (its room serves the next dump).
    pub fn replace_all(&mut self, links: Vec<LinkEntry>) -> Vec<LinkEntry> {
        // Emptied rather than made anew: a small host dumps its links again
        // and again, and the indexes (and the lists of relations) keep
        // their room.
        self.position.clear();
        self.names.clear();
        for (_, v) in self.followers.drain().chain(self.ports.drain()) {
            keep_spare(&mut self.spare, v);
        }
        self.sorted = [true, true];
        for l in &links {
            self.index_relations(l);
        }
        let mut old = std::mem::replace(&mut self.list, links);
        old.clear();
        self.renumber_from(0);
        let pairs = || self.list.iter().zip(self.list.iter().skip(1));
        self.sorted = [
            pairs().all(|(a, b)| a.index < b.index),
            pairs().all(|(a, b)| bucket(a.index) <= bucket(b.index)),
        ];
        old
    }

    /// Gives the link at `from` the index `to` (every reference to it
    /// follows), and moves it where the walk order puts that index.
    pub fn reindex(&mut self, from: u32, to: u32, order: LinkOrder) {
        let mut links = std::mem::take(&mut self.list);
        for l in &mut links {
            if l.index == from {
                l.index = to;
            }
            for r in [&mut l.master, &mut l.link, &mut l.peer] {
                if *r == Some(from) {
                    *r = Some(to);
                }
            }
        }
        self.replace_all(links);
        if let Some(l) = self.remove(to) {
            self.insert(l, order);
        }
    }
}
