//! IPv6 multipath routes as the kernel keeps them: one route per next hop
//! (`fib6_info`), linked as siblings, that messages show as one route.
//!
//! Contract: restated from net/ipv6/ip6_fib.c (`fib6_add_rt2node`,
//! `fib6_del_route`) and net/ipv6/route.c (`rt6_fill_node`,
//! `ip6_route_multipath_add`) of 6.1 and 6.12. A route with a gateway (and
//! not made from a router advertisement) added to a prefix that already
//! has such a route of the same metric becomes its sibling, whether the
//! request said append, prepend or neither, and goes to the end of the
//! siblings' list. A message shows a route with siblings as one route
//! whose next hops are the route's own first, then its siblings' in list
//! order: a dump shows the first sibling of the node (every hop in list
//! order), the notification of an added sibling shows the new hop first.
//! So a notification of a multipath route over next hops the model holds
//! in that group replaces them: the hops it already had keep their order
//! and place, the new ones follow in the notification's order; that of a
//! replace (NLM_F_REPLACE) is the whole route, in the kernel's order, and
//! the routes it covered are gone. Deleting
//! one sibling (`ip -6 route del ... via GW dev DEV`) is notified as a
//! single route: the model takes that hop out of the multipath route, and
//! a route left with one hop is a single route again. A device that
//! unregisters takes its IPv6 hops out of multipath routes, and IPv4
//! multipath routes through it whole (net/ipv4/fib_semantics.c,
//! `fib_sync_down_dev`).

use std::net::IpAddr;

use super::changes::{Change, ChangeSink};
use super::entries::RouteEntry;
use super::state::{Ctx, Model};
use crate::netlink::names::{NLM_F_APPEND, NLM_F_REPLACE};
use crate::netlink::rtnl::NextHop;
use crate::netlink::values::{AddressFamily, RouteProtocol};

/// A next hop as the kernel matches siblings: gateway and device.
type Hop = (Option<IpAddr>, u32);

fn hops_of(r: &RouteEntry) -> Vec<Hop> {
    if r.multipath {
        return r
            .extra
            .as_ref()
            .map(|e| e.next_hops.iter().map(|h| (h.gateway, h.ifindex)).collect())
            .unwrap_or_default();
    }
    match r.oif {
        Some(o) => vec![(r.gateway, o)],
        None => Vec::new(),
    }
}

/// `rt6_qualify_for_ecmp`: a route with a gateway, not made by addrconf
/// from a router advertisement.
fn qualifies(r: &RouteEntry) -> bool {
    (r.multipath || r.gateway.is_some()) && r.protocol != RouteProtocol::Ra
}

impl Model {
    /// An IPv6 multipath route notified: the siblings it covers that the
    /// model holds as other routes go into it, and its next hops take the
    /// kernel's list order. Returns the place (`seq`) of the first sibling
    /// it replaced, if any.
    ///
    /// A notification of a replace (`NLM_F_REPLACE` without
    /// `NLM_F_APPEND`: `ip -6 route replace` with next hops) is the whole
    /// route: `ip6_route_multipath_add` replaced the route that was there,
    /// its siblings with it, by the first hop asked and appended the others
    /// after it, so the notification's order is the kernel's and every
    /// route of the group that qualifies is gone.
    pub(super) fn merge_ipv6_siblings<S: ChangeSink>(
        &mut self,
        new: &mut RouteEntry,
        flags: u16,
        ctx: &Ctx,
        sink: &mut S,
    ) -> Option<i64> {
        if new.family != AddressFamily::Inet6 || !new.multipath {
            return None;
        }
        let notified = hops_of(new);
        let key = new.key();
        let members = self.siblings(new);
        let held: Vec<Hop> = members.iter().flat_map(hops_of).collect();
        if flags & NLM_F_REPLACE != 0 && flags & NLM_F_APPEND == 0 {
            let mut first = None;
            for m in members.into_iter().filter(|m| m.key() != key) {
                first = Some(first.map_or(m.seq, |s: i64| s.min(m.seq)));
                if let Some(old) = self.routes.remove(&m.key()) {
                    self.report_removed(vec![old], ctx, sink);
                }
            }
            return first;
        }
        if !held.iter().any(|h| notified.contains(h)) {
            return None;
        }
        // The hops the kernel had, in their order, then the new ones.
        let mut order: Vec<Hop> = held.iter().copied().filter(|h| notified.contains(h)).collect();
        order.dedup();
        order.extend(notified.iter().copied().filter(|h| !held.contains(h)));
        if let Some(extra) = new.extra.as_mut() {
            let mut hops: Vec<NextHop> = extra.next_hops.to_vec();
            hops.sort_by_key(|h| order.iter().position(|o| *o == (h.gateway, h.ifindex)));
            extra.next_hops = hops.into_boxed_slice();
        }
        let mut first = None;
        for m in members {
            if m.key() == key || !hops_of(&m).iter().all(|h| notified.contains(h)) {
                continue;
            }
            first = Some(first.map_or(m.seq, |s: i64| s.min(m.seq)));
            if let Some(old) = self.routes.remove(&m.key()) {
                self.report_removed(vec![old], ctx, sink);
            }
        }
        first
    }

    /// A single IPv6 route deleted that the model holds as a next hop of a
    /// multipath route: the hop leaves it (a route left with one hop is a
    /// single route again, in its place). Whether it was one.
    pub(super) fn remove_ipv6_sibling<S: ChangeSink>(&mut self, gone: &RouteEntry, ctx: &Ctx, sink: &mut S) -> bool {
        if gone.family != AddressFamily::Inet6 || gone.multipath || self.routes.contains(&gone.key()) {
            return false;
        }
        let Some(o) = gone.oif else { return false };
        let hop = (gone.gateway, o);
        let Some(multi) = self
            .routes
            .group(gone)
            .find(|m| m.multipath && hops_of(m).contains(&hop))
            .cloned()
        else {
            return false;
        };
        let Some(old) = self.routes.remove(&multi.key()) else {
            return false;
        };
        let mut left = old.clone();
        if let Some(extra) = left.extra.as_mut() {
            let hops: Vec<NextHop> = extra
                .next_hops
                .iter()
                .filter(|h| (h.gateway, h.ifindex) != hop)
                .copied()
                .collect();
            if let [one] = hops.as_slice() {
                left.multipath = false;
                left.gateway = one.gateway;
                left.oif = Some(one.ifindex);
                extra.next_hops = Box::default();
            } else {
                extra.next_hops = hops.into_boxed_slice();
            }
        }
        if left
            .extra
            .as_deref()
            .is_some_and(|e| *e == super::entries::RouteExtra::default())
        {
            left.extra = None;
        }
        self.report_removed(vec![old], ctx, sink);
        self.add_reported(left, ctx, sink);
        true
    }

    /// An IPv6 route added by a request the kernel accepted (not a
    /// replace): a route with a gateway to a prefix and metric that has
    /// such routes already becomes their sibling, so the model holds one
    /// multipath route over the hops it had, in their order, then the new
    /// ones. Whether the request was taken so (nothing else to do then).
    pub(super) fn add_ipv6_sibling<S: ChangeSink>(&mut self, r: &RouteEntry, ctx: &Ctx, sink: &mut S) -> bool {
        if r.family != AddressFamily::Inet6 || !qualifies(r) {
            return false;
        }
        let members = self.siblings(r);
        let Some(first) = members.first().cloned() else {
            return false;
        };
        let mut hops: Vec<NextHop> = Vec::new();
        for m in &members {
            match m.extra.as_ref().filter(|_| m.multipath) {
                Some(e) => hops.extend(e.next_hops.iter().copied()),
                None => hops.extend(m.oif.map(|o| single_hop(m.gateway, o))),
            }
        }
        let asked: Vec<NextHop> = match r.extra.as_ref().filter(|_| r.multipath) {
            Some(e) => e.next_hops.to_vec(),
            None => r.oif.map(|o| single_hop(r.gateway, o)).into_iter().collect(),
        };
        let fresh: Vec<NextHop> = asked
            .into_iter()
            .filter(|h| !hops.iter().any(|x| (x.gateway, x.ifindex) == (h.gateway, h.ifindex)))
            .collect();
        if fresh.is_empty() {
            // (every hop is there already: a notification showed it)
            return true;
        }
        hops.extend(fresh);
        let mut multi = first.clone();
        multi.multipath = true;
        multi.gateway = None;
        multi.oif = None;
        multi.extra.get_or_insert_with(Box::default).next_hops = hops.into_boxed_slice();
        for m in members {
            if let Some(old) = self.routes.remove(&m.key()) {
                self.report_removed(vec![old], ctx, sink);
            }
        }
        multi.seq = first.seq;
        self.add_reported(multi, ctx, sink);
        true
    }

    /// The routes of `r`'s group that are of its type and can be its
    /// siblings (see [`qualifies`]).
    fn siblings(&self, r: &RouteEntry) -> Vec<RouteEntry> {
        self.routes
            .group(r)
            .filter(|m| m.kind == r.kind && qualifies(m))
            .cloned()
            .collect()
    }

    /// The multipath routes of `family` with a next hop through device `index`.
    fn multipath_through(&self, family: AddressFamily, index: u32) -> Vec<RouteEntry> {
        self.routes
            .iter()
            .filter(|r| r.family == family && r.multipath && hops_of(r).iter().any(|h| h.1 == index))
            .cloned()
            .collect()
    }

    /// `route` put in the table as a new route, and reported as added.
    fn add_reported<S: ChangeSink>(&mut self, route: RouteEntry, ctx: &Ctx, sink: &mut S) {
        if sink.wants_changes() {
            sink.change(ctx.event(Change::RouteAdded {
                route: route.clone(),
                dev: self.route_dev(&route),
            }));
        }
        self.routes.insert_new(route);
    }

    /// IPv6 taken off a device (`addrconf_ifdown` as for an unregistered
    /// device: MTU below 1280, the device deleted): `fib6_ifdown` deletes
    /// each route through it, and a multipath route is one route per next
    /// hop, so only its hops through the device go; a route left with one
    /// hop is a single route again, in its place. (A device that only goes
    /// down keeps them, marked dead, while another hop lives.)
    pub(super) fn drop_ipv6_hops_through<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        if !self.routes.has_multipath() || !self.routes.has_family(AddressFamily::Inet6) {
            return;
        }
        let touched = self.multipath_through(AddressFamily::Inet6, index);
        for old in touched {
            let Some(old) = self.routes.remove(&old.key()) else {
                continue;
            };
            let mut left = old.clone();
            let hops: Vec<NextHop> = left
                .extra
                .as_ref()
                .map(|e| e.next_hops.iter().filter(|h| h.ifindex != index).copied().collect())
                .unwrap_or_default();
            self.report_removed(vec![old], ctx, sink);
            match hops.as_slice() {
                [] => continue,
                [one] => {
                    left.multipath = false;
                    left.gateway = one.gateway;
                    left.oif = Some(one.ifindex);
                    if let Some(e) = left.extra.as_mut() {
                        e.next_hops = Box::default();
                    }
                    if left
                        .extra
                        .as_deref()
                        .is_some_and(|e| *e == super::entries::RouteExtra::default())
                    {
                        left.extra = None;
                    }
                }
                _ => {
                    if let Some(e) = left.extra.as_mut() {
                        e.next_hops = hops.into_boxed_slice();
                    }
                }
            }
            self.add_reported(left, ctx, sink);
        }
    }

    /// A device unregistered (deleted, or moved to another namespace):
    /// `fib_sync_down_dev` at NETDEV_UNREGISTER takes an IPv4 multipath
    /// route with a next hop through it as dead whole, and flushes it with
    /// no notification; IPv6 deletes each sibling through it (see
    /// [`drop_ipv6_hops_through`](Self::drop_ipv6_hops_through)).
    pub(super) fn multipath_device_gone<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        if !self.routes.has_multipath() {
            return;
        }
        let dead = self.multipath_through(AddressFamily::Inet, index);
        for r in dead {
            if let Some(old) = self.routes.remove(&r.key()) {
                self.report_removed(vec![old], ctx, sink);
            }
        }
        self.drop_ipv6_hops_through(index, ctx, sink);
    }
}

impl Model {
    /// IPv4 disabled on a device (its last address gone, `fib_disable_ip`):
    /// `fib_sync_down_dev` marks the next hops through it dead, and an IPv4
    /// multipath route all of whose next hops are dead (each through a
    /// device without IPv4, or down) is flushed, with no notification.
    pub(super) fn multipath_ipv4_disabled<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        if !self.routes.has_multipath() {
            return;
        }
        let alive =
            |m: &Model, dev: u32| !m.device_addresses(dev, AddressFamily::Inet).is_empty() && m.state(dev).admin_up;
        let dead: Vec<RouteEntry> = self
            .routes
            .iter()
            .filter(|r| r.family == AddressFamily::Inet && r.multipath)
            .filter(|r| {
                let hops = hops_of(r);
                hops.iter().any(|h| h.1 == index) && !hops.iter().any(|h| alive(self, h.1))
            })
            .cloned()
            .collect();
        for r in dead {
            if let Some(old) = self.routes.remove(&r.key()) {
                self.report_removed(vec![old], ctx, sink);
            }
        }
    }
}

/// A next hop made from a single route's gateway and device.
fn single_hop(gateway: Option<IpAddr>, ifindex: u32) -> NextHop {
    NextHop {
        flags: 0,
        hops: 0,
        ifindex,
        gateway,
        flow: None,
    }
}
