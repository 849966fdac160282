//! Dumps under way: each dump request with the replies that have come
//! for it, until its NLMSG_DONE.
//!
//! Contract: matching only: replies go to their request by sequence
//! number and port id, dumps a port left unfinished are split off, at
//! most 16 wait. What a finished (or abandoned) dump does to the model is
//! `dumps`'; a route dump may go into the model's table as it comes (see
//! [`InPlace`]).

use super::changes::ObjectKind;
use super::entries::{AddrEntry, LinkEntry, Origin, RouteEntry};
use super::route_table::RouteTable;
use crate::netlink::Body;
use crate::netlink::names::*;
use crate::netlink::values::{AddressFamily, TableId};

pub(super) fn kind_of(msg_type: u16) -> Option<ObjectKind> {
    match msg_type {
        RTM_NEWLINK..=RTM_SETLINK => Some(ObjectKind::Links),
        RTM_NEWADDR..=RTM_GETADDR => Some(ObjectKind::Addresses),
        RTM_NEWROUTE..=RTM_GETROUTE => Some(ObjectKind::Routes),
        _ => None,
    }
}

/// A route dump applied where the model holds its routes, as its replies
/// come: each listed route is upserted and marked, and at NLMSG_DONE the
/// routes it speaks for that it did not list are swept. A BGP node's table
/// is then never held twice. Only a requested, unfiltered dump, while no
/// other is applied so; the others are collected and applied at their end.
#[derive(Debug)]
pub(super) struct InPlace {
    pub mark: u32,
    /// Routes listed so far.
    pub listed: usize,
    /// A route of another table than the request asked for was listed
    /// (the kernel ignored the filter).
    pub other_tables: bool,
    /// Listed routes the model did not have (kept for the timeline only).
    pub added: Vec<RouteEntry>,
    /// The order of each group's routes, held against the prediction.
    pub order: super::dump_order::GroupOrder,
}

#[derive(Debug)]
pub(super) struct OpenDump {
    pub kind: ObjectKind,
    /// Family of the request (AF_UNSPEC: every family).
    pub family: AddressFamily,
    pub seq: u32,
    pub pid: Option<u32>,
    pub request_packet: Option<u64>,
    pub first_packet: Option<u64>,
    /// The packet of its latest reply.
    pub last_packet: Option<u64>,
    pub links: Vec<LinkEntry>,
    pub addrs: Vec<AddrEntry>,
    /// Routes go straight into a table of their own (the dump of a BGP
    /// node's table is never held twice); made with the first route a
    /// collected dump lists (a dump is moved as it goes, and most are links,
    /// addresses or applied in place).
    pub routes: Option<Box<RouteTable>>,
    pub interrupted: bool,
    pub filtered: bool,
    /// A route dump asked for one table only.
    pub table: Option<TableId>,
    /// A route dump asked for the routes through one device only (RTA_OIF).
    pub oif: Option<u32>,
    /// An address dump asked for one device's addresses only (ifa_index).
    pub device: Option<u32>,
    /// Its request filtered by something nlorder does not model (a route's
    /// protocol or type).
    pub other_filter: bool,
    pub in_place: Option<InPlace>,
}

impl OpenDump {
    fn new(kind: ObjectKind, family: AddressFamily, seq: u32, request_packet: Option<u64>) -> Self {
        OpenDump {
            kind,
            family,
            seq,
            pid: None,
            request_packet,
            first_packet: None,
            last_packet: None,
            links: Vec::new(),
            addrs: Vec::new(),
            routes: None,
            interrupted: false,
            filtered: false,
            table: None,
            oif: None,
            device: None,
            other_filter: false,
            in_place: None,
        }
    }

    /// Whether the model knows exactly what the dump speaks for when the
    /// kernel says it filtered it (`NLM_F_DUMP_FILTERED`): route dumps by
    /// family, table and device, address dumps by family and device. A
    /// filtered link dump (by master or kind) is merged instead.
    pub fn filter_known(&self) -> bool {
        match self.kind {
            ObjectKind::Routes => !self.other_filter,
            ObjectKind::Addresses => true,
            ObjectKind::Links => !self.filtered,
        }
    }

    pub fn push(&mut self, body: &Body<'_>, packet: u64) {
        self.first_packet.get_or_insert(packet);
        // Entries cite their dump as every report does: by its request.
        let origin = Origin::Dump(self.request_packet.unwrap_or(packet));
        // (room for a small host's dump at once: its entries are a few
        // hundred bytes each, and growing by doubling copies them)
        const FIRST_ROOM: usize = 16;
        match body {
            Body::Link(l) if l.family != AddressFamily::Bridge => {
                if self.links.capacity() == 0 {
                    self.links.reserve(FIRST_ROOM);
                }
                self.links.push(LinkEntry::from_message(l, origin));
            }
            Body::Addr(a) => {
                if self.addrs.capacity() == 0 {
                    self.addrs.reserve(FIRST_ROOM);
                }
                self.addrs.extend(AddrEntry::from_message(a, origin));
            }
            Body::Route(r) if r.flags & RTM_F_CLONED == 0 => {
                let routes = self.routes.get_or_insert_default();
                let seq = routes.next_seq();
                routes.insert(RouteEntry::from_message(r, origin, seq));
            }
            _ => {}
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn len(&self) -> usize {
        let in_place = self.in_place.as_ref().map_or(0, |p| p.listed);
        let routes = self.routes.as_ref().map_or(0, |r| r.len());
        self.links.len() + self.addrs.len() + routes + in_place
    }

    /// A route this dump lists, applied to the model's `routes` (see
    /// [`InPlace`]): it takes the next place of its group, and its mark
    /// keeps it from the sweep at the dump's end.
    pub fn push_in_place(&mut self, routes: &mut RouteTable, r: &crate::netlink::Route, packet: u64, keep_added: bool) {
        let Some(p) = self.in_place.as_mut() else { return };
        self.first_packet.get_or_insert(packet);
        let origin = Origin::Dump(self.request_packet.unwrap_or(packet));
        let e = RouteEntry::from_message(r, origin, routes.next_seq());
        if self.table.is_some_and(|t| t != e.table) {
            p.other_tables = true;
        }
        p.listed += 1;
        let added = keep_added.then(|| e.clone());
        // (held against what the table had under its key, found by the
        // lookup that applies it)
        let order = &mut p.order;
        if routes.upsert_marked_seeing(e, p.mark, |e, had| order.see(e, had)) {
            p.added.extend(added);
        }
    }

    /// What became of a dump that ended in an error.
    pub fn unapplied(&self) -> String {
        match &self.in_place {
            Some(p) if p.listed > 0 => format!(
                "the {} routes it listed had been applied as they came; none were swept",
                p.listed
            ),
            _ => "not applied".to_owned(),
        }
    }

    /// Whether its routes can go straight into the model's table.
    pub fn can_apply_in_place(&self) -> bool {
        self.kind == ObjectKind::Routes
            && self.request_packet.is_some()
            && !self.filtered
            && self.in_place.is_none()
            && self.routes.as_ref().is_none_or(|r| r.is_empty())
    }

    /// The families this dump speaks for, in the order an AF_UNSPEC dump
    /// lists them.
    pub(super) fn families(&self) -> &'static [AddressFamily] {
        match self.family {
            AddressFamily::Unspec => &[AddressFamily::Inet, AddressFamily::Inet6],
            AddressFamily::Inet => &[AddressFamily::Inet],
            AddressFamily::Inet6 => &[AddressFamily::Inet6],
            _ => &[],
        }
    }
}

/// Dumps waiting for their replies, at most.
const MAX_OPEN_DUMPS: usize = 16;

#[derive(Debug, Default)]
pub(super) struct Dumps {
    open: Vec<OpenDump>,
    /// Emptied lists a finished dump gave back, for the next dump of its
    /// kind (a small host dumped again and again allocates none).
    spare_links: Vec<LinkEntry>,
    spare_addrs: Vec<AddrEntry>,
}

impl Dumps {
    pub fn open(&mut self, kind: ObjectKind, q: &crate::netlink::Request<'_>, seq: u32, packet: u64) {
        // Several programs may ask with the same (time-based) sequence number
        // at once (two `ip monitor` starting together): replies go to the
        // oldest request not yet answered. Requests never answered do not
        // pile up beyond a few.
        if self.open.len() >= MAX_OPEN_DUMPS {
            self.open.remove(0);
        }
        let mut d = OpenDump::new(kind, q.family, seq, Some(packet));
        match kind {
            ObjectKind::Links => d.links = std::mem::take(&mut self.spare_links),
            ObjectKind::Addresses => d.addrs = std::mem::take(&mut self.spare_addrs),
            ObjectKind::Routes => {}
        }
        if kind == ObjectKind::Routes {
            d.table = q.table;
            d.oif = q.oif;
            d.other_filter = q.other_filter;
        }
        if kind == ObjectKind::Addresses {
            d.device = q.index.filter(|i| *i != 0);
        }
        self.open.push(d);
    }

    fn position(&self, seq: u32, pid: u32) -> Option<usize> {
        self.open
            .iter()
            .rposition(|d| d.seq == seq && d.pid == Some(pid))
            .or_else(|| self.open.iter().position(|d| d.seq == seq && d.pid.is_none()))
    }

    /// The dump a multipart reply of `msg_type` belongs to: the newest
    /// open request of the reply's kind, with this `seq`, that this port's
    /// replies already fill or that no port has claimed yet. (glibc's
    /// `__check_native` stops reading a link dump once it has the devices
    /// it wants and closes its socket; the next request of the process,
    /// within the same second, has the same port and seq. Pairing by kind
    /// and newest first keeps its replies out of the abandoned dump.)
    fn position_for_reply(&self, msg_type: u16, seq: u32, pid: u32) -> Option<usize> {
        let kind = kind_of(msg_type);
        self.open
            .iter()
            .rposition(|d| d.seq == seq && kind.is_none_or(|k| d.kind == k) && d.pid.is_none_or(|p| p == pid))
    }

    /// Dumps this port left unfinished: a reply from `pid` is about to
    /// claim a newer request with the same `seq`, so older dumps it was
    /// filling will get no more replies. They are taken out (to be merged,
    /// never applied as the whole table).
    #[inline]
    pub fn take_abandoned(&mut self, msg_type: u16, seq: u32, pid: u32) -> Vec<OpenDump> {
        // (a dump is only abandoned for another: most often one is open)
        if self.open.len() < 2 {
            return Vec::new();
        }
        self.split_abandoned(msg_type, seq, pid)
    }

    /// [`take_abandoned`](Self::take_abandoned) with more than one dump open.
    #[inline(never)]
    fn split_abandoned(&mut self, msg_type: u16, seq: u32, pid: u32) -> Vec<OpenDump> {
        let Some(i) = self.position_for_reply(msg_type, seq, pid) else {
            return Vec::new();
        };
        if self.open.get(i).is_none_or(|d| d.pid.is_some()) {
            return Vec::new();
        }
        // Most often there is none: nothing is moved then.
        let abandons = |d: &OpenDump| d.seq == seq && d.pid == Some(pid);
        if !self.open.iter().take(i).any(abandons) {
            return Vec::new();
        }
        // Only dumps opened before the one claimed: split them off, keep
        // the rest in order.
        let newer = self.open.split_off(i);
        let (abandoned, kept): (Vec<OpenDump>, Vec<OpenDump>) =
            std::mem::take(&mut self.open).into_iter().partition(abandons);
        self.open = kept;
        self.open.extend(newer);
        abandoned
    }

    /// The dump a multipart reply belongs to (see
    /// [`Dumps::position_for_reply`]); `true` when it had to be opened
    /// without a request.
    pub fn reply(&mut self, msg_type: u16, seq: u32, pid: u32, packet: u64) -> (&mut OpenDump, bool) {
        let (i, fresh) = match self.position_for_reply(msg_type, seq, pid) {
            Some(i) => (i, false),
            None => {
                let kind = kind_of(msg_type).unwrap_or(ObjectKind::Links);
                self.open.push(OpenDump::new(kind, AddressFamily::Unspec, seq, None));
                (self.open.len() - 1, true)
            }
        };
        // reason: `i` is an index `position` found in `open`, or that of the
        // dump just pushed; nothing removes from `open` in between.
        #[allow(clippy::indexing_slicing)]
        let d = &mut self.open[i];
        d.pid = Some(pid);
        d.last_packet = Some(packet);
        (d, fresh)
    }

    /// A link list a finished dump is done with, emptied, for the next one.
    pub fn give_back_links(&mut self, mut v: Vec<LinkEntry>) {
        if v.capacity() > self.spare_links.capacity() {
            v.clear();
            self.spare_links = v;
        }
    }

    /// An address list a finished dump is done with, emptied, for the next one.
    pub fn give_back_addrs(&mut self, mut v: Vec<AddrEntry>) {
        if v.capacity() > self.spare_addrs.capacity() {
            v.clear();
            self.spare_addrs = v;
        }
    }

    pub fn take(&mut self, seq: u32, pid: u32) -> Option<OpenDump> {
        let i = self.position(seq, pid)?;
        Some(self.open.swap_remove(i))
    }

    /// Whether a dump is being applied in place.
    pub fn any_in_place(&self) -> bool {
        self.open.iter().any(|d| d.in_place.is_some())
    }

    pub fn drain(&mut self) -> Vec<OpenDump> {
        std::mem::take(&mut self.open)
    }
}

/// Whether per-family `[IPv4, IPv6]` flags hold for the families a dump of
/// `family` covers (AF_UNSPEC: both; another family: none, so true): for a
/// route dump, whether an earlier complete one covered them, so that what
/// it shows differently is news.
pub(super) fn covered_before(flags: [bool; 2], family: AddressFamily) -> bool {
    let [v4, v6] = flags;
    match family {
        AddressFamily::Unspec => v4 && v6,
        AddressFamily::Inet => v4,
        AddressFamily::Inet6 => v6,
        _ => true,
    }
}
