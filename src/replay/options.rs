//! Each program's options as the command line and the manifests give them:
//! `program_options!` declares a program's typed settings struct (its
//! keys are the manifests' keys; `--node-ip` is `node_ip`), and each
//! program module says which keys it reads (its `OPTIONS`). Whether an
//! option means anything to a method comes from those lists
//! ([`super::method::readers`]), never from a table of names kept apart.
//!
//! Contract: values parsed once, at the edge, from their text form
//! (`FromStr`), so manifests take exactly what the command line takes.
//! No defaults are guessed here: each struct's default is the program's.

use std::net::IpAddr;
use std::str::FromStr;

use crate::bad_value::BadValue;

/// A program's settings struct: its fields (each with its default, and
/// with the `clap` feature its flag: `#[cfg_attr(feature = "clap",
/// arg(...))]` on a field, its doc comment the flag's help), a
/// `KEYS` list of their manifest names, `set` (one key of a manifest's
/// map, typed) and `given` (the keys that differ from their defaults).
macro_rules! program_options {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $default:expr, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(feature = "clap", derive(clap::Args))]
        #[cfg_attr(feature = "clap", group(skip))]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }

        impl $crate::replay::options::Keys for $name {
            const KEYS: &'static [&'static str] = &[$(stringify!($field)),*];
        }

        impl $name {
            /// Reads the value of `key` from a manifest's map; false when
            /// the key is not one of these settings.
            #[allow(unused_variables)]
            pub fn set<'de, A: serde::de::MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
                match key {
                    $( stringify!($field) => {
                        self.$field = map.next_value()?;
                        Ok(true)
                    } )*
                    _ => Ok(false),
                }
            }

            /// The keys given a value other than their default.
            #[allow(unused_variables, unused_mut)]
            pub fn given(&self) -> Vec<&'static str> {
                let default = Self::default();
                let mut given = Vec::new();
                $( if self.$field != default.$field {
                    given.push(stringify!($field));
                } )*
                given
            }
        }
    };
}

/// A program's settings struct's keys, as manifests spell them
/// (`--node-ip` is `node_ip`): every `program_options!` struct has them.
pub trait Keys {
    /// The keys, in the order the struct declares them.
    const KEYS: &'static [&'static str];
}

/// Deserializes a type from its text form (`FromStr`), so that manifests
/// take exactly what the command line takes (also `app::settings`'s).
macro_rules! deserialize_from_str {
    ($($t:ty),*) => {$(
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <String as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    )*};
}
pub(crate) use deserialize_from_str;

deserialize_from_str!(
    Resolved,
    super::calico::version::Version,
    super::calico::method::IpSetting,
    super::calico::method::NodeInternalIp
);

/// One of a name's resolver answers, or `none` (the lookup returned
/// nothing): kubelet's node name, calico-node's `can-reach=NAME`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// The lookup returned no address.
    Nothing,
    /// An address it returned.
    Ip(IpAddr),
}

impl FromStr for Resolved {
    type Err = BadValue;
    fn from_str(s: &str) -> Result<Self, BadValue> {
        if s == "none" {
            return Ok(Resolved::Nothing);
        }
        s.parse()
            .map(Resolved::Ip)
            .map_err(|_| BadValue::new(s, "not an address (or none)"))
    }
}

/// The addresses among resolver answers, in order (`none` gives none).
pub fn resolved_ips(answers: &[Resolved]) -> Vec<IpAddr> {
    answers
        .iter()
        .filter_map(|r| match r {
            Resolved::Ip(ip) => Some(*ip),
            Resolved::Nothing => None,
        })
        .collect()
}

/// A key as the command line spells it (`node_ip` is `--node-ip`).
pub fn flag(key: &str) -> String {
    key.replace('_', "-")
}
