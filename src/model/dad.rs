//! Duplicate address detection under way (`addrconf_dad_*`): the
//! addresses waiting for theirs to end, in the order they started.
//!
//! Contract: bookkeeping only, no rule: which address starts DAD, when
//! one ends and what ending it adds are `address_rules`'. An address
//! is looked up through an index (a node bringing up a thousand veths has
//! a thousand under way), and whether any can have run its time is known
//! from when the oldest started.

use std::net::IpAddr;

/// The longest duplicate address detection takes with the kernel's defaults
/// (a random delay below `rtr_solicit_delay`, 1 s, then `dad_transmits`, 1,
/// probe of `retrans_time`, 1 s).
pub(super) const DAD_NANOS: i128 = 2_000_000_000;

/// Duplicate address detection under way for an address.
#[derive(Debug, Clone)]
pub(super) struct PendingDad {
    pub index: u32,
    pub address: IpAddr,
    pub started: Option<crate::capture::Timestamp>,
    pub packet: u64,
    /// Known from a dump that showed the address tentative: it began at
    /// `started` at the latest.
    pub from_dump: bool,
}

/// Duplicate address detection under way, in the order it started, with
/// an index of the addresses (a node bringing up a thousand veths has a
/// thousand under way at once) and when the oldest started.
#[derive(Debug, Default)]
pub(super) struct PendingDads {
    queue: Vec<PendingDad>,
    under_way: rustc_hash::FxHashSet<(u32, IpAddr)>,
    /// When the oldest started (none may have run its time before then;
    /// it may be older than any left, never younger).
    oldest: Option<i128>,
}

impl PendingDads {
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub(super) fn contains(&self, index: u32, address: IpAddr) -> bool {
        self.under_way.contains(&(index, address))
    }

    pub(super) fn start(&mut self, d: PendingDad) {
        if let Some(t) = d.started {
            let t = t.as_nanos();
            self.oldest = Some(self.oldest.map_or(t, |o| o.min(t)));
        }
        self.under_way.insert((d.index, d.address));
        self.queue.push(d);
    }

    /// Drops those `gone` selects (their address or device went).
    pub(super) fn cancel(&mut self, gone: impl Fn(&PendingDad) -> bool) {
        if self.queue.iter().any(&gone) {
            self.queue.retain(|d| !gone(d));
            self.under_way = self.queue.iter().map(|d| (d.index, d.address)).collect();
        }
    }

    /// Whether none can have run its time by `now` (none with a start
    /// time ever does: a DAD known from a dump alone ends by a message).
    pub(super) fn none_over_by(&self, now: crate::capture::Timestamp) -> bool {
        self.oldest.is_none_or(|o| now.as_nanos() - o < DAD_NANOS)
    }

    /// Those still under way, in the order they started.
    pub fn under_way(&self) -> impl Iterator<Item = &PendingDad> {
        self.queue.iter()
    }

    /// Takes out the DAD of one address (what its notification ends):
    /// one pass over those under way, nothing moved but what is taken.
    pub(super) fn take_address(&mut self, index: u32, address: IpAddr) -> Vec<PendingDad> {
        let mut taken = Vec::new();
        if self.under_way.remove(&(index, address)) {
            let mut i = 0;
            while let Some(d) = self.queue.get(i) {
                if (d.index, d.address) == (index, address) {
                    taken.push(self.queue.remove(i));
                } else {
                    i += 1;
                }
            }
        }
        taken
    }

    /// Takes out those `over` selects, in the order they started.
    pub(super) fn take(&mut self, over: impl Fn(&PendingDad) -> bool) -> Vec<PendingDad> {
        let (finished, waiting): (Vec<PendingDad>, Vec<PendingDad>) =
            std::mem::take(&mut self.queue).into_iter().partition(over);
        self.queue = waiting;
        for d in &finished {
            self.under_way.remove(&(d.index, d.address));
        }
        self.oldest = self.queue.iter().filter_map(|d| d.started).map(|t| t.as_nanos()).min();
        finished
    }
}
