//! Policy routing rules as `ip rule` prints them, in text and in `ip -j
//! rule`'s JSON (iproute2 6.1 `print_rule`, with the names of a stock
//! `/etc/iproute2`).
//!
//! Contract: formatting only, of one [`RuleEntry`]: [`rule_line`] is the
//! text after `PRIO:` (the model's [`RuleEntry::ip_text`]), [`rule_object`]
//! the JSON object with iproute2's keys in its order. A value `ip` leaves
//! out (an unset `suppress_prefixlength`, the kernel's own `proto kernel`)
//! is left out here too.

use serde::Serialize;

use crate::model::RuleEntry;
use crate::model::rule_table::{action_word, group_name, host_len, proto_name, shown_protocol, table_of};
use crate::netlink::rule::{
    FIB_RULE_IIF_DETACHED, FIB_RULE_INVERT, FIB_RULE_OIF_DETACHED, FIB_RULE_UNRESOLVED, RuleAction,
};

/// The rule as `ip rule` prints it after `PRIO:\t`.
pub fn rule_line(r: &RuleEntry) -> String {
    r.ip_text()
}

/// One object of `ip -j rule`: iproute2's keys in its order, each only
/// where `ip` prints it (`Some(())` is a key `ip` prints with `null`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IpRule {
    /// The priority (absent in a request that leaves it to the kernel).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    not: Option<()>,
    src: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    srclen: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dst: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dstlen: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tos: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fwmark: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fwmask: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    iif: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    iif_detached: Option<()>,
    #[serde(skip_serializing_if = "Option::is_none")]
    oif: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    oif_detached: Option<()>,
    #[serde(skip_serializing_if = "Option::is_none")]
    l3mdev: Option<()>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uid_start: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uid_end: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ipproto: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sport: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sport_start: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sport_end: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dport: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dport_start: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dport_end: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tun_id: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suppress_prefixlen: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suppress_ifgroup: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    flow_from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    flow_to: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goto: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unresolved: Option<()>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nop: Option<()>,
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    protocol: Option<String>,
}

fn flag(on: bool) -> Option<()> {
    on.then_some(())
}

/// The rule as one object of `ip -j rule`.
pub fn rule_object(r: &RuleEntry) -> IpRule {
    let single = |p: Option<crate::netlink::rule::Range<u16>>| p.filter(|p| p.start == p.end).map(|p| p.start);
    let ranged = |p: Option<crate::netlink::rule::Range<u16>>| p.filter(|p| p.start != p.end);
    let table = table_of(r);
    IpRule {
        priority: Some(r.priority),
        not: flag(r.flags & FIB_RULE_INVERT != 0),
        src: r.src.map_or_else(|| "all".to_owned(), |(a, _)| a.to_string()),
        srclen: r.src.filter(|(a, len)| *len != host_len(*a)).map(|(_, len)| len),
        dst: r.dst.map(|(a, _)| a.to_string()),
        dstlen: r.dst.filter(|(a, len)| *len != host_len(*a)).map(|(_, len)| len),
        tos: (r.tos != 0).then(|| format!("0x{:02x}", r.tos)),
        fwmark: (r.fwmark.is_some() || r.fwmask.is_some()).then(|| format!("{:#x}", r.fwmark.unwrap_or(0))),
        fwmask: r.fwmask.filter(|m| *m != u32::MAX).map(|m| format!("{m:#x}")),
        iif: r.iif.clone(),
        iif_detached: flag(r.iif.is_some() && r.flags & FIB_RULE_IIF_DETACHED != 0),
        oif: r.oif.clone(),
        oif_detached: flag(r.oif.is_some() && r.flags & FIB_RULE_OIF_DETACHED != 0),
        l3mdev: flag(r.l3mdev),
        uid_start: r.uid_range.map(|u| u.start),
        uid_end: r.uid_range.map(|u| u.end),
        ipproto: r.ip_proto.map(proto_name),
        sport: single(r.sport),
        sport_start: ranged(r.sport).map(|p| p.start),
        sport_end: ranged(r.sport).map(|p| p.end),
        dport: single(r.dport),
        dport_start: ranged(r.dport).map(|p| p.start),
        dport_end: ranged(r.dport).map(|p| p.end),
        tun_id: r.tun_id,
        table: table.map(|t| t.name().into_owned()),
        suppress_prefixlen: table.and(r.suppress_prefixlen).map(|p| p as i32),
        suppress_ifgroup: table.and(r.suppress_ifgroup).map(group_name),
        flow_from: r.flow.map(|f| f >> 16).filter(|f| *f != 0).map(|f| f.to_string()),
        flow_to: r.flow.map(|f| (f & 0xffff).to_string()),
        goto: (r.action == RuleAction::Goto).then_some(r.goto).flatten(),
        unresolved: flag(r.action == RuleAction::Goto && r.flags & FIB_RULE_UNRESOLVED != 0),
        nop: flag(r.action == RuleAction::Nop),
        action: match r.action {
            RuleAction::ToTable | RuleAction::Goto | RuleAction::Nop => None,
            _ => action_word(r),
        },
        protocol: shown_protocol(r).map(|p| p.name().into_owned()),
    }
}
