//! flannel's words, and k3s's embedded flannel's: their `semantics:`
//! lines, what chose the interface and what was passed over, why an
//! interface or address won or lost (flannel's own messages are kept by
//! the replay as it writes them).
//!
//! Contract: `Display` only; the replay ([`crate::replay::flannel`])
//! hands out values.

use std::fmt;

use crate::replay::calico::version::Version;
use crate::replay::flannel::{Failure, Note, Reason};

/// flannel's `semantics:` line, in the release replayed.
pub(crate) fn semantics(f: &mut fmt::Formatter<'_>, version: Version) -> fmt::Result {
    write!(
        f,
        "flannel {version}: --iface (names or IPs) in order, then --iface-regex (addresses, then names), then \
         --iface-can-reach; else the default-route interface; {}",
        flannel_sort(version)
    )
}

/// k3s's embedded flannel's `semantics:` line, in the flannel release
/// replayed.
pub(crate) fn k3s_semantics(f: &mut fmt::Formatter<'_>, version: Version) -> fmt::Result {
    write!(
        f,
        "k3s's embedded flannel {version}: --flannel-iface, else the interface of the first main-table \
         default route; the first of its addresses, {}",
        flannel_sort(version)
    )
}

/// How flannel's release orders an interface's addresses.
fn flannel_sort(version: Version) -> &'static str {
    if version >= Version(0, 28, 0) {
        "addresses sorted global/permanent/non-temporary first, deprecated dropped"
    } else {
        "global addresses before link-local ones, in dump order"
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::DefaultRoute { route } => write!(f, "default route `{route}`; first of its sorted addresses"),
            Note::IfaceHolds { spec } => write!(f, "--iface {spec}: the first interface carrying it"),
            Note::IfaceFirstSorted { spec } => write!(f, "--iface {spec}: first of its sorted addresses"),
            Note::IfaceRegexAddress { pattern } => write!(f, "--iface-regex {pattern}: matches the address"),
            Note::IfaceRegexName { pattern } => write!(f, "--iface-regex {pattern}: matches the interface name"),
            Note::IfaceCanReach { dst, route } => write!(f, "--iface-can-reach {dst}: route `{route}`"),
            Note::IfaceNotHeld { spec } => write!(f, "--iface {spec}: no interface carries that IP"),
            Note::IfaceNoAddress { spec, family } => {
                write!(f, "--iface {spec}: no IPv{family} address found for given interface")
            }
            Note::IfaceNoSuch { spec } => write!(f, "--iface {spec}: no such interface"),
            Note::IfaceRegexInvalid { pattern, error } => write!(f, "--iface-regex {pattern}: {error}"),
            Note::IfaceUnreachable { dst, why } => write!(f, "--iface-can-reach {dst}: {why}"),
            Note::PublicIp(ip) => write!(f, "--public-ip {ip}: announced instead of the interface address"),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::DefaultRouteFirstSorted { route } => {
                write!(f, "default route `{route}`; first of its sorted addresses")
            }
            Reason::AddressMatches { pattern } => write!(f, "address matches {pattern}"),
            Reason::AddressDoesNotMatch { pattern } => write!(f, "address does not match {pattern}"),
            Reason::AnAddressMatches => f.write_str("an address matches"),
            Reason::NoAddressMatches { pattern } => write!(f, "no address matches {pattern}"),
            Reason::NameMatches { pattern } => write!(f, "the interface name matches {pattern}"),
            Reason::FirstSorted => f.write_str("first of the interface's sorted addresses"),
            Reason::NameMatchesNoAddress { pattern, family } => {
                write!(f, "the name matches {pattern}, but it has no IPv{family} address")
            }
            Reason::NothingMatches { pattern } => write!(f, "neither an address nor the name matches {pattern}"),
            Reason::MatchedFirst { interface } => write!(f, "{interface} matched first"),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::NoRoutes => f.write_str("no default route: the capture holds no routes (record a route dump)"),
            Failure::NoSingleDevice { route } => write!(f, "default route `{route}` has no single device (multipath?)"),
        }
    }
}

impl fmt::Display for crate::replay::flannel::note::Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            crate::replay::flannel::note::Semantics::Flannel { version } => semantics(f, *version),
            crate::replay::flannel::note::Semantics::K3sFlannel { version } => k3s_semantics(f, *version),
        }
    }
}
