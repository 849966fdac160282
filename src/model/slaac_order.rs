//! Where addresses made from router advertisements go in a device's list
//! (`addrconf_prefix_rcv`, `manage_tempaddrs`, `ipv6_link_dev_addr` in
//! net/ipv6/addrconf.c): for each prefix of an advertisement, in its
//! order, the kernel adds the prefix route (notified at once), makes the
//! public address, then its temporary one; both are notified only when
//! their duplicate address detection ends, in whatever order the random
//! DAD delays give. The list runs newest first within a scope by creation,
//! so `ip -j` shows, per prefix, temporary then public, the latest prefix
//! first (seen on 6.1 and 6.12, `fixtures/daemons/` `slaac-temp`).
//!
//! Contract: the creation order of such an address (notified, not
//! permanent) is taken from the record where the model first met its
//! prefix's route (`proto kernel`, notified) on the same device (the public address before its temporary one); an address
//! whose prefix route no message showed keeps the default place (newest
//! first by notification), and its device is marked: the order of its
//! addresses is then the notifications', which no message confirms.

use std::net::{IpAddr, Ipv6Addr};

use super::entries::Origin;
use super::entries::{AddrEntry, RouteEntry};
use super::state::Model;
use crate::netlink::names::{IFA_F_PERMANENT, IFA_F_TEMPORARY};
use crate::netlink::values::{AddressFamily, RouteType};

fn prefix64(a: IpAddr) -> Option<Ipv6Addr> {
    match a {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            Some(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        IpAddr::V4(_) => None,
    }
}

impl Model {
    /// A notified /64 route (an advertised prefix's is `proto kernel`):
    /// when the addresses of that prefix were made, if an advertisement
    /// made them (the first time it is met).
    pub(super) fn note_ra_prefix(&mut self, r: &RouteEntry, packet: u64) {
        if r.family != AddressFamily::Inet6 || r.dst_len != 64 || r.kind != RouteType::Unicast {
            return;
        }
        let (Some(dst), Some(oif)) = (r.dst.and_then(prefix64), r.oif) else {
            return;
        };
        self.ra_prefixes.entry((oif, dst)).or_insert(packet);
    }

    /// Whether an address looks made from an advertisement: IPv6, /64, not
    /// permanent, met in a notification (not a dump, a request or a rule).
    fn advertised(a: &AddrEntry) -> bool {
        a.family == AddressFamily::Inet6
            && a.prefix_len == 64
            && a.flags & IFA_F_PERMANENT == 0
            && !matches!(a.origin, Origin::Dump(_) | Origin::Request(_) | Origin::KernelRule(..))
    }

    /// The creation key of an address made from an advertisement (not
    /// permanent, not asked for: twice the record of its prefix route, plus
    /// one for a temporary address), `None` for others.
    fn slaac_created(&self, a: &AddrEntry) -> Option<u64> {
        if !Self::advertised(a) {
            return None;
        }
        let at = self.ra_prefixes.get(&(a.index, prefix64(a.address)?))?;
        Some(at * 2 + u64::from(a.flags & IFA_F_TEMPORARY != 0))
    }

    /// `pos`, the place of a new address by notification order, moved past
    /// the advertisement-made addresses created after it. An advertisement-made address whose prefix route no message showed,
    /// placed beside others of its scope, keeps the notification's place:
    /// the device is marked, so that answers reading the order say so.
    pub(super) fn slaac_position(&mut self, index: u32, new: &AddrEntry, pos: usize) -> usize {
        fn list(m: &Model, index: u32) -> &[AddrEntry] {
            m.addrs
                .get(&index)
                .map_or(&[][..], |d| d.list(AddressFamily::Inet6).as_slice())
        }
        let Some(created) = self.slaac_created(new) else {
            if Self::advertised(new) && list(self, index).iter().any(|e| e.scope == new.scope) {
                self.slaac_order_unshown.insert(index);
            }
            return pos;
        };
        let list = list(self, index);
        let mut at = pos;
        while let Some(e) = list.get(at) {
            match self.slaac_created(e) {
                Some(c) if c > created => at += 1,
                _ => break,
            }
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::prefix64;

    #[test]
    fn the_prefix_of_an_address_is_its_first_64_bits() {
        let a = "2001:db8:9:0:10f4:446a:2e7a:31c1".parse().ok();
        assert_eq!(a.and_then(prefix64), "2001:db8:9::".parse().ok());
        assert_eq!(prefix64(std::net::IpAddr::from([10, 0, 0, 1])), None);
    }
}
