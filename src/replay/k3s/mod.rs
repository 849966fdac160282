//! k3s's (and RKE2's) node IPs: k3s `pkg/util/net.go` `GetHostnameAndIPs`
//! and `GetIPFromInterface` (`getIPFromInterface`), the agent's use of
//! `--flannel-iface` when no `--node-ip` is given (`pkg/agent/config`),
//! over apimachinery's `ChooseHostInterface` and `ResolveBindAddress`.
//!
//! Contract: a pure function of the model and the flags. Semantics:
//! `--node-ip` is used as given; else `--flannel-iface` names the interface
//! (it must be up; more than one global unicast IPv4 address on it is k3s's
//! error; its IPv4 and first IPv6 address, or the IPv6 alone); else the
//! default-route walk ([`super::host_interface`], IPv4 preferred), and when
//! that gives an IPv4 address, the same walk preferring IPv6 adds a second
//! node IP when it differs. The detection's `addresses` lists the node IPs
//! in order; `address` is the first.

use std::net::IpAddr;

use super::chooser::{Chooser, Context, OptionsError};
use super::failure::Failure;
use super::family::Family;
use super::go::{self, AddrView};
use super::host_interface::{self, NoHostInterface};
use super::reason;
use super::verdict::{AddrVerdict, Candidate, Detection, NodeAddress, Verdict};
use crate::model::Model;
use crate::netlink::names::IFF_UP;

/// k3s (RKE2) in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct K3s;

impl Chooser for K3s {
    const PROGRAM: super::program::Program = super::program::Program::named("k3s");
    const DOC: &'static str = "k3s's (RKE2's) node IPs";
    const NO_ROUTES: super::chooser::NoRoutes = super::chooser::NoRoutes::Walks;
    type Settings = Settings;
    const OPTIONS: &'static [&'static str] = OPTIONS;
    type Options = Options;

    fn options(cx: &Context<'_>) -> Result<Options, OptionsError> {
        Ok(Options {
            node_ip: cx.settings::<super::kubelet::Kubelet>().node_ip,
            flannel_iface: cx.settings::<K3s>().flannel_iface,
        })
    }

    fn detect(model: &Model, o: &Options) -> Detection {
        detect(model, o)
    }

    /// apimachinery's default-route walk ([`super::host_interface::reads`]),
    /// unless `--node-ip` is given.
    fn reads(o: &Options, family: super::family::Family) -> super::unshown::Reads {
        super::host_interface::reads(family, false, !o.node_ip.is_empty())
    }

    fn all_once(_: &[Family]) -> Vec<Options> {
        vec![Options::default()]
    }
}

/// k3s's flags that decide its node IPs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--node-ip` (comma-separated, in order).
    pub node_ip: Vec<IpAddr>,
    /// `--flannel-iface`.
    pub flannel_iface: Option<String>,
}

program_options! {
    /// k3s's settings as given (its `--node-ip` is kubelet's).
    pub struct Settings {
        /// k3s --flannel-iface (k3s, k3s-flannel).
        #[cfg_attr(feature = "clap", arg(long, value_name = "IFACE"))]
        flannel_iface: Option<String> = None,
    }
}

/// The options k3s reads.
pub const OPTIONS: &[&str] = &["node_ip", "flannel_iface"];

/// k3s's node IPs.
pub fn detect(model: &Model, o: &Options) -> Detection {
    let mut d = Detection::new(K3s::PROGRAM, K3s.into(), Family::V4);
    if let Some(first) = o.node_ip.first() {
        d.addresses = o.node_ip.iter().map(|ip| NodeAddress::Ip(*ip)).collect();
        d.address = Some((*first).into());
        d.family = Family::of(*first);
        d.interface = model
            .addresses(None)
            .iter()
            .find(|a| a.address == *first)
            .map(|a| model.ifname(a.index));
        d.notes.push(super::note::Note::NodeIpGiven);
        return d;
    }
    if let Some(name) = &o.flannel_iface {
        from_interface(model, name, &mut d);
        return d;
    }
    match host_interface::choose(model, false, &mut d, K3s::PROGRAM) {
        Ok(()) => {
            let Some(first) = d.ip() else { return d };
            d.addresses.push(first.into());
            if first.is_ipv4() {
                // ResolveBindAddress(::1): the walk again, IPv6 first.
                let mut v6 = Detection::new(K3s::PROGRAM, K3s.into(), Family::V6);
                if host_interface::choose(model, true, &mut v6, K3s::PROGRAM).is_ok()
                    && let Some(second) = v6.ip()
                    && second != first
                {
                    d.addresses.push(second.into());
                    d.notes.push(
                        Note::SecondNodeIp {
                            ip: second,
                            interface: v6.interface.clone().unwrap_or_default(),
                        }
                        .into(),
                    );
                }
            }
        }
        Err(NoHostInterface::NoRoutesCaptured) => d.error = Some(Failure::NoRoutesCaptured(K3s::PROGRAM)),
        Err(NoHostInterface::NoDefaultRoutes) => {
            d.error = Some(Failure::Said(
                "no default routes found in \"/proc/net/route\" or \"/proc/net/ipv6_route\"".into(),
            ))
        }
        Err(NoHostInterface::NoneUsable) => {
            d.error = Some(Failure::Said("unable to select an IP from default routes.".into()))
        }
        Err(e @ NoHostInterface::NoSuchInterface) => d.error = e.said().map(Failure::Said),
    }
    d
}

/// `getIPFromInterface`: the named interface's global unicast addresses,
/// through Go's `net` (`InterfaceByName`, `Addrs()`).
fn from_interface(model: &Model, name: &str, d: &mut Detection) {
    d.notes.push(super::note::Note::FlannelIface { name: name.to_owned() });
    let Some(link) = model.link_by_name(name.as_bytes()) else {
        d.error = Some(Failure::Said(format!(
            "route ip+net: no such network interface ({name})"
        )));
        return;
    };
    let addrs = go::addrs(model, link.index, AddrView::GoNet);
    let up = link.flags & IFF_UP != 0;
    let v4: Vec<IpAddr> = addrs
        .iter()
        .map(|a| a.ip)
        .filter(|ip| ip.is_ipv4() && go::is_global_unicast(*ip))
        .collect();
    let v6: Vec<IpAddr> = addrs
        .iter()
        .map(|a| a.ip)
        .filter(|ip| ip.is_ipv6() && go::is_global_unicast(*ip))
        .collect();
    let chosen: Vec<IpAddr> = match (up, v4.as_slice(), v6.first()) {
        (false, _, _) => {
            d.error = Some(Failure::Said(format!(
                "interface {name} does not have a correct global unicast ip: the interface {name} is not up"
            )));
            Vec::new()
        }
        (true, [_, _, ..], _) => {
            let listed: Vec<String> = v4.iter().map(|ip| ip.to_string()).collect();
            d.error = Some(Failure::Said(format!(
                "interface {name} does not have a correct global unicast ip: multiple global unicast addresses \
                 defined for {name}, please set ip from one of [{}]",
                listed.join(" ")
            )));
            Vec::new()
        }
        (true, [one], Some(six)) => vec![*one, *six],
        (true, [one], None) => vec![*one],
        (true, [], Some(six)) => vec![*six],
        (true, [], None) => {
            d.error = Some(Failure::Said(format!(
                "interface {name} does not have a correct global unicast ip: can't find ip for interface {name}"
            )));
            Vec::new()
        }
    };
    let rows = addrs
        .iter()
        .map(|a| {
            let (verdict, reason) = if chosen.contains(&a.ip) {
                (Verdict::Chosen, reason::Reason::FirstGlobal)
            } else if !go::is_global_unicast(a.ip) {
                (
                    Verdict::NotGlobalUnicast,
                    reason::Reason::NotGlobal(go::not_global(a.ip)),
                )
            } else if !up {
                (Verdict::NotUp, reason::Reason::InterfaceDown)
            } else if a.ip.is_ipv6() {
                (Verdict::NotReached, reason::Reason::EarlierAddress)
            } else {
                (Verdict::NotMatching, reason::Reason::OneOfSeveral)
            };
            AddrVerdict::on_interface(a.ip, a.prefix_len, verdict, reason)
        })
        .collect();
    d.candidates.push(Candidate {
        interface: link.display_name(),
        index: link.index,
        verdict: if chosen.is_empty() {
            if up { Verdict::NoAddress } else { Verdict::NotUp }
        } else {
            Verdict::Chosen
        },
        reason: Reason::NamedInterface.into(),
        addresses: rows,
    });
    if let Some(first) = chosen.first() {
        d.address = Some((*first).into());
        d.family = Family::of(*first);
        d.interface = Some(link.display_name());
        d.addresses = chosen.iter().map(|ip| NodeAddress::Ip(*ip)).collect();
    }
}

pub mod note;
pub use self::note::{Note, Reason};

#[cfg(test)]
#[path = "k3s_tests.rs"]
mod tests;
