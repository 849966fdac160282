//! The order a route dump lists routes in, whether they were seen in a dump
//! or only inferred.
//!
//! Contract: a total order over routes, restated from the kernel's dump
//! walk (checked against real 6.1 and 6.12 dumps in the kernel matrix):
//! - families in AF number order (IPv4 before IPv6);
//! - tables by hash bucket (`id & 255`: table 100 before main 254 before
//!   local 255);
//! - IPv4 (`fib_table_dump` over the LC-trie): leaves by ascending network
//!   address; inside a leaf longer prefixes first, then higher tos, then
//!   lower metric; routes of one group (same prefix, tos, metric) in list
//!   order, which `RouteEntry::seq` keeps (append adds at the end of the
//!   group, prepend at its head);
//! - IPv6 (`fib6_walk` over the radix tree, children before their node, the
//!   0 branch before the 1 branch): a more specific prefix before the prefix
//!   that covers it, otherwise the prefix with a 0 at the first differing
//!   bit first; in one node by metric, then list order.

use std::cmp::Ordering;
use std::net::IpAddr;

use super::entries::RouteEntry;

fn bits(ip: Option<IpAddr>) -> u128 {
    match ip {
        Some(IpAddr::V4(v4)) => u128::from(u32::from(v4)) << 96,
        Some(IpAddr::V6(v6)) => u128::from(v6),
        None => 0,
    }
}

fn mask(len: u8) -> u128 {
    match len {
        0 => 0,
        l if l >= 128 => u128::MAX,
        l => u128::MAX << (128 - u32::from(l)),
    }
}

/// IPv6 radix-tree walk order of two prefixes (post-order, 0 branch first).
fn v6_tree(a: &RouteEntry, b: &RouteEntry) -> Ordering {
    let (ka, kb) = (bits(a.dst) & mask(a.dst_len), bits(b.dst) & mask(b.dst_len));
    let common = a.dst_len.min(b.dst_len);
    let diff = (ka ^ kb) & mask(common);
    if diff != 0 {
        // the branch with a 0 at the first differing bit is walked first
        let bit = 127 - diff.leading_zeros();
        return if ka >> bit & 1 == 0 {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    // one covers the other: the more specific (deeper) node is walked first
    b.dst_len.cmp(&a.dst_len)
}

/// Dump order of two routes.
pub fn dump_order(a: &RouteEntry, b: &RouteEntry) -> Ordering {
    a.family
        .cmp(&b.family)
        .then_with(|| (a.table & 255).cmp(&(b.table & 255)))
        .then_with(|| a.table.cmp(&b.table))
        .then_with(|| {
            if a.family == crate::netlink::names::AF_INET6 {
                v6_tree(a, b)
            } else {
                (bits(a.dst) & mask(a.dst_len))
                    .cmp(&(bits(b.dst) & mask(b.dst_len)))
                    .then_with(|| b.dst_len.cmp(&a.dst_len))
                    .then_with(|| b.tos.cmp(&a.tos))
            }
        })
        .then_with(|| a.priority.unwrap_or(0).cmp(&b.priority.unwrap_or(0)))
        .then_with(|| a.seq.cmp(&b.seq))
}

#[cfg(test)]
#[path = "route_order_tests.rs"]
mod tests;
