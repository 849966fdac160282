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

/// How conflicts are said: one per pair, or one for an address that more
/// than [`PAIRED`] nodes claim (each later one meeting the same first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// One conflict (an index into the conflicts).
    Pair(usize),
    /// Every conflict over one address, all meeting one first node: their
    /// indices, in order (the first is where the address is first met).
    Address(Vec<usize>),
}

/// `conflicts` (as [`check`] returns them) grouped as they are said, in
/// the order of their first conflict.
pub fn said(conflicts: &[Conflict]) -> Vec<Said> {
    type Key = (u8, IpAddr);
    let key = |c: &Conflict| -> Key { (c.family.number(), c.address) };
    // Per address: its conflicts, and whether they all meet one node.
    let mut per_address: std::collections::HashMap<Key, (Vec<usize>, bool)> = std::collections::HashMap::new();
    for (i, c) in conflicts.iter().enumerate() {
        let e = per_address.entry(key(c)).or_insert((Vec::new(), true));
        if let Some(first) = e.0.first().and_then(|&f| conflicts.get(f)) {
            e.1 &= first.other == c.other;
        }
        e.0.push(i);
    }
    let mut out = Vec::new();
    let mut said: std::collections::HashSet<Key> = std::collections::HashSet::new();
    for (i, c) in conflicts.iter().enumerate() {
        let k = key(c);
        match per_address.get(&k) {
            Some((all, true)) if all.len() >= PAIRED => {
                if said.insert(k) {
                    out.push(Said::Address(all.clone()));
                }
            }
            _ => out.push(Said::Pair(i)),
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
                    <crate::replay::kubelet::Kubelet as crate::replay::chooser::Chooser>::PROGRAM,
                    crate::replay::kubelet::Kubelet.into(),
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

    #[test]
    fn conflicts_are_said_per_pair_or_per_crowded_address() {
        // Three nodes on .1 are every pair (three conflicts, fewer than
        // PAIRED): each said alone; six on .9 meet the first: one line.
        let mut ips = vec!["10.0.0.1", "10.0.0.2", "10.0.0.1", "10.0.0.1"];
        ips.extend(["10.0.0.9"; 6]);
        let c = check(&claims(&ips));
        let s = said(&c);
        assert_eq!(
            s,
            [
                Said::Pair(0),
                Said::Pair(1),
                Said::Pair(2),
                Said::Address(vec![3, 4, 5, 6, 7])
            ]
        );
        // Four nodes on one address: six conflicts, meeting three
        // different nodes, said one by one.
        let c = check(&claims(&["10.0.0.1"; 4]));
        assert_eq!(said(&c), (0..6).map(Said::Pair).collect::<Vec<_>>());
    }
}
