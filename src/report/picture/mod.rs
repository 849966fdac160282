//! The picture of an incident (`nlorder report`): one self-contained HTML
//! page ([`html`]) or a static SVG drawing ([`svg`]) of each node's links
//! and addresses over the capture, every replayed program's answer as a
//! band with its flips, the moments programs looked, and (in the page) the
//! tables and each answer's candidates.
//!
//! Contract: the values drawn are the typed results the other printers
//! get: the flips `detect --timeline` prints, the detections `detect`
//! prints, the looks of `who`, the tables of `table`, the changes of
//! `timeline` grouped by link. The printers only place and escape them:
//! every string that comes from a capture (interface names above all) is
//! escaped by the templating (`maud`), never concatenated into markup.
//! Entries the capture does not show as fact (assumed, inferred, or known
//! only from other messages) carry their kind so the drawing can tell them
//! apart; nothing here decides what they are.

use crate::netlink::values::AddressFamily;
use std::net::IpAddr;
use std::path::PathBuf;

use crate::capture::Timestamp;
use crate::ingest::rebuild::{Flip, Grounds, Rebuilt};
use crate::looks::Look;
use crate::model::Origin;
use crate::replay::conflict::Conflict;
use crate::replay::method::Method;
use crate::replay::verdict::{Choice, Detection};

pub mod html;
pub mod svg;

/// Everything one page shows: each node, and the conflicts between them.
pub struct Picture {
    /// One per capture, in argument order.
    pub nodes: Vec<NodePicture>,
    /// Per program, the nodes that would claim one address at the tables'
    /// moment (see [`crate::replay::conflict`]); only programs with one.
    pub conflicts: Vec<ProgramConflicts>,
}

/// The conflicts of one program between the nodes.
pub struct ProgramConflicts {
    /// The program (method).
    pub method: Method,
    /// The nodes that would terminate, and why.
    pub conflicts: Vec<Conflict>,
}

/// One node's capture, drawn.
pub struct NodePicture {
    /// The node's name (`NODE=PATH`, or the file's stem).
    pub node: String,
    /// Its capture, as given.
    pub capture: PathBuf,
    /// Every record of the capture with rtnetlink messages: its number and
    /// time, in capture order (the time axis).
    pub clock: Vec<(u64, Option<Timestamp>)>,
    /// One lane per link the capture showed, in the kernel's order at the
    /// tables' moment, then those gone by then (by ifindex).
    pub links: Vec<LinkLane>,
    /// One lane per program replayed.
    pub programs: Vec<ProgramLane>,
    /// The moments programs looked at the tables (`who`).
    pub looks: Vec<Look>,
    /// The tables at the moment asked for (the end of the capture, or
    /// `--at`).
    pub tables: Rebuilt,
    /// What the answers rest on.
    pub grounds: Grounds,
}

/// One link over the capture.
pub struct LinkLane {
    /// Its ifindex.
    pub index: u32,
    /// IFLA_INFO_KIND when a message said.
    pub kind: Option<String>,
    /// Its name from each packet on (the first: as first seen).
    pub names: Vec<(u64, String)>,
    /// The stretches it existed in this namespace.
    pub lives: Vec<Life>,
    /// Its administrative and operational state where it changed.
    pub states: Vec<StateMark>,
    /// Its addresses over their lifetimes.
    pub addresses: Vec<AddrBar>,
    /// Known only from address or route messages: no link message showed
    /// it (flags, state and type unknown).
    pub unknown: bool,
}

/// How a link's or address's stretch began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Began {
    /// A change the model applied (request, notification, kernel rule),
    /// with its origin.
    Added(Origin),
    /// A dump listed it and nothing before it had shown it: it existed
    /// before, since when the capture does not say.
    Listed(u64),
}

/// How a stretch ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// Deleted (by a request, a notification, the kernel, or missing from
    /// a dump).
    Removed,
    /// Its valid lifetime ran out.
    Expired,
    /// Sent to another namespace (as the request named it).
    Moved(String),
}

/// A stretch of packets: `from` up to `to` (`None`: on to the end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Life {
    /// The packet it began at.
    pub from: u64,
    /// How.
    pub began: Began,
    /// The packet it ended at, and how; `None`: it lasts to the end.
    pub to: Option<(u64, Ended)>,
}

/// A link's state from a packet on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateMark {
    /// The packet of the change.
    pub packet: u64,
    /// IFF_UP.
    pub up: bool,
    /// IFLA_OPERSTATE (`None`: no message showed one).
    pub operstate: Option<u8>,
    /// IFF_LOWER_UP (carrier).
    pub carrier: bool,
}

/// One address over its lifetime.
pub struct AddrBar {
    /// The address.
    pub address: IpAddr,
    /// Its prefix length.
    pub prefix_len: u8,
    /// AF_INET or AF_INET6.
    pub family: AddressFamily,
    /// When it was there.
    pub life: Life,
    /// Its IFA_F_* flags from each packet on (the first: when it came).
    pub flags: Vec<(u64, u32)>,
    /// Its IFA_F_* flags once the kernel's timers ran on after the last
    /// record (`--at end+SECS`: its duplicate address detection ended):
    /// assumed, no message shows it. `None`: nothing assumed.
    pub after: Option<u32>,
}

/// One program's answer over the capture.
pub struct ProgramLane {
    /// The method replayed.
    pub method: Method,
    /// Where its answer changed (what `detect --timeline` lists).
    pub flips: Vec<Flip<Choice>>,
    /// Its answer at the tables' moment, with every candidate and reason.
    pub answer: Detection,
}

/// The address family's number, 4 or 6.
pub(crate) fn family_number(af: AddressFamily) -> u8 {
    if af == crate::netlink::values::AddressFamily::Inet6 {
        6
    } else {
        4
    }
}

/// The record an origin names.
pub(crate) fn origin_packet(o: &Origin) -> u64 {
    match o {
        Origin::Dump(p) | Origin::Inferred(p) | Origin::Request(p) | Origin::KernelRule(p, _) => *p,
    }
}
