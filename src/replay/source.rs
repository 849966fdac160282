//! Which source address Linux picks for a destination (what a UDP
//! `connect()` followed by `getsockname()` returns), from the model.
//!
//! Contract: a pure function of the model. IPv4: route lookup in the local,
//! main and default tables (policy rules are not captured, so the default
//! rule set is assumed), longest prefix then lowest metric; the route's
//! `prefsrc`, else `inet_select_addr` on the output device (the first
//! primary of suitable scope in the gateway's or destination's subnet, else
//! the first primary of suitable scope, else an address of another device).
//! IPv6: the route's `prefsrc`, else `ipv6_dev_get_saddr`'s RFC 6724 rules
//! over every usable address. Every answer says which route decided it.

use std::net::{IpAddr, Ipv6Addr};

use crate::model::{AddrEntry, Model, RouteEntry, prefix};
use crate::netlink::names::*;
use crate::netlink::values::{AddressFamily, RouteType, Scope, TableId};

/// The kernel's answer for one destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceChoice {
    /// The source address.
    pub source: IpAddr,
    /// Output device.
    pub oif: Option<u32>,
    /// The route that decided it.
    pub route: RouteEntry,
    /// How the source was chosen.
    pub why: Why,
}

/// How the kernel chose a source address (worded in `report::source`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// A local route whose `src` is the destination itself.
    LocalRouteSelf {
        /// The route's `src`.
        src: IpAddr,
    },
    /// A local route for `dst` whose `src` is the subnet's primary.
    LocalRouteSrc {
        /// The destination.
        dst: IpAddr,
        /// The route's `src`.
        src: IpAddr,
    },
    /// The route's `prefsrc`.
    RouteSrc {
        /// The route's `prefsrc`.
        src: IpAddr,
    },
    /// A local route without `src`: the destination itself.
    Local,
    /// IPv4: the first primary of `device` in the subnet of `near` (the
    /// gateway).
    FirstPrimaryNear {
        /// The output device.
        device: String,
        /// The gateway (or destination) whose subnet is looked in.
        near: IpAddr,
    },
    /// IPv4: the first primary of `device` (a route without a gateway).
    FirstPrimary {
        /// The output device.
        device: String,
    },
    /// IPv4: the first primary of `device`, none being in `near`'s subnet.
    FirstPrimaryNotNear {
        /// The output device.
        device: String,
        /// The gateway (or destination) whose subnet was looked in.
        near: IpAddr,
    },
    /// IPv4: `device` has no address; the first suitable one on `on`.
    OtherDevice {
        /// The output device, without an address.
        device: String,
        /// The device the source is on.
        on: String,
    },
    /// IPv6: the destination is one of the host's addresses.
    DestinationLocal,
    /// IPv6: the best address by RFC 6724's rules, with what scored it.
    Rfc6724 {
        /// The address chosen.
        source: IpAddr,
        /// Its scope (RFC 6724's, as the kernel computes it).
        scope: u8,
        /// It is deprecated (preferred lifetime over).
        deprecated: bool,
        /// It is on the output device.
        on_device: bool,
        /// Its policy label equals the destination's.
        label_matches: bool,
        /// The bits it shares with the destination.
        common_bits: u32,
    },
}

/// Why no source could be chosen (worded in `report::source`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSource {
    /// The capture holds no route at all for that family.
    NoRoutes,
    /// No route matches (ENETUNREACH).
    Unreachable,
    /// A blackhole/unreachable/prohibit route matches (the route, as
    /// `ip route` prints it, and its type).
    Rejected {
        /// The route, as `ip route` prints it.
        route: String,
        /// Its type.
        kind: Rejecting,
    },
    /// The output device has no usable address.
    NoAddress(String),
    /// The route has several next hops and no `src`: the kernel hashes
    /// the flow to one of them and picks a source on its device; which
    /// one, the capture does not show (the route, as `ip route` prints it).
    NextHopUnknown(String),
}

/// The type of a route that refuses to carry traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejecting {
    /// `RTN_BLACKHOLE`.
    Blackhole,
    /// `RTN_UNREACHABLE`.
    Unreachable,
    /// `RTN_PROHIBIT`.
    Prohibit,
}

/// Whether `ip` lies in `net/len`.
pub fn in_prefix(ip: IpAddr, net: IpAddr, len: u8) -> bool {
    prefix::contains(net, len, ip)
}

/// Leading bits two addresses share.
pub fn common_prefix_len(a: IpAddr, b: IpAddr) -> u32 {
    let shared = (prefix::bits(Some(a)) ^ prefix::bits(Some(b))).leading_zeros();
    shared.min(u32::from(prefix::width(a)))
}

/// The route the kernel would use: local table, then main, then default;
/// within a table the longest prefix, then the lowest metric.
pub fn lookup(model: &Model, dst: IpAddr) -> Result<&RouteEntry, NoSource> {
    let fam = if dst.is_ipv4() {
        AddressFamily::Inet
    } else {
        AddressFamily::Inet6
    };
    let routes = model.route_table();
    if !model.has_routes_of(fam) {
        return Err(NoSource::NoRoutes);
    }
    for table in [TableId::Local, TableId::Main, TableId::Default] {
        // broadcast routes only in local
        let best = routes.longest_match(fam, table, dst, |r| {
            r.kind != RouteType::Broadcast || table == TableId::Local
        });
        if let Some(r) = best {
            let rejecting = match r.kind {
                RouteType::Blackhole => Some(Rejecting::Blackhole),
                RouteType::Unreachable => Some(Rejecting::Unreachable),
                RouteType::Prohibit => Some(Rejecting::Prohibit),
                _ => None,
            };
            return match rejecting {
                Some(kind) => Err(NoSource::Rejected {
                    route: model.route_text(r),
                    kind,
                }),
                _ => Ok(r),
            };
        }
    }
    Err(NoSource::Unreachable)
}

/// `inet_select_addr(dev, dst, scope)`.
fn inet_select_addr(model: &Model, dev: u32, near: Option<IpAddr>, scope: Scope) -> Option<(IpAddr, Why)> {
    let mut first = None;
    for a in model.device_addresses(dev, AddressFamily::Inet) {
        if a.is_secondary() || a.scope > scope {
            continue;
        }
        if let Some(n) = near
            && in_prefix(n, a.address, a.prefix_len)
        {
            return Some((
                a.address,
                Why::FirstPrimaryNear {
                    device: model.ifname(dev),
                    near: n,
                },
            ));
        }
        let Some(near) = near else {
            return Some((
                a.address,
                Why::FirstPrimary {
                    device: model.ifname(dev),
                },
            ));
        };
        first.get_or_insert((
            a.address,
            Why::FirstPrimaryNotNear {
                device: model.ifname(dev),
                near,
            },
        ));
    }
    if first.is_some() {
        return first;
    }
    // No address on the device: the first suitable one elsewhere, lo first.
    for l in model.links() {
        for a in model.device_addresses(l.index, AddressFamily::Inet) {
            if !a.is_secondary() && a.scope != Scope::Link && a.scope <= scope {
                return Some((
                    a.address,
                    Why::OtherDevice {
                        device: model.ifname(dev),
                        on: l.display_name(),
                    },
                ));
            }
        }
    }
    None
}

/// Source address selection for `dst`.
pub fn select_source(model: &Model, dst: IpAddr) -> Result<SourceChoice, NoSource> {
    let route = lookup(model, dst)?.clone();
    if let Some(p) = route.prefsrc {
        let why = if route.kind == RouteType::Local && p == dst {
            Why::LocalRouteSelf { src: p }
        } else if route.kind == RouteType::Local {
            Why::LocalRouteSrc { dst, src: p }
        } else {
            Why::RouteSrc { src: p }
        };
        return Ok(SourceChoice {
            source: p,
            oif: route.oif,
            route,
            why,
        });
    }
    if route.kind == RouteType::Local {
        return Ok(SourceChoice {
            source: dst,
            oif: route.oif,
            why: Why::Local,
            route,
        });
    }
    let Some(oif) = route.oif else {
        return Err(NoSource::NextHopUnknown(model.route_text(&route)));
    };
    let no_address = || NoSource::NoAddress(model.ifname(oif));
    if dst.is_ipv4() {
        // A gateway route's next hop is on-link (scope link); a device route's is host.
        let (near, scope) = match route.gateway {
            Some(g) => (Some(g), Scope::Link),
            None => (None, Scope::Host),
        };
        let (source, why) = inet_select_addr(model, oif, near, scope).ok_or_else(no_address)?;
        return Ok(SourceChoice {
            source,
            oif: Some(oif),
            route,
            why,
        });
    }
    let IpAddr::V6(d6) = dst else {
        return Err(NoSource::Unreachable);
    };
    let (source, why) = ipv6_saddr(model, &d6, oif).ok_or_else(no_address)?;
    Ok(SourceChoice {
        source,
        oif: Some(oif),
        route,
        why,
    })
}

/// RFC 6724 policy label of an IPv6 address (Linux's default table).
pub fn ipv6_label(ip: &Ipv6Addr) -> u8 {
    let a = IpAddr::V6(*ip);
    let table: [(&str, u8, u8); 9] = [
        ("::1", 128, 0),
        ("::ffff:0:0", 96, 4),
        ("2002::", 16, 2),
        ("2001::", 32, 5),
        ("fc00::", 7, 13),
        ("::", 96, 3),
        ("fec0::", 10, 11),
        ("3ffe::", 16, 12),
        ("::", 0, 1),
    ];
    let mut best: Option<(u8, u8)> = None;
    for (p, len, label) in table {
        if let Ok(net) = p.parse::<Ipv6Addr>()
            && in_prefix(a, IpAddr::V6(net), len)
            && best.is_none_or(|(l, _)| len > l)
        {
            best = Some((len, label));
        }
    }
    best.map_or(1, |(_, l)| l)
}

/// `ipv6_dev_get_saddr`: the best-scoring address over all devices.
fn ipv6_saddr(model: &Model, dst: &Ipv6Addr, oif: u32) -> Option<(IpAddr, Why)> {
    let dst_scope = crate::model::kernel_order::ipv6_src_scope(dst);
    let dst_label = ipv6_label(dst);
    let mut best: Option<(&AddrEntry, [i64; 6])> = None;
    let link_local_dst = dst_scope <= 2;
    let home_rule = model.ipv6_home_rule();
    for l in model.links() {
        if link_local_dst && l.index != oif {
            continue;
        }
        for a in model.device_addresses(l.index, AddressFamily::Inet6) {
            let IpAddr::V6(s) = a.address else { continue };
            if a.flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED) != 0 && a.flags & IFA_F_OPTIMISTIC == 0 {
                continue;
            }
            if s == *dst {
                return Some((a.address, Why::DestinationLocal));
            }
            let scope = crate::model::kernel_order::ipv6_src_scope(&s);
            // Rule 2: the smallest scope that is at least the destination's.
            let scope_score = if scope >= dst_scope {
                -i64::from(scope)
            } else {
                i64::from(scope) - 100
            };
            let score = [
                scope_score,
                i64::from(a.flags & IFA_F_DEPRECATED == 0),
                // rule 4 only where the kernel is built with CONFIG_IPV6_MIP6=y
                i64::from(home_rule && a.flags & IFA_F_HOMEADDRESS != 0),
                i64::from(a.index == oif),
                i64::from(ipv6_label(&s) == dst_label),
                i64::from(common_prefix_len(IpAddr::V6(s), IpAddr::V6(*dst)).min(u32::from(a.prefix_len))),
            ];
            if best.as_ref().is_none_or(|(_, b)| score > *b) {
                best = Some((a, score));
            }
        }
    }
    best.map(|(a, [_, not_deprecated, _, on_device, label_matches, common_bits])| {
        (
            a.address,
            Why::Rfc6724 {
                source: a.address,
                scope: crate::model::kernel_order::ipv6_src_scope(match &a.address {
                    IpAddr::V6(v) => v,
                    IpAddr::V4(_) => dst,
                }),
                deprecated: not_deprecated != 1,
                on_device: on_device == 1,
                label_matches: label_matches == 1,
                common_bits: u32::try_from(common_bits).unwrap_or(0),
            },
        )
    })
}
