//! A replay's notes in words: what `detect` prints as `note:` lines, and
//! JSON's `notes`.
//!
//! Contract: `Display` only, one sentence per note, with no line break;
//! the sentences that name nlorder's own flags live here, never in the
//! replays.

use std::fmt;

use super::failure::ip_var;
use crate::model::LinkOrder;
use crate::replay::family::Family;
use crate::replay::note::{Note, PeerCheck, Program};

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The step of the program's own logic a default-route note belongs to
/// (kubelet numbers them), with its separator.
fn step(by: Program) -> &'static str {
    match by {
        Program::Kubelet => "step 4: ",
        _ => "",
    }
}

fn other(family: Family) -> Family {
    match family {
        Family::V4 => Family::V6,
        Family::V6 => Family::V4,
    }
}

impl fmt::Display for PeerCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PeerCheck::Matches => f.write_str("matches the node address"),
            PeerCheck::Mismatch { node, interface } => {
                write!(f, "MISMATCH: the node address is {node}")?;
                if let Some(i) = interface {
                    write!(f, " ({i})")?;
                }
                f.write_str(", so the BGP session and the node IP sit on different NICs")
            }
            PeerCheck::NoNodeAddress => f.write_str("no node address to compare"),
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::IpNone { family } => write!(
                f,
                "{}=none: no autodetection; the node keeps its previous address (none on a new node)",
                ip_var(*family)
            ),
            Note::IpGiven { family, text } => write!(f, "{}={text}: used as given, no autodetection", ip_var(*family)),
            Note::IpNotConfirmed { family, ip } => write!(
                f,
                "Unable to confirm IPv{family} address {ip} is assigned to this host (calico-node only warns)"
            ),
            Note::Reaches {
                dst,
                source,
                route,
                why,
            } => {
                write!(f, "the kernel reaches {dst} from {source} via route `{route}` ({why})")
            }
            Note::NoInterfaceFor { ip } => write!(f, "Unable to find matching host interface for IP {ip}"),
            Note::NetworkAddress { version, network, cidr } => write!(
                f,
                "{version}: returns the network {network} instead of {cidr}; every node of that subnet claims the \
                 same address"
            ),
            Note::BgpPeer {
                peer,
                source,
                device,
                route,
                node,
            } => write!(
                f,
                "BGP peer {peer}: the kernel connects from {source} on {device} (route `{route}`): {node}"
            ),
            Note::BgpPeerUnreachable { peer, why } => {
                write!(f, "BGP peer {peer}: unreachable from the captured routes: {why}")
            }
            Note::BgpPeerOtherFamily { peer, family } => {
                let other = if family.number() == 4 { 6 } else { 4 };
                write!(
                    f,
                    "BGP peer {peer}: not checked, it is IPv{other} and this detects IPv{} (--family {other} checks it)",
                    family.number()
                )
            }
            Note::NodeIpGiven => f.write_str("step 1: --node-ip given, no detection"),
            Note::DefaultRouteInterface { by } => write!(f, "{}address of the default-route interface", step(*by)),
            Note::LoopbackFallback {
                by,
                interface,
                loopback,
            } => write!(
                f,
                "{}{interface} has no global address; loopback fallback to {loopback}",
                step(*by)
            ),
            Note::FellBack { by, wanted, had_route } => {
                match had_route {
                    false => write!(f, "no IPv{wanted} default route")?,
                    true => write!(f, "no IPv{wanted} default route leads to a global IPv{wanted} address")?,
                }
                write!(f, ": {by} falls back to IPv{}", other(*wanted))
            }
            Note::KubeApiserver(n) => n.fmt(f),
            Note::Kubelet(n) => n.fmt(f),
            Note::Flannel(n) => n.fmt(f),
            Note::Cilium(n) => n.fmt(f),
            Note::K3s(n) => n.fmt(f),
            Note::Kubeadm(n) => n.fmt(f),
            Note::Etcd(n) => n.fmt(f),
            Note::Swarm(n) => n.fmt(f),
            Note::Consul(n) => n.fmt(f),
            Note::Nomad(n) => n.fmt(f),
            Note::FlannelIface { name } => write!(f, "--flannel-iface {name}: the node IPs are its addresses"),
            Note::VxlanParent { interface } => write!(
                f,
                "felix's VXLAN parent device: {interface} (the first link holding the node IP)"
            ),
            Note::VxlanNoParent => f.write_str("no link holds the node IP: felix finds no VXLAN parent device"),
            Note::Redetects => f.write_str(
                "calico-node re-runs autodetection every 60 s: a running node's pick follows the changes \
                 (`detect --timeline` lists them, `watch` follows them live)",
            ),
            Note::AssumedLinkOrder(order) => write!(
                f,
                "assumed: the kernel's link order ({}); no link dump in the capture showed it, and the candidates \
                 above are examined in that order (give --kernel-order or --kernel if known)",
                match order {
                    LinkOrder::Ascending => "ascending ifindex, as kernels since 6.9 walk them",
                    LinkOrder::Buckets => "ifindex hash buckets, as kernels up to 6.8 walk them",
                }
            ),
            Note::AssumedPlaceholders(names) => write!(
                f,
                "assumed: {} known only from address messages (no RTM_NEWLINK in the capture): flags, state and \
                 type unknown, taken as usable",
                names.join(", ")
            ),
        }
    }
}

serialize_as_words!(Note);
