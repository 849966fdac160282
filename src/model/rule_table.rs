//! The policy routing rules (`ip rule`), per family, in the kernel's order.
//!
//! Contract: [`RuleTable`] owns the rule lists and their invariants. Each
//! family starts with the kernel's own rules (`fib4_rules_init`: local 0,
//! main 32766, default 32767; `fib6_rules_init`: local 0, main 32766, no
//! default-table rule), which stand until the capture shows otherwise. A
//! list is always sorted by priority, a new rule going after the rules of
//! its priority (`fib_nl_newrule`), a rule sent without a priority getting
//! the one `fib_default_rule_pref` gives (one less than the second rule's,
//! when that is not 0). A complete dump replaces its families' lists with
//! what the kernel listed; notifications add and delete; a request is
//! applied when the kernel acknowledges it, unless its notification did so
//! already. The table says what it rests on ([`RulesKnown`]): nothing shown
//! (the defaults assumed), messages only (the rules before them assumed),
//! or a dump.

use std::net::IpAddr;

use crate::netlink::names::{NLM_F_DUMP, NLM_F_MULTI, NLM_F_REQUEST};
use crate::netlink::rule::{
    FIB_RULE_IIF_DETACHED, FIB_RULE_INVERT, FIB_RULE_OIF_DETACHED, FIB_RULE_PERMANENT, FIB_RULE_UNRESOLVED,
    RTM_DELRULE, RTM_GETRULE, RTM_NEWRULE, Range, Rule, RuleAction,
};
use crate::netlink::values::{AddressFamily, RouteProtocol, TableId};

/// One rule as the model keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleEntry {
    /// AF_INET or AF_INET6.
    pub family: AddressFamily,
    /// The preference: the lower, the earlier.
    pub priority: u32,
    /// The source prefix and its length (`from`); `None`: all.
    pub src: Option<(IpAddr, u8)>,
    /// The destination prefix and its length (`to`); `None`: all.
    pub dst: Option<(IpAddr, u8)>,
    /// The TOS (IPv4) or traffic class selected; 0 for any.
    pub tos: u8,
    /// The table looked up (`lookup`).
    pub table: TableId,
    /// What the rule does.
    pub action: RuleAction,
    /// FIB_RULE_* flags (invert, detached, unresolved, permanent).
    pub flags: u32,
    /// The input device's name (`iif`).
    pub iif: Option<String>,
    /// The output device's name (`oif`).
    pub oif: Option<String>,
    /// The mark selected, and the mask it is compared under.
    pub fwmark: Option<u32>,
    /// FRA_FWMASK as given.
    pub fwmask: Option<u32>,
    /// The priority a `goto` jumps to.
    pub goto: Option<u32>,
    /// `suppress_prefixlength`: a table's answer this long or shorter is not taken.
    pub suppress_prefixlen: Option<u32>,
    /// `suppress_ifgroup`: an answer through a device of this group is not taken.
    pub suppress_ifgroup: Option<u32>,
    /// `l3mdev`: the table of the flow's VRF.
    pub l3mdev: bool,
    /// The socket owners selected (`uidrange`).
    pub uid_range: Option<Range<u32>>,
    /// The IP protocol selected (`ipproto`).
    pub ip_proto: Option<u8>,
    /// The source ports selected.
    pub sport: Option<Range<u16>>,
    /// The destination ports selected.
    pub dport: Option<Range<u16>>,
    /// The tunnel id selected.
    pub tun_id: Option<u64>,
    /// The realms (`realms`).
    pub flow: Option<u32>,
    /// Who added the rule (`proto`).
    pub protocol: Option<RouteProtocol>,
    /// Where the model has it from.
    pub origin: RuleOrigin,
}

/// Where a rule of the model comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleOrigin {
    /// The kernel's own rules, assumed: no dump showed this family's rules.
    Default,
    /// A dump listed it (its record).
    Dump(u64),
    /// A notification announced it (its record).
    Notification(u64),
    /// A request the kernel accepted (its record).
    Request(u64),
}

impl RuleEntry {
    /// The rule a message describes (a request without a priority gets 0
    /// here; the table gives it the kernel's default).
    pub fn from_message(r: &Rule<'_>, origin: RuleOrigin) -> Self {
        let name = |b: Option<&[u8]>| b.map(|b| String::from_utf8_lossy(b).into_owned());
        RuleEntry {
            family: r.family,
            priority: r.priority.unwrap_or(0),
            src: r.src.map(|a| (a, r.src_len)),
            dst: r.dst.map(|a| (a, r.dst_len)),
            tos: r.tos,
            table: r.table,
            action: r.action,
            flags: r.flags,
            iif: name(r.iifname),
            oif: name(r.oifname),
            fwmark: r.fwmark,
            fwmask: r.fwmask,
            goto: r.goto,
            suppress_prefixlen: r.suppress_prefixlen(),
            suppress_ifgroup: r.suppress_ifgroup(),
            l3mdev: r.l3mdev.is_some_and(|v| v != 0),
            uid_range: r.uid_range,
            ip_proto: r.ip_proto,
            sport: r.sport,
            dport: r.dport,
            tun_id: r.tun_id,
            flow: r.flow,
            protocol: r.protocol,
            origin,
        }
    }

    /// One of the kernel's own rules (`fib_default_rule_add`).
    fn kernel(family: AddressFamily, priority: u32, table: TableId) -> Self {
        RuleEntry {
            family,
            priority,
            src: None,
            dst: None,
            tos: 0,
            table,
            action: RuleAction::ToTable,
            flags: 0,
            iif: None,
            oif: None,
            fwmark: None,
            fwmask: None,
            goto: None,
            suppress_prefixlen: None,
            suppress_ifgroup: None,
            l3mdev: false,
            uid_range: None,
            ip_proto: None,
            sport: None,
            dport: None,
            tun_id: None,
            flow: None,
            protocol: Some(RouteProtocol::Kernel),
            origin: RuleOrigin::Default,
        }
    }

    /// The kernel's rules of a family at namespace creation.
    pub fn defaults(family: AddressFamily) -> Vec<RuleEntry> {
        let mut v = vec![
            RuleEntry::kernel(family, 0, TableId::Local),
            RuleEntry::kernel(family, 32766, TableId::Main),
        ];
        // fib6_rules_init adds no rule for the default table.
        if family == AddressFamily::Inet {
            v.push(RuleEntry::kernel(family, 32767, TableId::Default));
        }
        v
    }

    /// The same rule, whatever the model has it from (and whether its
    /// `goto` target existed when it was announced).
    pub fn same_rule(&self, other: &RuleEntry) -> bool {
        RuleEntry {
            origin: other.origin,
            flags: other.flags,
            ..self.clone()
        } == *other
            && (self.flags ^ other.flags) & !FIB_RULE_UNRESOLVED == 0
    }

    /// Whether a delete request (`req`, what it names, as `rule_find`
    /// compares it) selects this rule: every selector the request gives
    /// must equal; `priority_given`: it named a priority.
    fn found_by(&self, req: &RuleEntry, priority_given: bool) -> bool {
        (req.action == RuleAction::Unspec || req.action == self.action)
            && (req.table == TableId::Unspec || req.table == self.table)
            && (!priority_given || req.priority == self.priority)
            && (req.iif.is_none() || req.iif == self.iif)
            && (req.oif.is_none() || req.oif == self.oif)
            && (req.fwmark.is_none() || req.fwmark == self.fwmark)
            && (req.fwmask.is_none() || req.fwmask == self.fwmask)
            && (req.goto.is_none() || req.goto == self.goto)
            && (req.src.is_none() || req.src == self.src)
            && (req.dst.is_none() || req.dst == self.dst)
            && (req.tos == 0 || req.tos == self.tos)
            && (req.uid_range.is_none() || req.uid_range == self.uid_range)
            && (req.ip_proto.is_none() || req.ip_proto == self.ip_proto)
            && (req.sport.is_none() || req.sport == self.sport)
            && (req.dport.is_none() || req.dport == self.dport)
    }
}

/// What the rules of a family rest on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesKnown {
    /// No rule dump and no rule message: the kernel's defaults are assumed.
    Assumed,
    /// Rule messages but no dump: the rules before them are assumed the
    /// kernel's defaults.
    MessagesOnly,
    /// A complete dump showed them.
    Dumped,
}

/// A rule dump under way.
#[derive(Debug, Clone)]
struct OpenDump {
    seq: u32,
    family: AddressFamily,
    listed: Vec<RuleEntry>,
}

/// A change request waiting for the kernel's answer.
#[derive(Debug, Clone)]
struct Pending {
    seq: u32,
    kind: u16,
    /// The rule to add, or what a delete names.
    entry: RuleEntry,
    /// The request named a priority.
    given_priority: bool,
}

/// What [`RuleTable::apply`] is handed: a message's header, record and
/// body bytes, and what it is to the rules.
#[derive(Debug, Clone, Copy)]
pub struct Applied<'m, 'a> {
    /// The message's header.
    pub header: crate::netlink::Header,
    /// Its record.
    pub packet: u64,
    /// Its body's bytes.
    pub payload: &'m [u8],
    /// What it is to the rules.
    pub what: RuleMessage<'m, 'a>,
}

/// A message as the rule table sees it.
#[derive(Debug, Clone, Copy)]
pub enum RuleMessage<'m, 'a> {
    /// A rule message (NEW, DEL or GET).
    Rule(&'m Rule<'a>),
    /// `NLMSG_DONE` or `NLMSG_ERROR`, with its errno (0: done, ACK).
    End {
        /// The (negative) errno; 0 for success.
        error: i32,
    },
    /// Any other message.
    Other,
}

/// The rules of both families.
#[derive(Debug, Clone)]
pub struct RuleTable {
    v4: Vec<RuleEntry>,
    v6: Vec<RuleEntry>,
    known: [RulesKnown; 2],
    dump: Option<OpenDump>,
    pending: Vec<Pending>,
    /// The last rule notification's type, sequence number and body: a
    /// copy of it (another listener's) is not applied twice.
    last_notification: Option<Vec<u8>>,
    /// Distinct rule notifications applied.
    notifications: u64,
    dumps: u64,
}

impl Default for RuleTable {
    fn default() -> Self {
        RuleTable {
            v4: RuleEntry::defaults(AddressFamily::Inet),
            v6: RuleEntry::defaults(AddressFamily::Inet6),
            known: [RulesKnown::Assumed; 2],
            dump: None,
            pending: Vec::new(),
            last_notification: None,
            notifications: 0,
            dumps: 0,
        }
    }
}

fn slot(family: AddressFamily) -> Option<usize> {
    match family {
        AddressFamily::Inet => Some(0),
        AddressFamily::Inet6 => Some(1),
        _ => None,
    }
}

impl RuleTable {
    /// Distinct rule notifications applied (copies of one counted once).
    pub fn notifications(&self) -> u64 {
        self.notifications
    }

    /// Complete rule dumps applied.
    pub fn dumps(&self) -> u64 {
        self.dumps
    }

    /// Whether a message that is not a rule message can change anything
    /// here: the end of a rule dump, the answer to a rule request, the end
    /// of a run of notification copies. Without any of these under way,
    /// [`RuleTable::apply`] leaves such a message alone (asked at every
    /// message: most captures hold no rule message at all).
    pub fn awaits(&self) -> bool {
        self.dump.is_some() || !self.pending.is_empty() || self.last_notification.is_some()
    }

    /// The rules of a family, in the kernel's order (empty for others).
    pub fn rules(&self, family: AddressFamily) -> &[RuleEntry] {
        match family {
            AddressFamily::Inet => &self.v4,
            AddressFamily::Inet6 => &self.v6,
            _ => &[],
        }
    }

    /// What the rules of a family rest on.
    pub fn known(&self, family: AddressFamily) -> RulesKnown {
        slot(family)
            .and_then(|i| self.known.get(i).copied())
            .unwrap_or(RulesKnown::Assumed)
    }

    fn family_list(&mut self, family: AddressFamily) -> Option<&mut Vec<RuleEntry>> {
        match family {
            AddressFamily::Inet => Some(&mut self.v4),
            AddressFamily::Inet6 => Some(&mut self.v6),
            _ => None,
        }
    }

    fn family_shown(&mut self, family: AddressFamily) {
        if let Some(k) = slot(family).and_then(|i| self.known.get_mut(i))
            && *k == RulesKnown::Assumed
        {
            *k = RulesKnown::MessagesOnly;
        }
    }

    /// `fib_default_rule_pref`: one less than the second rule's priority
    /// when that is not 0, else 0.
    pub fn default_priority(&self, family: AddressFamily) -> u32 {
        match self.rules(family).get(1) {
            Some(r) if r.priority != 0 => r.priority - 1,
            _ => 0,
        }
    }

    /// Adds a rule after those of its priority; the `goto` rules waiting
    /// for its priority are resolved (`fib_nl_newrule`), and a `goto` of
    /// its own is unresolved while no rule has its target.
    pub fn insert(&mut self, mut entry: RuleEntry) {
        let Some(list) = self.family_list(entry.family) else {
            return;
        };
        if entry.action == RuleAction::Goto {
            let found = entry.goto.is_some_and(|g| list.iter().any(|r| r.priority == g));
            if found {
                entry.flags &= !FIB_RULE_UNRESOLVED;
            } else {
                entry.flags |= FIB_RULE_UNRESOLVED;
            }
        }
        for r in list.iter_mut() {
            if r.action == RuleAction::Goto && r.goto == Some(entry.priority) {
                r.flags &= !FIB_RULE_UNRESOLVED;
            }
        }
        let at = list.partition_point(|r| r.priority <= entry.priority);
        list.insert(at, entry);
    }

    /// Removes the first rule equal to `entry`; whether there was one. A
    /// `goto` to its priority is unresolved when no rule of that priority
    /// is left (`fib_nl_delrule`).
    pub fn remove(&mut self, entry: &RuleEntry) -> bool {
        let Some(list) = self.family_list(entry.family) else {
            return false;
        };
        match list.iter().position(|r| r.same_rule(entry)) {
            Some(i) => {
                Self::removed_at(list, i);
                true
            }
            None => false,
        }
    }

    fn removed_at(list: &mut Vec<RuleEntry>, i: usize) {
        let gone = list.remove(i);
        if !list.iter().any(|r| r.priority == gone.priority) {
            for r in list.iter_mut() {
                if r.action == RuleAction::Goto && r.goto == Some(gone.priority) {
                    r.flags |= FIB_RULE_UNRESOLVED;
                }
            }
        }
    }

    /// Applies one rule message, or the end of a rule dump (`NLMSG_DONE`
    /// or an error for its sequence number), or the kernel's answer to a
    /// rule request. `payload` is the message's body (to tell a copy of a
    /// notification). Anything else leaves the table as it was, except
    /// that it ends a run of notification copies.
    pub fn apply(&mut self, m: &Applied<'_, '_>) {
        let h = m.header;
        match m.what {
            RuleMessage::Rule(r) => {
                if h.kind == RTM_GETRULE {
                    if h.flags & NLM_F_REQUEST != 0 && h.flags & NLM_F_DUMP == NLM_F_DUMP {
                        self.dump = Some(OpenDump {
                            seq: h.seq,
                            family: r.family,
                            listed: Vec::new(),
                        });
                    }
                    self.last_notification = None;
                    return;
                }
                if h.flags & NLM_F_REQUEST != 0 {
                    self.on_request(h.kind, h.seq, m.packet, r);
                    self.last_notification = None;
                    return;
                }
                if h.flags & NLM_F_MULTI != 0 {
                    if let Some(d) = self.dump.as_mut().filter(|d| d.seq == h.seq) {
                        d.listed.push(RuleEntry::from_message(r, RuleOrigin::Dump(m.packet)));
                    } else {
                        // A dump reply without its request: merged.
                        let e = RuleEntry::from_message(r, RuleOrigin::Dump(m.packet));
                        if !self.rules(e.family).iter().any(|x| x.same_rule(&e)) {
                            self.insert(e);
                        }
                        self.family_shown(r.family);
                    }
                    self.last_notification = None;
                    return;
                }
                let mut key = h.kind.to_ne_bytes().to_vec();
                key.extend_from_slice(&h.seq.to_ne_bytes());
                key.extend_from_slice(m.payload);
                if self.last_notification.as_deref() == Some(&key[..]) {
                    return;
                }
                self.last_notification = Some(key);
                self.on_notification(h.kind, m.packet, r);
            }
            RuleMessage::End { error } => {
                self.last_notification = None;
                if let Some(d) = self.dump.take_if(|d| d.seq == h.seq) {
                    if error == 0 {
                        self.on_dump_done(d);
                    }
                    return;
                }
                self.on_ack(h.seq, error);
            }
            RuleMessage::Other => self.last_notification = None,
        }
    }

    fn on_dump_done(&mut self, d: OpenDump) {
        self.dumps += 1;
        for family in [AddressFamily::Inet, AddressFamily::Inet6] {
            if d.family != AddressFamily::Unspec && d.family != family {
                continue;
            }
            let listed: Vec<RuleEntry> = d.listed.iter().filter(|r| r.family == family).cloned().collect();
            if let Some(list) = self.family_list(family) {
                *list = listed;
            }
            if let Some(k) = slot(family).and_then(|i| self.known.get_mut(i)) {
                *k = RulesKnown::Dumped;
            }
        }
    }

    fn on_notification(&mut self, kind: u16, packet: u64, r: &Rule<'_>) {
        self.notifications += 1;
        let e = RuleEntry::from_message(r, RuleOrigin::Notification(packet));
        self.family_shown(r.family);
        // The request this announces, if the capture holds it, is done.
        if let Some(i) = self
            .pending
            .iter()
            .position(|p| p.kind == kind && p.entry.family == e.family)
        {
            self.pending.remove(i);
        }
        match kind {
            RTM_NEWRULE => self.insert(e),
            RTM_DELRULE => {
                self.remove(&e);
            }
            _ => {}
        }
    }

    fn on_request(&mut self, kind: u16, seq: u32, packet: u64, r: &Rule<'_>) {
        if !matches!(kind, RTM_NEWRULE | RTM_DELRULE) || slot(r.family).is_none() {
            return;
        }
        let mut entry = RuleEntry::from_message(r, RuleOrigin::Request(packet));
        if kind == RTM_NEWRULE && entry.table == TableId::Unspec && entry.action == RuleAction::ToTable {
            // (iproute2 sends main when no table is named)
            entry.table = TableId::Main;
        }
        self.pending.push(Pending {
            seq,
            kind,
            entry,
            given_priority: r.priority.is_some(),
        });
    }

    fn on_ack(&mut self, seq: u32, error: i32) {
        let Some(i) = self.pending.iter().position(|p| p.seq == seq) else {
            return;
        };
        let p = self.pending.remove(i);
        if error != 0 {
            return;
        }
        self.family_shown(p.entry.family);
        if p.kind == RTM_NEWRULE {
            let mut e = p.entry;
            if !p.given_priority {
                e.priority = self.default_priority(e.family);
            }
            self.insert(e);
            return;
        }
        let family = p.entry.family;
        if let Some(list) = self.family_list(family)
            && let Some(i) = list
                .iter()
                .position(|r| r.flags & FIB_RULE_PERMANENT == 0 && r.found_by(&p.entry, p.given_priority))
        {
            Self::removed_at(list, i);
        }
    }
}

// ---------------------------------------------------- `ip rule` text ----

/// `inet_proto_n2a`: the protocols iproute2 names itself, else
/// `/etc/protocols`' stock names for the common ones, else the number.
pub fn proto_name(p: u8) -> String {
    match p {
        1 => "icmp".into(),
        6 => "tcp".into(),
        17 => "udp".into(),
        58 => "ipv6-icmp".into(),
        132 => "sctp".into(),
        33 => "dccp".into(),
        47 => "gre".into(),
        50 => "esp".into(),
        n => format!("ipproto-{n}"),
    }
}

/// The prefix length of one address of `ip`'s family.
pub fn host_len(ip: IpAddr) -> u8 {
    if ip.is_ipv4() { 32 } else { 128 }
}

/// What an `ip rule` line prints for a rule's action: `None` for a
/// lookup.
pub fn action_word(r: &RuleEntry) -> Option<String> {
    match r.action {
        RuleAction::ToTable => None,
        RuleAction::Goto => Some(match r.goto {
            Some(g) => format!("goto {g}"),
            None => "goto none".into(),
        }),
        RuleAction::Nop => Some("nop".into()),
        RuleAction::Unspec => Some("none".into()),
        other => Some(other.name().into_owned()),
    }
}

fn range_text<T: std::fmt::Display + PartialEq>(r: &Range<T>) -> String {
    if r.start == r.end {
        r.start.to_string()
    } else {
        format!("{}-{}", r.start, r.end)
    }
}

/// The table `ip rule` names: FRA_TABLE, or none (0: a rule that looks
/// nothing up).
pub fn table_of(r: &RuleEntry) -> Option<TableId> {
    (r.table != TableId::Unspec).then_some(r.table)
}

/// Whether `ip` prints the rule's protocol (not `kernel`, not 0, without `-d`).
pub fn shown_protocol(r: &RuleEntry) -> Option<RouteProtocol> {
    r.protocol
        .filter(|p| *p != RouteProtocol::Kernel && *p != RouteProtocol::Unspec)
}

impl RuleEntry {
    /// The rule as `ip rule` prints it after `PRIO:\t` (iproute2 6.1
    /// `print_rule`, with the names of a stock `/etc/iproute2`).
    pub fn ip_text(&self) -> String {
        let r = self;
        let mut out = String::new();
        if r.flags & FIB_RULE_INVERT != 0 {
            out.push_str("not ");
        }
        match r.src {
            Some((a, len)) if len != host_len(a) => out.push_str(&format!("from {a}/{len}")),
            Some((a, _)) => out.push_str(&format!("from {a}")),
            None => out.push_str("from all"),
        }
        if let Some((a, len)) = r.dst {
            out.push_str(&format!(" to {a}"));
            if len != host_len(a) {
                out.push_str(&format!("/{len}"));
            }
        }
        if r.tos != 0 {
            out.push_str(&format!(" tos 0x{:02x}", r.tos));
        }
        if r.fwmark.is_some() || r.fwmask.is_some() {
            let mark = r.fwmark.unwrap_or(0);
            match r.fwmask.filter(|m| *m != u32::MAX) {
                Some(mask) => out.push_str(&format!(" fwmark {mark:#x}/{mask:#x}")),
                None => out.push_str(&format!(" fwmark {mark:#x}")),
            }
        }
        if let Some(i) = &r.iif {
            out.push_str(&format!(" iif {i}"));
            if r.flags & FIB_RULE_IIF_DETACHED != 0 {
                out.push_str(" [detached]");
            }
        }
        if let Some(o) = &r.oif {
            out.push_str(&format!(" oif {o}"));
            if r.flags & FIB_RULE_OIF_DETACHED != 0 {
                out.push_str(" [detached]");
            }
        }
        if r.l3mdev {
            out.push_str(" lookup [l3mdev-table]");
        }
        if let Some(u) = r.uid_range {
            out.push_str(&format!(" uidrange {}-{}", u.start, u.end));
        }
        if let Some(p) = r.ip_proto {
            out.push_str(&format!(" ipproto {}", proto_name(p)));
        }
        if let Some(p) = &r.sport {
            out.push_str(&format!(" sport {}", range_text(p)));
        }
        if let Some(p) = &r.dport {
            out.push_str(&format!(" dport {}", range_text(p)));
        }
        if let Some(t) = r.tun_id {
            out.push_str(&format!(" tun_id {t}"));
        }
        if let Some(t) = table_of(r) {
            out.push_str(&format!(" lookup {}", t.name()));
            if let Some(p) = r.suppress_prefixlen {
                out.push_str(&format!(" suppress_prefixlength {}", p as i32));
            }
            if let Some(g) = r.suppress_ifgroup {
                out.push_str(&format!(" suppress_ifgroup {}", group_name(g)));
            }
        }
        if let Some(f) = r.flow {
            let (from, to) = (f >> 16, f & 0xffff);
            if from != 0 {
                out.push_str(&format!(" realms {from}/{to}"));
            } else {
                out.push_str(&format!(" realms {to}"));
            }
        }
        if let Some(a) = action_word(r) {
            out.push(' ');
            out.push_str(&a);
            if r.action == RuleAction::Goto && r.flags & FIB_RULE_UNRESOLVED != 0 {
                out.push_str(" [unresolved]");
            }
        }
        if let Some(p) = shown_protocol(r) {
            out.push_str(&format!(" proto {}", p.name()));
        }
        out
    }

    /// The rule with its priority, as a line of `ip rule` (a space for the tab).
    pub fn ip_line(&self) -> String {
        format!("{}: {}", self.priority, self.ip_text())
    }
}

/// `rtnl_group_n2a` with the stock `group` file: 0 is `default`.
pub fn group_name(g: u32) -> String {
    if g == 0 { "default".into() } else { g.to_string() }
}

#[cfg(test)]
#[path = "rule_table_tests.rs"]
mod tests;
