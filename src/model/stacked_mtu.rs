//! The MTU of devices stacked on another (`vlan_device_event` in
//! net/8021q/vlan.c, `macvlan_device_event` in drivers/net/macvlan.c, at
//! NETDEV_CHANGEMTU of the lower device, alike in 6.1 and 6.12): a VLAN,
//! macvlan or macvtap whose MTU is above its lower device's new MTU gets
//! the lower's (`dev_set_mtu`, a change of its own with its own
//! consequences: below 1280 its IPv6 goes); one at or below it keeps its
//! own, so raising the lower device again never raises them. ipvlan copies
//! the lower's MTU both ways without a notifier (`ipvlan_adjust_mtu`): no
//! message shows it and IPv6 stays on, even below 1280 (seen on 6.1 and
//! 6.12, `fixtures/daemons/` `ipvlan-mtu`: the device's `silent_mtu`).
//!
//! Contract: changes only the MTU of the stacked devices' entries and
//! returns the devices whose change is notified (for the caller to run
//! their reactions after the lower device's), in dump order.

use super::changes::ChangeSink;
use super::state::{Ctx, Model};

/// How a stacked device of this kind follows its lower device's MTU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MtuFollow {
    /// Lowered with it, never raised (`dev_set_mtu`, notified).
    DownOnly,
    /// Set to it, up or down, silently.
    Always,
    /// Not at all.
    Never,
}

/// The rule for a device of this `IFLA_INFO_KIND`.
pub(super) fn mtu_follow(kind: &[u8]) -> MtuFollow {
    match kind {
        b"vlan" | b"macvlan" | b"macvtap" => MtuFollow::DownOnly,
        b"ipvlan" | b"ipvtap" => MtuFollow::Always,
        _ => MtuFollow::Never,
    }
}

impl Model {
    /// The lower device `index` now has MTU `mtu`: its stacked devices
    /// follow as their drivers say. Returns those whose MTU changed with a
    /// notification (their own NETDEV_CHANGEMTU ran).
    pub(super) fn stacked_follow_mtu<S: ChangeSink>(
        &mut self,
        index: u32,
        mtu: u32,
        ctx: &Ctx,
        sink: &mut S,
    ) -> Vec<u32> {
        let mut uppers: Vec<(u32, MtuFollow)> = self
            .links
            .followers(index)
            .iter()
            .filter_map(|&i| self.link(i))
            .filter(|l| l.index != index && l.link == Some(index))
            .filter_map(|l| Some((l.index, mtu_follow(l.kind.as_ref()?.as_bytes()))))
            .collect();
        uppers.sort_by_key(|&(i, _)| self.links.position_of(i));
        let mut notified = Vec::new();
        for (i, rule) in uppers {
            let Some(mut u) = self.link(i).cloned() else { continue };
            let new = match rule {
                MtuFollow::DownOnly if u.mtu.is_some_and(|m| m > mtu) => mtu,
                MtuFollow::Always if u.mtu != Some(mtu) => mtu,
                _ => continue,
            };
            u.mtu = Some(new);
            if rule == MtuFollow::Always {
                self.state_mut(i).silent_mtu = Some(new);
            }
            self.upsert_link(u, ctx, sink);
            if rule == MtuFollow::DownOnly {
                notified.push(i);
            }
        }
        notified
    }
}

#[cfg(test)]
mod tests {
    use super::{MtuFollow, mtu_follow};

    #[test]
    fn vlans_and_macvlans_follow_down_ipvlans_always_others_never() {
        assert_eq!(mtu_follow(b"vlan"), MtuFollow::DownOnly);
        assert_eq!(mtu_follow(b"macvlan"), MtuFollow::DownOnly);
        assert_eq!(mtu_follow(b"ipvlan"), MtuFollow::Always);
        assert_eq!(mtu_follow(b"veth"), MtuFollow::Never);
        assert_eq!(mtu_follow(b"bridge"), MtuFollow::Never);
    }
}
