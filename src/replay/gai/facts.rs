//! What the resolvers are given and what they know about each candidate:
//! the resolver, its options, and one candidate's facts.
//!
//! Contract: plain data, the leaf the sorters and the gatherer share.

use std::net::IpAddr;

use serde::Serialize;

use super::gai_conf::GaiConf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Resolver {
    Glibc,
    Go,
    Musl,
}

#[derive(Debug, Clone)]
pub struct Options {
    pub resolver: Resolver,
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
    pub address: IpAddr,
    /// Position in the name-service order, 0-based.
    pub position: usize,
    pub source: Option<IpAddr>,
    /// How the source was found.
    pub source_why: String,
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
