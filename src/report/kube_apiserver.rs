//! kube-apiserver's words: its `semantics:` line and its own notes (its
//! failures are its own messages, kept by the replay as it writes them).
//!
//! Contract: `Display` only; the replay ([`crate::replay::kube_apiserver`])
//! hands out values.

use std::fmt;

use crate::replay::kube_apiserver::note::Note;

/// The `semantics:` line.
impl fmt::Display for crate::replay::kube_apiserver::KubeApiserver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "kube-apiserver DefaultAdvertiseAddress: a specific --advertise-address as given; else a specific \
             --bind-address as given; else (0.0.0.0, ::, loopback) the default-route interface (ResolveBindAddress), \
             IPv6 first for an IPv6 --bind-address",
        )
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::AdvertiseGiven => f.write_str("--advertise-address given: no detection"),
            Note::BindAddressUsed => {
                f.write_str("--bind-address is neither unspecified nor loopback: it is advertised as given")
            }
            Note::NotOnHost { ip } => write!(f, "{ip} is on none of the host's interfaces"),
        }
    }
}
