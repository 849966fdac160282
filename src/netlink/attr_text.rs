//! The attributes of a link, address, route or rule message (what
//! `nlorder decode --attrs` shows).
//!
//! Contract: [`attr_texts`] lists every attribute of one message with its
//! type number, its uapi name (`IFLA_IFNAME`) and its value typed as
//! netlink-packet-route decodes it (through `netlink::strict`; see
//! [`super::attr_value`]). Where that crate refuses the message, it lists
//! the attributes that frame correctly after the fixed family header as raw
//! hex, with the crate's error; other message types get an empty list. It
//! returns values for a printer to format and writes nothing itself.

use netlink_packet_core::Nla;
use netlink_packet_route::RouteNetlinkMessage;

use super::attr_value::{AttrValue, attr_name, hex, typed};
use super::names::{IFLA_ADDRESS, RTM_DELLINK, RTM_GETLINK, RTM_NEWLINK, RTM_SETLINK};
use super::strict;
use super::wire::{Attrs, Message, family_header_len};

/// IFLA_BROADCAST, IFLA_PERM_ADDRESS: link-layer addresses like IFLA_ADDRESS.
const LINK_LAYER_ADDRESSES: [u16; 3] = [IFLA_ADDRESS, 2, 54];

/// One attribute: its type number (NLA_F_* bits masked off), its name and
/// its value.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AttrText {
    /// The type number.
    #[serde(rename = "type")]
    pub kind: u16,
    /// Its uapi name, when nlorder knows it.
    pub name: Option<&'static str>,
    /// The value: typed, or raw bytes where no crate reads it.
    pub value: AttrValue,
}

/// The attribute list of a message: the crate's decoding, or raw bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct AttrList {
    pub attrs: Vec<AttrText>,
    /// Why netlink-packet-route refused the message, when it did (the
    /// attributes are then raw).
    pub error: Option<String>,
}

/// Every attribute of a link, address or route message.
pub fn attr_texts(msg: &Message<'_>) -> AttrList {
    match strict::decode_full(msg) {
        Ok(Some(full)) => AttrList {
            attrs: attributes(msg.header.kind, &full),
            error: None,
        },
        Ok(None) => AttrList {
            attrs: Vec::new(),
            error: None,
        },
        Err(e) => {
            let raw = family_header_len(msg.header.kind)
                .and_then(|skip| msg.payload().get(skip..))
                .map(|area| {
                    Attrs::new(area, msg.order)
                        .filter_map(Result::ok)
                        .map(|a| AttrText {
                            kind: a.kind,
                            name: attr_name(msg.header.kind, a.kind),
                            value: AttrValue::Raw(hex(a.value)),
                        })
                        .collect()
                })
                .unwrap_or_default();
            AttrList {
                attrs: raw,
                error: Some(e),
            }
        }
    }
}

/// Every attribute of a decoded message, typed, with its name.
fn attributes(msg_type: u16, msg: &RouteNetlinkMessage) -> Vec<AttrText> {
    let link = matches!(msg_type, RTM_NEWLINK | RTM_DELLINK | RTM_GETLINK | RTM_SETLINK);
    let text = |attrs: &[&dyn NamedNla]| -> Vec<AttrText> {
        attrs
            .iter()
            .map(|a| {
                let kind = a.nla_kind() & 0x3fff;
                AttrText {
                    kind,
                    name: attr_name(msg_type, kind),
                    value: typed(&a.debug(), link && LINK_LAYER_ADDRESSES.contains(&kind)),
                }
            })
            .collect()
    };
    fn refs<T: Nla + std::fmt::Debug>(v: &[T]) -> Vec<&dyn NamedNla> {
        v.iter().map(|a| a as &dyn NamedNla).collect()
    }
    match msg {
        RouteNetlinkMessage::NewLink(l)
        | RouteNetlinkMessage::DelLink(l)
        | RouteNetlinkMessage::GetLink(l)
        | RouteNetlinkMessage::SetLink(l) => text(&refs(&l.attributes)),
        RouteNetlinkMessage::NewAddress(a)
        | RouteNetlinkMessage::DelAddress(a)
        | RouteNetlinkMessage::GetAddress(a) => text(&refs(&a.attributes)),
        RouteNetlinkMessage::NewRoute(r) | RouteNetlinkMessage::DelRoute(r) | RouteNetlinkMessage::GetRoute(r) => {
            text(&refs(&r.attributes))
        }
        RouteNetlinkMessage::NewRule(r) | RouteNetlinkMessage::DelRule(r) | RouteNetlinkMessage::GetRule(r) => {
            text(&refs(&r.attributes))
        }
        _ => Vec::new(),
    }
}

/// An attribute of any of the crate's attribute types.
trait NamedNla {
    fn nla_kind(&self) -> u16;
    fn debug(&self) -> String;
}

impl<T: Nla + std::fmt::Debug> NamedNla for T {
    fn nla_kind(&self) -> u16 {
        self.kind()
    }

    fn debug(&self) -> String {
        format!("{self:?}")
    }
}

#[cfg(test)]
#[path = "attr_text_tests.rs"]
mod tests;
