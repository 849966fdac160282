//! What calico-node does with its address once it has one, as notes on
//! the detection: the BGP peers' routes (which source the kernel connects
//! from) and felix's VXLAN parent device.
//!
//! Contract: pure functions of the model and the detection; they add
//! notes, never change the answer.

use std::net::IpAddr;

use crate::model::Model;
use crate::replay::calico::note::{Note, PeerCheck};
use crate::replay::calico::walk::family_of;
use crate::replay::family::Family;
use crate::replay::verdict::Detection;

/// felix's VXLAN device parent (`getParentInterface` in felix's VXLAN
/// manager): `LinkList()` in dump order, each link's `AddrList` of the
/// family; the first link holding the node's IP (prefix ignored).
pub(super) fn vxlan_parent(model: &Model, family: Family, d: &mut Detection) {
    let Some(ip) = d.ip() else { return };
    let fam = family.af();
    let parent = model
        .links()
        .iter()
        .find(|l| model.device_addresses(l.index, fam).iter().any(|a| a.address == ip));
    d.notes.push(
        match parent {
            Some(l) => Note::VxlanParent {
                interface: l.display_name(),
            },
            None => Note::VxlanNoParent,
        }
        .into(),
    );
}

pub(super) fn bgp_peers(model: &Model, peers: &[IpAddr], family: Family, d: &mut Detection) {
    let chosen = d.ip();
    for peer in peers.iter().filter(|p| family_of(**p) != family) {
        d.notes.push(Note::BgpPeerOtherFamily { peer: *peer, family }.into());
    }
    for peer in peers.iter().filter(|p| family_of(**p) == family) {
        match crate::replay::assumed::select_source_noted(model, *peer, &mut d.notes) {
            Ok(c) => {
                let node = match chosen {
                    Some(ip) if ip == c.source => PeerCheck::Matches,
                    Some(ip) => PeerCheck::Mismatch {
                        node: ip,
                        interface: d.interface.clone(),
                    },
                    None => PeerCheck::NoNodeAddress,
                };
                d.notes.push(
                    Note::BgpPeer {
                        peer: *peer,
                        source: c.source,
                        device: c.oif.map(|i| model.ifname(i)).unwrap_or_default(),
                        route: model.route_text(&c.route),
                        node,
                    }
                    .into(),
                );
            }
            Err(why) => d.notes.push(Note::BgpPeerUnreachable { peer: *peer, why }.into()),
        }
    }
}
