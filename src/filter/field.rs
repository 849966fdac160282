//! The fields a filter can test and `--fields` can print, and their values.

use std::borrow::Cow;
use std::net::IpAddr;

use crate::looks::Library;
use crate::netlink::names;
use crate::netlink::values::{AddressFamily, Scope, TableId};

/// A field of a listed record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// The capture record's number, 1-based (tshark's `frame.number`).
    Packet,
    /// When the record was captured, seconds since the epoch
    /// (`frame.time_epoch`).
    Time,
    /// Byte offset of the message in the input.
    Offset,
    /// The netlink message type (`RTM_NEWADDR` or its number).
    Type,
    /// The address family of the message or change (`inet`, `inet6`, ...).
    Family,
    /// The interface index the message or change is about.
    Ifindex,
    /// The interface's name, as the link messages before it named it.
    Dev,
    /// The netlink port id (`nlmsg_pid`; for who, the requester's port).
    Port,
    /// The netlink sequence number.
    Seq,
    /// The message length (`nlmsg_len`).
    Len,
    /// `request`, `reply` or `notification`.
    Dir,
    /// NLM_F_MULTI is set.
    Multi,
    /// The message is a dump request (or the request asked for a dump).
    Dump,
    /// The error an NLMSG_ERROR or NLMSG_DONE carries (`ENOENT` or its
    /// positive number); absent on an ACK.
    Errno,
    /// The address of an address message or change (IFA_LOCAL, else
    /// IFA_ADDRESS).
    Addr,
    /// The destination of a route (absent for a default route).
    Dst,
    /// The gateway of a route.
    Gateway,
    /// The prefix length of that address or destination.
    Prefixlen,
    /// The route table (`main`, `local` or its number).
    Table,
    /// The address scope or route scope (`global`, `link`, `host`, ...).
    Scope,
    /// What a timeline item is: `added`, `removed`, `expired`, `changed`,
    /// `dump`, `refused`, `unnotified` or `look`.
    Change,
    /// What a timeline item is about: `link`, `addr` or `route`.
    Object,
    /// The program a request's shape points to (`go-net`,
    /// `glibc-getaddrinfo`, ...).
    Program,
}

/// What kind of value a field has, for checking literals against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A count, index or time.
    Number,
    /// A number with a name (`RTM_NEWADDR` is 20): compared by either.
    Named,
    /// A name or keyword.
    Text,
    /// An IP address.
    Ip,
    /// A flag.
    Bool,
}

impl Field {
    /// Every field, in the order help lists them (the variants' order).
    pub const ALL: &'static [Field] = &[
        Field::Packet,
        Field::Time,
        Field::Offset,
        Field::Type,
        Field::Family,
        Field::Ifindex,
        Field::Dev,
        Field::Port,
        Field::Seq,
        Field::Len,
        Field::Dir,
        Field::Multi,
        Field::Dump,
        Field::Errno,
        Field::Addr,
        Field::Dst,
        Field::Gateway,
        Field::Prefixlen,
        Field::Table,
        Field::Scope,
        Field::Change,
        Field::Object,
        Field::Program,
    ];

    /// Fields of a `decode` message: every field before the timeline's
    /// own (`change`, `object`) and `program`.
    pub const MESSAGE: &'static [Field] = Field::ALL.split_at(Field::Change as usize).0;

    /// Fields of a `timeline` item (a change, a dump checked, a look).
    pub const CHANGE: &'static [Field] = &[
        Field::Packet,
        Field::Time,
        Field::Change,
        Field::Object,
        Field::Family,
        Field::Ifindex,
        Field::Dev,
        Field::Addr,
        Field::Dst,
        Field::Gateway,
        Field::Prefixlen,
        Field::Table,
        Field::Scope,
        Field::Errno,
        Field::Port,
        Field::Program,
        Field::Dump,
    ];

    /// Fields of a `who` request.
    pub const REQUEST: &'static [Field] = &[
        Field::Packet,
        Field::Time,
        Field::Type,
        Field::Family,
        Field::Port,
        Field::Seq,
        Field::Len,
        Field::Dump,
        Field::Errno,
        Field::Program,
    ];

    /// The name filters and `--fields` use.
    pub fn name(self) -> &'static str {
        match self {
            Field::Packet => "packet",
            Field::Time => "time",
            Field::Offset => "offset",
            Field::Type => "type",
            Field::Family => "family",
            Field::Ifindex => "ifindex",
            Field::Dev => "dev",
            Field::Port => "port",
            Field::Seq => "seq",
            Field::Len => "len",
            Field::Dir => "dir",
            Field::Multi => "multi",
            Field::Dump => "dump",
            Field::Errno => "errno",
            Field::Addr => "addr",
            Field::Dst => "dst",
            Field::Gateway => "gateway",
            Field::Prefixlen => "prefixlen",
            Field::Table => "table",
            Field::Scope => "scope",
            Field::Change => "change",
            Field::Object => "object",
            Field::Program => "program",
        }
    }

    /// tshark's names of the same field (Wireshark's netlink dissectors),
    /// also accepted.
    pub fn tshark_names(self) -> &'static [&'static str] {
        match self {
            Field::Packet => &["frame.number"],
            Field::Time => &["frame.time_epoch"],
            Field::Type => &["netlink.hdr_type", "netlink-route.nltype"],
            Field::Port => &["netlink.hdr_pid"],
            Field::Seq => &["netlink.hdr_seq"],
            Field::Len => &["netlink.hdr_len"],
            _ => &[],
        }
    }

    /// The field a name (ours or tshark's, any case) stands for.
    pub fn from_name(name: &str) -> Option<Field> {
        Field::ALL.iter().copied().find(|f| {
            f.name().eq_ignore_ascii_case(name) || f.tshark_names().iter().any(|t| t.eq_ignore_ascii_case(name))
        })
    }

    /// What kind of value the field has.
    pub fn kind(self) -> Kind {
        match self {
            Field::Packet | Field::Time | Field::Offset | Field::Ifindex | Field::Port | Field::Seq | Field::Len => {
                Kind::Number
            }
            Field::Prefixlen => Kind::Number,
            Field::Type | Field::Family | Field::Errno | Field::Table | Field::Scope => Kind::Named,
            Field::Dev | Field::Dir | Field::Change | Field::Object | Field::Program => Kind::Text,
            Field::Addr | Field::Dst | Field::Gateway => Kind::Ip,
            Field::Multi | Field::Dump => Kind::Bool,
        }
    }
}

/// The names a field's values can have, and whether a name is one of them.
///
/// Filters refuse a name outside the vocabulary (`type == RTM_NEWADR`) as
/// tshark refuses a value string its field does not have; `dev` names
/// interfaces, which only the capture knows, so it takes any name.
impl Field {
    /// The named values of this field with their numbers (`None` for
    /// keywords), in number order; `None` when any name goes (`dev`).
    pub fn values(self) -> Option<Vec<(Option<i64>, Cow<'static, str>)>> {
        let named = |range: std::ops::RangeInclusive<i64>, name: &dyn Fn(i64) -> Cow<'static, str>| {
            range
                .filter_map(|n| {
                    let text = name(n);
                    (!Self::is_fallback_name(self, &text)).then_some((Some(n), text))
                })
                .collect::<Vec<_>>()
        };
        let words = |w: &[&'static str]| w.iter().map(|w| (None, Cow::Borrowed(*w))).collect::<Vec<_>>();
        Some(match self {
            Field::Type => named(0..=255, &|n| names::message_type(n as u16)),
            Field::Family => named(0..=255, &|n| AddressFamily::from(n as u8).name()),
            // 0 is an ACK, which has no errno field
            Field::Errno => named(1..=600, &|n| names::errno(n as i32)),
            Field::Table => named(0..=255, &|n| TableId::from(n as u32).name()),
            Field::Scope => named(0..=255, &|n| Scope::from(n as u8).name()),
            Field::Dir => words(&["request", "reply", "notification"]),
            Field::Change => words(CHANGES),
            Field::Object => words(&["link", "addr", "route"]),
            Field::Program => Library::ALL.iter().map(|l| (None, Cow::Borrowed(l.id()))).collect(),
            _ => return None,
        })
    }

    /// Whether `name` is the field's word for a number it has no name for
    /// (`TYPE_99`, `af43`, `errno 300`, a bare number).
    fn is_fallback_name(self, name: &str) -> bool {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let lower = name.to_ascii_lowercase();
        match self {
            Field::Type => lower.strip_prefix("type_").is_some_and(digits),
            Field::Family => lower.strip_prefix("af").is_some_and(digits),
            Field::Errno => lower.strip_prefix("errno ").is_some_and(digits),
            _ => digits(&lower),
        }
    }

    /// Whether `name` names a value of this field: one of [`Field::values`],
    /// or the word for an unnamed number (`TYPE_99`, `af43`), any case.
    pub fn knows_value(self, name: &str) -> bool {
        let Some(values) = self.values() else {
            return true;
        };
        if values.iter().any(|(_, v)| v.eq_ignore_ascii_case(name)) {
            return true;
        }
        // `TYPE_99`: what the listing prints for a number with no name
        let number: String = name.chars().rev().take_while(char::is_ascii_digit).collect();
        let Ok(n) = number.chars().rev().collect::<String>().parse::<i64>() else {
            return false;
        };
        let printed = match self {
            Field::Type => u16::try_from(n).ok().map(names::message_type),
            Field::Family => u8::try_from(n).ok().map(|n| AddressFamily::from(n).name()),
            Field::Errno => i32::try_from(n).ok().map(names::errno),
            _ => None,
        };
        printed.is_some_and(|p| p.eq_ignore_ascii_case(name) && self.is_fallback_name(&p))
    }
}

/// The values of `change`, as timeline items carry them.
pub(crate) const CHANGES: &[&str] = &[
    "added",
    "removed",
    "expired",
    "changed",
    "refused",
    "dump",
    "unnotified",
    "look",
];

/// One field's value in one record.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    /// A count, index or time.
    Number(f64),
    /// A number with a name: the message type, family, errno, table, scope.
    Named(i64, Cow<'a, str>),
    /// A name or keyword.
    Text(Cow<'a, str>),
    /// An IP address.
    Ip(IpAddr),
    /// A flag.
    Bool(bool),
}

/// A record a filter can test: it gives the value of each field it has.
pub trait Fields {
    /// The value of `field`, or `None` when this record has no such field.
    fn field(&self, field: Field) -> Option<Value<'_>>;
}
