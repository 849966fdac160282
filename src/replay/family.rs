//! An IP address family as the replays and their settings speak of it:
//! IPv4 or IPv6, `4` or `6` in text and JSON.
//!
//! Contract: a leaf; every replay, setting and printer names a family with
//! this one type.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use serde::{Deserialize, Deserializer};

use crate::bad_value::BadValue;

/// An IP address family, as the replays speak of it (IPv4 or IPv6).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// IPv4 (the default).
    #[default]
    V4,
    /// IPv6.
    V6,
}

impl Family {
    /// The family of an address.
    pub fn of(ip: IpAddr) -> Family {
        if ip.is_ipv6() { Family::V6 } else { Family::V4 }
    }

    /// AF_INET or AF_INET6.
    pub fn af(self) -> crate::netlink::values::AddressFamily {
        match self {
            Family::V4 => crate::netlink::values::AddressFamily::Inet,
            Family::V6 => crate::netlink::values::AddressFamily::Inet6,
        }
    }

    /// 4 or 6.
    pub fn number(self) -> u8 {
        match self {
            Family::V4 => 4,
            Family::V6 => 6,
        }
    }
}

/// `4` or `6` (so `IPv{family}` reads right).
impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl FromStr for Family {
    type Err = BadValue;
    fn from_str(s: &str) -> Result<Self, BadValue> {
        match s {
            "4" | "ipv4" | "inet" => Ok(Family::V4),
            "6" | "ipv6" | "inet6" => Ok(Family::V6),
            _ => Err(BadValue::new(s, "not an address family (4 or 6)")),
        }
    }
}

impl serde::Serialize for Family {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for Family {
    /// `family = 4` or `family = "6"`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(u64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Number(n) => n.to_string().parse().map_err(serde::de::Error::custom),
            Raw::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}
