//! kubelet's words: its `semantics:` line, its notes (its steps), why a
//! resolver answer was kept or passed over, and its failures (its own
//! messages are kept by the replay as it writes them).
//!
//! Contract: `Display` only; the replay ([`crate::replay::kubelet`])
//! hands out values.

use std::fmt;

use super::reason::joined;
use crate::replay::kubelet::{Failure, NodeIpInvalid, Note, Reason};

/// The `semantics:` line.
impl fmt::Display for crate::replay::kubelet::Kubelet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "kubelet NodeAddress: 1 --node-ip, 2 hostname that is an IP, 3 node name's resolver answers, \
             4 default-route interface (ChooseHostInterface / ResolveBindAddress)",
        )
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::DualStack(ips) => write!(f, "dual-stack: InternalIPs {}", joined(ips, ", ")),
            Note::HostnameIsIp => f.write_str("step 2: the hostname is an IP literal (not validated)"),
            Note::ResolvedLocal => f.write_str("step 3: the node name resolved to a valid local address"),
            Note::ResolvedOtherFamily => {
                f.write_str("step 3: no valid answer of the preferred family; the first valid one of the other")
            }
            Note::NameSorted {
                name,
                hosts,
                found,
                order,
                steps,
            } => {
                write!(
                    f,
                    "step 3: {name} in {hosts}: {}; glibc's getaddrinfo sorts them {}",
                    joined(found, ", "),
                    joined(order, ", ")
                )?;
                let swapped: Vec<String> = steps.iter().filter(|s| s.swapped).map(ToString::to_string).collect();
                if !swapped.is_empty() {
                    write!(f, " ({})", swapped.join("; "))?;
                }
                Ok(())
            }
            Note::ResolvedNothing => f.write_str("step 3: the node name resolved to nothing"),
            Note::ResolvedUnknown => f.write_str(
                "step 3: what the node name resolves to is unknown (give --resolved or --hosts): replayed as nothing",
            ),
            Note::NoValidAnswer => f.write_str("step 3: no resolver answer passed validateNodeIP"),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Rejected(why) => write!(f, "rejected by validateNodeIP: {why}"),
            Reason::ResolverAnswer { position } => {
                write!(
                    f,
                    "resolver answer #{position}: first valid one of the preferred family"
                )
            }
            Reason::EarlierAnswer => f.write_str("an earlier answer won"),
            Reason::NotPreferredFamily => f.write_str("valid, but not of the preferred family"),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::NoRoutes => {
                f.write_str("step 4 needs the default route, but the capture holds no routes: record a route dump too")
            }
            Failure::InvalidNodeIp { ip, why } => write!(f, "--node-ip {ip} is invalid: {why}"),
        }
    }
}

/// kubelet's `validateNodeIP` words its own refusals: the kind of address,
/// or that the host does not hold it.
impl fmt::Display for NodeIpInvalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeIpInvalid::Loopback => f.write_str("loopback"),
            NodeIpInvalid::Multicast => f.write_str("multicast"),
            NodeIpInvalid::Unspecified => f.write_str("unspecified"),
            NodeIpInvalid::LinkLocal => f.write_str("link-local"),
            NodeIpInvalid::NotOnHost(ip) => write!(f, "node IP {ip} not found in the host's network interfaces"),
        }
    }
}
