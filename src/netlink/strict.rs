//! Full attribute decoding through netlink-packet-route, wrapped.
//!
//! Contract: [`decode_full`] gives the crate's complete decoding of a link,
//! address, route or rule message (every attribute it knows, by name), which
//! `netlink::attr_text` lists for display, and [`cross_check`] compares the
//! crate's reading of the essentials with nlorder's own compact decoder
//! (`netlink::rtnl`). Failures are returned as text; nothing here panics or
//! decides anything for later layers.
//!
//! Why it is wrapped instead of used directly:
//! - it reads native byte order only, so a capture from a host of the other
//!   endianness is refused here rather than misread (tested in
//!   `strict_tests.rs`);
//! - it rejects the short `rtgenmsg` GET bodies that Go (1 byte) sends, so
//!   those bodies are zero-padded to the full family header first (tested
//!   in `strict_tests.rs`);
//! - one odd attribute (a non-UTF-8 interface name, a 2-byte IFA_FLAGS)
//!   rejects the whole message, which is why it is not the hot-path decoder;
//! - message types it does not know are errors, so only the link, address,
//!   route and rule groups are handed to it.

use netlink_packet_core::ParseableParametrized;
use netlink_packet_route::RouteNetlinkMessage;
use netlink_packet_route::address::AddressAttribute;
use netlink_packet_route::link::{LinkAttribute, LinkInfo};
use netlink_packet_route::route::{RouteAddress, RouteAttribute};
use netlink_packet_route::rule::RuleAttribute;

use super::names::*;
use super::rtnl::{Body, Decoded};
use super::wire::{ByteOrder, Message, family_header_len};

/// Decodes a link/address/route message with netlink-packet-route.
/// `Ok(None)` for message types outside those groups.
pub fn decode_full(msg: &Message<'_>) -> Result<Option<RouteNetlinkMessage>, String> {
    let kind = msg.header.kind;
    let Some(full_header) = family_header_len(kind) else {
        return Ok(None);
    };
    if msg.order != ByteOrder::native() {
        return Err("netlink-packet-route reads native byte order only".into());
    }
    let payload = msg.payload();
    let is_get = matches!(
        kind,
        RTM_GETLINK | RTM_GETADDR | RTM_GETROUTE | super::rule::RTM_GETRULE
    );
    let parsed = if is_get && payload.len() < full_header {
        // Legacy rtgenmsg request: the family byte, maybe 3 padding bytes.
        let mut padded = payload.to_vec();
        padded.resize(full_header, 0);
        RouteNetlinkMessage::parse_with_param(&padded[..], kind)
    } else {
        RouteNetlinkMessage::parse_with_param(payload, kind)
    };
    parsed.map(Some).map_err(|e| e.to_string())
}

fn route_ip(a: &RouteAddress) -> Option<std::net::IpAddr> {
    match a {
        RouteAddress::Inet(v4) => Some((*v4).into()),
        RouteAddress::Inet6(v6) => Some((*v6).into()),
        _ => None,
    }
}

/// Compares the essentials of nlorder's compact decoding with the crate's.
/// Returns one line per disagreement.
pub fn cross_check(ours: &Decoded<'_>, theirs: &RouteNetlinkMessage) -> Vec<String> {
    let mut diffs = Vec::new();
    let mut same = |what: &str, a: &dyn std::fmt::Display, b: &dyn std::fmt::Display| {
        let (a, b) = (a.to_string(), b.to_string());
        if a != b {
            diffs.push(format!("{what}: nlorder {a} vs netlink-packet-route {b}"));
        }
    };
    match (&ours.body, theirs) {
        (
            Body::Link(l),
            RouteNetlinkMessage::NewLink(m) | RouteNetlinkMessage::DelLink(m) | RouteNetlinkMessage::SetLink(m),
        ) => {
            same("ifindex", &l.index, &m.header.index);
            same("flags", &l.flags, &m.header.flags.bits());
            let mut name = None;
            let mut master = None;
            let mut oper = None;
            let mut kind = None;
            let (mut qdisc, mut txqlen, mut group, mut broadcast) = (None, None, None, None);
            for a in &m.attributes {
                match a {
                    LinkAttribute::Qdisc(q) => qdisc = Some(q.clone()),
                    LinkAttribute::TxQueueLen(q) => txqlen = Some(*q),
                    LinkAttribute::Group(g) => group = Some(*g),
                    LinkAttribute::Broadcast(b) => broadcast = Some(b.clone()),
                    LinkAttribute::IfName(n) => name = Some(n.clone()),
                    LinkAttribute::Controller(c) => master = Some(*c),
                    LinkAttribute::OperState(s) => oper = Some(u8::from(*s)),
                    LinkAttribute::LinkInfo(infos) => {
                        for i in infos {
                            if let LinkInfo::Kind(k) = i {
                                kind = Some(k.to_string());
                            }
                        }
                    }
                    _ => {}
                }
            }
            let lossy = |b: Option<&[u8]>| b.map(|b| String::from_utf8_lossy(b).into_owned());
            same("name", &format!("{:?}", lossy(l.name)), &format!("{name:?}"));
            same("master", &format!("{:?}", l.master), &format!("{master:?}"));
            same("operstate", &format!("{:?}", l.operstate), &format!("{oper:?}"));
            same("kind", &format!("{:?}", lossy(l.kind)), &format!("{kind:?}"));
            same("qdisc", &format!("{:?}", lossy(l.qdisc)), &format!("{qdisc:?}"));
            same("txqlen", &format!("{:?}", l.txqlen), &format!("{txqlen:?}"));
            same("group", &format!("{:?}", l.group), &format!("{group:?}"));
            same(
                "broadcast",
                &format!("{:?}", l.broadcast.map(<[u8]>::to_vec)),
                &format!("{broadcast:?}"),
            );
        }
        (Body::Addr(a), RouteNetlinkMessage::NewAddress(m) | RouteNetlinkMessage::DelAddress(m)) => {
            same("ifindex", &a.index, &m.header.index);
            same("prefix_len", &a.prefix_len, &m.header.prefix_len);
            same("scope", &u8::from(a.scope), &u8::from(m.header.scope));
            let (mut address, mut local, mut label, mut flags) = (None, None, None, None);
            for at in &m.attributes {
                match at {
                    AddressAttribute::Address(ip) => address = Some(*ip),
                    AddressAttribute::Local(ip) => local = Some(*ip),
                    AddressAttribute::Label(l) => label = Some(l.clone()),
                    AddressAttribute::Flags(f) => flags = Some(f.bits()),
                    _ => {}
                }
            }
            let flags = flags.unwrap_or(u32::from(m.header.flags.bits()));
            same("address", &format!("{:?}", a.address), &format!("{address:?}"));
            same("local", &format!("{:?}", a.local), &format!("{local:?}"));
            let ours_label = a.label.map(|b| String::from_utf8_lossy(b).into_owned());
            same("label", &format!("{ours_label:?}"), &format!("{label:?}"));
            same("flags", &format!("{:#x}", a.flags), &format!("{flags:#x}"));
        }
        (Body::Route(r), RouteNetlinkMessage::NewRoute(m) | RouteNetlinkMessage::DelRoute(m)) => {
            same("dst_len", &r.dst_len, &m.header.destination_prefix_length);
            let (mut dst, mut gw, mut prefsrc, mut oif, mut prio) = (None, None, None, None, None);
            let mut table = u32::from(m.header.table);
            let mut hops = None;
            for at in &m.attributes {
                match at {
                    RouteAttribute::MultiPath(h) => {
                        hops = Some(
                            h.iter()
                                .map(|h| {
                                    let gw = h.attributes.iter().find_map(|a| match a {
                                        RouteAttribute::Gateway(g) => route_ip(g),
                                        _ => None,
                                    });
                                    (h.interface_index, h.hops, h.flags.bits(), gw)
                                })
                                .collect::<Vec<_>>(),
                        )
                    }
                    RouteAttribute::Destination(d) => dst = route_ip(d),
                    RouteAttribute::Gateway(g) => gw = route_ip(g),
                    RouteAttribute::PrefSource(p) => prefsrc = route_ip(p),
                    RouteAttribute::Oif(o) => oif = Some(*o),
                    RouteAttribute::Priority(p) => prio = Some(*p),
                    RouteAttribute::Table(t) => table = *t,
                    _ => {}
                }
            }
            same("table", &u32::from(r.table), &table);
            same("protocol", &u8::from(r.protocol), &u8::from(m.header.protocol));
            same("scope", &u8::from(r.scope), &u8::from(m.header.scope));
            same("type", &u8::from(r.kind), &u8::from(m.header.kind));
            same("dst", &format!("{:?}", r.dst), &format!("{dst:?}"));
            same("gateway", &format!("{:?}", r.gateway), &format!("{gw:?}"));
            same("prefsrc", &format!("{:?}", r.prefsrc), &format!("{prefsrc:?}"));
            same("oif", &format!("{:?}", r.oif), &format!("{oif:?}"));
            same("priority", &format!("{:?}", r.priority), &format!("{prio:?}"));
            let ours_hops = r.next_hops.map(|n| {
                n.next_hops(r.family)
                    .map(|h| (h.ifindex, h.hops, h.flags, h.gateway))
                    .collect::<Vec<_>>()
            });
            same("next hops", &format!("{ours_hops:?}"), &format!("{hops:?}"));
        }
        (
            Body::Request(q),
            RouteNetlinkMessage::GetLink(_) | RouteNetlinkMessage::GetAddress(_) | RouteNetlinkMessage::GetRoute(_),
        ) => {
            let fam = match theirs {
                RouteNetlinkMessage::GetLink(l) => u8::from(l.header.interface_family),
                RouteNetlinkMessage::GetAddress(a) => u8::from(a.header.family),
                RouteNetlinkMessage::GetRoute(r) => u8::from(r.header.address_family),
                _ => q.family.into(),
            };
            same("family", &u8::from(q.family), &fam);
        }
        (
            Body::Rule(r),
            RouteNetlinkMessage::NewRule(m) | RouteNetlinkMessage::DelRule(m) | RouteNetlinkMessage::GetRule(m),
        ) => {
            let (mut prio, mut table, mut dst, mut src, mut goto, mut mark) =
                (None, u32::from(m.header.table), None, None, None, None);
            let (mut iif, mut oif, mut spl) = (None, None, None);
            for a in &m.attributes {
                match a {
                    RuleAttribute::Priority(p) => prio = Some(*p),
                    RuleAttribute::Table(t) if *t != 0 => table = *t,
                    RuleAttribute::Destination(d) => dst = Some(*d),
                    RuleAttribute::Source(s) => src = Some(*s),
                    RuleAttribute::Goto(g) => goto = Some(*g),
                    RuleAttribute::FwMark(f) => mark = Some(*f),
                    RuleAttribute::Iifname(n) => iif = Some(n.clone()),
                    RuleAttribute::Oifname(n) => oif = Some(n.clone()),
                    RuleAttribute::SuppressPrefixLen(p) => spl = Some(*p),
                    _ => {}
                }
            }
            let lossy = |b: Option<&[u8]>| b.map(|b| String::from_utf8_lossy(b).into_owned());
            same("family", &u8::from(r.family), &u8::from(m.header.family));
            same("action", &u8::from(r.action), &u8::from(m.header.action));
            same("priority", &format!("{:?}", r.priority), &format!("{prio:?}"));
            same("table", &u32::from(r.table), &table);
            same("dst", &format!("{:?}", r.dst), &format!("{dst:?}"));
            same("src", &format!("{:?}", r.src), &format!("{src:?}"));
            same("goto", &format!("{:?}", r.goto), &format!("{goto:?}"));
            same("fwmark", &format!("{:?}", r.fwmark), &format!("{mark:?}"));
            same("iif", &format!("{:?}", lossy(r.iifname)), &format!("{iif:?}"));
            same("oif", &format!("{:?}", lossy(r.oifname)), &format!("{oif:?}"));
            same(
                "suppress_prefixlength",
                &format!("{:?}", r.suppress_prefixlen),
                &format!("{spl:?}"),
            );
        }
        (body, other) => diffs.push(format!(
            "message kind: nlorder {} vs netlink-packet-route {}",
            body_name(body),
            other.message_type()
        )),
    }
    diffs
}

fn body_name(b: &Body<'_>) -> &'static str {
    match b {
        Body::Link(_) => "link",
        Body::Addr(_) => "address",
        Body::Route(_) => "route",
        Body::Rule(_) => "rule",
        Body::Request(_) => "request",
        Body::Done { .. } => "done",
        Body::Error(_) => "error",
        Body::Noop => "noop",
        Body::Other => "other",
        Body::Truncated => "truncated",
    }
}

#[cfg(test)]
#[path = "strict_tests.rs"]
mod tests;
