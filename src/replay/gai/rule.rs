//! Which rule put one candidate before another, as data: what the
//! comparators return and a [`super::Step`] holds.
//!
//! Contract: plain values, the leaf the comparators (`glibc_sort`,
//! `rfc6724`) and the sorter share; one variant per rule, with the values
//! the rule compared (glibc says more of them than Go and musl);
//! `report::gai_reason` words them.

use std::net::IpAddr;

/// The rule that decided a pair, with what it compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// The resolver did not sort (rule 0).
    NotSorted,
    /// Rule 1: `missing` has no source address; glibc names `other`, which
    /// has one, when `missing` comes first.
    NoSource {
        /// The candidate without a source.
        missing: IpAddr,
        /// The one with a source it is compared with (glibc).
        other: Option<IpAddr>,
    },
    /// Rule 1, Go: neither has a source address, and Go keeps their order.
    NeitherHasSource,
    /// Rule 2: one destination's scope matches its source's (glibc: the
    /// scopes compared).
    MatchingScope(Option<Scopes>),
    /// Rule 3 (glibc).
    AvoidDeprecated,
    /// Rule 4 (glibc).
    PreferHome,
    /// Rule 5: one destination's label matches its source's (glibc: the
    /// labels, first's then its source's, second's then its source's).
    MatchingLabel(Option<[u32; 4]>),
    /// Rule 6: the precedences of the two.
    Precedence(u32, u32),
    /// Rule 7 (glibc).
    NativeTransport,
    /// Rule 8: the scopes of the two.
    SmallerScope(u32, u32),
    /// Rule 9: the bits each shares with its source (glibc: the sources,
    /// and whether an IPv4 prefix length was unknown to it).
    CommonBits {
        /// The bits the first shares with its source.
        first: u32,
        /// The bits the second shares with its source.
        second: u32,
        /// The two sources as glibc read them (glibc only).
        sources: Option<[SourceEntry; 2]>,
        /// glibc did not know an IPv4 source's prefix length.
        prefix_unknown: bool,
    },
    /// Rule 10: the name-service positions, counted from 1.
    NameServiceOrder {
        /// The first's position.
        first: usize,
        /// The second's position.
        second: usize,
    },
}

impl Rule {
    /// The rule's number in RFC 6724 (0: not sorted).
    pub fn number(&self) -> u8 {
        match self {
            Rule::NotSorted => 0,
            Rule::NoSource { .. } | Rule::NeitherHasSource => 1,
            Rule::MatchingScope(_) => 2,
            Rule::AvoidDeprecated => 3,
            Rule::PreferHome => 4,
            Rule::MatchingLabel(_) => 5,
            Rule::Precedence(..) => 6,
            Rule::NativeTransport => 7,
            Rule::SmallerScope(..) => 8,
            Rule::CommonBits { .. } => 9,
            Rule::NameServiceOrder { .. } => 10,
        }
    }
}

/// glibc's rule 2: each destination's scope and its source's scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scopes {
    /// The first destination.
    pub first: IpAddr,
    /// Its scope.
    pub first_scope: u32,
    /// Its source's scope.
    pub first_source_scope: u32,
    /// The second destination.
    pub second: IpAddr,
    /// Its scope.
    pub second_scope: u32,
    /// Its source's scope.
    pub second_source_scope: u32,
}

/// A source as glibc's rule 9 reads it: with the prefix length of its
/// address entry for an IPv4 destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceEntry {
    /// The source address.
    pub ip: IpAddr,
    /// Its entry's prefix length (`None`: unknown to glibc).
    pub prefix_len: Option<u8>,
}
