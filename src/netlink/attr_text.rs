//! The attributes of a link, address or route message as text (what
//! `nlorder decode --attrs` shows).
//!
//! Contract: [`attr_texts`] lists every attribute of one message with its
//! type number, as netlink-packet-route decodes it (`Debug` text, through
//! `netlink::strict`). Where that crate refuses the message, it lists the
//! attributes that frame correctly after the fixed family header as raw hex,
//! with the crate's error; other message types get an empty list. It
//! returns values for a printer to format and writes nothing itself.

use netlink_packet_core::Nla;
use netlink_packet_route::RouteNetlinkMessage;

use super::strict;
use super::wire::{Attrs, Message, family_header_len};

/// One attribute: its type number (NLA_F_* bits masked off) and its value
/// as text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AttrText {
    #[serde(rename = "type")]
    pub kind: u16,
    pub value: String,
}

/// The attribute list of a message: the crate's decoding, or raw bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
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
            attrs: attributes(&full),
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
                            value: format!("raw {}", hex(a.value)),
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

/// Every attribute of a decoded message, as `Debug` text with its type number.
fn attributes(msg: &RouteNetlinkMessage) -> Vec<AttrText> {
    fn text<T: Nla + std::fmt::Debug>(attrs: &[T]) -> Vec<AttrText> {
        attrs
            .iter()
            .map(|a| AttrText {
                kind: a.kind() & 0x3fff,
                value: format!("{a:?}"),
            })
            .collect()
    }
    match msg {
        RouteNetlinkMessage::NewLink(l)
        | RouteNetlinkMessage::DelLink(l)
        | RouteNetlinkMessage::GetLink(l)
        | RouteNetlinkMessage::SetLink(l) => text(&l.attributes),
        RouteNetlinkMessage::NewAddress(a)
        | RouteNetlinkMessage::DelAddress(a)
        | RouteNetlinkMessage::GetAddress(a) => text(&a.attributes),
        RouteNetlinkMessage::NewRoute(r) | RouteNetlinkMessage::DelRoute(r) | RouteNetlinkMessage::GetRoute(r) => {
            text(&r.attributes)
        }
        _ => Vec::new(),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
#[path = "attr_text_tests.rs"]
mod tests;
