//! What changed in the kernel's tables, message by message: the timeline.
//!
//! Contract: the model reports each change to a [`ChangeSink`]; a sink that
//! ignores them (`()`) costs nothing, so `table` pays only for the tables.

use super::entries::{AddrEntry, LinkEntry, RouteEntry};
use crate::netlink::rtnl::Netns;

/// The kind of object a dump lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectKind {
    Links,
    Addresses,
    Routes,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    LinkAdded(LinkEntry),
    LinkRemoved(LinkEntry),
    /// A request sent the link to another namespace: gone from this one.
    LinkMovedAway {
        link: LinkEntry,
        to: Netns,
    },
    LinkRenamed {
        link: LinkEntry,
        from: String,
    },
    /// Administrative (IFF_UP) or operational state changed.
    LinkState {
        link: LinkEntry,
        was_up: bool,
        was_operstate: Option<u8>,
    },
    /// A link's master (bridge, bond) changed.
    LinkMaster {
        link: LinkEntry,
        was: Option<u32>,
    },
    AddrAdded {
        addr: AddrEntry,
        ifname: String,
        /// Position among the device's addresses of that family, 0-based.
        position: usize,
        /// The link was created during the capture and this is its first address.
        new_link: Option<u32>,
    },
    AddrRemoved {
        addr: AddrEntry,
        ifname: String,
        /// The secondary the kernel promoted in its place.
        promoted: Option<AddrEntry>,
        /// Secondaries removed with it (promote_secondaries off).
        removed_secondaries: Vec<AddrEntry>,
    },
    /// Its valid lifetime ran out (inferred from the last message that
    /// showed it); the kernel deletes it then (an `AddrRemoved` follows).
    AddrExpired {
        addr: AddrEntry,
        ifname: String,
    },
    /// Flags (tentative, deprecated, secondary...) or lifetimes changed.
    AddrChanged {
        addr: AddrEntry,
        ifname: String,
        old_flags: u32,
    },
    /// A route appeared; `dev`: its output device's name then (None: no
    /// device, or one nothing in the capture named).
    RouteAdded {
        route: RouteEntry,
        dev: Option<String>,
    },
    RouteRemoved {
        route: RouteEntry,
        dev: Option<String>,
    },
    /// The kernel refused a change request (which therefore changed nothing).
    Refused {
        request_packet: u64,
        /// `RTM_NEWADDR 10.3.0.1/24 dev eth0`.
        summary: String,
        /// The negative errno of the answer.
        errno: i32,
    },
    /// A change no notification or request showed: the dump whose replies
    /// start in record `dump_packet` (and end in the event's record) has it,
    /// or lacks it, unlike the model before it.
    Unnotified {
        change: Box<Change>,
        dump_packet: u64,
    },
    /// A dump replaced the model's view of an object kind.
    DumpApplied {
        kind: ObjectKind,
        family: u8,
        entries: usize,
        /// Where the dump disagreed with the order predicted from notifications.
        disagreements: Vec<String>,
        /// Changes it revealed that nothing in the capture had shown (each
        /// also reported as a [`Change::Unnotified`]).
        revealed: usize,
        /// The packet that asked for it: how every report names a dump.
        dump_packet: u64,
    },
}

/// A change and the record that caused it.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub packet: u64,
    pub ts: Option<crate::capture::Timestamp>,
    pub change: Change,
}

pub trait ChangeSink {
    /// Whether changes are wanted at all (lets the model skip building them).
    fn wants_changes(&self) -> bool {
        true
    }
    fn change(&mut self, event: Event);
    /// Every message, before the model applies it (for printers that also
    /// say who asked, see `crate::looks`).
    fn message(&mut self, _m: &crate::trace::TraceMessage<'_>) {}
}

/// Ignores every change.
impl ChangeSink for () {
    fn wants_changes(&self) -> bool {
        false
    }
    fn change(&mut self, _event: Event) {}
}

impl ChangeSink for Vec<Event> {
    fn change(&mut self, event: Event) {
        self.push(event);
    }
}
