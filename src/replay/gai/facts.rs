//! What the resolvers are given and what they know about each candidate:
//! the resolver, its options, one candidate's facts (with how its source
//! was found), and the notes a sort adds.
//!
//! Contract: plain data, the leaf the sorters and the gatherer share;
//! `report::gai_reason` words [`SourceWhy`] and [`GaiNote`].

use std::net::IpAddr;

use serde::Serialize;

use super::gai_conf::GaiConf;
use crate::replay::source::{NoSource, Why};

/// The getaddrinfo whose sort is replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Resolver {
    /// glibc's RFC 3484 sort, with gai.conf.
    Glibc,
    /// Go's own resolver (RFC 6724).
    Go,
    /// musl's RFC 6724 subset.
    Musl,
}

/// How to sort: the resolver, the host's gai.conf, and sources given.
#[derive(Debug, Clone)]
pub struct Options {
    /// The resolver replayed.
    pub resolver: Resolver,
    /// The host's /etc/gai.conf (glibc only).
    pub gai_conf: GaiConf,
    /// `--source DEST=SRC`.
    pub sources: Vec<(IpAddr, IpAddr)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            resolver: Resolver::Glibc,
            gai_conf: GaiConf::default(),
            sources: Vec::new(),
        }
    }
}

/// What the resolver knows about one candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CandidateFacts {
    /// The candidate.
    pub address: IpAddr,
    /// Position in the name-service order, 0-based.
    pub position: usize,
    /// The source address for it (`None`: none found).
    pub source: Option<IpAddr>,
    /// How the source was found.
    pub source_why: SourceWhy,
    /// glibc: prefix length of the source's address entry; musl: bits the
    /// source shares with the address. 0: unknown or not used.
    pub prefix_len: u8,
    /// glibc: the source's entry is deprecated or optimistic.
    pub deprecated: bool,
    /// glibc: the source's entry is a home address.
    pub home: bool,
    /// glibc: ifindex of the source's entry (u32::MAX: unknown).
    pub index: u32,
    /// glibc: the source's device is known and not a tunnel.
    pub native: bool,
}

/// How a candidate's source address was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceWhy {
    /// Given with `--source DEST=SRC`.
    Given,
    /// The kernel's source-address selection: how it chose, the route
    /// that decided (as `ip route` prints it), and whether the routes were
    /// inferred from the addresses (the capture held none).
    Kernel {
        /// How the kernel chose.
        why: Why,
        /// The route that decided, as `ip route` prints it.
        route: String,
        /// The routes were inferred from the addresses.
        inferred: bool,
    },
    /// The kernel would find none.
    None(NoSource),
}

/// What a sort found beside the order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GaiNote {
    /// The capture holds no routes: connected and local routes were
    /// inferred from the addresses.
    RoutesInferred,
    /// glibc sorts only a name with two addresses or more.
    GlibcSingle,
    /// No non-loopback IPv6 address: glibc's `__check_pf` drops its
    /// address list (prefix lengths and flags unknown).
    GlibcNoIpv6,
    /// Go's pure resolver, and when Go hands the lookup to glibc.
    GoPure,
    /// A home address on the host, and the kernel's build not given:
    /// source selection's rule 4 (prefer home addresses), which only
    /// `CONFIG_IPV6_MIP6=y` kernels have, was applied (a candidate's source
    /// is the home address) or left out (IPv6 candidates' sources were
    /// chosen without it), as the distribution the capture names builds
    /// its kernels, else as most do (a module build: left out).
    HomeAddressRuleAssumed {
        /// The home address.
        home: IpAddr,
        /// Whether rule 4 was applied.
        applied: bool,
        /// The distribution the capture's `shb_os` names, if one.
        build: Option<crate::model::kernel_build::KernelBuild>,
    },
    /// musl sorts neither a single answer nor IPv4-only answers.
    MuslUnsorted,
    /// glibc: `source` of `dst` is not in the address dump it reads.
    SourceNotInDump {
        /// The source address.
        source: IpAddr,
        /// The candidate it is the source for.
        dst: IpAddr,
    },
    /// The kernel's source for `dst` is unknown (a route of several next
    /// hops without `src`): the sort below treats it as having none.
    SourceUnknown {
        /// The candidate.
        dst: IpAddr,
    },
    /// What the policy rules did for the lookup of `dst`'s source, or what
    /// it rests on.
    Rule {
        /// The candidate.
        dst: IpAddr,
        /// What the rules did.
        note: crate::replay::source::RuleNote,
    },
}
