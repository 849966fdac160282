//! Which source address Linux picks for a destination (what a UDP
//! `connect()` followed by `getsockname()` returns), from the model.
//!
//! Contract: a pure function of the model. The route lookup walks the
//! policy rules the capture shows (the kernel's defaults where it shows
//! none) as `fib_rules_lookup` does, for a packet this host sends: from
//! the loopback (`iif lo`), no output device, mark 0, uid 0, protocol and
//! ports 0, and the source unknown unless given (so `from` rules match only
//! where the kernel's would: IPv4 compares 0.0.0.0, IPv6 never matches);
//! a selector that rests on what the capture cannot show is said
//! ([`RuleNote`]); within a table, longest prefix then lowest metric; the route's
//! `prefsrc`, else `inet_select_addr` on the output device (the first
//! primary of suitable scope in the gateway's or destination's subnet, else
//! the first primary of suitable scope, else an address of another device).
//! IPv6: the route's `prefsrc`, else `ipv6_dev_get_saddr`'s RFC 6724 rules
//! over every usable address. Every answer says which route decided it.

use std::net::{IpAddr, Ipv6Addr};

use crate::model::{AddrEntry, Model, RouteEntry, RuleEntry, RulesKnown, prefix};
use crate::netlink::names::*;
use crate::netlink::rule::{FIB_RULE_INVERT, RuleAction};
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
    /// The source was given (`ip route get ... from SRC`, a bound socket).
    Given {
        /// The source.
        src: IpAddr,
    },
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
    /// A rule's action refuses it: `unreachable` (ENETUNREACH),
    /// `prohibit` (EACCES), `blackhole` (EINVAL).
    RuleRejected {
        /// The rule, as `ip rule` prints it (`PRIO: ...`).
        rule: String,
        /// Its action.
        kind: Rejecting,
    },
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

/// What the rules did for one lookup, and what it rests on that the
/// capture cannot show (worded in `report::source`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleNote {
    /// No rule dump or rule message: the kernel's default rules were
    /// assumed; where `tables` is not empty, though the capture shows
    /// routes in these other tables (which only rules send traffic to).
    DefaultsAssumed {
        /// IPv4 or IPv6.
        family: AddressFamily,
        /// The tables other than local, main and default that hold routes.
        tables: Vec<TableId>,
    },
    /// Rule messages but no rule dump: the rules before the first of them
    /// are assumed the kernel's defaults.
    BeforeMessagesAssumed {
        /// IPv4 or IPv6.
        family: AddressFamily,
    },
    /// A rule whose selectors the capture shows matched, but one rests on
    /// the sending program (its mark, uid, protocol, ports, TOS, bound
    /// device, VRF, tunnel): taken to match or not as `why` says.
    Assumed {
        /// The rule, as `ip rule` prints it.
        rule: String,
        /// What it rests on.
        why: Unseen,
        /// Whether it was taken to match (after `not`).
        matched: bool,
    },
    /// A rule other than the kernel's own decided: its table answered.
    Decided {
        /// The rule, as `ip rule` prints it.
        rule: String,
    },
    /// A rule's table answered with a route of a prefix length it
    /// suppresses (`suppress_prefixlength`): the walk went on.
    Suppressed {
        /// The rule, as `ip rule` prints it.
        rule: String,
        /// The route suppressed, as `ip route` prints it.
        route: String,
    },
}

/// What a rule selector rests on that no capture shows, with the value
/// taken for the sending program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unseen {
    /// `fwmark`: the packets are taken to be unmarked (mark 0).
    Mark,
    /// `uidrange`: the program is taken to run as root (uid 0).
    Uid,
    /// `ipproto`: the protocol is taken to be none (as `ip route get` asks).
    Protocol,
    /// `sport`/`dport`: the ports are taken to be 0 (as `ip route get` asks).
    Ports,
    /// `tos`: the packets are taken to carry TOS 0.
    Tos,
    /// `oif`: the socket is taken not to be bound to a device.
    Oif,
    /// `l3mdev`: the socket is taken not to be in a VRF.
    L3mdev,
    /// `tun_id`: the packets are taken not to be tunnelled.
    TunId,
}

/// The rules' selectors against the flow of a packet this host sends.
struct Flow {
    dst: IpAddr,
    src: Option<IpAddr>,
}

/// `fib_rule_match` for a locally sent packet: `None` when a selector the
/// capture shows fails, else whether it matches (after `not`) and the
/// selectors that rest on the program.
fn rule_matches(r: &RuleEntry, flow: &Flow) -> Option<(bool, Vec<Unseen>)> {
    // (first the selectors the capture shows)
    if let Some(i) = &r.iif
        && i != "lo"
    {
        return fails(r);
    }
    if let Some((net, len)) = r.dst
        && !prefix::contains(net, len, flow.dst)
    {
        return fails(r);
    }
    if let Some((net, len)) = r.src {
        let ok = match (flow.src, flow.dst) {
            (Some(s), _) => prefix::contains(net, len, s),
            // IPv4 looks up with saddr 0.0.0.0; IPv6 without a source
            // matches no `from` rule (fib6_rule_match).
            (None, IpAddr::V4(_)) => prefix::contains(net, len, IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)),
            (None, IpAddr::V6(_)) => len == 0,
        };
        if !ok {
            return fails(r);
        }
    }
    let mut unseen = Vec::new();
    let mut matched = true;
    let mut rest = |why: Unseen, ok: bool| {
        unseen.push(why);
        matched &= ok;
    };
    if r.oif.is_some() {
        rest(Unseen::Oif, false);
    }
    let mask = r
        .fwmask
        .unwrap_or(if r.fwmark.unwrap_or(0) != 0 { u32::MAX } else { 0 });
    if mask != 0 {
        rest(Unseen::Mark, r.fwmark.unwrap_or(0) & mask == 0);
    }
    if r.tun_id.is_some_and(|t| t != 0) {
        rest(Unseen::TunId, false);
    }
    if r.l3mdev {
        rest(Unseen::L3mdev, false);
    }
    if let Some(u) = r.uid_range {
        rest(Unseen::Uid, u.start == 0);
    }
    if r.tos != 0 {
        rest(Unseen::Tos, false);
    }
    if r.ip_proto.is_some_and(|p| p != 0) {
        rest(Unseen::Protocol, false);
    }
    for p in [r.sport, r.dport].into_iter().flatten() {
        rest(Unseen::Ports, p.start == 0);
    }
    let inverted = r.flags & FIB_RULE_INVERT != 0;
    Some((matched != inverted, unseen))
}

/// A selector the capture shows failed: no match, or with `not` a match.
fn fails(r: &RuleEntry) -> Option<(bool, Vec<Unseen>)> {
    (r.flags & FIB_RULE_INVERT != 0).then(|| (true, Vec::new()))
}

/// A rule as `ip rule` prints it, with its priority.
fn rule_text(model: &Model, r: &RuleEntry) -> String {
    model.rule_text(r)
}

/// Whether a rule is one of the kernel's own (local, main, default at
/// their priorities, selecting everything).
fn is_kernel_rule(r: &RuleEntry) -> bool {
    RuleEntry::defaults(r.family).iter().any(|d| {
        d.priority == r.priority && d.table == r.table && d.action == r.action && r.dst.is_none() && r.src.is_none()
    }) && r.iif.is_none()
        && r.fwmark.is_none()
        && r.suppress_prefixlen.is_none()
}

/// What the lookup rests on before any rule is walked.
fn rules_known(model: &Model, family: AddressFamily, notes: &mut Vec<RuleNote>) {
    match model.rule_table().known(family) {
        RulesKnown::Assumed => {
            // Said on every lookup it decides: the capture shows no rule,
            // and louder where routes sit in tables only rules reach.
            let tables = model.other_route_tables(family);
            notes.push(RuleNote::DefaultsAssumed { family, tables });
        }
        RulesKnown::MessagesOnly => notes.push(RuleNote::BeforeMessagesAssumed { family }),
        RulesKnown::Dumped => {}
    }
}

/// The route the kernel would use for `dst` (from `src`, where given):
/// the rules walked as `fib_rules_lookup` walks them, each table looked up
/// longest prefix first, then lowest metric. What the walk rests on is
/// added to `notes`.
pub fn lookup_from<'m>(
    model: &'m Model,
    dst: IpAddr,
    src: Option<IpAddr>,
    notes: &mut Vec<RuleNote>,
) -> Result<&'m RouteEntry, NoSource> {
    let fam = AddressFamily::of(dst);
    let routes = model.route_table();
    if !model.has_routes_of(fam) {
        return Err(NoSource::NoRoutes);
    }
    rules_known(model, fam, notes);
    let rules = model.rule_table().rules(fam);
    let flow = Flow { dst, src };
    let mut i = 0;
    // (a goto only jumps forward, so the walk ends)
    while let Some(r) = rules.get(i) {
        i += 1;
        let Some((matched, unseen)) = rule_matches(r, &flow) else {
            continue;
        };
        if !unseen.is_empty() {
            for why in unseen {
                notes.push(RuleNote::Assumed {
                    rule: rule_text(model, r),
                    why,
                    matched,
                });
            }
        }
        if !matched {
            continue;
        }
        let rejecting = match r.action {
            RuleAction::ToTable => None,
            RuleAction::Goto => {
                // fib_nl_newrule: the first rule of the goto's priority; none: go on.
                if let Some(at) = r.goto.and_then(|g| rules.iter().position(|x| x.priority == g))
                    && at >= i
                {
                    i = at;
                }
                continue;
            }
            RuleAction::Nop => continue,
            RuleAction::Unreachable => Some(Rejecting::Unreachable),
            RuleAction::Prohibit => Some(Rejecting::Prohibit),
            RuleAction::Blackhole | RuleAction::Unspec | RuleAction::Other(_) => Some(Rejecting::Blackhole),
        };
        if let Some(kind) = rejecting {
            return Err(NoSource::RuleRejected {
                rule: rule_text(model, r),
                kind,
            });
        }
        let table = r.table;
        // broadcast routes only in local
        let best = routes.longest_match(fam, table, dst, |x| {
            x.kind != RouteType::Broadcast || table == TableId::Local
        });
        let Some(route) = best else { continue };
        let rejecting = match route.kind {
            RouteType::Blackhole => Some(Rejecting::Blackhole),
            RouteType::Unreachable => Some(Rejecting::Unreachable),
            RouteType::Prohibit => Some(Rejecting::Prohibit),
            // A throw route sends the walk on to the next rule.
            RouteType::Throw => continue,
            _ => None,
        };
        if let Some(kind) = rejecting {
            if !is_kernel_rule(r) {
                notes.push(RuleNote::Decided {
                    rule: rule_text(model, r),
                });
            }
            return Err(NoSource::Rejected {
                route: model.route_text(route),
                kind,
            });
        }
        if r.suppress_prefixlen.is_some_and(|n| u32::from(route.dst_len) <= n) {
            notes.push(RuleNote::Suppressed {
                rule: rule_text(model, r),
                route: model.route_text(route),
            });
            continue;
        }
        if !is_kernel_rule(r) {
            notes.push(RuleNote::Decided {
                rule: rule_text(model, r),
            });
        }
        return Ok(route);
    }
    Err(NoSource::Unreachable)
}

/// The route the kernel would use for a packet this host sends to `dst`
/// (see [`lookup_from`]).
pub fn lookup(model: &Model, dst: IpAddr) -> Result<&RouteEntry, NoSource> {
    lookup_from(model, dst, None, &mut Vec::new())
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
    route_get(model, dst, None, &mut Vec::new())
}

/// `ip route get DST [from SRC]`: the route and source for a packet this
/// host sends (`from` a local address: that address), with what the
/// rules rest on added to `notes`.
pub fn route_get(
    model: &Model,
    dst: IpAddr,
    from: Option<IpAddr>,
    notes: &mut Vec<RuleNote>,
) -> Result<SourceChoice, NoSource> {
    let route = lookup_from(model, dst, from, notes)?.clone();
    if let Some(src) = from {
        return Ok(SourceChoice {
            source: src,
            oif: route.oif,
            why: Why::Given { src },
            route,
        });
    }
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
