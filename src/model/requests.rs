//! Change requests (RTM_NEW/DEL LINK, ADDR, ROUTE sent to the kernel) and
//! the kernel's answer to them.
//!
//! Contract: a request waits for its NLMSG_ERROR (matched by sequence
//! number and the quoted message type; the newest such request wins, as one
//! `ip` process talks at a time). Error 0 applies it with the kernel's
//! semantics (kernel-assigned ifindex, IPv4 secondary flag, default labels,
//! scopes and metrics, append/prepend/replace); a refusal changes nothing
//! and becomes a `Refused` change with its errno. A request that asked for
//! no ACK is applied at once. Applying is idempotent, so a request whose
//! notification the capture also holds counts once. GET requests for one
//! object are remembered so their reply is recognised as a reply, not as a
//! notification. At most [`MAX_PENDING`] requests wait; older ones are
//! dropped, so memory stays bounded (kept in `pending_requests`).
//!
//! [`MAX_PENDING`]: super::pending_requests::MAX_PENDING

use std::net::IpAddr;

use super::changes::{Change, ChangeSink};
use super::entries::{AddrEntry, KernelRule, LinkEntry, Origin, RouteEntry, ShortName};
use super::kernel_order;
use super::pending_requests::{LinkRequest, Pending, RequestBody};
use super::state::{Ctx, Model, kind_in};
use super::tables::Placement;
use crate::netlink::names::*;
use crate::netlink::rtnl::Netns;
use crate::netlink::values::{AddressFamily, RouteType, TableId};

impl Pending {
    /// `RTM_NEWADDR 10.9.0.2/24 dev 3`, for refusals.
    pub fn summary(&self, model: &Model) -> String {
        let what = match &self.body {
            RequestBody::Link(l) => {
                let name = l.name.map(|n| n.display()).unwrap_or_else(|| model.ifname(l.index));
                match l.kind {
                    Some(k) if self.flags & NLM_F_CREATE != 0 => format!("{name} type {}", k.display()),
                    _ => name,
                }
            }
            RequestBody::Addr(a) => format!("{} dev {}", a.cidr(), model.ifname(a.index)),
            RequestBody::Route(r) => model.route_text(r),
            RequestBody::Get => String::new(),
        };
        format!("{} {what}", message_type(self.msg_type)).trim_end().to_owned()
    }
}

impl Model {
    /// A request seen going to the kernel.
    pub(super) fn request<S: ChangeSink>(&mut self, p: Pending, ctx: &Ctx, sink: &mut S) {
        if matches!(p.body, RequestBody::Get) || p.flags & NLM_F_ACK != 0 {
            self.pending.push(p);
        } else {
            self.stats.requests_applied += 1;
            self.apply_request(&p, ctx, sink);
        }
    }

    /// The GET this message replies to, if any (consumed).
    pub(super) fn take_get_reply(&mut self, seq: u32, msg_type: u16) -> bool {
        let get = match msg_type {
            RTM_NEWLINK => RTM_GETLINK,
            RTM_NEWADDR => RTM_GETADDR,
            RTM_NEWROUTE => RTM_GETROUTE,
            _ => return false,
        };
        self.pending
            .take_newest(seq, |p| p.msg_type == get && matches!(p.body, RequestBody::Get))
            .is_some()
    }

    /// NLMSG_ERROR answering a request: apply it (error 0) or record the refusal.
    pub(super) fn answer<S: ChangeSink>(&mut self, seq: u32, quoted: Option<u16>, error: i32, ctx: &Ctx, sink: &mut S) {
        let Some(p) = self
            .pending
            .take_newest(seq, |p| quoted.is_none_or(|q| q == p.msg_type))
        else {
            return;
        };
        if matches!(p.body, RequestBody::Get) {
            return;
        }
        let probe = matches!(&p.body, RequestBody::Link(l) if l.index == 0 && l.name.is_none() && l.kind.is_none());
        if error == 0 {
            self.stats.requests_applied += 1;
            self.note_link_request_answered(&p);
            self.apply_request(&p, ctx, sink);
        } else if !probe {
            self.stats.requests_refused += 1;
        }
        if error != 0 && sink.wants_changes() && !probe {
            let summary = p.summary(self);
            sink.change(ctx.event(Change::Refused {
                request_packet: p.packet,
                summary,
                errno: error,
            }));
        }
    }

    fn apply_request<S: ChangeSink>(&mut self, p: &Pending, ctx: &Ctx, sink: &mut S) {
        let c = Ctx {
            packet: p.packet,
            ..*ctx
        };
        match &p.body {
            RequestBody::Route(r) => {
                self.shown(true, r.family);
                self.shown_table(r.family, Some(r.table));
            }
            RequestBody::Addr(a) => self.shown(false, a.family),
            _ => {}
        }
        match (&p.body, p.msg_type) {
            (RequestBody::Link(l), RTM_DELLINK) => {
                if let Some(index) = self.resolve(l) {
                    let peer = self.link(index).and_then(|x| x.peer);
                    self.remove_link(index, &c, sink);
                    if let Some(peer) = peer {
                        self.remove_link(peer, &c, sink);
                    }
                }
            }
            // IFLA_TARGET_NETNSID: the whole request acts in another namespace.
            (RequestBody::Link(l), _) if matches!(l.netns, Some(Netns::Id(_))) => {}
            (RequestBody::Link(l), _) => {
                let exists = self.resolve(l);
                match exists {
                    // `dev_change_net_namespace`: the link leaves this namespace.
                    Some(index) if l.netns.is_some() && (p.flags & NLM_F_EXCL == 0 || l.kind.is_none()) => {
                        if let Some(to) = l.netns {
                            self.link_moved_away(index, to, &c, sink);
                        }
                    }
                    Some(index) if p.flags & NLM_F_EXCL == 0 || l.kind.is_none() => {
                        self.modify_link(index, l, &c, sink)
                    }
                    Some(_) => {}
                    // Created directly in another namespace: nothing here
                    // but an ipvlan's id taken from its lower device's port.
                    None if l.netns.is_some() => {
                        if l.kind.is_some_and(|k| matches!(k.as_bytes(), b"ipvlan" | b"ipvtap"))
                            && let Some(lower) = l.lower
                        {
                            self.ipvlan_made_elsewhere(lower);
                        }
                    }
                    None if p.flags & NLM_F_CREATE != 0 => self.create_link(l, &c, sink),
                    None => {}
                }
            }
            (RequestBody::Addr(a), RTM_DELADDR) => {
                let found = self
                    .device_addresses(a.index, a.family)
                    .iter()
                    .find(|e| {
                        e.same_key(a)
                            || (a.family == AddressFamily::Inet && e.address == a.address && a.prefix_len == 0)
                    })
                    .cloned();
                if let Some(e) = found {
                    self.delete_addr(&e, false, &c, sink);
                }
            }
            (RequestBody::Addr(a), _) => self.request_new_addr(a.clone(), p.flags, &c, sink),
            (RequestBody::Route(r), RTM_DELROUTE) => self.request_del_route(r, &c, sink),
            (RequestBody::Route(r), _) => {
                let mut r = r.clone();
                if r.oif.is_none()
                    && let Some(gw) = r.gateway
                {
                    r.oif = self.device_towards(gw);
                }
                r.origin = Origin::Request(p.packet);
                let replace = p.flags & NLM_F_REPLACE != 0;
                if !replace && !self.routes.contains(&r.key()) && self.add_ipv6_sibling(&r, &c, sink) {
                    // (taken as a sibling of the routes it joins)
                } else if !self.routes.contains(&r.key()) || replace {
                    self.insert_route(r, Placement::from_flags(p.msg_type_family(), p.flags), &c, sink);
                }
            }
            _ => {}
        }
        // The request done, the kernel's rtnl lock is free: linkwatch runs.
        self.linkwatch_after_request(&c, sink);
    }

    /// The device the kernel finds for a gateway given without one
    /// (`fib_check_nh`): the longest connected (device) route that holds it.
    fn device_towards(&self, gw: IpAddr) -> Option<u32> {
        let family = if gw.is_ipv4() {
            AddressFamily::Inet
        } else {
            AddressFamily::Inet6
        };
        self.routes
            .longest_match(family, TableId::Main, gw, |r| {
                r.gateway.is_none() && r.oif.is_some() && r.kind == RouteType::Unicast
            })
            .and_then(|r| r.oif)
    }

    /// The device a link request names: by index, else by name.
    fn resolve(&self, l: &LinkRequest) -> Option<u32> {
        if l.index != 0 {
            return self.link(l.index).map(|x| x.index);
        }
        let name = l.name?;
        self.link_by_name(name.as_bytes()).map(|x| x.index)
    }

    /// The index the kernel gives a device created without one: the next
    /// after the last it gave, skipping those in use.
    fn next_index(&mut self) -> u32 {
        let mut i = self.last_assigned_index.saturating_add(1).max(1);
        while self.links.contains(i) {
            i += 1;
        }
        self.last_assigned_index = i;
        i
    }

    fn create_link<S: ChangeSink>(&mut self, l: &LinkRequest, ctx: &Ctx, sink: &mut S) {
        // `ip link add ... type KIND` loads KIND's module where it is not
        // loaded (`rtnl_link_ops` looked up by `request_module`); a tunnel
        // module makes its fallback devices in every namespace as it loads
        // (see `ifindex_gaps`): certain where a complete link dump showed
        // none of them here.
        if self.seen_link_dump
            && let Some(kind) = l.kind
            && let Some(names) = super::ifindex_gaps::module_devices(kind.as_bytes(), |n| {
                self.link_by_name(n.as_bytes()).is_some() || self.allocations.predicted(n)
            })
        {
            let first = self.next_index();
            for _ in 1..names.len() {
                self.next_index();
            }
            self.allocations.loaded(first, names, kind.as_bytes(), ctx.packet);
        }
        // A veth's peer is registered first. `veth_newlink` gives it the
        // index it asked for only when the device itself asked for one too
        // (it tests the device's index, not the peer's): seen on 6.1 and 6.12.
        let mut peer_index = None;
        let peer_elsewhere = l.peer.is_some_and(|(_, _, ns)| ns.is_some());
        if let Some((pi, pname, None)) = &l.peer {
            let (index, origin) = if *pi != 0 && l.index != 0 {
                (*pi, Origin::KernelRule(ctx.packet, KernelRule::VethPeer))
            } else {
                (
                    self.next_index(),
                    Origin::KernelRule(ctx.packet, KernelRule::AssignedIndex),
                )
            };
            let mut e = LinkEntry::placeholder(index, origin);
            e.placeholder = false;
            e.name = pname.unwrap_or_else(|| ShortName::new(format!("veth{}", index).as_bytes()));
            e.kind = l.kind;
            e.dev_type = 1;
            e.flags = IFF_BROADCAST | IFF_MULTICAST;
            peer_index = Some(index);
            self.upsert_link(e, ctx, sink);
            self.registered(index);
        }
        let (index, origin) = if l.index != 0 {
            (l.index, Origin::Request(ctx.packet))
        } else {
            (
                self.next_index(),
                Origin::KernelRule(ctx.packet, KernelRule::AssignedIndex),
            )
        };
        let mut e = LinkEntry::placeholder(index, origin);
        e.placeholder = false;
        e.name = l.name.unwrap_or_default();
        e.kind = l.kind;
        e.dev_type = device_type(l.kind);
        e.mtu = l.mtu;
        e.link = l.lower;
        e.peer = peer_index;
        e.link_elsewhere = peer_elsewhere;
        // dummy devices are NOARP (no duplicate address detection); IP
        // tunnels too, point-to-point when they have a remote end
        let remote = l.tunnel_remote.is_some_and(|r| r.as_bytes().iter().any(|&b| b != 0));
        e.flags = match e.dev_type {
            ARPHRD_TUNNEL | ARPHRD_SIT | ARPHRD_IPGRE if remote => IFF_POINTOPOINT | IFF_NOARP,
            ARPHRD_TUNNEL | ARPHRD_SIT | ARPHRD_IPGRE => IFF_NOARP,
            ARPHRD_NONE => IFF_POINTOPOINT | IFF_NOARP | IFF_MULTICAST,
            _ if l.kind.is_some_and(|k| k.as_bytes() == b"dummy") => IFF_BROADCAST | IFF_NOARP,
            _ => IFF_BROADCAST | IFF_MULTICAST,
        };
        // An IPv4 tunnel's link-layer address is its local IPv4 address.
        if matches!(e.dev_type, ARPHRD_TUNNEL | ARPHRD_SIT | ARPHRD_IPGRE) {
            e.hwaddr = Some(l.tunnel_local.unwrap_or_else(|| ShortName::new(&[0; 4])));
        }
        if let Some(h) = l.hwaddr {
            e.hwaddr = Some(h);
            e.hwaddr_set = true;
        } else if l.kind.is_some_and(|k| k.as_bytes() == b"vlan") {
            e.hwaddr = l.lower.and_then(|i| self.link(i)).and_then(|x| x.hwaddr);
        }
        self.upsert_link(e, ctx, sink);
        if let Some(pi) = peer_index {
            self.links.update(pi, |p| p.peer = Some(index));
        }
        self.registered(index);
        if l.master.is_some() || l.flags != 0 || l.change != 0 {
            self.modify_link(index, l, ctx, sink);
        }
    }

    fn modify_link<S: ChangeSink>(&mut self, index: u32, l: &LinkRequest, ctx: &Ctx, sink: &mut S) {
        let Some(mut e) = self.link(index).cloned() else { return };
        let old_master = e.master;
        if l.index != 0
            && let Some(n) = l.name
            && n != e.name
        {
            e.name = n;
        }
        if l.flags != 0 || l.change != 0 {
            let new = if l.change != 0 {
                (l.flags & l.change) | (e.flags & !l.change)
            } else {
                l.flags
            };
            e.flags = (e.flags & !IFF_UP) | (new & IFF_UP);
        }
        if let Some(m) = l.master {
            e.master = (m != 0).then_some(m);
        }
        // A bond marks its new slave IFF_SLAVE, so that IPv6 leaves it
        // alone, and then opens it (`bond_enslave`); releasing one clears
        // the mark and closes it (`__bond_release_one`).
        let bond = |m: Option<u32>| m.and_then(|m| self.link(m)).is_some_and(|b| kind_in(b, &[b"bond"]));
        if e.master != old_master {
            if bond(e.master) {
                e.flags |= IFF_SLAVE | IFF_UP;
            } else if bond(old_master) {
                e.flags &= !(IFF_SLAVE | IFF_UP);
            }
        }
        if let Some(mtu) = l.mtu {
            e.mtu = Some(mtu);
        }
        if let Some(h) = l.hwaddr {
            e.hwaddr = Some(h);
            e.hwaddr_set = true;
        }
        let renamed = e.name != self.link(index).map(|x| x.name).unwrap_or_default();
        let name = e.name;
        let up_changed = self.link(index).is_some_and(|x| (x.flags ^ e.flags) & IFF_UP != 0);
        let now_up = e.flags & IFF_UP;
        let new_mtu = e.mtu.filter(|&m| self.link(index).is_some_and(|x| x.mtu != Some(m)));
        self.upsert_link(e, ctx, sink);
        let mtu_followers = match new_mtu {
            Some(m) => self.stacked_follow_mtu(index, m, ctx, sink),
            None => Vec::new(),
        };
        if up_changed {
            // VLANs go up and down with their lower device (`vlan_device_event`).
            let mut vlans: Vec<u32> = self
                .links
                .followers(index)
                .iter()
                .filter_map(|&v| self.link(v))
                .filter(|v| v.link == Some(index) && v.kind.is_some_and(|k| k.as_bytes() == b"vlan"))
                .map(|v| v.index)
                .collect();
            vlans.sort_by_key(|&v| self.links.position_of(v));
            for v in vlans {
                if let Some(mut x) = self.link(v).cloned() {
                    x.flags = (x.flags & !IFF_UP) | now_up;
                    self.upsert_link(x, ctx, sink);
                }
            }
        }
        if renamed {
            self.relabel(index, name, ctx, sink);
        }
        for b in [old_master, l.master].into_iter().flatten() {
            self.bridge_address(b);
        }
        self.links_changed(Some(index), old_master.into_iter().chain(mtu_followers), ctx, sink);
    }

    fn request_new_addr<S: ChangeSink>(&mut self, mut a: AddrEntry, flags: u16, ctx: &Ctx, sink: &mut S) {
        if a.family == AddressFamily::Inet {
            if a.label.is_none() {
                a.label = self.link(a.index).map(|l| l.name);
            }
            let list = self.device_addresses(a.index, AddressFamily::Inet);
            let exists = list.iter().any(|e| e.same_key(&a));
            if exists && flags & NLM_F_REPLACE == 0 {
                return;
            }
            if !exists && kernel_order::ipv4_would_be_secondary(list, &a) {
                a.flags |= IFA_F_SECONDARY;
                a.header_flags |= IFA_F_SECONDARY as u8;
            }
        } else if self
            .device_addresses(a.index, AddressFamily::Inet6)
            .iter()
            .any(|e| e.same_key(&a))
            && flags & NLM_F_REPLACE == 0
        {
            return;
        }
        a.flags |= IFA_F_PERMANENT;
        self.upsert_addr(a.clone(), ctx, sink);
        self.address_added(&a, ctx, sink);
    }

    fn request_del_route<S: ChangeSink>(&mut self, q: &RouteEntry, ctx: &Ctx, sink: &mut S) {
        let first = self
            .routes
            .prefix(q.family, q.table, q.dst, q.dst_len)
            .find(|r| {
                r.dst == q.dst
                    && r.tos == q.tos
                    && q.priority.is_none_or(|m| r.priority.unwrap_or(0) == m)
                    && q.gateway.is_none_or(|g| r.gateway == Some(g))
                    && q.oif.is_none_or(|o| r.oif == Some(o))
                    && q.prefsrc.is_none_or(|s| r.prefsrc == Some(s))
                    && (q.kind == RouteType::Unicast || q.kind == RouteType::Unspec || q.kind == r.kind)
            })
            .map(RouteEntry::key);
        if let Some(key) = first {
            self.remove_route(&key, ctx, sink);
        }
    }
}

impl Pending {
    fn msg_type_family(&self) -> AddressFamily {
        match &self.body {
            RequestBody::Route(r) => r.family,
            RequestBody::Addr(a) => a.family,
            _ => AddressFamily::Unspec,
        }
    }
}

/// The device type a link of this kind gets (`ARPHRD_*`, what its
/// driver's setup sets): Ethernet unless it is an IP tunnel or wireguard.
fn device_type(kind: Option<ShortName>) -> u16 {
    match kind.as_ref().map(ShortName::as_bytes) {
        Some(b"ipip") => ARPHRD_TUNNEL,
        Some(b"sit") => ARPHRD_SIT,
        Some(b"gre") => ARPHRD_IPGRE,
        Some(b"ip6tnl") => ARPHRD_TUNNEL6,
        Some(b"ip6gre") => ARPHRD_IP6GRE,
        Some(b"wireguard") => ARPHRD_NONE,
        _ => ARPHRD_ETHER,
    }
}
