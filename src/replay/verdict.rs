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

use super::calico::note::Unable;
use super::calico::text::MethodText;
use super::failure::Failure;
use super::family::Family;
use super::note::Note;
use super::program::Method;
use super::program::Program;
use super::reason::Reason;
use super::semantics::Semantics;

/// Why a candidate interface or address won or lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The answer.
    Chosen,
    /// Matched an exclude pattern.
    Excluded,
    /// Matched none of the include patterns.
    NotIncluded,
    /// No address of the requested family.
    NoAddress,
    /// Not a global unicast address (loopback, link-local, multicast, ...).
    NotGlobalUnicast,
    /// In none of the `cidr=` networks.
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
    /// Whether it won, or why it lost.
    pub verdict: Verdict,
    /// `None` when the candidate's own reason says it all (JSON: `""`).
    #[serde(serialize_with = "reason_or_empty")]
    pub reason: Option<Reason>,
}

impl AddrVerdict {
    /// An interface's address (`ip/prefix_len`), with its verdict and why.
    pub fn on_interface(ip: IpAddr, prefix_len: u8, verdict: Verdict, reason: Reason) -> Self {
        AddrVerdict {
            address: NodeAddress::prefixed(ip, prefix_len),
            verdict,
            reason: Some(reason),
        }
    }
}

/// A candidate interface, in the order the program examines them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    /// The interface's name (or the name nlorder gives a nameless one).
    pub interface: String,
    /// Its ifindex.
    pub index: u32,
    /// Whether it won, or why it lost.
    pub verdict: Verdict,
    /// What decided the verdict.
    pub reason: Reason,
    /// Its addresses the program looked at, each with its own verdict.
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
    /// Bare: `10.4.0.1`.
    Ip(IpAddr),
    /// With the prefix length: `10.4.0.1/24`.
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

/// Which of calico-node's autodetection functions logged a line: each
/// words its lines differently (see `report::calico`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Autodetect {
    /// `first-found` (and an empty method).
    FirstFound,
    /// `interface=`, with its patterns as split.
    Interface(Vec<String>),
    /// `skip-interface=`, with the patterns given (not the default excludes).
    SkipInterface(Vec<String>),
    /// `cidr=`, with the networks as parsed (their host bits cleared).
    Cidr(Vec<IpNet>),
    /// `can-reach=`, with the destination as written.
    CanReach(String),
}

/// The error text of calico-node's `Unable to auto-detect …` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogError {
    /// An error of calico-node's own (`FilteredEnumeration`,
    /// `ReachDestination`).
    Calico(Unable),
    /// Go's `net.Dial` of a UDP socket refused by the kernel's `connect`.
    Dial {
        /// The destination dialled.
        dst: IpAddr,
        /// What `connect` answered.
        errno: DialErrno,
    },
    /// Go's `net.Dial` of `udp4` (`udp6`) to an address of the other
    /// family.
    NoSuitableAddress {
        /// The family dialled (`udp4` or `udp6`).
        family: Family,
        /// The destination, as given.
        dest: String,
    },
}

/// What the kernel's `connect` of a UDP socket answers where the route
/// lookup fails (checked with Go's `net.Dial` in a namespace).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialErrno {
    /// No route matches: `ENETUNREACH`.
    NetworkUnreachable,
    /// An `unreachable` route: `EHOSTUNREACH`.
    HostUnreachable,
    /// A `blackhole` route: `EINVAL`.
    InvalidArgument,
    /// A `prohibit` route: `EACCES`.
    PermissionDenied,
}

/// A line calico-node logs while it autodetects its address (its message
/// and fields, worded in `report::calico` as calico-node words them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Log {
    /// The function's `Using autodetected …` line.
    Using {
        /// The family detected.
        family: Family,
        /// The address found.
        address: NodeAddress,
        /// The interface it is on.
        interface: String,
        /// The method that found it.
        by: Autodetect,
    },
    /// The function's `Unable to auto-detect …` line.
    Unable {
        /// The family detected.
        family: Family,
        /// The method that found nothing.
        by: Autodetect,
        /// The error the line ends with.
        why: LogError,
    },
    /// `AutoDetectCIDR` does not know the method (and calico-node
    /// terminates).
    InvalidMethod {
        /// The method, as given.
        method: MethodText,
    },
    /// kubernetes-internal-ip: `GetLocalCIDR` found the InternalIP on a
    /// host interface, with this prefix length.
    IncludingCidr {
        /// The InternalIP with its interface's prefix length.
        cidr: IpNet,
    },
    /// kubernetes-internal-ip: `GetLocalCIDR` found the InternalIP on no
    /// host interface.
    NoMatchingInterface {
        /// The InternalIP.
        ip: IpAddr,
    },
    /// kubernetes-internal-ip: what `GetLocalCIDR` returned does not
    /// parse as a CIDR (a bare IP, or nothing when the Node has no
    /// InternalIP of the family).
    UnparsableCidr {
        /// What `GetLocalCIDR` returned.
        address: String,
    },
}

/// The lines calico-node logs: none is `null` in JSON, one a string,
/// several an array.
fn log_lines<S: serde::Serializer>(log: &[Log], s: S) -> Result<S::Ok, S::Error> {
    match log {
        [] => s.serialize_none(),
        [one] => one.serialize(s),
        all => all.serialize(s),
    }
}

/// The outcome of one method on one capture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Detection {
    /// The method replayed: its program, and calico-node's method (JSON
    /// spells it as `--method` does: `first-found`, `interface=eth.*`,
    /// `kubelet`, ...).
    pub method: Method,
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
    /// The interface the address is on, where the program names one.
    pub interface: Option<String>,
    /// Why nothing was chosen.
    pub error: Option<Failure>,
    /// In the order the component examines them.
    pub candidates: Vec<Candidate>,
    /// Further findings (IP settings, BGP peers, route decisions, caveats).
    pub notes: Vec<Note>,
    /// The candidate interfaces that are administratively down (their
    /// ifindexes, in candidate order; JSON only when there are some).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub down: Vec<u32>,
    /// The lines the component would log about its choice, in order
    /// (calico-node's; empty for programs nlorder has no log lines of).
    #[serde(serialize_with = "log_lines")]
    pub log: Vec<Log>,
    /// What the answer depends on that no message in the capture shows
    /// (JSON `unshown`, in words, only when there is some).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unshown: Vec<super::unshown::Unshown>,
}

impl Detection {
    /// A detection that chose nothing yet: no candidate, note or log line.
    pub fn new(method: impl Into<Method>, semantics: Semantics, family: Family) -> Self {
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
            down: Vec::new(),
            log: Vec::new(),
            unshown: Vec::new(),
        }
    }

    /// The program replayed (its identity; `method` is how it is spelt).
    pub fn program(&self) -> Program {
        self.method.program()
    }

    /// The chosen IP without its prefix length.
    pub fn ip(&self) -> Option<IpAddr> {
        self.address.map(NodeAddress::ip)
    }

    /// The candidate that came closest without winning, and its address
    /// row that did: the first passed over only because an earlier one
    /// won, else the first other candidate holding an address, else the
    /// first other candidate.
    pub fn runner_up(&self) -> Option<(&Candidate, Option<&AddrVerdict>)> {
        let others = || self.candidates.iter().filter(|c| c.verdict != Verdict::Chosen);
        // An address passed over in the chosen candidate itself.
        let in_chosen = self
            .candidates
            .iter()
            .filter(|c| c.verdict == Verdict::Chosen)
            .find_map(|c| {
                c.addresses
                    .iter()
                    .find(|a| a.verdict == Verdict::NotReached)
                    .map(|a| (c, Some(a)))
            });
        in_chosen
            .or_else(|| {
                others()
                    .find(|c| c.verdict == Verdict::NotReached)
                    .map(|c| (c, c.addresses.first()))
            })
            .or_else(|| others().find_map(|c| c.addresses.first().map(|a| (c, Some(a)))))
            .or_else(|| others().next().map(|c| (c, None)))
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
