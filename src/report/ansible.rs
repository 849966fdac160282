//! Ansible's words (`get_default_interfaces`, and kubespray's fallback
//! IP): its `semantics:` line, its note, reason and failures.
//!
//! Contract: `Display` only; the replay ([`crate::replay::ansible`]) hands
//! out values. iproute2's error lines are quoted as `ip` prints them
//! (`RTNETLINK answers: ` and the kernel's `strerror`), which is what a
//! user sees when running the command by hand.

use std::fmt;
use std::net::IpAddr;

use crate::replay::ansible::{AnsibleFailure, Note, Reason};

/// The command Ansible runs for the family of `dst`.
struct RouteGet(IpAddr);

impl fmt::Display for RouteGet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let family = if self.0.is_ipv4() { 4 } else { 6 };
        write!(f, "ip -{family} route get {}", self.0)
    }
}

/// The `semantics:` line.
impl fmt::Display for crate::replay::ansible::Ansible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "ansible get_default_interfaces: the src and dev of `ip -4 route get 8.8.8.8` \
             (`ip -6 route get 2404:6800:400a:800::1012`): the kernel's own source address for it, \
             not the default route's device's first address; empty where the lookup fails",
        )
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::KubesprayFallback { address } if address.is_loopback() => {
                f.write_str("kubespray: ansible_default_ipv4 has no address, so fallback_ips gives this node 127.0.0.1")
            }
            Note::DeviceUnknown { route } => write!(
                f,
                "interface unknown: `{route}` has several next hops, and which one the kernel hashes the flow \
                 to the capture does not show"
            ),
            Note::KubesprayFallback { address } => {
                write!(
                    f,
                    "kubespray: fallback_ips gives this node {address} (ansible_default_ipv4.address)"
                )
            }
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::RouteGet { dst, route, why } => {
                write!(f, "`{}` takes `{route}`; source: {why}", RouteGet(*dst))
            }
        }
    }
}

impl fmt::Display for AnsibleFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnsibleFailure::NoRoutes => f.write_str(
                "Ansible asks the kernel's routes, but the capture holds none of that family: record a route dump too",
            ),
            AnsibleFailure::RouteGetFails { dst, route, error } => {
                write!(f, "`{}` fails with \"RTNETLINK answers: {error}\"", RouteGet(*dst))?;
                if let Some(route) = route {
                    write!(f, " (the matching route is `{route}`)")?;
                }
                f.write_str(": the fact is empty")
            }
            AnsibleFailure::NotUnicast { dst, route } => write!(
                f,
                "`{}` answers with a `{route}` route, its type first: Ansible reads nothing from it",
                RouteGet(*dst)
            ),
            AnsibleFailure::NoSource { dst, device } => write!(
                f,
                "`{}` finds no source address on {device}: the fact names no address",
                RouteGet(*dst)
            ),
            AnsibleFailure::NextHopUnknown { dst, route } => write!(
                f,
                "unknown: `{}` takes `{route}`, whose next hop the kernel picks by hashing the flow, which \
                 the capture does not show (so the source and device Ansible reads are unknown)",
                RouteGet(*dst)
            ),
        }
    }
}
