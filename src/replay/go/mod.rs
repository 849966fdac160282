//! The host as Go programs see it (Calico, kubelet, flannel are Go).
//!
//! Contract: `net.Interfaces()` lists links in the kernel's link dump order;
//! `(*Interface).Addrs()` lists a device's addresses in the order of an
//! AF_UNSPEC address dump (its IPv4 ones, then its IPv6 ones), each as
//! IFA_LOCAL (else IFA_ADDRESS) with the prefix length, flags ignored.
//! vishvananda/netlink (Calico ≥ 3.32's bulk path, flannel) differs for
//! point-to-point IPv4: the local address with a full-length mask.

pub mod regex;

use crate::netlink::values::AddressFamily;
use std::net::IpAddr;

use crate::model::{AddrEntry, LinkEntry, Model};

/// One address of `Addrs()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoAddr<'m> {
    /// The address as Go hands it out.
    pub ip: IpAddr,
    /// Its prefix length.
    pub prefix_len: u8,
    /// The model's entry it comes from.
    pub entry: &'m AddrEntry,
}

impl GoAddr<'_> {
    /// `IP/LEN`, as Go's `IPNet.String()` writes it.
    pub fn cidr(&self) -> String {
        format!("{}/{}", self.ip, self.prefix_len)
    }
}

/// Which library reads the addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddrView {
    /// Go's `net` package.
    GoNet,
    /// vishvananda/netlink `AddrList`.
    Vishvananda,
}

/// `net.Interfaces()`: every link, kernel dump order.
pub fn interfaces(model: &Model) -> &[LinkEntry] {
    model.links()
}

/// `Addrs()` of one interface, optionally only one family (4 or 6).
pub fn addrs(model: &Model, index: u32, view: AddrView) -> Vec<GoAddr<'_>> {
    let mut out = Vec::new();
    for fam in [AddressFamily::Inet, AddressFamily::Inet6] {
        for a in model.device_addresses(index, fam) {
            let full = if fam == AddressFamily::Inet { 32 } else { 128 };
            let prefix_len = match view {
                AddrView::Vishvananda if a.peer.is_some() => full,
                _ => a.prefix_len,
            };
            out.push(GoAddr {
                ip: a.address,
                prefix_len,
                entry: a,
            });
        }
    }
    out
}

/// Go's `IP.IsGlobalUnicast`.
pub fn is_global_unicast(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            !(v4.is_broadcast() || v4.is_unspecified() || v4.is_loopback() || v4.is_multicast() || v4.is_link_local())
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_global_unicast(IpAddr::V4(v4)),
            None => {
                !(v6.is_unspecified() || v6.is_loopback() || v6.is_multicast() || (v6.segments()[0] & 0xffc0) == 0xfe80)
            }
        },
    }
}

/// Why an address is not global unicast, in Go's terms (worded in
/// `report::reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotGlobal {
    /// A loopback address.
    Loopback,
    /// A link-local unicast address.
    LinkLocal,
    /// A multicast address.
    Multicast,
    /// Neither of the above: `0.0.0.0`, `::`, `255.255.255.255`.
    UnspecifiedOrBroadcast,
}

/// Why `ip` is not global unicast (meaningful only when
/// [`is_global_unicast`] says it is not).
pub fn not_global(ip: IpAddr) -> NotGlobal {
    match ip {
        IpAddr::V4(v4) if v4.is_loopback() => NotGlobal::Loopback,
        IpAddr::V4(v4) if v4.is_link_local() => NotGlobal::LinkLocal,
        IpAddr::V4(v4) if v4.is_multicast() => NotGlobal::Multicast,
        IpAddr::V6(v6) if v6.is_loopback() => NotGlobal::Loopback,
        IpAddr::V6(v6) if (v6.segments()[0] & 0xffc0) == 0xfe80 => NotGlobal::LinkLocal,
        IpAddr::V6(v6) if v6.is_multicast() => NotGlobal::Multicast,
        _ => NotGlobal::UnspecifiedOrBroadcast,
    }
}

/// `net.InterfaceAddrs()` contains `ip`.
pub fn host_has(model: &Model, ip: IpAddr) -> bool {
    model.addresses(None).iter().any(|a| a.address == ip)
}
