//! linkwatch: when a device's operational state catches up with its
//! carrier, and so when IPv6 takes it as ready. `addrconf_link_ready` is
//! `netif_oper_up(dev) && !qdisc_tx_is_noop(dev)`, not the carrier: a veth
//! brought up while its peer is up has carrier at once, but its operstate
//! stays LOWERLAYERDOWN until the linkwatch work has run.
//!
//! Contract: a carrier change queues the device's event once
//! (`linkwatch_fire_event`), and a VLAN or macvlan queues one when it is
//! made. The work (`__linkwatch_run_queue`) takes the queue in order: the
//! operational state follows the carrier, the qdisc is attached, and a
//! device that is up gets NETDEV_CHANGE (IPv6 made ready, the carrier
//! handed to its VLANs). It runs once the request that queued an urgent
//! event has been applied (a running device that is stacked, `iflink !=
//! ifindex` as IFLA_LINK shows it, or gains carrier while its qdisc is
//! changing, which a veth in its first open is not); events that are not
//! urgent wait for the
//! once-a-second limit (`linkwatch_nextevent`), timed by the capture's
//! timestamps, and an urgent run leaves them queued. The work never runs
//! while a change request waits for its answer (the kernel holds its rtnl
//! lock). On 6.12 (not 6.1) `rtnl_getlink` runs a device's own event
//! first (`linkwatch_sync_dev`), seen as its GETLINK reply. A link message
//! showing a running device says what the kernel has (IFF_RUNNING is
//! `netif_oper_up`) and is taken as it is. Only queued devices are looked
//! at. linkwatch is one for the whole host, and its limit is moved by
//! events of every namespace: the model assumes nothing but the captured
//! namespace queued any. Queueing an event (`Model::lw_fire`,
//! `Model::set_carrier`) is the model state's, so that the kernel's rules
//! below can queue; the work that runs the queue is here, above them.
//!
//! Restated from net/core/link_watch.c, net/core/dev.c (`__dev_open`:
//! the driver's `ndo_open`, `dev_activate`, then NETDEV_UP),
//! net/ipv6/addrconf.c (`addrconf_notify`), drivers/net/veth.c
//! (`veth_open`, `veth_newlink`), drivers/net/macvlan.c and net/8021q
//! (`vlan_dev_init`, `register_vlan_dev`, `vlan_dev_open`,
//! `vlan_dev_stop`, `vlan_device_event`), net/bridge (`br_device_event`,
//! `br_port_carrier_check`, `br_port_state_selection`) of Debian's
//! 6.1.176 and 6.12.117, and checked against both in the kernel matrix
//! (`fixtures/kernels/*/ipv6-ready.*`). Where the two differ:
//! `default_operstate` gives 6.12 DOWN rather than LOWERLAYERDOWN when the
//! iflink device has carrier (neither is oper up, so nothing here
//! changes), and only 6.12 syncs on GETLINK. Not modelled: dormant and
//! testing states, LAG ports (urgent too), and the carrier macvlans take
//! from their lower devices, which follows at once here rather than at the
//! lower device's own event. A bridge's follows its ports' events: a port
//! counts once its event has made it oper up, and the bridge checks it at
//! that event's NETDEV_CHANGE (a port going down counts at once, at
//! NETDEV_DOWN). A bridge, like a veth, turns its carrier on inside its
//! open on its first open, before its qdisc is attached: that event is not
//! urgent. Work the delayed timer runs happens at its time, before the
//! message that shows the time has passed.

use super::changes::ChangeSink;
use super::state::kind_in;
use super::state::{Ctx, Model};
use crate::netlink::names::*;

/// `HZ` jiffies: the once-a-second limit on linkwatch runs that handle
/// events that are not urgent.
const LIMIT_NANOS: i128 = 1_000_000_000;

impl Model {
    /// After a request was applied (the kernel's rtnl lock released): the
    /// work runs if an urgent event asked for it or the limit allows a
    /// full run.
    pub(super) fn linkwatch_after_request<S: ChangeSink>(&mut self, ctx: &Ctx, sink: &mut S) {
        let now = ctx.ts.map(|t| t.as_nanos());
        let due = self.lw.due.is_some_and(|d| now.is_none_or(|n| d <= n));
        if self.lw.urgent || due {
            self.linkwatch_run(now, ctx, sink);
        }
    }

    /// Before each message: the delayed work ran when its time came,
    /// unless a change request held the kernel's rtnl lock then (it runs
    /// once that request is answered).
    // (asked at every message: the common answer, nothing due, is given inline)
    #[inline]
    pub(super) fn linkwatch_timer<S: ChangeSink>(&mut self, ctx: &Ctx, sink: &mut S) {
        if !self.lw.rest.is_empty() && self.lw.awaiting.is_none() {
            self.linkwatch_go_on(ctx, sink);
        }
        let Some(due) = self.lw.due else { return };
        let Some(now) = ctx.ts.map(|t| t.as_nanos()) else {
            return;
        };
        if due <= now && !self.change_in_progress() {
            // (the work ran at its time, before this message: a DAD it
            // started began then; its changes are told at this message)
            self.lw.ran_at = Some(due);
            self.linkwatch_run(Some(due), ctx, sink);
            self.lw.ran_at = None;
        }
    }

    /// Whether the work cannot have run before this message (a link
    /// message of `link_of`, or another): a veth pair is made under one
    /// rtnl lock (`veth_newlink` registers and announces the peer, then the
    /// device), so between the announcement of the first end, which shows
    /// no other end yet, and that of the second, nothing runs; copies of
    /// the first announcement keep waiting.
    pub(super) fn pair_under_way(&mut self, link_of: Option<u32>) -> bool {
        let Some(first) = self.lw.pair_under_way else {
            return false;
        };
        if link_of != Some(first) {
            self.lw.pair_under_way = None;
        }
        true
    }

    /// A link listener's notification of `index`: the event of the run
    /// under way that waited for it has ended.
    pub(super) fn linkwatch_notified(&mut self, index: u32) {
        if self.lw.awaiting == Some(index) {
            self.lw.awaiting = None;
        }
    }

    /// The rest of a paced run: its next events, up to the next one whose
    /// notification a link listener will show.
    fn linkwatch_go_on<S: ChangeSink>(&mut self, ctx: &Ctx, sink: &mut S) {
        while self.lw.awaiting.is_none() && !self.lw.rest.is_empty() {
            let (index, ticket) = self.lw.rest.remove(0);
            let st = self.state(index);
            if st.lw_pending && st.lw_ticket == ticket {
                self.linkwatch_do_dev(index, ctx, sink);
                self.await_notification(index);
            }
        }
    }

    /// Whether a link listener shows a device's event (an up device's
    /// `netdev_state_change` announces it), so that what follows it in the
    /// run waits for that notification.
    fn await_notification(&mut self, index: u32) {
        let listener = self.last_link_notification.is_some() && self.link_listener_left.is_none();
        if listener && self.state(index).admin_up {
            self.lw.awaiting = Some(index);
        }
    }

    /// The end of the capture: whatever was queued has run since.
    pub(super) fn linkwatch_finish<S: ChangeSink>(&mut self, ctx: &Ctx, sink: &mut S) {
        self.lw.awaiting = None;
        self.linkwatch_go_on(ctx, sink);
        if !self.lw.is_empty() {
            self.linkwatch_run(None, ctx, sink);
        }
    }

    /// `linkwatch_sync_dev` in `rtnl_getlink` (see
    /// `KernelVersion::getlink_syncs_linkwatch`): the device's own event
    /// runs before its reply is made.
    pub(super) fn linkwatch_sync<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        let syncs = self.options.kernel.is_none_or(|k| k.getlink_syncs_linkwatch());
        if syncs && self.state(index).lw_pending {
            self.linkwatch_do_dev(index, ctx, sink);
        }
    }

    /// `linkwatch_event`: one run of the work at `now` (None: whenever,
    /// everything), and again while it queued urgent events itself.
    fn linkwatch_run<S: ChangeSink>(&mut self, now: Option<i128>, ctx: &Ctx, sink: &mut S) {
        // (each pass can only queue the VLANs of the devices it handled)
        for _ in 0..8 {
            // A run under way ends before another begins.
            self.linkwatch_go_on(ctx, sink);
            if !self.lw.rest.is_empty() {
                return;
            }
            let urgent_only = matches!((self.lw.next_event, now), (Some(e), Some(n)) if e > n);
            if !urgent_only {
                self.lw.next_event = now.map(|n| n + LIMIT_NANOS);
            }
            self.lw.urgent = false;
            self.lw.due = None;
            let mut work = std::mem::take(&mut self.lw.queue);
            if !urgent_only || self.lw.recheck {
                self.lw.recheck = false;
                let mut all = std::mem::take(&mut self.lw.held);
                all.append(&mut work);
                work = all;
            }
            let mut work = work.into_iter();
            while let Some((index, ticket)) = work.next() {
                let st = self.state(index);
                if !st.lw_pending || st.lw_ticket != ticket {
                    continue;
                }
                if urgent_only && !self.lw_urgent(index) {
                    // left for the next full run, in its place
                    self.lw.held.push((index, ticket));
                    continue;
                }
                self.linkwatch_do_dev(index, ctx, sink);
                self.await_notification(index);
                if self.lw.awaiting.is_some() {
                    // (the rest of the run follows the notification)
                    self.lw.rest.extend(work);
                    break;
                }
            }
            // (the rest of a paced run is not a new run: it needs no timer)
            if !self.lw.held.is_empty() || !self.lw.queue.is_empty() {
                let at = self.lw.clock;
                self.lw.clock = now;
                self.schedule_delayed();
                self.lw.clock = at;
            }
            if !self.lw.urgent {
                return;
            }
        }
    }

    /// `linkwatch_do_dev`: the operational state follows the carrier
    /// (`rfc2863_policy`); a device that is up gets its qdisc
    /// (`dev_activate`/`dev_deactivate`) and NETDEV_CHANGE: addrconf
    /// first (IPv6 ready, or no longer), then 8021q hands the carrier to
    /// the device's VLANs.
    fn linkwatch_do_dev<S: ChangeSink>(&mut self, index: u32, ctx: &Ctx, sink: &mut S) {
        if !self.links.contains(index) {
            return;
        }
        if self.lw.ran_at.is_some() {
            self.lw.timed.insert(index);
        }
        let st = self.state_mut(index);
        st.lw_pending = false;
        st.oper_up = st.carrier;
        st.lw_ran = true;
        self.show_link_state(index, ctx, sink);
        let st = self.state_mut(index);
        if !st.admin_up {
            return;
        }
        st.qdisc = st.carrier;
        let carrier = st.carrier;
        self.ipv6_readiness(index, ctx, sink);
        for v in self.vlans_on(index) {
            self.set_carrier(v, carrier);
        }
        // (the bridge it is a port of checks the port then)
        let master = self.link(index).and_then(|l| l.master);
        if let Some(m) = master.filter(|&m| self.link(m).is_some_and(|b| kind_in(b, &[b"bridge"]))) {
            self.bridge_port_checked(m, ctx, sink);
        }
    }

    /// The VLANs whose lower device this is, in dump order.
    pub(super) fn vlans_on(&self, index: u32) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .links
            .followers(index)
            .iter()
            .filter_map(|&i| self.link(i))
            .filter(|l| l.index != index && l.link == Some(index) && kind_in(l, &[b"vlan"]))
            .map(|l| l.index)
            .collect();
        v.sort_by_key(|&i| self.links.position_of(i));
        v
    }

    /// A device the capture shows being made (a request the kernel
    /// accepted, or the notification of a new device): its state as
    /// `register_netdevice` and its driver leave it. A device starts with
    /// carrier, so `linkwatch_init_dev` leaves its operstate UNKNOWN (oper
    /// up) until an event says otherwise; a veth drops its carrier once
    /// registered, which queues one. A VLAN or macvlan takes its lower
    /// device's carrier in `ndo_init` (an operstate of LOWERLAYERDOWN at
    /// registration without it, UNKNOWN with it) and queues an event
    /// whatever it is (`register_vlan_dev`, `macvlan_common_newlink`).
    pub(super) fn registered(&mut self, index: u32) {
        let Some(l) = self.link(index) else { return };
        let stacked = kind_in(l, &[b"vlan", b"macvlan", b"macvtap"]);
        let carrier = if stacked {
            l.link
                .and_then(|i| self.link(i))
                .is_none_or(|lower| self.carrier(lower, 1))
        } else {
            self.carrier(l, 0)
        };
        // (the first end of a veth pair, announced before the other is
        // registered: see `pair_under_way`)
        if kind_in(l, &[b"veth"]) && l.link.is_none_or(|p| p == 0) && !l.link_elsewhere {
            self.lw.pair_under_way = Some(index);
        }
        let st = self.state_mut(index);
        st.seen = true;
        st.created_here = true;
        st.carrier = carrier || !stacked;
        st.oper_up = st.carrier;
        self.set_carrier(index, carrier);
        if stacked {
            self.lw_fire(index);
        }
        self.ipvlan_registered(index);
    }

    /// What a link message (notification or reply) shows of the kernel's
    /// state: a running device's operstate (IFF_RUNNING is `netif_oper_up`)
    /// and, for a VLAN, its carrier (IFF_LOWER_UP). A device that is down
    /// shows neither. Oper up with carrier, its qdisc is attached (it was
    /// opened with carrier, or linkwatch has run for it since).
    pub(super) fn note_link_message(&mut self, index: u32) {
        self.lw.timed.remove(&index);
        let Some(l) = self.link(index) else { return };
        if l.flags & IFF_UP == 0 {
            return;
        }
        let (running, lower_up) = (l.flags & IFF_RUNNING != 0, l.flags & IFF_LOWER_UP != 0);
        let vlan = kind_in(l, &[b"vlan"]);
        let st = self.state_mut(index);
        st.oper_up = running;
        if running && lower_up && st.admin_up {
            st.qdisc = true;
        }
        if vlan {
            self.set_carrier(index, lower_up);
        }
    }
}
