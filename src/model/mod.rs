//! The kernel model: links, addresses and routes in the kernel's own order,
//! rebuilt message by message from a capture.
//!
//! Contract: pure (no I/O). [`Model::apply`] takes decoded messages in
//! capture order; dumps replace the model's view of what they list with
//! exactly what the kernel sent, notifications are placed where the kernel
//! would have put them (see [`kernel_order`]), and every entry remembers
//! whether its position was seen in a dump or inferred. Problems (dumps that
//! contradict the prediction, interrupted or unfinished dumps, notifications
//! for unknown devices) become diagnostics, never errors. The model's size
//! depends on the size of the tables, not on the length of the capture.

pub mod assumption;
pub mod changes;
mod dad;
mod dumps;
pub mod entries;
mod inferred_routes;
pub mod kernel_order;
pub mod kernel_rules;
pub mod lifetimes;
pub mod link_table;
mod linkwatch;
mod linkwatch_queue;
mod notify;
mod open_dumps;
mod pending_requests;
pub mod prefix;
mod requests;
pub mod route_order;
pub mod route_table;

use std::collections::HashSet;

use rustc_hash::FxHashMap;

use crate::diag::{Diagnostic, Diagnostics};
use crate::netlink::Body;
use crate::netlink::names::*;
use crate::trace::TraceMessage;

pub use assumption::Assumption;
pub use changes::{Change, ChangeSink, Event, ObjectKind};
pub use entries::{AddrEntry, KernelRule, LinkEntry, Origin, RouteEntry, RouteKey, ShortName};
pub use kernel_order::{KernelVersion, LinkOrder};
pub use link_table::LinkTable;
pub use route_table::RouteTable;

/// What the kernel's timers did after the last record (`--at end+SECS`),
/// kept apart so the printers can mark it assumed.
#[derive(Debug, Default)]
struct AfterCapture {
    /// The timers are running past the last record now.
    running: bool,
    /// Routes they added.
    routes: rustc_hash::FxHashSet<RouteKey>,
    /// Addresses they added or whose duplicate address detection they ended.
    addrs: rustc_hash::FxHashSet<lifetimes::AddrKey>,
    /// Addresses whose lifetime they ended (deleted).
    expired: Vec<(u32, String)>,
}

/// How the model was told to behave where a capture cannot say.
#[derive(Debug, Clone, Copy)]
pub struct ModelOptions {
    /// `net.ipv4.conf.*.promote_secondaries`: on a primary's deletion the
    /// first secondary of its subnet is promoted (on) or all are removed (off).
    pub promote_secondaries: bool,
    /// Force the device walk order instead of inferring it from a link dump.
    pub link_order: Option<LinkOrder>,
    /// The captured host's kernel (`--kernel`, or the capture's `shb_os`):
    /// chooses the release-specific rules.
    pub kernel: Option<KernelVersion>,
}

impl Default for ModelOptions {
    fn default() -> Self {
        ModelOptions {
            promote_secondaries: true,
            link_order: None,
            kernel: None,
        }
    }
}

/// Where the link order in use came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "source", rename_all = "lowercase")]
pub enum LinkOrderSource {
    /// `--kernel-order`.
    Forced,
    /// The kernel release (`--kernel` or the capture's `shb_os`).
    Kernel { version: String },
    /// Inferred from a link dump.
    Dump { packet: u64, evidence: String },
    /// No dump could tell; modern kernels walk in ascending ifindex.
    Default,
}

/// Counts for the summary.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ModelStats {
    pub dumps_applied: u64,
    /// Distinct notifications applied.
    pub notifications: u64,
    /// Further byte-identical copies of them (one per extra listener).
    pub duplicate_notifications: u64,
    pub bridge_port_events: u64,
    /// Change requests the kernel accepted (and the model applied).
    pub requests_applied: u64,
    /// Change requests the kernel refused.
    pub requests_refused: u64,
}

impl ModelStats {
    /// How many sockets listened to rtnetlink groups, as the copies of each
    /// notification say: nlmon records one copy per delivery. 0 when the
    /// capture holds no notification at all (a quiet host).
    pub fn listeners(&self) -> u64 {
        (self.notifications + self.duplicate_notifications + self.notifications / 2)
            .checked_div(self.notifications)
            .unwrap_or(0)
    }
}

/// What the model tracks of a device beyond its link message: the state
/// the kernel's rules react to.
#[derive(Debug, Default, Clone, Copy)]
struct DeviceState {
    /// Its kernel state below was set: at registration, or from the first
    /// message that showed the device.
    seen: bool,
    /// Administratively up, as the model last reacted to it.
    admin_up: bool,
    /// `netif_carrier_ok` as the kernel has it now (a VLAN's is what the
    /// kernel last handed it; see `Model::carrier`).
    carrier: bool,
    /// `netif_oper_up`: the operational state linkwatch last gave it is UP
    /// or UNKNOWN. It follows the carrier only once the device's linkwatch
    /// event has run (see `linkwatch`).
    oper_up: bool,
    /// A tx qdisc is attached (`!qdisc_tx_is_noop`): the device was opened,
    /// or linkwatch last saw it, with carrier.
    qdisc: bool,
    /// A linkwatch event is queued for it, with this ticket.
    lw_pending: bool,
    lw_ticket: u64,
    /// Ready for IPv6 (`addrconf_link_ready`: up, oper up, with a tx qdisc).
    ipv6_ready: bool,
    /// Its IPv6 configuration (link-local address, fe80::/64 and ff00::/8)
    /// was made since it last went up (the kernel's IF_READY): losing and
    /// regaining carrier does not make it again.
    ipv6_configured: bool,
    /// Its EUI-64 link-local address was made without knowing the MAC.
    unknown_link_local: bool,
    /// A bridge that has had a port (its carrier follows its ports).
    had_ports: bool,
    /// A veth whose peer is in another namespace, last shown by a message
    /// up without carrier: its peer is down. Until a message shows it, the
    /// peer is taken to be up (the software that puts a peer elsewhere, a
    /// CNI plugin, brings it up there); the capture cannot say.
    foreign_peer_down: bool,
    /// Its MTU is below IPv6's minimum: IPv6 is off on it.
    ipv6_off: bool,
}

#[derive(Debug, Default)]
struct DeviceAddrs {
    v4: Vec<AddrEntry>,
    v6: Vec<AddrEntry>,
}

impl DeviceAddrs {
    fn list(&self, family: u8) -> &Vec<AddrEntry> {
        if family == AF_INET6 { &self.v6 } else { &self.v4 }
    }

    fn list_mut(&mut self, family: u8) -> &mut Vec<AddrEntry> {
        if family == AF_INET6 { &mut self.v6 } else { &mut self.v4 }
    }
}

/// The kernel's tables and the state its rules need, composed of tables
/// that each keep their own order and indexes ([`LinkTable`],
/// [`RouteTable`], a device's address lists) while the rules that change
/// them are split by what they react to (`notify`, `requests`, `dumps`,
/// `kernel_rules`).
pub struct Model {
    options: ModelOptions,
    links: LinkTable,
    /// Each device's addresses; a device without any has no entry.
    addrs: FxHashMap<u32, DeviceAddrs>,
    /// The devices holding an IPv4, and an IPv6, address.
    holders: [rustc_hash::FxHashSet<u32>; 2],
    routes: RouteTable,
    /// Change requests waiting for the kernel's answer.
    pending: pending_requests::PendingRequests,
    /// The last ifindex the kernel assigned by itself (its allocation hint).
    last_assigned_index: u32,
    devices: FxHashMap<u32, DeviceState>,
    /// The first packet where a deletion relied on the promote_secondaries option.
    assumed_promotion: Option<u64>,
    /// Duplicate address detection under way (IPv6 local routes wait for it).
    dad: dad::PendingDads,
    /// Devices whose operational state has yet to follow their carrier.
    lw: linkwatch_queue::Linkwatch,
    /// DAD still under way at the moment the tables were asked for.
    dad_unfinished: Vec<dad::PendingDad>,
    /// Addresses whose DADs ended unseen (by time, no notification) close
    /// enough together that the order of their local routes is not known.
    dad_order_unknown: Vec<std::net::IpAddr>,
    /// Routes and addresses the kernel's timers made after the last record
    /// (`--at end+SECS`): assumed, nothing in the capture shows them.
    after_capture: AfterCapture,
    link_order: LinkOrder,
    link_order_source: LinkOrderSource,
    dumps: open_dumps::Dumps,
    /// Which object kinds/families a complete dump has shown (so a
    /// notification about something unknown is worth a warning).
    seen_link_dump: bool,
    seen_addr_dump: [bool; 2],
    seen_route_dump: [bool; 2],
    warned_unknown: HashSet<u32>,
    /// Links created by notifications during the capture.
    created_links: HashSet<u32>,
    copies: Copies,
    warnings: Diagnostics,
    stats: ModelStats,
    last_packet: u64,
    last_ts: Option<crate::capture::Timestamp>,
    /// When each address with a finite valid lifetime runs out.
    lifetimes: lifetimes::Lifetimes,
}

impl Model {
    pub fn new(options: ModelOptions) -> Self {
        let (link_order, link_order_source) = match (options.link_order, options.kernel) {
            (Some(o), _) => (o, LinkOrderSource::Forced),
            (None, Some(k)) => (k.link_order(), LinkOrderSource::Kernel { version: k.to_string() }),
            (None, None) => (LinkOrder::Ascending, LinkOrderSource::Default),
        };
        Model {
            options,
            links: LinkTable::new(),
            addrs: FxHashMap::default(),
            holders: Default::default(),
            routes: RouteTable::default(),
            pending: pending_requests::PendingRequests::default(),
            last_assigned_index: 0,
            devices: FxHashMap::default(),
            assumed_promotion: None,
            dad: dad::PendingDads::default(),
            lw: linkwatch_queue::Linkwatch::default(),
            dad_unfinished: Vec::new(),
            dad_order_unknown: Vec::new(),
            after_capture: AfterCapture::default(),
            link_order,
            link_order_source,
            dumps: open_dumps::Dumps::default(),
            seen_link_dump: false,
            seen_addr_dump: [false; 2],
            seen_route_dump: [false; 2],
            warned_unknown: HashSet::new(),
            created_links: HashSet::new(),
            copies: Copies::default(),
            warnings: Diagnostics::default(),
            stats: ModelStats::default(),
            last_packet: 0,
            last_ts: None,
            lifetimes: lifetimes::Lifetimes::default(),
        }
    }

    /// A model with default options holding these tables: links in dump
    /// order, each device's addresses in list order, routes numbered in the
    /// order given (a route with the key of an earlier one replaces it).
    /// The links count as dumped, so later notifications about other
    /// devices are warned about; the entries keep their origins.
    pub fn from_tables(links: Vec<LinkEntry>, addrs: Vec<AddrEntry>, routes: Vec<RouteEntry>) -> Self {
        let mut m = Model::new(ModelOptions::default());
        m.links.replace_all(links);
        for a in addrs {
            m.addrs.entry(a.index).or_default().list_mut(a.family).push(a);
        }
        m.rebuild_holders();
        for (i, mut r) in routes.into_iter().enumerate() {
            r.seq = i as i64;
            m.routes.insert(r);
        }
        m.seen_link_dump = true;
        m
    }

    /// Applies one message of the capture.
    pub fn apply<S: ChangeSink>(&mut self, m: &TraceMessage<'_>, sink: &mut S) {
        let d = &m.decoded;
        let h = d.header;
        self.last_packet = m.packet;
        if m.ts.is_some() {
            self.last_ts = m.ts;
        }
        if self.options.kernel.is_none()
            && self.options.link_order.is_none()
            && let Some(k) = m.os.and_then(|os| os.parse::<KernelVersion>().ok())
        {
            // The capture names its kernel (pcapng shb_os): its rules apply.
            self.options.kernel = Some(k);
            self.link_order = k.link_order();
            self.link_order_source = LinkOrderSource::Kernel {
                version: format!("{k} (the capture's shb_os)"),
            };
        }
        let multi = h.flags & NLM_F_MULTI != 0;
        let ctx = Ctx {
            packet: m.packet,
            ts: m.ts,
            offset: m.offset,
        };
        let mut is_notification = false;
        self.lw.clock = m.ts.map(|t| t.as_nanos());
        self.linkwatch_timer(&ctx, sink);
        self.finish_dad(m.ts, None, &ctx, sink);
        self.expire_addresses(&ctx, sink);
        match &d.body {
            Body::Request(q) => {
                if is_dump_request(h.kind, h.flags) {
                    if let Some(kind) = open_dumps::kind_of(h.kind) {
                        self.dumps.open(kind, q.family, q.table, h.seq, m.packet);
                    }
                } else if let Some(p) = pending_requests::pending_of(h.kind, h.flags, h.seq, m.packet, &d.body) {
                    // A GET for one object: its reply is not a notification.
                    self.request(p, &ctx, sink);
                }
            }
            // User space asking for a change: applied once the kernel accepts it.
            _ if d.is_request() => {
                if let Some(p) = pending_requests::pending_of(h.kind, h.flags, h.seq, m.packet, &d.body) {
                    self.request(p, &ctx, sink);
                }
            }
            Body::Done { error } => {
                if let Some(dump) = self.dumps.take(h.seq, h.pid) {
                    if *error != 0 {
                        self.warn(
                            &ctx,
                            format!(
                                "dump of {:?} failed with {}: {}",
                                dump.kind,
                                errno(*error),
                                dump.unapplied()
                            ),
                        );
                    } else {
                        self.apply_dump(dump, &ctx, sink);
                    }
                }
            }
            Body::Error(e) => {
                if e.error != 0
                    && let Some(dump) = self.dumps.take(h.seq, h.pid)
                {
                    self.warn(
                        &ctx,
                        format!(
                            "dump of {:?} answered with {}: {}",
                            dump.kind,
                            errno(e.error),
                            dump.unapplied()
                        ),
                    );
                } else {
                    self.answer(h.seq, e.quoted.map(|q| q.kind), e.error, &ctx, sink);
                }
            }
            Body::Link(_) | Body::Addr(_) | Body::Route(_) if multi => {
                let packet = m.packet;
                for abandoned in self.dumps.take_abandoned(h.kind, h.seq, h.pid) {
                    let at = Ctx {
                        packet: abandoned.first_packet.or(abandoned.request_packet).unwrap_or(packet),
                        ..ctx
                    };
                    self.merge_dump(abandoned, &at, sink);
                }
                let other_in_place = self.dumps.any_in_place();
                let routes_seen = self.seen_route_dump;
                let (dump, fresh) = self.dumps.reply(h.kind, h.seq, h.pid, packet);
                if fresh {
                    self.warnings.push(Diagnostic::record(
                        packet,
                        m.offset,
                        "dump reply without its request in the capture (capture started mid-dump?): \
                         its entries are merged, not used as the whole table",
                    ));
                }
                if h.flags & NLM_F_DUMP_INTR != 0 && !dump.interrupted {
                    dump.interrupted = true;
                    self.warnings.push(Diagnostic::record(
                        packet,
                        m.offset,
                        "NLM_F_DUMP_INTR: the kernel's table changed during this dump; its order may be inconsistent",
                    ));
                }
                if h.flags & NLM_F_DUMP_FILTERED != 0 {
                    dump.filtered = true;
                }
                match &d.body {
                    Body::Route(r) if r.flags & RTM_F_CLONED == 0 => {
                        if !other_in_place && dump.can_apply_in_place() {
                            dump.in_place = Some(open_dumps::InPlace {
                                mark: self.routes.new_mark(),
                                listed: 0,
                                other_tables: false,
                                added: Vec::new(),
                            });
                        }
                        if dump.in_place.is_some() {
                            // (what a dump adds is news only after an earlier one)
                            let keep = sink.wants_changes() && open_dumps::covered_before(routes_seen, dump.family);
                            dump.push_in_place(&mut self.routes, r, packet, keep);
                        } else {
                            dump.push(&d.body, packet);
                        }
                    }
                    _ => dump.push(&d.body, packet),
                }
            }
            // The reply to a GET for one object: the kernel's own view of it.
            Body::Link(_) | Body::Addr(_) | Body::Route(_) if self.take_get_reply(h.seq, h.kind) => {
                self.apply_reply(&d.body, &ctx, sink);
            }
            Body::Link(_) | Body::Addr(_) | Body::Route(_) => {
                is_notification = true;
                if self.copies.is_copy(h, m.message.payload()) {
                    self.stats.duplicate_notifications += 1;
                } else {
                    self.stats.notifications += 1;
                    self.apply_notification(&d.body, h.kind, h.flags, &ctx, sink);
                }
            }
            _ => {}
        }
        if !is_notification {
            self.copies.interrupted();
        }
    }

    /// The time of the last record applied (None: no record had one).
    pub fn last_ts(&self) -> Option<crate::capture::Timestamp> {
        self.last_ts
    }

    /// Call once the records are applied, with the time the tables are
    /// asked for (`until`: the last record's, or later with `--at
    /// end+SECS`): the kernel's timers run on to it (DAD that has run its
    /// course adds its local routes, lifetimes that ran out delete their
    /// addresses), DAD still under way is noted; dumps that never finished
    /// are reported, and what they listed is merged in (at the last
    /// record's time).
    pub fn finish<S: ChangeSink>(&mut self, until: Option<crate::capture::Timestamp>, sink: &mut S) {
        let end = Ctx {
            packet: self.last_packet,
            ts: self.last_ts,
            offset: 0,
        };
        let later = until.filter(|u| self.last_ts.is_none_or(|l| *u > l));
        if let Some(u) = later {
            let at = Ctx { ts: Some(u), ..end };
            self.after_capture.running = true;
            // linkwatch runs within a second of the last record (its DADs
            // start then), the other timers on to `until`
            self.linkwatch_finish(&end, sink);
            self.expire_addresses(&at, sink);
            self.finish_dad(Some(u), None, &at, sink);
            self.after_capture.running = false;
        }
        self.dad_unfinished = self.dad.under_way().cloned().collect();
        for dump in self.dumps.drain() {
            let ctx = Ctx {
                packet: dump.first_packet.or(dump.request_packet).unwrap_or(self.last_packet),
                ts: self.last_ts,
                offset: 0,
            };
            if dump.is_empty() {
                self.warnings.push(Diagnostic::general(format!(
                    "dump of {:?} requested in packet {} got no reply in the capture",
                    dump.kind,
                    dump.request_packet.unwrap_or(0)
                )));
                continue;
            }
            // Replies that stop while the capture goes on: their reader
            // stopped reading (glibc's `__check_native` does once it has
            // seen the two devices it wanted), nothing is missing from the
            // capture. Merged either way, never used as the whole table.
            if dump.last_packet.is_none_or(|p| p >= self.last_packet) {
                self.warnings.push(Diagnostic::general(format!(
                    "dump of {:?} starting in packet {} has no NLMSG_DONE (capture cut short?): its {} entries are merged",
                    dump.kind,
                    ctx.packet,
                    dump.len()
                )));
            }
            self.merge_dump(dump, &ctx, sink);
        }
    }

    pub fn links(&self) -> &[LinkEntry] {
        self.links.as_slice()
    }

    pub fn link(&self, index: u32) -> Option<&LinkEntry> {
        self.links.get(index)
    }

    pub fn link_by_name(&self, name: &[u8]) -> Option<&LinkEntry> {
        self.links.by_name(name)
    }

    /// Name of a link for messages (`ifN` when unknown).
    /// The name of a route's output device, for a change report.
    pub(crate) fn route_dev(&self, r: &RouteEntry) -> Option<String> {
        let link = self.link(r.oif?)?;
        link.has_name().then(|| link.display_name())
    }

    pub fn ifname(&self, index: u32) -> String {
        self.link(index)
            .map(LinkEntry::display_name)
            .unwrap_or_else(|| format!("if{index}"))
    }

    /// A device's addresses of one family (AF_INET or AF_INET6), in kernel order.
    pub fn device_addresses(&self, index: u32, family: u8) -> &[AddrEntry] {
        self.addrs
            .get(&index)
            .map(|d| d.list(family).as_slice())
            .unwrap_or_default()
    }

    /// Every address in the order of an AF_UNSPEC address dump: all IPv4
    /// (devices in link order, each device's list in order), then all IPv6.
    pub fn addresses(&self, family: Option<u8>) -> Vec<&AddrEntry> {
        let mut out = Vec::new();
        for fam in [AF_INET, AF_INET6] {
            if family.is_some_and(|f| f != fam) {
                continue;
            }
            for l in self.links.as_slice() {
                out.extend(self.device_addresses(l.index, fam));
            }
        }
        out
    }

    /// The devices holding an address of `family`, in no particular order.
    pub fn devices_with_addresses(&self, family: u8) -> impl Iterator<Item = u32> + '_ {
        let [v4, v6] = &self.holders;
        (if family == AF_INET6 { v6 } else { v4 }).iter().copied()
    }

    /// A link's position in dump order (O(1)).
    pub fn link_position(&self, index: u32) -> Option<usize> {
        self.links.position_of(index)
    }

    /// Whether any device has an address.
    pub fn has_addresses(&self) -> bool {
        self.holders.iter().any(|h| !h.is_empty())
    }

    /// Routes in the order a dump would list them (see [`route_order`]).
    pub fn routes(&self) -> Vec<&RouteEntry> {
        self.routes.iter().collect()
    }

    /// The route table itself: routes in dump order and the kernel's lookups.
    pub fn route_table(&self) -> &RouteTable {
        &self.routes
    }

    /// A route as one line, `10.50.0.0/16 via 192.168.100.1 dev eth0 table main metric 20`.
    pub fn route_text(&self, r: &RouteEntry) -> String {
        let mut s = match r.dst {
            _ if r.dst_len == 0 => "default".to_string(),
            Some(d) => format!("{d}/{}", r.dst_len),
            None => format!("?/{}", r.dst_len),
        };
        if r.kind != RTN_UNICAST {
            s = format!("{} {s}", route_type(r.kind));
        }
        if let Some(g) = r.gateway {
            s.push_str(&format!(" via {g}"));
        }
        if let Some(o) = r.oif {
            s.push_str(&format!(" dev {}", self.ifname(o)));
        }
        s.push_str(&format!(" table {}", route_table(r.table)));
        if let Some(p) = r.prefsrc {
            s.push_str(&format!(" src {p}"));
        }
        if let Some(m) = r.priority {
            s.push_str(&format!(" metric {m}"));
        }
        s
    }

    pub fn link_order(&self) -> (LinkOrder, &LinkOrderSource) {
        (self.link_order, &self.link_order_source)
    }

    pub fn warnings(&self) -> &Diagnostics {
        &self.warnings
    }

    pub fn stats(&self) -> &ModelStats {
        &self.stats
    }

    /// Whether a complete link dump was seen, so that every link of the
    /// namespace is known (not only those the capture names).
    pub fn links_complete(&self) -> bool {
        self.seen_link_dump
    }

    /// What the model had to assume because the capture cannot say:
    /// indexes it predicted, link-local addresses made from a MAC it never
    /// saw, the promote_secondaries setting it relied on, ... (the report
    /// says each in words).
    pub fn assumptions(&self) -> Vec<Assumption> {
        let mut v = Vec::new();
        if !self.seen_link_dump {
            v.push(Assumption::NoLinkDump);
        }
        for l in self.links.as_slice() {
            if l.link_elsewhere
                && l.peer.is_none()
                && l.flags & IFF_UP != 0
                && l.flags & IFF_LOWER_UP == 0
                && !self.state(l.index).foreign_peer_down
                && l.kind.is_some_and(|k| k.as_bytes() == b"veth")
            {
                v.push(Assumption::VethPeerElsewhere { link: l.display_name() });
            }
        }
        for l in self.links.as_slice() {
            if matches!(l.origin, Origin::KernelRule(_, KernelRule::AssignedIndex)) {
                v.push(Assumption::PredictedIndex {
                    index: l.index,
                    link: l.display_name(),
                });
            }
        }
        let mut unknown: Vec<u32> = self
            .devices
            .iter()
            .filter(|(_, d)| d.unknown_link_local)
            .map(|(i, _)| *i)
            .collect();
        unknown.sort_unstable();
        for i in unknown {
            v.push(Assumption::LinkLocalFromUnseenMac { link: self.ifname(i) });
        }
        for (end, (index, family, address, _)) in self.lifetimes.pending() {
            if let Some(a) = self
                .device_addresses(index, family)
                .iter()
                .find(|a| a.address == address)
            {
                v.push(Assumption::LifetimeEndsAfter {
                    address: a.cidr(),
                    link: self.ifname(index),
                    at: kernel_rules::timestamp(end),
                });
            }
        }
        for d in &self.dad_unfinished {
            let secs = match (d.started, self.last_ts) {
                (Some(s), Some(l)) => Some((l.as_nanos() - s.as_nanos()) as f64 / 1e9),
                _ => None,
            };
            v.push(Assumption::DadUnderWay {
                packet: d.packet,
                address: d.address,
                link: self.ifname(d.index),
                seconds: secs,
                from_dump: d.from_dump,
            });
        }
        if !self.lw.is_empty() {
            v.push(Assumption::LinkwatchQueued);
        }
        for a in &self.dad_order_unknown {
            v.push(Assumption::LocalRouteOrderUnknown { address: *a });
        }
        if !self.after_capture.routes.is_empty() || !self.after_capture.addrs.is_empty() {
            v.push(Assumption::TimersRunOn {
                addresses: self.after_capture.addrs.len(),
                routes: self.after_capture.routes.len(),
            });
        }
        for (i, a) in &self.after_capture.expired {
            v.push(Assumption::ExpiredAfter {
                address: a.to_string(),
                link: self.ifname(*i),
            });
        }
        if let Some(p) = self.assumed_promotion {
            v.push(Assumption::PromoteSecondaries {
                packet: p,
                on: self.options.promote_secondaries,
            });
        }
        v
    }

    /// Whether the kernel's timers made this route after the last record
    /// (`--at end+SECS`): assumed, no message shows it.
    pub fn route_after_capture(&self, r: &RouteEntry) -> bool {
        !self.after_capture.routes.is_empty() && self.after_capture.routes.contains(&r.key())
    }

    /// Whether the kernel's timers changed this address after the last
    /// record (its duplicate address detection ended): assumed.
    pub fn address_after_capture(&self, a: &AddrEntry) -> bool {
        !self.after_capture.addrs.is_empty() && self.after_capture.addrs.contains(&a.key())
    }

    /// Whether the model holds routes of a family.
    pub fn has_routes_of(&self, family: u8) -> bool {
        self.routes.has_family(family)
    }

    /// Whether the capture showed any routes (dump or notification).
    pub fn has_routes(&self) -> bool {
        !self.routes.is_empty()
    }

    fn warn(&mut self, ctx: &Ctx, msg: String) {
        self.warnings.push(Diagnostic::record(ctx.packet, ctx.offset, msg));
    }

    /// Makes sure a device mentioned by an address has a link entry.
    fn ensure_link(&mut self, index: u32, ctx: &Ctx) {
        if self.links.contains(index) {
            return;
        }
        if self.seen_link_dump && self.warned_unknown.insert(index) {
            self.warn(
                ctx,
                format!("notification for ifindex {index}, which no link dump or notification introduced"),
            );
        }
        self.links.insert(
            LinkEntry::placeholder(index, Origin::Inferred(ctx.packet)),
            self.link_order,
        );
    }

    fn state(&self, index: u32) -> DeviceState {
        self.devices.get(&index).copied().unwrap_or_default()
    }

    fn state_mut(&mut self, index: u32) -> &mut DeviceState {
        self.devices.entry(index).or_default()
    }

    /// Forgets a device's addresses entry once it holds none.
    fn prune_addrs(&mut self, index: u32) {
        self.sync_holders(index);
        if self
            .addrs
            .get(&index)
            .is_some_and(|d| d.v4.is_empty() && d.v6.is_empty())
        {
            self.addrs.remove(&index);
        }
    }

    /// Whether a device holds addresses of each family, as its lists say now.
    fn sync_holders(&mut self, index: u32) {
        let d = self.addrs.get(&index);
        let [v4, v6] = &mut self.holders;
        for (set, has) in [
            (v4, d.is_some_and(|d| !d.v4.is_empty())),
            (v6, d.is_some_and(|d| !d.v6.is_empty())),
        ] {
            if has {
                set.insert(index);
            } else {
                set.remove(&index);
            }
        }
    }

    fn rebuild_holders(&mut self) {
        let [v4, v6] = &mut self.holders;
        *v4 = self
            .addrs
            .iter()
            .filter(|(_, d)| !d.v4.is_empty())
            .map(|(i, _)| *i)
            .collect();
        *v6 = self
            .addrs
            .iter()
            .filter(|(_, d)| !d.v6.is_empty())
            .map(|(i, _)| *i)
            .collect();
    }
}

/// The copies of one notification: nlmon records one per listening socket,
/// byte-identical and adjacent; they count once.
#[derive(Debug, Default)]
struct Copies {
    /// The last notification, while nothing else has come since.
    last: Option<(crate::netlink::Header, Vec<u8>)>,
    adjacent: bool,
}

impl Copies {
    /// Whether this notification repeats the one just before it; it
    /// becomes the one to compare the next with.
    fn is_copy(&mut self, h: crate::netlink::Header, payload: &[u8]) -> bool {
        let copy = self.adjacent && matches!(&self.last, Some((lh, lp)) if *lh == h && lp.as_slice() == payload);
        match &mut self.last {
            Some((lh, lp)) => {
                *lh = h;
                lp.clear();
                lp.extend_from_slice(payload);
            }
            None => self.last = Some((h, payload.to_vec())),
        }
        self.adjacent = true;
        copy
    }

    /// Another kind of message came between: only adjacent copies are copies.
    fn interrupted(&mut self) {
        self.adjacent = false;
    }
}

/// Where a message came from, for diagnostics and events.
#[derive(Debug, Clone, Copy)]
struct Ctx {
    packet: u64,
    ts: Option<crate::capture::Timestamp>,
    offset: u64,
}

impl Ctx {
    fn event(&self, change: Change) -> Event {
        Event {
            packet: self.packet,
            ts: self.ts,
            change,
        }
    }
}
