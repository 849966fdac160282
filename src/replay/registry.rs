//! The registry: every program nlorder replays, one line each, in one
//! table ([`Program::replay`]): its [`Replay`], the unit type of its folder
//! implementing [`Chooser`](super::chooser::Chooser).
//!
//! Contract: the only place that names every program's chooser. Running a
//! method, `--all`, the options each program reads and what each says of
//! itself ([`super::method`], [`super::matrix`]) go through this table, so
//! calico-node is an entry like the others. [`Program`] (in
//! [`super::program`]) is the programs' identity, their order and their
//! names; the compiler holds this table to it (a program without a line
//! here does not build).

use super::chooser::{Asks, Replay};
use super::program::Program;

impl Program {
    /// Its replay: the registry's line for it.
    pub fn replay(self) -> &'static dyn Replay {
        match self {
            Program::CalicoNode => &super::calico::CalicoNode,
            Program::Kubelet => &super::kubelet::Kubelet,
            Program::Flannel => &super::flannel::Flannel,
            Program::Kubeadm => &super::kubeadm::Kubeadm,
            Program::KubeApiserver => &super::kube_apiserver::KubeApiserver,
            Program::K3s => &super::k3s::K3s,
            Program::K3sFlannel => &super::flannel::K3sFlannel,
            Program::Cilium => &super::cilium::Cilium,
            Program::CiliumNodePort => &super::cilium_node_address::CiliumNodePort {},
            Program::CiliumMasquerade => &super::cilium_node_address::CiliumMasquerade {},
            Program::Etcd => &super::etcd::Etcd,
            Program::Swarm => &super::swarm::Swarm,
            Program::Consul => &super::consul::Consul,
            Program::Nomad => &super::nomad::Nomad,
            Program::Ansible => &super::ansible::Ansible,
            Program::Antrea => &super::antrea::Antrea,
        }
    }

    /// What it chooses, in a few words (its chooser's doc).
    pub fn doc(self) -> &'static str {
        self.replay().doc()
    }

    /// Whether what it picks is the node's IP (Cilium's NodePort and
    /// masquerade addresses are not).
    pub fn picks_node_ip(self) -> bool {
        self.replay().picks_node_ip()
    }

    /// Whether it notices another node with its address: calico-node's
    /// `checkConflictingNodes` (it logs and terminates); the others check
    /// nothing of the kind.
    pub fn checks_conflicts(self) -> bool {
        self.replay().checks_conflicts()
    }

    /// How it asks the kernel for the tables (what `--at auto` looks for).
    pub fn asks(self) -> Asks {
        self.replay().asks()
    }

    /// The options it reads (their manifest keys), from its chooser: the
    /// registry of options.
    pub fn options(self) -> &'static [&'static str] {
        self.replay().options_read()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each line replays the program it is the line of, and `--all`'s
    /// order is the variants' order.
    #[test]
    fn every_program_has_its_own_line() {
        for (i, p) in Program::ALL.iter().enumerate() {
            assert_eq!(p.replay().program(), *p, "{}", p.name());
            assert_eq!(*p as usize, i, "{}: --all's order is the variants'", p.name());
        }
    }
}
