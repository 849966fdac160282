//! Address blocks as the replayed programs list them, parsed once: one
//! table of every block some program lists, with the lists that hold it
//! (Consul's private blocks, go-sockaddr's RFC 6890 and forwarding-blacklist
//! blocks, Cilium's private ranges). Each list is its program's set of
//! blocks as its source has it; only the order differs (the table's is
//! by address).
//!
//! Contract: a leaf. [`Blocks`] is one program's list: [`Blocks::contains`]
//! says whether an address lies in one of its blocks, [`Blocks::holds`]
//! whether a whole network does (go-sockaddr's `Contains`). Every text must
//! parse: the unit tests hold the table to it.

use std::net::IpAddr;
use std::sync::LazyLock;

use ipnet::IpNet;

/// A program's list of blocks: a column of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    /// Consul's `privateBlocks`, the IPv4 ones (those matter: only IPv4
    /// is kept).
    ConsulPrivate,
    /// go-sockaddr's `KnownRFCs()[6890]` (Nomad's).
    Rfc6890,
    /// go-sockaddr's `KnownRFCs()[ForwardingBlacklist]` (Nomad's).
    NotForwardable,
    /// Cilium's private (non-public) ranges, `initPrivatePrefixes`.
    CiliumPrivate,
}

/// Every block some program lists, and whether each list holds it, in
/// [`List`]'s order: Consul's, RFC 6890, the forwarding blacklist,
/// Cilium's.
const TABLE: &[(&str, [bool; 4])] = &[
    ("0.0.0.0/8", [false, true, true, true]),
    ("10.0.0.0/8", [true, true, false, true]),
    ("100.64.0.0/10", [true, true, false, true]),
    ("127.0.0.0/8", [true, true, true, true]),
    ("169.254.0.0/16", [true, true, true, true]),
    ("172.16.0.0/12", [true, true, false, true]),
    ("192.0.0.0/24", [true, true, true, true]),
    ("192.0.0.0/29", [false, true, false, false]),
    ("192.0.2.0/24", [true, true, true, true]),
    ("192.88.99.0/24", [false, true, false, false]),
    ("192.168.0.0/16", [true, true, false, true]),
    ("198.18.0.0/15", [false, true, false, true]),
    ("198.51.100.0/24", [false, true, true, true]),
    ("203.0.113.0/24", [false, true, true, true]),
    ("224.0.0.0/4", [false, false, false, true]),
    ("240.0.0.0/4", [false, true, true, false]),
    ("255.255.255.255/32", [false, true, true, false]),
    ("::/128", [false, true, true, true]),
    ("::1/128", [false, true, true, true]),
    ("::ffff:0:0/96", [false, true, true, false]),
    ("64:ff9b::/96", [false, true, false, false]),
    ("100::/64", [false, true, false, true]),
    ("2001::/16", [false, true, false, false]),
    ("2001:2::/48", [false, false, false, true]),
    ("2001:10::/28", [false, false, true, false]),
    ("2001:db8::/32", [false, false, true, false]),
    ("2001:db8::/48", [false, false, false, true]),
    ("2002::/16", [false, true, false, false]),
    ("fc00::/7", [false, true, false, true]),
    ("fe80::/10", [false, true, true, true]),
    ("ff00::/8", [false, false, false, true]),
];

/// The table parsed (a text that does not parse is `None`, which
/// [`Blocks::all_parsed`] reveals).
static PARSED: LazyLock<Vec<(Option<IpNet>, [bool; 4])>> =
    LazyLock::new(|| TABLE.iter().map(|(text, lists)| (text.parse().ok(), *lists)).collect());

/// A program's list of address blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocks(pub List);

impl Blocks {
    /// Whether a row of the table is in the list.
    fn in_list(self, lists: &[bool; 4]) -> bool {
        lists.get(self.0 as usize).copied().unwrap_or(false)
    }

    /// Its blocks that parsed.
    fn nets(self) -> impl Iterator<Item = &'static IpNet> {
        PARSED
            .iter()
            .filter(move |(_, lists)| self.in_list(lists))
            .filter_map(|(net, _)| net.as_ref())
    }

    /// Whether `ip` lies in one of the blocks.
    pub fn contains(self, ip: IpAddr) -> bool {
        self.nets().any(|n| n.contains(&ip))
    }

    /// Whether the network `ip/prefix_len` lies in one of the blocks (its
    /// address inside, its mask at least as long).
    pub fn holds(self, ip: IpAddr, prefix_len: u8) -> bool {
        self.nets().any(|b| b.contains(&ip) && prefix_len >= b.prefix_len())
    }

    /// Whether every text of the list parsed.
    pub fn all_parsed(self) -> bool {
        PARSED
            .iter()
            .filter(|(_, lists)| self.in_list(lists))
            .all(|(net, _)| net.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_programs_blocks_parse_whole() {
        for list in [
            List::ConsulPrivate,
            List::Rfc6890,
            List::NotForwardable,
            List::CiliumPrivate,
        ] {
            assert!(Blocks(list).all_parsed(), "{list:?}: a block does not parse");
        }
        let count = |list: List| TABLE.iter().filter(|(_, l)| l[list as usize]).count();
        // As many as each program's source lists.
        assert_eq!(
            [
                List::ConsulPrivate,
                List::Rfc6890,
                List::NotForwardable,
                List::CiliumPrivate
            ]
            .map(count),
            [8, 25, 15, 21]
        );
        let ip = |s: &str| s.parse::<IpAddr>().expect("ip");
        assert!(Blocks(List::ConsulPrivate).contains(ip("10.1.2.3")));
        assert!(!Blocks(List::ConsulPrivate).contains(ip("11.1.2.3")));
        assert!(Blocks(List::Rfc6890).holds(ip("10.1.2.0"), 24));
        assert!(!Blocks(List::Rfc6890).holds(ip("10.0.0.0"), 7));
    }
}
