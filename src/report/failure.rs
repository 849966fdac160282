//! Why a replay chose nothing, in words: what `detect` prints after
//! `-> nothing:`, what `check` shows under a failed expectation, and
//! JSON's `error`. Here: the failures several programs share, and the
//! dispatch of each program's own to its wording file, with
//! one arm per vocabulary (calico-node's log
//! lines, refusals and autodetection failures are `report::calico`'s; a
//! program's words for a capture without routes are its own file's
//! `NO_ROUTES`, looked up in a table here).
//!
//! Contract: `Display` only, one line per value; a program's own message
//! is printed as it is, with nlorder's comment after it where there is
//! one; the sentences naming nlorder's own flags live here, never in the
//! replays.

use std::fmt;

use crate::replay::failure::Failure;
use crate::replay::note::Program;

/// A program's own failures (or reasons) where it has none: no words.
impl<S> fmt::Display for crate::replay::program::Empty<S> {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.absurd()
    }
}

/// The programs that say in words of their own (their wording file's
/// `NO_ROUTES`) that the capture holds no routes; the others get the common
/// sentence.
const NO_ROUTES: &[(Program, &str)] = &[
    (Program::Kubelet, super::kubelet::NO_ROUTES),
    (Program::Kubeadm, super::kubeadm::NO_ROUTES),
    (Program::Flannel, super::flannel::NO_ROUTES),
    (Program::K3s, super::k3s::NO_ROUTES),
    (Program::Etcd, super::etcd::NO_ROUTES),
    (Program::Ansible, super::ansible::NO_ROUTES),
];

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
                     Failure::CalicoNode(e) => e.fmt(f),
Failure::KubeApiserver(e) => e.fmt(f),
Failure::Kubelet(e) => e.fmt(f),
Failure::Flannel(e) => e.fmt(f),
Failure::Cilium(e) => e.fmt(f),
Failure::CiliumNodeAddress(e) => e.fmt(f),
Failure::K3s(e) => e.fmt(f),
Failure::Kubeadm(e) => e.fmt(f),
Failure::Etcd(e) => e.fmt(f),
Failure::Swarm(e) => e.fmt(f),
Failure::Consul(e) => e.fmt(f),
Failure::Nomad(e) => e.fmt(f),
Failure::Ansible(e) => e.fmt(f),
Failure::Antrea(e) => e.fmt(f),
                    Failure::Said(message) => f.write_str(message),
                    Failure::UnknownYet { kind, request_packet } => write!(
                        f,
                        "unknown yet: the {} dump asked for in packet {request_packet} is answered after this moment",
                        match kind {
                            crate::model::ObjectKind::Links => "link",
                            crate::model::ObjectKind::Addresses => "address",
                            crate::model::ObjectKind::Routes => "route",
                        }
                    ),
                    Failure::NoAddressesCaptured => f.write_str(
                        "the capture cannot answer this: no message in it shows the host's addresses (record an address dump too)",
                    ),
                    Failure::CannotKnow(unshown) => write!(
                        f,
                        "the capture cannot tell: {}",
                        super::assumption::unshown_list(unshown)
                    ),
                    Failure::NoRoutesCaptured(program) => match NO_ROUTES.iter().find(|(p, _)| p == program) {
                        Some((_, words)) => f.write_str(words),
                        None => write!(
                            f,
                            "{program} reads the default routes, but the capture holds no routes: record a route dump too"
                        ),
                    },
                }
    }
}

serialize_as_words!(Failure);
