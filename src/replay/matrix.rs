//! `detect --all`: every method, with sensible defaults derived from the
//! host itself, so one can see at once which component picks what.
//!
//! Contract: a pure function of the model; the methods tried are
//! first-found, `interface=PREFIX.*` for each family of interface names
//! that carries a global address, `cidr=` for each global subnet,
//! `can-reach=` the default gateway, kubernetes-internal-ip when the
//! InternalIP is known, and every other program with no flags (flannel,
//! k3s's embedded flannel and Cilium per family; kubelet, kubeadm, k3s,
//! etcd, Swarm, Consul and Nomad once, in the family they choose).
//! [`agreement`] groups the programs by the IP they end up with, as values.

use std::collections::BTreeSet;
use std::net::IpAddr;

use super::calico;
use super::family::Family;
use super::goview;
use super::method::MethodSpec;
use super::program::Program;
use super::verdict::Detection;
use super::{cilium, cilium_node_address, flannel, k3s, kubeadm, kubelet};
use crate::model::Model;
use crate::netlink::values::TableId;

/// `ens160` → `ens`, `eth0` → `eth`, `nerdctl0` → `nerdctl`.
fn name_family(name: &str) -> String {
    name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ':' || c == '-')
        .to_owned()
}

/// The methods tried for `families` (both unless `--family` says one):
/// those run per family in each; kubelet and kubeadm told to prefer IPv6
/// (`--node-ip ::`, `--apiserver-advertise-address ::`) when only IPv6 is
/// asked for.
pub fn methods(model: &Model, base: &calico::Options, families: &[Family]) -> Vec<MethodSpec> {
    let mut out = Vec::new();
    for &fam in families {
        let af = fam.af();
        let global: Vec<_> = model
            .addresses(Some(af))
            .into_iter()
            .filter(|a| goview::is_global_unicast(a.address))
            .collect();
        if global.is_empty() {
            continue;
        }
        let o = calico::Options {
            family: fam,
            ..base.clone()
        };
        let calico = |m: String| MethodSpec::Calico {
            method: calico::Method::parse(&m, o.version),
            text: m,
            options: o.clone(),
        };
        out.push(calico("first-found".into()));
        let prefixes: BTreeSet<String> = global
            .iter()
            .filter_map(|a| model.link(a.index))
            .filter(|l| l.has_name())
            .map(|l| name_family(&l.display_name()))
            .filter(|p| !p.is_empty())
            .collect();
        for p in prefixes {
            out.push(calico(format!("interface={}.*", regex::escape(&p))));
        }
        let nets: BTreeSet<String> = global
            .iter()
            .filter_map(|a| ipnet::IpNet::new(a.address, a.prefix_len).ok())
            .map(|n| n.trunc().to_string())
            .collect();
        for n in nets {
            out.push(calico(format!("cidr={n}")));
        }
        let gateways: BTreeSet<String> = model
            .routes()
            .into_iter()
            .filter(|r| r.family == af && r.table == TableId::Main && r.dst_len == 0)
            .filter_map(|r| r.gateway)
            .map(|g| g.to_string())
            .collect();
        for g in gateways {
            out.push(calico(format!("can-reach={g}")));
        }
        if base.node_internal_ips.iter().any(|i| Family::of(*i) == fam) {
            out.push(calico("kubernetes-internal-ip".into()));
        }
        out.push(MethodSpec::Flannel(flannel::Options {
            family: fam,
            ..flannel::Options::default()
        }));
        out.push(MethodSpec::K3sFlannel(flannel::Options {
            family: fam,
            ..flannel::Options::default()
        }));
        out.push(MethodSpec::Cilium(cilium::Options {
            family: fam,
            ..cilium::Options::default()
        }));
        for role in [
            cilium_node_address::Role::NodePort,
            cilium_node_address::Role::Masquerade,
        ] {
            out.push(MethodSpec::CiliumNodeAddress(cilium_node_address::Options {
                devices: Vec::new(),
                version: cilium::LATEST,
                family: fam,
                role,
            }));
        }
    }
    let v6_only = families == [Family::V6];
    let unspecified6 = IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED);
    out.push(MethodSpec::Kubelet(kubelet::Options {
        node_ip: if v6_only { vec![unspecified6] } else { Vec::new() },
        ..kubelet::Options::default()
    }));
    out.push(MethodSpec::Kubeadm(kubeadm::Options {
        advertise_address: v6_only.then_some(unspecified6),
    }));
    out.push(MethodSpec::K3s(k3s::Options::default()));
    out.push(MethodSpec::Etcd);
    out.push(MethodSpec::Swarm);
    out.push(MethodSpec::Consul);
    out.push(MethodSpec::Nomad);
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
pub fn run(model: &Model, base: &calico::Options, families: &[Family]) -> Vec<Detection> {
    methods(model, base, families).iter().map(|m| m.detect(model)).collect()
}
