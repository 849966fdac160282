//! What a replay returns: the choice, and a verdict for every candidate.
//!
//! Contract: plain data, shared by every method so that printers and the
//! regression manifests treat them alike; the reasons, notes, failures,
//! semantics and log line it holds are values (see [`super::reason`],
//! [`super::note`], [`super::failure`], [`super::semantics`]), worded by
//! `report`, and serialized as those words.

use std::net::IpAddr;

use ipnet::IpNet;
use serde::Serialize;

use super::failure::{Failure, Unable};
use super::family::Family;
use super::note::Note;
use super::reason::Reason;
use super::semantics::Semantics;

/// Why a candidate interface or address won or lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Chosen,
    /// Matched an exclude pattern.
    Excluded,
    /// Matched none of the include patterns.
    NotIncluded,
    /// No address of the requested family.
    NoAddress,
    NotGlobalUnicast,
    OutsideCidrs,
    /// Not the address the method looks for (can-reach source, InternalIP, flannel IP/regex).
    NotMatching,
    /// Interface administratively down (kubelet, flannel).
    NotUp,
    /// Another family than the one asked for.
    OtherFamily,
    /// Deprecated or otherwise filtered by flags (flannel).
    Filtered,
    /// An earlier candidate already won.
    NotReached,
    /// Nothing in the capture named the device: no pattern can be matched
    /// against its name (nlorder does not match an invented `ifN`).
    NameUnknown,
}

/// One address of a candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AddrVerdict {
    /// As the program lists it: an interface address with its prefix
    /// length, a resolver's answer bare.
    pub address: NodeAddress,
    pub verdict: Verdict,
    /// `None` when the candidate's own reason says it all (JSON: `""`).
    #[serde(serialize_with = "reason_or_empty")]
    pub reason: Option<Reason>,
}

/// A candidate interface, in the order the program examines them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    pub interface: String,
    pub index: u32,
    pub verdict: Verdict,
    pub reason: Reason,
    pub addresses: Vec<AddrVerdict>,
}

/// An address row without a reason of its own is `""` in JSON.
fn reason_or_empty<S: serde::Serializer>(reason: &Option<Reason>, s: S) -> Result<S::Ok, S::Error> {
    match reason {
        Some(r) => r.serialize(s),
        None => s.serialize_str(""),
    }
}

/// The address a method chose, as the program reports it: with its prefix
/// length (calico-node: `10.4.0.1/24`) or bare (kubelet, flannel,
/// kubeadm: `10.4.0.1`). JSON and text show it as the program writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeAddress {
    Ip(IpAddr),
    Net(IpNet),
}

impl NodeAddress {
    /// An interface address with its prefix length, as Go's `Addrs()`
    /// hands it out; a length beyond the family's width (which the kernel
    /// refuses, so only a corrupt capture holds one) is taken as the
    /// host's, as calico-node's answer takes it.
    pub fn prefixed(ip: IpAddr, prefix_len: u8) -> NodeAddress {
        NodeAddress::Net(IpNet::new(ip, prefix_len).unwrap_or_else(|_| IpNet::from(ip)))
    }

    /// The address without its prefix length.
    pub fn ip(self) -> IpAddr {
        match self {
            NodeAddress::Ip(ip) => ip,
            NodeAddress::Net(n) => n.addr(),
        }
    }
}

impl From<IpAddr> for NodeAddress {
    fn from(ip: IpAddr) -> Self {
        NodeAddress::Ip(ip)
    }
}

impl From<IpNet> for NodeAddress {
    fn from(n: IpNet) -> Self {
        NodeAddress::Net(n)
    }
}

impl std::fmt::Display for NodeAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NodeAddress::Ip(ip) => ip.fmt(f),
            NodeAddress::Net(n) => n.fmt(f),
        }
    }
}

impl Serialize for NodeAddress {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The line calico-node logs about its choice (worded in
/// `report::failure`, as calico-node words it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Log {
    /// `Using autodetected IPv4 address on interface eth0: 10.0.0.5/24`
    /// (`matching`: `interface=`'s wording).
    Using {
        family: Family,
        address: NodeAddress,
        interface: String,
        matching: bool,
    },
    /// `Unable to auto-detect an IPv4 address using first-found: REASON`.
    Unable {
        family: Family,
        method: String,
        why: Unable,
    },
}

/// The outcome of one method on one capture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Detection {
    /// The method as the component spells it (`first-found`, `interface=eth.*`, `kubelet`, ...).
    pub method: String,
    /// Which version's behaviour was replayed, and what that means.
    pub semantics: Semantics,
    /// 4 or 6 in JSON.
    pub family: Family,
    /// `10.4.0.1/24`, or a bare IP for components that report one.
    pub address: Option<NodeAddress>,
    /// Every node IP the program ends up with, in its order (k3s may pick
    /// two: IPv4, then IPv6); `[address]` for the programs that pick one,
    /// empty when nothing was chosen.
    pub addresses: Vec<NodeAddress>,
    pub interface: Option<String>,
    /// Why nothing was chosen.
    pub error: Option<Failure>,
    /// In the order the component examines them.
    pub candidates: Vec<Candidate>,
    /// Further findings (IP settings, BGP peers, route decisions, caveats).
    pub notes: Vec<Note>,
    /// The line the component would log.
    pub log: Option<Log>,
}

impl Detection {
    pub fn new(method: impl Into<String>, semantics: Semantics, family: Family) -> Self {
        Detection {
            method: method.into(),
            semantics,
            family,
            address: None,
            addresses: Vec::new(),
            interface: None,
            error: None,
            candidates: Vec::new(),
            notes: Vec::new(),
            log: None,
        }
    }

    /// The chosen IP without its prefix length.
    pub fn ip(&self) -> Option<IpAddr> {
        self.address.map(NodeAddress::ip)
    }

    /// The chosen address as the program writes it.
    pub fn address_text(&self) -> Option<String> {
        self.address.map(|a| a.to_string())
    }
}

/// A detection compared by its outcome only (address, interface, error):
/// what `--timeline` tracks.
#[derive(Debug, Clone)]
pub struct Choice(pub Detection);

impl PartialEq for Choice {
    fn eq(&self, other: &Self) -> bool {
        self.0.address == other.0.address && self.0.interface == other.0.interface && self.0.error == other.0.error
    }
}
