//! The `dev_id` of an ipvlan (drivers/net/ipvlan/ipvlan_main.c,
//! `ipvlan_link_new`, alike in 6.1 and 6.12): the ipvlans of one lower
//! device share its MAC, so each takes a 16-bit id from the lower's port,
//! and `addrconf_ifid_eui48` (net/ipv6/addrconf.c; include/net/addrconf.h
//! in later trees, the same rule) puts a non-zero
//! `dev_id` in place of `ff:fe` in the EUI-64 link-local address, without
//! inverting the universal/local bit. The port hands out the lowest free
//! id from `dev_id_start` on (below 0xfffe, wrapping round to 1 when none
//! is left) and moves `dev_id_start` past it: an id freed by a deleted
//! ipvlan is not reused before the count wraps. The port is made with the
//! first ipvlan (start 1) and freed with the last.
//!
//! Seen on Debian's 6.1.0-50 and 6.12.117 (`fixtures/daemons/`
//! `ipvlan-mtu`): ipv0 took 1, ipv1 2; ipv0 deleted, ipv2 took 3, and their
//! link-locals were `fe80::<mac[0..3]>:<id>:<mac[3..6]>`, u/l bit as in the
//! MAC.
//!
//! The port's history is known only where the model saw the port made: its
//! lower device created during the capture, or a complete link dump showing
//! no ipvlan on it. An ipvlan made in another namespace on a lower device
//! here takes an id too, and one deleted there leaves no message: after
//! one, the port's ids are unknown. An unknown id makes an unknown
//! link-local address (said, never invented).
//!
//! Contract: plain data: one lower device's port and its allocation;
//! `ipvlan_dev_id` keeps the ports of a model (`Model::ipvlan_registered`,
//! `Model::ipvlan_gone`) and answers a device's id (`Model::ipvlan_dev_id`:
//! `Some(0)` for any other kind of device, `None` when unknown).

use std::collections::BTreeSet;

/// `dev_id` values an ipvlan port hands out: 1 to 0xfffd (0xfffe is the
/// lower device's own, the range's end is exclusive).
const FIRST: u16 = 1;
const END: u16 = 0xfffe;

/// One lower device's ipvlan port, as far as the capture shows it.
#[derive(Debug, Clone, Default)]
pub(super) struct IpvlanPort {
    /// Its ids and the next start are known (the port was seen made).
    pub(super) known: bool,
    /// `dev_id_start`.
    start: u16,
    /// The ids held, by ifindex of the ipvlan here.
    pub(super) used: BTreeSet<(u16, u32)>,
}

impl IpvlanPort {
    pub(super) fn fresh() -> Self {
        IpvlanPort {
            known: true,
            start: FIRST,
            used: BTreeSet::new(),
        }
    }

    pub(super) fn unknown() -> Self {
        IpvlanPort::default()
    }

    fn taken(&self, id: u16) -> bool {
        self.used.iter().any(|&(u, _)| u == id)
    }

    /// `ida_simple_get(start, 0xfffe)`, else `(1, start)`; then
    /// `dev_id_start` moves past the id.
    pub(super) fn allocate(&mut self, index: u32) -> Option<u16> {
        if self.start >= END {
            self.start = FIRST;
        }
        let id = (self.start..END).chain(FIRST..self.start).find(|&i| !self.taken(i))?;
        self.used.insert((id, index));
        self.start = id.saturating_add(1);
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::IpvlanPort;

    #[test]
    fn ids_are_not_reused_before_the_count_wraps() {
        let mut p = IpvlanPort::fresh();
        assert_eq!(p.allocate(4), Some(1));
        assert_eq!(p.allocate(5), Some(2));
        p.used.retain(|&(_, i)| i != 4);
        // ipv0 (1) deleted: the next one takes 3, as on 6.1 and 6.12
        assert_eq!(p.allocate(6), Some(3));
    }

    #[test]
    fn at_the_end_the_count_wraps_to_the_lowest_free_id() {
        let mut p = IpvlanPort::fresh();
        p.start = 0xfffd;
        p.used.insert((1, 9));
        assert_eq!(p.allocate(10), Some(0xfffd));
        assert_eq!(p.allocate(11), Some(2));
    }
}
