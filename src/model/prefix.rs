//! Prefixes and masks: the one place that turns addresses into bits.
//!
//! Contract: pure functions. An address is widened to 128 bits with IPv4
//! in the top 32 (so IPv4 and IPv6 prefixes compare the same way, bit 127
//! first); a prefix length beyond the family's width means the whole
//! address. Masking an address to a prefix is `ipnet`'s `trunc`.

use std::net::IpAddr;

use ipnet::IpNet;

/// An address as 128 bits, IPv4 in the top 32; `None` (no destination: a
/// default route) is all zeros.
pub fn bits(ip: Option<IpAddr>) -> u128 {
    match ip {
        Some(IpAddr::V4(v4)) => u128::from(u32::from(v4)) << 96,
        Some(IpAddr::V6(v6)) => u128::from(v6),
        None => 0,
    }
}

/// The mask of a prefix length over [`bits`] (IPv4 and IPv6 alike).
pub fn mask(len: u8) -> u128 {
    match len {
        0 => 0,
        l if l >= 128 => u128::MAX,
        l => u128::MAX << (128 - u32::from(l)),
    }
}

/// The address width of a family's addresses, in bits.
pub fn width(ip: IpAddr) -> u8 {
    if ip.is_ipv4() { 32 } else { 128 }
}

/// The network address of `ip/len` (`10.1.2.3/8` → `10.0.0.0`); a length
/// beyond the width keeps the whole address.
pub fn network(ip: IpAddr, len: u8) -> IpAddr {
    IpNet::new(ip, len.min(width(ip))).map_or(ip, |n| n.trunc().addr())
}

/// Whether `ip` lies in `net/len` (always false across families).
pub fn contains(net: IpAddr, len: u8, ip: IpAddr) -> bool {
    net.is_ipv4() == ip.is_ipv4() && (bits(Some(net)) ^ bits(Some(ip))) & mask(len.min(width(ip))) == 0
}

/// The IPv4 address as a number (0 for IPv6).
pub fn v4(ip: IpAddr) -> u32 {
    match ip {
        IpAddr::V4(a) => u32::from(a),
        IpAddr::V6(_) => 0,
    }
}

/// An IPv4 netmask of `len` bits.
pub fn v4_mask(len: u8) -> u32 {
    (mask(len.min(32)) >> 96) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap() // ok: a literal in a unit test
    }

    #[test]
    fn masks_and_networks() {
        assert_eq!(v4_mask(0), 0);
        assert_eq!(v4_mask(24), 0xffff_ff00);
        assert_eq!(v4_mask(32), u32::MAX);
        assert_eq!(v4_mask(40), u32::MAX);
        assert_eq!(network(ip("10.1.2.3"), 8), ip("10.0.0.0"));
        assert_eq!(network(ip("2001:db8::1"), 64), ip("2001:db8::"));
        assert_eq!(network(ip("10.1.2.3"), 200), ip("10.1.2.3"));
        assert!(contains(ip("10.0.0.0"), 8, ip("10.9.9.9")));
        assert!(!contains(ip("10.0.0.0"), 8, ip("11.0.0.1")));
        assert!(!contains(ip("::"), 0, ip("10.0.0.1")));
        assert!(contains(ip("0.0.0.0"), 0, ip("10.0.0.1")));
    }
}
