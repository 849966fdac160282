//! Netlink decoding: framing of the messages in a record and checked views
//! of the wire structures in either byte order (`wire`), the UAPI numbers
//! and their names (`names`), the compact NETLINK_ROUTE decoding every later
//! layer uses (`rtnl`), the full decoding through netlink-packet-route used
//! for cross-checks (`strict`), and the attributes of a message by name
//! with typed values for display (`attr_text`, `attr_value`), and the typed
//! family, scope, route type, protocol and table with their one table of
//! names (`values`); policy routing rules (`rule`).

pub(crate) mod attr_text;
pub mod attr_value;
pub mod names;
pub mod rtnl;
pub mod rule;
pub mod strict;
pub mod values;
pub mod wire;

pub use rtnl::{Addr, Body, Decoded, Link, Problem, Request, Route, decode, decode_into, from_user_space};
pub use values::{AddressFamily, RouteProtocol, RouteType, Scope, TableId};
pub use wire::{ByteOrder, Header, Message, Messages};
