//! A link listener that leaves: nothing in a capture says a socket stopped
//! listening, but a link request the kernel always announces (a device
//! created or deleted) that is acknowledged with no RTM_NEWLINK/DELLINK
//! in between, when link notifications came before, shows that no link
//! listener is left (seen on 6.1 and 6.12, `fixtures/daemons/`
//! `listener-leaves`). From then on a device that leaves without a request
//! here (a veth gone with its peer in another namespace) leaves no link
//! message; only an address listener's RTM_DELADDR may still show it (see
//! `gone_unseen`).
//!
//! Contract: records the first such moment; [`Model::assumptions`] says it.

use super::pending_requests::{Pending, RequestBody};
use super::state::Model;
use crate::netlink::names::{NLM_F_CREATE, RTM_DELLINK, RTM_NEWLINK};

impl Model {
    /// A link notification was applied in record `packet`.
    pub(super) fn note_link_notification(&mut self, packet: u64) {
        self.last_link_notification = Some(packet);
    }

    /// `p`, a request the kernel accepted: if it always brings a link
    /// notification and none came since it was sent, link listeners left.
    pub(super) fn note_link_request_answered(&mut self, p: &Pending) {
        if self.link_listener_left.is_some() {
            return;
        }
        let RequestBody::Link(l) = &p.body else { return };
        let announced = p.msg_type == RTM_DELLINK
            || (p.msg_type == RTM_NEWLINK && p.flags & NLM_F_CREATE != 0 && l.kind.is_some() && l.netns.is_none());
        if !announced {
            return;
        }
        if let Some(last) = self.last_link_notification
            && last < p.packet
        {
            self.link_listener_left = Some((last, p.packet));
        }
    }
}
