//! Requests waiting for the kernel's answer, as the model keeps them:
//! owned copies of what each asked for.
//!
//! Contract: bookkeeping only: [`pending_of`] makes one of a decoded
//! request, with the defaults the kernel fills in on receipt (an IPv6
//! address's scope, an IPv6 route's metric, an IPv6 reject route's
//! device), and at most [`MAX_PENDING`] wait, the oldest dropped first.
//! What the kernel does once it accepts one is `requests`'.

use std::net::IpAddr;

use super::entries::{AddrEntry, Origin, RouteEntry, ShortName};
use super::kernel_order;
use crate::netlink::names::*;
use crate::netlink::rtnl::Netns;
use crate::netlink::values::{AddressFamily, RouteType, Scope};
use crate::netlink::{Body, Link};

/// Requests waiting for their answer, at most.
pub const MAX_PENDING: usize = 64;

/// What an RTM_NEWLINK / RTM_DELLINK request asked for, owned.
#[derive(Debug, Clone)]
pub struct LinkRequest {
    pub index: u32,
    pub name: Option<ShortName>,
    pub kind: Option<ShortName>,
    pub flags: u32,
    pub change: u32,
    pub master: Option<u32>,
    pub lower: Option<u32>,
    pub mtu: Option<u32>,
    pub hwaddr: Option<ShortName>,
    /// The veth peer to create: its index (0: the kernel picks), its name,
    /// and the namespace it is created in when not this one.
    pub peer: Option<(u32, Option<ShortName>, Option<Netns>)>,
    /// The namespace the request puts the link in, when it names one.
    pub netns: Option<Netns>,
    /// An IPv4 tunnel's local and remote endpoints.
    pub tunnel_local: Option<ShortName>,
    pub tunnel_remote: Option<ShortName>,
}

impl LinkRequest {
    fn new(l: &Link<'_>) -> Self {
        LinkRequest {
            index: l.index,
            name: l.name.map(ShortName::new),
            kind: l.kind.map(ShortName::new),
            flags: l.flags,
            change: l.change,
            master: l.master,
            lower: l.link,
            mtu: l.mtu,
            hwaddr: l.hwaddr.map(ShortName::new),
            peer: l.peer.map(|p| (p.index, p.name.map(ShortName::new), p.netns)),
            netns: l.netns,
            tunnel_local: l.tunnel_local.map(ShortName::new),
            tunnel_remote: l.tunnel_remote.map(ShortName::new),
        }
    }
}

#[derive(Debug, Clone)]
pub enum RequestBody {
    Link(LinkRequest),
    Addr(AddrEntry),
    Route(RouteEntry),
    /// A GET for one object (its reply is not a notification).
    Get,
}

#[derive(Debug, Clone)]
pub struct Pending {
    pub msg_type: u16,
    pub flags: u16,
    pub seq: u32,
    pub packet: u64,
    pub body: RequestBody,
}

/// Builds the owned form of a change request, or `None` for other messages.
pub fn pending_of(msg_type: u16, flags: u16, seq: u32, packet: u64, body: &Body<'_>) -> Option<Pending> {
    let body = match body {
        Body::Link(l) if matches!(msg_type, RTM_NEWLINK | RTM_DELLINK | RTM_SETLINK) => {
            RequestBody::Link(LinkRequest::new(l))
        }
        Body::Addr(a) if matches!(msg_type, RTM_NEWADDR | RTM_DELADDR) => {
            let mut e = AddrEntry::from_message(a, Origin::Request(packet))?;
            if e.family == AddressFamily::Inet6 {
                // The kernel derives an IPv6 address's scope from the address.
                e.scope = ipv6_scope(e.address);
            }
            RequestBody::Addr(e)
        }
        Body::Route(r) if matches!(msg_type, RTM_NEWROUTE | RTM_DELROUTE) => {
            let mut e = RouteEntry::from_message(r, Origin::Request(packet), 0);
            if e.family == AddressFamily::Inet6 && e.priority.is_none() && msg_type == RTM_NEWROUTE {
                e.priority = Some(1024);
            }
            // IPv6 reject routes (RTF_REJECT) go through the loopback device
            // whatever device the request names, or none (`fib6_nh_init`).
            if e.family == AddressFamily::Inet6
                && matches!(
                    e.kind,
                    RouteType::Blackhole | RouteType::Unreachable | RouteType::Prohibit | RouteType::Throw
                )
            {
                e.oif = Some(LOOPBACK_IFINDEX);
            }
            RequestBody::Route(e)
        }
        Body::Request(_) if !is_dump_request(msg_type, flags) => RequestBody::Get,
        _ => return None,
    };
    Some(Pending {
        msg_type,
        flags,
        seq,
        packet,
        body,
    })
}

fn ipv6_scope(ip: IpAddr) -> Scope {
    match ip {
        IpAddr::V6(v6) => match kernel_order::ipv6_src_scope(&v6) {
            1 => Scope::Host,
            2 if v6.is_loopback() => Scope::Host,
            2 => Scope::Link,
            5 => Scope::Site,
            _ => Scope::Universe,
        },
        IpAddr::V4(_) => Scope::Universe,
    }
}

/// Requests waiting for the kernel's answer: at most [`MAX_PENDING`], the
/// oldest dropped first.
#[derive(Debug, Default)]
pub(super) struct PendingRequests {
    pub(super) waiting: std::collections::VecDeque<Pending>,
}

impl PendingRequests {
    pub(super) fn push(&mut self, p: Pending) {
        if self.waiting.len() >= MAX_PENDING {
            self.waiting.pop_front();
        }
        self.waiting.push_back(p);
    }

    /// The newest request with this sequence number that `fits`, taken out.
    pub(super) fn take_newest(&mut self, seq: u32, fits: impl Fn(&Pending) -> bool) -> Option<Pending> {
        let i = self.waiting.iter().rposition(|p| p.seq == seq && fits(p))?;
        self.waiting.remove(i)
    }
}
