//! The registry: every program nlorder replays, one line each, in one
//! table (`programs!` below): its settings' field and the unit type of its
//! folder implementing [`Chooser`] (its [`Replay`]). The lines give
//! [`Program::ALL`], `--all`'s order, and [`ProgramSettings`], every
//! program's settings.
//!
//! Contract: the only place that names every program. Running a method,
//! `--all`, the options each program reads and what each says of itself
//! ([`super::method`], [`super::matrix`]) go through [`Program::ALL`], so
//! calico-node is an entry like the others; a program's words are its
//! vocabulary's (`Note::Own`, ...), so no other list of programs exists.
//! Adding a program: its folder `replay/<program>/`, its wording file
//! `report/<program>.rs` (each with its `mod` line) and its line here.

use super::chooser::{Asks, Chooser, Replay};
use super::program::Program;

/// The table. Generated because clap and the manifests need it: the
/// command line's flags are every program's settings struct flattened
/// into one struct (`#[command(flatten)]` on a field per program), and a
/// manifest key is read into its program's field by that field's type
/// (serde's `MapAccess` is generic, so it cannot go through a trait
/// object); a struct's fields cannot come from a table at run time. The
/// same lines give [`Program::ALL`], a plain table of the programs.
macro_rules! programs {
    ($( $field:ident : $module:ident :: $ty:ident, )*) => {
        impl Program {
            /// Every program, in the order `--all` lists them: the one
            /// table.
            pub const ALL: &'static [Program] = &[$( <super::$module::$ty as Chooser>::PROGRAM, )*];
        }

        /// Each program's replay, in [`Program::ALL`]'s order.
        const REPLAYS: &[&dyn Replay] = &[$( &super::$module::$ty {}, )*];

        /// Every program's settings as given, one field per program (its
        /// chooser's `Settings`): the manifests' keys, and with the `clap`
        /// feature the command line's flags, in the registry's order.
        #[derive(Debug, Clone, Default, PartialEq)]
        #[cfg_attr(feature = "clap", derive(clap::Args))]
        pub struct ProgramSettings {
            $(
                #[doc = concat!("`", stringify!($module), "::", stringify!($ty), "`'s.")]
                #[cfg_attr(feature = "clap", command(flatten))]
                pub $field: <super::$module::$ty as Chooser>::Settings,
            )*
        }

        impl super::chooser::AllSettings for ProgramSettings {
            fn of(&self, program: Program) -> Option<&dyn std::any::Any> {
                $( if program == <super::$module::$ty as Chooser>::PROGRAM {
                    return Some(&self.$field);
                } )*
                None
            }
        }

        impl ProgramSettings {
            /// The keys of every program's settings (manifest keys).
            pub fn keys() -> Vec<&'static str> {
                let mut keys: Vec<&'static str> = Vec::new();
                $( keys.extend(<<super::$module::$ty as Chooser>::Settings as super::options::Keys>::KEYS); )*
                keys
            }

            /// Every program's settings given a value other than its
            /// default (their manifest keys).
            pub fn given(&self) -> Vec<&'static str> {
                let mut given = Vec::new();
                $( given.extend(self.$field.given()); )*
                given
            }

            /// Reads one program's key of a manifest; false when no program has it.
            pub fn set<'de, A: serde::de::MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
                $( if self.$field.set(key, map)? {
                    return Ok(true);
                } )*
                Ok(false)
            }

            /// The keys of each program's own settings.
            #[cfg(test)]
            pub(super) fn own_keys(p: Program) -> &'static [&'static str] {
                $( if p == <super::$module::$ty as Chooser>::PROGRAM {
                    return <<super::$module::$ty as Chooser>::Settings as super::options::Keys>::KEYS;
                } )*
                &[]
            }
        }
    };
}

programs! {
    calico: calico::CalicoNode,
    kubelet: kubelet::Kubelet,
    flannel: flannel::Flannel,
    kubeadm: kubeadm::Kubeadm,
    kube_apiserver: kube_apiserver::KubeApiserver,
    k3s: k3s::K3s,
    k3s_flannel: flannel::K3sFlannel,
    cilium: cilium::Cilium,
    cilium_nodeport: cilium_node_address::CiliumNodePort,
    cilium_masquerade: cilium_node_address::CiliumMasquerade,
    etcd: etcd::Etcd,
    swarm: swarm::Swarm,
    consul: consul::Consul,
    nomad: nomad::Nomad,
    ansible: ansible::Ansible,
    antrea: antrea::Antrea,
}

/// Every program's replay, in `--all`'s order (what runs them all walks
/// these, not the programs and then each one's line).
pub(super) fn replays() -> &'static [&'static dyn Replay] {
    REPLAYS
}

impl Program {
    /// Its replay: its line of the table (calico-node's for a name no
    /// line has, which the table's test rules out).
    pub fn replay(self) -> &'static dyn Replay {
        REPLAYS
            .iter()
            .copied()
            .find(|r| r.program() == self)
            .unwrap_or(&super::calico::CalicoNode)
    }

    /// Its place in `--all`'s order (after every listed one if it is not
    /// listed, which the table's test rules out).
    fn place(self) -> usize {
        Program::ALL
            .iter()
            .position(|p| *p == self)
            .unwrap_or(Program::ALL.len())
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

impl PartialOrd for Program {
    fn partial_cmp(&self, other: &Program) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// `--all`'s order: the table's.
impl Ord for Program {
    fn cmp(&self, other: &Program) -> std::cmp::Ordering {
        (self.place(), self.name()).cmp(&(other.place(), other.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each line's program is its replay's, names are the programs' own
    /// (one each), and the order is the table's.
    #[test]
    fn every_program_has_its_own_line() {
        for (i, p) in Program::ALL.iter().enumerate() {
            assert_eq!(p.replay().program(), *p, "{}", p.name());
            assert_eq!(
                Program::ALL.iter().filter(|q| q.name() == p.name()).count(),
                1,
                "{}",
                p.name()
            );
            assert!(
                Program::ALL.iter().skip(i + 1).all(|q| p < q),
                "{}: --all's order is the table's",
                p.name()
            );
        }
    }
}
