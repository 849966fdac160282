//! Dumps: a GET request matched with its multipart replies, applied as the
//! kernel's authoritative view of what it lists.
//!
//! Contract: replies are matched to their request by sequence number (the
//! request's port id is 0; the replies carry the socket's, which is locked
//! on the first reply). On NLMSG_DONE the dump replaces the model's view of
//! that object kind and family, after comparing it with what the model had
//! predicted from notifications; a dump whose request the capture lacks, or
//! a filtered one, is merged into that view instead, and a bridge-port
//! (AF_BRIDGE) link dump is only counted.

use rustc_hash::{FxHashMap, FxHashSet};

use super::changes::{Change, ChangeSink, ObjectKind, Unheard};
use super::dump_order::{GroupId, GroupOrder, Member, Slip};
use super::entries::{AddrEntry, LinkEntry, Origin, RouteEntry};
use super::kernel_order::{self, OrderEvidence};
use super::open_dumps::{InPlace, OpenDump, covered_before};
use super::route_table::RouteTable;
use super::state::{Ctx, DeviceAddrs, LinkOrderSource, Model};
use crate::diag::Diagnostic;
use crate::netlink::names::*;
use crate::netlink::values::{AddressFamily, RouteType, TableId};

/// What a dump speaks for within its families: the filters of its request
/// the kernel applied (route dumps by table and output device, address
/// dumps by device); `None` for each: everything.
#[derive(Debug, Clone, Copy, Default)]
struct Cover {
    table: Option<TableId>,
    oif: Option<u32>,
    device: Option<u32>,
}

impl Cover {
    fn route(&self, r: &RouteEntry) -> bool {
        self.table.is_none_or(|t| r.table == t) && self.oif.is_none_or(|o| r.oif == Some(o))
    }
}

/// A dump's kind of entries as the model held them.
enum View {
    Links(Vec<LinkEntry>),
    Addrs(Vec<AddrEntry>),
    Routes(Vec<RouteEntry>),
}

/// A per-family `[IPv4, IPv6]` flag: IPv6's for AF_INET6, else IPv4's.
fn family_flag(flags: &mut [bool; 2], f: AddressFamily) -> &mut bool {
    let [v4, v6] = flags;
    if f == AddressFamily::Inet6 { v6 } else { v4 }
}

impl Model {
    /// NLMSG_DONE: the dump becomes the model's view (or is merged, when it
    /// had no request or was filtered).
    pub(super) fn apply_dump<S: ChangeSink>(&mut self, mut dump: OpenDump, ctx: &Ctx, sink: &mut S) {
        // An address dump asked for one device's addresses (`ifa_index`,
        // as `ip addr flush dev X` asks) and answered with nothing: the
        // kernel filtered it (NLM_F_DUMP_FILTERED rides on replies, and
        // there were none); had it ignored the filter, it would have listed
        // every address of the namespace, and there is at least lo's.
        if dump.kind == ObjectKind::Addresses && dump.device.is_some() && dump.is_empty() {
            dump.filtered = true;
        }
        if dump.kind == ObjectKind::Links && dump.family == AddressFamily::Bridge {
            // `bridge link show`: bridge-port records, not the device list.
            // It must not replace (and so wipe) the links and all on them.
            self.stats.bridge_port_events += 1;
            return;
        }
        if dump.request_packet.is_none() || !dump.filter_known() {
            if let Some(p) = dump.request_packet.filter(|_| dump.filtered) {
                self.warnings.push(Diagnostic::record(
                    p,
                    ctx.offset,
                    format!(
                        "dump of {:?} filtered by something nlorder does not model ({}): its entries are merged, \
                         and what it left out is not taken as gone",
                        dump.kind,
                        if dump.kind == ObjectKind::Links {
                            "master or kind"
                        } else {
                            "protocol or route type"
                        }
                    ),
                ));
            }
            self.merge_dump(dump, ctx, sink);
            return;
        }
        self.stats.dumps_applied += 1;
        // A dump is named by its request everywhere (entries' origin, the
        // timeline, JSON): the packet that asked is the one `who` lists.
        let packet = dump.request_packet.or(dump.first_packet).unwrap_or(ctx.packet);
        let (kind, family, entries) = (dump.kind, dump.family, dump.len());
        let mut disagreements = Vec::new();
        let fams = dump.families();
        let table = match &dump.in_place {
            Some(p) => dump.table.filter(|_| !p.other_tables),
            None => dump.table.filter(|t| {
                dump.routes
                    .as_ref()
                    .is_none_or(|routes| routes.iter().all(|r| r.table == *t))
            }),
        };
        // Filters by device hold only where the kernel says it applied them
        // (strict checking sets NLM_F_DUMP_FILTERED; without it, everything
        // is listed).
        let cover = Cover {
            table,
            oif: dump.oif.filter(|_| dump.filtered),
            device: dump.device.filter(|_| dump.filtered),
        };
        // A link dump from another host (recordings joined one after the
        // other): the tables the previous one left are replaced whole, said
        // once here, not compared entry by entry with what they held.
        let joined = kind == ObjectKind::Links && self.another_recording(&dump.links);
        if joined {
            self.start_over(packet, ctx);
        }
        self.fresh_section = false;
        // What the model held before, to say what the dump revealed: only
        // once an earlier dump gave it the whole view (the first one is the
        // starting state, not news).
        let seen = match kind {
            ObjectKind::Links => self.seen_link_dump,
            ObjectKind::Addresses => fams.iter().all(|&f| *family_flag(&mut self.seen_addr_dump, f)),
            ObjectKind::Routes => covered_before(self.seen_route_dump, family),
        };
        let wanted = seen && sink.wants_changes();
        // Routes are compared through the two tables' indexes, before the
        // dump replaces the model's (a BGP table is never copied for it).
        let mut revealed = match kind {
            ObjectKind::Routes if wanted && dump.in_place.is_none() => match dump.routes.as_deref() {
                Some(listed) => self.routes_revealed(listed, fams, cover),
                None => self.routes_revealed(&RouteTable::default(), fams, cover),
            },
            _ => Vec::new(),
        };
        let before = (wanted && kind != ObjectKind::Routes).then(|| self.view_of(kind, fams, cover));
        match dump.kind {
            ObjectKind::Links if joined => self.replace_links(dump.links, packet, &mut Vec::new()),
            ObjectKind::Links => {
                self.replace_links(dump.links, packet, &mut disagreements);
                self.undo_early_runs(ctx, sink);
            }
            ObjectKind::Addresses => {
                let mut v6 = std::mem::take(&mut self.scratch_v6);
                v6.clear();
                for a in &dump.addrs {
                    self.note_lifetime(a, ctx);
                    if a.family == AddressFamily::Inet6 {
                        v6.push((a.index, a.address, a.flags));
                    }
                }
                self.replace_addresses(dump.addrs, fams, cover.device, &mut disagreements);
                // (what the kernel's lifetime worker did is shown)
                let device = cover.device;
                self.expired_unshown
                    .retain(|(_, a)| !fams.contains(&a.family) || device.is_some_and(|d| d != a.index));
                // An address the dump no longer lists is gone, and its
                // duplicate address detection with it.
                if fams.contains(&AddressFamily::Inet6) {
                    // (and what `keep_addr_on_down` did is shown)
                    let device = cover.device;
                    self.keep_unknown.retain(|(_, i, _)| device.is_some_and(|d| d != *i));
                }
                if fams.contains(&AddressFamily::Inet6) && !self.dad.is_empty() {
                    let device = cover.device;
                    let listed: FxHashSet<(u32, std::net::IpAddr)> = v6.iter().map(|(i, a, _)| (*i, *a)).collect();
                    self.dad
                        .cancel(|d| device.is_none_or(|x| x == d.index) && !listed.contains(&(d.index, d.address)));
                }
                self.dad_as_dumped(&v6, ctx, sink);
                self.scratch_v6 = v6;
            }
            // A dump filtered to one table speaks for that table only,
            // unless the kernel ignored the filter (no strict checking).
            ObjectKind::Routes => {
                match dump.in_place {
                    Some(mut p) => {
                        let mut order = std::mem::take(&mut p.order);
                        order.close();
                        self.word_slips(order, &mut disagreements);
                        revealed = self.sweep_routes(p, fams, table, wanted, &mut disagreements);
                    }
                    None => self.replace_routes(
                        dump.routes.map(|b| *b).unwrap_or_default(),
                        fams,
                        cover,
                        &mut disagreements,
                    ),
                }
                if cover.table.is_none() && cover.oif.is_none() {
                    for f in fams {
                        *family_flag(&mut self.seen_route_dump, *f) = true;
                    }
                    // (what became of a prefix route taken with its address is shown)
                    if fams.contains(&AddressFamily::Inet6) {
                        self.prefix_route_assumed.clear();
                    }
                }
            }
        }
        // A dump that listed nothing of a family still showed there is none.
        if kind != ObjectKind::Links {
            for &f in fams {
                self.shown(kind == ObjectKind::Routes, f);
                if kind == ObjectKind::Routes {
                    self.shown_table(f, cover.table);
                }
            }
        }
        if let Some(before) = before {
            let after = self.view_of(kind, fams, cover);
            revealed = self.revealed(&before, &after);
        }
        for d in &disagreements {
            self.warnings.push(Diagnostic::record(
                packet,
                ctx.offset,
                format!("dump disagrees with the order predicted from notifications: {d}"),
            ));
        }
        if sink.wants_changes() {
            let n = revealed.len();
            let group = match kind {
                ObjectKind::Links => 0,
                ObjectKind::Addresses => 1,
                ObjectKind::Routes => 2,
            };
            let peer_elsewhere = |c: &Change| match c {
                Change::LinkState { link, was_up, .. } => {
                    link.link_elsewhere
                        && link.kind.as_ref().is_some_and(|k| k.as_bytes() == b"veth")
                        && *was_up == (link.flags & IFF_UP != 0)
                }
                _ => false,
            };
            let unheard = if n == 0 {
                None
            } else if self.stats.requests_applied == 0
                && self.stats.per_group.get(group).is_some_and(|g| g.distinct == 0)
            {
                Some(Unheard::NothingBefore)
            } else if revealed.iter().all(peer_elsewhere) {
                Some(Unheard::PeerElsewhere)
            } else {
                None
            };
            for c in revealed {
                sink.change(ctx.event(Change::Unnotified {
                    change: Box::new(c),
                    dump_packet: packet,
                }));
            }
            sink.change(ctx.event(Change::DumpApplied {
                kind,
                family,
                entries,
                disagreements,
                revealed: n,
                unheard,
                dump_packet: packet,
            }));
        }
    }

    /// Whether a complete link dump starts another recording: the model
    /// holds devices with a hardware address, the dump lists some too, and
    /// no device keeps both its ifindex and its hardware address. A host
    /// dumped again keeps them (a device deleted and made again gets a new
    /// ifindex); one host's recording joined after another's (a capture
    /// made of several, `mergecap -a` or `cat`-like tools) keeps none:
    /// veths, bridges and NICs of two hosts do not share their addresses.
    /// Loopback and devices without an address (tunnels) say nothing
    /// either way. (pcap has no record of where one recording ends, and
    /// their timestamps need not step back: only the dumps can tell.)
    fn another_recording(&self, links: &[LinkEntry]) -> bool {
        let named = |l: &&LinkEntry| l.hwaddr.as_ref().is_some_and(|a| a.as_bytes().iter().any(|b| *b != 0));
        let mut held = self
            .links
            .as_slice()
            .iter()
            .filter(|l| !l.placeholder)
            .filter(named)
            .peekable();
        if held.peek().is_none() || !links.iter().any(|l| named(&l)) {
            return false;
        }
        !held.any(|h| {
            links
                .iter()
                .any(|l| l.index == h.index && l.hwaddr.is_some() && l.hwaddr == h.hwaddr)
        })
    }

    /// Another recording starts at `packet` (see [`Self::another_recording`]):
    /// the addresses and routes the previous one left go at once, rather
    /// than route by route as the new host's dumps come, and the new host's
    /// first dumps are its starting state, as a recording's first dumps
    /// are. One warning says so for the whole join.
    fn start_over(&mut self, packet: u64, ctx: &Ctx) {
        // (a new pcapng section, just said, is where it starts)
        let said = std::mem::take(&mut self.fresh_section);
        if !said {
            self.warnings.push_with(|| {
                Diagnostic::record(
                    packet,
                    ctx.offset,
                    "another recording starts here (no device keeps its ifindex and hardware address): \
                     its dumps replace the tables, which are not compared with the previous host's",
                )
            });
        }
        for (_, d) in self.addrs.drain() {
            recycle(&mut self.addr_pool, d);
        }
        self.slaac_order_unshown.clear();
        self.rebuild_holders();
        // (a route dump applied in place keeps the routes it listed so far)
        if !self.dumps.any_in_place() {
            self.routes.clear();
        }
        self.seen_link_dump = false;
        self.seen_addr_dump = [false; 2];
        self.seen_route_dump = [false; 2];
        self.routes_shown = [false; 2];
        self.addrs_shown = [false; 2];
        self.recording_start = Some(packet);
    }

    /// A new pcapng section starts at `ctx`'s record: another capture
    /// appended to the file (`cat` of two pcapng files), of this host or
    /// another, with a gap between the two that no message shows. The
    /// tables stay as the previous capture left them, but nothing counts as
    /// shown until this capture's own messages show it, so that answers say
    /// what they rest on; a link dump of another host then replaces them
    /// (see [`Self::start_over`]), without a second warning.
    pub(super) fn new_section(&mut self, ctx: &Ctx) {
        self.warnings.push_with(|| {
            Diagnostic::record(
                ctx.packet,
                ctx.offset,
                "another recording starts here (a new pcapng section: a capture appended to this one); what \
                 changed between the two is not in the file: the tables are the previous recording's until this \
                 one's messages show them, and a link dump of another host replaces them",
            )
        });
        self.fresh_section = true;
        self.seen_link_dump = false;
        self.seen_addr_dump = [false; 2];
        self.seen_route_dump = [false; 2];
        self.routes_shown = [false; 2];
        self.addrs_shown = [false; 2];
        self.route_tables_shown = Default::default();
    }

    /// The end of a route dump applied in place: the routes it speaks for
    /// and did not list go. Returns what it revealed (with `wanted`).
    fn sweep_routes(
        &mut self,
        p: InPlace,
        families: &[AddressFamily],
        table: Option<TableId>,
        wanted: bool,
        disagreements: &mut Vec<String>,
    ) -> Vec<Change> {
        let covered = |r: &RouteEntry| families.contains(&r.family) && table.is_none_or(|t| r.table == t);
        let gone = self.routes.sweep(p.mark, covered);
        for r in gone.iter().filter(|r| !r.origin.is_dump()) {
            disagreements.push(format!(
                "route {} predicted from notifications is not in the dump",
                self.route_text(r)
            ));
        }
        if !wanted {
            return Vec::new();
        }
        let mut out: Vec<Change> = p
            .added
            .into_iter()
            .filter(|r| covered(r))
            .map(|r| {
                let dev = self.route_dev(&r);
                Change::RouteAdded { route: r, dev }
            })
            .collect();
        for o in gone {
            let dev = self.route_dev(&o);
            out.push(Change::RouteRemoved { route: o, dev });
        }
        out
    }

    /// What a route dump adds to and removes from the routes it speaks for.
    fn routes_revealed(&self, dump: &RouteTable, families: &[AddressFamily], cover: Cover) -> Vec<Change> {
        let covered = |r: &RouteEntry| families.contains(&r.family) && cover.route(r);
        let mut out = Vec::new();
        for r in dump.iter().filter(|r| covered(r) && !self.routes.contains(&r.key())) {
            out.push(Change::RouteAdded {
                route: r.clone(),
                dev: self.route_dev(r),
            });
        }
        for o in self.routes.iter().filter(|o| covered(o) && !dump.contains(&o.key())) {
            out.push(Change::RouteRemoved {
                route: o.clone(),
                dev: self.route_dev(o),
            });
        }
        out
    }

    /// The entries a dump of `kind` speaks for.
    fn view_of(&self, kind: ObjectKind, families: &[AddressFamily], cover: Cover) -> View {
        match kind {
            ObjectKind::Links => View::Links(
                self.links
                    .as_slice()
                    .iter()
                    .filter(|l| !l.placeholder)
                    .cloned()
                    .collect(),
            ),
            ObjectKind::Addresses => View::Addrs(
                self.addresses(None)
                    .into_iter()
                    .filter(|a| families.contains(&a.family) && cover.device.is_none_or(|d| a.index == d))
                    .cloned()
                    .collect(),
            ),
            ObjectKind::Routes => View::Routes(
                self.routes()
                    .into_iter()
                    .filter(|r| families.contains(&r.family) && cover.route(r))
                    .cloned()
                    .collect(),
            ),
        }
    }

    /// What changed between two views of the same kind, as changes.
    /// (Each side is looked up in a hash of the other: a dump can list a
    /// million routes.)
    fn revealed(&self, before: &View, after: &View) -> Vec<Change> {
        let mut out = Vec::new();
        match (before, after) {
            (View::Links(b), View::Links(a)) => {
                let old: FxHashMap<u32, &LinkEntry> = b.iter().map(|o| (o.index, o)).collect();
                let new: FxHashSet<u32> = a.iter().map(|l| l.index).collect();
                for l in a {
                    match old.get(&l.index) {
                        None => out.push(Change::LinkAdded(l.clone())),
                        Some(o) => {
                            if o.name != l.name {
                                out.push(Change::LinkRenamed {
                                    link: l.clone(),
                                    from: o.name.display(),
                                });
                            }
                            // (its state: up, carrier, oper up, and the
                            // operational state where both say one)
                            let flags = (o.flags ^ l.flags) & (IFF_UP | IFF_LOWER_UP | IFF_RUNNING) != 0;
                            let oper = o.operstate.is_some() && l.operstate.is_some() && o.operstate != l.operstate;
                            if flags || oper {
                                out.push(Change::LinkState {
                                    link: l.clone(),
                                    was_up: o.flags & IFF_UP != 0,
                                    was_operstate: o.operstate,
                                });
                            }
                        }
                    }
                }
                for o in b.iter().filter(|o| !new.contains(&o.index)) {
                    out.push(Change::LinkRemoved(o.clone()));
                }
            }
            (View::Addrs(b), View::Addrs(a)) => {
                let old: FxHashSet<_> = b.iter().map(AddrEntry::key).collect();
                let new: FxHashSet<_> = a.iter().map(AddrEntry::key).collect();
                for x in a.iter().filter(|x| !old.contains(&x.key())) {
                    let position = self
                        .device_addresses(x.index, x.family)
                        .iter()
                        .position(|e| e.same_key(x))
                        .unwrap_or(0);
                    out.push(Change::AddrAdded {
                        addr: x.clone(),
                        ifname: self.ifname(x.index),
                        position,
                        new_link: None,
                    });
                }
                for o in b.iter().filter(|o| !new.contains(&o.key())) {
                    out.push(Change::AddrRemoved {
                        addr: o.clone(),
                        ifname: self.ifname(o.index),
                        promoted: None,
                        removed_secondaries: Vec::new(),
                    });
                }
            }
            (View::Routes(b), View::Routes(a)) => {
                let old: FxHashSet<_> = b.iter().map(RouteEntry::key).collect();
                let new: FxHashSet<_> = a.iter().map(RouteEntry::key).collect();
                for r in a.iter().filter(|r| !old.contains(&r.key())) {
                    out.push(Change::RouteAdded {
                        route: r.clone(),
                        dev: self.route_dev(r),
                    });
                }
                for o in b.iter().filter(|o| !new.contains(&o.key())) {
                    out.push(Change::RouteRemoved {
                        route: o.clone(),
                        dev: self.route_dev(o),
                    });
                }
            }
            _ => {}
        }
        out
    }

    fn replace_links(&mut self, links: Vec<LinkEntry>, packet: u64, disagreements: &mut Vec<String>) {
        // What the model predicted, for the links both know.
        // (sorted, looked up by halves: a dump lists a few devices)
        // (the lists of devices come from the model's scratch lists and go
        // back to them: a host dumped again and again allocates none)
        let mut listed = std::mem::take(&mut self.scratch_listed);
        listed.clear();
        listed.extend(links.iter().map(|l| l.index));
        listed.sort_unstable();
        let mut ids = std::mem::take(&mut self.scratch_ids);
        let listed_has = |i: &u32| listed.binary_search(i).is_ok();
        if self
            .links
            .as_slice()
            .iter()
            .any(|l| !l.origin.is_dump() && !l.placeholder)
        {
            let predicted: Vec<u32> = self
                .links
                .as_slice()
                .iter()
                .map(|l| l.index)
                .filter(|i| listed_has(i))
                .collect();
            let seen_common: Vec<u32> = links
                .iter()
                .map(|l| l.index)
                .filter(|i| self.links.contains(*i))
                .collect();
            if predicted != seen_common {
                let names = |v: &[u32]| {
                    v.iter()
                        .map(|i| {
                            links
                                .iter()
                                .find(|l| l.index == *i)
                                .map(|l| l.display_name())
                                .unwrap_or_default()
                        })
                        .collect::<Vec<_>>()
                };
                disagreements.push(order_difference("links", &names(&predicted), &names(&seen_common)));
            }
            // Each link's state as predicted: up, carrier, running and
            // the operational state (a veth whose peer is down has no
            // carrier, LOWERLAYERDOWN), where the model had a prediction.
            // (Not while its linkwatch event waits: the state then is
            // before or after it, which the assumptions say.)
            const STATE: u32 = IFF_UP | IFF_LOWER_UP | IFF_RUNNING;
            for l in &links {
                let Some(old) = self.links.get(l.index) else { continue };
                if old.placeholder || old.operstate.is_none() || l.operstate.is_none() || self.state(l.index).lw_pending
                {
                    continue;
                }
                if (old.flags & STATE, old.operstate) != (l.flags & STATE, l.operstate) {
                    let show = |x: &LinkEntry| {
                        format!(
                            "<{}> state {}",
                            link_flags(x.flags & STATE).join(","),
                            operstate(x.operstate.unwrap_or(0))
                        )
                    };
                    disagreements.push(format!(
                        "link {}: expected {}, seen {}",
                        l.display_name(),
                        show(old),
                        show(l)
                    ));
                }
            }
        }
        if !matches!(
            self.link_order_source,
            LinkOrderSource::Forced | LinkOrderSource::Kernel { .. }
        ) {
            ids.clear();
            ids.extend(links.iter().map(|l| l.index));
            match kernel_order::infer_link_order(&ids) {
                OrderEvidence::Decided(order, evidence) => {
                    self.link_order = order;
                    self.link_order_source = LinkOrderSource::Dump { packet, evidence };
                }
                OrderEvidence::Ambiguous => {}
                OrderEvidence::Neither(why) => self.warnings.push(Diagnostic::record(
                    packet,
                    0,
                    format!("link dump fits neither ascending nor hash-bucket order: {why}"),
                )),
            }
        }
        // Addresses and routes of devices that no longer exist go with them.
        ids.clear();
        ids.extend(
            self.links
                .as_slice()
                .iter()
                .map(|l| l.index)
                .filter(|i| !listed.contains(i)),
        );
        self.routes.remove_devices(&ids);
        for &i in &ids {
            self.addrs.remove(&i);
            self.sync_holders(i);
            self.devices.remove(&i);
        }
        // What a dump cannot say (the veth peer, an address set by hand) carries over.
        let mut links = links;
        for l in &mut links {
            if let Some(old) = self.links.get(l.index) {
                if !l.link_elsewhere {
                    l.peer = l.peer.or(old.peer);
                }
                l.hwaddr_set |= old.hwaddr_set;
            }
        }
        let old = self.links.replace_all(links);
        self.dumps.give_back_links(old);
        self.seen_link_dump = true;
        ids.clear();
        ids.extend(self.links.as_slice().iter().map(|l| l.index));
        for &i in &ids {
            self.sync_link_state(i);
        }
        self.scratch_ids = ids;
        self.scratch_listed = listed;
        // Devices with addresses but no link entry keep a placeholder.
        for i in self.addressed_without_link() {
            self.links
                .insert(LinkEntry::placeholder(i, Origin::Inferred(packet)), self.link_order);
        }
    }

    /// The devices holding addresses that no link entry names, ascending.
    fn addressed_without_link(&self) -> Vec<u32> {
        let mut missing: Vec<u32> = self
            .addrs
            .keys()
            .copied()
            .filter(|i| !self.links.contains(*i))
            .collect();
        missing.sort_unstable();
        missing
    }

    fn replace_addresses(
        &mut self,
        addrs: Vec<AddrEntry>,
        families: &[AddressFamily],
        device: Option<u32>,
        disagreements: &mut Vec<String>,
    ) {
        // (the lists come from the pool of emptied ones and go back to it:
        // a host dumped again and again allocates nothing)
        let mut fresh = std::mem::take(&mut self.addr_scratch);
        let mut device_order: Vec<u32> = Vec::new();
        let mut addrs = addrs;
        for a in addrs.drain(..) {
            if !families.contains(&a.family) || device.is_some_and(|d| a.index != d) {
                continue;
            }
            let d = fresh.entry(a.index).or_default();
            let list = d.list_mut(a.family);
            if list.is_empty() && families.first() == Some(&a.family) {
                device_order.push(a.index);
            }
            if list.capacity() == 0
                && let Some(v) = self.addr_pool.pop()
            {
                *list = v;
            }
            list.push(a);
        }
        for &fam in families {
            // Compare with the prediction, device by device: only a device
            // the model holds an address of that no dump listed can differ
            // (one the model holds none of has nothing predicted).
            let mut devices: Vec<u32> = self
                .addrs
                .iter()
                .filter(|(i, d)| device.is_none_or(|x| x == **i) && d.list(fam).iter().any(|a| !a.origin.is_dump()))
                .map(|(i, _)| *i)
                .collect();
            devices.sort_unstable();
            for i in devices {
                let old = self.device_addresses(i, fam);
                let new = fresh.get(&i).map(|d| d.list(fam).as_slice()).unwrap_or_default();
                let same = old.len() == new.len() && old.iter().zip(new).all(|(a, b)| a.same_key(b));
                if !same {
                    let show = |v: &[AddrEntry]| v.iter().map(AddrEntry::cidr).collect::<Vec<_>>();
                    let what = format!("{} {}", self.ifname(i), fam.name());
                    disagreements.push(order_difference(&what, &show(old), &show(new)));
                }
            }
            match device {
                Some(d) => {
                    if let Some(d) = self.addrs.get_mut(&d) {
                        d.list_mut(fam).clear();
                    }
                    if fam == AddressFamily::Inet6 {
                        self.slaac_order_unshown.remove(&d);
                    }
                }
                None => {
                    for d in self.addrs.values_mut() {
                        d.list_mut(fam).clear();
                    }
                    *family_flag(&mut self.seen_addr_dump, fam) = true;
                    if fam == AddressFamily::Inet6 {
                        self.slaac_order_unshown.clear();
                    }
                }
            }
        }
        // The dump walks devices in the kernel's link order.
        let mut positions = device_order.iter().filter_map(|i| self.links.position_of(*i));
        let mut out_of_order = false;
        if let Some(mut last) = positions.next() {
            for p in positions {
                out_of_order |= p < last;
                last = p;
            }
        }
        if self.seen_link_dump && device.is_none() && out_of_order {
            disagreements.push(format!(
                "the address dump walks devices in the order {:?}, unlike the link dump",
                device_order
            ));
        }
        for (i, mut d) in fresh.drain() {
            let slot = self.addrs.entry(i).or_default();
            for &fam in families {
                // (the list it replaces, emptied above, goes to the pool)
                std::mem::swap(slot.list_mut(fam), d.list_mut(fam));
            }
            recycle(&mut self.addr_pool, d);
        }
        self.addr_scratch = fresh;
        self.dumps.give_back_addrs(addrs);
        let pool = &mut self.addr_pool;
        self.addrs.retain(|_, d| {
            let keep = !d.v4.is_empty() || !d.v6.is_empty();
            if !keep {
                recycle(pool, std::mem::take(d));
            }
            keep
        });
        self.rebuild_holders();
        for i in self.addressed_without_link() {
            let packet = families
                .first()
                .and_then(|&f| self.device_addresses(i, f).first())
                .map(|a| a.origin.packet())
                .unwrap_or(0);
            self.links
                .insert(LinkEntry::placeholder(i, Origin::Dump(packet)), self.link_order);
        }
    }

    fn replace_routes(
        &mut self,
        mut routes: RouteTable,
        families: &[AddressFamily],
        cover: Cover,
        disagreements: &mut Vec<String>,
    ) {
        let covered = |r: &RouteEntry| families.contains(&r.family) && cover.route(r);
        // The order of each group, and each multipath route's next hops.
        let mut order = GroupOrder::default();
        for r in routes.iter().filter(|r| covered(r)) {
            order.see(r, self.routes.get(&r.key()));
        }
        order.close();
        self.word_slips(order, disagreements);
        for r in self.routes.iter().filter(|r| covered(r) && !r.origin.is_dump()) {
            if !routes.contains(&r.key()) {
                disagreements.push(format!(
                    "route {} predicted from notifications is not in the dump",
                    self.route_text(r)
                ));
            }
        }
        if self
            .routes
            .tables()
            .all(|(f, t)| families.contains(&f) && cover.oif.is_none() && cover.table.is_none_or(|x| x == t))
        {
            // The dump covers every table the model had: the old one goes whole.
            self.routes = RouteTable::default();
        } else {
            self.routes.retain(|r| !covered(r));
        }
        if routes.tables().any(|(f, _)| !families.contains(&f)) {
            routes.retain(|r| families.contains(&r.family));
        }
        if self.routes.is_empty() {
            // The dump speaks for every route the model had: it is the table.
            self.routes = routes;
            return;
        }
        let base = self.routes.next_seq();
        for mut r in routes.into_routes() {
            r.seq += base;
            self.routes.insert(r);
        }
    }

    /// The dump's slips from the predicted order of routes, in words.
    fn word_slips(&self, order: GroupOrder, disagreements: &mut Vec<String>) {
        let hop = |g: &Option<std::net::IpAddr>, dev: u32| match g {
            Some(g) => format!("via {g} dev {}", self.ifname(dev)),
            None => format!("dev {}", self.ifname(dev)),
        };
        let member = |m: &Member| {
            if !m.next_hops.is_empty() {
                let hops: Vec<String> = m.next_hops.iter().map(|(g, d)| hop(g, *d)).collect();
                return format!("nexthops {}", hops.join(" + "));
            }
            match (m.gateway, m.oif) {
                (g, Some(d)) => hop(&g, d),
                (Some(g), None) => format!("via {g}"),
                (None, None) => "no device".to_owned(),
            }
        };
        let group = |g: &GroupId| {
            let dst = match g.dst {
                _ if g.dst_len == 0 => "default".to_owned(),
                Some(d) => format!("{d}/{}", g.dst_len),
                None => format!("?/{}", g.dst_len),
            };
            let kind = if g.kind == RouteType::Unicast {
                String::new()
            } else {
                format!("{} ", g.kind)
            };
            let metric = g.priority.map(|m| format!(" metric {m}")).unwrap_or_default();
            format!("{kind}{dst} table {}{metric}", g.table)
        };
        for slip in &order.slips {
            match slip {
                Slip::Group {
                    group: g,
                    expected,
                    seen,
                } => {
                    let e: Vec<String> = expected.iter().map(member).collect();
                    let s: Vec<String> = seen.iter().map(member).collect();
                    disagreements.push(order_difference(&format!("routes {}", group(g)), &e, &s));
                }
                Slip::NextHops {
                    group: g,
                    expected,
                    seen,
                } => {
                    let e: Vec<String> = expected.iter().map(|(g, d)| hop(g, *d)).collect();
                    let s: Vec<String> = seen.iter().map(|(g, d)| hop(g, *d)).collect();
                    disagreements.push(order_difference(&format!("next hops of {}", group(g)), &e, &s));
                }
            }
        }
        if order.more > 0 {
            disagreements.push(format!(
                "and {} more groups of routes out of their predicted order",
                order.more
            ));
        }
    }

    /// A dump that cannot replace the table (no request seen, filtered, or
    /// unfinished): its entries are upserted like notifications, keeping
    /// the dump as their origin.
    pub(super) fn merge_dump<S: ChangeSink>(&mut self, dump: OpenDump, ctx: &Ctx, sink: &mut S) {
        // (what it changes is told at `ctx`, the moment it is merged, with
        // that moment's time: never under the request's earlier number)
        for l in dump.links {
            let c = *ctx;
            let index = l.index;
            self.upsert_link(l, &c, sink);
            // The kernel's state as the dump shows it, side effects done.
            self.sync_link_state(index);
        }
        self.undo_early_runs(ctx, sink);
        for a in dump.addrs {
            self.upsert_addr(a, ctx, sink);
        }
        for r in dump.routes.map(|b| b.into_routes()).unwrap_or_default() {
            self.insert_route(r, super::tables::Placement::Append, ctx, sink);
        }
    }
}

/// How many entries of a list both sides name in full.
const SHOWN_WHOLE: usize = 8;
/// How many differing positions a long list's summary shows.
const FIRST_FEW: usize = 5;

/// A predicted and a seen order that differ, in words: both lists when
/// short; for long ones (a thousand pods), how many positions differ and
/// the first few, so one warning stays one readable line.
pub(crate) fn order_difference(what: &str, expected: &[String], seen: &[String]) -> String {
    if expected.len().max(seen.len()) <= SHOWN_WHOLE {
        return format!("{what}: expected [{}], seen [{}]", expected.join(", "), seen.join(", "));
    }
    let none = String::from("nothing");
    let differ: Vec<String> = (0..expected.len().max(seen.len()))
        .filter(|&i| expected.get(i) != seen.get(i))
        .map(|i| {
            format!(
                "#{}: expected {}, seen {}",
                i + 1,
                expected.get(i).unwrap_or(&none),
                seen.get(i).unwrap_or(&none)
            )
        })
        .collect();
    let total = expected.len().max(seen.len());
    format!(
        "{what}: {} of {total} positions differ from the predicted order, first few: {}",
        differ.len(),
        differ.iter().take(FIRST_FEW).cloned().collect::<Vec<_>>().join("; ")
    )
}

/// Address lists kept for reuse, at most.
const ADDR_POOL: usize = 64;

/// Gives a device's emptied address lists to the pool (those that hold
/// room), so that the next dump's lists need no allocation.
fn recycle(pool: &mut Vec<Vec<AddrEntry>>, d: DeviceAddrs) {
    for mut v in [d.v4, d.v6] {
        if v.capacity() > 0 && pool.len() < ADDR_POOL {
            v.clear();
            pool.push(v);
        }
    }
}

#[cfg(test)]
mod order_difference_tests {
    use super::order_difference;

    fn names(prefix: &str, n: usize) -> Vec<String> {
        (0..n).map(|i| format!("{prefix}{i}")).collect()
    }

    #[test]
    fn a_short_list_is_shown_whole() {
        let s = order_difference("links", &names("a", 3), &names("b", 3));
        assert_eq!(s, "links: expected [a0, a1, a2], seen [b0, b1, b2]");
    }

    #[test]
    fn a_long_list_says_how_many_differ_and_the_first_few() {
        let expected = names("cali", 1000);
        let mut seen = expected.clone();
        seen.swap(3, 700);
        seen.swap(10, 11);
        let s = order_difference("links", &expected, &seen);
        assert!(s.starts_with("links: 4 of 1000 positions differ from the predicted order, first few: #4: expected cali3, seen cali700; #11:"), "{s}");
        assert!(s.len() < 300, "{} bytes", s.len());
    }
}
