//! Routes made from the addresses, for a capture that showed no routes.
//!
//! Contract: [`Model::with_inferred_routes`] is pure and leaves the model
//! it is given alone. It returns a new model (the same options and kernel
//! build, otherwise as [`Model::from_tables`] makes it) with the same links and addresses, in
//! the same order, and as its only routes a local route for each address
//! and a prefix route for each primary IPv4 and each IPv6 address, marked
//! `Origin::Inferred(0)`. This is a rough form of
//! `fib_add_ifaddr` and addrconf: device state, DAD, `noprefixroute`,
//! broadcast, multicast and link-local routes and metrics are not
//! modelled, and /32 and /128 addresses get a prefix route too
//! (`address_rules` has the kernel's own rules, for captured changes).

use std::net::IpAddr;

use super::address_rules::kernel_route;
use super::entries::{AddrEntry, Origin, RouteEntry};
use super::kernel_order::same_ipv4_subnet;
use super::state::Model;
use crate::netlink::values::{AddressFamily, RouteType, Scope, TableId};

impl Model {
    /// The model's links and addresses with routes made from the
    /// addresses, for every device in link order: for each IPv4
    /// address a local /32 route (table local, prefsrc the primary address
    /// of its subnet on the device, else itself) and, for a primary, its
    /// prefix route (table main, scope link, prefsrc the address); for each
    /// IPv6 address a local /128 route and its prefix route, without
    /// prefsrc. Addresses with an impossible prefix length get no prefix
    /// route. The model's own routes are not carried over.
    pub fn with_inferred_routes(&self) -> Model {
        let mut routes = Vec::new();
        let mut addrs: Vec<AddrEntry> = Vec::new();
        for l in self.links() {
            for fam in [AddressFamily::Inet, AddressFamily::Inet6] {
                let list = self.device_addresses(l.index, fam);
                for a in list {
                    addrs.push(a.clone());
                    // IPv4's routes name a preferred source (the local
                    // route its subnet's primary address, the prefix route
                    // the address itself); IPv6's name none.
                    let v4 = fam == AddressFamily::Inet;
                    let (host_len, local_src, prefix_src) = if v4 {
                        let primary = list
                            .iter()
                            .find(|p| !p.is_secondary() && same_ipv4_subnet(p, a))
                            .map_or(a.address, |p| p.address);
                        (32, Some(primary), Some(a.address))
                    } else {
                        (128, None, None)
                    };
                    let local = kernel_route(fam, TableId::Local, RouteType::Local, a.address, host_len, l.index);
                    routes.push(inferred(local, local_src));
                    // (a secondary IPv4 address adds no prefix route)
                    if !(v4 && a.is_secondary())
                        && let Ok(net) = ipnet::IpNet::new(a.address, a.prefix_len)
                    {
                        let dst = net.trunc().addr();
                        let prefix = kernel_route(fam, TableId::Main, RouteType::Unicast, dst, a.prefix_len, l.index);
                        routes.push(inferred(prefix, prefix_src));
                    }
                }
            }
        }
        let mut m = Model::from_tables(self.links().to_vec(), addrs, routes);
        // (what the user said of the host, and the build the capture names,
        // still hold: source selection reads them)
        m.options = self.options;
        m.kernel_build = self.kernel_build;
        m
    }
}

/// `route`, one of the kernel's own, with the scope it gets (host for a
/// local route, link for the rest) and `prefsrc`, marked inferred.
fn inferred(route: RouteEntry, prefsrc: Option<IpAddr>) -> RouteEntry {
    RouteEntry {
        scope: if route.kind == RouteType::Local {
            Scope::Host
        } else {
            Scope::Link
        },
        prefsrc,
        origin: Origin::Inferred(0),
        ..route
    }
}
