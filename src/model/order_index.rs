//! The index of a route table in dump order: a sorted vector while the
//! table is small, a B-tree once it grows.
//!
//! Contract: a set of keys with the few operations the route table needs
//! (insert, remove one or many, first, the key after one, a range,
//! iteration in order), each O(log n) plus what it returns, whatever the size. A small
//! host's tables hold a few dozen routes and are rebuilt at every dump
//! from another host: there a binary search and a move of a few hundred
//! bytes cost less than a B-tree's node walks, allocations and frees. A
//! B-tree takes over past [`SMALL`] keys (inserting into a vector costs
//! its length) and hands back below a quarter of it.

use std::collections::BTreeSet;
use std::collections::btree_set;
use std::ops::Bound::{Excluded, Included, Unbounded};

/// The most keys kept in a vector (fewer in tests, so that both forms
/// and the changes between them are exercised).
const SMALL: usize = if cfg!(test) { 8 } else { 256 };

#[derive(Debug, Clone)]
pub(super) enum OrderIndex<K> {
    Small(Vec<K>),
    Large(BTreeSet<K>),
}

impl<K> Default for OrderIndex<K> {
    fn default() -> Self {
        OrderIndex::Small(Vec::new())
    }
}

/// Keys in order, from either form.
pub(super) enum Iter<'a, K> {
    Small(std::slice::Iter<'a, K>),
    Large(btree_set::Range<'a, K>),
}

impl<'a, K> Iterator for Iter<'a, K> {
    type Item = &'a K;

    fn next(&mut self) -> Option<&'a K> {
        match self {
            Iter::Small(i) => i.next(),
            Iter::Large(i) => i.next(),
        }
    }
}

impl<K> DoubleEndedIterator for Iter<'_, K> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(i) => i.next_back(),
            Iter::Large(i) => i.next_back(),
        }
    }
}

impl<K: Ord + Copy> OrderIndex<K> {
    pub fn len(&self) -> usize {
        match self {
            OrderIndex::Small(v) => v.len(),
            OrderIndex::Large(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Empties it, keeping a small one's room.
    pub fn clear(&mut self) {
        match self {
            OrderIndex::Small(v) => v.clear(),
            OrderIndex::Large(_) => *self = OrderIndex::Small(Vec::new()),
        }
    }

    /// Adds a key; whether it was not there.
    pub fn insert(&mut self, k: K) -> bool {
        match self {
            // A dump lists routes in this order: most keys go at the end.
            OrderIndex::Small(v) if v.len() < SMALL && v.last().is_none_or(|l| *l < k) => {
                v.push(k);
                true
            }
            OrderIndex::Small(v) => match v.binary_search(&k) {
                Ok(_) => false,
                Err(i) if v.len() < SMALL => {
                    v.insert(i, k);
                    true
                }
                Err(_) => {
                    let mut s: BTreeSet<K> = v.drain(..).collect();
                    s.insert(k);
                    *self = OrderIndex::Large(s);
                    true
                }
            },
            OrderIndex::Large(s) => s.insert(k),
        }
    }

    /// Removes a key; whether it was there.
    pub fn remove(&mut self, k: &K) -> bool {
        match self {
            OrderIndex::Small(v) => match v.binary_search(k) {
                Ok(i) => {
                    v.remove(i);
                    true
                }
                Err(_) => false,
            },
            OrderIndex::Large(s) => {
                let was = s.remove(k);
                if s.len() < SMALL / 4 {
                    *self = OrderIndex::Small(std::mem::take(s).into_iter().collect());
                }
                was
            }
        }
    }

    /// Removes keys given in order (each there once); one pass over a
    /// small index, one removal each from a large one.
    pub fn remove_sorted(&mut self, keys: &[K]) {
        match self {
            OrderIndex::Small(v) => {
                let mut gone = keys.iter().peekable();
                v.retain(|k| {
                    while gone.next_if(|g| *g < k).is_some() {}
                    gone.next_if(|g| *g == k).is_none()
                });
            }
            OrderIndex::Large(s) => {
                for k in keys {
                    s.remove(k);
                }
                if s.len() < SMALL / 4 {
                    *self = OrderIndex::Small(std::mem::take(s).into_iter().collect());
                }
            }
        }
    }

    /// The first key.
    pub fn first(&self) -> Option<&K> {
        match self {
            OrderIndex::Small(v) => v.first(),
            OrderIndex::Large(s) => s.first(),
        }
    }

    /// The first key after `k`, with a hint of where it is for the next
    /// call: given the hint the call before returned, a walk from key to
    /// key (a dump's routes come in order) costs no search in a small
    /// index. A stale hint costs a search, never a wrong answer.
    pub fn after(&self, k: &K, hint: usize) -> Option<(&K, usize)> {
        match self {
            OrderIndex::Small(v) => {
                let i = match v.get(hint) {
                    Some(x) if x == k => hint + 1,
                    _ => v.partition_point(|x| x <= k),
                };
                v.get(i).map(|x| (x, i))
            }
            OrderIndex::Large(s) => s.range((Excluded(k), Unbounded)).next().map(|x| (x, 0)),
        }
    }

    /// The first key, with its hint for [`after`](Self::after).
    pub fn first_hinted(&self) -> Option<(&K, usize)> {
        self.first().map(|k| (k, 0))
    }

    /// The keys from `lo` to `hi`, both included.
    pub fn range(&self, lo: &K, hi: &K) -> Iter<'_, K> {
        match self {
            OrderIndex::Small(v) => {
                let a = v.partition_point(|x| x < lo);
                let b = v.partition_point(|x| x <= hi).max(a);
                Iter::Small(v.get(a..b).unwrap_or_default().iter())
            }
            OrderIndex::Large(s) => Iter::Large(s.range((Included(lo), Included(hi)))),
        }
    }

    /// Every key in order.
    pub fn iter(&self) -> Iter<'_, K> {
        match self {
            OrderIndex::Small(v) => Iter::Small(v.iter()),
            OrderIndex::Large(s) => Iter::Large(s.range::<K, _>(..)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Both forms answer as a B-tree does, through growth and shrinking.
        #[test]
        fn agrees_with_a_btree(ops in prop::collection::vec((any::<bool>(), 0u16..40), 0..300), probe in 0u16..40, hi in 0u16..40, hint in 0u8..12) {
            let mut ix = OrderIndex::default();
            let mut reference = BTreeSet::new();
            for (add, k) in ops {
                if add {
                    prop_assert_eq!(ix.insert(k), reference.insert(k));
                } else {
                    prop_assert_eq!(ix.remove(&k), reference.remove(&k));
                }
                prop_assert_eq!(ix.len(), reference.len());
                if ix.len() % 5 == 3 {
                    // every other key from the probe on, in order
                    let gone: Vec<u16> = reference.range(probe..).copied().step_by(2).collect();
                    ix.remove_sorted(&gone);
                    for g in &gone {
                        reference.remove(g);
                    }
                    prop_assert_eq!(ix.iter().collect::<Vec<_>>(), reference.iter().collect::<Vec<_>>());
                }
                prop_assert_eq!(ix.first(), reference.first());
                let next = reference.range((Excluded(probe), Unbounded)).next();
                prop_assert_eq!(ix.after(&probe, usize::from(hint)).map(|x| x.0), next);
                // a walk by hints gives every key in turn
                let mut walk = ix.first_hinted().map(|(k, h)| (*k, h));
                let mut walked = Vec::new();
                while let Some((k, h)) = walk {
                    walked.push(k);
                    walk = ix.after(&k, h).map(|(k, h)| (*k, h));
                }
                prop_assert_eq!(walked, reference.iter().copied().collect::<Vec<_>>());
                let lo = probe.min(hi);
                prop_assert_eq!(ix.range(&lo, &hi).collect::<Vec<_>>(), reference.range(lo..=hi).collect::<Vec<_>>());
                prop_assert_eq!(ix.iter().rev().collect::<Vec<_>>(), reference.iter().rev().collect::<Vec<_>>());
            }
        }
    }
}
