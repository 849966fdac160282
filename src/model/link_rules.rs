//! What the kernel does by itself when a device changes: the side effects
//! of a link going up or down, gaining or losing carrier, becoming ready
//! for IPv6, being renamed, deleted or moved to another namespace, that a
//! capture of a quiet host never shows, and some that it never shows even
//! with listeners.
//!
//! Contract: every function here is idempotent (applying a change the
//! capture also notified changes nothing more), keeps positions of entries
//! that already exist, and marks what it creates with
//! `Origin::KernelRule(packet, rule)`. A device's addresses and routes
//! change through `address_rules` and `tables` (below); a carrier change
//! queues the device's linkwatch event (`Model::set_carrier`), which
//! `linkwatch` (above) runs. Restated from net/ipv4/fib_frontend.c
//! (NETDEV_UP, NETDEV_DOWN), net/ipv4/devinet.c (loopback address, label
//! renames), net/ipv6/addrconf.c (`addrconf_dev_config`, `addrconf_ifdown`;
//! a device is ready for IPv6 when `addrconf_link_ready` says so, at
//! NETDEV_UP or when linkwatch has run: see `linkwatch`) and the device
//! drivers' carrier rules, and checked against Debian's 6.1 and 6.12 in the
//! kernel matrix (`fixtures/kernels/`).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::changes::{Change, ChangeSink};
use super::entries::{AddrEntry, KernelRule, LinkEntry, Origin, ShortName};
use super::route_table::Through;
use super::state::{Ctx, Model};
use crate::diag::Diagnostic;
use crate::netlink::names::*;
use crate::netlink::rtnl::Netns;
use crate::netlink::values::{AddressFamily, RouteType, Scope};

/// When 8021q sets a VLAN's carrier (see `Model::vlan_carrier`).
#[derive(Debug, Clone, Copy)]
enum VlanMoment {
    Open,
    Stop,
}

/// A device whose MTU is below IPv6's minimum has no IPv6 (loopback aside).
fn ipv6_mtu_too_low(l: &LinkEntry) -> bool {
    l.mtu.is_some_and(|m| m < IPV6_MIN_MTU) && l.flags & IFF_LOOPBACK == 0
}

fn kind_is(l: &LinkEntry, k: &[u8]) -> bool {
    l.kind.is_some_and(|x| x.as_bytes() == k)
}

impl Model {
    /// `netif_carrier_ok` by the drivers' rules: a veth has carrier while
    /// both ends are up (with its peer unknown, while it is up and its own
    /// LOWER_UP flag is set), a bridge that never had a port always (up or
    /// down), one that had while it is up with a port forwarding, a bond
    /// while it is up with a slave that has carrier, a macvlan or ipvlan
    /// while its lower device has carrier (whatever the lower's admin
    /// state, and always when the lower is unknown); dummy, loopback and
    /// the rest always. A VLAN has the carrier 8021q last handed it (see
    /// [`vlan_carrier`](Self::vlan_carrier)): the lower's, taken at
    /// moments, so a VLAN that is down keeps what it had when its lower
    /// device goes down. A device five steps down the chain of lower
    /// devices and ports counts as without carrier.
    pub(super) fn carrier(&self, l: &LinkEntry, depth: u8) -> bool {
        if depth > 4 {
            return false;
        }
        let up = |x: &LinkEntry| x.flags & IFF_UP != 0;
        if kind_is(l, b"veth") {
            if l.link_elsewhere && l.peer.is_none() {
                return up(l) && !self.state(l.index).foreign_peer_down;
            }
            // A veth reports its peer as IFLA_LINK.
            return up(l)
                && match l.peer.or(l.link).and_then(|p| self.link(p)) {
                    Some(p) => up(p),
                    None => l.flags & IFF_LOWER_UP != 0,
                };
        }
        if kind_is(l, b"bridge") {
            // A bridge that never had a port keeps the carrier every device
            // starts with; once ports come and go, it has carrier while one
            // of them forwards: up, and oper up as its own linkwatch event
            // last left it (`br_port_carrier_check` runs at the port's
            // NETDEV_CHANGE, after that event, not when its carrier moves).
            // (down, its ports are disabled: one that had ports has none
            // then; one that never had keeps its carrier down and up)
            return !self.state(l.index).had_ports
                || (up(l) && self.any_port(l.index, |p| up(p) && self.state(p.index).oper_up));
        }
        if kind_is(l, b"bond") {
            // A bond has carrier while one of its slaves has (`bond_set_carrier`,
            // as its link monitor sees them: at once here, within miimon's
            // interval in the kernel); none without slaves
            // (`bond_newlink` starts it without). (802.3ad's aggregator
            // rules are not modelled.)
            return up(l) && self.any_port(l.index, |p| up(p) && self.carrier(p, depth + 1));
        }
        if kind_is(l, b"vlan") && self.state(l.index).seen {
            return self.state(l.index).carrier;
        }
        if kind_is(l, b"vlan") || kind_is(l, b"macvlan") || kind_is(l, b"ipvlan") {
            return match l.link.and_then(|i| self.link(i)) {
                Some(lower) => self.carrier(lower, depth + 1),
                None => true,
            };
        }
        true
    }

    /// After a change to links: the kernel's reaction to devices that went
    /// up, down, or gained or lost carrier. `first` is the device the change
    /// was about (its own reaction comes first, as in the kernel); `also`
    /// names devices whose carrier may have changed with it (a master a
    /// port left, the followers of a removed device). Only those and,
    /// transitively, the devices whose carrier follows them (see
    /// [`carrier`](Self::carrier)) are looked at, in dump order: no other
    /// device's state can have changed.
    pub(super) fn links_changed<S: ChangeSink>(
        &mut self,
        first: Option<u32>,
        also: impl IntoIterator<Item = u32>,
        ctx: &Ctx,
        sink: &mut S,
    ) {
        let mut queue: Vec<u32> = first.into_iter().chain(also).collect();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut next = 0;
        while let Some(&x) = queue.get(next) {
            next += 1;
            if !seen.insert(x) {
                continue;
            }
            queue.extend_from_slice(self.links.followers(x));
            queue.extend(self.link(x).and_then(|l| l.master));
        }
        // (a veth's peer right after it: `veth_open` and `veth_close` set
        // both ends' carrier before the notifiers see the device)
        let peer = first.and_then(|f| self.link(f)).and_then(|l| l.peer);
        let peer = peer.filter(|p| seen.contains(p));
        let mut order: Vec<(usize, u32)> = seen
            .into_iter()
            .filter(|i| Some(*i) != first && Some(*i) != peer)
            .filter_map(|i| self.links.position_of(i).map(|p| (p, i)))
            .collect();
        order.sort_unstable();
        for index in first.into_iter().chain(peer).chain(order.into_iter().map(|(_, i)| i)) {
            self.link_state_changed(index, ctx, sink);
        }
    }

    /// One device's reaction to its own state: up, down, carrier, ready
    /// for IPv6. The order is `__dev_open`'s: the driver sets the carrier
    /// (queueing linkwatch events), the qdisc is attached if it has
    /// carrier, then NETDEV_UP, where addrconf takes the device as ready
    /// only if its operational state is already up: one that got carrier
    /// with this change is not before its linkwatch event has run (see
    /// `linkwatch`).
    fn link_state_changed<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let Some(l) = self.link(index) else { return };
        let up = l.flags & IFF_UP != 0;
        let vlan = kind_is(l, b"vlan");
        if !self.state(index).seen {
            self.first_seen(index);
        }
        // An MTU below IPv6's minimum takes IPv6 off the device, with all
        // its IPv6 addresses (permanent ones too) and routes; raising it
        // again configures IPv6 afresh (`addrconf_notify`, NETDEV_CHANGEMTU).
        // (not for an MTU its driver set silently: addrconf never saw it)
        let mtu_low = self.link(index).is_some_and(ipv6_mtu_too_low);
        let silent = self
            .link(index)
            .is_some_and(|l| l.mtu.is_some() && l.mtu == self.state(index).silent_mtu);
        if !silent && mtu_low != self.state(index).ipv6_off {
            let st = self.state_mut(index);
            st.ipv6_off = mtu_low;
            if mtu_low {
                st.ipv6_ready = false;
                st.ipv6_configured = false;
                self.ipv6_off(index, ctx, sink);
            }
        }
        let was_up = self.state(index).admin_up;
        if was_up && !up {
            let st = self.state_mut(index);
            st.admin_up = false;
            st.ipv6_ready = false;
            st.ipv6_configured = false;
            st.qdisc = false;
            self.link_down(index, ctx, sink);
            if vlan {
                self.vlan_carrier(index, VlanMoment::Stop);
            } else {
                self.carrier_follows(index);
            }
            self.show_link_state(index, ctx, sink);
            return;
        }
        if up && !was_up {
            self.state_mut(index).admin_up = true;
            if self.state(index).lw_pending {
                self.lw.came_up();
            }
            if vlan {
                self.vlan_carrier(index, VlanMoment::Open);
            } else {
                self.carrier_follows(index);
            }
            let st = self.state_mut(index);
            st.qdisc = st.carrier;
            st.activated = true;
            self.link_up(index, ctx, sink);
        } else if !vlan {
            self.carrier_follows(index);
        }
        self.ipv6_readiness(index, ctx, sink);
        self.show_link_state(index, ctx, sink);
    }

    /// What a link message would show of a device's state now, from the
    /// model's (`rtnl_fill_ifinfo`, `dev_get_flags`): IFF_LOWER_UP its
    /// carrier and IFF_RUNNING `netif_oper_up`, both only while it is up;
    /// its operstate DOWN while it is down, else the one its last
    /// linkwatch event gave it (UP, or LOWERLAYERDOWN for a device stacked
    /// on another, DOWN), else what a message last showed where that
    /// still fits (one shown down that is oper up now had an event: UP),
    /// else UNKNOWN (a device whose carrier never changed, such as lo, a
    /// dummy or a tunnel, keeps the state it registered with). Only where
    /// no link listener is there to show them.
    pub(super) fn show_link_state<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        const IF_OPER_UNKNOWN: u8 = 0;
        const IF_OPER_DOWN: u8 = 2;
        const IF_OPER_LOWERLAYERDOWN: u8 = 3;
        const IF_OPER_UP: u8 = 6;
        // (a link listener's notifications say it themselves, at the moment
        // the kernel does)
        if self.last_link_notification.is_some() && self.link_listener_left.is_none() {
            return;
        }
        let Some(l) = self.link(index) else { return };
        if l.placeholder {
            return;
        }
        let st = self.state(index);
        let up = l.flags & IFF_UP != 0;
        if up != st.admin_up {
            return;
        }
        let mut flags = l.flags & !(IFF_LOWER_UP | IFF_RUNNING);
        if up {
            if st.carrier {
                flags |= IFF_LOWER_UP;
            }
            if st.oper_up {
                flags |= IFF_RUNNING;
            }
        }
        // (a veth whose peer is in another namespace: its iflink is that
        // peer's index, which only releases before 6.11 take as a lower device)
        let checks = self.options.kernel.is_none_or(|k| k.operstate_checks_iflink_device());
        let stacked = l.link.is_some_and(|i| i != index) || (l.link_elsewhere && !checks);
        // (drivers that turn their carrier on and off when opened and
        // closed, so that opening one runs a linkwatch event)
        let carrier_driven = l.kind.is_some_and(|k| {
            matches!(
                k.as_bytes(),
                b"veth" | b"vlan" | b"macvlan" | b"macvtap" | b"bond" | b"team"
            )
        });
        let shown = l.operstate.filter(|_| st.oper_shown_up);
        let operstate = match (up, st.lw_ran, st.oper_up, shown) {
            (false, ..) => IF_OPER_DOWN,
            (true, true, true, _) => IF_OPER_UP,
            (true, true, false, _) if stacked => IF_OPER_LOWERLAYERDOWN,
            (true, true, false, _) => IF_OPER_DOWN,
            (true, false, true, Some(s @ (IF_OPER_UNKNOWN | IF_OPER_UP))) => s,
            // (shown not oper up, it is now: only a linkwatch event does that)
            (true, false, true, Some(_)) => IF_OPER_UP,
            (true, false, true, None) if carrier_driven => IF_OPER_UP,
            (true, false, true, None) => IF_OPER_UNKNOWN,
            (true, false, false, Some(s @ (IF_OPER_DOWN | IF_OPER_LOWERLAYERDOWN))) => s,
            (true, false, false, _) if stacked => IF_OPER_LOWERLAYERDOWN,
            (true, false, false, _) => IF_OPER_DOWN,
        };
        if flags == l.flags && l.operstate == Some(operstate) {
            return;
        }
        let mut e = l.clone();
        e.flags = flags;
        e.operstate = Some(operstate);
        self.upsert_link(e, ctx, sink);
    }

    /// Whether a port of `master` (a bridge's port, a bond's slave) is so.
    fn any_port(&self, master: u32, f: impl Fn(&LinkEntry) -> bool) -> bool {
        self.links.ports(master).iter().filter_map(|&p| self.link(p)).any(f)
    }

    /// The carrier the drivers' rules give a device that is not a VLAN now
    /// (a change queues its linkwatch event).
    fn carrier_follows(&mut self, index: u32) {
        let carrier = self.link(index).is_some_and(|l| self.carrier(l, 0));
        self.set_carrier(index, carrier);
    }

    /// `br_port_carrier_check` at a port's NETDEV_CHANGE: the bridge's
    /// carrier as its ports now give it, shown where it changed.
    pub(super) fn bridge_port_checked<S: ChangeSink>(&mut self, bridge: u32, ctx: &Ctx, sink: &mut S) {
        if self.state(bridge).admin_up {
            self.carrier_follows(bridge);
            self.show_link_state(bridge, ctx, sink);
        }
    }

    /// A VLAN's carrier at the moments 8021q sets it: `vlan_dev_open` turns
    /// it on if the lower device has carrier (never off); `vlan_dev_stop`
    /// turns it off, and when the lower device's going down closed it, the
    /// lower's carrier is handed over after (`netif_stacked_transfer_operstate`,
    /// also at the lower's NETDEV_CHANGE: see `linkwatch`).
    fn vlan_carrier(&mut self, index: u32, moment: VlanMoment) {
        let lower = self.link(index).and_then(|l| l.link).and_then(|i| self.link(i));
        let lower_carrier = lower.is_none_or(|x| self.carrier(x, 1));
        let lower_down = lower.is_some_and(|x| x.flags & IFF_UP == 0);
        match moment {
            VlanMoment::Open if lower_carrier => self.set_carrier(index, true),
            VlanMoment::Open => {}
            VlanMoment::Stop => {
                self.set_carrier(index, false);
                if lower_down {
                    self.set_carrier(index, lower_carrier);
                }
            }
        }
    }

    /// `addrconf_link_ready` (up, oper up, a tx qdisc), checked at
    /// NETDEV_UP and NETDEV_CHANGE: a device that becomes ready gets its
    /// IPv6 configuration.
    pub(super) fn ipv6_readiness<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        // (a bond's slave: addrconf ignores its NETDEV_UP and NETDEV_CHANGE)
        if self.link(index).is_some_and(|l| l.flags & IFF_SLAVE != 0) {
            return;
        }
        let st = self.state(index);
        let ready = st.admin_up && !st.ipv6_off && st.oper_up && st.qdisc;
        if ready && !st.ipv6_ready {
            self.state_mut(index).ipv6_ready = true;
            self.ipv6_link_ready(index, ctx, sink);
        } else if !ready {
            self.state_mut(index).ipv6_ready = false;
        }
    }

    /// A device first met in a message, not made in the capture: its
    /// kernel state as far as the message shows it (a device that is down
    /// shows neither its operstate nor its carrier: taken as linkwatch
    /// would have left them).
    fn first_seen(&mut self, index: u32) {
        let Some(l) = self.link(index) else { return };
        let (up, running, lower_up) = (
            l.flags & IFF_UP != 0,
            l.flags & IFF_RUNNING != 0,
            l.flags & IFF_LOWER_UP != 0,
        );
        let carrier = match (kind_is(l, b"vlan"), up) {
            (true, true) => lower_up,
            (true, false) => l.link.and_then(|i| self.link(i)).is_none_or(|x| self.carrier(x, 1)),
            (false, _) => self.carrier(l, 0),
        };
        let st = self.state_mut(index);
        st.seen = true;
        st.carrier = carrier;
        st.oper_up = if up { running } else { carrier };
    }

    /// The kernel showed a device's state (dump or reply): the model takes
    /// it as it is, without replaying side effects the kernel already had.
    /// A linkwatch event the model has queued stays queued (a GETLINK reply
    /// of a kernel that does not sync, and dumps, show the operstate it has
    /// not changed yet).
    pub(super) fn sync_link_state(&mut self, index: u32) {
        self.lw.timed.remove(&index);
        let Some(l) = self.link(index) else { return };
        let (up, running, lower_up) = (
            l.flags & IFF_UP != 0,
            l.flags & IFF_RUNNING != 0,
            l.flags & IFF_LOWER_UP != 0,
        );
        let off = ipv6_mtu_too_low(l);
        let seen = self.state(index).seen;
        // (a running device shows its carrier; a bridge up without one has
        // had ports, which all left or lost theirs)
        let bridge_without = kind_is(l, b"bridge") && up && !lower_up;
        let carrier = match (kind_is(l, b"vlan"), up, seen) {
            (_, true, _) => lower_up,
            (true, false, true) => self.state(index).carrier,
            (true, false, false) => l.link.and_then(|i| self.link(i)).is_none_or(|x| self.carrier(x, 1)),
            (false, false, _) => self.carrier(l, 0),
        };
        let st = self.state_mut(index);
        // The model ran its event, the kernel shows it has not (up with
        // carrier, not RUNNING): linkwatch ran later than the model's
        // timing said, and what that run made is undone by the caller.
        let early = st.lw_ran && st.oper_up && up && lower_up && !running;
        st.had_ports |= bridge_without;
        st.seen = true;
        // (the operstate shown holds until a linkwatch event of the model's)
        st.lw_ran = false;
        st.oper_shown_up = up;
        st.ipv6_off = off;
        st.admin_up = up;
        st.carrier = carrier;
        if up {
            st.oper_up = running;
        } else if !seen {
            st.oper_up = carrier;
        }
        st.qdisc = up && carrier;
        st.ipv6_ready = up && !off && st.oper_up && st.qdisc;
        if st.ipv6_ready {
            st.ipv6_configured = true;
        }
        if !up {
            st.ipv6_configured = false;
        }
        // Up with carrier and not yet oper up, or oper up without carrier:
        // its event is queued in the kernel (the operational state follows
        // the carrier when it runs), whether or not the capture showed its
        // cause.
        if up && carrier != st.oper_up && !st.lw_pending {
            self.lw_fire(index);
        }
        if early {
            self.lw.early.push(index);
        }
    }

    /// Undoes what the model's own linkwatch runs made of the devices
    /// `sync_link_state` found not yet run in the kernel: the IPv6
    /// configuration `addrconf_dev_config` makes when a device becomes
    /// ready (its `ff00::/8` and `fe80::/64` routes, its link-local and
    /// other addresses of its type, their duplicate address detection),
    /// where no message has shown any of it. It is made again when the
    /// event runs. Addresses and routes a message showed stay: then the
    /// kernel had configured the device, and nothing is undone.
    pub(super) fn undo_early_runs<S: ChangeSink>(&mut self, ctx: &Ctx, sink: &mut S) {
        if self.lw.early.is_empty() {
            return;
        }
        for index in std::mem::take(&mut self.lw.early) {
            let made_at_ready = |o: &Origin| {
                matches!(
                    o,
                    Origin::KernelRule(_, KernelRule::Ipv6LinkLocal | KernelRule::Ipv6FromIpv4)
                )
            };
            let v6: Vec<AddrEntry> = self.device_addresses(index, AddressFamily::Inet6).to_vec();
            let made: Vec<AddrEntry> = v6.iter().filter(|a| made_at_ready(&a.origin)).cloned().collect();
            if made.is_empty() || made.iter().any(|a| a.flags & IFA_F_TENTATIVE == 0) {
                continue;
            }
            let name = self.link(index).map(|l| l.display_name()).unwrap_or_default();
            self.warnings.push(Diagnostic::record(
                ctx.packet,
                ctx.offset,
                format!(
                    "{name} is shown up with carrier but not yet running: linkwatch had not run its event, later \
                     than the model ran it; its IPv6 configuration made then is undone until the event runs"
                ),
            ));
            let st = self.state_mut(index);
            st.ipv6_configured = false;
            st.ipv6_ready = false;
            self.dad
                .cancel(|d| d.index == index && made.iter().any(|a| a.address == d.address));
            for a in &made {
                self.remove_addr_entry(a, ctx, sink);
            }
            self.remove_routes(
                Through::Device(index),
                |r| {
                    matches!(
                        r.origin,
                        Origin::KernelRule(_, KernelRule::Ipv6MulticastRoute | KernelRule::Ipv6LinkLocalRoute)
                    )
                },
                ctx,
                sink,
            );
        }
    }

    /// A bridge without an address of its own takes the lowest of its
    /// ports', and 00:00:00:00:00:00 once its last port has left
    /// (`br_stp_recalculate_bridge_id`).
    pub(super) fn bridge_address(&mut self, bridge: u32) {
        if !self.links.ports(bridge).is_empty() && self.links.contains(bridge) {
            self.state_mut(bridge).had_ports = true;
        }
        let Some(b) = self.link(bridge) else { return };
        if !kind_is(b, b"bridge") || b.hwaddr_set {
            return;
        }
        if !self.state(bridge).created_here {
            // Met in a dump or a notification: whether its MAC was set by
            // hand (and so stays) is not known. A message will show its MAC;
            // until then what is made from it is unknown.
            self.state_mut(bridge).mac_uncertain = true;
            return;
        }
        let ports: Vec<Option<ShortName>> = self
            .links
            .ports(bridge)
            .iter()
            .filter_map(|&p| self.link(p))
            .map(|p| p.hwaddr)
            .collect();
        if ports.is_empty() {
            if self.state(bridge).had_ports {
                self.links.update(bridge, |b| b.hwaddr = Some(ShortName::new(&[0; 6])));
            }
            return;
        }
        let lowest = if ports.iter().all(Option::is_some) {
            ports
                .into_iter()
                .flatten()
                .min_by(|a, b| a.as_bytes().cmp(b.as_bytes()))
        } else {
            None
        };
        self.links.update(bridge, |b| b.hwaddr = lowest);
    }

    /// NETDEV_UP: IPv4 routes of every address of the device (their local
    /// routes stay through link-down; the rest come back), and the
    /// loopback's 127.0.0.1/8.
    fn link_up<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let Some(l) = self.link(index) else { return };
        if l.flags & IFF_LOOPBACK != 0 || l.dev_type == ARPHRD_LOOPBACK {
            let lo = AddrEntry::kernel_made(
                index,
                IpAddr::V4(Ipv4Addr::LOCALHOST),
                8,
                Scope::Host,
                Some(l.name),
                Origin::KernelRule(ctx.packet, KernelRule::LoopbackAddress),
            );
            if !self
                .device_addresses(index, AddressFamily::Inet)
                .iter()
                .any(|a| a.same_key(&lo))
            {
                self.upsert_addr(lo, ctx, sink);
            }
        }
        let addrs: Vec<AddrEntry> = self.device_addresses(index, AddressFamily::Inet).to_vec();
        for a in &addrs {
            self.ipv4_address_routes(a, ctx, sink);
        }
        // `addrconf_permanent_addr`: IPv6 addresses added while the device
        // was down get their prefix routes now, carrier or not (not on a
        // bond's slave, whose NETDEV_UP addrconf ignores).
        if self.link(index).is_some_and(|l| l.flags & IFF_SLAVE != 0) {
            return;
        }
        let v6: Vec<AddrEntry> = self.device_addresses(index, AddressFamily::Inet6).to_vec();
        for a in &v6 {
            self.ipv6_address_routes(a, ctx, sink);
        }
    }

    /// NETDEV_DOWN: IPv4 routes through the device go silently except its
    /// host-scoped ones; IPv6 addresses and routes are flushed.
    /// IPv6 taken off a device (`addrconf_ifdown` with its inet6_dev
    /// destroyed): every IPv6 address and route through it goes.
    fn ipv6_off<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        self.dad.cancel(|d| d.index == index);
        self.remove_routes(Through::Device(index), |r| r.family == AddressFamily::Inet6, ctx, sink);
        self.drop_ipv6_hops_through(index, ctx, sink);
        self.remove_ipv6_addresses(index, ctx, sink);
    }

    /// Every IPv6 address of a device, removed as a flush removes them.
    fn remove_ipv6_addresses<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let v6: Vec<AddrEntry> = self.device_addresses(index, AddressFamily::Inet6).to_vec();
        for a in v6 {
            self.remove_addr_entry(&a, ctx, sink);
        }
    }

    fn link_down<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        self.down_walk_starts(index, ctx.packet);
        self.dad.cancel(|d| d.index == index);
        self.remove_routes(
            Through::Device(index),
            |r| r.family == AddressFamily::Inet6 || (r.scope != Scope::Host && r.kind != RouteType::Local),
            ctx,
            sink,
        );
        self.remove_ipv6_addresses(index, ctx, sink);
    }

    /// `addrconf_notify` when a device is up with carrier: the routes of
    /// its IPv6 addresses (see `ipv6_address_routes`), then for a loopback
    /// its ::1, for other devices what their type gets (`addrconf_types`:
    /// `ff00::/8`, a link-local address with `fe80::/64`, addresses made
    /// from IPv4 ones; fe80:: where no message shows the interface id).
    fn ipv6_link_ready<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let Some(l) = self.link(index) else { return };
        let (dev_type, loopback) = (l.dev_type, l.flags & IFF_LOOPBACK != 0);
        // Permanent addresses added while the device was down get their routes now.
        let existing: Vec<AddrEntry> = self.device_addresses(index, AddressFamily::Inet6).to_vec();
        for a in &existing {
            self.ipv6_address_routes(a, ctx, sink);
        }
        if loopback || dev_type == ARPHRD_LOOPBACK {
            let one = AddrEntry::kernel_made(
                index,
                IpAddr::V6(Ipv6Addr::LOCALHOST),
                128,
                Scope::Host,
                None,
                Origin::KernelRule(ctx.packet, KernelRule::Ipv6Loopback),
            );
            self.add_kernel_addr(one, ctx, sink);
            return;
        }
        // Carrier came back on a device configured since it went up: the
        // kernel keeps what it made (IF_READY), even if the MAC changed
        // meanwhile (a bridge that took a port's address).
        if std::mem::replace(&mut self.state_mut(index).ipv6_configured, true) {
            return;
        }
        // (what each device type gets: see `addrconf_types`)
        self.addrconf_by_type(index, ctx, sink);
    }

    fn add_kernel_addr<S: ChangeSink>(&mut self, a: AddrEntry, ctx: &Ctx, sink: &mut S) {
        if self.device_addresses(a.index, a.family).iter().any(|e| e.same_key(&a)) {
            return;
        }
        self.upsert_addr(a.clone(), ctx, sink);
        self.address_added(&a, ctx, sink);
    }

    /// `inetdev_changename`: IPv4 labels follow a renamed device (the first
    /// address gets the bare name, the others keep their `:suffix`, or get
    /// `:N`).
    pub(super) fn relabel<S: ChangeSink>(&mut self, index: u32, name: ShortName, ctx: &Ctx, _sink: &mut S) {
        let Some(dev) = self.addrs.get_mut(&index) else { return };
        for (n, a) in dev.v4.iter_mut().enumerate() {
            let old = a.label.unwrap_or_default();
            let mut label = name.as_bytes().to_vec();
            if n > 0 {
                let colon = old.as_bytes().iter().position(|&c| c == b':');
                let suffix = match colon.and_then(|p| old.as_bytes().get(p..)) {
                    Some(kept) => kept.to_vec(),
                    None => format!(":{}", n + 1).into_bytes(),
                };
                if suffix.len() + label.len() < 16 {
                    label.extend_from_slice(&suffix);
                } else {
                    // (a suffix longer than 15 bytes, which no kernel writes,
                    // keeps the whole name, as the unchecked subtraction did)
                    if let Some(keep) = 15usize.checked_sub(suffix.len()) {
                        label.truncate(keep);
                    }
                    label.extend_from_slice(&suffix);
                }
            }
            a.label = Some(ShortName::new(&label));
            if !a.origin.is_dump() {
                a.origin = Origin::KernelRule(ctx.packet, KernelRule::LabelRename);
            }
        }
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
            // (a device leaves its namespace closed, `dev_change_net_namespace`:
            // its peer here has lost its carrier)
            self.state_mut(p).foreign_peer_down = true;
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
        if !self.links.contains(index) {
            return;
        }
        // The kernel announces the addresses' removal first; IPv4 routes
        // through the device go silently. (While the device is still in
        // the table, so that their changes name it.)
        self.device_gone(index, ctx, sink);
        // (multipath routes with a next hop through it: `fib_sync_down_dev`)
        self.multipath_device_gone(index, ctx, sink);
        let Some(link) = self.links.remove(index) else {
            return;
        };
        // its ipvlan port, or its id in its lower device's (one moved away
        // still holds its id, where this capture no longer sees it)
        self.ipvlan_lower_gone(index);
        if link.kind.is_some_and(|k| matches!(k.as_bytes(), b"ipvlan" | b"ipvtap")) {
            match (moved, link.link) {
                (Some(_), Some(lower)) => self.ipvlan_made_elsewhere(lower),
                _ => self.ipvlan_gone(index, link.link),
            }
        }
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
}

#[cfg(test)]
mod isatap_tests {
    use super::super::addrconf_types::isatap_link_local;
    use std::net::Ipv6Addr;

    fn ll(v4: [u8; 4]) -> Option<Ipv6Addr> {
        isatap_link_local(&v4)
    }

    /// The universal bit is clear for the kernel's list of private and
    /// special IPv4 ranges (seen: 10.19.0.1 gives fe80::5efe:a13:1 on 6.1
    /// and 6.12), set otherwise; 0.0.0.0 gives no address.
    #[test]
    fn isatap_universal_bit_follows_the_kernels_list() {
        let parse = |s: &str| s.parse::<Ipv6Addr>().ok();
        assert_eq!(ll([10, 19, 0, 1]), parse("fe80::5efe:a13:1"));
        assert_eq!(ll([192, 0, 2, 1]), parse("fe80::5efe:c000:201"));
        assert_eq!(ll([198, 19, 0, 1]), parse("fe80::5efe:c613:1"));
        assert_eq!(ll([8, 8, 8, 8]), parse("fe80::200:5efe:808:808"));
        // 203.0.113/24 is documentation to Rust, not to the kernel's list
        assert_eq!(ll([203, 0, 113, 5]), parse("fe80::200:5efe:cb00:7105"));
        assert_eq!(ll([0, 0, 0, 0]), None);
        assert_eq!(isatap_link_local(&[1, 2, 3]), None);
    }
}
