//! The operations on the tables that every rule shares: a link, an
//! address or a route put in its place or taken out, each change told to
//! the sink.
//!
//! Contract: an update of a known entry keeps its position (except an IPv4
//! secondary reported as primary, a promotion the model did not see coming,
//! which moves where a new primary goes); a new entry is placed by the rules
//! of `kernel_order` (routes by `route_order`, see [`Placement`]); what goes
//! is reported in dump order. Nothing here reacts to a change: the kernel's
//! side effects are `address_rules`' and `link_rules`', above (and so is
//! deleting an address or a link, which cannot go without them).

use super::changes::{Change, ChangeSink};
use super::entries::{AddrEntry, KernelRule, LinkEntry, Origin, RouteEntry, RouteKey};
use super::kernel_order;
use super::route_table::Through;
use super::state::{Ctx, Model};
use crate::netlink::names::*;
use crate::netlink::values::{AddressFamily, RouteType, Scope, TableId};

/// How a new route joins the routes of its group (same table, prefix, tos, metric).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// At the end of the group (`NLM_F_APPEND`, `NLM_F_EXCL`, the kernel's own routes, IPv6).
    Append,
    /// At the head of the group (IPv4 `NLM_F_CREATE` alone: `ip route prepend`).
    Prepend,
    /// In place of the group's first route (`NLM_F_REPLACE`).
    Replace,
}

impl Placement {
    /// From the flags of a request or of the kernel's notification.
    pub fn from_flags(family: AddressFamily, flags: u16) -> Placement {
        if flags & NLM_F_REPLACE != 0 {
            Placement::Replace
        } else if family == AddressFamily::Inet && flags & (NLM_F_APPEND | NLM_F_EXCL) == 0 && flags & NLM_F_CREATE != 0
        {
            Placement::Prepend
        } else {
            Placement::Append
        }
    }
}

impl Model {
    pub(super) fn upsert_link<S: ChangeSink>(&mut self, new: LinkEntry, ctx: &Ctx, sink: &mut S) {
        if let Some(old) = self.links.get(new.index) {
            let mut cur = new;
            // An update does not move the device; a placeholder becomes real.
            if !old.placeholder && !cur.origin.is_dump() {
                cur.origin = old.origin;
            }
            let Some(old) = self.links.replace(cur.clone()) else {
                return;
            };
            if !sink.wants_changes() || old.placeholder {
                return;
            }
            if old.name != cur.name {
                sink.change(ctx.event(Change::LinkRenamed {
                    from: old.name.display(),
                    link: cur.clone(),
                }));
            }
            // (a reply filling in a state the model never knew is no change)
            if (old.flags & IFF_UP) != (cur.flags & IFF_UP)
                || (old.operstate.is_some() && old.operstate != cur.operstate)
            {
                sink.change(ctx.event(Change::LinkState {
                    link: cur.clone(),
                    was_up: old.flags & IFF_UP != 0,
                    was_operstate: old.operstate,
                }));
            }
            if old.master != cur.master {
                sink.change(ctx.event(Change::LinkMaster {
                    link: cur,
                    was: old.master,
                }));
            }
            return;
        }
        if !new.origin.is_dump() {
            self.created_links.insert(new.index);
            let assigned = matches!(new.origin, Origin::KernelRule(_, KernelRule::AssignedIndex));
            let kind = new.kind.as_ref().map(|k| k.as_bytes());
            self.allocations.note(new.index, assigned, kind, ctx.packet);
        }
        if !matches!(new.origin, Origin::KernelRule(_, KernelRule::AssignedIndex)) {
            self.allocations.shown(new.index);
        }
        if sink.wants_changes() {
            sink.change(ctx.event(Change::LinkAdded(new.clone())));
        }
        self.links.insert(new, self.link_order);
    }

    pub(super) fn upsert_addr<S: ChangeSink>(&mut self, new: AddrEntry, ctx: &Ctx, sink: &mut S) {
        self.note_lifetime(&new, ctx);
        if self.after_capture.running {
            self.after_capture.addrs.insert(new.key());
        }
        self.ensure_link(new.index, ctx);
        // A device only addresses showed: an IPv4 label starts with the
        // device's name (`eth0`, `eth0:1`), the only name the capture gives.
        if new.family == AddressFamily::Inet
            && let Some(label) = new.label
            && self.link(new.index).is_some_and(|l| l.placeholder && !l.has_name())
        {
            let base = label.as_bytes().split(|&b| b == b':').next().unwrap_or_default();
            self.links
                .update(new.index, |l| l.name = super::entries::ShortName::new(base));
        }
        let ifname = if sink.wants_changes() {
            self.ifname(new.index)
        } else {
            String::new()
        };
        let family = new.family;
        let index = new.index;
        let first_of_new_link = self.created_links.contains(&index)
            && self.device_addresses(index, AddressFamily::Inet).is_empty()
            && self.device_addresses(index, AddressFamily::Inet6).is_empty();
        // The link-local address the model made without knowing the MAC: the
        // kernel's own (EUI-64) one takes its place.
        let unknown_ll = family == AddressFamily::Inet6
            && new.scope == Scope::Link
            && !new.origin.is_dump()
            && self.state(index).unknown_link_local
            && (is_eui64(&new)
                || (self.state(index).unknown_link_local_why == super::entries::UnknownWhy::Random
                    && new.prefix_len == 64));
        let list = self.addrs.entry(index).or_default().list_mut(family);
        if list.is_empty() {
            // (its first address of the family: it is about to hold one)
            let [v4, v6] = &mut self.holders;
            (if family == AddressFamily::Inet6 { v6 } else { v4 }).insert(index);
        }
        if unknown_ll
            && let Some(made) = list
                .iter_mut()
                .find(|e| matches!(e.origin, Origin::KernelRule(_, KernelRule::Ipv6LinkLocal)) && e.address == fe80())
        {
            let origin = made.origin;
            *made = AddrEntry { origin, ..new };
            self.state_mut(index).unknown_link_local = false;
            return;
        }
        if let Some((pos, cur)) = list.iter_mut().enumerate().find(|(_, e)| e.same_key(&new)) {
            let old_flags = cur.flags;
            let promoted = family == AddressFamily::Inet && cur.is_secondary() && !new.is_secondary();
            if promoted {
                // Promotion the model did not see coming: move by the insert rule.
                list.remove(pos);
                let at = kernel_order::ipv4_insert_position(list, &new);
                list.insert(at, new.clone());
            } else {
                let keep = cur.origin;
                *cur = new.clone();
                if !new.origin.is_dump() {
                    cur.origin = keep;
                }
            }
            if sink.wants_changes() && old_flags != new.flags {
                sink.change(ctx.event(Change::AddrChanged {
                    addr: new,
                    ifname,
                    old_flags,
                }));
            }
            return;
        }
        let pos = if family == AddressFamily::Inet {
            kernel_order::ipv4_insert_position(list, &new)
        } else {
            kernel_order::ipv6_insert_position(list, &new)
        };
        let pos = if family == AddressFamily::Inet6 {
            self.slaac_position(index, &new, pos)
        } else {
            pos
        };
        let list = self.addrs.entry(index).or_default().list_mut(family);
        list.insert(pos, new.clone());
        if sink.wants_changes() {
            sink.change(ctx.event(Change::AddrAdded {
                addr: new,
                ifname,
                position: pos,
                new_link: first_of_new_link.then_some(index),
            }));
        }
    }

    /// Adds a route where the kernel would, or replaces the first of its group.
    pub(super) fn insert_route<S: ChangeSink>(
        &mut self,
        new: RouteEntry,
        placement: Placement,
        ctx: &Ctx,
        sink: &mut S,
    ) {
        let kept = |old: &RouteEntry, new: &mut RouteEntry| {
            if !new.origin.is_dump() {
                new.origin = old.origin;
            }
        };
        let mut new = match self.routes.update_with(new, kept) {
            Ok(()) => return,
            Err(new) => new,
        };
        // (appending needs no look at the group: the next seq is its end)
        let first = match placement {
            Placement::Append => None,
            _ => self.routes.group_first(&new),
        };
        new.seq = match (placement, first) {
            (Placement::Prepend, Some((_, s))) => s - 1,
            (Placement::Replace, Some((k, s))) => {
                if let Some(old) = self.routes.remove(&k)
                    && sink.wants_changes()
                {
                    let dev = self.route_dev(&old);
                    sink.change(ctx.event(Change::RouteRemoved { route: old, dev }));
                }
                s
            }
            _ => self.routes.next_seq(),
        };
        if sink.wants_changes() {
            sink.change(ctx.event(Change::RouteAdded {
                route: new.clone(),
                dev: self.route_dev(&new),
            }));
        }
        self.routes.insert_new(new);
    }

    /// Removes the routes through a device, or with a source, that `gone`
    /// selects, reporting each in dump order.
    pub(super) fn remove_routes<S: ChangeSink>(
        &mut self,
        through: Through,
        gone: impl Fn(&RouteEntry) -> bool,
        ctx: &Ctx,
        sink: &mut S,
    ) {
        let removed = self.routes.remove_where(through, gone);
        self.report_removed(removed, ctx, sink);
    }

    /// Removes the route with this key, reporting it.
    pub(super) fn remove_route<S: ChangeSink>(&mut self, key: &RouteKey, ctx: &Ctx, sink: &mut S) {
        let removed: Vec<RouteEntry> = self.routes.remove(key).into_iter().collect();
        self.report_removed(removed, ctx, sink);
    }

    pub(super) fn report_removed<S: ChangeSink>(&mut self, removed: Vec<RouteEntry>, ctx: &Ctx, sink: &mut S) {
        if sink.wants_changes() {
            for r in removed {
                let dev = self.route_dev(&r);
                sink.change(ctx.event(Change::RouteRemoved { route: r, dev }));
            }
        }
    }

    /// Everything of a deleted device: its addresses and every route through it.
    pub(super) fn device_gone<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        self.addrs.remove(&index);
        self.sync_holders(index);
        self.remove_routes(Through::Device(index), |_| true, ctx, sink);
        self.devices.remove(&index);
        self.dad.cancel(|d| d.index == index);
    }
}

impl Model {
    /// A local route in table local the kernel announced names an IPv6
    /// address of its device (`ipv6_ifa_notify` at NETDEV_UP, or an
    /// optimistic address's route made before its duplicate address
    /// detection ends, when the address is announced): a link-local
    /// placeholder takes it (`link_local_named_by_route`); another address
    /// no message has shown is noted, said until a message shows it (its
    /// prefix length and flags are not in the route).
    pub(super) fn address_named_by_route(&mut self, r: &RouteEntry, packet: u64) {
        let (Some(a @ std::net::IpAddr::V6(v6)), Some(index)) = (r.dst, r.oif) else {
            return;
        };
        let local = r.kind == RouteType::Local && r.dst_len == 128 && r.table == TableId::Local;
        if !local || v6.is_unicast_link_local() || v6.is_loopback() {
            return;
        }
        if self
            .device_addresses(index, AddressFamily::Inet6)
            .iter()
            .any(|e| e.address == a)
            || self.unshown_by_local.iter().any(|u| u.1 == index && u.2 == a)
        {
            return;
        }
        self.unshown_by_local.push((packet, index, a, r.key()));
    }

    /// A `local` route of table local to a link-local address names that
    /// address (`addrconf` makes one for each of the device's addresses):
    /// the link-local address the model made without knowing its interface
    /// id, shown as `fe80::`, is that one. It takes the real address in
    /// its place, and a local route the model made for the placeholder
    /// goes.
    pub(super) fn link_local_named_by_route<S: ChangeSink>(&mut self, r: &RouteEntry, ctx: &Ctx, sink: &mut S) {
        let (Some(std::net::IpAddr::V6(a)), Some(index)) = (r.dst, r.oif) else {
            return;
        };
        let local = r.family == AddressFamily::Inet6
            && r.kind == RouteType::Local
            && r.dst_len == 128
            && r.table == TableId::Local
            && a.segments()[0] & 0xffc0 == 0xfe80;
        if !local || !self.state(index).unknown_link_local {
            return;
        }
        let real = std::net::IpAddr::V6(a);
        let ifname = if sink.wants_changes() {
            self.ifname(index)
        } else {
            String::new()
        };
        let Some(list) = self.addrs.get_mut(&index).map(|d| d.list_mut(AddressFamily::Inet6)) else {
            return;
        };
        let placeholder =
            |e: &AddrEntry| matches!(e.origin, Origin::KernelRule(_, KernelRule::Ipv6LinkLocal)) && e.address == fe80();
        let Some(pos) = list.iter().position(placeholder) else {
            return;
        };
        let known = list.iter().any(|e| e.address == real);
        let old = if known {
            Some(list.remove(pos))
        } else {
            list.get_mut(pos).map(|made| {
                let old = made.clone();
                made.address = real;
                old
            })
        };
        let added = (!known).then(|| list.get(pos).cloned()).flatten();
        self.state_mut(index).unknown_link_local = false;
        if sink.wants_changes() {
            if let Some(addr) = old {
                sink.change(ctx.event(Change::AddrRemoved {
                    addr,
                    ifname: ifname.clone(),
                    promoted: None,
                    removed_secondaries: Vec::new(),
                }));
            }
            if let Some(addr) = added {
                sink.change(ctx.event(Change::AddrAdded {
                    addr,
                    ifname,
                    position: pos,
                    new_link: None,
                }));
            }
        }
        let made_local = |x: &RouteEntry| {
            x.kind == RouteType::Local && x.dst == Some(fe80()) && x.dst_len == 128 && !x.origin.is_dump()
        };
        self.remove_routes(Through::Device(index), made_local, ctx, sink);
    }
}

fn fe80() -> std::net::IpAddr {
    std::net::IpAddr::V6(std::net::Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0))
}

/// An EUI-64 interface identifier (`..:xxff:fexx:..`) under fe80::/64.
fn is_eui64(a: &AddrEntry) -> bool {
    match a.address {
        std::net::IpAddr::V6(v6) => {
            let o = v6.octets();
            a.prefix_len == 64 && o[..8] == [0xfe, 0x80, 0, 0, 0, 0, 0, 0] && o[11] == 0xff && o[12] == 0xfe
        }
        std::net::IpAddr::V4(_) => false,
    }
}
