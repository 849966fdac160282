//! getaddrinfo's reasons in words: the rule behind each adjacent pair,
//! how each source was found, the notes of a sort, and what could explain
//! an observed order; what `gai` prints and JSON's `explanation`,
//! `source_why`, `notes` and `mismatch_explanations`.
//!
//! Contract: `Display` (and `Serialize` as the same words) only, one line
//! per value; the sentences naming nlorder's own flags live here, never in
//! the replays.

use std::fmt;

use serde::ser::SerializeStruct;

use crate::replay::gai::{Explanation, Found, GaiNote, Rule, Scopes, SourceEntry, SourceWhy, Step};
use crate::replay::source::RuleNote;

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::NotSorted => f.write_str("not sorted"),
            Rule::NoSource { missing, other } => {
                write!(f, "rule 1: {missing} has no source address")?;
                match other {
                    Some(o) => write!(f, ", {o} has"),
                    None => Ok(()),
                }
            }
            Rule::NeitherHasSource => f.write_str("rule 1: neither has a source address; Go keeps their order"),
            Rule::MatchingScope(None) => f.write_str("rule 2 (matching scope)"),
            Rule::MatchingScope(Some(Scopes {
                first,
                first_scope,
                first_source_scope,
                second,
                second_scope,
                second_source_scope,
            })) => write!(
                f,
                "rule 2 (matching scope): {first} scope {first_scope} vs source {first_source_scope}; {second} scope \
                 {second_scope} vs source {second_source_scope}"
            ),
            Rule::AvoidDeprecated => f.write_str("rule 3 (avoid deprecated source)"),
            Rule::PreferHome => f.write_str("rule 4 (prefer home address)"),
            Rule::MatchingLabel(None) => f.write_str("rule 5 (matching label)"),
            Rule::MatchingLabel(Some([a, sa, b, sb])) => {
                write!(f, "rule 5 (matching label): labels {a}/{sa} vs {b}/{sb}")
            }
            Rule::Precedence(a, b) => write!(f, "rule 6 (precedence): {a} vs {b}"),
            Rule::NativeTransport => f.write_str("rule 7 (prefer native transport)"),
            Rule::SmallerScope(a, b) => write!(f, "rule 8 (smaller scope): {a} vs {b}"),
            Rule::CommonBits {
                first,
                second,
                sources,
                prefix_unknown,
            } => {
                write!(f, "rule 9, {first} vs {second} common bits")?;
                if let Some([a, b]) = sources {
                    write!(f, " (source {a} / {b})")?;
                }
                if *prefix_unknown {
                    f.write_str(
                        "; prefix length unknown to glibc (no IPv6 on the host), so only an exact match counts (x86 \
                         behaviour of an undefined shift)",
                    )?;
                }
                Ok(())
            }
            Rule::NameServiceOrder { first, second } => {
                write!(f, "rule 10: name-service order kept (positions {first} and {second})")
            }
        }
    }
}

/// `10.0.0.2/24` for an IPv4 destination's source, else the bare address.
impl fmt::Display for SourceEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix_len {
            Some(len) => write!(f, "{}/{len}", self.ip),
            None => self.ip.fmt(f),
        }
    }
}

/// `A before B: RULE`.
impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} before {}: {}", self.first, self.second, self.rule)
    }
}

/// `first`, `second`, `rule` (its number), `explanation` (the words),
/// `swapped`.
impl serde::Serialize for Step {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut o = s.serialize_struct("Step", 5)?;
        o.serialize_field("first", &self.first)?;
        o.serialize_field("second", &self.second)?;
        o.serialize_field("rule", &self.rule.number())?;
        o.serialize_field("explanation", &self.to_string())?;
        o.serialize_field("swapped", &self.swapped)?;
        o.end()
    }
}

impl fmt::Display for SourceWhy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceWhy::Given => f.write_str("given with --source"),
            SourceWhy::Kernel { why, route, inferred } => {
                write!(f, "{why} (route `{route}`")?;
                if *inferred {
                    f.write_str(", inferred from the addresses")?;
                }
                f.write_str(")")
            }
            SourceWhy::None(e) => write!(f, "no source: {e}"),
        }
    }
}

impl fmt::Display for GaiNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GaiNote::RoutesInferred => f.write_str(
                "the capture holds no routes: connected and local routes were inferred from the addresses; give \
                 --source DEST=SRC for destinations behind a gateway",
            ),
            GaiNote::GlibcSingle => f.write_str("glibc sorts only when the name has at least 2 addresses"),
            GaiNote::GlibcNoIpv6 => f.write_str(
                "no non-loopback IPv6 address: glibc's check_pf drops its address list, so prefix lengths and flags \
                 are unknown (rule 9 only sees exact matches)",
            ),
            GaiNote::HomeAddressRuleAssumed { home, applied, build } => write!(
                f,
                "assumed: {home} is a home address: the kernel's source selection {}",
                super::assumption::home_rule_basis(*applied, *build)
            ),
            GaiNote::GoPure => f.write_str(
                "Go's pure resolver (no netlink): sortByRFC6724 on hosts-file and DNS answers, rule 9 for IPv6 only. \
                 Go hands the lookup to glibc instead when built with cgo and nsswitch lists myhostname and the name \
                 is the host's own, or with GODEBUG=netdns=cgo: use --resolver glibc then",
            ),
            GaiNote::MuslUnsorted => f.write_str("musl does not sort when all answers are IPv4 (or there is only one)"),
            GaiNote::SourceUnknown { dst } => write!(
                f,
                "the source for {dst} is unknown (its route has several next hops): the order rests on it having \
                 none, which the kernel would not say, so the order is unknown where {dst} decides it"
            ),
            // (what a whole family's lookups rest on is said once, of no one address)
            GaiNote::Rule {
                note: note @ (RuleNote::DefaultsAssumed { .. } | RuleNote::BeforeMessagesAssumed { .. }),
                ..
            } => write!(f, "sources: {note}"),
            GaiNote::Rule { dst, note } => write!(f, "source for {dst}: {note}"),
            GaiNote::SourceNotInDump { source, dst } => write!(
                f,
                "source {source} of {dst} is not in the address dump glibc reads (point-to-point peer?): prefix \
                 length 0"
            ),
        }
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Explanation::AnswerSet => {
                f.write_str("NSS order / answer set: the program got other addresses than the candidates given")
            }
            Explanation::NoSorting => f.write_str(
                "no sorting: the resolver kept the name-service order (pure-Go resolver on IPv4, musl, or a single \
                 answer)",
            ),
            Explanation::Resolver(r) => write!(f, "resolver: {r:?} would return exactly this order"),
            Explanation::PreferIpv4 => {
                f.write_str("gai.conf: `precedence ::ffff:0:0/96 100` (prefer IPv4) reproduces it")
            }
            Explanation::Ipv6Presence { host_has_ipv6 } => write!(
                f,
                "IPv6 presence: with{} a non-loopback IPv6 address the order is the observed one",
                if *host_has_ipv6 { "out" } else { "" }
            ),
            Explanation::Sources => {
                f.write_str("source: some source addresses were unknown or inferred; pass --source DEST=SRC")
            }
            Explanation::NssOrder => {
                f.write_str("NSS order: the name service may have returned the candidates in another order than given")
            }
            Explanation::HostConfMulti { multi } => write!(
                f,
                "host.conf: with `multi {}` the hosts file gives exactly this order (--host-conf)",
                if *multi { "on" } else { "off" }
            ),
            Explanation::AddrConfig { addrconfig } => write!(
                f,
                "AI_ADDRCONFIG: {} it (getent ahosts passes it) the hosts file gives exactly this order ({} \
                 --addrconfig)",
                if *addrconfig { "with" } else { "without" },
                if *addrconfig { "give" } else { "leave out" }
            ),
            Explanation::Moment {
                found,
                from,
                to,
                changed_by,
            } => {
                let held = match changed_by {
                    Some(p) => format!("it held from packet {from} until packet {p} changed it"),
                    None => format!("it held from packet {from} to the end of the capture"),
                };
                match found {
                    Found::At(at) => write!(
                        f,
                        "moment: the capture showed exactly this order at packet {at} ({held}), before the rules \
                         nlorder applies at the moment evaluated (unfinished dumps merged, the kernel's timers run \
                         on to it)"
                    ),
                    Found::Before => write!(
                        f,
                        "moment: an earlier moment of the capture gives exactly this order (packet {to}): {held}; \
                         --at {to} replays it"
                    ),
                    Found::After => write!(
                        f,
                        "moment: a later moment of the capture gives exactly this order (packet {from}): {held}; \
                         --at {from} replays it"
                    ),
                }
            }
        }
    }
}

serialize_as_words!(SourceWhy, GaiNote, Explanation);
