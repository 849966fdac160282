//! IPv6 autoconfiguration by device type: what `addrconf_notify` does when
//! a device becomes ready (net/ipv6/addrconf.c: `addrconf_init_auto_addrs`
//! picks `addrconf_sit_config`, `addrconf_gre_config`, `init_loopback` or
//! `addrconf_dev_config` by `dev->type`; `ipv6_generate_eui64` picks the
//! interface identifier; `add_v4_addrs` makes addresses from IPv4 ones).
//!
//! Seen on Debian's 6.1.0-50 and 6.12.117 (`fixtures/daemons/`
//! `tunnels-ipv6`, `calico-devices`), alike on both:
//! - ipip (ARPHRD_TUNNEL): `ff00::/8`; with a local address the ISATAP-style
//!   link-local `fe80::[200:]5efe:a.b.c.d` and `fe80::/64`; without one
//!   (`tunl0`) no link-local and no `fe80::/64`.
//! - sit (ARPHRD_SIT): not point-to-point (`sit0`, a sit without a remote):
//!   `::a.b.c.d/96` (scope global; `::127.0.0.1` scope host) from its local
//!   address or else from every IPv4 address of every up device, with
//!   `::/96`, no `ff00::/8`; point-to-point: `fe80::a.b.c.d/64` (host-scope
//!   IPv4 addresses skipped), `fe80::/64` and `ff00::/8`.
//! - gre (ARPHRD_IPGRE): `ff00::/8` always (`addrconf_add_dev`, the fix of
//!   the 6.1.139 regression, "gre: Fix IPv6 multicast route creation");
//!   with a local address the ISATAP-style link-local; without one (`gre0`,
//!   a GRE with only a remote) one `fe80::a.b.c.d/64` per IPv4 address as
//!   sit makes them (183185a18ff9 "gre: Fix IPv6 link-local address
//!   generation." and 3e6a0243ff00 "gre: Fix again IPv6 link-local address
//!   generation.", both in these Debian builds; before them, 5.18's
//!   e5dd729460ca gave every non-Ethernet GRE the IPv4-derived ones).
//! - ip6tnl, ip6gre, rawip: an EUI-64-style link-local from the device's
//!   random permanent address, which no message but the address's own
//!   notification shows: unknown on a quiet host.
//! - ARPHRD_NONE (wireguard, tun): the random mode; wireguard's `wg_open`
//!   sets `addr_gen_mode` to none, so `wireguard.cali` gets `ff00::/8` only.
//! - Ethernet (vxlan, gretap, veth, dummy...): EUI-64 from the MAC.
//!
//! Contract: [`plan`] is a pure function of the device's type, flags,
//! hardware address (the local IPv4 address for IPv4 tunnels), kind and
//! `addr_gen_mode` (`IN6_ADDR_GEN_MODE_*`: pass the device's own when a
//! message showed it, `IN6_ADDR_GEN_MODE_EUI64`, the default, else);
//! [`Model::addrconf_by_type`] applies it.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::address_rules::kernel_route;
use super::changes::ChangeSink;
use super::entries::{AddrEntry, KernelRule, Origin, UnknownWhy};
use super::state::{Ctx, Model};
use crate::netlink::names::*;
use crate::netlink::values::{AddressFamily, RouteType, Scope, TableId};

/// `IN6_ADDR_GEN_MODE_EUI64` (include/uapi/linux/if_link.h), the default.
pub const IN6_ADDR_GEN_MODE_EUI64: u8 = 0;
/// `IN6_ADDR_GEN_MODE_NONE`: no link-local address.
pub const IN6_ADDR_GEN_MODE_NONE: u8 = 1;
/// `IN6_ADDR_GEN_MODE_STABLE_PRIVACY`: RFC 7217, from a secret.
pub const IN6_ADDR_GEN_MODE_STABLE_PRIVACY: u8 = 2;
/// `IN6_ADDR_GEN_MODE_RANDOM`: from a random secret.
pub const IN6_ADDR_GEN_MODE_RANDOM: u8 = 3;

const ARPHRD_RAWIP: u16 = 519;
const ARPHRD_FDDI: u16 = 774;
const ARPHRD_ARCNET: u16 = 7;
const ARPHRD_INFINIBAND: u16 = 32;
const ARPHRD_IEEE1394: u16 = 24;
const ARPHRD_6LOWPAN: u16 = 825;

/// The EUI-64 link-local address of a 6-byte MAC (`addrconf_ifid_eui48`)
/// with the device's `dev_id`: 0 for most devices, a non-zero one (an
/// ipvlan's, see `ipvlan_port`) takes the place of `ff:fe`, and the
/// universal/local bit is then left as the MAC has it.
pub fn eui64_link_local_with_id(mac: &[u8], dev_id: u16) -> Option<Ipv6Addr> {
    let m: [u8; 6] = mac.try_into().ok()?;
    if m == [0; 6] {
        return None;
    }
    let [hi, lo] = dev_id.to_be_bytes();
    let (first, mid) = if dev_id == 0 {
        (m[0] ^ 2, [0xff, 0xfe])
    } else {
        (m[0], [hi, lo])
    };
    Some(Ipv6Addr::from([
        0xfe, 0x80, 0, 0, 0, 0, 0, 0, first, m[1], m[2], mid[0], mid[1], m[3], m[4], m[5],
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

/// The link-local address addrconf gives the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkLocal {
    /// None, and no `fe80::/64` for it.
    None,
    /// This one, with `fe80::/64`.
    Known(Ipv6Addr),
    /// One the capture cannot show (until its notification), with `fe80::/64`.
    Unknown(UnknownWhy),
}

/// `add_v4_addrs`: addresses made from IPv4 addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FromV4 {
    /// `::a.b.c.d/96` (sit, not point-to-point).
    Compat96,
    /// `fe80::a.b.c.d/64` (point-to-point sit, GRE without a local address).
    LinkLocal,
}

/// What addrconf makes for a device that becomes ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// `multicast ff00::/8` in table local.
    pub mroute: bool,
    /// Its link-local address from an interface identifier.
    pub link_local: LinkLocal,
    /// Addresses derived from IPv4 ones, from `local` (the device's own
    /// local address, when it has one) or else every IPv4 address of the
    /// namespace's up devices.
    pub from_v4: Option<(FromV4, Option<Ipv4Addr>)>,
}

/// The device's local IPv4 address as its hardware address holds it
/// (`Some(0.0.0.0)` for none set).
fn v4_local(hwaddr: Option<&[u8]>) -> Option<Ipv4Addr> {
    let a: [u8; 4] = hwaddr?.try_into().ok()?;
    Some(Ipv4Addr::from(a))
}

/// What addrconf does for a device of type `dev_type` with `flags`, its
/// hardware address (`None`: no message showed it), its `IFLA_INFO_KIND`
/// its `addr_gen_mode` and its `dev_id` (`None`: an ipvlan's, unknown),
/// when it becomes ready. The loopback device is not planned here
/// (`init_loopback`).
pub fn plan(
    dev_type: u16,
    flags: u32,
    hwaddr: Option<&[u8]>,
    kind: Option<&[u8]>,
    addr_gen_mode: u8,
    dev_id: Option<u16>,
) -> Plan {
    let p2p = flags & IFF_POINTOPOINT != 0;
    // wireguard's `wg_open` turns address generation off on its device
    let mode = if kind == Some(b"wireguard".as_slice()) {
        IN6_ADDR_GEN_MODE_NONE
    } else {
        addr_gen_mode
    };
    let nothing = Plan {
        mroute: false,
        link_local: LinkLocal::None,
        from_v4: None,
    };
    let random = |mode: u8| match mode {
        IN6_ADDR_GEN_MODE_NONE => Some(LinkLocal::None),
        IN6_ADDR_GEN_MODE_STABLE_PRIVACY | IN6_ADDR_GEN_MODE_RANDOM => Some(LinkLocal::Unknown(UnknownWhy::Random)),
        _ => None,
    };
    match dev_type {
        ARPHRD_SIT => {
            let local = v4_local(hwaddr).filter(|a| !a.is_unspecified());
            let from = if !p2p {
                Some((FromV4::Compat96, local))
            } else if mode != IN6_ADDR_GEN_MODE_NONE {
                Some((FromV4::LinkLocal, local))
            } else {
                None
            };
            Plan {
                mroute: p2p,
                link_local: LinkLocal::None,
                from_v4: from,
            }
        }
        ARPHRD_IPGRE | ARPHRD_IP6GRE => {
            let local = v4_local(hwaddr);
            let unbound = dev_type == ARPHRD_IPGRE && local.is_some_and(|a| a.is_unspecified());
            if unbound && mode == IN6_ADDR_GEN_MODE_EUI64 {
                return Plan {
                    mroute: true,
                    link_local: LinkLocal::None,
                    from_v4: (mode != IN6_ADDR_GEN_MODE_NONE).then_some((FromV4::LinkLocal, None)),
                };
            }
            let ll = random(mode).unwrap_or(match dev_type {
                ARPHRD_IP6GRE => LinkLocal::Unknown(UnknownWhy::PermanentAddress),
                _ => match hwaddr {
                    None => LinkLocal::Unknown(UnknownWhy::UnseenMac),
                    Some(h) => isatap_link_local(h).map_or(LinkLocal::None, LinkLocal::Known),
                },
            });
            Plan {
                mroute: true,
                link_local: ll,
                from_v4: None,
            }
        }
        ARPHRD_ETHER | ARPHRD_FDDI | ARPHRD_ARCNET | ARPHRD_INFINIBAND | ARPHRD_IEEE1394 | ARPHRD_TUNNEL6
        | ARPHRD_6LOWPAN | ARPHRD_TUNNEL | ARPHRD_NONE | ARPHRD_RAWIP => {
            // (a device with no hardware header has no EUI-64: random)
            let mode = if dev_type == ARPHRD_NONE && mode == IN6_ADDR_GEN_MODE_EUI64 {
                IN6_ADDR_GEN_MODE_RANDOM
            } else {
                mode
            };
            let ll = random(mode).unwrap_or(match dev_type {
                ARPHRD_TUNNEL => match hwaddr {
                    None => LinkLocal::Unknown(UnknownWhy::UnseenMac),
                    // (no local address: no interface id, and no fe80::/64)
                    Some(h) => isatap_link_local(h).map_or(LinkLocal::None, LinkLocal::Known),
                },
                ARPHRD_TUNNEL6 | ARPHRD_RAWIP => LinkLocal::Unknown(UnknownWhy::PermanentAddress),
                ARPHRD_ETHER => match (hwaddr, dev_id) {
                    (None, _) => LinkLocal::Unknown(UnknownWhy::UnseenMac),
                    (Some(_), None) => LinkLocal::Unknown(UnknownWhy::IpvlanDevId),
                    (Some(h), Some(id)) => eui64_link_local_with_id(h, id)
                        .map_or(LinkLocal::Unknown(UnknownWhy::UnseenMac), LinkLocal::Known),
                },
                _ => LinkLocal::Unknown(UnknownWhy::UnseenMac),
            });
            Plan {
                mroute: true,
                link_local: ll,
                from_v4: None,
            }
        }
        _ => nothing,
    }
}

impl Model {
    /// A device (not the loopback) became ready for IPv6: what its type
    /// gets (see [`plan`]), with the device's own `addr_gen_mode` where a
    /// link message showed it (else the default, EUI-64), nothing where it
    /// showed `disable_ipv6`, and a link-local made only from a MAC the
    /// device is known to have (a bridge met in a dump may have taken a
    /// port's unseen).
    pub(super) fn addrconf_by_type<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let st = self.state(index);
        if st.conf.disable_ipv6 == Some(true) {
            return;
        }
        let gen_mode = st.conf.addr_gen_mode.unwrap_or(IN6_ADDR_GEN_MODE_EUI64);
        let own = !st.mac_uncertain;
        let Some(l) = self.link(index) else { return };
        let hw = l.hwaddr.filter(|_| own);
        let kind = l.kind;
        let p = plan(
            l.dev_type,
            l.flags,
            hw.as_ref().map(|h| h.as_bytes()),
            kind.as_ref().map(|k| k.as_bytes()),
            gen_mode,
            self.ipvlan_dev_id(index),
        );
        let p2p = l.flags & IFF_POINTOPOINT != 0;
        if p.mroute {
            self.add_multicast_route(index, ctx, sink);
        }
        let origin = Origin::KernelRule(ctx.packet, KernelRule::Ipv6LinkLocal);
        match p.link_local {
            LinkLocal::None => {}
            LinkLocal::Known(a) => {
                self.link_local_route(index, ctx, sink);
                self.kernel_addr(AddrEntry::link_local(index, a, origin), ctx, sink);
            }
            LinkLocal::Unknown(why) => {
                self.link_local_route(index, ctx, sink);
                let st = self.state_mut(index);
                st.unknown_link_local = true;
                st.unknown_link_local_why = why;
                let placeholder = AddrEntry::link_local(index, Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), origin);
                if why == UnknownWhy::UnseenMac {
                    self.kernel_addr(placeholder, ctx, sink);
                } else if !self
                    .device_addresses(index, AddressFamily::Inet6)
                    .iter()
                    .any(|e| e.same_key(&placeholder))
                {
                    // (no local route for an address whose value is unknown:
                    // its own comes with its notification)
                    self.upsert_addr(placeholder, ctx, sink);
                }
            }
        }
        if let Some((how, local)) = p.from_v4 {
            // (`for_each_netdev`: the namespace's devices in the order they
            // were registered, taken as ascending ifindex)
            let sources: Vec<(Ipv4Addr, bool)> = match local {
                Some(a) => vec![(a, false)],
                None => {
                    let mut up: Vec<u32> = self
                        .links()
                        .iter()
                        .filter(|x| x.flags & IFF_UP != 0)
                        .map(|x| x.index)
                        .collect();
                    up.sort_unstable();
                    up.into_iter()
                        .flat_map(|i| self.device_addresses(i, AddressFamily::Inet).to_vec())
                        .filter(|a| a.scope != Scope::Link && !(p2p && a.scope >= Scope::Host))
                        .filter_map(|a| match a.address {
                            IpAddr::V4(v4) => Some((v4, a.scope >= Scope::Host)),
                            IpAddr::V6(_) => None,
                        })
                        .collect()
                }
            };
            for (v4, host) in sources {
                let o = v4.octets();
                let (address, plen, scope) = match how {
                    FromV4::Compat96 => (
                        Ipv6Addr::from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, o[0], o[1], o[2], o[3]]),
                        96,
                        if host { Scope::Host } else { Scope::Universe },
                    ),
                    FromV4::LinkLocal => (
                        Ipv6Addr::from([0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, o[0], o[1], o[2], o[3]]),
                        64,
                        if host { Scope::Host } else { Scope::Link },
                    ),
                };
                let a = AddrEntry::kernel_made(
                    index,
                    IpAddr::V6(address),
                    plen,
                    scope,
                    None,
                    Origin::KernelRule(ctx.packet, KernelRule::Ipv6FromIpv4),
                );
                // (`add_addr`: made permanent and not tentative, announced at
                // once, with its prefix route; not `addrconf_add_dev`'s route)
                if !self
                    .device_addresses(index, AddressFamily::Inet6)
                    .iter()
                    .any(|e| e.same_key(&a))
                {
                    self.upsert_addr(a.clone(), ctx, sink);
                    self.ipv6_address_routes(&a, ctx, sink);
                }
            }
        }
    }

    /// An address the kernel made, with what comes with it (once).
    fn kernel_addr<S: ChangeSink>(&mut self, a: AddrEntry, ctx: &Ctx, sink: &mut S) {
        if self.device_addresses(a.index, a.family).iter().any(|e| e.same_key(&a)) {
            return;
        }
        self.upsert_addr(a.clone(), ctx, sink);
        self.address_added(&a, ctx, sink);
    }

    /// `fe80::/64` through the device (main, metric 256).
    /// The device of a notified route that is a kernel-made `fe80::/64`
    /// new to the tables (see [`link_local_implied_by_route`]).
    pub(super) fn implies_link_local(&self, e: &crate::model::entries::RouteEntry) -> Option<u32> {
        let fe80 = IpAddr::V6(Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0));
        let kernel_made = e.family == AddressFamily::Inet6
            && e.dst_len == 64
            && e.dst == Some(fe80)
            && e.kind == RouteType::Unicast
            && e.protocol == crate::netlink::values::RouteProtocol::Kernel
            && e.table == TableId::Main
            && e.gateway.is_none();
        e.oif.filter(|_| kernel_made && !self.routes.contains(&e.key()))
    }

    /// A new notified `fe80::/64` route the kernel made on `index`, right
    /// after its `ff00::/8`, on a device the model holds no link-local
    /// address for: the kernel configured IPv6 there
    /// (`addrconf_dev_config`: `ff00::/8` and `fe80::/64`, both notified,
    /// and the link-local address, tentative, which is announced only when
    /// its duplicate address detection ends). It happens where no other
    /// message says so: `disable_ipv6` set back to 0 (a sysctl), or the
    /// kernel's linkwatch run for a device the model had not yet run. The
    /// model configures it as its type gets it, now.
    pub(super) fn link_local_implied_by_route<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let Some(l) = self.link(index) else { return };
        if l.placeholder || l.flags & IFF_UP == 0 || l.flags & IFF_LOOPBACK != 0 {
            return;
        }
        // (with `ff00::/8` just notified before it, as `addrconf_dev_config`
        // makes them: a link-local added by hand has its prefix route
        // notified before itself, on a device already configured)
        let ff00 = IpAddr::V6(Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0));
        // (looked up through the device: a host has one per device)
        let mroute_just_made = [TableId::Local, TableId::Main].into_iter().any(|table| {
            self.routes
                .prefix_via(AddressFamily::Inet6, table, Some(ff00), 8, index)
                .any(|r| matches!(r.origin, Origin::Inferred(p) if p + 2 >= ctx.packet))
        });
        if !mroute_just_made {
            return;
        }
        let has_link_local = self
            .device_addresses(index, AddressFamily::Inet6)
            .iter()
            .any(|a| matches!(a.address, IpAddr::V6(v6) if v6.segments()[0] & 0xffc0 == 0xfe80));
        if has_link_local {
            return;
        }
        let st = self.state_mut(index);
        if st.conf.disable_ipv6 == Some(true) {
            st.conf.disable_ipv6 = Some(false);
        }
        st.ipv6_ready = true;
        st.ipv6_configured = true;
        self.addrconf_by_type(index, ctx, sink);
    }

    fn link_local_route<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let mut ll = kernel_route(
            AddressFamily::Inet6,
            TableId::Main,
            RouteType::Unicast,
            IpAddr::V6(Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0)),
            64,
            index,
        );
        ll.priority = Some(256);
        self.add_kernel_route(ll, KernelRule::Ipv6LinkLocalRoute, ctx, sink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ll(s: &str) -> LinkLocal {
        LinkLocal::Known(s.parse().unwrap_or(Ipv6Addr::UNSPECIFIED))
    }

    const EUI64: u8 = IN6_ADDR_GEN_MODE_EUI64;
    const P2P: u32 = IFF_POINTOPOINT | IFF_NOARP | IFF_UP;
    const NOARP: u32 = IFF_NOARP | IFF_UP;

    /// What 6.1 and 6.12 made in `tunnels-ipv6` and `calico-devices`.
    #[test]
    fn each_device_type_gets_what_the_kernels_made() {
        // tunl0: no link-local, only ff00::/8
        let tunl0 = plan(ARPHRD_TUNNEL, NOARP, Some(&[0; 4]), Some(b"ipip"), EUI64, Some(0));
        assert_eq!(
            (tunl0.mroute, tunl0.link_local, tunl0.from_v4),
            (true, LinkLocal::None, None)
        );
        let ipip1 = plan(
            ARPHRD_TUNNEL,
            P2P,
            Some(&[45, 91, 19, 1]),
            Some(b"ipip"),
            EUI64,
            Some(0),
        );
        assert_eq!(ipip1.link_local, ll("fe80::200:5efe:2d5b:1301"));
        // sit0 and a sit with only a local address: ::a.b.c.d/96, no ff00::/8
        let sit0 = plan(ARPHRD_SIT, NOARP, Some(&[0; 4]), Some(b"sit"), EUI64, Some(0));
        assert_eq!((sit0.mroute, sit0.from_v4), (false, Some((FromV4::Compat96, None))));
        let sit2 = plan(ARPHRD_SIT, NOARP, Some(&[45, 91, 19, 1]), Some(b"sit"), EUI64, Some(0));
        assert_eq!(
            sit2.from_v4,
            Some((FromV4::Compat96, Some(Ipv4Addr::new(45, 91, 19, 1))))
        );
        let sit1 = plan(ARPHRD_SIT, P2P, Some(&[10, 19, 0, 1]), Some(b"sit"), EUI64, Some(0));
        assert_eq!(
            (sit1.mroute, sit1.link_local, sit1.from_v4),
            (
                true,
                LinkLocal::None,
                Some((FromV4::LinkLocal, Some(Ipv4Addr::new(10, 19, 0, 1))))
            )
        );
        // gre0 (and a GRE with only a remote): one per IPv4 address, ff00::/8
        let gre0 = plan(ARPHRD_IPGRE, NOARP, Some(&[0; 4]), Some(b"gre"), EUI64, Some(0));
        assert_eq!((gre0.mroute, gre0.from_v4), (true, Some((FromV4::LinkLocal, None))));
        let gre1 = plan(ARPHRD_IPGRE, P2P, Some(&[10, 19, 0, 1]), Some(b"gre"), EUI64, Some(0));
        assert_eq!((gre1.mroute, gre1.link_local), (true, ll("fe80::5efe:a13:1")));
        // ip6tnl: random permanent address
        let ip6tnl = plan(ARPHRD_TUNNEL6, NOARP, Some(&[0; 16]), Some(b"ip6tnl"), EUI64, Some(0));
        assert_eq!(ip6tnl.link_local, LinkLocal::Unknown(UnknownWhy::PermanentAddress));
        // Calico's devices
        let wg = plan(ARPHRD_NONE, P2P, None, Some(b"wireguard"), EUI64, Some(0));
        assert_eq!((wg.mroute, wg.link_local), (true, LinkLocal::None));
        let vx = plan(
            ARPHRD_ETHER,
            IFF_UP,
            Some(&[0x66, 0x2c, 0x5b, 0x7e, 1, 2]),
            Some(b"vxlan"),
            EUI64,
            Some(0),
        );
        assert_eq!((vx.mroute, vx.link_local), (true, ll("fe80::642c:5bff:fe7e:102")));
        // a tun device (ARPHRD_NONE) gets a random one
        let tun = plan(ARPHRD_NONE, P2P, None, Some(b"tun"), EUI64, Some(0));
        assert_eq!(tun.link_local, LinkLocal::Unknown(UnknownWhy::Random));
        // addr_gen_mode none: no link-local anywhere
        let none = plan(
            ARPHRD_ETHER,
            IFF_UP,
            Some(&[2, 0, 0, 0, 0, 1]),
            None,
            IN6_ADDR_GEN_MODE_NONE,
            Some(0),
        );
        assert_eq!((none.mroute, none.link_local), (true, LinkLocal::None));
        let gre0_none = plan(
            ARPHRD_IPGRE,
            NOARP,
            Some(&[0; 4]),
            Some(b"gre"),
            IN6_ADDR_GEN_MODE_NONE,
            Some(0),
        );
        assert_eq!(gre0_none.from_v4, None);
    }

    /// What 6.1 and 6.12 made in `ipvlan-mtu`: the ipvlans' dev_id (2 and
    /// 3) in place of ff:fe, the u/l bit as in the MAC; an unknown id gives
    /// an unknown address.
    #[test]
    fn an_ipvlan_link_local_carries_its_dev_id() {
        let mac = [0x56, 0xb1, 0x08, 0xd5, 0x9e, 0x2d];
        let lower = plan(ARPHRD_ETHER, IFF_UP, Some(&mac), Some(b"dummy"), EUI64, Some(0));
        assert_eq!(lower.link_local, ll("fe80::54b1:8ff:fed5:9e2d"));
        let ipv1 = plan(ARPHRD_ETHER, IFF_UP, Some(&mac), Some(b"ipvlan"), EUI64, Some(2));
        assert_eq!(ipv1.link_local, ll("fe80::56b1:800:2d5:9e2d"));
        let ipv2 = plan(ARPHRD_ETHER, IFF_UP, Some(&mac), Some(b"ipvlan"), EUI64, Some(3));
        assert_eq!(ipv2.link_local, ll("fe80::56b1:800:3d5:9e2d"));
        let unknown = plan(ARPHRD_ETHER, IFF_UP, Some(&mac), Some(b"ipvlan"), EUI64, None);
        assert_eq!(unknown.link_local, LinkLocal::Unknown(UnknownWhy::IpvlanDevId));
    }
}
