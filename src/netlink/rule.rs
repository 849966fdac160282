//! Policy routing rules on the wire: `RTM_NEWRULE`, `RTM_DELRULE` and
//! `RTM_GETRULE` (`struct fib_rule_hdr` and the `FRA_*` attributes of
//! include/uapi/linux/fib_rules.h), IPv4 and IPv6 alike.
//!
//! Contract: the values of one rule message, typed: [`Rule`], which
//! borrows the interface names from the record and which `rtnl` reads
//! (leniently, as it reads the others), [`RuleAction`], the `FRA_*` numbers
//! and names and the `FIB_RULE_*` flags. `FRA_TABLE`, when present, is the
//! table (the header's 8-bit `table` only when it is absent, as
//! `fib_nl2rule` reads them). Nothing here decides what a rule means for a
//! lookup (the model does).

use std::net::IpAddr;

use super::values::{AddressFamily, RouteProtocol, TableId};

pub use super::names::{FIB_RULE_HDR_LEN, RTM_DELRULE, RTM_GETRULE, RTM_NEWRULE};

pub(super) const FRA_DST: u16 = 1;
pub(super) const FRA_SRC: u16 = 2;
pub(super) const FRA_IIFNAME: u16 = 3;
pub(super) const FRA_GOTO: u16 = 4;
pub(super) const FRA_PRIORITY: u16 = 6;
pub(super) const FRA_FWMARK: u16 = 10;
pub(super) const FRA_FLOW: u16 = 11;
pub(super) const FRA_TUN_ID: u16 = 12;
pub(super) const FRA_SUPPRESS_IFGROUP: u16 = 13;
pub(super) const FRA_SUPPRESS_PREFIXLEN: u16 = 14;
pub(super) const FRA_TABLE: u16 = 15;
pub(super) const FRA_FWMASK: u16 = 16;
pub(super) const FRA_OIFNAME: u16 = 17;
pub(super) const FRA_L3MDEV: u16 = 19;
pub(super) const FRA_UID_RANGE: u16 = 20;
pub(super) const FRA_PROTOCOL: u16 = 21;
pub(super) const FRA_IP_PROTO: u16 = 22;
pub(super) const FRA_SPORT_RANGE: u16 = 23;
pub(super) const FRA_DPORT_RANGE: u16 = 24;

/// `FIB_RULE_PERMANENT`: a rule the kernel made, which no request deletes.
pub const FIB_RULE_PERMANENT: u32 = 0x1;
/// `FIB_RULE_INVERT`: `not`, the selectors' answer inverted.
pub const FIB_RULE_INVERT: u32 = 0x2;
/// `FIB_RULE_UNRESOLVED`: a `goto` whose target does not exist (yet).
pub const FIB_RULE_UNRESOLVED: u32 = 0x4;
/// `FIB_RULE_IIF_DETACHED`: no device of the rule's `iif` name exists.
pub const FIB_RULE_IIF_DETACHED: u32 = 0x8;
/// `FIB_RULE_OIF_DETACHED`: no device of the rule's `oif` name exists.
pub const FIB_RULE_OIF_DETACHED: u32 = 0x10;

/// The attribute names of the `FRA_*` enum, in its order (6.12).
pub const FRA_NAMES: [&str; 25] = [
    "FRA_UNSPEC",
    "FRA_DST",
    "FRA_SRC",
    "FRA_IIFNAME",
    "FRA_GOTO",
    "FRA_UNUSED2",
    "FRA_PRIORITY",
    "FRA_UNUSED3",
    "FRA_UNUSED4",
    "FRA_UNUSED5",
    "FRA_FWMARK",
    "FRA_FLOW",
    "FRA_TUN_ID",
    "FRA_SUPPRESS_IFGROUP",
    "FRA_SUPPRESS_PREFIXLEN",
    "FRA_TABLE",
    "FRA_FWMASK",
    "FRA_OIFNAME",
    "FRA_PAD",
    "FRA_L3MDEV",
    "FRA_UID_RANGE",
    "FRA_PROTOCOL",
    "FRA_IP_PROTO",
    "FRA_SPORT_RANGE",
    "FRA_DPORT_RANGE",
];

/// What a rule does when its selectors match (`FR_ACT_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RuleAction {
    /// `FR_ACT_UNSPEC` (what a request that names none sends).
    #[default]
    Unspec,
    /// `FR_ACT_TO_TBL`: look the destination up in the rule's table.
    ToTable,
    /// `FR_ACT_GOTO`: jump to the first rule of the `goto` priority.
    Goto,
    /// `FR_ACT_NOP`: nothing; the walk goes on.
    Nop,
    /// `FR_ACT_BLACKHOLE`: dropped silently (EINVAL to the sender).
    Blackhole,
    /// `FR_ACT_UNREACHABLE`: refused, ENETUNREACH.
    Unreachable,
    /// `FR_ACT_PROHIBIT`: refused, EACCES.
    Prohibit,
    /// A number without a name of its own.
    Other(u8),
}

impl From<u8> for RuleAction {
    fn from(n: u8) -> Self {
        match n {
            0 => RuleAction::Unspec,
            1 => RuleAction::ToTable,
            2 => RuleAction::Goto,
            3 => RuleAction::Nop,
            6 => RuleAction::Blackhole,
            7 => RuleAction::Unreachable,
            8 => RuleAction::Prohibit,
            n => RuleAction::Other(n),
        }
    }
}

impl From<RuleAction> for u8 {
    fn from(a: RuleAction) -> u8 {
        match a {
            RuleAction::Unspec => 0,
            RuleAction::ToTable => 1,
            RuleAction::Goto => 2,
            RuleAction::Nop => 3,
            RuleAction::Blackhole => 6,
            RuleAction::Unreachable => 7,
            RuleAction::Prohibit => 8,
            RuleAction::Other(n) => n,
        }
    }
}

impl RuleAction {
    /// iproute2's word (`ip rule`'s `rtnl_rtntype_n2a` of the action):
    /// `blackhole`, `unreachable`, `prohibit`, `nop`, `goto`; the number
    /// for others.
    pub fn name(self) -> std::borrow::Cow<'static, str> {
        match self {
            RuleAction::Unspec => "unspec".into(),
            RuleAction::ToTable => "to_tbl".into(),
            RuleAction::Goto => "goto".into(),
            RuleAction::Nop => "nop".into(),
            RuleAction::Blackhole => "blackhole".into(),
            RuleAction::Unreachable => "unreachable".into(),
            RuleAction::Prohibit => "prohibit".into(),
            RuleAction::Other(n) => n.to_string().into(),
        }
    }
}

/// A range of ports or uids a rule selects (`struct fib_rule_port_range`,
/// `struct fib_rule_uid_range`), both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Range<T> {
    /// The first value selected.
    pub start: T,
    /// The last value selected.
    pub end: T,
}

/// `fib_rule_hdr` and the `FRA_*` attributes of one rule message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rule<'a> {
    /// `family`: AF_INET or AF_INET6 (AF_UNSPEC in a dump request for all).
    pub family: AddressFamily,
    /// `dst_len`: the destination prefix length in bits.
    pub dst_len: u8,
    /// `src_len`: the source prefix length in bits.
    pub src_len: u8,
    /// `tos`: the TOS (IPv4) or traffic class the rule selects; 0 for any.
    pub tos: u8,
    /// FRA_TABLE when present, else the header's 8-bit `table`.
    pub table: TableId,
    /// `action` (FR_ACT_*).
    pub action: RuleAction,
    /// `flags` (FIB_RULE_*: permanent, invert, unresolved, detached).
    pub flags: u32,
    /// FRA_PRIORITY: the rule's preference; absent in a request that lets
    /// the kernel choose.
    pub priority: Option<u32>,
    /// FRA_DST: the destination prefix (with `dst_len`).
    pub dst: Option<IpAddr>,
    /// FRA_SRC: the source prefix (with `src_len`).
    pub src: Option<IpAddr>,
    /// FRA_IIFNAME: the input device's name, without the NUL.
    pub iifname: Option<&'a [u8]>,
    /// FRA_OIFNAME: the output device's name, without the NUL.
    pub oifname: Option<&'a [u8]>,
    /// FRA_FWMARK: the mark selected (under `fwmask`).
    pub fwmark: Option<u32>,
    /// FRA_FWMASK: the bits of the mark compared.
    pub fwmask: Option<u32>,
    /// FRA_GOTO: the priority a `goto` rule jumps to.
    pub goto: Option<u32>,
    /// FRA_SUPPRESS_PREFIXLEN: a table's answer of this prefix length or
    /// shorter is not taken (u32::MAX, -1: unset).
    pub suppress_prefixlen: Option<u32>,
    /// FRA_SUPPRESS_IFGROUP: an answer through a device of this group is
    /// not taken (u32::MAX, -1: unset).
    pub suppress_ifgroup: Option<u32>,
    /// FRA_L3MDEV: look up the table of the flow's VRF device.
    pub l3mdev: Option<u8>,
    /// FRA_UID_RANGE: the socket owners selected.
    pub uid_range: Option<Range<u32>>,
    /// FRA_PROTOCOL: who added the rule (RTPROT_*).
    pub protocol: Option<RouteProtocol>,
    /// FRA_IP_PROTO: the IP protocol selected (IPPROTO_*).
    pub ip_proto: Option<u8>,
    /// FRA_SPORT_RANGE: the source ports selected.
    pub sport: Option<Range<u16>>,
    /// FRA_DPORT_RANGE: the destination ports selected.
    pub dport: Option<Range<u16>>,
    /// FRA_TUN_ID: the tunnel id selected.
    pub tun_id: Option<u64>,
    /// FRA_FLOW: the realms a route through this rule gets.
    pub flow: Option<u32>,
}

impl Rule<'_> {
    /// FRA_SUPPRESS_PREFIXLEN when set (the kernel sends -1 for unset).
    pub fn suppress_prefixlen(&self) -> Option<u32> {
        self.suppress_prefixlen.filter(|v| *v != u32::MAX)
    }

    /// FRA_SUPPRESS_IFGROUP when set (the kernel sends -1 for unset).
    pub fn suppress_ifgroup(&self) -> Option<u32> {
        self.suppress_ifgroup.filter(|v| *v != u32::MAX)
    }
}

#[cfg(test)]
#[path = "rule_tests.rs"]
mod tests;
