//! IPv6 addresses a device keeps when it goes down (`keep_addr_on_down`),
//! told by what a listener does not get.
//!
//! Contract: bookkeeping of one walk, no model state. `addrconf_ifdown`
//! walks the device's list in order (global scope before link scope,
//! `ipv6_link_dev_addr`) and announces the deletion (RTM_DELADDR) of each
//! address it does not keep; with `keep_addr_on_down` on (the device's
//! sysctl or `all`'s, which no message carries) it keeps the permanent
//! ones that are not link-local or loopback, unannounced, tentative again
//! unless `nodad`. The model takes the sysctl as off (the default) and
//! removes them all at NETDEV_DOWN; when a listener then gets the deletion
//! of a later address of that walk, and none of an earlier one it would
//! have deleted, the kernel kept those (`Model::announced_in_down_walk`
//! puts them back). Only the notifications right after the link message
//! (route and address deletions) belong to the walk.

use super::entries::AddrEntry;
use crate::netlink::names::{IFA_F_NODAD, IFA_F_PERMANENT, IFA_F_TENTATIVE};

/// The IPv6 addresses a device held when it went down, in list order, and
/// how far the announced deletions have come.
#[derive(Debug, Clone)]
pub(super) struct DownWalk {
    pub index: u32,
    /// The record of the link message that took the device down.
    pub packet: u64,
    addrs: Vec<AddrEntry>,
    next: usize,
    /// A deletion of the walk was announced: a listener was there.
    announced: bool,
}

/// Whether `keep_addr_on_down` keeps it: permanent, not link-local or
/// loopback (`addr_is_local`).
fn keepable(a: &AddrEntry) -> bool {
    let local = match a.address {
        std::net::IpAddr::V6(v6) => v6.is_unicast_link_local() || v6.is_loopback(),
        std::net::IpAddr::V4(_) => true,
    };
    a.flags & IFA_F_PERMANENT != 0 && !local
}

impl DownWalk {
    /// The walk of a device going down with these IPv6 addresses, if the
    /// sysctl could keep any of them.
    pub fn starts(index: u32, packet: u64, addrs: &[AddrEntry]) -> Option<DownWalk> {
        addrs.iter().any(keepable).then(|| DownWalk {
            index,
            packet,
            addrs: addrs.to_vec(),
            next: 0,
            announced: false,
        })
    }

    /// At the walk's end with nothing announced (no address listener):
    /// the addresses the sysctl would have kept, which no message shows
    /// kept or deleted.
    pub fn unannounced(&self) -> Option<Vec<std::net::IpAddr>> {
        (!self.announced).then(|| self.addrs.iter().filter(|a| keepable(a)).map(|a| a.address).collect())
    }

    /// The deletion of `gone` announced: the addresses the walk passed
    /// before it unannounced, if all of them are ones the sysctl keeps
    /// (then the kernel kept them), in list order, as the kernel left them
    /// (tentative again unless `nodad`).
    pub fn announced(&mut self, gone: &AddrEntry) -> Option<Vec<AddrEntry>> {
        if gone.index != self.index {
            return None;
        }
        let at = self.next + self.addrs.iter().skip(self.next).position(|a| a.same_key(gone))?;
        self.announced = true;
        let passed = self.addrs.get(self.next..at).unwrap_or_default().to_vec();
        self.next = at + 1;
        if passed.is_empty() || !passed.iter().all(keepable) {
            return None;
        }
        Some(
            passed
                .into_iter()
                .map(|mut a| {
                    if a.flags & IFA_F_NODAD == 0 {
                        a.flags |= IFA_F_TENTATIVE;
                    }
                    a
                })
                .collect(),
        )
    }
}
