//! What changed in the kernel's tables, message by message: the timeline.
//!
//! Contract: the model reports each change to a [`ChangeSink`]; a sink that
//! ignores them (`()`) costs nothing, so `table` pays only for the tables.

use super::entries::{AddrEntry, LinkEntry, RouteEntry};
use crate::netlink::rtnl::Netns;
use crate::netlink::values::AddressFamily;

/// The kind of object a dump lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectKind {
    /// Network devices (RTM_GETLINK, answered with RTM_NEWLINK).
    Links,
    /// Interface addresses (RTM_GETADDR, answered with RTM_NEWADDR).
    Addresses,
    /// Routes (RTM_GETROUTE, answered with RTM_NEWROUTE).
    Routes,
}

/// One change to the kernel's tables as the model applied it: from a
/// notification, a request the kernel acknowledged, one of the kernel's
/// own rules, or a dump that showed what nothing before it had.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// A device appeared: created by a request, announced by a
    /// notification, made by the kernel with another (a veth's peer), or
    /// listed by a dump.
    LinkAdded(LinkEntry),
    /// A device was deleted, its addresses and routes with it; the entry as
    /// it was.
    LinkRemoved(LinkEntry),
    /// A request sent the link to another namespace: gone from this one.
    LinkMovedAway {
        /// The device as it was here.
        link: LinkEntry,
        /// The namespace as the request named it (which namespace that is
        /// only the requester knows).
        to: Netns,
    },
    /// A device got a new name (IFLA_IFNAME).
    LinkRenamed {
        /// The device under its new name.
        link: LinkEntry,
        /// Its name before.
        from: String,
    },
    /// Administrative (IFF_UP) or operational state changed.
    LinkState {
        /// The device after the change.
        link: LinkEntry,
        /// Whether IFF_UP was set before.
        was_up: bool,
        /// Its IFLA_OPERSTATE (IF_OPER_*) before; `None` when no message
        /// had shown one.
        was_operstate: Option<u8>,
    },
    /// A link's master (bridge, bond) changed.
    LinkMaster {
        /// The device after the change.
        link: LinkEntry,
        /// The ifindex of its master before; `None` when it was no port.
        was: Option<u32>,
    },
    /// An address was added to its device's list, where the kernel puts it.
    AddrAdded {
        /// The address as added.
        addr: AddrEntry,
        /// Its device's name then (`ifN` when nothing in the capture named it).
        ifname: String,
        /// Position among the device's addresses of that family, 0-based.
        position: usize,
        /// The device's ifindex, when the link was created during the
        /// capture and this is its first address (never for what a dump
        /// revealed).
        new_link: Option<u32>,
    },
    /// An address was deleted: by a request or notification, by the kernel
    /// itself (its lifetime ran out, a flush), or found missing from a dump.
    AddrRemoved {
        /// The address as it was.
        addr: AddrEntry,
        /// Its device's name then (`ifN` when nothing in the capture named it).
        ifname: String,
        /// The secondary the kernel promoted in its place.
        promoted: Option<AddrEntry>,
        /// Secondaries removed with it (promote_secondaries off).
        removed_secondaries: Vec<AddrEntry>,
    },
    /// Its valid lifetime ran out (inferred from the last message that
    /// showed it); the kernel deletes it then (an `AddrRemoved` follows).
    AddrExpired {
        /// The address whose lifetime ran out.
        addr: AddrEntry,
        /// Its device's name then (`ifN` when nothing in the capture named it).
        ifname: String,
        /// The record applied is the kernel's RTM_DELADDR of it: shown, not
        /// inferred.
        notified: bool,
    },
    /// Flags (tentative, deprecated, secondary...) or lifetimes changed.
    AddrChanged {
        /// The address after the change.
        addr: AddrEntry,
        /// Its device's name then (`ifN` when nothing in the capture named it).
        ifname: String,
        /// Its IFA_F_* flags before.
        old_flags: u32,
    },
    /// A route appeared; `dev`: its output device's name then (None: no
    /// device, or one nothing in the capture named).
    RouteAdded {
        /// The route as added.
        route: RouteEntry,
        /// Its output device's name.
        dev: Option<String>,
    },
    /// A route went: deleted, replaced, gone with its device or address, or
    /// missing from a dump; `dev` as for [`Change::RouteAdded`].
    RouteRemoved {
        /// The route as it was.
        route: RouteEntry,
        /// Its output device's name.
        dev: Option<String>,
    },
    /// The kernel refused a change request (which therefore changed nothing).
    Refused {
        /// The record of the request.
        request_packet: u64,
        /// `RTM_NEWADDR 10.3.0.1/24 dev eth0`.
        summary: String,
        /// The negative errno of the answer.
        errno: i32,
    },
    /// A change no notification or request showed: the dump asked for in
    /// record `dump_packet` (whose NLMSG_DONE is the event's record) has
    /// it, or lacks it, unlike the model before it. Either nobody listened
    /// then, or the kernel made it without a notification.
    Unnotified {
        /// What the dump showed had changed.
        change: Box<Change>,
        /// The record of the dump's request.
        dump_packet: u64,
    },
    /// A dump replaced the model's view of an object kind.
    DumpApplied {
        /// What it listed.
        kind: ObjectKind,
        /// The family its request asked for (AF_UNSPEC: all).
        family: AddressFamily,
        /// How many entries it listed.
        entries: usize,
        /// Where the dump disagreed with the order predicted from notifications.
        disagreements: Vec<String>,
        /// Changes it revealed that nothing in the capture had shown (each
        /// also reported as a [`Change::Unnotified`]).
        revealed: usize,
        /// Why what it revealed could not be heard, where the capture says
        /// so (see [`Unheard`]).
        unheard: Option<Unheard>,
        /// The packet that asked for it: how every report names a dump.
        dump_packet: u64,
    },
}

/// Why the changes a dump revealed were beyond any prediction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unheard {
    /// Nothing before it in the capture made or announced a change: no
    /// request the kernel accepted, no notification of its group (nothing
    /// listened). Programs the capture does not hold made them.
    NothingBefore,
    /// Only the carrier of veths whose peers are in another namespace
    /// changed: that namespace's messages are not in the capture, and the
    /// kernel announces the change here only when linkwatch has run.
    PeerElsewhere,
}

/// A change and the record that caused it.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The record at which it took effect: for a request (accepted or
    /// refused) its answer's (the request's own packet is the origin of
    /// what it made), for a kernel timer (DAD, lifetimes) the record at
    /// which it ran. Events are in the order of this number.
    pub packet: u64,
    /// When: the time of the record being applied (for a request, its
    /// acknowledgement's), of a lifetime's end, or of the `--at` moment
    /// the timers ran on to; `None` when the records carry no time.
    pub ts: Option<crate::capture::Timestamp>,
    /// Made by a kernel timer at its own time (`ts`: an address's valid
    /// lifetime ran out), inferred: no record shows it, and `packet` is only
    /// the record before which it ran (printers give it no packet number).
    pub inferred: bool,
    /// What changed.
    pub change: Change,
}

/// Where the model reports what it changes, in the order it changes it:
/// the timeline's printers, `Vec<Event>` (collects them), `()` (ignores
/// them).
pub trait ChangeSink {
    /// Whether changes are wanted at all (lets the model skip building them).
    fn wants_changes(&self) -> bool {
        true
    }
    /// One change, called as the model makes it.
    fn change(&mut self, event: Event);
    /// Every message, before the model applies it (for printers that also
    /// say who asked, see `crate::looks`).
    fn message(&mut self, _m: &crate::ingest::trace::TraceMessage<'_>) {}
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
