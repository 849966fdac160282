//! Docker Swarm's words (`resolveSystemAddr`): its `semantics:` line, its
//! notes and reasons (its own messages are kept by the replay as it
//! writes them).
//!
//! Contract: `Display` only; the replay ([`crate::replay::swarm`]) hands
//! out values.

use std::fmt;

use super::reason::joined;
use crate::replay::swarm::{Note, Reason};

/// The `semantics:` line.
impl fmt::Display for crate::replay::swarm::Swarm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "docker swarm resolveSystemAddr: up links without a kind (\"device\"); exactly one global \
             address per family on exactly one link, IPv4 preferred; else the subnet check over all up \
             non-loopback interfaces",
        )
    }
}

/// The items joined by commas, or `none`.
fn listed<T: fmt::Display>(items: &[T]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        joined(items, ", ")
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::SwarmNoDevice { devices } => write!(
                f,
                "no global address on an up device ({}): the subnet check over every up interface",
                listed(devices)
            ),
            Note::DockerSubnetsAssumed { subnets } => write!(
                f,
                "assumed: Docker's networks are {} (docker0, docker_gwbridge and br-* bridges; the daemon's own list is not in the capture)",
                listed(subnets)
            ),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NotADevice => f.write_str("not of type \"device\" (it has a link kind)"),
            Reason::NoGlobalAddress => f.write_str("no global unicast address"),
            Reason::OnlyGlobalAddress => f.write_str("its only global unicast address"),
            Reason::SeveralOfFamily(family) => write!(f, "several global IPv{family} addresses"),
            Reason::Ipv4Preferred => f.write_str("IPv4 preferred on a link with both"),
            Reason::DockerSubnet { net } => write!(f, "inside Docker's network {net}: the interface is skipped"),
            Reason::HoldsDockerSubnet => f.write_str("holds an address in one of Docker's networks"),
        }
    }
}
