//! Antrea agent's transport interface and addresses: antrea
//! `pkg/agent/agent.go` (`initK8sNodeLocalConfig`, `getNodeInterfaceFromIP`)
//! over `pkg/agent/util/net.go` (`GetIPNetDeviceFromIP`,
//! `GetIPNetDeviceByName`, `GetIPNetDeviceByCIDRs`) and `pkg/util/k8s`
//! (`GetNodeAddrs`).
//!
//! Contract: a pure function of the model and the settings. Semantics:
//! the Node's InternalIPs (given: they come from the API server; the
//! first of each family in status order) must be on one interface,
//! found by walking Go's `net.Interfaces()` forward (the host gateway,
//! `antrea-gw0` by default, skipped) over each one's `Addrs()`. That
//! interface carries the tunnels unless `transportInterface` names
//! another (its first global unicast address of each family) or
//! `transportInterfaceCIDRs` picks the first interface with a global
//! unicast address inside them (one CIDR, or one of each family; the
//! host gateway is not skipped there). The answer is the transport
//! interface and its addresses, IPv4 first. The Node's ExternalIP
//! fallback (no InternalIP at all) is not replayed.

use std::net::IpAddr;

use ipnet::IpNet;

use super::chooser::{Chooser, Context, OptionsError};
use super::failure::Failure as Common;
use super::family::Family;
use super::go::{self, AddrView, GoAddr};
use super::unshown::Reads;
use super::verdict::{AddrVerdict, Candidate, Detection, NodeAddress, Verdict};
use crate::model::Model;

/// The Antrea agent in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Antrea;

impl Chooser for Antrea {
    const PROGRAM: super::program::Program = super::program::Program::named("antrea");
    const DOC: &'static str = "Antrea agent's transport interface and addresses";
    type Settings = Settings;
    const OPTIONS: &'static [&'static str] = OPTIONS;
    type Options = Options;

    fn options(cx: &Context<'_>) -> Result<Options, OptionsError> {
        let s = cx.settings::<Antrea>();
        Ok(Options {
            node_ips: cx.settings::<super::calico::CalicoNode>().internal_ips(cx.node),
            transport_interface: s.transport_interface,
            transport_interface_cidrs: s.transport_interface_cidrs,
            host_gateway: s.host_gateway,
        })
    }

    fn detect(model: &Model, o: &Options) -> Detection {
        detect(model, o)
    }

    /// `transportInterfaceCIDRs` takes the first interface in dump order;
    /// the Node's IPs and a named interface are where they are.
    fn walks_links(o: &Options) -> bool {
        o.transport_interface.is_none() && !o.transport_interface_cidrs.is_empty()
    }

    /// Both families' addresses of every link, and link names.
    fn reads(_: &Options, _: Family) -> Reads {
        Reads {
            addresses: vec![Family::V4, Family::V6],
            main_routes: Vec::new(),
            first_answer_ends: false,
            link_attributes: true,
            order_where_shared: false,
        }
    }
}

/// What the agent's choice reads.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The Node's InternalIPs, in status order.
    pub node_ips: Vec<IpAddr>,
    /// `transportInterface`.
    pub transport_interface: Option<String>,
    /// `transportInterfaceCIDRs`.
    pub transport_interface_cidrs: Vec<IpNet>,
    /// `hostGateway`: the interface the Node-IP search skips.
    pub host_gateway: String,
}

/// Antrea's default `hostGateway`.
pub const HOST_GATEWAY: &str = "antrea-gw0";

program_options! {
    /// The Antrea agent's settings as given (antrea-agent.conf); the Node's
    /// InternalIPs are calico-node's `--node-internal-ip`.
    pub struct Settings {
        /// Antrea transportInterface: the interface for tunnels and routing between Nodes.
        #[cfg_attr(feature = "clap", arg(long, value_name = "IFACE"))]
        transport_interface: Option<String> = None,
        /// Antrea transportInterfaceCIDRs: the first interface with an address inside them
        /// (one CIDR, or one of each family); repeatable or comma-separated.
        #[cfg_attr(feature = "clap", arg(long, value_name = "CIDR", value_delimiter = ','))]
        transport_interface_cidrs: Vec<IpNet> = Vec::new(),
        /// Antrea hostGateway: the interface skipped when looking for the Node's IPs.
        #[cfg_attr(feature = "clap", arg(long, default_value = HOST_GATEWAY, value_name = "IFACE"))]
        host_gateway: String = HOST_GATEWAY.to_owned(),
    }
}

/// The options the Antrea agent reads.
pub const OPTIONS: &[&str] = &[
    "node_internal_ip",
    "transport_interface",
    "transport_interface_cidrs",
    "host_gateway",
];

/// `utilip.DualStackIPs` as the agent prints it with `%v`.
fn dual_stack_text(v4: Option<IpAddr>, v6: Option<IpAddr>) -> String {
    let s = |ip: Option<IpAddr>| ip.map_or_else(|| "<nil>".to_owned(), |ip| ip.to_string());
    format!("&{{{} {}}}", s(v4), s(v6))
}

/// An address the agent keeps, with its prefix (a `*net.IPNet`).
fn net(a: &GoAddr<'_>) -> NodeAddress {
    NodeAddress::prefixed(a.ip, a.prefix_len)
}

fn row(model: &Model, index: u32, verdict: Verdict, reason: Reason, addresses: Vec<AddrVerdict>) -> Candidate {
    Candidate {
        interface: model.ifname(index),
        index,
        verdict,
        reason: reason.into(),
        addresses,
    }
}

fn addr_row(a: &GoAddr<'_>, verdict: Verdict, reason: Option<Reason>) -> AddrVerdict {
    AddrVerdict {
        address: net(a),
        verdict,
        reason: reason.map(Into::into),
    }
}

/// What one of the agent's searches found: the IPv4 and IPv6 address and
/// the interface, or its error.
type Found = Result<(Option<NodeAddress>, Option<NodeAddress>, u32), String>;

/// `GetIPNetDeviceFromIP`: the one interface, the host gateway skipped,
/// that holds the Node's IPs.
fn from_ip(model: &Model, v4: Option<IpAddr>, v6: Option<IpAddr>, gateway: &str, rows: &mut Vec<Candidate>) -> Found {
    let (mut found4, mut found6, mut at): (Option<NodeAddress>, Option<NodeAddress>, Option<u32>) = (None, None, None);
    for l in go::interfaces(model) {
        if l.has_name() && l.name.as_bytes() == gateway.as_bytes() {
            rows.push(row(model, l.index, Verdict::Excluded, Reason::HostGateway, Vec::new()));
            continue;
        }
        let mut addrs = Vec::new();
        let mut holds = false;
        for a in go::addrs(model, l.index, AddrView::GoNet) {
            let hit = Some(a.ip) == v4 || Some(a.ip) == v6;
            if !hit {
                addrs.push(addr_row(&a, Verdict::NotMatching, None));
                continue;
            }
            if let Some(first) = at.filter(|i| *i != l.index) {
                addrs.push(addr_row(&a, Verdict::Chosen, Some(Reason::IsNodeIp)));
                let first = model.ifname(first);
                rows.push(row(
                    model,
                    l.index,
                    Verdict::Excluded,
                    Reason::SecondDevice { first },
                    addrs,
                ));
                return Err("IPs of localIPs should be on the same device".into());
            }
            at = Some(l.index);
            holds = true;
            if a.ip.is_ipv4() {
                found4 = Some(net(&a));
            } else {
                found6 = Some(net(&a));
            }
            addrs.push(addr_row(&a, Verdict::Chosen, Some(Reason::IsNodeIp)));
        }
        let (verdict, reason) = if holds {
            (Verdict::Chosen, Reason::HoldsNodeIp)
        } else {
            (Verdict::NotMatching, Reason::HoldsNoNodeIp)
        };
        rows.push(row(model, l.index, verdict, reason, addrs));
    }
    at.map(|i| (found4, found6, i))
        .ok_or_else(|| "unable to find local IPs and device".into())
}

/// Whether `a` is the first global unicast address of its family so far
/// (and takes that family's place).
fn first_of_family(a: &GoAddr<'_>, v4: &mut Option<NodeAddress>, v6: &mut Option<NodeAddress>) -> bool {
    let slot = if a.ip.is_ipv4() { v4 } else { v6 };
    if slot.is_some() {
        return false;
    }
    *slot = Some(net(a));
    true
}

/// `GetIPNetDeviceByName` (`net.InterfaceByName`, then its addresses).
fn by_name(model: &Model, name: &str, rows: &mut Vec<Candidate>) -> Found {
    let Some(l) = model.link_by_name(name.as_bytes()) else {
        return Err("route ip+net: no such network interface".into());
    };
    let (mut v4, mut v6) = (None, None);
    let mut addrs = Vec::new();
    for a in go::addrs(model, l.index, AddrView::GoNet) {
        addrs.push(if !go::is_global_unicast(a.ip) {
            addr_row(&a, Verdict::NotGlobalUnicast, None)
        } else if first_of_family(&a, &mut v4, &mut v6) {
            addr_row(&a, Verdict::Chosen, Some(Reason::FirstOfFamily))
        } else {
            addr_row(&a, Verdict::NotReached, Some(Reason::FamilyTaken))
        });
    }
    if v4.is_none() && v6.is_none() {
        rows.push(row(model, l.index, Verdict::NoAddress, Reason::NoGlobalUnicast, addrs));
        return Err("unable to find local IP and device".into());
    }
    rows.push(row(model, l.index, Verdict::Chosen, Reason::Named, addrs));
    Ok((v4, v6, l.index))
}

/// `GetIPNetDeviceByCIDRs`: the first interface with a global unicast
/// address inside the CIDRs.
fn by_cidrs(model: &Model, cidrs: &[IpNet], rows: &mut Vec<Candidate>) -> Found {
    let has = |v4: bool| cidrs.iter().any(|c| matches!(c, IpNet::V4(_)) == v4);
    if cidrs.len() > 1 && !(has(true) && has(false)) {
        return Err(format!(
            "len of cidrs is {} and they are not configured as dual stack (at least one from each IPFamily)",
            cidrs.len()
        ));
    }
    if cidrs.len() > 2 {
        return Err(format!("length of cidrs is {} more than max allowed of 2", cidrs.len()));
    }
    let links = go::interfaces(model);
    for (i, l) in links.iter().enumerate() {
        let (mut v4, mut v6) = (None, None);
        let mut addrs = Vec::new();
        for a in go::addrs(model, l.index, AddrView::GoNet) {
            if !go::is_global_unicast(a.ip) {
                addrs.push(addr_row(&a, Verdict::NotGlobalUnicast, None));
                continue;
            }
            let Some(cidr) = cidrs.iter().find(|c| c.contains(&a.ip)) else {
                addrs.push(addr_row(&a, Verdict::OutsideCidrs, None));
                continue;
            };
            addrs.push(if first_of_family(&a, &mut v4, &mut v6) {
                addr_row(&a, Verdict::Chosen, Some(Reason::InCidr { cidr: *cidr }))
            } else {
                addr_row(&a, Verdict::NotReached, Some(Reason::FamilyTaken))
            });
        }
        if v4.is_none() && v6.is_none() {
            rows.push(row(model, l.index, Verdict::OutsideCidrs, Reason::NoneInCidrs, addrs));
            continue;
        }
        rows.push(row(model, l.index, Verdict::Chosen, Reason::FirstInCidrs, addrs));
        // Antrea stops here: the interfaces after it are not looked at.
        for later in links.iter().skip(i + 1) {
            let interface = l.display_name();
            let reason = Reason::TakenEarlier { interface };
            rows.push(row(model, later.index, Verdict::NotReached, reason, Vec::new()));
        }
        return Ok((v4, v6, l.index));
    }
    Err("unable to find local IP and device".into())
}

/// The agent's transport interface and its addresses on `model`.
pub fn detect(model: &Model, o: &Options) -> Detection {
    let mut d = Detection::new(Antrea::PROGRAM, Antrea.into(), Family::V4);
    // GetNodeAddrs: the first InternalIP of each family, in status order.
    let (mut v4, mut v6, mut dropped) = (None, None, Vec::new());
    for ip in &o.node_ips {
        let slot = if ip.is_ipv4() { &mut v4 } else { &mut v6 };
        match slot {
            None => *slot = Some(*ip),
            Some(_) => dropped.push(*ip),
        }
    }
    if v4.is_none() && v6.is_none() {
        d.error = Some(Failure::NoNodeIp.into());
        return d;
    }
    d.notes.push(Note::NodeIps { v4, v6, dropped }.into());
    let mut rows = Vec::new();
    let node = from_ip(model, v4, v6, &o.host_gateway, &mut rows);
    let node = match node {
        Ok(n) => n,
        Err(why) => {
            d.candidates = rows;
            let ips = dual_stack_text(v4, v6);
            d.error = Some(Common::Said(format!(
                "failed to get local IPNet device with IP {ips}: {why}"
            )));
            return d;
        }
    };
    let (by, found) = match (&o.transport_interface, o.transport_interface_cidrs.is_empty()) {
        (Some(name), _) => {
            let mut rows = Vec::new();
            let found = by_name(model, name, &mut rows)
                .map_err(|why| format!("failed to get local IPNet device with transport interface {name}: {why}"));
            (Some((Transport::Interface(name.clone()), rows)), found)
        }
        (None, false) => {
            let cidrs = &o.transport_interface_cidrs;
            let mut rows = Vec::new();
            let found = by_cidrs(model, cidrs, &mut rows).map_err(|why| {
                let list: Vec<String> = cidrs.iter().map(ToString::to_string).collect();
                format!(
                    "failed to get local IPNet device with transport Address CIDR [{}]: {why}",
                    list.join(" ")
                )
            });
            (Some((Transport::Cidrs(cidrs.clone()), rows)), found)
        }
        (None, true) => (None, Ok(node)),
    };
    match by {
        Some((by, transport_rows)) => {
            d.notes.push(
                Note::NodeInterface {
                    interface: model.ifname(node.2),
                    by,
                }
                .into(),
            );
            d.candidates = transport_rows;
        }
        None => d.candidates = rows,
    }
    match found {
        Ok((a4, a6, index)) => {
            d.addresses = a4.into_iter().chain(a6).collect();
            d.address = d.addresses.first().copied();
            d.family = if a4.is_some() { Family::V4 } else { Family::V6 };
            d.interface = Some(model.ifname(index));
        }
        Err(said) => d.error = Some(Common::Said(said)),
    }
    d
}

#[cfg(test)]
#[path = "antrea_tests.rs"]
mod tests;

pub mod note;
pub use self::note::{Failure, Note, Reason, Transport};
