//! Nodes that would claim the same address, and what the program does
//! about it: calico-node checks (`checkConflictingNodes`: the later node
//! logs that the earlier one is already using the address, and
//! terminates); the other programs replayed check nothing of the kind,
//! and their nodes simply collide.
//!
//! Contract: compares the chosen IPs (the prefix is ignored, as
//! calico-node ignores it) of each pair of differently named nodes, as
//! values; `report::detect` words them (calico-node's line in
//! `report::calico`).

use std::net::IpAddr;

use super::family::Family;
use super::verdict::Detection;

/// Two nodes whose programs chose one address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The node that starts later (and, where its program checks,
    /// terminates).
    pub node: String,
    /// The node already registered with that address.
    pub other: String,
    pub family: Family,
    pub address: IpAddr,
    /// What the later node's program does about it.
    pub check: Check,
}

/// Whether the program notices that another node has its address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// calico-node's `checkConflictingNodes`: it logs the conflict and
    /// terminates.
    CalicoNode,
    /// The program checks nothing: both nodes run with one address.
    None,
}

/// `nodes`: (node name, detection), in registration order.
pub fn check(nodes: &[(String, Detection)]) -> Vec<Conflict> {
    let mut out = Vec::new();
    for (i, (name, d)) in nodes.iter().enumerate() {
        let Some(ip) = d.ip() else { continue };
        for (other, od) in nodes.iter().take(i) {
            if other == name || od.family != d.family || od.ip() != Some(ip) {
                continue;
            }
            out.push(Conflict {
                node: name.clone(),
                other: other.clone(),
                family: d.family,
                address: ip,
                check: if d.program().checks_conflicts() {
                    Check::CalicoNode
                } else {
                    Check::None
                },
            });
        }
    }
    out
}
