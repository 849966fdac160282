//! What the kernel does by itself when an address comes or goes: the
//! routes that come and go with it, duplicate address detection, lifetimes
//! that run out, and an address's deletion with all that follows it.
//!
//! Contract: every rule here is idempotent (applying a change the capture
//! also notified changes nothing more), keeps positions of entries that
//! already exist, and marks what it creates with
//! `Origin::KernelRule(packet, rule)`. A deleted IPv4 primary takes its
//! secondaries along or promotes one, as the `promote_secondaries` option
//! says. A device's state (up, ready for IPv6) is read here, never
//! changed: what the kernel does when a device changes is `link_rules`',
//! above. Restated from net/ipv4/fib_frontend.c (`fib_add_ifaddr`,
//! `fib_del_ifaddr`, `fib_disable_ip`) and net/ipv6/addrconf.c (prefix and
//! local routes, duplicate address detection, lifetimes), and checked
//! against Debian's 6.1 and 6.12 in the kernel matrix (`fixtures/kernels/`).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::assumption::PromoteBasis;
use super::changes::{Change, ChangeSink};
use super::dad::{DAD_NANOS, PendingDad};
use super::entries::{AddrEntry, KernelRule, Origin, RouteEntry};
use super::kept_on_down::DownWalk;
use super::kernel_order;
use super::lifetimes::{AddrKey, nanos, timestamp};
use super::prefix::{network as v6_prefix, v4, v4_mask};
use super::route_table::Through;
use super::state::{Ctx, Model};
use super::tables::Placement;
use crate::diag::Diagnostic;
use crate::netlink::names::*;
use crate::netlink::values::{AddressFamily, RouteProtocol, RouteType, Scope, TableId};

/// One of the kernel's own routes through `oif`: protocol kernel, scope
/// universe, no gateway, prefsrc or metric, origin `Dump(0)` until the
/// caller marks it.
pub(super) fn kernel_route(
    family: AddressFamily,
    table: TableId,
    kind: RouteType,
    dst: IpAddr,
    dst_len: u8,
    oif: u32,
) -> RouteEntry {
    RouteEntry {
        family,
        table,
        dst: Some(dst),
        dst_len,
        tos: 0,
        gateway: None,
        oif: Some(oif),
        prefsrc: None,
        priority: None,
        protocol: RouteProtocol::Kernel,
        scope: Scope::Universe,
        kind,
        flags: 0,
        multipath: false,
        origin: Origin::Dump(0),
        seq: 0,
        pref: None,
        extra: None,
    }
}

impl Model {
    /// The routes that come with an address the kernel accepted. An IPv6
    /// address also runs `addrconf_add_dev`, which installs the device's
    /// `ff00::/8` route if the device is up (carrier or not).
    pub(super) fn address_added<S: ChangeSink>(&mut self, a: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        if a.family == AddressFamily::Inet {
            self.ipv4_address_routes(a, ctx, sink);
        } else if a.family == AddressFamily::Inet6 {
            if let Some(l) = self.link(a.index)
                && l.flags & IFF_UP != 0
                && l.flags & IFF_LOOPBACK == 0
                && l.dev_type != ARPHRD_LOOPBACK
            {
                self.add_multicast_route(a.index, ctx, sink);
            }
            self.ipv6_address_routes(a, ctx, sink);
        }
    }

    pub(super) fn add_multicast_route<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let ff00 = IpAddr::V6(Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0));
        // (its form changed in 5.11 and in some stable series: see
        // `KernelVersion::multicast_route_form`; the newer where the
        // capture does not say the release)
        use kernel_order::MulticastRouteForm as Form;
        let form = self
            .options
            .kernel
            .map(kernel_order::KernelVersion::multicast_route_form);
        let (kind, protocol) = match form {
            Some(Some(Form::UnicastBoot)) => (RouteType::Unicast, RouteProtocol::Boot),
            Some(Some(Form::UnicastKernel)) => (RouteType::Unicast, RouteProtocol::Kernel),
            _ => (RouteType::Multicast, RouteProtocol::Kernel),
        };
        if form == Some(None) {
            self.multicast_form_unknown = true;
        }
        let mut mc = kernel_route(AddressFamily::Inet6, TableId::Local, kind, ff00, 8, index);
        mc.protocol = protocol;
        mc.priority = Some(256);
        self.add_kernel_route(mc, KernelRule::Ipv6MulticastRoute, ctx, sink);
    }

    /// `fib_add_ifaddr`: the local route (prefsrc: the subnet's primary;
    /// none of the routes for a secondary without one); with the link up
    /// also the broadcast route of the address's broadcast attribute (unless
    /// 0.0.0.0 or 255.255.255.255) and, for a primary whose prefix (of its
    /// peer, if any) is neither 0 nor the address itself as a /32, the
    /// prefix route (unless `noprefixroute`; type local on a
    /// loopback device) and, below /31, the subnet's broadcast route.
    pub(super) fn ipv4_address_routes<S: ChangeSink>(&mut self, a: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let Some(l) = self.link(a.index) else { return };
        let (up, loopback) = (l.flags & IFF_UP != 0, l.flags & IFF_LOOPBACK != 0);
        let prim = if a.is_secondary() {
            let list = self.device_addresses(a.index, AddressFamily::Inet);
            match list
                .iter()
                .find(|p| !p.is_secondary() && kernel_order::same_ipv4_subnet(p, a))
            {
                Some(p) => p.address,
                None => return,
            }
        } else {
            a.address
        };
        let mut local = kernel_route(
            AddressFamily::Inet,
            TableId::Local,
            RouteType::Local,
            a.address,
            32,
            a.index,
        );
        local.scope = Scope::Host;
        local.prefsrc = Some(prim);
        self.add_kernel_route(local, KernelRule::Ipv4LocalRoute, ctx, sink);
        if !up {
            return;
        }
        let mask = v4_mask(a.prefix_len);
        let prefix = v4(a.peer.unwrap_or(a.address)) & mask;
        if let Some(b) = a.broadcast
            && v4(b) != 0
            && v4(b) != u32::MAX
        {
            self.add_broadcast_route(b, a.index, prim, ctx, sink);
        }
        if prefix != 0 && !a.is_secondary() && (prefix != v4(a.address) || a.prefix_len < 32) {
            if a.flags & IFA_F_NOPREFIXROUTE == 0 {
                let (table, kind, scope) = if loopback {
                    (TableId::Local, RouteType::Local, Scope::Host)
                } else {
                    (TableId::Main, RouteType::Unicast, Scope::Link)
                };
                let mut p = kernel_route(
                    AddressFamily::Inet,
                    table,
                    kind,
                    IpAddr::V4(Ipv4Addr::from(prefix)),
                    a.prefix_len,
                    a.index,
                );
                p.scope = scope;
                p.prefsrc = Some(prim);
                p.priority = a.rt_priority.filter(|m| *m != 0);
                self.add_kernel_route(p, KernelRule::Ipv4PrefixRoute, ctx, sink);
            }
            if a.prefix_len < 31 {
                let b = IpAddr::V4(Ipv4Addr::from(prefix | !mask));
                self.add_broadcast_route(b, a.index, prim, ctx, sink);
            }
        }
    }

    /// An IPv6 address's prefix route (unless `noprefixroute` or /128; only
    /// through a device that is up: IPv6 refuses routes through a down
    /// device, and `addrconf_permanent_addr` adds them at link-up) and its
    /// local route (exempt from that): at once when duplicate address
    /// detection is skipped (`nodad`, a NOARP or loopback device); when the
    /// device is up with carrier, once DAD has run (two seconds, see
    /// `finish_dad`); else nothing yet (this runs again when the device
    /// becomes ready).
    pub(super) fn ipv6_address_routes<S: ChangeSink>(&mut self, a: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let skip_dad = a.flags & IFA_F_NODAD != 0
            || self
                .link(a.index)
                .is_some_and(|l| l.flags & (IFF_NOARP | IFF_LOOPBACK) != 0 || l.dev_type == ARPHRD_LOOPBACK);
        let ready = self.state(a.index).ipv6_ready;
        let up = self.link(a.index).is_some_and(|l| l.flags & IFF_UP != 0);
        if up && a.flags & IFA_F_NOPREFIXROUTE == 0 && a.prefix_len < 128 {
            let mut p = kernel_route(
                AddressFamily::Inet6,
                TableId::Main,
                RouteType::Unicast,
                v6_prefix(a.address, a.prefix_len),
                a.prefix_len,
                a.index,
            );
            p.priority = Some(a.rt_priority.filter(|m| *m != 0).unwrap_or(256));
            self.add_kernel_route(p, KernelRule::Ipv6PrefixRoute, ctx, sink);
        }
        // `ipv6_add_addr` makes every address that will run DAD tentative;
        // a request or the model's own link-local carries no flags of the
        // kernel's (a dump or notification does).
        // (only until its DAD has ended: its local route is there then)
        let dad_ended = self
            .routes
            .to_prefix(AddressFamily::Inet6, Some(a.address), 128)
            .any(|r| r.kind == RouteType::Local && r.oif == Some(a.index) && r.dst == Some(a.address));
        if !skip_dad && matches!(a.origin, Origin::Request(_) | Origin::KernelRule(..)) && !dad_ended {
            self.set_tentative(a.index, a.address);
        }
        if skip_dad {
            self.ipv6_local_route(a.index, a.address, ctx, sink);
        } else if ready && !self.dad.contains(a.index, a.address) && !dad_ended {
            // Duplicate address detection runs first (up to a second's delay
            // and one probe a second): the local route comes when it ends.
            self.dad.start(PendingDad {
                index: a.index,
                address: a.address,
                started: self.lw.ran_at.map_or(ctx.ts, |n| {
                    Some(super::lifetimes::timestamp(u64::try_from(n).unwrap_or(0)))
                }),
                packet: ctx.packet,
                from_dump: false,
            });
        }
    }

    fn ipv6_local_route<S: ChangeSink>(&mut self, index: u32, address: IpAddr, ctx: &Ctx, sink: &mut S) {
        let mut local = kernel_route(
            AddressFamily::Inet6,
            TableId::Local,
            RouteType::Local,
            address,
            128,
            index,
        );
        local.priority = Some(0);
        self.add_kernel_route(local, KernelRule::Ipv6LocalRoute, ctx, sink);
    }

    /// Duplicate address detection that has run its course by `now` adds
    /// its local route and clears its address's `tentative` flag (what
    /// `addrconf_dad_completed` does); `done` ends one at once (its
    /// notification said so, and brought the flags). Nothing ends without
    /// a time or a notification: a capture without timestamps keeps its
    /// DADs under way.
    // (asked at every message: the common answer, none under way, is
    // given inline)
    #[inline]
    pub(super) fn finish_dad<S: ChangeSink>(
        &mut self,
        now: Option<crate::capture::Timestamp>,
        done: Option<(u32, IpAddr)>,
        ctx: &Ctx,
        sink: &mut S,
    ) {
        if !self.dad.is_empty() {
            self.finish_dad_under_way(now, done, ctx, sink);
        }
    }

    fn finish_dad_under_way<S: ChangeSink>(
        &mut self,
        now: Option<crate::capture::Timestamp>,
        done: Option<(u32, IpAddr)>,
        ctx: &Ctx,
        sink: &mut S,
    ) {
        // Nothing has run its time while the oldest DAD has not: only the
        // few DADs under way at once are looked at, and only then.
        if done.is_none() && now.is_none_or(|n| self.dad.none_over_by(n)) {
            return;
        }
        if done.is_some_and(|(index, address)| !self.dad.contains(index, address)) {
            return;
        }
        // A notification ends its own address's DAD and no other: each
        // address's local route comes when its own DAD ends.
        let over = |d: &PendingDad| match (done, now, d.started) {
            (Some(one), _, _) => one == (d.index, d.address),
            (None, Some(n), Some(s)) => n.as_nanos() - s.as_nanos() >= DAD_NANOS,
            (None, _, _) => false,
        };
        let ended = match done {
            Some((index, address)) => self.dad.take_address(index, address),
            None => self.dad.take(over),
        };
        if done.is_none() {
            self.note_unseen_dad_order(&ended);
        }
        for d in ended {
            if done.is_none() {
                self.dad_completed(&d, ctx, sink);
            }
            self.ipv6_local_route(d.index, d.address, ctx, sink);
        }
    }

    /// What an address dump says of DAD: an address no longer tentative
    /// has ended it (its local route is there); one still tentative on a
    /// ready device is under way, begun at the latest then (it ends by
    /// time like the others). `addrs`: (device, address, flags).
    pub(super) fn dad_as_dumped<S: ChangeSink>(&mut self, addrs: &[(u32, IpAddr, u32)], ctx: &Ctx, sink: &mut S) {
        for &(index, address, flags) in addrs {
            let under_way = self.dad.contains(index, address);
            if flags & IFA_F_TENTATIVE == 0 {
                if under_way {
                    self.finish_dad(None, Some((index, address)), ctx, sink);
                }
            } else if !under_way && flags & (IFA_F_DADFAILED | IFA_F_NODAD) == 0 && self.state(index).ipv6_ready {
                let local =
                    |r: &RouteEntry| r.kind == RouteType::Local && r.oif == Some(index) && r.dst == Some(address);
                let predicted = |r: &RouteEntry| local(r) && matches!(r.origin, Origin::KernelRule(..));
                let ended_by_time = self
                    .routes
                    .to_prefix(AddressFamily::Inet6, Some(address), 128)
                    .any(predicted);
                if ended_by_time {
                    // The model ended its DAD by time and the kernel has
                    // not: this host's DAD runs longer than 1 to 2 s (its
                    // retransmit timer, which no capture shows). The local
                    // route the model made is not there yet, and no end is
                    // predicted by time for it again.
                    self.remove_routes(Through::Device(index), predicted, ctx, sink);
                    self.dad.start(PendingDad {
                        index,
                        address,
                        started: None,
                        packet: ctx.packet,
                        from_dump: true,
                    });
                } else if !self
                    .routes
                    .to_prefix(AddressFamily::Inet6, Some(address), 128)
                    .any(local)
                {
                    self.dad.start(PendingDad {
                        index,
                        address,
                        started: ctx.ts,
                        packet: ctx.packet,
                        from_dump: true,
                    });
                }
            }
        }
    }

    fn set_tentative(&mut self, index: u32, address: IpAddr) {
        if let Some(a) = self.addrs.get_mut(&index).and_then(|d| {
            d.list_mut(AddressFamily::Inet6)
                .iter_mut()
                .find(|a| a.address == address)
        }) {
            a.flags |= IFA_F_TENTATIVE;
        }
    }

    /// DAD ended unseen (no notification): the address loses its
    /// `tentative` flag as the kernel's own notification would have said.
    fn dad_completed<S: ChangeSink>(&mut self, d: &PendingDad, ctx: &Ctx, sink: &mut S) {
        let Some(list) = self.addrs.get_mut(&d.index).map(|a| a.list_mut(AddressFamily::Inet6)) else {
            return;
        };
        let Some(a) = list.iter_mut().find(|a| a.address == d.address) else {
            return;
        };
        let old_flags = a.flags;
        if old_flags & IFA_F_TENTATIVE == 0 {
            return;
        }
        a.flags &= !IFA_F_TENTATIVE;
        let addr = a.clone();
        if self.after_capture.running {
            self.after_capture.addrs.insert(addr.key());
        }
        if sink.wants_changes() {
            let ifname = self.ifname(d.index);
            sink.change(ctx.event(Change::AddrChanged {
                addr,
                ifname,
                old_flags,
            }));
        }
    }

    /// DADs that ended unseen, each after a random delay of up to a second
    /// (`addrconf_dad_kick`): the same address on two devices has two local
    /// routes to one prefix, kept in the order their DADs ended
    /// (`fib6_add_rt2node`), which then no message showed.
    fn note_unseen_dad_order(&mut self, ended: &[PendingDad]) {
        const DELAY: i128 = 1_000_000_000;
        for (i, a) in ended.iter().enumerate() {
            let close = ended.iter().skip(i + 1).any(|b| {
                b.address == a.address
                    && b.index != a.index
                    && match (a.started, b.started) {
                        (Some(x), Some(y)) => (x.as_nanos() - y.as_nanos()).abs() < DELAY,
                        _ => true,
                    }
            });
            if close && !self.dad_order_unknown.contains(&a.address) {
                self.dad_order_unknown.push(a.address);
            }
        }
    }

    /// An address the kernel shows `dadfailed`: its duplicate address
    /// detection ended in failure (`addrconf_dad_failure`), so it never
    /// became usable and has no local route; one the model made when the
    /// detection's time ran out (before this message showed how it ended)
    /// goes.
    pub(super) fn dad_failed<S: ChangeSink>(&mut self, a: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let (index, addr) = (a.index, a.address);
        self.dad.cancel(|d| d.index == index && d.address == addr);
        self.remove_routes(
            Through::Prefix(AddressFamily::Inet6, Some(addr), 128),
            |r| {
                r.oif == Some(index)
                    && r.kind == RouteType::Local
                    && r.dst == Some(addr)
                    && matches!(r.origin, Origin::KernelRule(_, KernelRule::Ipv6LocalRoute))
            },
            ctx,
            sink,
        );
    }

    /// NETDEV_DOWN of `index`, before its IPv6 addresses are removed: the
    /// walk whose announcements may show what `keep_addr_on_down` kept
    /// (see `kept_on_down`).
    pub(super) fn down_walk_starts(&mut self, index: u32, packet: u64) {
        self.down_walk_ends();
        self.down_walk = DownWalk::starts(index, packet, self.device_addresses(index, AddressFamily::Inet6));
    }

    /// The walk's announcements are over: if none came (no address
    /// listener), whether the kernel kept the addresses the sysctl keeps is
    /// unknown until an address dump shows them (an assumption says so).
    // (asked at every message: most often no walk is under way)
    #[inline(always)]
    pub(super) fn down_walk_ends(&mut self) {
        if self.down_walk.is_some() {
            self.end_down_walk();
        }
    }

    fn end_down_walk(&mut self) {
        let Some(walk) = self.down_walk.take() else { return };
        if let Some(addresses) = walk.unannounced().filter(|a| !a.is_empty()) {
            self.keep_unknown.push((walk.packet, walk.index, addresses));
        }
    }

    /// A RTM_DELADDR of an address the model no longer holds: if the walk
    /// of its device going down announced it past addresses it would have
    /// deleted first, the kernel kept those, and they are put back.
    pub(super) fn announced_in_down_walk<S: ChangeSink>(&mut self, gone: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let Some(kept) = self.down_walk.as_mut().and_then(|w| w.announced(gone)) else {
            return;
        };
        let name = self.ifname(gone.index);
        let list = kept
            .iter()
            .map(|a| a.address.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        self.warnings.push(Diagnostic::record(
            ctx.packet,
            ctx.offset,
            format!(
                "the kernel announced the deletion of {} on {name} but not of {list} before it: it kept {} \
                 (keep_addr_on_down is on for {name})",
                gone.address,
                if kept.len() == 1 { "it" } else { "them" }
            ),
        ));
        // (each goes to the front of its scope's part of the list, as a
        // new one would: put back last first, they keep their order)
        for a in kept.into_iter().rev() {
            self.upsert_addr(a, ctx, sink);
        }
    }

    /// `fib_del_ifaddr` and its IPv6 counterpart: the routes an address
    /// brought go with it (the prefix and broadcast routes only when no
    /// other address of the device still needs them); IPv4 routes that used
    /// it as their source are flushed.
    pub(super) fn address_removed<S: ChangeSink>(&mut self, a: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let index = a.index;
        self.dad.cancel(|d| d.index == index && d.address == a.address);
        if a.family == AddressFamily::Inet6 {
            let prefix = v6_prefix(a.address, a.prefix_len);
            let still = self
                .device_addresses(index, AddressFamily::Inet6)
                .iter()
                .any(|o| o.prefix_len == a.prefix_len && v6_prefix(o.address, o.prefix_len) == prefix);
            let addr = a.address;
            let plen = a.prefix_len;
            let through_dev = |r: &RouteEntry| r.oif == Some(index) && r.gateway.is_none();
            // Its local route, and its prefix route unless another address needs it
            // (looked up by prefix: a device can hold thousands of routes).
            let mut removed = self
                .routes
                .remove_where(Through::Prefix(AddressFamily::Inet6, Some(addr), 128), |r| {
                    through_dev(r) && r.kind == RouteType::Local && r.dst == Some(addr)
                });
            // (`ipv6_del_addr` takes the prefix route along with a permanent
            // address; the link-local one the kernel made is permanent, and
            // `addrconf_add_linklocal` made its fe80::/64 for it, so it goes
            // with the last of that prefix. An address that is not
            // permanent leaves it to its own expiry, its lifetime or later:
            // 6.12 and 6.18 under a route listener announce its deletion
            // then. With a listener the model waits for that notification;
            // without one it takes the route along on the releases where
            // it expires promptly, and says so.)
            let permanent = a.flags & IFA_F_PERMANENT != 0;
            let route_listener = self.stats.per_group.get(2).is_some_and(|g| g.distinct > 0);
            let takes_prefix_route = permanent
                || !route_listener
                    && self
                        .options
                        .kernel
                        .is_none_or(|k| k.prefix_route_goes_with_any_address());
            if !still && takes_prefix_route {
                let gone = self.routes.remove_where(
                    Through::Prefix(AddressFamily::Inet6, (plen > 0).then_some(prefix), plen),
                    |r| through_dev(r) && r.kind == RouteType::Unicast && r.protocol == RouteProtocol::Kernel,
                );
                if !permanent && !gone.is_empty() {
                    self.prefix_route_assumed
                        .push((ctx.packet, index, prefix, plen, a.address));
                }
                removed.extend(gone);
            }
            removed.sort_by(super::route_order::dump_order);
            self.report_removed(removed, ctx, sink);
            return;
        }
        let mask = v4_mask(a.prefix_len);
        let prefix = v4(a.peer.unwrap_or(a.address)) & mask;
        let remaining = self.device_addresses(index, AddressFamily::Inet);
        let same_local = remaining.iter().any(|o| o.address == a.address);
        let subnet_left = remaining
            .iter()
            .any(|o| o.prefix_len == a.prefix_len && v4(o.peer.unwrap_or(o.address)) & mask == prefix);
        let addr = a.address;
        let plen = a.prefix_len;
        let primary = !a.is_secondary();
        // The source of the routes it brought: its own address, or its
        // primary's (`fib_del_ifaddr` deletes them with that prefsrc).
        let prim = match primary {
            true => Some(addr),
            false => remaining
                .iter()
                .find(|p| !p.is_secondary() && kernel_order::same_ipv4_subnet(p, a))
                .map(|p| p.address),
        };
        let brd = a.broadcast;
        let subnet_brd = IpAddr::V4(Ipv4Addr::from(prefix | !mask));
        let kernel_v4 = |r: &RouteEntry| {
            r.family == AddressFamily::Inet && r.oif == Some(index) && r.protocol == RouteProtocol::Kernel
        };
        // The routes it brought, each looked up by its prefix (a device can
        // hold thousands of routes).
        let mut removed = Vec::new();
        if !same_local {
            removed.extend(
                self.routes
                    .remove_where(Through::Prefix(AddressFamily::Inet, Some(addr), 32), |r| {
                        kernel_v4(r) && r.kind == RouteType::Local
                    }),
            );
        }
        if primary {
            let net = (plen > 0).then_some(IpAddr::V4(Ipv4Addr::from(prefix)));
            removed.extend(
                self.routes
                    .remove_where(Through::Prefix(AddressFamily::Inet, net, plen), |r| {
                        kernel_v4(r)
                            && r.prefsrc == Some(addr)
                            && (r.kind == RouteType::Unicast || r.kind == RouteType::Local)
                    }),
            );
        }
        if !subnet_left {
            let brds = brd.into_iter().chain(primary.then_some(subnet_brd));
            for b in brds {
                removed.extend(
                    self.routes
                        .remove_where(Through::Prefix(AddressFamily::Inet, Some(b), 32), |r| {
                            kernel_v4(r) && r.kind == RouteType::Broadcast && prim.is_none_or(|p| r.prefsrc == Some(p))
                        }),
                );
            }
        }
        removed.sort_by(super::route_order::dump_order);
        self.report_removed(removed, ctx, sink);
        // The device's last IPv4 address gone: IPv4 is disabled on it and
        // every IPv4 route through it goes, silently (`fib_disable_ip`).
        if self.device_addresses(index, AddressFamily::Inet).is_empty() {
            self.remove_routes(Through::Device(index), |r| r.family == AddressFamily::Inet, ctx, sink);
            self.multipath_ipv4_disabled(index, ctx, sink);
        }
        // Routes through any device that used the address as their source
        // (looked for among the devices only when such routes remain).
        if self.routes.has_source(addr) {
            let anywhere = self.addrs.values().any(|d| d.v4.iter().any(|o| o.address == addr));
            if !anywhere {
                self.remove_routes(Through::Source(addr), |r| r.family == AddressFamily::Inet, ctx, sink);
            }
        }
    }

    /// Adds one of the kernel's own routes at the end of its group unless
    /// the same route is already there.
    pub(super) fn add_kernel_route<S: ChangeSink>(
        &mut self,
        mut r: RouteEntry,
        rule: KernelRule,
        ctx: &Ctx,
        sink: &mut S,
    ) {
        if self.routes.contains(&r.key()) {
            return;
        }
        // A route a message showed for the same destination and device, in
        // another form (older kernels: `ff00::/8` a unicast route of
        // protocol boot, `::1` in table main), is the kernel's own making of
        // it: the rule adds no second one.
        let changed_form =
            matches!(rule, KernelRule::Ipv6MulticastRoute | KernelRule::Ipv6LocalRoute) && form_varies(&r);
        let shown = changed_form
            && [TableId::Local, TableId::Main].into_iter().any(|t| {
                self.routes_via(r.family, t, r.dst, r.dst_len, r.oif)
                    .any(|x| x.dst == r.dst && !matches!(x.origin, Origin::KernelRule(..)))
            });
        if shown {
            return;
        }
        r.origin = Origin::KernelRule(ctx.packet, rule);
        // (whatever the kernel's timers add after the last record is assumed)
        if self.after_capture.running {
            self.after_capture.routes.insert(r.key());
        }
        self.insert_route(r, Placement::Append, ctx, sink);
    }

    /// An IPv4 broadcast route in table local, scope link, from `prim`.
    fn add_broadcast_route<S: ChangeSink>(&mut self, b: IpAddr, index: u32, prim: IpAddr, ctx: &Ctx, sink: &mut S) {
        let mut brd = kernel_route(AddressFamily::Inet, TableId::Local, RouteType::Broadcast, b, 32, index);
        brd.scope = Scope::Link;
        brd.prefsrc = Some(prim);
        self.add_kernel_route(brd, KernelRule::Ipv4BroadcastRoute, ctx, sink);
    }

    /// The routes to a prefix in a table through output device `oif`, in
    /// dump order: found through the device's routes (a prefix such as
    /// `ff00::/8` has one per device: a thousand veths, a thousand).
    fn routes_via(
        &self,
        family: AddressFamily,
        table: TableId,
        dst: Option<IpAddr>,
        dst_len: u8,
        oif: Option<u32>,
    ) -> Box<dyn Iterator<Item = &RouteEntry> + '_> {
        match oif {
            Some(i) => Box::new(self.routes.prefix_via(family, table, dst, dst_len, i)),
            None => Box::new(
                self.routes
                    .prefix(family, table, dst, dst_len)
                    .filter(|x| x.oif.is_none()),
            ),
        }
    }

    /// A message shows a kernel-made route whose form changed between
    /// releases (`ff00::/8`, `::1`) for a device the model already gave
    /// one in another form: the model's is dropped for the kernel's.
    pub(super) fn drop_other_form<S: ChangeSink>(&mut self, shown: &RouteEntry, ctx: &Ctx, sink: &mut S) {
        if !form_varies(shown) {
            return;
        }
        let key = shown.key();
        let guessed: Vec<_> = [TableId::Local, TableId::Main]
            .into_iter()
            .flat_map(|t| {
                self.routes_via(shown.family, t, shown.dst, shown.dst_len, shown.oif)
                    .filter(|x| x.dst == shown.dst && matches!(x.origin, Origin::KernelRule(..)))
                    .map(RouteEntry::key)
                    .collect::<Vec<_>>()
            })
            .filter(|k| *k != key)
            .collect();
        for k in guessed {
            self.remove_route(&k, ctx, sink);
        }
    }

    /// Removes one address as a flush does (no promotion), with its routes.
    pub(super) fn remove_addr_entry<S: ChangeSink>(&mut self, gone: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let ifname = self.ifname(gone.index);
        let Some(dev) = self.addrs.get_mut(&gone.index) else {
            return;
        };
        let list = dev.list_mut(gone.family);
        let Some(pos) = list.iter().position(|e| e.same_key(gone)) else {
            return;
        };
        self.lifetimes.forget(&gone.key());
        let removed = list.remove(pos);
        self.prune_addrs(gone.index);
        self.address_removed(&removed, ctx, sink);
        if sink.wants_changes() {
            sink.change(ctx.event(Change::AddrRemoved {
                addr: removed,
                ifname,
                promoted: None,
                removed_secondaries: Vec::new(),
            }));
        }
    }

    /// `notified`: the kernel's notification of the deletion (not a request
    /// or an expiry): what it did with the secondaries follows.
    pub(super) fn delete_addr<S: ChangeSink>(&mut self, gone: &AddrEntry, notified: bool, ctx: &Ctx, sink: &mut S) {
        // A notification says what the kernel did: without promotion it
        // announces each secondary's deletion before the primary's
        // (`__inet_del_ifa`), so secondaries still here were promoted.
        let (promote, basis) = if notified {
            (true, PromoteBasis::Notified)
        } else {
            self.promotion(gone.index)
        };
        self.lifetimes.forget(&gone.key());
        let ifname = if sink.wants_changes() {
            self.ifname(gone.index)
        } else {
            String::new()
        };
        let Some(dev) = self.addrs.get_mut(&gone.index) else {
            return;
        };
        let list = dev.list_mut(gone.family);
        let Some(pos) = list.iter().position(|e| e.same_key(gone)) else {
            return;
        };
        let ipv4_primary = gone.family == AddressFamily::Inet && list.get(pos).is_some_and(|e| !e.is_secondary());
        if ipv4_primary
            && !notified
            && list
                .iter()
                .any(|e| e.is_secondary() && kernel_order::same_ipv4_subnet(gone, e))
        {
            // Known only from a request: what happens to the secondaries is
            // the settings', which the capture may not show.
            if basis.is_assumed() {
                self.assumed_promotion.get_or_insert((ctx.packet, basis));
            }
        }
        // Computed on the list that still holds the deleted address.
        let moved = if ipv4_primary && promote {
            kernel_order::ipv4_promotion(list, pos)
        } else {
            None
        };
        let removed = list.remove(pos);
        let mut promoted = None;
        let mut removed_secondaries = Vec::new();
        // On promotion the subnet's secondaries change their primary: their
        // routes are taken away and come back with the new source.
        let mut subnet: Vec<AddrEntry> = Vec::new();
        if ipv4_primary {
            if promote {
                if let Some((from, to)) = moved {
                    let mut p = list.remove(from);
                    p.flags &= !IFA_F_SECONDARY;
                    p.header_flags &= !(IFA_F_SECONDARY as u8);
                    p.origin = Origin::KernelRule(ctx.packet, KernelRule::Ipv4Promotion);
                    list.insert(to, p.clone());
                    subnet = list
                        .iter()
                        .filter(|e| kernel_order::same_ipv4_subnet(&removed, e))
                        .cloned()
                        .collect();
                    promoted = Some(p);
                }
            } else {
                removed_secondaries
                    .extend(list.extract_if(.., |e| e.is_secondary() && kernel_order::same_ipv4_subnet(&removed, e)));
            }
        }
        let old_src = removed.address;
        let index = removed.index;
        self.prune_addrs(index);
        self.address_removed(&removed, ctx, sink);
        for s in &removed_secondaries {
            self.address_removed(s, ctx, sink);
        }
        if !subnet.is_empty() {
            self.remove_routes(
                Through::Source(old_src),
                |r| r.family == AddressFamily::Inet && r.oif == Some(index),
                ctx,
                sink,
            );
            for a in &subnet {
                self.address_added(a, ctx, sink);
            }
        }
        if sink.wants_changes() {
            sink.change(ctx.event(Change::AddrRemoved {
                addr: removed,
                ifname,
                promoted,
                removed_secondaries,
            }));
        }
    }

    /// The addresses whose valid lifetime ran out by this message: the
    /// kernel deletes them itself (`check_lifetime`, `addrconf_verify`),
    /// as an `ip addr del` would, announcing it only to listeners. Each
    /// is said to have expired at its end (inferred), then removed.
    /// `shown`: an address the message being applied deletes: its end is
    /// that record's change, not an inferred one.
    // (asked at every message: the common answer, none due, is given inline)
    #[inline(always)]
    pub(super) fn expire_addresses<S: ChangeSink>(&mut self, ctx: &Ctx, shown: Option<AddrKey>, sink: &mut S) {
        let Some(next) = self.lifetimes.next_end() else { return };
        let Some(now) = ctx.ts.map(nanos) else { return };
        if next > now {
            return;
        }
        self.expire_due(now, ctx, shown, sink);
    }

    fn expire_due<S: ChangeSink>(&mut self, now: u64, ctx: &Ctx, shown: Option<AddrKey>, sink: &mut S) {
        for (end, key) in self.lifetimes.due(now) {
            let (index, family, ..) = key;
            let Some(e) = self
                .device_addresses(index, family)
                .iter()
                .find(|a| a.key() == key)
                .cloned()
            else {
                continue;
            };
            // The message being applied deletes it: the deletion is that
            // record's, with its time (in the kernel's order, the lifetimes'),
            // not an inferred one.
            let notified = shown == Some(key);
            let at = if notified {
                *ctx
            } else {
                Ctx {
                    ts: Some(timestamp(end)),
                    timer: true,
                    ..*ctx
                }
            };
            if self.after_capture.running {
                self.after_capture.expired.push((index, e.cidr()));
            }
            // (the kernel's lifetime worker runs when it has scheduled
            // itself, up to seconds after the end: until a message shows
            // the deletion, said)
            if !notified && !self.after_capture.running {
                self.expired_unshown.push((ctx.packet, e.clone()));
            }
            if sink.wants_changes() {
                sink.change(at.event(Change::AddrExpired {
                    addr: e.clone(),
                    ifname: self.ifname(index),
                    notified,
                }));
            }
            self.delete_addr(&e, false, &at, sink);
        }
    }
}

/// A kernel-made route whose type, protocol or table changed between
/// releases: `ff00::/8` (unicast proto boot before 5.11) and `::1`.
fn form_varies(r: &RouteEntry) -> bool {
    r.family == AddressFamily::Inet6
        && matches!(r.dst, Some(IpAddr::V6(d)) if (d.segments()[0] == 0xff00 && r.dst_len == 8) || d == Ipv6Addr::LOCALHOST)
}

#[cfg(test)]
mod dad_order_tests {
    use super::PendingDad;
    use crate::capture::Timestamp;
    use crate::model::state::{Model, ModelOptions};
    use std::net::IpAddr;

    fn dad(index: u32, address: &str, secs: i64, nanos: u32) -> PendingDad {
        PendingDad {
            index,
            address: address.parse::<IpAddr>().unwrap_or(IpAddr::from([0u8; 16])),
            started: Some(Timestamp { secs, nanos }),
            packet: 1,
            from_dump: false,
        }
    }

    /// Only the same address on two devices, whose DADs began less than
    /// the random delay apart, has local routes whose order is unknown.
    #[test]
    fn the_order_of_unseen_dads_is_unknown_only_where_it_shows() {
        let mut m = Model::new(ModelOptions::default());
        m.note_unseen_dad_order(&[
            dad(2, "fd00::1", 10, 0),
            dad(3, "fd00::1", 10, 400_000_000),
            dad(2, "fd00::2", 10, 0),
            dad(3, "fd00::3", 10, 0),
            // a second apart: the first one's DAD surely ended first
            dad(2, "fd00::4", 10, 0),
            dad(3, "fd00::4", 11, 500_000_000),
        ]);
        assert_eq!(
            m.dad_order_unknown,
            vec!["fd00::1".parse::<IpAddr>().unwrap_or(IpAddr::from([0u8; 4]))]
        );
        let fd00 = IpAddr::from([0xfd00u16, 0, 0, 0, 0, 0, 0, 1]);
        assert!(
            m.assumptions()
                .contains(&crate::model::assumption::Assumption::LocalRouteOrderUnknown { address: fd00 })
        );
    }
}
