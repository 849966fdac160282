//! Why a candidate interface or address won or lost, in words: what
//! `detect` prints after each candidate's verdict, and JSON's `reason`.
//!
//! Contract: `Display` only, one clause per value, with no line break; the
//! replays hand out the values, never these words.

use std::fmt;

use crate::replay::goview::NotGlobal;
use crate::replay::reason::Reason;

/// Go's terms.
impl fmt::Display for NotGlobal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotGlobal::Loopback => "loopback",
            NotGlobal::LinkLocal => "link-local",
            NotGlobal::Multicast => "multicast",
            NotGlobal::UnspecifiedOrBroadcast => "unspecified or broadcast",
        })
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::EarlierCandidate => f.write_str("an earlier candidate won"),
            Reason::EarlierInterface => f.write_str("an earlier interface won"),
            Reason::EarlierAddress => f.write_str("an earlier address won"),
            Reason::NotGlobal(why) => why.fmt(f),
            Reason::Kubelet(r) => r.fmt(f),
            Reason::Flannel(r) => r.fmt(f),
            Reason::Cilium(r) => r.fmt(f),
            Reason::CiliumNodeAddress(r) => r.fmt(f),
            Reason::K3s(r) => r.fmt(f),
            Reason::Kubeadm(r) => r.fmt(f),
            Reason::Etcd(r) => r.fmt(f),
            Reason::Swarm(r) => r.fmt(f),
            Reason::Consul(r) => r.fmt(f),
            Reason::Nomad(r) => r.fmt(f),
            Reason::OtherFamily => f.write_str("other family"),
            Reason::FirstOfFirstCandidate => {
                f.write_str("first global unicast address of the first candidate interface")
            }
            Reason::FirstCandidate => f.write_str("the first candidate with a global unicast address"),
            Reason::AddressNotGlobal { ip, why } => write!(f, "{ip} is not global unicast ({why})"),
            Reason::OutsideCidrs { ip, cidrs } => write!(f, "{ip} is outside {}", joined(cidrs, ",")),
            Reason::NoAddressOfFamily(family) => write!(f, "no IPv{family} address"),
            Reason::NoAddressInCidrs => f.write_str("no address inside the CIDRs"),
            Reason::NoGlobalOfFamily(family) => write!(f, "no global unicast IPv{family} address"),
            Reason::NameUnknown { index } => write!(
                f,
                "nothing in the capture names ifindex {index}, so its name cannot be matched (a link dump would tell)"
            ),
            Reason::MatchesNone { patterns } => write!(f, "matches none of {}", patterns.join(",")),
            Reason::ExcludedBy { pattern } => write!(f, "excluded by pattern {pattern}"),
            Reason::SourceFor { dst } => write!(f, "the source address the kernel picks for {dst}"),
            Reason::NotSource { source } => write!(f, "not the source address {source}"),
            Reason::CarriesSource => f.write_str("carries the source address"),
            Reason::LacksSource => f.write_str("does not carry the source address"),
            Reason::CarriesInternalIp { ip } => write!(f, "carries the InternalIP {ip}"),
            Reason::LacksInternalIp { ip } => write!(f, "does not carry the InternalIP {ip}"),
            Reason::DefaultRoute { route } => write!(f, "default route `{route}`"),
            Reason::DefaultRouteDown { route } => write!(f, "default route `{route}`: interface is down"),
            Reason::DefaultRouteNoDevice { route } => write!(
                f,
                "default route `{route}`: no device (`*` in /proc/net/route), no interface has that name"
            ),
            Reason::FirstGlobal => f.write_str("first global unicast address"),
            Reason::InterfaceDown => f.write_str("interface down"),
            Reason::UpInterface => f.write_str("up"),
            Reason::OneOfSeveral => f.write_str("one of several: the program wants exactly one"),
            Reason::SortedAfter => f.write_str("sorted after the winner"),
        }
    }
}

/// `a<sep>b<sep>c`.
pub(crate) fn joined<T: fmt::Display>(items: &[T], sep: &str) -> String {
    items.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(sep)
}

serialize_as_words!(Reason);
