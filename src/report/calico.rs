//! calico-node's words: its own log lines about its address, as it words
//! them (what `detect` prints as `log:` and JSON's `log`), its refusals of
//! a method and its autodetection failures (`-> nothing:`), its
//! `semantics:` line, the warning for a release nlorder does not know, and
//! its own notes, reasons and failures
//! ([`crate::replay::calico::note`]).
//!
//! Contract: `Display` only, one line per [`Log`]: the message calico-node
//! logs (and its logrus fields, ` KEY="VALUE"`, as calico-node's formatter
//! appends them), byte for byte after its `[LEVEL][PID] FILE LINE: `
//! prefix. The words are the same in every release nlorder replays
//! (v3.10 to v3.32); only the place changed. Where each line is logged:
//!
//! | line | v3.10.0–v3.19 (projectcalico/node) | v3.20.0–v3.21 (projectcalico/node) | v3.22.0–v3.32.1 (projectcalico/calico) |
//! |---|---|---|---|
//! | first-found | `pkg/startup/startup.go` (v3.18.0: 764, 768) | `pkg/lifecycle/startup/startup.go` (v3.20.0: 709, 713) | `node/pkg/lifecycle/startup/autodetection/autodetection_methods.go` 99, 103 |
//! | `interface=` | v3.18.0: 778, 782 | v3.20.0: 723, 727 | 113, 117 |
//! | `cidr=` (v3.16+) | v3.18.0: 792, 796 | v3.20.0: 737, 741 | 127, 131 |
//! | `can-reach=` | v3.18.0: 805, 808 | v3.20.0: 750, 753 | 140, 143 |
//! | `skip-interface=` | v3.18.0: 822, 826 | v3.20.0: 767, 771 | 157, 161 |
//! | kubernetes-internal-ip (v3.22+) | — | — | 185 (parse), 225/229 (Including CIDR), 232/236 (no interface) |
//! | unknown method | v3.18.0: 752 | v3.20.0: 697 | 87 |
//!
//! The errors inside `Unable …` lines: `FilteredEnumeration`'s (`filtered.go`
//! 35/36, 51/52), `ReachDestination`'s (`reachaddr.go` 65/66) and Go's
//! `net.Dial` of a UDP socket (`dial udp4 ADDR:80: connect: …`, `dial udp4:
//! address ADDR: no suitable address found`; seen with Go 1.19 in a
//! namespace with no route, blackhole, unreachable and prohibit routes).
//! `cidr=` networks are logged as `net.ParseCIDR` returns them (host bits
//! cleared), lists as Go's `%v` prints a slice (`[a b]`).

use std::fmt;

use super::reason::joined;
use crate::replay::calico::note::CalicoWalk;
use crate::replay::calico::note::{Failure, Introduced, LaterMethod, MethodError, Note, PeerCheck, Reason, Unable};
use crate::replay::calico::version::Version;
use crate::replay::conflict::Conflict;
use crate::replay::family::Family;
use crate::replay::verdict::{Autodetect, DialErrno, Log, LogError};

/// The line the later of two nodes logs before it terminates
/// (`checkConflictingNodes`, `startup.go`; v3.32.1: 1207 and 1213).
pub struct AlreadyUsing<'a>(pub &'a Conflict);

impl fmt::Display for AlreadyUsing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0;
        write!(
            f,
            "Calico node '{}' is already using the IPv{} address {}.",
            c.other, c.family, c.address
        )
    }
}

/// Go's `%v` of a slice: `[a b c]`.
fn go_list<T: fmt::Display>(items: &[T]) -> String {
    let words: Vec<String> = items.iter().map(ToString::to_string).collect();
    format!("[{}]", words.join(" "))
}

impl fmt::Display for DialErrno {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DialErrno::NetworkUnreachable => "network is unreachable",
            DialErrno::HostUnreachable => "no route to host",
            DialErrno::InvalidArgument => "invalid argument",
            DialErrno::PermissionDenied => "permission denied",
        })
    }
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogError::Calico(unable) => unable.fmt(f),
            LogError::Dial { dst, errno } => {
                let udp = if dst.is_ipv4() { "udp4" } else { "udp6" };
                let addr = std::net::SocketAddr::new(*dst, 80);
                write!(f, "dial {udp} {addr}: connect: {errno}")
            }
            LogError::NoSuitableAddress { family, dest } => {
                write!(f, "dial udp{family}: address {dest}: no suitable address found")
            }
        }
    }
}

impl fmt::Display for Log {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Log::Using {
                family,
                address,
                interface,
                by,
            } => match by {
                Autodetect::FirstFound => write!(
                    f,
                    "Using autodetected IPv{family} address on interface {interface}: {address}"
                ),
                Autodetect::Interface(_) => write!(
                    f,
                    "Using autodetected IPv{family} address {address} on matching interface {interface}"
                ),
                Autodetect::Cidr(nets) => write!(
                    f,
                    "Using autodetected IPv{family} address {address} on interface {interface} matching cidrs {}",
                    go_list(nets)
                ),
                Autodetect::CanReach(dest) => write!(
                    f,
                    "Using autodetected IPv{family} address {address}, detected by connecting to {dest}"
                ),
                Autodetect::SkipInterface(_) => write!(
                    f,
                    "Using autodetected IPv{family} address on interface {interface}: {address} while skipping \
                     matching interfaces"
                ),
            },
            Log::Unable { family, by, why } => match by {
                Autodetect::FirstFound => write!(f, "Unable to auto-detect an IPv{family} address: {why}"),
                Autodetect::Interface(patterns) => write!(
                    f,
                    "Unable to auto-detect an IPv{family} address using interface regexes {}: {why}",
                    go_list(patterns)
                ),
                Autodetect::Cidr(nets) => write!(
                    f,
                    "Unable to auto-detect an IPv{family} address using interface cidr {}: {why}",
                    go_list(nets)
                ),
                Autodetect::CanReach(dest) => {
                    write!(
                        f,
                        "Unable to auto-detect IPv{family} address by connecting to {dest}: {why}"
                    )
                }
                Autodetect::SkipInterface(patterns) => write!(
                    f,
                    "Unable to auto-detect an IPv{family} address while excluding {}: {why}",
                    go_list(patterns)
                ),
            },
            Log::InvalidMethod { method } => write!(f, "Invalid IP autodetection method: {method}"),
            Log::IncludingCidr { cidr } => {
                write!(f, "Including CIDR information from host interface. CIDR=\"{cidr}\"")
            }
            Log::NoMatchingInterface { ip } => write!(f, "Unable to find matching host interface for IP {ip}"),
            Log::UnparsableCidr { address } => {
                write!(f, "Unable to parse CIDR {address} : invalid CIDR address: {address}")
            }
        }
    }
}

serialize_as_words!(Log);

/// The `semantics:` line of a calico-node replay: the release replayed (and
/// the one asked for when nlorder does not know it), and its walk.
pub(crate) fn semantics(f: &mut fmt::Formatter<'_>, asked: Version, walk: Option<&CalicoWalk>) -> fmt::Result {
    let replayed = asked.replayed();
    write!(f, "calico-node {replayed}")?;
    if replayed != asked {
        write!(f, " ({asked} asked: newer than any release nlorder knows)")?;
    }
    match walk {
        Some(walk) => write!(f, ": {walk}"),
        None => Ok(()),
    }
}

impl fmt::Display for CalicoWalk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("interfaces walked in reverse kernel link order")?;
        let ex = &self.default_excludes;
        if self.without_default_excludes {
            f.write_str("; this method does not apply the default excludes")?;
        } else {
            let anchored = ex.iter().all(|p| p.starts_with('^'));
            write!(
                f,
                "; default excludes ({} patterns, {}): {}",
                ex.len(),
                if anchored {
                    "^-anchored"
                } else {
                    "unanchored: substring matches"
                },
                ex.join(" ")
            )?;
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

/// The reason of calico-node's `Unable to auto-detect …` line: its own
/// words where it has them, else what stopped the replay.
impl fmt::Display for Unable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unable::NoValidInterfaces => f.write_str("no valid host interfaces found"),
            Unable::NoValidAddresses(family) => {
                write!(f, "no valid IPv{family} addresses found on the host interfaces")
            }
            Unable::SourceNotLocal { family, source } => write!(
                f,
                "autodetected IPv{family} address does not match any addresses found on local interfaces: {source}"
            ),
            Unable::CanReachName { dest } => write!(
                f,
                "can-reach={dest}: calico-node would resolve this name; the capture holds no resolver answer \
                 (nlorder's limit, not calico-node's): give what it resolves to with --resolved ADDR"
            ),
            Unable::CanReachFamily { dest, family } => write!(f, "can-reach={dest} is not an IPv{family} address"),
            // (the kernel would connect: which source it takes is what the
            // capture cannot show)
            Unable::CannotReach {
                dst,
                why: why @ crate::replay::source::NoSource::NextHopUnknown(_),
            } => write!(f, "connecting to {dst}: {why}"),
            Unable::CannotReach { dst, why } => write!(f, "cannot reach {dst}: {why}"),
            Unable::NoInternalIp => f.write_str("the Node's InternalIP is needed: give --node-internal-ip"),
            Unable::NoInternalIpOfFamily(family) => write!(f, "the Node has no IPv{family} InternalIP"),
            Unable::InternalIpNotLocal(ip) => write!(
                f,
                "InternalIP {ip} is not on any host interface; parsing the bare IP as a CIDR fails"
            ),
        }
    }
}

/// calico-node's refusal (its message, then that it terminates), or the
/// part of `--method` nlorder cannot compile.
impl fmt::Display for MethodError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MethodError::Invalid {
                method,
                introduced,
                near,
            } => {
                write!(f, "Invalid IP autodetection method: {method} (calico-node terminates)")?;
                if let Some(near) = near {
                    // (a method that takes an argument and was given none:
                    // `interface=...`)
                    let arg = near.arg.as_deref().unwrap_or("...");
                    let arg = if near.name.ends_with('=') { arg } else { "" };
                    write!(f, "; did you mean {}{arg}?", near.name)?;
                }
                if let Some(Introduced {
                    method,
                    since,
                    replayed,
                }) = introduced
                {
                    let method = match method {
                        LaterMethod::Cidr => "cidr=",
                        LaterMethod::KubernetesInternalIp => "kubernetes-internal-ip",
                    };
                    write!(f, " ({method} exists since {since}; this is {replayed})")?;
                }
                Ok(())
            }
            MethodError::Pattern { method, error } => write!(f, "--method {method}: {error}"),
            MethodError::Cidr { method, cidr } => write!(f, "--method {method}: {cidr:?} is not a CIDR (Invalid CIDR)"),
        }
    }
}

/// `IP` or `IP6`: calico-node's setting of the family.
fn ip_var(family: Family) -> &'static str {
    match family {
        Family::V4 => "IP",
        Family::V6 => "IP6",
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
            Note::VxlanParent { interface } => write!(
                f,
                "felix's VXLAN parent device: {interface} (the first link holding the node IP)"
            ),
            Note::VxlanNoParent => f.write_str("no link holds the node IP: felix finds no VXLAN parent device"),
            Note::Redetects => f.write_str(
                "calico-node re-runs autodetection every 60 s: a running node's pick follows the changes \
                 (`detect --timeline` lists them, `watch` follows them live)",
            ),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::EarlierCandidate => f.write_str("an earlier candidate won"),
            Reason::EarlierInterface => f.write_str("an earlier interface won"),
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
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Method(e) => e.fmt(f),
            Failure::Unable(e) => e.fmt(f),
            Failure::Disabled => f.write_str("autodetection disabled (none)"),
            Failure::NotAnAddress { family, text } => write!(f, "{}={text} is not an address", ip_var(*family)),
        }
    }
}

impl fmt::Display for crate::replay::calico::note::Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        semantics(f, self.asked, self.walk.as_ref())
    }
}
