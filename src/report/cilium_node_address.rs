//! Cilium's words for its NodePort and masquerade addresses
//! (`node_address.go`): their `semantics:` line, why a device or address
//! won or lost, and their failure.
//!
//! Contract: `Display` only; the replay
//! ([`crate::replay::cilium_node_address`]) hands out values.

use std::fmt;

use crate::replay::cilium_node_address::{Failure, Reason};

/// The `semantics:` line: NodePort's, or the masquerade address's.
pub(crate) fn semantics(f: &mut fmt::Formatter<'_>, masquerade: bool) -> fmt::Result {
    write!(
        f,
        "cilium node_address.go: the addresses of the selected devices, primary before secondary, \
         lower scope first, public before private, then by address; {}",
        if masquerade {
            "masquerade: the first public one, else the first private one"
        } else {
            "NodePort: the first private one, else the first public one"
        }
    )
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::CiliumSelected => f.write_str("selected device"),
            Reason::CiliumNotSelected => f.write_str(
                "not selected (down, a port, a bridge, lo/lxc/cni/docker/cilium_ name, or no route with a global destination)",
            ),
            Reason::CiliumNotNodeAddress => f.write_str("not a node address (scope above link, or loopback)"),
            Reason::CiliumFallbackFor(devices) => write!(
                f,
                "not a node address (scope above link, or loopback), but Cilium's fallback, masqueraded with on {}",
                devices.join(", ")
            ),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::NoNodeAddress => f.write_str("no node address of the family: no selected device has one"),
        }
    }
}

impl fmt::Display for crate::replay::cilium_node_address::note::Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            crate::replay::cilium_node_address::note::Note::MasqueradeFallback {
                device,
                address,
                from,
                not_a_node_address,
            } => {
                write!(
                    f,
                    "{device} has no IPv{} node address of its own: Cilium masquerades with its fallback, {address} \
                     (on {from}), the best non-secondary address of any device (fallbackAddresses: selected devices \
                     first, then public, lower scope, lower ifindex)",
                    if address.is_ipv6() { 6 } else { 4 }
                )?;
                if *not_a_node_address {
                    f.write_str(
                        "; the fallback does not leave out loopback or host-scope addresses as the node-address \
                         filter does, so an address the candidate list marks \"not a node address\" can be it",
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for crate::replay::cilium_node_address::note::Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        semantics(f, self.masquerade)
    }
}
