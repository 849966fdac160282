//! Notifications (RTM_NEW*/RTM_DEL* outside dumps) applied where the kernel
//! puts them.
//!
//! Contract: an update of a known entry keeps its position; a new entry is
//! placed by the rules of `kernel_order` and marked `Inferred`; a deleted
//! IPv4 primary takes its secondaries along or promotes one, as the
//! `promote_secondaries` option says.

use super::changes::{Change, ChangeSink};
use super::entries::{AddrEntry, LinkEntry, Origin, RouteEntry};
use super::kernel_order;
use super::{Ctx, Model};
use crate::netlink::Body;
use crate::netlink::names::*;

impl Model {
    pub(super) fn apply_notification<S: ChangeSink>(&mut self, body: &Body<'_>, kind: u16, ctx: &Ctx, sink: &mut S) {
        let origin = Origin::Inferred(ctx.packet);
        match (body, kind) {
            (Body::Link(l), _) if l.family == AF_BRIDGE => self.stats.bridge_port_events += 1,
            (Body::Link(l), RTM_DELLINK) => self.delete_link(l.index, ctx, sink),
            (Body::Link(l), _) => self.upsert_link(LinkEntry::from_message(l, origin), ctx, sink),
            (Body::Addr(a), RTM_DELADDR) => {
                if let Some(e) = AddrEntry::from_message(a, origin) {
                    self.delete_addr(&e, ctx, sink);
                }
            }
            (Body::Addr(a), _) => {
                if let Some(e) = AddrEntry::from_message(a, origin) {
                    self.upsert_addr(e, ctx, sink);
                }
            }
            (Body::Route(r), _) if r.flags & RTM_F_CLONED != 0 => {}
            (Body::Route(r), RTM_DELROUTE) => {
                let e = RouteEntry::from_message(r, origin, 0);
                if let Some(old) = self.routes.remove(&e.key())
                    && sink.wants_changes()
                {
                    sink.change(ctx.event(Change::RouteRemoved(old)));
                }
            }
            (Body::Route(r), _) => self.upsert_route(RouteEntry::from_message(r, origin, 0), ctx, sink),
            _ => {}
        }
    }

    pub(super) fn upsert_link<S: ChangeSink>(&mut self, new: LinkEntry, ctx: &Ctx, sink: &mut S) {
        if let Some(pos) = self.links.iter().position(|l| l.index == new.index) {
            let old = std::mem::replace(&mut self.links[pos], new);
            let cur = &mut self.links[pos];
            // An update does not move the device; a placeholder becomes real.
            if !old.placeholder {
                cur.origin = old.origin;
            }
            if !sink.wants_changes() || old.placeholder {
                return;
            }
            let cur = cur.clone();
            if old.name != cur.name {
                sink.change(ctx.event(Change::LinkRenamed {
                    from: old.name.display(),
                    link: cur.clone(),
                }));
            }
            if (old.flags & IFF_UP) != (cur.flags & IFF_UP) || old.operstate != cur.operstate {
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
        let pos = kernel_order::link_insert_position(&self.links, new.index, self.link_order);
        if matches!(new.origin, Origin::Inferred(_)) {
            self.created_links.insert(new.index);
        }
        if sink.wants_changes() {
            sink.change(ctx.event(Change::LinkAdded(new.clone())));
        }
        self.links.insert(pos, new);
    }

    fn delete_link<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let Some(pos) = self.links.iter().position(|l| l.index == index) else {
            if self.seen_link_dump {
                self.warn(
                    ctx,
                    format!("RTM_DELLINK for ifindex {index}, which the model does not know"),
                );
            }
            return;
        };
        let link = self.links.remove(pos);
        // The kernel announces the addresses' removal first; routes through
        // the device go silently.
        self.addrs.remove(&index);
        self.routes.retain(|_, r| r.oif != Some(index));
        self.created_links.remove(&index);
        if sink.wants_changes() {
            sink.change(ctx.event(Change::LinkRemoved(link)));
        }
    }

    pub(super) fn upsert_addr<S: ChangeSink>(&mut self, new: AddrEntry, ctx: &Ctx, sink: &mut S) {
        self.ensure_link(new.index, ctx);
        let ifname = if sink.wants_changes() {
            self.ifname(new.index)
        } else {
            String::new()
        };
        let family = new.family;
        let index = new.index;
        let first_of_new_link = self.created_links.contains(&index)
            && self.device_addresses(index, AF_INET).is_empty()
            && self.device_addresses(index, AF_INET6).is_empty();
        let list = self.addrs.entry(index).or_default().list_mut(family);
        if let Some(pos) = list.iter().position(|e| e.same_key(&new)) {
            let old_flags = list[pos].flags;
            let promoted = family == AF_INET && list[pos].is_secondary() && !new.is_secondary();
            if promoted {
                // Promotion the model did not see coming: move by the insert rule.
                list.remove(pos);
                let at = kernel_order::ipv4_insert_position(list, &new);
                list.insert(at, new.clone());
            } else {
                let keep = list[pos].origin;
                list[pos] = new.clone();
                if matches!(new.origin, Origin::Inferred(_)) {
                    list[pos].origin = keep;
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
        let pos = if family == AF_INET {
            kernel_order::ipv4_insert_position(list, &new)
        } else {
            kernel_order::ipv6_insert_position(list, &new)
        };
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

    fn delete_addr<S: ChangeSink>(&mut self, gone: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let promote = self.options.promote_secondaries;
        let seen_dump = self.seen_addr_dump[usize::from(gone.family == AF_INET6)];
        let ifname = if sink.wants_changes() {
            self.ifname(gone.index)
        } else {
            String::new()
        };
        let Some(dev) = self.addrs.get_mut(&gone.index) else {
            if seen_dump {
                self.warn(
                    ctx,
                    format!("RTM_DELADDR of {} on unknown ifindex {}", gone.cidr(), gone.index),
                );
            }
            return;
        };
        let list = dev.list_mut(gone.family);
        let Some(pos) = list.iter().position(|e| e.same_key(gone)) else {
            if seen_dump {
                let msg = format!(
                    "RTM_DELADDR of {} on {ifname}, which the model does not have",
                    gone.cidr()
                );
                self.warn(ctx, msg);
            }
            return;
        };
        let ipv4_primary = gone.family == AF_INET && !list[pos].is_secondary();
        // Computed on the list that still holds the deleted address.
        let moved = if ipv4_primary && promote {
            kernel_order::ipv4_promotion(list, pos)
        } else {
            None
        };
        let removed = list.remove(pos);
        let mut promoted = None;
        let mut removed_secondaries = Vec::new();
        if ipv4_primary {
            if promote {
                if let Some((from, to)) = moved {
                    let mut p = list.remove(from);
                    p.flags &= !IFA_F_SECONDARY;
                    p.header_flags &= !(IFA_F_SECONDARY as u8);
                    p.origin = Origin::Inferred(ctx.packet);
                    list.insert(to, p.clone());
                    promoted = Some(p);
                }
            } else {
                let mut i = 0;
                while i < list.len() {
                    if list[i].is_secondary() && kernel_order::same_ipv4_subnet(&removed, &list[i]) {
                        removed_secondaries.push(list.remove(i));
                    } else {
                        i += 1;
                    }
                }
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

    pub(super) fn upsert_route<S: ChangeSink>(&mut self, mut new: RouteEntry, ctx: &Ctx, sink: &mut S) {
        use std::collections::hash_map::Entry;
        match self.routes.entry(new.key()) {
            Entry::Occupied(mut slot) => {
                let old = slot.get_mut();
                new.seq = old.seq;
                if matches!(new.origin, Origin::Inferred(_)) {
                    new.origin = old.origin;
                }
                *old = new;
            }
            Entry::Vacant(slot) => {
                new.seq = self.next_route_seq;
                self.next_route_seq += 1;
                if sink.wants_changes() {
                    sink.change(ctx.event(Change::RouteAdded(new.clone())));
                }
                slot.insert(new);
            }
        }
    }
}
