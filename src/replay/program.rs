//! The registry of replayed programs: [`Program`] is the identity of a
//! node-IP chooser everywhere (a detection's [`program`](super::verdict::Detection::program),
//! `--all`'s agreement, conflicts, failures and notes that name a
//! program).
//!
//! Contract: a leaf. Adding a program adds its variant here, its arm in
//! [`Program::ALL`]'s order and [`Program::name`], its replay module, its
//! [`super::semantics::Semantics`] variant and its wording; nothing tells
//! programs apart by a string. The name is the program as `--method` and
//! the manifests spell it (calico-node's methods are spelt by their
//! `IP_AUTODETECTION_METHOD` value instead).

/// A program nlorder replays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Program {
    /// calico-node's `IP_AUTODETECTION_METHOD`.
    CalicoNode,
    /// kubelet's node IP.
    Kubelet,
    /// flannel's public IP.
    Flannel,
    /// kubeadm's API server advertise address.
    Kubeadm,
    /// k3s's (RKE2's) node IPs.
    K3s,
    /// k3s's embedded flannel's public IP.
    K3sFlannel,
    /// Cilium's node-IP fallback.
    Cilium,
    /// Cilium's NodePort addresses.
    CiliumNodePort,
    /// Cilium's masquerade addresses.
    CiliumMasquerade,
    /// etcd's default host.
    Etcd,
    /// Docker Swarm's advertise address.
    Swarm,
    /// Consul's default bind address.
    Consul,
    /// Nomad's default advertise address.
    Nomad,
}

impl Program {
    /// Every program, in the order `--all` lists them.
    pub const ALL: [Program; 13] = [
        Program::CalicoNode,
        Program::Kubelet,
        Program::Flannel,
        Program::Kubeadm,
        Program::K3s,
        Program::K3sFlannel,
        Program::Cilium,
        Program::CiliumNodePort,
        Program::CiliumMasquerade,
        Program::Etcd,
        Program::Swarm,
        Program::Consul,
        Program::Nomad,
    ];

    /// The program as the command line spells it (`calico-node`, `kubelet`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Program::CalicoNode => "calico-node",
            Program::Kubelet => "kubelet",
            Program::Flannel => "flannel",
            Program::Kubeadm => "kubeadm",
            Program::K3s => "k3s",
            Program::K3sFlannel => "k3s-flannel",
            Program::Cilium => "cilium",
            Program::CiliumNodePort => "cilium-nodeport",
            Program::CiliumMasquerade => "cilium-masquerade",
            Program::Etcd => "etcd",
            Program::Swarm => "swarm",
            Program::Consul => "consul",
            Program::Nomad => "nomad",
        }
    }

    /// The program `--method NAME` names, if it names one besides
    /// calico-node (whose methods are its `IP_AUTODETECTION_METHOD`
    /// values).
    pub fn by_name(name: &str) -> Option<Program> {
        Program::ALL
            .into_iter()
            .filter(|p| *p != Program::CalicoNode)
            .find(|p| p.name() == name)
    }

    /// Whether what it picks is the node's IP (Cilium's NodePort and
    /// masquerade addresses are not).
    pub fn picks_node_ip(self) -> bool {
        !matches!(self, Program::CiliumNodePort | Program::CiliumMasquerade)
    }

    /// Whether it notices another node with its address: calico-node's
    /// `checkConflictingNodes` (it logs and terminates); the others check
    /// nothing of the kind.
    pub fn checks_conflicts(self) -> bool {
        self == Program::CalicoNode
    }
}
