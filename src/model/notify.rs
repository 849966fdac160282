//! Notifications (RTM_NEW*/RTM_DEL* outside dumps) and single GET replies
//! applied where the kernel puts them, and the operations on the tables
//! that requests and the kernel's own rules share.
//!
//! Contract: an update of a known entry keeps its position (except an IPv4
//! secondary reported as primary, a promotion the model did not see coming,
//! which moves where a new primary goes); a new entry is placed by the rules
//! of `kernel_order` (routes by `route_order`); a deleted IPv4 primary takes
//! its secondaries along or promotes one, as the `promote_secondaries`
//! option says. After each change the kernel's side effects
//! (`kernel_rules`) follow; all of it is idempotent, so a change seen as a
//! request, its notification and N listeners' copies count once.

use super::changes::{Change, ChangeSink};
use super::entries::{AddrEntry, KernelRule, LinkEntry, Origin, RouteEntry};
use super::kernel_order;
use super::route_table::Through;
use super::state::{Ctx, Model};
use super::tables::Placement;
use crate::netlink::Body;
use crate::netlink::names::*;
use crate::netlink::rtnl::Netns;

impl Model {
    pub(super) fn apply_notification<S: ChangeSink>(
        &mut self,
        body: &Body<'_>,
        kind: u16,
        flags: u16,
        ctx: &Ctx,
        sink: &mut S,
    ) {
        let origin = Origin::Inferred(ctx.packet);
        match (body, kind) {
            (Body::Link(l), _) if l.family == AF_BRIDGE => self.stats.bridge_port_events += 1,
            (Body::Link(l), RTM_DELLINK) => {
                if self.link(l.index).is_none() {
                    if self.seen_link_dump {
                        self.warn(
                            ctx,
                            format!("RTM_DELLINK for ifindex {}, which the model does not know", l.index),
                        );
                    }
                    return;
                }
                self.remove_link(l.index, ctx, sink);
            }
            (Body::Link(l), _) => {
                // A device the model does not know, announced down: just
                // made (`register_netdevice` announces it before anything
                // can bring it up). One announced up existed before.
                let made = self.link(l.index).is_none_or(|x| x.placeholder) && l.flags & IFF_UP == 0;
                self.link_message(LinkEntry::from_message(l, origin), made, ctx, sink)
            }
            (Body::Addr(a), RTM_DELADDR) => {
                if let Some(e) = AddrEntry::from_message(a, origin)
                    && let Some(have) = self
                        .device_addresses(e.index, e.family)
                        .iter()
                        .find(|x| x.same_key(&e))
                        .cloned()
                {
                    self.delete_addr(&have, ctx, sink);
                }
            }
            (Body::Addr(a), _) => {
                if let Some(e) = AddrEntry::from_message(a, origin) {
                    if e.family == AF_INET6 && e.flags & IFA_F_TENTATIVE == 0 {
                        // The kernel announces an address when its DAD has ended.
                        self.finish_dad(None, Some((e.index, e.address)), ctx, sink);
                    }
                    let new = !self.device_addresses(e.index, e.family).iter().any(|x| x.same_key(&e));
                    self.upsert_addr(e.clone(), ctx, sink);
                    if new {
                        self.address_added(&e, ctx, sink);
                    }
                }
            }
            (Body::Route(r), _) if r.flags & RTM_F_CLONED != 0 => {}
            (Body::Route(r), RTM_DELROUTE) => {
                let key = RouteEntry::from_message(r, origin, 0).key();
                self.remove_route(&key, ctx, sink);
            }
            (Body::Route(r), _) => {
                let e = RouteEntry::from_message(r, origin, 0);
                // (a route the model has is updated in place whatever the flags)
                let placement = Placement::from_flags(e.family, flags);
                self.insert_route(e, placement, ctx, sink);
            }
            _ => {}
        }
    }

    /// The reply to a GET for one object: the kernel's view of it now.
    pub(super) fn apply_reply<S: ChangeSink>(&mut self, body: &Body<'_>, ctx: &Ctx, sink: &mut S) {
        let origin = Origin::Dump(ctx.packet);
        match body {
            Body::Link(l) if l.family != AF_BRIDGE => {
                let new = LinkEntry::from_message(l, origin);
                // Another device the model numbered itself sits at that index:
                // the kernel says it is elsewhere, so number it again.
                if let Some(other) = self
                    .links
                    .as_slice()
                    .iter()
                    .find(|x| {
                        x.index == new.index
                            && x.name != new.name
                            && matches!(x.origin, Origin::KernelRule(_, KernelRule::AssignedIndex))
                    })
                    .map(|x| x.index)
                {
                    let to = self.next_free_index(other);
                    self.reindex(other, to);
                }
                // A device the model numbered itself: the reply tells the real index.
                if let Some(guess) = self
                    .links
                    .as_slice()
                    .iter()
                    .find(|x| {
                        x.name == new.name
                            && x.index != new.index
                            && matches!(x.origin, Origin::KernelRule(_, KernelRule::AssignedIndex))
                    })
                    .map(|x| x.index)
                {
                    self.reindex(guess, new.index);
                }
                let index = new.index;
                // (a kernel that syncs linkwatch on GETLINK has run the
                // device's event before it answered)
                self.linkwatch_sync(index, ctx, sink);
                self.link_message(new, false, ctx, sink);
                self.sync_link_state(index);
            }
            Body::Addr(_) => self.apply_notification(body, RTM_NEWADDR, 0, ctx, sink),
            Body::Route(_) => self.apply_notification(body, RTM_NEWROUTE, 0, ctx, sink),
            _ => {}
        }
    }

    /// Moves everything of a device the model numbered to its real index.
    fn reindex(&mut self, from: u32, to: u32) {
        if self.link(to).is_some() {
            return;
        }
        self.links.reindex(from, to, self.link_order);
        if let Some(mut d) = self.addrs.remove(&from) {
            for a in d.v4.iter_mut().chain(d.v6.iter_mut()) {
                a.index = to;
            }
            self.addrs.insert(to, d);
        }
        self.sync_holders(from);
        self.sync_holders(to);
        self.routes.move_device(from, to);
        self.lw.reindex(from, to);
        if let Some(mut state) = self.devices.remove(&from) {
            // (whether a bridge had ports is the ports' to say again)
            state.had_ports = false;
            self.devices.insert(to, state);
        }
    }

    /// A link as a message describes it (notification or reply), then the
    /// kernel's reaction to its state. `made`: the message announces a
    /// device just registered.
    fn link_message<S: ChangeSink>(&mut self, mut new: LinkEntry, made: bool, ctx: &Ctx, sink: &mut S) {
        let index = new.index;
        let old = self.link(index).cloned();
        if let Some(old) = &old {
            if !new.link_elsewhere {
                new.peer = new.peer.or(old.peer);
            }
            new.hwaddr_set |= old.hwaddr_set;
            if new.hwaddr.is_none() {
                new.hwaddr = old.hwaddr;
            }
            if new.kind.is_none() {
                new.kind = old.kind;
            }
            if new.link.is_none() {
                new.link = old.link;
                new.link_elsewhere = old.link_elsewhere;
            }
        }
        if new.link_elsewhere && new.flags & IFF_UP != 0 && new.kind.is_some_and(|k| k.as_bytes() == b"veth") {
            self.state_mut(index).foreign_peer_down = new.flags & IFF_LOWER_UP == 0;
        }
        let renamed = old.as_ref().is_some_and(|o| !o.placeholder && o.name != new.name);
        let masters = [old.as_ref().and_then(|o| o.master), new.master];
        let name = new.name;
        self.upsert_link(new, ctx, sink);
        if made {
            self.registered(index);
        }
        self.note_link_message(index);
        if renamed {
            self.relabel(index, name, ctx, sink);
        }
        for b in masters.into_iter().flatten() {
            self.bridge_address(b);
        }
        self.links_changed(Some(index), masters.into_iter().flatten(), ctx, sink);
    }

    /// A device is gone, with everything on it, and the VLANs and macvlans
    /// stacked on it (they are unregistered with their lower device).
    pub(super) fn remove_link<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        self.link_gone(index, None, ctx, sink);
    }

    /// A link sent to another namespace (`dev_change_net_namespace`): gone
    /// from this one as if deleted, with its addresses, routes and bridge
    /// port, except that its VLANs and macvlans stay (they are unregistered
    /// only when it is). A veth peer left here now has its peer elsewhere:
    /// its carrier is what that peer does there, which this capture cannot
    /// show.
    pub(super) fn link_moved_away<S: ChangeSink>(&mut self, index: u32, to: Netns, ctx: &Ctx, sink: &mut S) {
        let peer = self.link(index).and_then(|l| l.peer);
        self.link_gone(index, Some(to), ctx, sink);
        if let Some(p) = peer {
            self.links.update(p, |l| {
                l.peer = None;
                l.link = None;
                l.link_elsewhere = true;
            });
            self.links_changed(Some(p), std::iter::empty(), ctx, sink);
        }
    }

    fn link_gone<S: ChangeSink>(&mut self, index: u32, moved: Option<Netns>, ctx: &Ctx, sink: &mut S) {
        let mut stacked: Vec<u32> = self
            .links
            .followers(index)
            .iter()
            .filter_map(|&i| self.link(i))
            .filter(|l| {
                l.index != index
                    && l.link == Some(index)
                    && l.kind
                        .is_some_and(|k| matches!(k.as_bytes(), b"vlan" | b"macvlan" | b"ipvlan" | b"macvtap"))
            })
            .map(|l| l.index)
            .filter(|_| moved.is_none())
            .collect();
        // (in dump order, as the kernel walks them)
        stacked.sort_by_key(|&i| self.links.position_of(i));
        for s in stacked {
            self.remove_link(s, ctx, sink);
        }
        // The devices whose carrier followed this one react after it.
        let followers: Vec<u32> = self.links.followers(index).to_vec();
        let Some(link) = self.links.remove(index) else {
            return;
        };
        // The kernel announces the addresses' removal first; IPv4 routes
        // through the device go silently.
        self.device_gone(index, ctx, sink);
        self.created_links.remove(&index);
        for port in self.links.ports(index).to_vec() {
            self.links.update(port, |l| l.master = None);
        }
        if let Some(m) = link.master {
            self.bridge_address(m);
        }
        let master = link.master;
        if sink.wants_changes() {
            sink.change(ctx.event(match moved {
                Some(to) => Change::LinkMovedAway { link, to },
                None => Change::LinkRemoved(link),
            }));
        }
        let affected = followers.into_iter().chain(master);
        self.links_changed(None, affected, ctx, sink);
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

    pub(super) fn delete_addr<S: ChangeSink>(&mut self, gone: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let promote = self.options.promote_secondaries;
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
        let ipv4_primary = gone.family == AF_INET && list.get(pos).is_some_and(|e| !e.is_secondary());
        if ipv4_primary
            && !matches!(gone.origin, Origin::Inferred(_))
            && list
                .iter()
                .any(|e| e.is_secondary() && kernel_order::same_ipv4_subnet(gone, e))
        {
            // Known only from a request: what happens to the secondaries is
            // the setting's, which no capture shows.
            self.assumed_promotion.get_or_insert(ctx.packet);
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
                |r| r.family == AF_INET && r.oif == Some(index),
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
}
