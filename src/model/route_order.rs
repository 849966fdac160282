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

use super::entries::RouteEntry;
use super::prefix::{bits, mask};

/// IPv6 radix-tree walk order of two prefixes given as masked bits and
/// length (post-order, 0 branch first).
pub(super) fn v6_walk(ka: u128, a_len: u8, kb: u128, b_len: u8) -> Ordering {
    let diff = (ka ^ kb) & mask(a_len.min(b_len));
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
    b_len.cmp(&a_len)
}

fn v6_tree(a: &RouteEntry, b: &RouteEntry) -> Ordering {
    let (ka, kb) = (bits(a.dst) & mask(a.dst_len), bits(b.dst) & mask(b.dst_len));
    v6_walk(ka, a.dst_len, kb, b.dst_len)
}

/// Dump order of two routes.
pub fn dump_order(a: &RouteEntry, b: &RouteEntry) -> Ordering {
    a.family
        .cmp(&b.family)
        .then_with(|| (u32::from(a.table) & 255).cmp(&(u32::from(b.table) & 255)))
        .then_with(|| a.table.cmp(&b.table))
        .then_with(|| {
            if a.family == crate::netlink::values::AddressFamily::Inet6 {
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
