//! Address blocks as a replayed program lists them (CIDR text in its
//! source's order), parsed once: Cilium's private ranges, Consul's private
//! blocks, go-sockaddr's RFC 6890 and forwarding-blacklist blocks.
//!
//! Contract: a leaf. `blocks!` declares a static list;
//! [`Blocks::contains`] says whether an address lies in one of them,
//! [`Blocks::holds`] whether a whole network does (go-sockaddr's
//! `Contains`). Every text must parse: the unit tests hold each list to it.

use std::net::IpAddr;
use std::sync::LazyLock;

use ipnet::IpNet;

/// A program's list of address blocks.
pub struct Blocks {
    texts: &'static [&'static str],
    nets: LazyLock<Vec<IpNet>>,
}

impl Blocks {
    /// The list `texts`, parsed by `parse` on first use.
    pub const fn new(texts: &'static [&'static str], parse: fn() -> Vec<IpNet>) -> Self {
        Blocks {
            texts,
            nets: LazyLock::new(parse),
        }
    }

    /// Whether `ip` lies in one of the blocks.
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.nets.iter().any(|n| n.contains(&ip))
    }

    /// Whether the network `ip/prefix_len` lies in one of the blocks (its
    /// address inside, its mask at least as long).
    pub fn holds(&self, ip: IpAddr, prefix_len: u8) -> bool {
        self.nets
            .iter()
            .any(|b| b.contains(&ip) && prefix_len >= b.prefix_len())
    }

    /// Whether every text parsed.
    pub fn all_parsed(&self) -> bool {
        self.nets.len() == self.texts.len()
    }
}

/// The parsed blocks of `texts` (one that does not parse is left out,
/// which [`Blocks::all_parsed`] reveals).
pub fn parse(texts: &[&str]) -> Vec<IpNet> {
    texts.iter().filter_map(|c| c.parse().ok()).collect()
}

/// `blocks!(NAME = ["10.0.0.0/8", ...]);` declares a static [`Blocks`].
macro_rules! blocks {
    ($(#[$m:meta])* $vis:vis $name:ident = [$($cidr:literal),* $(,)?]) => {
        $(#[$m])*
        $vis static $name: $crate::replay::blocks::Blocks = {
            const TEXTS: &[&str] = &[$($cidr),*];
            $crate::replay::blocks::Blocks::new(TEXTS, || $crate::replay::blocks::parse(TEXTS))
        };
    };
}
pub(crate) use blocks;

#[cfg(test)]
mod tests {
    use super::super::{cilium, consul, nomad};

    #[test]
    fn every_programs_blocks_parse_whole() {
        for (name, blocks) in [
            ("cilium", &cilium::PRIVATE),
            ("consul", &consul::PRIVATE),
            ("go-sockaddr 6890", &nomad::RFC6890),
            ("go-sockaddr blacklist", &nomad::NOT_FORWARDABLE),
        ] {
            assert!(blocks.all_parsed(), "{name}: a block does not parse");
        }
        // A typo is seen, not silently dropped.
        super::blocks!(TYPO = ["10.0.0.0/8", "10.0.0/33"]);
        assert!(!TYPO.all_parsed());
        assert!(TYPO.contains("10.1.2.3".parse().expect("ip"))); // ok: a test
        assert!(!TYPO.holds("10.1.2.3".parse().expect("ip"), 7)); // ok: a test
    }
}
