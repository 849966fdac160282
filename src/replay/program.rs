//! The programs nlorder replays: [`Program`], the identity of a node-IP
//! chooser everywhere (a detection's
//! [`program`](super::verdict::Detection::program), `--all`'s agreement,
//! conflicts, failures and notes that name a program), its order
//! ([`Program::ALL`], `--all`'s), its name and [`Program::by_name`]; each
//! program's replay is its line of the registry
//! ([`super::registry`], `Program::replay`). [`Method`] is `--method` (or a
//! manifest's `method`) parsed once: a program, or calico-node's
//! `IP_AUTODETECTION_METHOD` ([`MethodText`], which calico's replay parses
//! per release). [`Empty`] is the type a program's vocabulary uses for a
//! kind of words it has none of (here so that the vocabularies, which
//! name it, and the common enums, which name them, do not depend on each
//! other).
//!
//! Contract: depends only on [`MethodText`] (a leaf), so the programs may
//! name [`Program`] without a cycle (the registry, which names them all,
//! is apart). Adding a program: see `replay/mod.rs` for every file it
//! touches. The name is the program as `--method` and the manifests spell
//! it (calico-node's methods are spelt by their `IP_AUTODETECTION_METHOD`
//! value instead).

use std::convert::Infallible;
use std::fmt;
use std::marker::PhantomData;

use super::calico::text::MethodText;

/// A program nlorder replays (its replay: the chooser of `replay::<module>`,
/// the registry's line for it, `Program::replay`), in the order `--all`
/// lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Program {
    /// `calico-node` (`replay::calico::CalicoNode`).
    CalicoNode,
    /// `kubelet` (`replay::kubelet::Kubelet`).
    Kubelet,
    /// `flannel` (`replay::flannel::Flannel`).
    Flannel,
    /// `kubeadm` (`replay::kubeadm::Kubeadm`).
    Kubeadm,
    /// `kube-apiserver` (`replay::kube_apiserver::KubeApiserver`).
    KubeApiserver,
    /// `k3s` (`replay::k3s::K3s`).
    K3s,
    /// `k3s-flannel` (`replay::flannel::K3sFlannel`).
    K3sFlannel,
    /// `cilium` (`replay::cilium::Cilium`).
    Cilium,
    /// `cilium-nodeport` (`replay::cilium_node_address::CiliumNodePort`).
    CiliumNodePort,
    /// `cilium-masquerade` (`replay::cilium_node_address::CiliumMasquerade`).
    CiliumMasquerade,
    /// `etcd` (`replay::etcd::Etcd`).
    Etcd,
    /// `swarm` (`replay::swarm::Swarm`).
    Swarm,
    /// `consul` (`replay::consul::Consul`).
    Consul,
    /// `nomad` (`replay::nomad::Nomad`).
    Nomad,
    /// `ansible` (`replay::ansible::Ansible`).
    Ansible,
    /// `antrea` (`replay::antrea::Antrea`).
    Antrea,
}

impl Program {
    /// Every program, in the order `--all` lists them (the variants' order).
    pub const ALL: &'static [Program] = &[
        Program::CalicoNode,
        Program::Kubelet,
        Program::Flannel,
        Program::Kubeadm,
        Program::KubeApiserver,
        Program::K3s,
        Program::K3sFlannel,
        Program::Cilium,
        Program::CiliumNodePort,
        Program::CiliumMasquerade,
        Program::Etcd,
        Program::Swarm,
        Program::Consul,
        Program::Nomad,
        Program::Ansible,
        Program::Antrea,
    ];

    /// The program as the command line and the manifests spell it
    /// (`calico-node`, `kubelet`, ...: `--method`'s names).
    pub const fn name(self) -> &'static str {
        match self {
            Program::CalicoNode => "calico-node",
            Program::Kubelet => "kubelet",
            Program::Flannel => "flannel",
            Program::Kubeadm => "kubeadm",
            Program::KubeApiserver => "kube-apiserver",
            Program::K3s => "k3s",
            Program::K3sFlannel => "k3s-flannel",
            Program::Cilium => "cilium",
            Program::CiliumNodePort => "cilium-nodeport",
            Program::CiliumMasquerade => "cilium-masquerade",
            Program::Etcd => "etcd",
            Program::Swarm => "swarm",
            Program::Consul => "consul",
            Program::Nomad => "nomad",
            Program::Ansible => "ansible",
            Program::Antrea => "antrea",
        }
    }
}

impl Program {
    /// The program `--method NAME` names, if it names one besides
    /// calico-node (whose methods are its `IP_AUTODETECTION_METHOD`
    /// values).
    pub fn by_name(name: &str) -> Option<Program> {
        Program::ALL
            .iter()
            .copied()
            .filter(|p| *p != Program::CalicoNode)
            .find(|p| p.name() == name)
    }
}

/// A detection method, parsed once from `--method` or a manifest's
/// `method`: the name of a program that picks a node IP, or else a
/// calico-node `IP_AUTODETECTION_METHOD` value (calico-node's default
/// program; what calico-node itself rejects, it rejects in the replay).
/// The programs are listed once, by [`Program`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// calico-node, with the `IP_AUTODETECTION_METHOD` value as written
    /// (parsed by [`super::calico::method::Method::parse`] for the release replayed).
    Calico(MethodText),
    /// Any other program, by its name (never [`Program::CalicoNode`],
    /// whose methods are [`Method::Calico`]).
    Program(Program),
}

impl Method {
    /// The program whose settings these are.
    pub fn program(&self) -> Program {
        match self {
            Method::Calico(_) => Program::CalicoNode,
            Method::Program(p) => *p,
        }
    }

    /// The calico-node method, if it is one.
    pub fn calico(&self) -> Option<&MethodText> {
        match self {
            Method::Calico(text) => Some(text),
            Method::Program(_) => None,
        }
    }
}

impl From<Program> for Method {
    /// A program's method; calico-node's is its default, `first-found`.
    fn from(p: Program) -> Method {
        match p {
            Program::CalicoNode => Method::default(),
            p => Method::Program(p),
        }
    }
}

impl From<MethodText> for Method {
    fn from(text: MethodText) -> Method {
        Method::Calico(text)
    }
}

impl Default for Method {
    fn default() -> Self {
        Method::Calico(MethodText::default())
    }
}

impl From<&str> for Method {
    fn from(s: &str) -> Method {
        match Program::by_name(s) {
            Some(p) => Method::Program(p),
            None => Method::Calico(MethodText::new(s)),
        }
    }
}

impl Method {
    /// A calico-node method that is no `IP_AUTODETECTION_METHOD` form at
    /// all (no `=`, not `first-found` or `kubernetes-internal-ip`) but is
    /// within one edit in four letters of a program's name (two letters
    /// swapped count as one edit): most likely
    /// that program, misspelt.
    pub fn misspelt_program(&self) -> Option<Program> {
        let Method::Calico(text) = self else { return None };
        let t = text.as_str();
        if t.contains('=') || t.is_empty() || t == "first-found" || text.is_kubernetes_internal_ip() {
            return None;
        }
        Program::ALL
            .iter()
            .copied()
            .filter(|p| *p != Program::CalicoNode)
            // (`eth1` is an interface name, two edits from etcd, and
            // calico-node's to reject)
            .filter_map(|p| slip(t, p.name()).filter(|d| *d > 0).map(|d| (d, p)))
            .min_by_key(|(d, _)| *d)
            .map(|(_, p)| p)
    }
}

impl std::str::FromStr for Method {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Method::from(s))
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Method::Calico(text) => text.fmt(f),
            Method::Program(p) => f.write_str(p.name()),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Method {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Method::from(String::deserialize(d)?.as_str()))
    }
}

/// JSON spells a method as the command line does.
impl serde::Serialize for Method {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A vocabulary's enum where the program has none of its own (failures,
/// reasons): a type with no values. `S` is the program's `Semantics`, so
/// that each program's is a type of its own and nests as its own variant
/// (nested all the same, so that every program's vocabulary has the same
/// enums).
pub struct Empty<S>(Infallible, PhantomData<S>);

impl<S> Empty<S> {
    /// There is no value to have: whatever a caller wants of one.
    pub fn absurd<T>(&self) -> T {
        match self.0 {}
    }
}

impl<S> fmt::Debug for Empty<S> {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.absurd()
    }
}

impl<S> Clone for Empty<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Empty<S> {}

impl<S> PartialEq for Empty<S> {
    fn eq(&self, _: &Self) -> bool {
        self.absurd()
    }
}

impl<S> Eq for Empty<S> {}

/// The one rule for "did you mean": how far a name the user typed is from
/// a name nlorder knows (a program's, a calico-node method's); the words
/// around a suggestion are the report's.
///
/// The edits from `typed` to `known` (optimal string alignment: two letters
/// swapped count as one edit) when there is at most one in four letters of
/// `known`, 0 when they are the same; `None` when they are further apart
/// (`eth1` is two edits from `etcd`: an interface name, not a slip).
pub(crate) fn slip(typed: &str, known: &str) -> Option<usize> {
    let d = strsim::osa_distance(typed, known);
    (d * 4 <= known.len()).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::slip;

    #[test]
    fn one_edit_in_four_letters() {
        assert_eq!(slip("first-fund", "first-found"), Some(1));
        assert_eq!(slip("frist-found", "first-found"), Some(1));
        assert_eq!(slip("first-found", "first-found"), Some(0));
        assert_eq!(slip("eth1", "etcd"), None);
        assert_eq!(slip("kubelte", "kubelet"), Some(1));
        assert_eq!(slip("nomda", "nomad"), Some(1));
        assert_eq!(slip("nmoad", "nomad"), Some(1));
        assert_eq!(slip("nmda", "nomad"), None);
    }
}
