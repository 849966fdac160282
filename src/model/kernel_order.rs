//! Where the Linux kernel puts a new link or address in its lists, which is
//! the order every dump (and so every program) sees.
//!
//! Contract: pure functions over ordered slices; no state. Restated from
//! net/ipv4/devinet.c (`__inet_insert_ifa`, `__inet_del_ifa`),
//! net/ipv6/addrconf.c (`ipv6_link_dev_addr`) and net/core/dev.c /
//! rtnetlink.c (device walk order before and after the 6.9 xarray change),
//! checked against Debian's 6.1 and 6.12 kernels (`fixtures/kernels/`).

use std::net::{IpAddr, Ipv6Addr};

use super::entries::{AddrEntry, LinkEntry};
use super::prefix::{v4 as v4_bits, v4_mask};

/// The order a link dump walks devices in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkOrder {
    /// Ascending ifindex (kernels ≥ 6.9, xarray walk).
    Ascending,
    /// Hash buckets `ifindex & 255` in order, newest device first within a
    /// bucket (kernels ≤ 6.8).
    Buckets,
}

fn bucket(index: u32) -> u32 {
    index & 255
}

/// A kernel release, as far as the rules that differ between releases care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct KernelVersion {
    major: u32,
    minor: u32,
    /// The stable release (`4.19.171`), where the text gives one; not
    /// where a distribution's ABI number stands in its place
    /// (`6.1.0-50-amd64`, `5.4.0-150-generic`).
    #[serde(skip)]
    patch: Option<u32>,
}

/// How a release makes a device's `ff00::/8` route in table local
/// (`addrconf_add_mroute`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MulticastRouteForm {
    /// `multicast`, protocol kernel: upstream since 5.11 (a826b04303a4
    /// "ipv6: create multicast route with RTPROT_KERNEL" and ceed9038b278
    /// "ipv6: set multicast flag on the multicast route"), and the
    /// 4.19.171 and 5.4.93 stable releases, which took both.
    Multicast,
    /// Unicast, protocol kernel: 4.9.254 and 4.14.218 took only the
    /// protocol change (their `fib6_config` has no type).
    UnicastKernel,
    /// Unicast, protocol boot (the default `ip6_route_add` gives a route
    /// added without a protocol): every release before those.
    UnicastBoot,
}

impl KernelVersion {
    /// Whether the prefix route of an IPv6 address with a finite lifetime
    /// (SLAAC, DHCPv6, `valid_lft`) is gone, as far as a capture without
    /// route notifications can tell, when the address is: the route keeps
    /// its own expiry (the address's lifetime when it was made), and 6.12
    /// removes an expired route within a second (a route listener sees its
    /// RTM_DELROUTE then), while 6.1 keeps dumping it, expired, until the
    /// garbage collector runs. Taken from 6.6 on; with a route listener the
    /// model waits for the route's own deletion instead.
    pub fn prefix_route_goes_with_any_address(self) -> bool {
        (self.major, self.minor) >= (6, 6)
    }

    /// Whether `rtnl_getlink` runs the device's pending linkwatch event
    /// before it answers (`linkwatch_sync_dev`, from "net: core:
    /// synchronize link-watch when carrier is queried", December 2023): a
    /// GETLINK for one device then brings its operational state up to date.
    /// 6.12 does, 6.1 does not; 6.7, the release that change was written
    /// for, is taken as the first, unchecked.
    pub fn getlink_syncs_linkwatch(self) -> bool {
        (self.major, self.minor) >= (6, 7)
    }

    /// Whether a device without carrier whose IFLA_LINK names another
    /// device is LOWERLAYERDOWN only when that device is in its namespace
    /// without carrier, DOWN otherwise (`default_operstate` since "net:
    /// linkwatch: only report IF_OPER_LOWERLAYERDOWN if iflink is actually
    /// down", 6.11); before, any other iflink made it LOWERLAYERDOWN (a
    /// veth whose peer is in another namespace). 6.12 does, 6.1 does not.
    pub fn operstate_checks_iflink_device(self) -> bool {
        (self.major, self.minor) >= (6, 11)
    }

    /// The form of the `ff00::/8` route this release makes; `None` for a
    /// stable series that changed it part way when the text gives no
    /// stable release (4.9, 4.14, 4.19, 5.4), and for 5.10, whose stable
    /// releases nobody here checked.
    pub fn multicast_route_form(self) -> Option<MulticastRouteForm> {
        let since = |first: u32| self.patch.map(|p| p >= first);
        let form = |changed: Option<bool>, after: MulticastRouteForm| {
            changed.map(|c| if c { after } else { MulticastRouteForm::UnicastBoot })
        };
        match (self.major, self.minor) {
            v if v >= (5, 11) => Some(MulticastRouteForm::Multicast),
            (5, 10) => None,
            (5, 4) => form(since(93), MulticastRouteForm::Multicast),
            (4, 19) => form(since(171), MulticastRouteForm::Multicast),
            (4, 14) => form(since(218), MulticastRouteForm::UnicastKernel),
            (4, 9) => form(since(254), MulticastRouteForm::UnicastKernel),
            _ => Some(MulticastRouteForm::UnicastBoot),
        }
    }

    /// The device walk order of this release's link dumps (the xarray walk
    /// came with 6.9).
    pub fn link_order(self) -> LinkOrder {
        if (self.major, self.minor) >= (6, 9) {
            LinkOrder::Ascending
        } else {
            LinkOrder::Buckets
        }
    }
}

impl std::fmt::Display for KernelVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl std::str::FromStr for KernelVersion {
    type Err = crate::bad_value::BadValue;

    /// `6.12`, `6.1.0-50-amd64` (`uname -r`), `Linux 6.12.117+deb12-amd64`
    /// (a pcapng section header's `shb_os`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let t = t.strip_prefix("Linux ").unwrap_or(t);
        let bad =
            || crate::bad_value::BadValue::new(s, "not a kernel release (expected e.g. 6.1 or 6.12.117+deb12-amd64)");
        let (major, rest) = t.split_once('.').ok_or_else(bad)?;
        let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let (minor, tail) = rest.split_at(end);
        // what follows the minor number: nothing, or a separator (`.117`, `-50-amd64`, `+deb12`)
        if !tail.is_empty() && !tail.starts_with(['.', '-', '+', '_', '~']) {
            return Err(bad());
        }
        // `.117` is a stable release; `.0-50-amd64` a distribution's ABI number
        let patch = tail.strip_prefix('.').and_then(|p| {
            let end = p.find(|c: char| !c.is_ascii_digit()).unwrap_or(p.len());
            let (n, after) = p.split_at(end);
            let n: u32 = n.parse().ok()?;
            (n != 0 || after.is_empty()).then_some(n)
        });
        match (major.parse(), minor.parse()) {
            (Ok(major), Ok(minor)) => Ok(KernelVersion { major, minor, patch }),
            _ => Err(bad()),
        }
    }
}

/// Where a link that is not in `links` goes.
pub fn link_insert_position(links: &[LinkEntry], index: u32, order: LinkOrder) -> usize {
    match order {
        LinkOrder::Ascending => links.iter().position(|l| l.index > index).unwrap_or(links.len()),
        // First entry of the same or a later bucket: the newest device heads its bucket.
        LinkOrder::Buckets => links
            .iter()
            .position(|l| bucket(l.index) >= bucket(index))
            .unwrap_or(links.len()),
    }
}

/// What a link dump's ifindex sequence says about the kernel's walk order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum OrderEvidence {
    /// Only one of the two orders fits; the text says why.
    Decided(LinkOrder, String),
    /// Both fit (every ifindex below 256 and ascending).
    Ambiguous,
    /// Neither fits (a filtered or inconsistent dump).
    Neither(String),
}

/// Each ifindex with the one listed after it.
fn neighbours(indices: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
    indices.iter().copied().zip(indices.iter().copied().skip(1))
}

/// Which walk orders a link dump's ifindex sequence fits.
pub(super) fn infer_link_order(indices: &[u32]) -> OrderEvidence {
    let ascending = neighbours(indices).all(|(a, b)| a < b);
    let buckets = neighbours(indices).all(|(a, b)| bucket(a) <= bucket(b));
    match (ascending, buckets) {
        (true, true) => OrderEvidence::Ambiguous,
        (true, false) => {
            let w = neighbours(indices)
                .find(|&(a, b)| bucket(a) > bucket(b))
                .unwrap_or_default();
            OrderEvidence::Decided(
                LinkOrder::Ascending,
                format!(
                    "ifindex {} listed before {} (buckets {} and {})",
                    w.0,
                    w.1,
                    bucket(w.0),
                    bucket(w.1)
                ),
            )
        }
        (false, true) => {
            let w = neighbours(indices).find(|&(a, b)| a > b).unwrap_or_default();
            OrderEvidence::Decided(
                LinkOrder::Buckets,
                format!(
                    "ifindex {} listed before {} ({} & 255 = {})",
                    w.0,
                    w.1,
                    w.0,
                    bucket(w.0)
                ),
            )
        }
        (false, false) => {
            let w = neighbours(indices).find(|&(a, b)| a > b).unwrap_or_default();
            OrderEvidence::Neither(format!("ifindex {} listed before {}", w.0, w.1))
        }
    }
}

/// `ifa_address` in the kernel's sense: the peer on point-to-point links.
fn ifa_address(a: &AddrEntry) -> IpAddr {
    a.peer.unwrap_or(a.address)
}

/// `inet_ifa_match` with equal masks: `other` lies in `a`'s subnet.
pub fn same_ipv4_subnet(a: &AddrEntry, other: &AddrEntry) -> bool {
    a.prefix_len == other.prefix_len && {
        let m = v4_mask(a.prefix_len);
        (v4_bits(ifa_address(a)) ^ v4_bits(ifa_address(other))) & m == 0
    }
}

/// Where `__inet_insert_ifa` links a new IPv4 address into the device's
/// list: a secondary at the tail; a primary right after the last primary
/// whose scope is numerically ≥ its own (host 254, link 253, universe 0),
/// or at the head. All primaries thus precede all secondaries.
pub fn ipv4_insert_position(list: &[AddrEntry], new: &AddrEntry) -> usize {
    if new.is_secondary() {
        return list.len();
    }
    let mut pos = 0;
    for (i, e) in list.iter().enumerate() {
        if !e.is_secondary() && new.scope <= e.scope {
            pos = i + 1;
        }
    }
    pos
}

/// Whether the kernel would make `new` a secondary of an address in `list`.
pub fn ipv4_would_be_secondary(list: &[AddrEntry], new: &AddrEntry) -> bool {
    list.iter()
        .any(|e| same_ipv4_subnet(e, new) && e.address != new.address)
}

/// When primary `list[deleted]` goes and `promote_secondaries` is on: the
/// secondary that is promoted (the first of its subnet after the deleted
/// one) as `(from, to)`: remove the entry at `from` from the list that no
/// longer holds the deleted address, and insert it back at `to`.
///
/// The promoted address goes just after the last primary between the
/// deleted one and itself whose scope is ≥ the deleted one's, or into the
/// deleted address's slot when there is none (kernels since the 2023 fix
/// "net: ipv4: fix one memleak in __inet_del_ifa()"; older kernels could
/// lose the promoted address from the list in that case).
pub fn ipv4_promotion(list: &[AddrEntry], deleted: usize) -> Option<(usize, usize)> {
    let gone = list.get(deleted)?;
    if gone.is_secondary() {
        return None;
    }
    let mut slot = deleted;
    for (i, e) in list.iter().enumerate().skip(deleted + 1) {
        if !e.is_secondary() && gone.scope <= e.scope {
            // just after e, whose index drops by one once `deleted` is gone
            slot = i;
        }
        if e.is_secondary() && same_ipv4_subnet(gone, e) {
            return Some((i - 1, slot));
        }
    }
    None
}

/// `ipv6_addr_src_scope`: node 1, link 2, site 5, global 14.
pub fn ipv6_src_scope(ip: &Ipv6Addr) -> u8 {
    let s = ip.segments();
    if ip.is_loopback() || (s[0] & 0xffc0) == 0xfe80 {
        2
    } else if (s[0] & 0xffc0) == 0xfec0 {
        5
    } else if ip.is_multicast() {
        (s[0] & 0x000f) as u8
    } else {
        14
    }
}

fn v6_scope(a: &AddrEntry) -> u8 {
    match a.address {
        IpAddr::V6(v6) => ipv6_src_scope(&v6),
        IpAddr::V4(_) => 14,
    }
}

/// Where `ipv6_link_dev_addr` links a new IPv6 address: before the first
/// entry whose scope is ≤ its own, so the list runs widest scope first and
/// newest first within a scope.
pub fn ipv6_insert_position(list: &[AddrEntry], new: &AddrEntry) -> usize {
    let scope = v6_scope(new);
    list.iter().position(|e| v6_scope(e) <= scope).unwrap_or(list.len())
}

#[cfg(test)]
#[path = "kernel_order_tests.rs"]
mod tests;
