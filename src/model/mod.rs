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
//!
//! Its files use and call each other one way only, each only files listed
//! before it: the data (`entries`, `changes`, `assumption`, `prefix`,
//! `kernel_order`, `route_order`, `route_table`, `rule_table`, `link_table`, `lifetimes`)
//! the devices made during the capture (`ifindex_gaps`),
//! and what is under way (`dad`, `linkwatch_queue`, `pending_requests`,
//! `open_dumps`); `state`, the [`Model`] struct with its queries and
//! bookkeeping; `tables`, the operations on the tables; the kernel's own
//! reactions, `address_rules` then `link_rules`; `linkwatch`; one file per
//! kind of message, `notify`, `requests` and `dumps`; `inferred_routes`;
//! and this file, [`Model::apply`] and [`Model::finish`], at the top.
//! `cli/tests/layers.rs` fails on any circle between them.

mod addrconf_types;
mod address_rules;
pub mod assumption;
pub mod changes;
mod dad;
mod dump_order;
mod dumps;
pub mod entries;
mod gone_unseen;
mod ifindex_gaps;
mod inferred_routes;
mod ipv6_multipath;
mod ipvlan_dev_id;
mod ipvlan_port;
mod kept_on_down;
pub mod kernel_build;
pub mod kernel_order;
mod lifetimes;
mod link_rules;
mod link_table;
mod linkwatch;
mod linkwatch_queue;
mod listener_left;
mod notify;
mod open_dumps;
mod order_index;
mod pending_requests;
pub mod prefix;
mod requests;
pub mod route_order;
pub mod route_table;
pub mod rule_table;
mod slaac_order;
mod stacked_mtu;
mod state;
mod tables;
use crate::netlink::values::AddressFamily;

use crate::diag::Diagnostic;
use crate::ingest::trace::TraceMessage;
use crate::netlink::Body;
use crate::netlink::names::*;

pub use assumption::{Assumption, PromoteBasis};
pub use changes::{Change, ChangeSink, Event, ObjectKind, Unheard};
pub use entries::{AddrEntry, KernelRule, LinkEntry, Origin, RouteEntry, ShortName};
pub use kernel_order::{KernelVersion, LinkOrder};
pub use route_table::RouteTable;
pub use rule_table::{RuleEntry, RuleOrigin, RuleTable, RulesKnown};
use state::Ctx;
pub use state::{GroupCopies, KernelConfigOption, LinkOrderSource, Model, ModelOptions, ModelStats};

impl Model {
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
        // (read once: the release text is the same for every record, and
        // matching it is not a per-message cost)
        if !self.os_read
            && let Some(os) = m.os
        {
            self.os_read = true;
            self.kernel_build = kernel_build::KernelBuild::of_release(os);
        }
        let multi = h.flags & NLM_F_MULTI != 0;
        let ctx = Ctx {
            packet: m.packet,
            record: m.packet,
            ts: m.ts,
            offset: m.offset,
            timer: false,
        };
        if m.section != self.section {
            if self.section != 0 {
                self.new_section(&ctx);
            }
            self.section = m.section;
        }
        let mut is_notification = false;
        if d.ignored_by_kernel() && !matches!(d.body, Body::Error(_) | Body::Done { .. }) {
            // Sent without NLM_F_REQUEST: the kernel only acknowledges it.
            self.stats.ignored_by_kernel += 1;
            self.warnings.push(Diagnostic::record(
                m.packet,
                m.offset,
                format!(
                    "{} sent without NLM_F_REQUEST: the kernel only acknowledges such a message \
                     (netlink_rcv_skb), so it changed nothing and is not applied",
                    message_type(h.kind)
                ),
            ));
            self.copies.interrupted();
            return;
        }
        if matches!(d.body, Body::Rule(_)) || self.rules.awaits() {
            self.apply_rule_message(m, &d.body, h);
        }
        self.stats.rule_notifications = self.rules.notifications();
        self.stats.rule_dumps = self.rules.dumps();
        self.lw.clock = m.ts.map(|t| t.as_nanos());
        let link_of = match &d.body {
            Body::Link(l) if !d.is_request() => Some(l.index),
            _ => None,
        };
        if !self.pair_under_way(link_of) {
            self.linkwatch_timer(&ctx, sink);
        }
        self.finish_dad(m.ts, None, &ctx, sink);
        // An address whose lifetime ran out by now and that this very
        // message deletes ends with the message, not by inference.
        let deleted_here = match &d.body {
            Body::Addr(a) if h.kind == RTM_DELADDR && h.flags & NLM_F_REQUEST == 0 => {
                AddrEntry::from_message(a, Origin::Inferred(m.packet)).map(|e| e.key())
            }
            _ => None,
        };
        self.expire_addresses(&ctx, deleted_here, sink);
        // (only the deletions announced right after a link goes down, the
        // neighbour entries it flushes among them, are its `addrconf_ifdown`
        // walk)
        let walk_goes_on =
            !d.is_request() && !multi && matches!(h.kind, RTM_DELADDR | RTM_DELROUTE | RTM_NEWNEIGH | RTM_DELNEIGH);
        if !walk_goes_on {
            self.down_walk_ends();
        }
        match &d.body {
            Body::Request(q) => {
                if is_dump_request(h.kind, h.flags) {
                    if let Some(kind) = open_dumps::kind_of(h.kind) {
                        self.dumps.open(kind, q, h.seq, m.packet);
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
                    self.merge_dump(abandoned, &ctx, sink);
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
                                order: Default::default(),
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
                let group = match &d.body {
                    Body::Link(_) => 0,
                    Body::Addr(_) => 1,
                    _ => 2,
                };
                if let Some(g) = self.stats.per_group.get_mut(group) {
                    g.copies += 1;
                }
                if self.copies.is_copy(h, m.message.payload()) {
                    self.stats.duplicate_notifications += 1;
                } else {
                    if let Some(g) = self.stats.per_group.get_mut(group) {
                        g.distinct += 1;
                    }
                    self.stats.notifications += 1;
                    if matches!(&d.body, Body::Link(l) if l.family != AddressFamily::Bridge) {
                        self.note_link_notification(ctx.packet);
                    }
                    self.apply_notification(&d.body, h.kind, h.flags, &ctx, sink);
                }
            }
            _ => {}
        }
        if !is_notification {
            self.copies.interrupted();
        }
        match &d.body {
            Body::Route(r) if !d.is_request() => {
                self.shown(true, r.family);
                self.shown_table(r.family, Some(r.table));
            }
            Body::Addr(a) if !d.is_request() => self.shown(false, a.family),
            _ => {}
        }
        // What the kernel says of a device's own settings (dump replies,
        // GET replies, notifications alike) holds from here on.
        if let Body::Link(l) = &d.body
            && !d.is_request()
            && h.kind == RTM_NEWLINK
            && l.family != AddressFamily::Bridge
            && (l.conf.is_known() || l.hwaddr.is_some())
        {
            // (one lookup of the device's state for all of it)
            let state = self.state_mut(l.index);
            if l.hwaddr.is_some() {
                state.mac_uncertain = false;
            }
            let conf = &mut state.conf;
            let c = l.conf;
            conf.promote_secondaries = c.promote_secondaries.or(conf.promote_secondaries);
            conf.disable_ipv6 = c.disable_ipv6.or(conf.disable_ipv6);
            conf.accept_ra = c.accept_ra.or(conf.accept_ra);
            conf.use_tempaddr = c.use_tempaddr.or(conf.use_tempaddr);
            conf.accept_dad = c.accept_dad.or(conf.accept_dad);
            conf.addr_gen_mode = c.addr_gen_mode.or(conf.addr_gen_mode);
            conf.inet6_flags = c.inet6_flags.or(conf.inet6_flags);
            // A dump or GET reply shows whether addrconf has configured the
            // device since it last went up (IF_READY): if so, carrier coming
            // back makes nothing again, whatever its MAC is now. (A
            // notification shows the flags after the change it announces.)
            if !is_notification && let Some(ready) = c.ipv6_ready() {
                state.ipv6_configured = ready;
            }
        }
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
            record: self.last_packet,
            ts: self.last_ts,
            offset: 0,
            timer: false,
        };
        let later = until.filter(|u| self.last_ts.is_none_or(|l| *u > l));
        if let Some(u) = later {
            let at = Ctx { ts: Some(u), ..end };
            self.after_capture.running = true;
            // linkwatch runs within a second of the last record (its DADs
            // start then), the other timers on to `until`
            self.linkwatch_finish(&end, sink);
            self.expire_addresses(&at, None, sink);
            self.finish_dad(Some(u), None, &at, sink);
            self.after_capture.running = false;
        }
        self.dad_unfinished = self.dad.under_way().cloned().collect();
        for dump in self.dumps.drain() {
            // (merged at the last record, with its number and time)
            let ctx = Ctx {
                packet: self.last_packet,
                record: self.last_packet,
                ts: self.last_ts,
                offset: 0,
                timer: false,
            };
            if self.cut_before_end
                && let Some(p) = dump.request_packet
            {
                // Answered after the moment asked for: unknown yet, not lost.
                self.answered_later.push((dump.kind, p));
                if dump.is_empty() {
                    continue;
                }
                self.merge_dump(dump, &ctx, sink);
                continue;
            }
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
                    dump.first_packet.or(dump.request_packet).unwrap_or(ctx.packet),
                    dump.len()
                )));
            }
            self.merge_dump(dump, &ctx, sink);
        }
    }
}

impl Model {
    /// A message the policy rule table takes (see [`RuleTable::apply`]).
    fn apply_rule_message(&mut self, m: &TraceMessage<'_>, body: &Body<'_>, h: crate::netlink::Header) {
        self.rules.apply(&rule_table::Applied {
            header: h,
            packet: m.packet,
            payload: m.message.payload(),
            what: match body {
                Body::Rule(r) => rule_table::RuleMessage::Rule(r),
                Body::Done { error } => rule_table::RuleMessage::End { error: *error },
                Body::Error(e) => rule_table::RuleMessage::End { error: e.error },
                _ => rule_table::RuleMessage::Other,
            },
        });
    }
}
