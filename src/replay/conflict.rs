//! Nodes that would claim the same address, and what the program does
//! about it: calico-node checks (`checkConflictingNodes`: the later node
//! logs that the earlier one is already using the address, and
//! terminates); the other programs replayed check nothing of the kind,
//! and their nodes simply collide.
//!
//! Contract: compares the chosen IPs (the prefix is ignored, as
//! calico-node ignores it) of each pair of differently named nodes, as
//! values; `report::detect` words them (calico-node's line in
//! `report::calico`). Nodes are grouped by address first (a hash, not a
//! comparison of every pair): where more than [`PAIRED`] nodes claim one
//! address, each later node is paired with the first only, so a thousand
//! copies of one capture make 999 conflicts, not half a million.

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
    /// The family of the address.
    pub family: Family,
    /// The address both chose.
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

/// Up to this many nodes on one address, every pair is a conflict; more,
/// and each later node is paired with the first that claimed it.
pub const PAIRED: usize = 4;

/// `nodes`: (node name, detection), in registration order. The conflicts
/// come in the order of the later node, then of the node it meets.
pub fn check(nodes: &[(String, Detection)]) -> Vec<Conflict> {
    // Every node's place in its address's group, as (group, position).
    let mut groups: std::collections::HashMap<(u8, std::net::IpAddr), Vec<usize>> = std::collections::HashMap::new();
    for (i, (_, d)) in nodes.iter().enumerate() {
        if let Some(ip) = d.ip() {
            groups.entry((d.family.number(), ip)).or_default().push(i);
        }
    }
    let mut out = Vec::new();
    for (i, (name, d)) in nodes.iter().enumerate() {
        let Some(ip) = d.ip() else { continue };
        let Some(group) = groups.get(&(d.family.number(), ip)) else {
            continue;
        };
        let earlier = group.iter().take_while(|&&j| j < i);
        let earlier: Vec<usize> = match group.len() > PAIRED {
            true => earlier.take(1).copied().collect(),
            false => earlier.copied().collect(),
        };
        for j in earlier {
            let Some((other, _)) = nodes.get(j) else { continue };
            if other == name {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::Family;
    use crate::replay::verdict::NodeAddress;

    fn claims(ips: &[&str]) -> Vec<(String, Detection)> {
        ips.iter()
            .enumerate()
            .map(|(i, ip)| {
                let mut d = Detection::new(
                    crate::replay::program::Program::Kubelet,
                    crate::replay::semantics::Semantics::Kubelet,
                    Family::V4,
                );
                d.address = Some(NodeAddress::Ip(ip.parse().expect("ip")));
                (format!("n{i}"), d)
            })
            .collect()
    }

    fn pairs(c: &[Conflict]) -> Vec<(&str, &str)> {
        c.iter().map(|c| (c.node.as_str(), c.other.as_str())).collect()
    }

    #[test]
    fn a_few_nodes_on_one_address_are_every_pair() {
        let c = check(&claims(&["10.0.0.1", "10.0.0.2", "10.0.0.1", "10.0.0.1"]));
        assert_eq!(pairs(&c), [("n2", "n0"), ("n3", "n0"), ("n3", "n2")]);
        assert_eq!(c[0].check, Check::None, "kubelet checks nothing");
    }

    #[test]
    fn many_nodes_on_one_address_meet_the_first() {
        let ips = vec!["10.0.0.9"; 1000];
        let c = check(&claims(&ips));
        assert_eq!(c.len(), 999);
        assert!(c.iter().all(|c| c.other == "n0"));
        assert_eq!(pairs(&c[..2]), [("n1", "n0"), ("n2", "n0")]);
    }
}
