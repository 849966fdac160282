//! calico-node's conflict check (`checkConflictingNodes`) across nodes:
//! two nodes that would claim the same address.
//!
//! Contract: compares the chosen IPs (the prefix is ignored, as calico-node
//! ignores it) of each pair of differently named nodes and reports what the
//! later node would log before terminating.

use serde::Serialize;

use super::verdict::Detection;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Conflict {
    /// The node that starts later and terminates.
    pub node: String,
    /// The node already registered with that address.
    pub other: String,
    pub family: u8,
    pub address: String,
    /// calico-node's log line.
    pub log: String,
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
                family: d.family.number(),
                address: ip.to_string(),
                log: format!(
                    "Calico node '{other}' is already using the IPv{} address {ip}.",
                    d.family
                ),
            });
        }
    }
    out
}
