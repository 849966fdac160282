//! The fields a filter can test and `--fields` can print, and their values.

use std::borrow::Cow;
use std::net::IpAddr;

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
    /// What a timeline item is: `added`, `removed`, `changed`, `dump`,
    /// `refused`, `unnotified` or `look`.
    Change,
    /// What a timeline item is about: `link`, `addr` or `route`.
    Object,
    /// The program a request's shape points to (`go-net`,
    /// `glibc-getaddrinfo`, ...).
    Program,
}

/// What kind of value a field has, for checking literals against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Number,
    /// A number with a name (`RTM_NEWADDR` is 20): compared by either.
    Named,
    Text,
    Ip,
    Bool,
}

impl Field {
    /// Every field, in the order help lists them.
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

    /// Fields of a `decode` message.
    pub const MESSAGE: &'static [Field] = &[
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
    ];

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
    fn tshark_names(self) -> &'static [&'static str] {
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

    pub(crate) fn kind(self) -> Kind {
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
