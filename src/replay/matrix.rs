//! `detect --all`: every method, with sensible defaults derived from the
//! host itself, so one can see at once which component picks what.
//!
//! Contract: a pure function of the model; the methods tried are each
//! program's chooser's (`Chooser::all_in_family` in each family with a
//! global address, then `Chooser::all_once`): calico-node's first-found,
//! `interface=PREFIX.*` for each family of interface names that carries a
//! global address, `cidr=` for each global subnet, `can-reach=` the
//! default gateway, kubernetes-internal-ip when the InternalIP is known;
//! every other program with no flags (flannel, k3s's embedded flannel,
//! Cilium and Ansible per family; kubelet, kubeadm, kube-apiserver, k3s,
//! etcd, Swarm, Consul and Nomad once, in the family they choose).
//! [`agreement`] groups the programs by the IP they end up with, as values.

use std::net::IpAddr;

use super::family::Family;
use super::go;
use super::method::{self, MethodSpec};
use super::program::Program;
use super::verdict::Detection;
use crate::model::Model;

/// The methods tried for `families` (both unless `--family` says one),
/// each program's as its chooser says (`all_in_family` in each family
/// that has a global address, then `all_once`), in the registry's order;
/// `spec` is `--method`'s (calico-node keeps its settings).
pub fn methods(model: &Model, spec: &MethodSpec, families: &[Family]) -> Vec<MethodSpec> {
    let mut out = Vec::new();
    for &fam in families {
        let global = model
            .addresses(Some(fam.af()))
            .into_iter()
            .any(|a| go::is_global_unicast(a.address));
        if global {
            method::all_in_family(model, spec, fam, &mut out);
        }
    }
    method::all_once(families, &mut out);
    out
}

/// Programs of an `--all` run that end up with one IP (`None`: nothing):
/// the rows (indices into the run) of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The IP they end up with (`None`: nothing).
    pub ip: Option<IpAddr>,
    /// Their rows, in the run's order.
    pub rows: Vec<usize>,
}

/// The programs of an `--all` run grouped by the IP each ends up with,
/// largest group first (ties: the first program's order). Each program
/// once, with its default settings: calico-node's first row (its
/// `first-found`: [`methods`] lists it first), and for the programs run
/// per family the first family's run; Cilium's NodePort and masquerade
/// addresses are not node IPs and are left out.
pub fn agreement(rows: &[Detection]) -> Vec<Group> {
    let mut seen: Vec<Program> = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    for (i, d) in rows.iter().enumerate() {
        let program = d.program();
        if !program.picks_node_ip() || seen.contains(&program) {
            continue;
        }
        seen.push(program);
        let ip = d.ip();
        match groups.iter_mut().find(|g| g.ip == ip) {
            Some(g) => g.rows.push(i),
            None => groups.push(Group { ip, rows: vec![i] }),
        }
    }
    // Stable: equal sizes keep the order of their first program.
    groups.sort_by_key(|g| std::cmp::Reverse(g.rows.len()));
    groups
}

/// Every method of [`methods`], replayed.
pub fn run(model: &Model, spec: &MethodSpec, families: &[Family]) -> Vec<Detection> {
    methods(model, spec, families).iter().map(|m| m.detect(model)).collect()
}
