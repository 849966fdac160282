//! What the kernel does by itself: the side effects of a link, address or
//! route change that a capture of a quiet host never shows, and some that it
//! never shows even with listeners.
//!
//! Contract: every function here is idempotent (applying a change the
//! capture also notified changes nothing more), keeps positions of entries
//! that already exist, and marks what it creates with
//! `Origin::KernelRule(packet, rule)`. Restated from net/ipv4/fib_frontend.c
//! (`fib_add_ifaddr`, `fib_del_ifaddr`, `fib_disable_ip`), net/ipv4/devinet.c
//! (loopback address, label renames), net/ipv6/addrconf.c (`addrconf_dev_config`,
//! `addrconf_ifdown`, prefix and local routes; a device is ready for IPv6
//! when `addrconf_link_ready` says so, at NETDEV_UP or when linkwatch has
//! run: see `linkwatch`) and the device drivers' carrier rules, and checked
//! against Debian's 6.1 and 6.12 in the kernel matrix (`fixtures/kernels/`).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::changes::{Change, ChangeSink};
use super::dad::{DAD_NANOS, PendingDad};
use super::entries::{AddrEntry, KernelRule, LinkEntry, Origin, RouteEntry, ShortName};
use super::kernel_order;
use super::lifetimes::{nanos, timestamp};
use super::prefix::{network as v6_prefix, v4, v4_mask};
use super::route_table::Through;
use super::state::{Ctx, Model};
use super::tables::Placement;
use crate::netlink::names::*;

/// One of the kernel's own routes through `oif`: protocol kernel, scope
/// universe, no gateway, prefsrc or metric, origin `Dump(0)` until the
/// caller marks it.
pub(super) fn kernel_route(family: u8, table: u32, kind: u8, dst: IpAddr, dst_len: u8, oif: u32) -> RouteEntry {
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
        protocol: RTPROT_KERNEL,
        scope: RT_SCOPE_UNIVERSE,
        kind,
        flags: 0,
        multipath: false,
        origin: Origin::Dump(0),
        seq: 0,
    }
}

/// The EUI-64 link-local address of a 6-byte MAC (`addrconf_ifid_eui48`).
pub fn eui64_link_local(mac: &[u8]) -> Option<Ipv6Addr> {
    let m: [u8; 6] = mac.try_into().ok()?;
    if m == [0; 6] {
        return None;
    }
    Some(Ipv6Addr::from([
        0xfe,
        0x80,
        0,
        0,
        0,
        0,
        0,
        0,
        m[0] ^ 2,
        m[1],
        m[2],
        0xff,
        0xfe,
        m[3],
        m[4],
        m[5],
    ]))
}

/// The link-local address of an IPv4 tunnel from its local address
/// (`__ipv6_isatap_ifid`): `fe80::200:5efe:a.b.c.d` for a global IPv4
/// address, `fe80::5efe:a.b.c.d` for a private or special one.
pub fn isatap_link_local(v4: &[u8]) -> Option<Ipv6Addr> {
    let a: [u8; 4] = v4.try_into().ok()?;
    if a == [0; 4] {
        return None;
    }
    let ip = Ipv4Addr::from(a);
    // the kernel's list: 0/8, 10/8, 127/8, 169.254/16, 172.16/12,
    // 192.0.2/24, 192.88.99/24, 192.168/16, 198.18/15, multicast, broadcast
    let special = a[0] == 0
        || ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || a[..3] == [192, 0, 2]
        || a[..3] == [192, 88, 99]
        || (a[0] == 198 && (a[1] & 0xfe) == 18)
        || ip.is_multicast()
        || ip.is_broadcast();
    let u = if special { 0 } else { 2 };
    Some(Ipv6Addr::from([
        0xfe, 0x80, 0, 0, 0, 0, 0, 0, u, 0, 0x5e, 0xfe, a[0], a[1], a[2], a[3],
    ]))
}

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
    /// LOWER_UP flag is set), a bridge while it is up and either never had
    /// a port or has a port that is up with carrier, a macvlan or ipvlan
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
            // of them forwards (up, with carrier).
            return up(l)
                && (!self.state(l.index).had_ports
                    || self
                        .links
                        .ports(l.index)
                        .iter()
                        .filter_map(|&p| self.link(p))
                        .any(|p| up(p) && self.carrier(p, depth + 1)));
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
        let mtu_low = self.link(index).is_some_and(ipv6_mtu_too_low);
        if mtu_low != self.state(index).ipv6_off {
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
            self.link_up(index, ctx, sink);
        } else if !vlan {
            self.carrier_follows(index);
        }
        self.ipv6_readiness(index, ctx, sink);
    }

    /// The carrier the drivers' rules give a device that is not a VLAN now
    /// (a change queues its linkwatch event).
    fn carrier_follows(&mut self, index: u32) {
        let carrier = self.link(index).is_some_and(|l| self.carrier(l, 0));
        self.set_carrier(index, carrier);
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
        st.had_ports |= bridge_without;
        st.seen = true;
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
        // Up with carrier and not yet oper up: its event is queued in the
        // kernel, whether or not the capture showed its cause.
        if up && carrier && !st.oper_up && !st.lw_pending {
            self.lw_fire(index);
        }
    }

    /// A bridge without an address of its own takes the lowest of its ports'.
    pub(super) fn bridge_address(&mut self, bridge: u32) {
        if !self.links.ports(bridge).is_empty() && self.links.contains(bridge) {
            self.state_mut(bridge).had_ports = true;
        }
        let Some(b) = self.link(bridge) else { return };
        if !kind_is(b, b"bridge") || b.hwaddr_set {
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
                RT_SCOPE_HOST,
                Some(l.name),
                Origin::KernelRule(ctx.packet, KernelRule::LoopbackAddress),
            );
            if !self.device_addresses(index, AF_INET).iter().any(|a| a.same_key(&lo)) {
                self.upsert_addr(lo, ctx, sink);
            }
        }
        let addrs: Vec<AddrEntry> = self.device_addresses(index, AF_INET).to_vec();
        for a in &addrs {
            self.ipv4_address_routes(a, ctx, sink);
        }
        // `addrconf_permanent_addr`: IPv6 addresses added while the device
        // was down get their prefix routes now, carrier or not.
        let v6: Vec<AddrEntry> = self.device_addresses(index, AF_INET6).to_vec();
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
        self.remove_routes(Through::Device(index), |r| r.family == AF_INET6, ctx, sink);
        self.remove_ipv6_addresses(index, ctx, sink);
    }

    /// Every IPv6 address of a device, removed as a flush removes them.
    fn remove_ipv6_addresses<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let v6: Vec<AddrEntry> = self.device_addresses(index, AF_INET6).to_vec();
        for a in v6 {
            self.remove_addr_entry(&a, ctx, sink);
        }
    }

    fn link_down<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        self.dad.cancel(|d| d.index == index);
        self.remove_routes(
            Through::Device(index),
            |r| r.family == AF_INET6 || (r.scope != RT_SCOPE_HOST && r.kind != RTN_LOCAL),
            ctx,
            sink,
        );
        self.remove_ipv6_addresses(index, ctx, sink);
    }

    /// `addrconf_dev_config` when a device is up with carrier: the routes
    /// of its IPv6 addresses (see `ipv6_address_routes`), then for a
    /// loopback its ::1, for an Ethernet device the `ff00::/8` and
    /// `fe80::/64` routes and the EUI-64 link-local address (fe80:: when no
    /// message showed a usable MAC), and nothing more for other device types.
    fn ipv6_link_ready<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let Some(l) = self.link(index) else { return };
        let (dev_type, hwaddr, loopback) = (l.dev_type, l.hwaddr, l.flags & IFF_LOOPBACK != 0);
        // Permanent addresses added while the device was down get their routes now.
        let existing: Vec<AddrEntry> = self.device_addresses(index, AF_INET6).to_vec();
        for a in &existing {
            self.ipv6_address_routes(a, ctx, sink);
        }
        if loopback || dev_type == ARPHRD_LOOPBACK {
            let one = AddrEntry::kernel_made(
                index,
                IpAddr::V6(Ipv6Addr::LOCALHOST),
                128,
                RT_SCOPE_HOST,
                None,
                Origin::KernelRule(ctx.packet, KernelRule::Ipv6Loopback),
            );
            self.add_kernel_addr(one, ctx, sink);
            return;
        }
        // (`ipv6_generate_eui64`: Ethernet from its MAC, an ipip tunnel
        // ISATAP-style from its local IPv4 address; other types are not
        // modelled)
        if dev_type != ARPHRD_ETHER && dev_type != ARPHRD_TUNNEL {
            return;
        }
        // Carrier came back on a device configured since it went up: the
        // kernel keeps what it made (IF_READY), even if the MAC changed
        // meanwhile (a bridge that took a port's address).
        if std::mem::replace(&mut self.state_mut(index).ipv6_configured, true) {
            return;
        }
        self.add_multicast_route(index, ctx, sink);
        let mut ll = kernel_route(
            AF_INET6,
            RT_TABLE_MAIN,
            RTN_UNICAST,
            IpAddr::V6(Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0)),
            64,
            index,
        );
        ll.priority = Some(256);
        self.add_kernel_route(ll, KernelRule::Ipv6LinkLocalRoute, ctx, sink);
        let address = hwaddr.and_then(|m| match dev_type {
            ARPHRD_TUNNEL => isatap_link_local(m.as_bytes()),
            _ => eui64_link_local(m.as_bytes()),
        });
        let entry = AddrEntry::link_local(
            index,
            address.unwrap_or(Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0)),
            Origin::KernelRule(ctx.packet, KernelRule::Ipv6LinkLocal),
        );
        if address.is_none() {
            self.state_mut(index).unknown_link_local = true;
        }
        self.add_kernel_addr(entry, ctx, sink);
    }

    fn add_kernel_addr<S: ChangeSink>(&mut self, a: AddrEntry, ctx: &Ctx, sink: &mut S) {
        if self.device_addresses(a.index, a.family).iter().any(|e| e.same_key(&a)) {
            return;
        }
        self.upsert_addr(a.clone(), ctx, sink);
        self.address_added(&a, ctx, sink);
    }

    /// The routes that come with an address the kernel accepted. An IPv6
    /// address also runs `addrconf_add_dev`, which installs the device's
    /// `ff00::/8` route if the device is up (carrier or not).
    pub(super) fn address_added<S: ChangeSink>(&mut self, a: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        if a.family == AF_INET {
            self.ipv4_address_routes(a, ctx, sink);
        } else if a.family == AF_INET6 {
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

    fn add_multicast_route<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let ff00 = IpAddr::V6(Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0));
        let mut mc = kernel_route(AF_INET6, RT_TABLE_LOCAL, RTN_MULTICAST, ff00, 8, index);
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
    fn ipv4_address_routes<S: ChangeSink>(&mut self, a: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let Some(l) = self.link(a.index) else { return };
        let (up, loopback) = (l.flags & IFF_UP != 0, l.flags & IFF_LOOPBACK != 0);
        let prim = if a.is_secondary() {
            let list = self.device_addresses(a.index, AF_INET);
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
        let mut local = kernel_route(AF_INET, RT_TABLE_LOCAL, RTN_LOCAL, a.address, 32, a.index);
        local.scope = RT_SCOPE_HOST;
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
            let mut brd = kernel_route(AF_INET, RT_TABLE_LOCAL, RTN_BROADCAST, b, 32, a.index);
            brd.scope = RT_SCOPE_LINK;
            brd.prefsrc = Some(prim);
            self.add_kernel_route(brd, KernelRule::Ipv4BroadcastRoute, ctx, sink);
        }
        if prefix != 0 && !a.is_secondary() && (prefix != v4(a.address) || a.prefix_len < 32) {
            if a.flags & IFA_F_NOPREFIXROUTE == 0 {
                let (table, kind, scope) = if loopback {
                    (RT_TABLE_LOCAL, RTN_LOCAL, RT_SCOPE_HOST)
                } else {
                    (RT_TABLE_MAIN, RTN_UNICAST, RT_SCOPE_LINK)
                };
                let mut p = kernel_route(
                    AF_INET,
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
                let mut brd = kernel_route(AF_INET, RT_TABLE_LOCAL, RTN_BROADCAST, b, 32, a.index);
                brd.scope = RT_SCOPE_LINK;
                brd.prefsrc = Some(prim);
                self.add_kernel_route(brd, KernelRule::Ipv4BroadcastRoute, ctx, sink);
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
    fn ipv6_address_routes<S: ChangeSink>(&mut self, a: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let skip_dad = a.flags & IFA_F_NODAD != 0
            || self
                .link(a.index)
                .is_some_and(|l| l.flags & (IFF_NOARP | IFF_LOOPBACK) != 0 || l.dev_type == ARPHRD_LOOPBACK);
        let ready = self.state(a.index).ipv6_ready;
        let up = self.link(a.index).is_some_and(|l| l.flags & IFF_UP != 0);
        if up && a.flags & IFA_F_NOPREFIXROUTE == 0 && a.prefix_len < 128 {
            let mut p = kernel_route(
                AF_INET6,
                RT_TABLE_MAIN,
                RTN_UNICAST,
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
            .to_prefix(AF_INET6, Some(a.address), 128)
            .any(|r| r.kind == RTN_LOCAL && r.oif == Some(a.index) && r.dst == Some(a.address));
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
                started: ctx.ts,
                packet: ctx.packet,
                from_dump: false,
            });
        }
    }

    fn ipv6_local_route<S: ChangeSink>(&mut self, index: u32, address: IpAddr, ctx: &Ctx, sink: &mut S) {
        let mut local = kernel_route(AF_INET6, RT_TABLE_LOCAL, RTN_LOCAL, address, 128, index);
        local.priority = Some(0);
        self.add_kernel_route(local, KernelRule::Ipv6LocalRoute, ctx, sink);
    }

    /// Duplicate address detection that has run its course by `now` adds
    /// its local route and clears its address's `tentative` flag (what
    /// `addrconf_dad_completed` does); `done` ends one at once (its
    /// notification said so, and brought the flags). Nothing ends without
    /// a time or a notification: a capture without timestamps keeps its
    /// DADs under way.
    pub(super) fn finish_dad<S: ChangeSink>(
        &mut self,
        now: Option<crate::capture::Timestamp>,
        done: Option<(u32, IpAddr)>,
        ctx: &Ctx,
        sink: &mut S,
    ) {
        if self.dad.is_empty() {
            return;
        }
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
        let ended = self.dad.take(over);
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
            } else if !under_way
                && flags & (IFA_F_DADFAILED | IFA_F_NODAD) == 0
                && self.state(index).ipv6_ready
                && !self
                    .routes
                    .to_prefix(AF_INET6, Some(address), 128)
                    .any(|r| r.kind == RTN_LOCAL && r.oif == Some(index))
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

    fn set_tentative(&mut self, index: u32, address: IpAddr) {
        if let Some(a) = self
            .addrs
            .get_mut(&index)
            .and_then(|d| d.list_mut(AF_INET6).iter_mut().find(|a| a.address == address))
        {
            a.flags |= IFA_F_TENTATIVE;
        }
    }

    /// DAD ended unseen (no notification): the address loses its
    /// `tentative` flag as the kernel's own notification would have said.
    fn dad_completed<S: ChangeSink>(&mut self, d: &PendingDad, ctx: &Ctx, sink: &mut S) {
        let Some(list) = self.addrs.get_mut(&d.index).map(|a| a.list_mut(AF_INET6)) else {
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

    /// `fib_del_ifaddr` and its IPv6 counterpart: the routes an address
    /// brought go with it (the prefix and broadcast routes only when no
    /// other address of the device still needs them); IPv4 routes that used
    /// it as their source are flushed.
    pub(super) fn address_removed<S: ChangeSink>(&mut self, a: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let index = a.index;
        self.dad.cancel(|d| d.index == index && d.address == a.address);
        if a.family == AF_INET6 {
            let prefix = v6_prefix(a.address, a.prefix_len);
            let still = self
                .device_addresses(index, AF_INET6)
                .iter()
                .any(|o| o.prefix_len == a.prefix_len && v6_prefix(o.address, o.prefix_len) == prefix);
            let addr = a.address;
            let plen = a.prefix_len;
            let is_ll_prefix = plen == 64 && prefix == IpAddr::V6(Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0));
            let through_dev = |r: &RouteEntry| r.oif == Some(index) && r.gateway.is_none();
            // Its local route, and its prefix route unless another address needs it
            // (looked up by prefix: a device can hold thousands of routes).
            let mut removed = self
                .routes
                .remove_where(Through::Prefix(AF_INET6, Some(addr), 128), |r| {
                    through_dev(r) && r.kind == RTN_LOCAL && r.dst == Some(addr)
                });
            // (`ipv6_del_addr`: on older kernels only a permanent address
            // takes its prefix route with it)
            let takes_prefix_route = a.flags & IFA_F_PERMANENT != 0
                || self
                    .options
                    .kernel
                    .is_none_or(|k| k.prefix_route_goes_with_any_address());
            if !still && !is_ll_prefix && takes_prefix_route {
                removed.extend(
                    self.routes
                        .remove_where(Through::Prefix(AF_INET6, (plen > 0).then_some(prefix), plen), |r| {
                            through_dev(r) && r.kind == RTN_UNICAST && r.protocol == RTPROT_KERNEL
                        }),
                );
            }
            removed.sort_by(super::route_order::dump_order);
            self.report_removed(removed, ctx, sink);
            return;
        }
        let mask = v4_mask(a.prefix_len);
        let prefix = v4(a.peer.unwrap_or(a.address)) & mask;
        let remaining = self.device_addresses(index, AF_INET);
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
        let kernel_v4 = |r: &RouteEntry| r.family == AF_INET && r.oif == Some(index) && r.protocol == RTPROT_KERNEL;
        // The routes it brought, each looked up by its prefix (a device can
        // hold thousands of routes).
        let mut removed = Vec::new();
        if !same_local {
            removed.extend(self.routes.remove_where(Through::Prefix(AF_INET, Some(addr), 32), |r| {
                kernel_v4(r) && r.kind == RTN_LOCAL
            }));
        }
        if primary {
            let net = (plen > 0).then_some(IpAddr::V4(Ipv4Addr::from(prefix)));
            removed.extend(self.routes.remove_where(Through::Prefix(AF_INET, net, plen), |r| {
                kernel_v4(r) && r.prefsrc == Some(addr) && (r.kind == RTN_UNICAST || r.kind == RTN_LOCAL)
            }));
        }
        if !subnet_left {
            let brds = brd.into_iter().chain(primary.then_some(subnet_brd));
            for b in brds {
                removed.extend(self.routes.remove_where(Through::Prefix(AF_INET, Some(b), 32), |r| {
                    kernel_v4(r) && r.kind == RTN_BROADCAST && prim.is_none_or(|p| r.prefsrc == Some(p))
                }));
            }
        }
        removed.sort_by(super::route_order::dump_order);
        self.report_removed(removed, ctx, sink);
        // The device's last IPv4 address gone: IPv4 is disabled on it and
        // every IPv4 route through it goes, silently (`fib_disable_ip`).
        if self.device_addresses(index, AF_INET).is_empty() {
            self.remove_routes(Through::Device(index), |r| r.family == AF_INET, ctx, sink);
        }
        // Routes through any device that used the address as their source
        // (looked for among the devices only when such routes remain).
        if self.routes.has_source(addr) {
            let anywhere = self.addrs.values().any(|d| d.v4.iter().any(|o| o.address == addr));
            if !anywhere {
                self.remove_routes(Through::Source(addr), |r| r.family == AF_INET, ctx, sink);
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
        r.origin = Origin::KernelRule(ctx.packet, rule);
        // (whatever the kernel's timers add after the last record is assumed)
        if self.after_capture.running {
            self.after_capture.routes.insert(r.key());
        }
        self.insert_route(r, Placement::Append, ctx, sink);
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
}

impl Model {
    /// The addresses whose valid lifetime ran out by this message: the
    /// kernel deletes them itself (`check_lifetime`, `addrconf_verify`),
    /// as an `ip addr del` would, announcing it only to listeners. Each
    /// is said to have expired at its end (inferred), then removed.
    pub(super) fn expire_addresses<S: ChangeSink>(&mut self, ctx: &Ctx, sink: &mut S) {
        let Some(now) = ctx.ts.map(nanos) else { return };
        if self.lifetimes.next_end().is_none_or(|end| end > now) {
            return;
        }
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
            let at = Ctx {
                ts: Some(timestamp(end)),
                ..*ctx
            };
            if self.after_capture.running {
                self.after_capture.expired.push((index, e.cidr()));
            }
            if sink.wants_changes() {
                sink.change(at.event(Change::AddrExpired {
                    addr: e.clone(),
                    ifname: self.ifname(index),
                }));
            }
            self.delete_addr(&e, &at, sink);
        }
    }
}

#[cfg(test)]
mod isatap_tests {
    use super::isatap_link_local;
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
