//! Each lower device's ipvlan port as a model keeps it: the `dev_id` an
//! ipvlan takes when it is registered here, freed when it goes (see
//! `ipvlan_port` for the kernel's rule and what the capture can tell).
//!
//! Contract: keeps `Model::ipvlan_ports` and `DeviceState::dev_id`; reads
//! links only.

use super::ipvlan_port::IpvlanPort;
use super::state::Model;

fn is_ipvlan(kind: Option<&[u8]>) -> bool {
    matches!(kind, Some(b"ipvlan" | b"ipvtap"))
}

impl Model {
    /// The ipvlan `index`, stacked on `lower`, was registered here: it
    /// takes an id from the lower's port (made now if it had no ipvlan).
    pub(super) fn ipvlan_registered(&mut self, index: u32) {
        let Some(l) = self.link(index) else { return };
        if !is_ipvlan(l.kind.as_ref().map(|k| k.as_bytes())) {
            return;
        }
        let Some(lower) = l.link.filter(|_| !l.link_elsewhere) else {
            return;
        };
        let others = self
            .links()
            .iter()
            .any(|x| x.index != index && x.link == Some(lower) && is_ipvlan(x.kind.as_ref().map(|k| k.as_bytes())));
        let lower_known = self.state(lower).created_here || self.links_complete();
        let port = self.ipvlan_ports.entry(lower).or_insert_with(|| {
            if !others && lower_known {
                IpvlanPort::fresh()
            } else {
                IpvlanPort::unknown()
            }
        });
        let id = if port.known { port.allocate(index) } else { None };
        self.state_mut(index).dev_id = id;
    }

    /// An ipvlan on `lower` was made in another namespace: the port's ids
    /// are unknown from now on (its deletion there is silent).
    pub(super) fn ipvlan_made_elsewhere(&mut self, lower: u32) {
        self.ipvlan_ports.insert(lower, IpvlanPort::unknown());
    }

    /// The ipvlan `index` is gone from this namespace: its id is free, and
    /// the port with it when it was the last one.
    pub(super) fn ipvlan_gone(&mut self, index: u32, lower: Option<u32>) {
        let Some(lower) = lower else { return };
        let Some(port) = self.ipvlan_ports.get_mut(&lower) else {
            return;
        };
        port.used.retain(|&(_, i)| i != index);
        if port.known && port.used.is_empty() {
            self.ipvlan_ports.remove(&lower);
        }
    }

    /// A lower device is gone: its port with it.
    pub(super) fn ipvlan_lower_gone(&mut self, lower: u32) {
        self.ipvlan_ports.remove(&lower);
    }

    /// The `dev_id` addrconf puts in the device's EUI-64 interface id:
    /// 0 for a device that is no ipvlan, `None` for an ipvlan whose id the
    /// capture cannot tell.
    pub(super) fn ipvlan_dev_id(&self, index: u32) -> Option<u16> {
        let l = self.link(index)?;
        if !is_ipvlan(l.kind.as_ref().map(|k| k.as_bytes())) {
            return Some(0);
        }
        self.state(index).dev_id
    }
}
