//! A device that left with no message about it: one whose peer or owner
//! lives in another namespace (a pod's veth whose container end was
//! deleted there, a namespace deleted with a device's peer in it) goes
//! without a request here, and without RTM_DELLINK unless a link listener
//! is left. An address listener still gets the RTM_DELADDR of its IPv4
//! addresses (`inetdev_destroy` at NETDEV_UNREGISTER, alike in 6.1 and
//! 6.12, `fixtures/daemons/` `listener-leaves`): the kernel removes an
//! IPv4 address by itself only when its device leaves the namespace
//! (deleted or moved), when its lifetime ends, or with its primary (a
//! request then). So an IPv4 address removed with no request waiting and
//! no finite lifetime, right after the device's IPv6 addresses went the
//! same way (addrconf's NETDEV_UNREGISTER comes first), in a capture that
//! shows requests at all, says its device is gone.
//!
//! Contract: [`Model::unrequested_ipv4_removal`] removes the device (as
//! deleted) when the address just removed says so, and remembers it so
//! that a later RTM_DELLINK for it is expected.
use crate::netlink::values::AddressFamily;

use super::changes::ChangeSink;
use super::entries::AddrEntry;
use super::pending_requests::RequestBody;
use super::state::{Ctx, Model};

impl Model {
    /// An IPv6 address of device `index` was removed by a notification.
    pub(super) fn note_v6_removal(&mut self, index: u32, packet: u64) {
        self.last_v6_removal = Some((index, packet));
    }

    /// `gone`, an IPv4 address a notification just removed: with no
    /// change request waiting for its answer and no finite lifetime, its
    /// device left the namespace.
    pub(super) fn unrequested_ipv4_removal<S: ChangeSink>(&mut self, gone: &AddrEntry, ctx: &Ctx, sink: &mut S) {
        let asked = self.pending.waiting.iter().any(|p| !matches!(p.body, RequestBody::Get));
        if gone.family != AddressFamily::Inet || asked || self.stats.requests_applied == 0 {
            return;
        }
        // (its IPv6 addresses went, unasked, within the last few records)
        let v6_went = self
            .last_v6_removal
            .is_some_and(|(index, packet)| index == gone.index && packet + 8 >= self.last_packet);
        if !v6_went {
            return;
        }
        if gone.cacheinfo.is_some_and(|c| c.valid != u32::MAX) {
            return;
        }
        if self.link(gone.index).is_none() {
            return;
        }
        self.gone_unseen.insert(gone.index);
        self.remove_link(gone.index, ctx, sink);
    }
}
