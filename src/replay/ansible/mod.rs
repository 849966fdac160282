//! Ansible's default address facts, `ansible_default_ipv4` and
//! `ansible_default_ipv6` (and so kubespray's fallback node IP): ansible
//! `lib/ansible/module_utils/facts/network/linux.py`
//! (`LinuxNetwork.get_default_interfaces`), and kubespray
//! `roles/kubespray-defaults/tasks/fallback_ips.yml`.
//!
//! Contract: a pure function of the model and the family. Semantics:
//! Ansible runs `ip -4 route get 8.8.8.8` (`ip -6 route get
//! 2404:6800:400a:800::1012`) and reads the first line of its answer when
//! it starts with that address: the word after `dev` is the fact's
//! interface, after `src` its address, after `via` its gateway. So the
//! answer is the kernel's own source address for that destination
//! ([`super::source::select_source`]: the routing tables in the kernel's
//! order, the route's `src`, else the kernel's choice on the output
//! device), not the default route's device's first address. Where the
//! lookup fails (no route, or an `unreachable`, `blackhole` or `prohibit`
//! route) iproute2 prints the kernel's error and nothing on stdout, and
//! the fact is empty; kubespray then takes 127.0.0.1 as the node's IPv4
//! address. Policy routing rules are not in the capture: the default
//! rules are assumed, as for every route lookup here.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::chooser::{Asks, Chooser, Context, OptionsError};
use super::failure::Failure;
use super::family::Family;
use super::source::{NoSource, Rejecting};
use super::verdict::{AddrVerdict, Candidate, Detection, NodeAddress, Verdict};
use crate::model::Model;
use crate::netlink::values::RouteType;

pub mod note;
pub use self::note::{Failure as AnsibleFailure, Note, Reason};

/// Ansible's default address fact in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ansible;

impl Chooser for Ansible {
    const PROGRAM: super::program::Program = super::program::Program::named("ansible");
    const DOC: &'static str = "Ansible's default address fact (kubespray's fallback IP)";
    const NO_ROUTES: super::chooser::NoRoutes = super::chooser::NoRoutes::Own(&note::Failure::NoRoutes);
    type Settings = super::chooser::NoSettings;
    type Options = Family;
    const ASKS: Asks = Asks::IpRouteGet;

    fn options(cx: &Context<'_>) -> Result<Family, OptionsError> {
        Ok(cx.family())
    }

    fn detect(model: &Model, family: &Family) -> Detection {
        detect(model, *family)
    }

    /// The route to its destination (table main, through the default
    /// rules) and the source's address; no link attribute.
    fn reads(_: &Family, family: Family) -> super::unshown::Reads {
        super::unshown::Reads::walk(family)
            .with_routes(&[family])
            .no_link_attributes()
    }

    /// Each family's fact.
    fn all_in_family(_: &Model, _: Option<&Family>, family: Family) -> Vec<Family> {
        vec![family]
    }
}

/// The destination Ansible asks the route to, per family.
pub fn destination(family: Family) -> IpAddr {
    match family {
        Family::V4 => IpAddr::V4(Ipv4Addr::new(8, 8, 8, 8)),
        Family::V6 => IpAddr::V6(Ipv6Addr::new(0x2404, 0x6800, 0x400a, 0x800, 0, 0, 0, 0x1012)),
    }
}

/// The kernel's error for a route of a rejecting type, as `strerror` words
/// it (`fib_props` in net/ipv4/fib_semantics.c; `ip6_route_info_create`'s
/// `dst.error` in net/ipv6/route.c, where `unreachable` is ENETUNREACH).
fn rejected(kind: Rejecting, family: Family) -> &'static str {
    match (kind, family) {
        (Rejecting::Unreachable, Family::V4) => "No route to host",
        (Rejecting::Unreachable, Family::V6) => "Network is unreachable",
        (Rejecting::Blackhole, _) => "Invalid argument",
        (Rejecting::Prohibit, _) => "Permission denied",
    }
}

/// The error `ip route get` prints when a rule's action refuses the
/// destination (`fib4_rule_action`, `fib6_rule_action`): ENETUNREACH,
/// EACCES, EINVAL, in either family.
fn rule_rejected(kind: Rejecting) -> &'static str {
    match kind {
        Rejecting::Unreachable => "Network is unreachable",
        Rejecting::Blackhole => "Invalid argument",
        Rejecting::Prohibit => "Permission denied",
    }
}

/// Ansible's `ansible_default_ipv4` (or `_ipv6`) address.
pub fn detect(model: &Model, family: Family) -> Detection {
    let mut d = Detection::new(Ansible::PROGRAM, Ansible.into(), family);
    let dst = destination(family);
    let fails = |route: Option<String>, error: &'static str| -> Failure {
        AnsibleFailure::RouteGetFails { dst, route, error }.into()
    };
    let choice = match super::assumed::select_source_noted(model, dst, &mut d.notes) {
        Ok(c) => c,
        Err(NoSource::NoRoutes) => {
            d.error = Some(Failure::NoRoutesCaptured(Ansible::PROGRAM));
            return d;
        }
        Err(NoSource::Unreachable) => {
            d.error = Some(fails(None, "Network is unreachable"));
            kubespray(&mut d, None);
            return d;
        }
        Err(NoSource::Rejected { route, kind }) => {
            d.error = Some(fails(Some(route), rejected(kind, family)));
            kubespray(&mut d, None);
            return d;
        }
        // A route of several next hops and no `src`: the kernel hashes
        // the flow to one of them and takes a source on its device; which
        // one, the capture does not show.
        Err(NoSource::RuleRejected { rule, kind }) => {
            d.error = Some(fails(Some(rule), rule_rejected(kind)));
            kubespray(&mut d, None);
            return d;
        }
        Err(NoSource::NextHopUnknown(route)) => {
            d.error = Some(AnsibleFailure::NextHopUnknown { dst, route }.into());
            return d;
        }
        Err(NoSource::NoAddress(device)) => {
            d.error = Some(AnsibleFailure::NoSource { dst, device }.into());
            kubespray(&mut d, None);
            return d;
        }
    };
    let route = model.route_text(&choice.route);
    if choice.route.kind != RouteType::Unicast {
        // iproute2 prints the type first (`local 8.8.8.8 dev lo ...`).
        d.error = Some(AnsibleFailure::NotUnicast { dst, route }.into());
        kubespray(&mut d, None);
        return d;
    }
    // (no device: a route of several next hops with a `src`; the address
    // is known, the device the kernel hashes the flow to is not)
    let oif = choice.oif.unwrap_or(0);
    let interface = choice.oif.map(|i| model.ifname(i));
    let prefix_len = model
        .device_addresses(oif, choice.route.family)
        .iter()
        .find(|a| a.address == choice.source)
        .map(|a| a.prefix_len);
    let address = match prefix_len {
        Some(len) => NodeAddress::prefixed(choice.source, len),
        None => NodeAddress::Ip(choice.source),
    };
    d.address = Some(address);
    match &interface {
        Some(name) => d.candidates.push(Candidate {
            interface: name.clone(),
            index: oif,
            verdict: Verdict::Chosen,
            reason: Reason::RouteGet {
                dst,
                route,
                why: choice.why,
            }
            .into(),
            addresses: vec![AddrVerdict {
                address,
                verdict: Verdict::Chosen,
                reason: None,
            }],
        }),
        None => d.notes.push(Note::DeviceUnknown { route }.into()),
    }
    d.interface = interface;
    kubespray(&mut d, Some(choice.source));
    d
}

/// kubespray's fallback IP, for the IPv4 fact.
fn kubespray(d: &mut Detection, source: Option<IpAddr>) {
    if d.family == Family::V4 {
        let address = source.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        d.notes.push(Note::KubesprayFallback { address }.into());
    }
}
