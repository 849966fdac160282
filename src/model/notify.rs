//! Notifications (RTM_NEW*/RTM_DEL* outside dumps) and single GET replies
//! applied where the kernel puts them.
//!
//! Contract: each message goes through the table operations (`tables`:
//! an update keeps its entry's position, a new entry goes where the kernel
//! puts it; deletions through `address_rules` and `link_rules`, where a
//! deleted IPv4 primary takes its secondaries along or promotes one, as
//! the `promote_secondaries` option says). After each change the kernel's
//! side effects (`address_rules`, `link_rules`, `linkwatch`) follow; all
//! of it is idempotent, so a change seen as a request, its notification
//! and N listeners' copies count once. A GET reply showing a device the
//! model numbered itself at another index moves it to the kernel's.

use super::changes::ChangeSink;
use super::entries::{AddrEntry, KernelRule, LinkEntry, Origin, RouteEntry};
use super::state::{Ctx, Model};
use super::tables::Placement;
use crate::netlink::Body;
use crate::netlink::names::*;
use crate::netlink::values::AddressFamily;

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
            (Body::Link(l), _) if l.family == AddressFamily::Bridge => self.stats.bridge_port_events += 1,
            (Body::Link(l), RTM_DELLINK) => {
                self.linkwatch_notified(l.index);
                if self.link(l.index).is_none() {
                    if self.seen_link_dump && !self.gone_unseen.contains(&l.index) {
                        self.warn(
                            ctx,
                            format!("RTM_DELLINK for ifindex {}, which the model does not know", l.index),
                        );
                    }
                    return;
                }
                match l.netns {
                    // (`dev_change_net_namespace` announces the move so)
                    Some(to) => self.link_moved_away(l.index, to, ctx, sink),
                    None => self.remove_link(l.index, ctx, sink),
                }
            }
            (Body::Link(l), _) => {
                // A device the model does not know, announced down: just
                // made (`register_netdevice` announces it before anything
                // can bring it up). One announced up existed before.
                let made = self.link(l.index).is_none_or(|x| x.placeholder) && l.flags & IFF_UP == 0;
                self.link_message(LinkEntry::from_message(l, origin), made, ctx, sink);
                self.linkwatch_notified(l.index);
            }
            (Body::Addr(a), RTM_DELADDR) => {
                if let Some(e) = AddrEntry::from_message(a, origin)
                    && let Some(have) = self
                        .device_addresses(e.index, e.family)
                        .iter()
                        .find(|x| x.same_key(&e))
                        .cloned()
                {
                    self.delete_addr(&have, true, ctx, sink);
                    self.expired_unshown.retain(|(_, x)| !x.same_key(&have));
                    if have.family == AddressFamily::Inet6 {
                        self.note_v6_removal(have.index, ctx.packet);
                    }
                    self.unrequested_ipv4_removal(&have, ctx, sink);
                } else if let Some(e) = AddrEntry::from_message(a, origin) {
                    self.expired_unshown.retain(|(_, x)| !x.same_key(&e));
                    self.announced_in_down_walk(&e, ctx, sink);
                }
            }
            (Body::Addr(a), _) => {
                if let Some(e) = AddrEntry::from_message(a, origin) {
                    if e.family == AddressFamily::Inet6 && e.flags & IFA_F_TENTATIVE == 0 {
                        // The kernel announces an address when its DAD has ended.
                        self.finish_dad(None, Some((e.index, e.address)), ctx, sink);
                    }
                    let new = !self.device_addresses(e.index, e.family).iter().any(|x| x.same_key(&e));
                    self.upsert_addr(e.clone(), ctx, sink);
                    if new {
                        self.address_added(&e, ctx, sink);
                    }
                    if e.family == AddressFamily::Inet6 && e.flags & IFA_F_DADFAILED != 0 {
                        self.dad_failed(&e, ctx, sink);
                    }
                }
            }
            (Body::Route(r), _) if r.flags & RTM_F_CLONED != 0 => {}
            (Body::Route(r), RTM_DELROUTE) => {
                let gone = RouteEntry::from_message(r, origin, 0);
                if !self.remove_ipv6_sibling(&gone, ctx, sink) {
                    self.remove_route(&gone.key(), ctx, sink);
                }
            }
            (Body::Route(r), _) => {
                let mut e = RouteEntry::from_message(r, origin, 0);
                self.note_ra_prefix(&e, ctx.packet);
                self.link_local_named_by_route(&e, ctx, sink);
                self.address_named_by_route(&e, ctx.packet);
                self.drop_other_form(&e, ctx, sink);
                // (siblings the model holds as routes of their own go into it)
                if let Some(seq) = self.merge_ipv6_siblings(&mut e, flags, ctx, sink)
                    && !self.routes.contains(&e.key())
                {
                    e.seq = seq;
                    if sink.wants_changes() {
                        sink.change(ctx.event(super::changes::Change::RouteAdded {
                            route: e.clone(),
                            dev: self.route_dev(&e),
                        }));
                    }
                    self.routes.insert_new(e);
                    return;
                }
                // (a route the model has is updated in place whatever the flags)
                let placement = Placement::from_flags(e.family, flags);
                let implies = self.implies_link_local(&e);
                self.insert_route(e, placement, ctx, sink);
                if let Some(index) = implies {
                    self.link_local_implied_by_route(index, ctx, sink);
                }
            }
            _ => {}
        }
    }

    /// The reply to a GET for one object: the kernel's view of it now.
    pub(super) fn apply_reply<S: ChangeSink>(&mut self, body: &Body<'_>, ctx: &Ctx, sink: &mut S) {
        let origin = Origin::Dump(ctx.packet);
        match body {
            Body::Link(l) if l.family != AddressFamily::Bridge => {
                let new = LinkEntry::from_message(l, origin);
                // The index of a device the model numbered itself, of those `pick` picks.
                let numbered_here = |links: &[LinkEntry], pick: &dyn Fn(&LinkEntry) -> bool| {
                    links
                        .iter()
                        .find(|x| pick(x) && matches!(x.origin, Origin::KernelRule(_, KernelRule::AssignedIndex)))
                        .map(|x| x.index)
                };
                // Another device the model numbered itself sits at that index:
                // the kernel says it is elsewhere, so number it again.
                let elsewhere = |x: &LinkEntry| x.index == new.index && x.name != new.name;
                if let Some(other) = numbered_here(self.links.as_slice(), &elsewhere) {
                    let to = self.next_free_index(other);
                    self.reindex(other, to);
                }
                // A device the model numbered itself: the reply tells the real index.
                let renumbered = |x: &LinkEntry| x.name == new.name && x.index != new.index;
                if let Some(guess) = numbered_here(self.links.as_slice(), &renumbered) {
                    self.reindex(guess, new.index);
                }
                let index = new.index;
                // (a kernel that syncs linkwatch on GETLINK has run the
                // device's event before it answered)
                self.linkwatch_sync(index, ctx, sink);
                self.link_message(new, false, ctx, sink);
                self.sync_link_state(index);
                self.undo_early_runs(ctx, sink);
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
        self.allocations.reindex(from, to);
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
            if new.show.is_none() {
                new.show.clone_from(&old.show);
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
}
