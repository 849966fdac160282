//! Netlink decoding: framing of the messages in a record, checked views of
//! the wire structures in either byte order, the compact NETLINK_ROUTE
//! decoding every later layer uses, and the full decoding through
//! netlink-packet-route used for display and cross-checks.

pub mod names;
pub mod rtnl;
pub mod strict;
pub mod wire;

pub use rtnl::{Addr, Body, Decoded, Link, Problem, Request, Route, decode};
pub use wire::{ByteOrder, Header, Message, Messages};
