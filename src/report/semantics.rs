//! What a detection replayed, in words: `detect`'s `semantics:` line and
//! JSON's `semantics`, and the warning for a calico-node release later
//! than any nlorder knows.
//!
//! Contract: `Display` only, one line per value; the replays hand out
//! [`Semantics`], never these words.

use std::fmt;

use crate::replay::calico_version::Version;
use crate::replay::semantics::{CalicoWalk, Semantics};

impl fmt::Display for Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Semantics::CalicoNode { asked, walk } => {
                let replayed = asked.replayed();
                write!(f, "calico-node {replayed}")?;
                if replayed != *asked {
                    write!(f, " ({asked} asked: newer than any release nlorder knows)")?;
                }
                match walk {
                    Some(walk) => write!(f, ": {walk}"),
                    None => Ok(()),
                }
            }
            Semantics::Kubelet => f.write_str(
                "kubelet NodeAddress: 1 --node-ip, 2 hostname that is an IP, 3 node name's resolver answers, \
                 4 default-route interface (ChooseHostInterface / ResolveBindAddress)",
            ),
            Semantics::Flannel => f.write_str(
                "flannel v0.28+: --iface (names or IPs) in order, then --iface-regex (addresses, then names), then \
                 --iface-can-reach; else the default-route interface; addresses sorted \
                 global/permanent/non-temporary first",
            ),
            Semantics::Kubeadm => f.write_str(
                "kubeadm SetAPIEndpointDynamicDefaults: a specific --apiserver-advertise-address as given; \
                 a loopback one: a global address on lo; else the default-route interface (ResolveBindAddress), \
                 0.0.0.0 without default routes",
            ),
        }
    }
}

impl fmt::Display for CalicoWalk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ex = &self.default_excludes;
        let anchored = ex.iter().all(|p| p.starts_with('^'));
        write!(
            f,
            "interfaces walked in reverse kernel link order; default excludes ({} patterns, {}): {}",
            ex.len(),
            if anchored {
                "^-anchored"
            } else {
                "unanchored: substring matches"
            },
            ex.join(" ")
        )?;
        if self.without_default_excludes {
            f.write_str("; this method does not apply the default excludes")?;
        }
        if self.network_address_bug {
            f.write_str(
                "; kubernetes-internal-ip returns the masked network address (bug of v3.22.0-3.22.3 and \
                 v3.23.0-3.23.1)",
            )?;
        }
        if self.bulk_dump {
            f.write_str("; addresses from one bulk netlink dump (point-to-point IPv4 as /32)")?;
        }
        Ok(())
    }
}

/// For a calico-node release later than any nlorder knows, what that means
/// for its answers; `None` for one it knows.
pub fn newer_release(v: Version) -> Option<String> {
    v.is_unknown().then(|| {
        format!(
            "calico-node {v} is newer than any release nlorder knows; its answers are {}'s (the newest it knows)",
            Version::LATEST
        )
    })
}

serialize_as_words!(Semantics);
