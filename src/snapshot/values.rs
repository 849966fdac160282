//! The values of `ip`'s output, typed: links, addresses, routes and next
//! hops as `ip -j` names their keys, read from JSON by serde and filled by
//! the text reader alike.
//!
//! Contract: values only, with the names `ip` prints for them
//! (`from_name`); what they mean as netlink messages is the builder's
//! (`mod.rs`).

use std::net::IpAddr;

use serde::Deserialize;
use serde_json::Value;

use crate::netlink::names::{IFF_NAMES, ROUTE_FLAG_NAMES};

/// A link, as `ip -j [-d] link show` (or the part of `ip -j addr show`
/// before `addr_info`) prints it.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Link {
    pub(super) ifindex: u32,
    pub(super) ifname: String,
    #[serde(default)]
    pub(super) flags: Vec<LinkFlag>,
    pub(super) mtu: Option<u32>,
    pub(super) qdisc: Option<String>,
    pub(super) master: Option<String>,
    pub(super) operstate: Option<OperState>,
    pub(super) linkmode: Option<String>,
    pub(super) group: Option<String>,
    pub(super) txqlen: Option<u32>,
    pub(super) link_type: Option<String>,
    pub(super) address: Option<String>,
    pub(super) broadcast: Option<String>,
    pub(super) permaddr: Option<String>,
    #[serde(default, deserialize_with = "null_or")]
    pub(super) link: Option<Option<String>>,
    pub(super) link_index: Option<u32>,
    pub(super) link_netnsid: Option<i32>,
    /// The other namespace by the name `ip` knows it by (its id unknown).
    pub(super) link_netns: Option<String>,
    #[serde(default)]
    pub(super) proto_down: bool,
    pub(super) ifalias: Option<String>,
    #[serde(default)]
    pub(super) altnames: Vec<String>,
    pub(super) linkinfo: Option<LinkInfo>,
    pub(super) inet6_addr_gen_mode: Option<AddrGenMode>,
    #[serde(default)]
    pub(super) addr_info: Option<Vec<Addr>>,
}

/// `"link": null` (no lower device, IFLA_LINK 0) against no `link` at all.
pub(super) fn null_or<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct LinkInfo {
    pub(super) info_kind: Option<String>,
    pub(super) info_slave_kind: Option<String>,
}

/// A link flag as `ip` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum LinkFlag {
    /// `NO-CARRIER`: up, not running (no bit of its own).
    NoCarrier,
    /// `M-DOWN`: the lower device is down (no bit of its own).
    MDown,
    /// An `IFF_*` bit.
    Bit(u32),
    /// A name nlorder does not know.
    Other(String),
}

impl LinkFlag {
    /// The flag `ip` prints as `s` (JSON and text alike).
    pub(super) fn from_name(s: &str) -> LinkFlag {
        match s {
            "NO-CARRIER" => LinkFlag::NoCarrier,
            "M-DOWN" => LinkFlag::MDown,
            n => match IFF_NAMES.iter().find(|(_, name)| *name == n) {
                Some((bit, _)) => LinkFlag::Bit(*bit),
                // what is left, in hex
                None => match u32::from_str_radix(n, 16) {
                    Ok(bits) => LinkFlag::Bit(bits),
                    Err(_) => LinkFlag::Other(s.to_owned()),
                },
            },
        }
    }
}

impl<'de> Deserialize<'de> for LinkFlag {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(LinkFlag::from_name(&s))
    }
}

/// `operstate`, as `ip` names RFC 2863's states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub(super) enum OperState {
    #[serde(rename = "UNKNOWN")]
    Unknown,
    #[serde(rename = "NOTPRESENT")]
    NotPresent,
    #[serde(rename = "DOWN")]
    Down,
    #[serde(rename = "LOWERLAYERDOWN")]
    LowerLayerDown,
    #[serde(rename = "TESTING")]
    Testing,
    #[serde(rename = "DORMANT")]
    Dormant,
    #[serde(rename = "UP")]
    Up,
}

impl OperState {
    /// The state `ip` prints as `s` (`state UP`).
    pub(super) fn from_name(s: &str) -> Option<OperState> {
        serde_json::from_value(Value::String(s.to_owned())).ok()
    }
}

/// `inet6_addr_gen_mode` (`ip -d`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum AddrGenMode {
    Eui64,
    None,
    StableSecret,
    Random,
    #[serde(untagged)]
    Other(String),
}

impl AddrGenMode {
    /// The mode `ip -d` prints as `s` (`addrgenmode eui64`).
    pub(super) fn from_name(s: &str) -> AddrGenMode {
        serde_json::from_value(Value::String(s.to_owned())).unwrap_or(AddrGenMode::Other(s.to_owned()))
    }
}

/// One address of `addr_info`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Addr {
    pub(super) family: AddrFamily,
    pub(super) local: IpAddr,
    pub(super) address: Option<IpAddr>,
    pub(super) prefixlen: u8,
    pub(super) metric: Option<u32>,
    pub(super) broadcast: Option<IpAddr>,
    pub(super) scope: Option<String>,
    #[serde(default)]
    pub(super) secondary: bool,
    #[serde(default)]
    pub(super) temporary: bool,
    #[serde(default)]
    pub(super) dynamic: bool,
    #[serde(default)]
    pub(super) nodad: bool,
    #[serde(default)]
    pub(super) optimistic: bool,
    #[serde(default)]
    pub(super) dadfailed: bool,
    #[serde(default)]
    pub(super) home: bool,
    #[serde(default)]
    pub(super) deprecated: bool,
    #[serde(default)]
    pub(super) tentative: bool,
    #[serde(default)]
    pub(super) mngtmpaddr: bool,
    #[serde(default)]
    pub(super) noprefixroute: bool,
    #[serde(default)]
    pub(super) autojoin: bool,
    #[serde(default, rename = "stable-privacy")]
    pub(super) stable_privacy: bool,
    pub(super) ifa_flags: Option<String>,
    pub(super) label: Option<String>,
    pub(super) valid_life_time: Option<u32>,
    pub(super) preferred_life_time: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum AddrFamily {
    Inet,
    Inet6,
}

impl Addr {
    /// An address of `family` with nothing known yet (filled by the text
    /// reader).
    pub(super) fn new(family: AddrFamily) -> Addr {
        Addr {
            family,
            local: match family {
                AddrFamily::Inet => IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED),
                AddrFamily::Inet6 => IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED),
            },
            address: None,
            prefixlen: 0,
            metric: None,
            broadcast: None,
            scope: None,
            secondary: false,
            temporary: false,
            dynamic: false,
            nodad: false,
            optimistic: false,
            dadfailed: false,
            home: false,
            deprecated: false,
            tentative: false,
            mngtmpaddr: false,
            noprefixroute: false,
            autojoin: false,
            stable_privacy: false,
            ifa_flags: None,
            label: None,
            valid_life_time: None,
            preferred_life_time: None,
        }
    }
}

/// One route of `ip -j route show`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Route {
    #[serde(rename = "type")]
    pub(super) kind: Option<String>,
    pub(super) dst: String,
    pub(super) from: Option<String>,
    pub(super) nhid: Option<u32>,
    pub(super) gateway: Option<IpAddr>,
    pub(super) dev: Option<String>,
    pub(super) table: Option<String>,
    pub(super) protocol: Option<String>,
    pub(super) scope: Option<String>,
    pub(super) prefsrc: Option<IpAddr>,
    pub(super) metric: Option<u32>,
    #[serde(default)]
    pub(super) flags: Vec<String>,
    pub(super) metrics: Option<Vec<serde_json::Map<String, Value>>>,
    pub(super) iif: Option<String>,
    pub(super) pref: Option<String>,
    pub(super) nexthops: Option<Vec<NextHop>>,
}

impl Route {
    /// A route to `dst` with nothing else known yet (filled by the text
    /// reader).
    pub(super) fn new(dst: String) -> Route {
        Route {
            kind: None,
            dst,
            from: None,
            nhid: None,
            gateway: None,
            dev: None,
            table: None,
            protocol: None,
            scope: None,
            prefsrc: None,
            metric: None,
            flags: Vec::new(),
            metrics: None,
            iif: None,
            pref: None,
            nexthops: None,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct NextHop {
    pub(super) gateway: Option<IpAddr>,
    pub(super) dev: Option<String>,
    pub(super) weight: Option<u16>,
    #[serde(default)]
    pub(super) flags: Vec<String>,
}

pub(super) fn route_flag(f: &str) -> Option<u32> {
    ROUTE_FLAG_NAMES
        .iter()
        .find(|(_, name)| *name == f)
        .map(|(bit, _)| *bit)
}
