//! kubeadm's words (`SetAPIEndpointDynamicDefaults`): its `semantics:`
//! line, its notes, reasons and failure (its own messages are kept by the
//! replay as it writes them).
//!
//! Contract: `Display` only; the replay ([`crate::replay::kubeadm`]) hands
//! out values.

use std::fmt;

use crate::replay::kubeadm::{Failure, Note, Reason};

/// The `semantics:` line.
impl fmt::Display for crate::replay::kubeadm::Kubeadm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "kubeadm SetAPIEndpointDynamicDefaults: a specific --apiserver-advertise-address as given; \
             a loopback one: a global address on lo; else the default-route interface (ResolveBindAddress), \
             0.0.0.0 without default routes",
        )
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::AdvertiseGiven => f.write_str("--apiserver-advertise-address given: no detection"),
            Note::AdvertiseNotOnHost { ip } => write!(f, "{ip} is on none of the host's interfaces"),
            Note::AdvertiseLoopback => {
                f.write_str("a loopback --apiserver-advertise-address selects a global address on lo")
            }
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Loopback => f.write_str("the loopback interface"),
            Reason::FirstGlobalIpv4First => f.write_str("first global unicast address, IPv4 first"),
            Reason::LoopbackDown => f.write_str("lo is down"),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Unspecified { warning } => {
                write!(f, "{warning} (which kubeadm then refuses as an advertise address)")
            }
        }
    }
}
