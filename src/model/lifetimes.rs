//! Addresses with a finite valid lifetime (DHCP leases, SLAAC): when each
//! one's lifetime ends, as the last message that showed it implies.
//!
//! Contract: [`note`](Lifetimes::note) records what a message says of an
//! address's valid lifetime (`IFA_CACHEINFO`: the seconds left at that
//! message; `u32::MAX` is forever), the newest message winning;
//! [`due`](Lifetimes::due) hands back, once each, the addresses whose
//! lifetime has ended by a moment, oldest first. The kernel then deletes
//! them itself (`check_lifetime` for IPv4, `addrconf_verify` for IPv6),
//! with a notification only for those who listen; whether the model
//! still holds the address is the caller's to check. Costs O(log n) per
//! message that carries a lifetime; nothing is scanned.

use std::collections::BTreeSet;
use std::net::IpAddr;

use crate::netlink::values::AddressFamily;
use rustc_hash::FxHashMap;

/// An address's identity (see `AddrEntry::key`).
pub(super) type AddrKey = (u32, AddressFamily, IpAddr, u8);

/// Nanoseconds since the epoch, as capture timestamps are.
pub(super) type Nanos = u64;

/// The lifetimes noted, by when they end.
#[derive(Debug, Default, Clone)]
pub(super) struct Lifetimes {
    /// (end, address) for every lifetime noted, newest or not.
    ends: BTreeSet<(Nanos, AddrKey)>,
    /// The end the newest message implies, per address.
    newest: FxHashMap<AddrKey, Nanos>,
}

impl Lifetimes {
    /// A message at `at` says `key` is valid for `valid` more seconds.
    pub fn note(&mut self, key: AddrKey, at: Nanos, valid: u32) {
        // (most addresses are forever, and none has an end to forget then:
        // the key is not hashed)
        if valid == u32::MAX && self.newest.is_empty() {
            return;
        }
        if let Some(old) = self.newest.remove(&key) {
            self.ends.remove(&(old, key));
        }
        if valid == u32::MAX {
            return;
        }
        let end = at.saturating_add(u64::from(valid).saturating_mul(1_000_000_000));
        self.ends.insert((end, key));
        self.newest.insert(key, end);
    }

    /// The address is gone: its lifetime no longer matters.
    pub fn forget(&mut self, key: &AddrKey) {
        if let Some(old) = self.newest.remove(key) {
            self.ends.remove(&(old, *key));
        }
    }

    /// The addresses whose lifetime ended at or before `now`, with when,
    /// oldest first; each is handed back once.
    pub fn due(&mut self, now: Nanos) -> Vec<(Nanos, AddrKey)> {
        let mut out = Vec::new();
        while let Some(&(end, key)) = self.ends.first() {
            if end > now {
                break;
            }
            self.ends.pop_first();
            self.newest.remove(&key);
            out.push((end, key));
        }
        out
    }

    /// The addresses still waiting for their end, soonest first.
    pub fn pending(&self) -> impl Iterator<Item = (Nanos, AddrKey)> + '_ {
        self.ends.iter().copied()
    }

    /// Whether any lifetime is waiting (a cheap test before [`due`](Self::due)).
    pub fn next_end(&self) -> Option<Nanos> {
        self.ends.first().map(|e| e.0)
    }
}

/// A capture timestamp in nanoseconds since the epoch (0 before it).
pub(super) fn nanos(t: crate::capture::Timestamp) -> u64 {
    u64::try_from(t.as_nanos()).unwrap_or(0)
}

/// The capture timestamp of a moment in nanoseconds since the epoch.
pub(super) fn timestamp(n: u64) -> crate::capture::Timestamp {
    crate::capture::Timestamp {
        secs: i64::try_from(n / 1_000_000_000).unwrap_or(i64::MAX),
        nanos: (n % 1_000_000_000) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(last: u8) -> AddrKey {
        (2, AddressFamily::Inet, IpAddr::from([10, 7, 0, last]), 24)
    }

    #[test]
    fn the_newest_message_decides_and_forever_clears() {
        let mut l = Lifetimes::default();
        l.note(key(1), 0, 120);
        l.note(key(2), 0, 60);
        // renewed: the old end no longer counts
        l.note(key(1), 50_000_000_000, 120);
        assert_eq!(l.due(119_000_000_000), vec![(60_000_000_000, key(2))]);
        assert_eq!(l.due(169_000_000_000), vec![]);
        assert_eq!(l.due(170_000_000_000), vec![(170_000_000_000, key(1))]);
        l.note(key(3), 0, 10);
        l.note(key(3), 1, u32::MAX);
        assert_eq!(l.next_end(), None);
        l.note(key(4), 0, 10);
        l.forget(&key(4));
        assert_eq!(l.due(u64::MAX), vec![]);
    }
}
