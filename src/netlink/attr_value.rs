//! Typed values of netlink-packet-route's attributes, and their IFLA_,
//! IFA_ and RTA_ names.
//!
//! Contract: `typed` turns one attribute the crate decoded into a
//! [`AttrValue`] tree: numbers, booleans, text, addresses, lists and
//! records with the crate's field names (`IFA_CACHEINFO` is
//! `{ifa_preferred, ifa_valid, cstamp, tstamp}`, `RTA_MULTIPATH` a list of
//! next hops with their own attributes). The crate has no serde support;
//! its `Debug` rendering is the one complete description of every typed
//! attribute, nested ones included, so this module reads that rendering
//! with a nom grammar of Rust's `Debug` syntax (the crate's version is
//! pinned; a change of its rendering fails the tests). What the grammar
//! cannot read stays as the crate's text, marked as such; attributes the
//! crate does not know (`Other(DefaultNla)`) are raw bytes, marked too.

use std::fmt;

use pcap_parser::nom;

use nom::branch::alt;
use nom::bytes::complete::{escaped_transform, is_not, tag, take_while1};
use nom::character::complete::{char, multispace0};
use nom::combinator::{map, opt, value};
use nom::multi::separated_list0;
use nom::sequence::{delimited, preceded, separated_pair, terminated};
use nom::{IResult, Parser};

/// A value, typed as far as the crate's rendering tells.
#[derive(Debug, Clone, PartialEq)]
pub enum AttrValue {
    /// A number (counts, indexes, sizes, flag words).
    Number(i128),
    /// A flag.
    Bool(bool),
    /// A name, an address, an enum value (`Unknown`, `Veth`).
    Text(String),
    /// A list (next hops, nested attributes, flag names).
    List(Vec<AttrValue>),
    /// A record, its fields in the crate's order.
    Record(Vec<(String, AttrValue)>),
    /// The bytes of an attribute no crate knows, as hex.
    Raw(String),
    /// What the grammar could not read: the crate's own text.
    Debug(String),
}

impl serde::Serialize for AttrValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            AttrValue::Number(n) => match (i64::try_from(*n), u64::try_from(*n)) {
                (Ok(i), _) => s.serialize_i64(i),
                (_, Ok(u)) => s.serialize_u64(u),
                _ => s.serialize_str(&n.to_string()),
            },
            AttrValue::Bool(b) => s.serialize_bool(*b),
            AttrValue::Text(t) => s.serialize_str(t),
            AttrValue::List(v) => v.serialize(s),
            AttrValue::Record(fields) => {
                let mut m = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
            AttrValue::Raw(hex) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("raw", hex)?;
                m.end()
            }
            AttrValue::Debug(text) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("netlink_packet_route_debug", text)?;
                m.end()
            }
        }
    }
}

/// Compact text: scalars as they are, `[a, b]`, `{k: v}`, `raw 0a0b`.
impl fmt::Display for AttrValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttrValue::Number(n) => write!(f, "{n}"),
            AttrValue::Bool(b) => write!(f, "{b}"),
            AttrValue::Text(t) => write!(f, "{t}"),
            AttrValue::List(v) => {
                write!(f, "[")?;
                for (i, x) in v.iter().enumerate() {
                    write!(f, "{}{x}", if i > 0 { ", " } else { "" })?;
                }
                write!(f, "]")
            }
            AttrValue::Record(fields) => {
                write!(f, "{{")?;
                for (i, (k, v)) in fields.iter().enumerate() {
                    write!(f, "{}{k}: {v}", if i > 0 { ", " } else { "" })?;
                }
                write!(f, "}}")
            }
            AttrValue::Raw(hex) => write!(f, "raw {hex}"),
            AttrValue::Debug(text) => write!(f, "(as netlink-packet-route prints it) {text}"),
        }
    }
}

/// The parsed `Debug` syntax.
#[derive(Debug, Clone, PartialEq)]
enum Tree {
    /// `Name(a, b)`.
    Tuple(String, Vec<Tree>),
    /// `Name { a: x }`.
    Struct(String, Vec<(String, Tree)>),
    /// `[a, b]`.
    List(Vec<Tree>),
    /// `"text"`.
    Str(String),
    /// A bare token: a number, a unit variant, an address, `true`.
    Word(String),
    /// `A | B` (bitflags).
    Flags(Vec<String>),
}

fn ws<'a, O, P>(p: P) -> impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>
where
    P: Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
{
    delimited(multispace0, p, multispace0)
}

fn word(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_alphanumeric() || "_.:-+%".contains(c))(i)
}

/// A field name: unlike a word, no `:` (which addresses have).
fn ident(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_alphanumeric() || c == '_')(i)
}

fn string(i: &str) -> IResult<&str, String> {
    delimited(
        char('"'),
        map(
            opt(escaped_transform(
                is_not("\\\""),
                '\\',
                alt((
                    value("\\", tag("\\")),
                    value("\"", tag("\"")),
                    value("\n", tag("n")),
                    value("\t", tag("t")),
                    value("\r", tag("r")),
                    value("\0", tag("0")),
                    value("'", tag("'")),
                )),
            )),
            Option::unwrap_or_default,
        ),
        char('"'),
    )
    .parse(i)
}

fn list(i: &str) -> IResult<&str, Vec<Tree>> {
    delimited(
        ws(char('[')),
        terminated(separated_list0(ws(char(',')), tree), opt(ws(char(',')))),
        ws(char(']')),
    )
    .parse(i)
}

fn tree(i: &str) -> IResult<&str, Tree> {
    let (i, _) = multispace0(i)?;
    if let Ok((rest, s)) = string(i) {
        return Ok((rest, Tree::Str(s)));
    }
    if let Ok((rest, l)) = list(i) {
        return Ok((rest, Tree::List(l)));
    }
    // `(a, b)`: a tuple without a name.
    if let Ok((rest, l)) = delimited(
        ws(char('(')),
        terminated(separated_list0(ws(char(',')), tree), opt(ws(char(',')))),
        ws(char(')')),
    )
    .parse(i)
    {
        return Ok((rest, Tree::List(l)));
    }
    let (i, name) = word(i)?;
    let name = name.to_owned();
    if let Ok((rest, args)) = delimited(
        ws(char('(')),
        terminated(separated_list0(ws(char(',')), tree), opt(ws(char(',')))),
        ws(char(')')),
    )
    .parse(i)
    {
        return Ok((rest, Tree::Tuple(name, args)));
    }
    if let Ok((rest, fields)) = delimited(
        ws(char('{')),
        terminated(
            separated_list0(
                ws(char(',')),
                separated_pair(map(ws(ident), str::to_owned), ws(char(':')), tree),
            ),
            opt(ws(char(','))),
        ),
        ws(char('}')),
    )
    .parse(i)
    {
        return Ok((rest, Tree::Struct(name, fields)));
    }
    // `A | B | C`: bitflags' rendering of several flags.
    let (i, more) = nom::multi::many0(preceded(ws(char('|')), word)).parse(i)?;
    if more.is_empty() {
        Ok((i, Tree::Word(name)))
    } else {
        let mut all = vec![name];
        all.extend(more.into_iter().map(str::to_owned));
        Ok((i, Tree::Flags(all)))
    }
}

/// Address families' wrappers, unwrapped to the address they hold.
const ADDRESS_WRAPPERS: [&str; 4] = ["Inet", "Inet6", "Ip", "Mac"];

fn convert(t: Tree) -> AttrValue {
    match t {
        Tree::Str(s) => AttrValue::Text(s),
        Tree::Word(w) => word_value(w),
        Tree::Flags(f) => AttrValue::List(f.into_iter().map(AttrValue::Text).collect()),
        Tree::List(v) => AttrValue::List(v.into_iter().map(convert).collect()),
        Tree::Struct(_, fields) => AttrValue::Record(fields.into_iter().map(|(k, v)| (k, convert(v))).collect()),
        // bitflags: `AddressFlags(Permanent | Noprefixroute)` is the list
        // of flag names (a number when no name is set).
        Tree::Tuple(name, mut args) if args.len() == 1 && name.ends_with("Flags") => match args.remove(0) {
            Tree::Word(w) if w.parse::<i128>().is_err() && !w.starts_with("0x") => {
                AttrValue::List(vec![AttrValue::Text(w)])
            }
            other => convert(other),
        },
        Tree::Tuple(name, mut args) if args.len() == 1 => {
            let inner = convert(args.remove(0));
            if ADDRESS_WRAPPERS.contains(&name.as_str()) {
                inner
            } else {
                AttrValue::Record(vec![(name, inner)])
            }
        }
        Tree::Tuple(name, args) => {
            AttrValue::Record(vec![(name, AttrValue::List(args.into_iter().map(convert).collect()))])
        }
    }
}

fn word_value(w: String) -> AttrValue {
    if let Ok(n) = w.parse::<i128>() {
        return AttrValue::Number(n);
    }
    if let Some(hex) = w.strip_prefix("0x")
        && let Ok(n) = i128::from_str_radix(hex, 16)
    {
        return AttrValue::Number(n);
    }
    match w.as_str() {
        "true" => AttrValue::Bool(true),
        "false" => AttrValue::Bool(false),
        _ => AttrValue::Text(w),
    }
}

/// Bytes as lowercase hex.
pub(crate) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn bytes_of(v: &[Tree]) -> Option<Vec<u8>> {
    v.iter()
        .map(|t| match t {
            Tree::Word(w) => w.parse::<u8>().ok(),
            _ => None,
        })
        .collect()
}

/// The typed value of one attribute from the crate's rendering of it
/// (`IfName("lo")`, `CacheInfo(CacheInfo { .. })`); `mac` says the
/// attribute is a link-layer address (a byte list printed `aa:bb:..`).
pub(crate) fn typed(debug: &str, mac: bool) -> AttrValue {
    let parsed = nom::combinator::all_consuming(ws(tree)).parse(debug);
    let Ok((_, Tree::Tuple(variant, mut args))) = parsed else {
        return AttrValue::Debug(debug.to_owned());
    };
    if args.len() != 1 {
        return convert(Tree::Tuple(variant, args));
    }
    let inner = args.remove(0);
    match (variant.as_str(), inner) {
        // An attribute the crate does not know: its bytes.
        ("Other", Tree::Struct(_, fields)) => match fields.iter().find(|(k, _)| k == "value").map(|(_, v)| v) {
            Some(Tree::List(v)) => {
                bytes_of(v).map_or_else(|| AttrValue::Debug(debug.to_owned()), |b| AttrValue::Raw(hex(&b)))
            }
            _ => AttrValue::Debug(debug.to_owned()),
        },
        (_, Tree::List(v)) if mac => match bytes_of(&v) {
            Some(b) => AttrValue::Text(b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(":")),
            None => convert(Tree::List(v)),
        },
        // A single tuple around a struct of the same name: the struct.
        (_, inner) => convert(inner),
    }
}

/// The uapi name of attribute `kind` of a message of type `msg_type`
/// (RTM_*LINK: IFLA_, RTM_*ADDR: IFA_, RTM_*ROUTE: RTA_).
pub fn attr_name(msg_type: u16, kind: u16) -> Option<&'static str> {
    let table: &[&str] = match msg_type {
        16..=19 => &IFLA,
        20..=23 => &IFA,
        24..=27 => &RTA,
        32..=35 => &super::rule::FRA_NAMES,
        _ => return None,
    };
    table.get(usize::from(kind)).copied()
}

/// include/uapi/linux/if_link.h, in enum order (6.15).
const IFLA: [&str; 70] = [
    "IFLA_UNSPEC",
    "IFLA_ADDRESS",
    "IFLA_BROADCAST",
    "IFLA_IFNAME",
    "IFLA_MTU",
    "IFLA_LINK",
    "IFLA_QDISC",
    "IFLA_STATS",
    "IFLA_COST",
    "IFLA_PRIORITY",
    "IFLA_MASTER",
    "IFLA_WIRELESS",
    "IFLA_PROTINFO",
    "IFLA_TXQLEN",
    "IFLA_MAP",
    "IFLA_WEIGHT",
    "IFLA_OPERSTATE",
    "IFLA_LINKMODE",
    "IFLA_LINKINFO",
    "IFLA_NET_NS_PID",
    "IFLA_IFALIAS",
    "IFLA_NUM_VF",
    "IFLA_VFINFO_LIST",
    "IFLA_STATS64",
    "IFLA_VF_PORTS",
    "IFLA_PORT_SELF",
    "IFLA_AF_SPEC",
    "IFLA_GROUP",
    "IFLA_NET_NS_FD",
    "IFLA_EXT_MASK",
    "IFLA_PROMISCUITY",
    "IFLA_NUM_TX_QUEUES",
    "IFLA_NUM_RX_QUEUES",
    "IFLA_CARRIER",
    "IFLA_PHYS_PORT_ID",
    "IFLA_CARRIER_CHANGES",
    "IFLA_PHYS_SWITCH_ID",
    "IFLA_LINK_NETNSID",
    "IFLA_PHYS_PORT_NAME",
    "IFLA_PROTO_DOWN",
    "IFLA_GSO_MAX_SEGS",
    "IFLA_GSO_MAX_SIZE",
    "IFLA_PAD",
    "IFLA_XDP",
    "IFLA_EVENT",
    "IFLA_NEW_NETNSID",
    "IFLA_TARGET_NETNSID",
    "IFLA_CARRIER_UP_COUNT",
    "IFLA_CARRIER_DOWN_COUNT",
    "IFLA_NEW_IFINDEX",
    "IFLA_MIN_MTU",
    "IFLA_MAX_MTU",
    "IFLA_PROP_LIST",
    "IFLA_ALT_IFNAME",
    "IFLA_PERM_ADDRESS",
    "IFLA_PROTO_DOWN_REASON",
    "IFLA_PARENT_DEV_NAME",
    "IFLA_PARENT_DEV_BUS_NAME",
    "IFLA_GRO_MAX_SIZE",
    "IFLA_TSO_MAX_SIZE",
    "IFLA_TSO_MAX_SEGS",
    "IFLA_ALLMULTI",
    "IFLA_DEVLINK_PORT",
    "IFLA_GSO_IPV4_MAX_SIZE",
    "IFLA_GRO_IPV4_MAX_SIZE",
    "IFLA_DPLL_PIN",
    "IFLA_MAX_PACING_OFFLOAD_HORIZON",
    "IFLA_NETNS_IMMUTABLE",
    "IFLA_HEADROOM",
    "IFLA_TAILROOM",
];

/// include/uapi/linux/if_addr.h.
const IFA: [&str; 12] = [
    "IFA_UNSPEC",
    "IFA_ADDRESS",
    "IFA_LOCAL",
    "IFA_LABEL",
    "IFA_BROADCAST",
    "IFA_ANYCAST",
    "IFA_CACHEINFO",
    "IFA_MULTICAST",
    "IFA_FLAGS",
    "IFA_RT_PRIORITY",
    "IFA_TARGET_NETNSID",
    "IFA_PROTO",
];

/// include/uapi/linux/rtnetlink.h.
const RTA: [&str; 32] = [
    "RTA_UNSPEC",
    "RTA_DST",
    "RTA_SRC",
    "RTA_IIF",
    "RTA_OIF",
    "RTA_GATEWAY",
    "RTA_PRIORITY",
    "RTA_PREFSRC",
    "RTA_METRICS",
    "RTA_MULTIPATH",
    "RTA_PROTOINFO",
    "RTA_FLOW",
    "RTA_CACHEINFO",
    "RTA_SESSION",
    "RTA_MP_ALGO",
    "RTA_TABLE",
    "RTA_MARK",
    "RTA_MFC_STATS",
    "RTA_VIA",
    "RTA_NEWDST",
    "RTA_PREF",
    "RTA_ENCAP_TYPE",
    "RTA_ENCAP",
    "RTA_EXPIRES",
    "RTA_PAD",
    "RTA_UID",
    "RTA_TTL_PROPAGATE",
    "RTA_IP_PROTO",
    "RTA_SPORT",
    "RTA_DPORT",
    "RTA_NH_ID",
    "RTA_FLOWLABEL",
];
