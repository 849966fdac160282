//! The field values of what the listings list: a decoded message (with the
//! interface names learnt before it), a timeline change, a look, a request.

use std::borrow::Cow;
use std::collections::HashMap;

use super::field::{Field, Fields, Value};
use crate::ingest::trace::TraceMessage;
use crate::looks::Asked;
use crate::model::{Change, Event, ObjectKind};
use crate::netlink::names::{
    self, NLM_F_MULTI, NLMSG_DONE, NLMSG_ERROR, RTM_DELLINK, RTM_GETADDR, RTM_GETLINK, RTM_GETROUTE, escape_bytes,
};
use crate::netlink::rtnl::Body;
use crate::netlink::values::{AddressFamily, Scope, TableId};

/// Interface names learnt from link messages, by ifindex (the way
/// `ip monitor` names the interface of an address or route).
#[derive(Debug, Default)]
pub struct LinkNames(HashMap<u32, String>);

impl LinkNames {
    /// Learns (or forgets, on RTM_DELLINK) the name a link message gives.
    pub fn learn(&mut self, body: &Body<'_>, kind: u16) {
        if let Body::Link(l) = body {
            if l.family == AddressFamily::Bridge {
                return; // bridge-port events, not link updates
            }
            if let Some(n) = l.name {
                if kind == RTM_DELLINK {
                    self.0.remove(&l.index);
                } else {
                    self.0.insert(l.index, escape_bytes(n));
                }
            }
        }
    }

    /// The name last learnt for `index`.
    pub fn get(&self, index: u32) -> Option<&str> {
        self.0.get(&index).map(String::as_str)
    }
}

/// The device an address message's IFA_LABEL names: the label up to its
/// `:alias` (iproute2 makes every IPv4 label begin with the device's name),
/// for an address whose link no message named yet.
pub fn label_device(a: &crate::netlink::rtnl::Addr<'_>) -> Option<String> {
    let label = escape_bytes(a.label?);
    let device = label.split(':').next().unwrap_or_default();
    (!device.is_empty()).then(|| device.to_owned())
}

/// A decoded message and the interface names known when it was read.
pub struct MessageFields<'r, 'm> {
    /// The message.
    pub message: &'r TraceMessage<'m>,
    /// Names learnt from the link messages before it (and from it).
    pub names: &'r LinkNames,
}

fn num<T: Into<f64>>(n: T) -> Value<'static> {
    Value::Number(n.into())
}

fn time(ts: Option<crate::capture::Timestamp>) -> Option<Value<'static>> {
    ts.map(|t| Value::Number(t.as_secs_f64()))
}

fn family(f: AddressFamily) -> Value<'static> {
    Value::Named(i64::from(u8::from(f)), f.name())
}

fn errno(e: i32) -> Value<'static> {
    Value::Named(i64::from(e.unsigned_abs()), names::errno(e))
}

fn table(t: TableId) -> Value<'static> {
    Value::Named(i64::from(u32::from(t)), t.name())
}

fn scope(s: Scope) -> Value<'static> {
    Value::Named(i64::from(u8::from(s)), s.name())
}

fn text(s: &'static str) -> Value<'static> {
    Value::Text(Cow::Borrowed(s))
}

fn object(k: ObjectKind) -> Value<'static> {
    text(match k {
        ObjectKind::Links => "link",
        ObjectKind::Addresses => "addr",
        ObjectKind::Routes => "route",
    })
}

impl Fields for MessageFields<'_, '_> {
    fn field(&self, field: Field) -> Option<Value<'_>> {
        let m = self.message;
        let h = &m.decoded.header;
        let body = &m.decoded.body;
        let index = match body {
            Body::Link(l) => Some(l.index),
            Body::Addr(a) => Some(a.index),
            Body::Route(r) => r.oif,
            Body::Request(q) => q.index.filter(|i| *i != 0),
            _ => None,
        };
        Some(match field {
            Field::Packet => num(m.packet as f64),
            Field::Time => return time(m.ts),
            Field::Offset => num(m.offset as f64),
            Field::Type => Value::Named(i64::from(h.kind), names::message_type(h.kind)),
            Field::Family => match body {
                Body::Link(l) => family(l.family),
                Body::Addr(a) => family(a.family),
                Body::Route(r) => family(r.family),
                Body::Request(q) => family(q.family),
                _ => return None,
            },
            Field::Ifindex => num(index?),
            Field::Dev => match body {
                Body::Link(l) if l.family != AddressFamily::Bridge => Value::Text(Cow::Owned(escape_bytes(l.name?))),
                Body::Addr(a) if self.names.get(a.index).is_none() => Value::Text(Cow::Owned(label_device(a)?)),
                _ => Value::Text(Cow::Borrowed(self.names.get(index?)?)),
            },
            Field::Port => num(h.pid),
            Field::Seq => num(h.seq),
            Field::Len => num(h.len),
            Field::Dir => text(direction(h.kind, h.flags)),
            Field::Multi => Value::Bool(h.flags & NLM_F_MULTI != 0),
            Field::Dump => Value::Bool(names::is_dump_request(h.kind, h.flags)),
            Field::Errno => match body {
                Body::Error(e) if e.error != 0 => errno(e.error),
                Body::Done { error } if *error != 0 => errno(*error),
                _ => return None,
            },
            Field::Addr => match body {
                Body::Addr(a) => Value::Ip(a.local.or(a.address)?),
                _ => return None,
            },
            Field::Dst => match body {
                Body::Route(r) => Value::Ip(r.dst?),
                _ => return None,
            },
            Field::Gateway => match body {
                Body::Route(r) => Value::Ip(r.gateway?),
                _ => return None,
            },
            Field::Prefixlen => match body {
                Body::Addr(a) => num(a.prefix_len),
                Body::Route(r) => num(r.dst_len),
                _ => return None,
            },
            Field::Table => match body {
                Body::Route(r) => table(r.table),
                _ => return None,
            },
            Field::Scope => match body {
                Body::Addr(a) => scope(a.scope),
                Body::Route(r) => scope(r.scope),
                _ => return None,
            },
            Field::Change | Field::Object | Field::Program => return None,
        })
    }
}

/// `request` (sent by user space: NLM_F_REQUEST, or a message only user
/// space sends), `reply` (part of a dump, its end, or an ACK/error) or
/// `notification` (the kernel's multicast of a change).
fn direction(kind: u16, flags: u16) -> &'static str {
    if crate::netlink::from_user_space(kind, flags) {
        "request"
    } else if flags & NLM_F_MULTI != 0 || kind == NLMSG_DONE || kind == NLMSG_ERROR {
        "reply"
    } else {
        "notification"
    }
}

impl Fields for Event {
    fn field(&self, field: Field) -> Option<Value<'_>> {
        fields_of_change(&self.change, self.packet, self.ts, field)
    }
}

fn fields_of_change<'c>(
    change: &'c Change,
    packet: u64,
    ts: Option<crate::capture::Timestamp>,
    field: Field,
) -> Option<Value<'c>> {
    use Change::*;
    let (link, addr, route) = match change {
        LinkAdded(l) | LinkRemoved(l) => (Some(l), None, None),
        LinkMovedAway { link, .. } | LinkRenamed { link, .. } | LinkState { link, .. } | LinkMaster { link, .. } => {
            (Some(link), None, None)
        }
        AddrAdded { addr, ifname, .. }
        | AddrRemoved { addr, ifname, .. }
        | AddrExpired { addr, ifname, .. }
        | AddrChanged { addr, ifname, .. } => (None, Some((addr, ifname.as_str())), None),
        RouteAdded { route, dev } | RouteRemoved { route, dev } => (None, None, Some((route, dev.as_deref()))),
        Unnotified { change, .. } => {
            return match field {
                Field::Change => Some(text("unnotified")),
                _ => fields_of_change(change, packet, ts, field),
            };
        }
        Refused { .. } | DumpApplied { .. } => (None, None, None),
    };
    Some(match field {
        Field::Packet => num(packet as f64),
        Field::Time => return time(ts),
        Field::Change => text(match change {
            LinkAdded(_) | AddrAdded { .. } | RouteAdded { .. } => "added",
            LinkRemoved(_) | AddrRemoved { .. } | RouteRemoved { .. } | LinkMovedAway { .. } => "removed",
            AddrExpired { .. } => "expired",
            LinkRenamed { .. } | LinkState { .. } | LinkMaster { .. } | AddrChanged { .. } => "changed",
            Refused { .. } => "refused",
            DumpApplied { .. } => "dump",
            Unnotified { .. } => "unnotified",
        }),
        Field::Object => match change {
            DumpApplied { kind, .. } => object(*kind),
            _ if link.is_some() => text("link"),
            _ if addr.is_some() => text("addr"),
            _ if route.is_some() => text("route"),
            _ => return None,
        },
        Field::Family => match change {
            DumpApplied { family: f, .. } => family(*f),
            _ => family(addr.map(|(a, _)| a.family).or(route.map(|(r, _)| r.family))?),
        },
        Field::Ifindex => num(link
            .map(|l| l.index)
            .or(addr.map(|(a, _)| a.index))
            .or(route.and_then(|(r, _)| r.oif))?),
        Field::Dev => match (link, addr, route) {
            (Some(l), _, _) => Value::Text(Cow::Owned(l.name.display())),
            (_, Some((_, name)), _) => Value::Text(Cow::Borrowed(name)),
            (_, _, Some((_, dev))) => Value::Text(Cow::Borrowed(dev?)),
            _ => return None,
        },
        Field::Addr => Value::Ip(addr?.0.address),
        Field::Dst => Value::Ip(route?.0.dst?),
        Field::Gateway => Value::Ip(route?.0.gateway?),
        Field::Prefixlen => num(addr.map(|(a, _)| a.prefix_len).or(route.map(|(r, _)| r.dst_len))?),
        Field::Table => table(route?.0.table),
        Field::Scope => scope(addr.map(|(a, _)| a.scope).or(route.map(|(r, _)| r.scope))?),
        Field::Errno => match change {
            Refused { errno: e, .. } => errno(*e),
            _ => return None,
        },
        _ => return None,
    })
}

/// A request and how its answer went, as `who` lists it and a timeline
/// says where the answer ended.
pub struct RequestFields<'a> {
    /// The request.
    pub asked: &'a Asked,
    /// The packet the listing puts it at: the request's own in `who`, the
    /// one that ended its answer in a timeline.
    pub packet: u64,
    /// That packet's time.
    pub ts: Option<crate::capture::Timestamp>,
    /// A timeline item (`change == look`), not a `who` row.
    pub look: bool,
}

impl Fields for RequestFields<'_> {
    fn field(&self, field: Field) -> Option<Value<'_>> {
        let r = self.asked;
        Some(match field {
            Field::Packet => num(self.packet as f64),
            Field::Time => return time(self.ts),
            Field::Type => {
                let kind = match r.kind {
                    ObjectKind::Links => RTM_GETLINK,
                    ObjectKind::Addresses => RTM_GETADDR,
                    ObjectKind::Routes => RTM_GETROUTE,
                };
                Value::Named(i64::from(kind), names::message_type(kind))
            }
            Field::Object => object(r.kind),
            Field::Family => family(r.family),
            Field::Port => num(r.port?),
            Field::Seq => num(r.seq),
            Field::Len => num(r.len),
            Field::Dump => Value::Bool(r.dump),
            Field::Errno => errno(r.error?),
            Field::Program => text(r.library.id()),
            Field::Change if self.look => text("look"),
            _ => return None,
        })
    }
}
