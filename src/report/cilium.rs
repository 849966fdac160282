//! Cilium's words for its node-IP fallback (`firstGlobalAddr`): its
//! `semantics:` line, its notes, why an address won or lost (its own
//! "No address found" is kept by the replay as it writes it).
//!
//! Contract: `Display` only; the replay ([`crate::replay::cilium`]) hands
//! out values.

use std::fmt;

use crate::replay::calico::version::Version;
use crate::replay::cilium::{CiliumExcluded, Note, Reason};

/// The `semantics:` line, in the release replayed.
pub(crate) fn semantics(f: &mut fmt::Formatter<'_>, version: Version) -> fmt::Result {
    write!(
        f,
        "cilium {}.{} firstGlobalAddr: addresses of docker* and down links excluded{}; scope universe, \
         then site; public before private; ",
        version.0,
        version.1,
        if version >= Version(1, 17, 0) {
            " (dummy links never)"
        } else {
            ""
        }
    )?;
    if version >= Version(1, 14, 0) {
        f.write_str("secondaries skipped; lowest link index first, dump order within a link")
    } else {
        f.write_str("secondaries kept; lowest address first")
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::CiliumNoDevice { name } => write!(f, "--cilium-device {name}: no such link, every link is walked"),
            Note::CiliumRetry { scope_site, all_links } => match (scope_site, all_links) {
                (true, true) => f.write_str("nothing on the device: all links, scope up to site"),
                (false, true) => f.write_str("nothing on the device: all links"),
                _ => f.write_str("no global-scope address: scope up to site"),
            },
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::AddressesListed => f.write_str("addresses listed"),
            Reason::CiliumExcluded(why) => why.fmt(f),
            Reason::ScopeAbove { scope, max } => {
                write!(f, "scope {scope} wider than {max}")
            }
            Reason::SecondarySkipped => f.write_str("secondary (IFA_F_SECONDARY, or temporary for IPv6): skipped"),
            Reason::TentativeSkipped => f.write_str("tentative or dad-failed: skipped"),
            Reason::PublicFirst => f.write_str("first public address after the sort"),
            Reason::PrivateFirst => f.write_str("first private address after the sort (no public one)"),
            Reason::PrivateLosesToPublic => f.write_str("private: public addresses win"),
        }
    }
}

impl fmt::Display for CiliumExcluded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CiliumExcluded::DockerName => f.write_str("on a docker* link"),
            CiliumExcluded::NotUp(oper) => {
                write!(f, "the link's operstate is {}", crate::netlink::names::operstate(*oper))
            }
        }
    }
}

impl fmt::Display for crate::replay::cilium::note::Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        semantics(f, self.version)
    }
}
