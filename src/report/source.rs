//! The kernel's source-address choice in words: how a source was picked
//! ([`Why`]) and why none could be ([`NoSource`]), as `detect`'s notes and
//! `gai`'s sources say them.
//!
//! Contract: `Display` only, one sentence (or clause) per value, with no
//! line break; the replays hand out the values, never these words.

use std::fmt;

use crate::model::RulesKnown;
use crate::netlink::TableId;
use crate::replay::source::{NoSource, Rejecting, RuleNote, Unseen, Why};

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::LocalRouteSelf { src } => write!(f, "local address (local route src {src})"),
            Why::LocalRouteSrc { dst, src } => write!(f, "local route for {dst}: its src {src}, the subnet's primary"),
            Why::RouteSrc { src } => write!(f, "route's src {src}"),
            Why::Local => f.write_str("local address: itself"),
            Why::FirstPrimaryNear { device, near } => write!(f, "first primary of {device} in {near}'s subnet"),
            Why::FirstPrimary { device } => write!(f, "first primary of {device}"),
            Why::FirstPrimaryNotNear { device, near } => {
                write!(f, "first primary of {device} (none in {near}'s subnet)")
            }
            Why::OtherDevice { device, on } => write!(f, "{device} has no address; first suitable on {on}"),
            Why::DestinationLocal => f.write_str("the destination is a local address"),
            Why::Given { src } => write!(f, "the source given, {src}"),
            Why::Rfc6724 {
                source,
                scope,
                deprecated,
                on_device,
                label_matches,
                common_bits,
            } => write!(
                f,
                "RFC 6724 source selection: {source} (scope {scope}, {}, {} outgoing device, label {}, {common_bits} \
                 common bits)",
                if *deprecated { "deprecated" } else { "not deprecated" },
                if *on_device { "on the" } else { "not on the" },
                if *label_matches { "matching" } else { "not matching" },
            ),
        }
    }
}

impl fmt::Display for NoSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoSource::NoRoutes => f.write_str("the capture holds no routes of that family"),
            NoSource::Unreachable => f.write_str("no route matches (network unreachable)"),
            NoSource::Rejected { route, .. } => write!(f, "the matching route rejects it: {route}"),
            NoSource::RuleRejected { rule, kind } => write!(
                f,
                "the rule `{rule}` refuses it ({})",
                match kind {
                    Rejecting::Unreachable => "network unreachable",
                    Rejecting::Prohibit => "permission denied",
                    Rejecting::Blackhole => "invalid argument",
                }
            ),
            NoSource::NoAddress(device) => write!(f, "the output device {device} has no usable address"),
            NoSource::NextHopUnknown(route) => write!(
                f,
                "unknown: `{route}` has several next hops, and which one the kernel hashes the flow to (and \
                 so the source) the capture does not show"
            ),
        }
    }
}

impl fmt::Display for Unseen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unseen::Mark => "its fwmark: the program's packets are taken to be unmarked",
            Unseen::Uid => "its uidrange: the program is taken to run as root (uid 0)",
            Unseen::Protocol => "its ipproto: taken to be none, as `ip route get` asks",
            Unseen::Ports => "its ports: taken to be 0, as `ip route get` asks",
            Unseen::Tos => "its tos: the program's packets are taken to carry TOS 0",
            Unseen::Oif => "its oif: the program's socket is taken not to be bound to a device",
            Unseen::L3mdev => "its l3mdev: the program's socket is taken not to be in a VRF",
            Unseen::TunId => "its tun_id: the program's packets are taken not to be tunnelled",
        })
    }
}

impl fmt::Display for RuleNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleNote::DefaultsAssumed { family, tables } if tables.is_empty() => write!(
                f,
                "no {} rule dump or rule message in the capture: the kernel's default rules (local, main, \
                 default) assumed",
                family.name()
            ),
            RuleNote::DefaultsAssumed { family, tables } => write!(
                f,
                "no {} rule dump or rule message in the capture: the kernel's default rules (local, main, \
                 default) were assumed, yet routes are in {}, which only rules send traffic to; \
                 record with the rules (`nlorder record` dumps them) to know",
                family.name(),
                tables_named(tables)
            ),
            RuleNote::BeforeMessagesAssumed { family } => write!(
                f,
                "no {} rule dump in the capture: the rules before its first rule message are assumed the \
                 kernel's defaults",
                family.name()
            ),
            RuleNote::Assumed { rule, why, matched } => write!(
                f,
                "rule `{rule}` {} on {why}",
                if *matched {
                    "assumed to match"
                } else {
                    "assumed not to match"
                }
            ),
            RuleNote::Decided { rule } => write!(f, "policy rule `{rule}` chose the table"),
            RuleNote::Suppressed { rule, route } => {
                write!(
                    f,
                    "rule `{rule}` suppressed `{route}` (suppress_prefixlength); the walk went on"
                )
            }
        }
    }
}

/// What a family's rules rest on, in words (`table`'s rule section).
pub fn rules_known(known: RulesKnown) -> &'static str {
    match known {
        RulesKnown::Assumed => "no rule dump or rule message: the kernel's default rules, assumed",
        RulesKnown::MessagesOnly => {
            "no rule dump: the rules before the first rule message are assumed the kernel's defaults"
        }
        RulesKnown::Dumped => "from the capture's rule dump",
    }
}

/// `table 100`, or `tables 100, vrf1` for several: route tables by name.
pub(crate) fn tables_named(tables: &[TableId]) -> String {
    let names: Vec<_> = tables.iter().map(|t| t.name().into_owned()).collect();
    format!("table{} {}", if tables.len() == 1 { "" } else { "s" }, names.join(", "))
}
