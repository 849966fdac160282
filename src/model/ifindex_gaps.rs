//! Devices the kernel registered in the namespace that no message shows,
//! found by the ifindexes of the devices made during the capture.
//!
//! A new device takes the next free ifindex after the one the namespace
//! allocated last (`dev_new_index`: `net->ifindex` on 6.1, the cyclic
//! allocation of 6.6 and later), so two devices made one after the other
//! during the capture whose ifindexes are not consecutive say that devices
//! were registered between them. Where no message shows those, the likely
//! cause is a module load: a tunnel module makes its fallback devices in
//! every namespace as it loads (`ip_tunnel_init_net` for `ipip` (tunl0),
//! `sit` (sit0), `ip_gre` (gre0, gretap0, erspan0, in that order), `ip_vti`
//! (ip_vti0); `ip6_tunnel` (ip6tnl0), `ip6_gre` (ip6gre0) and `ip6_vti`
//! (ip6_vti0), the last two after `ip6_tunnel`'s, which they need), unless
//! `net.core.fb_tunnels_only_for_init_net` keeps them to the initial
//! namespace, and `ip link add ... type KIND` loads the module of its kind
//! first. A module already loaded makes none; devices made without netlink
//! (ioctls, tun/tap) or made and moved away unseen leave the same gap.
//!
//! Contract: bookkeeping of the devices made during the capture, in the
//! order the kernel allocated their ifindexes, and the gaps between them as
//! assumptions: named when the device made after the gap is of a tunnel
//! kind whose module's fallback devices are exactly as many as the gap,
//! as a count otherwise. A device of a tunnel kind asked for in a
//! namespace whose complete link dump showed none of its module's fallback
//! devices loads that module: the model gives them the next ifindexes
//! before the device's own and says so (they are not listed: no message
//! shows their state). What the capture shows (a device with an index in
//! the gap, now or before) closes it. A gap wider than every tunnel
//! module's fallback devices together is taken as an ifindex asked for.

use super::assumption::Assumption;

/// A device made during the capture: its ifindex (`assigned` while the
/// model numbered it itself), its kind, and the packet that showed it.
#[derive(Debug, Clone)]
struct Made {
    index: u32,
    assigned: bool,
    kind: Option<Box<[u8]>>,
    packet: u64,
}

/// The devices made during the capture, in the order they were made.
#[derive(Debug, Default)]
pub(super) struct Allocations {
    made: Vec<Made>,
    /// Every ifindex a link of the model had, made here or not.
    shown: std::collections::BTreeSet<u32>,
    /// Fallback devices the model took as made by a module load it
    /// predicted, with the ifindexes it gave them.
    loaded: Vec<Loaded>,
}

/// The fallback devices of a module load the model predicted: a device of
/// a tunnel kind made in a namespace whose complete link dump showed none
/// of them.
#[derive(Debug, Clone)]
struct Loaded {
    first: u32,
    names: Vec<&'static str>,
    kind: Box<[u8]>,
    packet: u64,
}

/// The most devices module loads make unseen between two of the capture's:
/// every tunnel module's fallback devices. A wider gap is no module's (an
/// ifindex asked for, `ip link add ... index N`, is not allocated in turn).
const MOST: u32 = 9;

/// The fallback devices a tunnel kind's module chain makes as it loads, in
/// the order it registers them: with the modules it needs that make their
/// own (`ip6_tunnel` for `ip6_gre` and `ip6_vti`) and without.
fn fallback_devices(kind: &[u8]) -> &'static [&'static [&'static str]] {
    match kind {
        b"ipip" => &[&["tunl0"]],
        b"sit" => &[&["sit0"]],
        b"gre" | b"gretap" | b"erspan" => &[&["gre0", "gretap0", "erspan0"]],
        b"vti" => &[&["ip_vti0"]],
        b"ip6tnl" => &[&["ip6tnl0"]],
        b"ip6gre" | b"ip6gretap" | b"ip6erspan" => &[&["ip6gre0"], &["ip6tnl0", "ip6gre0"]],
        b"vti6" => &[&["ip6_vti0"], &["ip6tnl0", "ip6_vti0"]],
        _ => &[],
    }
}

/// The fallback devices a device of `kind` makes appear, in the order of
/// their ifindexes, in a namespace that holds none of them but those
/// `present` names (a module already loaded made its own): the longest
/// chain of the kind's whose devices are all absent.
pub(super) fn module_devices(kind: &[u8], present: impl Fn(&str) -> bool) -> Option<&'static [&'static str]> {
    let chains = fallback_devices(kind);
    // (the kind's own module's devices: the last of each chain)
    let own = chains.first()?;
    if own.iter().any(|n| present(n)) {
        return None;
    }
    chains
        .iter()
        .filter(|c| c.iter().all(|n| !present(n)))
        .max_by_key(|c| c.len())
        .copied()
}

impl Allocations {
    /// A module load the model predicted: its fallback devices took the
    /// ifindexes from `first` on.
    pub(super) fn loaded(&mut self, first: u32, names: &'static [&'static str], kind: &[u8], packet: u64) {
        self.loaded.push(Loaded {
            first,
            names: names.to_vec(),
            kind: Box::from(kind),
            packet,
        });
    }

    /// Whether a predicted module load made a device of this name.
    pub(super) fn predicted(&self, name: &str) -> bool {
        self.loaded.iter().any(|l| l.names.contains(&name))
    }

    /// A device made during the capture, as first shown.
    pub(super) fn note(&mut self, index: u32, assigned: bool, kind: Option<&[u8]>, packet: u64) {
        if self.made.iter().any(|m| m.index == index) {
            return;
        }
        self.made.push(Made {
            index,
            assigned,
            kind: kind.map(Box::from),
            packet,
        });
    }

    /// A link the model holds has this ifindex.
    pub(super) fn shown(&mut self, index: u32) {
        self.shown.insert(index);
    }

    /// The device the model numbered `from` is `to` in the kernel.
    pub(super) fn reindex(&mut self, from: u32, to: u32) {
        if let Some(m) = self.made.iter_mut().find(|m| m.index == from) {
            m.index = to;
            m.assigned = false;
        }
        self.shown.insert(to);
    }

    /// The gaps between devices made one after the other, less the indexes
    /// `shown` says the capture showed.
    pub(super) fn gaps(&self, shown: impl Fn(u32) -> bool) -> Vec<Assumption> {
        let mut v = Vec::new();
        for l in &self.loaded {
            let unseen: Vec<(u32, &str)> = (l.first..)
                .zip(l.names.iter().copied())
                .filter(|(i, _)| !shown(*i) && !self.shown.contains(i))
                .collect();
            let (Some(&(from, _)), Some(&(to, _))) = (unseen.first(), unseen.last()) else {
                continue;
            };
            v.push(Assumption::UnseenDevices {
                from,
                to,
                count: unseen.len(),
                after_packet: l.packet,
                before_packet: l.packet,
                kind: Some(String::from_utf8_lossy(&l.kind).into_owned()),
                names: Some(unseen.iter().map(|(_, n)| (*n).to_owned()).collect()),
            });
        }
        for pair in self.made.windows(2) {
            let [a, b] = pair else { continue };
            let wide = b.index.saturating_sub(a.index);
            if a.assigned || b.assigned || !(2..=MOST + 1).contains(&wide) {
                continue;
            }
            let unseen: Vec<u32> = (a.index + 1..b.index)
                .filter(|i| !shown(*i) && !self.shown.contains(i))
                .collect();
            let (Some(&first), Some(&last)) = (unseen.first(), unseen.last()) else {
                continue;
            };
            let contiguous = usize::try_from(last - first + 1).is_ok_and(|n| n == unseen.len());
            let whole = unseen.len() == usize::try_from(b.index - a.index - 1).unwrap_or(0);
            let names = b
                .kind
                .as_deref()
                .map(fallback_devices)
                .unwrap_or_default()
                .iter()
                .find(|n| n.len() == unseen.len())
                .filter(|_| contiguous && whole)
                .map(|n| n.iter().map(|s| (*s).to_owned()).collect());
            v.push(Assumption::UnseenDevices {
                from: first,
                to: last,
                count: unseen.len(),
                after_packet: a.packet,
                before_packet: b.packet,
                kind: b.kind.as_deref().map(|k| String::from_utf8_lossy(k).into_owned()),
                names,
            });
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_s_module_load_makes_the_devices_not_there_yet() {
        let none = |_: &str| false;
        assert_eq!(module_devices(b"gre", none), Some(&["gre0", "gretap0", "erspan0"][..]));
        assert_eq!(module_devices(b"ip6gre", none), Some(&["ip6tnl0", "ip6gre0"][..]));
        // ip6_tunnel loaded already: ip6_gre's own device only
        assert_eq!(module_devices(b"ip6gre", |n| n == "ip6tnl0"), Some(&["ip6gre0"][..]));
        // the kind's own module loaded: nothing new
        assert_eq!(module_devices(b"sit", |n| n == "sit0"), None);
        assert_eq!(module_devices(b"vxlan", none), None);
    }

    #[test]
    fn a_gap_as_wide_as_the_module_s_fallback_devices_is_named() {
        let mut a = Allocations::default();
        a.note(3, false, Some(b"dummy"), 10);
        a.note(7, false, Some(b"gretap"), 20);
        let g = a.gaps(|_| false);
        assert!(
            matches!(&g[..], [Assumption::UnseenDevices { from: 4, to: 6, names: Some(n), .. }] if n == &["gre0", "gretap0", "erspan0"])
        );
        // ip6gre with ip6_tunnel loaded by it too
        let mut a = Allocations::default();
        a.note(2, false, None, 1);
        a.note(5, false, Some(b"ip6gre"), 2);
        let g = a.gaps(|_| false);
        assert!(matches!(&g[..], [Assumption::UnseenDevices { names: Some(n), .. }] if n == &["ip6tnl0", "ip6gre0"]));
        // wider than any module's: a count; what the capture showed closes it
        // (the one gap's count of unseen devices, when it names none)
        let counted = |g: &[Assumption]| match g {
            [Assumption::UnseenDevices { count, names: None, .. }] => Some(*count),
            _ => None,
        };
        let mut a = Allocations::default();
        a.note(3, false, None, 1);
        a.note(10, false, Some(b"ipip"), 2);
        assert_eq!(counted(&a.gaps(|i| i == 5)), Some(5));
        assert!(a.gaps(|i| (4..10).contains(&i)).is_empty());
        a.shown(4);
        assert_eq!(counted(&a.gaps(|i| i == 5)), Some(4));
        // an ifindex asked for: no module's gap
        let mut a = Allocations::default();
        a.note(3, false, None, 1);
        a.note(256, false, None, 2);
        assert!(a.gaps(|_| false).is_empty());
    }
}
