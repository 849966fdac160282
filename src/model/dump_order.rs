//! The order a route dump lists the routes of each group in, and the next
//! hops of each multipath route, held against what the model predicted.
//!
//! Contract: the kernel lists the routes of one group (same family, table,
//! prefix, tos and metric) together, in the order it keeps them (`seq` in
//! the model); the order of the groups themselves is the walk's
//! (`route_order`), a function of the routes' keys that a prediction cannot
//! get wrong, so only the order inside each group is compared. A dump is
//! fed route by route, each with the model's route of the same key as it
//! stood before the dump (none: the model did not have it, which the dump
//! check counts elsewhere). Only the group being listed is held, so a dump
//! of a million routes costs no more than its largest group. A group whose
//! routes the model had come out of their predicted order, and a multipath
//! route whose next hops differ from the predicted ones (in order or at
//! all), are kept as slips for the dump check to word.

use std::net::IpAddr;

use super::entries::RouteEntry;
use crate::netlink::rtnl::NextHop;
use crate::netlink::values::{AddressFamily, RouteType, TableId};

/// What names a group: the fields its routes share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct GroupId {
    pub family: AddressFamily,
    pub table: TableId,
    pub dst: Option<IpAddr>,
    pub dst_len: u8,
    pub tos: u8,
    pub priority: Option<u32>,
    pub kind: RouteType,
}

impl GroupId {
    fn of(r: &RouteEntry) -> Self {
        GroupId {
            family: r.family,
            table: r.table,
            dst: r.dst,
            dst_len: r.dst_len,
            tos: r.tos,
            priority: r.priority,
            kind: r.kind,
        }
    }

    fn same(&self, r: &RouteEntry) -> bool {
        self.family == r.family
            && self.table == r.table
            && self.dst == r.dst
            && self.dst_len == r.dst_len
            && self.tos == r.tos
            && self.priority.unwrap_or(0) == r.priority.unwrap_or(0)
    }
}

/// One route of a group as a dump or the model has it: what tells it
/// from the others of its group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Member {
    pub gateway: Option<IpAddr>,
    pub oif: Option<u32>,
    pub next_hops: Vec<(Option<IpAddr>, u32)>,
}

impl Member {
    fn of(r: &RouteEntry) -> Self {
        Member {
            gateway: r.gateway,
            oif: r.oif,
            next_hops: hops(r),
        }
    }
}

fn hops(r: &RouteEntry) -> Vec<(Option<IpAddr>, u32)> {
    r.extra
        .as_ref()
        .map(|e| e.next_hops.iter().map(|h: &NextHop| (h.gateway, h.ifindex)).collect())
        .unwrap_or_default()
}

/// A difference between the dump's order and the prediction.
#[derive(Debug, Clone)]
pub(super) enum Slip {
    /// The routes of a group, listed in another order than predicted.
    Group {
        group: GroupId,
        expected: Vec<Member>,
        seen: Vec<Member>,
    },
    /// A multipath route whose next hops are not the predicted ones.
    NextHops {
        group: GroupId,
        expected: Vec<(Option<IpAddr>, u32)>,
        seen: Vec<(Option<IpAddr>, u32)>,
    },
}

/// Slips kept per dump, at most (a dump of a table nlorder got wrong
/// everywhere says so in a few lines).
const MAX_SLIPS: usize = 16;

/// The group being listed, with the places the model had predicted.
#[derive(Debug, Default)]
pub(super) struct GroupOrder {
    head: Option<GroupId>,
    /// (predicted seq, the route) for the routes of the group the model had.
    listed: Vec<(i64, Member)>,
    pub slips: Vec<Slip>,
    /// Slips past [`MAX_SLIPS`], only counted.
    pub more: usize,
}

impl GroupOrder {
    /// The dump lists `r`; `predicted` is the model's route of the same key.
    pub fn see(&mut self, r: &RouteEntry, predicted: Option<&RouteEntry>) {
        // A route the model had no prediction for, in no group with one
        // listed yet: nothing to hold it to, and the next group starts
        // afresh whichever group this was (a dump into empty tables, after
        // a join, is all such routes).
        if predicted.is_none() && self.listed.is_empty() {
            self.head = None;
            return;
        }
        if !self.head.is_some_and(|g| g.same(r)) {
            self.close();
            self.head = Some(GroupId::of(r));
        }
        let Some(p) = predicted else { return };
        if r.multipath || p.multipath {
            let (seen, expected) = (hops(r), hops(p));
            if seen != expected {
                self.slip(Slip::NextHops {
                    group: GroupId::of(r),
                    expected,
                    seen,
                });
            }
        }
        self.listed.push((p.seq, Member::of(r)));
    }

    /// The group ends: its routes in their predicted order or a slip.
    pub fn close(&mut self) {
        let sorted = self.listed.windows(2).all(|w| matches!(w, [a, b] if a.0 <= b.0));
        if !sorted && let Some(group) = self.head {
            let seen: Vec<Member> = self.listed.iter().map(|(_, m)| m.clone()).collect();
            let mut expected = self.listed.clone();
            expected.sort_by_key(|(s, _)| *s);
            self.slip(Slip::Group {
                group,
                expected: expected.into_iter().map(|(_, m)| m).collect(),
                seen,
            });
        }
        self.listed.clear();
        self.head = None;
    }

    fn slip(&mut self, s: Slip) {
        if self.slips.len() < MAX_SLIPS {
            self.slips.push(s);
        } else {
            self.more += 1;
        }
    }
}
