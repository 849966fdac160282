//! k3s's words (`GetHostnameAndIPs`): its `semantics:` line, its notes and
//! reasons (its own messages are kept by the replay as it writes them;
//! its embedded flannel's words are `report::flannel`'s).
//!
//! Contract: `Display` only; the replay ([`crate::replay::k3s`]) hands out
//! values.

use std::fmt;

use crate::replay::k3s::{Note, Reason};

/// The `semantics:` line.
impl fmt::Display for crate::replay::k3s::K3s {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "k3s GetHostnameAndIPs: --node-ip as given; else --flannel-iface's addresses (one IPv4, plus the \
             first IPv6); else the default-route interface (ChooseHostInterface), plus the IPv6 one \
             (ResolveBindAddress(::1)) when it differs",
        )
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::SecondNodeIp { ip, interface } => write!(
                f,
                "second node IP {ip} on {interface}: the walk again, IPv6 first (ResolveBindAddress(::1))"
            ),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NamedInterface => f.write_str("the interface named"),
        }
    }
}
