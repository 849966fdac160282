//! Cilium's NodePort and masquerade addresses (1.15 and later): cilium
//! `pkg/datapath/linux/devices_controller.go` (`isSelectedDevice`,
//! `hasGlobalRoute`), `pkg/datapath/tables/node_address.go`
//! (`getAddressesFromDevice`, `SortedAddresses`,
//! `shouldUseDeviceForNodeAddress`, `fallbackAddresses`).
//!
//! Contract: a pure function of the model, the device filter and the
//! release. Semantics: a device is selected when it is up, named, has an
//! address, and is named by `--cilium-device` (names, or prefixes written
//! `eth+`); without a filter, when it is no bond slave, port or loopback,
//! its name does not start with `cilium_`, `lo`, `lxc`, `cni` or `docker`,
//! it is no bridge or Open vSwitch device, a veth only with a main-table
//! default route on it, and some route of any table on it has a global
//! unicast destination. Each usable device's addresses, sorted primary
//! before secondary, lower scope first, (from 1.16) public before private,
//! then by address, without those of a scope above link or loopback ones,
//! give the NodePort and primary (masquerade) addresses: 1.15, the first
//! address of each family for both; from 1.16, the NodePort address is
//! the first private one, else the first public one, and the primary the
//! first public one, else the first private one (a public secondary
//! before a private primary). Later releases also use `lo` (1.16), dummy
//! devices, even down (1.17), and host-scope local routes without a
//! source (1.18). NodePort: every NodePort address of the family, by
//! address; masquerade: per selected device, its primary address, else
//! the best non-secondary address of any device (the fallback; from 1.16
//! selected devices first).
//! Left out: `--nodeport-addresses`, the Kubernetes node IP, the kernel
//! probe for L3 devices (taken as supported).
//!
//! The releases, from the upstream history (`node_address.go` read at
//! commit f3e6eb533b00, where `SortedAddresses` sorts secondary, scope,
//! public, address and the primary is public-first, and in its pull
//! requests): the public key of the sort, the private-first NodePort and
//! the public-first primary came with cilium/cilium#30579 ("tables: Sort
//! node addresses also by public vs private IP", merged 2024-02-12, after
//! v1.15.0 of 2024-01-31, which its sort by primary, scope and address
//! alone and one address of each family for both roles shipped in): first
//! in v1.16.0. Dummy devices: #34228, in the v1.17.0 notes. Host-scope
//! local routes (`shouldUseDeviceForNodeAddress`): #40095, merged mid-2025,
//! taken as v1.18.0. Whether a 1.15 or 1.16 patch release took any of them
//! could not be read here: `1.15` replays v1.15.0.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;

use super::calico::version::Version;
use super::chooser::{Chooser, Context, OptionsError};
use super::cilium::is_public;
use super::failure;
use super::family::Family;
use super::reason;
use super::verdict::{AddrVerdict, Candidate, Detection, NodeAddress, Verdict};
use crate::model::{LinkEntry, Model};
use crate::netlink::names::{IFA_F_DADFAILED, IFA_F_SECONDARY, IFA_F_TENTATIVE, IFF_LOOPBACK, IFF_UP};
use crate::netlink::values::{AddressFamily, Scope, TableId};

/// Cilium's node addresses of one role: its NodePort addresses
/// (`MASQUERADE` false) or its masquerade addresses (true). The two share
/// the device selection and the sort; they differ in the program they are
/// and in which address of the sort they take.
pub struct Addresses<const MASQUERADE: bool>;

/// Cilium's NodePort addresses in the registry.
pub type CiliumNodePort = Addresses<false>;

/// Cilium's masquerade addresses in the registry.
pub type CiliumMasquerade = Addresses<true>;

/// The options of `role` from Cilium's settings.
fn role_options(cx: &Context<'_>, role: Role) -> Options {
    let c = cx.settings::<super::cilium::Cilium>();
    Options {
        devices: c
            .cilium_device
            .iter()
            .flat_map(|d| d.split(','))
            .map(str::to_owned)
            .collect(),
        version: c.cilium_version,
        family: cx.family(),
        role,
    }
}

/// What `--all` runs for `role` in `family`: no devices, the latest release.
fn role_defaults(role: Role, family: Family) -> Vec<Options> {
    vec![Options {
        devices: Vec::new(),
        version: super::cilium::LATEST,
        family,
        role,
    }]
}

impl<const MASQUERADE: bool> Addresses<MASQUERADE> {
    /// Its role.
    const ROLE: Role = if MASQUERADE { Role::Masquerade } else { Role::NodePort };
}

impl<const MASQUERADE: bool> Chooser for Addresses<MASQUERADE> {
    const PROGRAM: super::program::Program = super::program::Program::named(if MASQUERADE {
        "cilium-masquerade"
    } else {
        "cilium-nodeport"
    });
    const DOC: &'static str = if MASQUERADE {
        "Cilium's masquerade addresses"
    } else {
        "Cilium's NodePort addresses"
    };
    type Settings = super::chooser::NoSettings;
    const OPTIONS: &'static [&'static str] = OPTIONS;
    type Options = Options;
    const PICKS_NODE_IP: bool = false;

    fn options(cx: &Context<'_>) -> Result<Options, OptionsError> {
        Ok(role_options(cx, Self::ROLE))
    }

    fn detect(model: &Model, o: &Options) -> Detection {
        detect(model, o)
    }

    fn walks_links(_: &Options) -> bool {
        true
    }

    /// The selected devices: their names and state, and the routes of
    /// either family that select them (a device is selected by a route
    /// with a global destination, and by an address, of any family).
    fn reads(_: &Options, family: Family) -> super::unshown::Reads {
        let mut r = super::unshown::Reads::walk(family).with_routes(&[Family::V4, Family::V6]);
        r.addresses = vec![Family::V4, Family::V6];
        r
    }

    fn all_in_family(_: &Model, _: Option<&Options>, family: Family) -> Vec<Options> {
        role_defaults(Self::ROLE, family)
    }
}

/// IFF_SLAVE: a bond's port.
const IFF_SLAVE: u32 = 0x800;
/// Name prefixes never selected without a filter.
const EXCLUDED_PREFIXES: &[&str] = &["cilium_", "lo", "lxc", "cni", "docker"];
const CILIUM_HOST: &str = "cilium_host";

/// Which address the replay reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The NodePort addresses.
    NodePort,
    /// The masquerade (primary) address per selected device.
    Masquerade,
}

/// The settings that decide Cilium's node addresses.
#[derive(Debug, Clone)]
pub struct Options {
    /// Its `devices` setting: names, or prefixes written `eth+`.
    pub devices: Vec<String>,
    /// The release replayed (1.15, or later).
    pub version: Version,
    /// IPv4 or IPv6.
    pub family: Family,
    /// NodePort or masquerade.
    pub role: Role,
}

struct Device<'m> {
    link: &'m LinkEntry,
    name: String,
    /// (ip, secondary, scope) in dump order (IPv4 first).
    addrs: Vec<(IpAddr, bool, Scope)>,
    selected: bool,
}

fn kind(l: &LinkEntry) -> &[u8] {
    l.kind.as_ref().map(|k| k.as_bytes()).unwrap_or(b"")
}

fn matches_filter(filter: &[String], name: &str) -> bool {
    filter.iter().any(|f| match f.strip_suffix('+') {
        Some(prefix) => name.starts_with(prefix.trim_end_matches('+')),
        None => name == f,
    })
}

/// What the routes say of one device (`isSelectedDevice`'s questions).
#[derive(Debug, Default, Clone, Copy)]
struct RouteFacts {
    /// A main-table route with a destination length of 0 goes out of it.
    main_default: bool,
    /// A route of any table with a global unicast destination goes out of it.
    global_dst: bool,
}

/// One pass over the routes: the facts per output device, and the
/// host-scope local routes without a source (destination, device), in
/// dump order.
fn route_facts(model: &Model) -> (HashMap<u32, RouteFacts>, Vec<(IpAddr, u32)>) {
    let mut facts: HashMap<u32, RouteFacts> = HashMap::new();
    let mut host_routes = Vec::new();
    for r in model.route_table().iter() {
        let Some(oif) = r.oif else { continue };
        let f = facts.entry(oif).or_default();
        f.main_default |= r.table == TableId::Main && r.dst_len == 0;
        let dst = r.dst.unwrap_or(if r.family == AddressFamily::Inet6 {
            IpAddr::from([0u16; 8])
        } else {
            IpAddr::from([0u8; 4])
        });
        f.global_dst |= super::go::is_global_unicast(dst);
        if let Some(dst) = r.dst
            && r.table == TableId::Local
            && r.scope == Scope::Host
            && r.prefsrc.is_none()
        {
            host_routes.push((dst, oif));
        }
    }
    (facts, host_routes)
}

fn is_selected(d: &Device, facts: Option<&RouteFacts>, filter: &[String]) -> bool {
    let l = d.link;
    if !l.has_name() || d.addrs.is_empty() || l.flags & IFF_UP == 0 {
        return false;
    }
    if !filter.is_empty() {
        return matches_filter(filter, &d.name);
    }
    if l.flags & (IFF_SLAVE | IFF_LOOPBACK) != 0 || l.master.is_some() {
        return false;
    }
    if EXCLUDED_PREFIXES.iter().any(|p| d.name.starts_with(p)) {
        return false;
    }
    let facts = facts.copied().unwrap_or_default();
    match kind(l) {
        b"veth" if !facts.main_default => false,
        b"bridge" | b"openvswitch" => false,
        _ => facts.global_dst,
    }
}

/// Go's ordering of `net.IP`s of mixed lengths: IPv4 first.
fn ip_key(ip: IpAddr) -> (u8, Vec<u8>) {
    match ip {
        IpAddr::V4(v) => (4, v.octets().to_vec()),
        IpAddr::V6(v) => (16, v.octets().to_vec()),
    }
}

/// A node address as `getAddressesFromDevice` makes them.
struct NodeAddr {
    ip: IpAddr,
    device: String,
    index: u32,
    node_port: bool,
    primary: bool,
}

/// The node-address code after v1.15.0: `lo` usable, the public key of
/// the sort, the public-first primary, the selected-first fallback
/// (cilium/cilium#30579, v1.16.0).
fn newest(v: Version) -> bool {
    v >= Version(1, 16, 0)
}

/// Dummy devices usable, even down (cilium/cilium#34228, v1.17.0).
fn dummies(v: Version) -> bool {
    v >= Version(1, 17, 0)
}

/// Host-scope local routes without a source as node addresses
/// (cilium/cilium#40095, taken as v1.18.0).
fn routed(v: Version) -> bool {
    v >= Version(1, 18, 0)
}

fn usable(d: &Device, v: Version) -> bool {
    let up = d.link.flags & IFF_UP != 0;
    let dummy = dummies(v) && kind(d.link) == b"dummy";
    if newest(v) {
        (dummy || up) && (d.name == CILIUM_HOST || d.name == "lo" || d.selected || dummy)
    } else {
        up && (d.name == CILIUM_HOST || (d.selected && !EXCLUDED_PREFIXES.iter().any(|p| d.name.starts_with(p))))
    }
}

/// `SortedAddresses`: primary before secondary, lower scope first, (from
/// 1.16) public before private, then the address.
fn sorted(addrs: &[(IpAddr, bool, Scope)], v: Version) -> Vec<(IpAddr, bool, Scope)> {
    let public_first = newest(v);
    let mut a = addrs.to_vec();
    a.sort_by(|x, y| {
        let public = if public_first {
            is_public(y.0).cmp(&is_public(x.0))
        } else {
            std::cmp::Ordering::Equal
        };
        x.1.cmp(&y.1)
            .then(x.2.cmp(&y.2))
            .then(public)
            .then(ip_key(x.0).cmp(&ip_key(y.0)))
    });
    a
}

fn node_addresses(devs: &[Device], host_routes: &[(IpAddr, u32)], v: Version) -> Vec<NodeAddr> {
    let mut out: Vec<NodeAddr> = Vec::new();
    for d in devs.iter().filter(|d| usable(d, v)) {
        let mut addrs: Vec<NodeAddr> = Vec::new();
        for (ip, _, scope) in sorted(&d.addrs, v) {
            if (scope >= Scope::Link || ip.is_loopback()) && !(d.name == CILIUM_HOST && scope == Scope::Link) {
                continue;
            }
            addrs.push(NodeAddr {
                ip,
                device: d.name.clone(),
                index: d.link.index,
                node_port: false,
                primary: false,
            });
        }
        let node_port_ok = if newest(v) {
            d.name != CILIUM_HOST && d.link.flags & IFF_UP != 0
        } else {
            d.selected
        };
        for v6 in [false, true] {
            let first = |public: bool| {
                addrs
                    .iter()
                    .position(|a| a.ip.is_ipv6() == v6 && is_public(a.ip) == public)
            };
            let (private, public) = (first(false), first(true));
            // v1.15.0: the first address of the family for both
            let any = addrs.iter().position(|a| a.ip.is_ipv6() == v6);
            let node_port = if newest(v) { private.or(public) } else { any };
            if node_port_ok && let Some(a) = node_port.and_then(|i| addrs.get_mut(i)) {
                a.node_port = true;
            }
            let primary = if newest(v) { public.or(private) } else { any };
            if let Some(a) = primary.and_then(|i| addrs.get_mut(i)) {
                a.primary = true;
            }
        }
        out.extend(addrs);
    }
    if routed(v) {
        // Host-scope local routes without a source: addresses assigned by routing.
        let mut found: HashSet<IpAddr> = out.iter().map(|a| a.ip).collect();
        let by_index: HashMap<u32, &Device> = devs.iter().map(|d| (d.link.index, d)).collect();
        for &(dst, oif) in host_routes {
            if dst.is_unspecified() || dst.is_loopback() || found.contains(&dst) {
                continue;
            }
            if let Some(d) = by_index.get(&oif).filter(|d| usable(d, v)) {
                found.insert(dst);
                out.push(NodeAddr {
                    ip: dst,
                    device: d.name.clone(),
                    index: oif,
                    node_port: false,
                    primary: true,
                });
            }
        }
    }
    out
}

/// `fallbackAddresses`: the best non-secondary address of the family over
/// the devices fed (later releases: selected ones first), public first,
/// lower scope, lower ifindex, lower address.
fn fallback(devs: &[Device], fam: Family, v: Version) -> Option<IpAddr> {
    // (not selected, not public, scope, ifindex, address order, address)
    type Rank = (bool, bool, Scope, u32, (u8, Vec<u8>), IpAddr);
    let mut best: Option<Rank> = None;
    for d in devs {
        if newest(v) && !usable(d, v) {
            continue;
        }
        if d.name.starts_with("lxc") || d.name == CILIUM_HOST {
            continue;
        }
        for &(ip, secondary, scope) in &d.addrs {
            if secondary || Family::of(ip) != fam {
                continue;
            }
            let key = (
                !(newest(v) && d.selected),
                !is_public(ip),
                scope,
                d.link.index,
                ip_key(ip),
                ip,
            );
            if best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key);
            }
        }
    }
    best.map(|b| b.5)
}

/// The options NodePort and masquerade read: Cilium's.
pub const OPTIONS: &[&str] = <super::cilium::Cilium as Chooser>::OPTIONS;

/// Cilium's NodePort or masquerade addresses.
pub fn detect(model: &Model, o: &Options) -> Detection {
    let masquerade = o.role == Role::Masquerade;
    let method = if masquerade {
        CiliumMasquerade::PROGRAM
    } else {
        CiliumNodePort::PROGRAM
    };
    let mut d = Detection::new(method, note::Semantics { masquerade }.into(), o.family);
    let (facts, host_routes) = route_facts(model);
    let mut devs: Vec<Device> = model
        .links()
        .iter()
        .map(|l| Device {
            link: l,
            name: l.display_name(),
            // From 1.20 (PR 45868) the device table leaves out tentative
            // and dad-failed addresses.
            addrs: super::go::addrs(model, l.index, super::go::AddrView::Vishvananda)
                .iter()
                .filter(|a| o.version < Version(1, 20, 0) || a.entry.flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED) == 0)
                .map(|a| (a.ip, a.entry.flags & IFA_F_SECONDARY != 0, a.entry.scope))
                .collect(),
            selected: false,
        })
        .collect();
    for dev in &mut devs {
        dev.selected = is_selected(dev, facts.get(&dev.link.index), &o.devices);
    }
    devs.sort_by_key(|d| d.link.index);
    let addrs = node_addresses(&devs, &host_routes, o.version);
    let mut chosen: Vec<(IpAddr, String)> = Vec::new();
    // Devices that took the fallback, by the fallback's address.
    let mut fell_back: Vec<String> = Vec::new();
    let fb = masquerade.then(|| fallback(&devs, o.family, o.version)).flatten();
    if masquerade {
        for dev in devs.iter().filter(|dev| dev.selected) {
            let own = addrs
                .iter()
                .find(|a| a.index == dev.link.index && a.primary && Family::of(a.ip) == o.family)
                .map(|a| a.ip);
            if own.is_none()
                && let Some(ip) = fb
            {
                fell_back.push(dev.name.clone());
                let from = devs.iter().find(|x| x.addrs.iter().any(|a| a.0 == ip && !a.1));
                d.notes.push(
                    Note::MasqueradeFallback {
                        device: dev.name.clone(),
                        address: ip,
                        from: from.map_or_else(String::new, |x| x.name.clone()),
                        not_a_node_address: !addrs.iter().any(|a| a.ip == ip),
                    }
                    .into(),
                );
            }
            if let Some(ip) = own.or(fb) {
                chosen.push((ip, dev.name.clone()));
            }
        }
    } else {
        let mut np: Vec<&NodeAddr> = addrs
            .iter()
            .filter(|a| a.node_port && Family::of(a.ip) == o.family)
            .collect();
        np.sort_by(|a, b| to16(a.ip).cmp(&to16(b.ip)).then(a.device.cmp(&b.device)));
        chosen = np.iter().map(|a| (a.ip, a.device.clone())).collect();
    }
    for dev in &devs {
        if dev.addrs.is_empty() {
            continue;
        }
        let rows = dev
            .addrs
            .iter()
            .map(|&(ip, _, _)| {
                let row = addrs.iter().find(|a| a.index == dev.link.index && a.ip == ip);
                let picked = chosen.iter().any(|(c, n)| *c == ip && *n == dev.name);
                let fallback_here = !fell_back.is_empty() && fb == Some(ip) && !picked;
                let (verdict, reason) = match row {
                    _ if picked => (Verdict::Chosen, None),
                    None if fallback_here => (
                        Verdict::Filtered,
                        Some(Reason::CiliumFallbackFor(fell_back.clone()).into()),
                    ),
                    _ if !usable(dev, o.version) => (Verdict::NotIncluded, None),
                    None => (Verdict::Filtered, Some(Reason::CiliumNotNodeAddress.into())),
                    Some(_) if Family::of(ip) != o.family => (Verdict::OtherFamily, Some(reason::Reason::OtherFamily)),
                    Some(_) => (Verdict::NotReached, Some(reason::Reason::SortedAfter)),
                };
                AddrVerdict {
                    address: NodeAddress::Ip(ip),
                    verdict,
                    reason,
                }
            })
            .collect::<Vec<_>>();
        let used = chosen.iter().any(|(_, n)| *n == dev.name);
        d.candidates.push(Candidate {
            interface: dev.name.clone(),
            index: dev.link.index,
            verdict: if used {
                Verdict::Chosen
            } else if dev.selected {
                Verdict::NoAddress
            } else {
                Verdict::NotIncluded
            },
            reason: if dev.selected {
                Reason::CiliumSelected
            } else {
                Reason::CiliumNotSelected
            }
            .into(),
            addresses: rows,
        });
    }
    match chosen.first() {
        Some((ip, dev)) => {
            d.address = Some((*ip).into());
            d.interface = Some(dev.clone());
            d.addresses = chosen.iter().map(|(ip, _)| NodeAddress::Ip(*ip)).collect();
        }
        // Device selection reads the routes: with none shown, no device
        // could be selected, which says nothing of the host.
        None if !model.has_routes() => d.error = Some(failure::Failure::NoRoutesCaptured(d.program())),
        None => d.error = Some(Failure::NoNodeAddress.into()),
    }
    d
}

fn to16(ip: IpAddr) -> [u8; 16] {
    match ip {
        IpAddr::V4(v) => v.to_ipv6_mapped().octets(),
        IpAddr::V6(v) => v.octets(),
    }
}

pub mod note;
pub use self::note::{Failure, Note, Reason};
