//! `nlorder table --format ip-json`: the rebuilt tables as iproute2's
//! `ip -j link show`, `ip -j addr show`, `ip -j route show table all` and
//! `ip -j rule show` print them (iproute2 6.1: `print_linkinfo`, `print_addrinfo` and
//! `print_route`, with the names of a stock `/etc/iproute2`).
//!
//! Contract: formatting only, from a [`Model`] snapshot, in the model's
//! (the kernel's) order: links in dump order; per link its IPv4 then its
//! IPv6 addresses; all IPv4 routes, then all IPv6 ones (an AF_UNSPEC route
//! dump). Keys, nesting and spellings are iproute2's, keys in its order.
//! What no capture can carry is left out: interface statistics, `xdp`
//! (iproute2 asks the bpf syscall), SR-IOV `vfinfo_list`, `proto_down_reason`,
//! a route's `expires` (it counts down) and lightweight-tunnel `encap`.
//! Address lifetimes are those of the last message that carried them
//! (`ip` shows them counted down); the addresses the kernel makes itself
//! are permanent. A value the capture never showed (a link made by a
//! request that no reply or notification described) is left out, not
//! guessed.

use std::io::{self, Write};
use std::net::IpAddr;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq};

use crate::model::{AddrEntry, LinkEntry, Model, RouteEntry};
use crate::netlink::names::{
    ARPHRD_IP6GRE, ARPHRD_IPGRE, ARPHRD_SIT, ARPHRD_TUNNEL, ARPHRD_TUNNEL6, IFA_F_DEPRECATED, IFA_F_PERMANENT,
    IFA_F_SECONDARY, IFF_POINTOPOINT, IFF_UP,
};
use crate::netlink::values::{AddressFamily, RouteProtocol, RouteType, Scope, TableId};
use crate::replay::Family;

/// One of the tables `ip` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IpObject {
    /// `ip -j link show`.
    Link,
    /// `ip -j addr show`.
    Addr,
    /// `ip -j route show table all`.
    Route,
    /// `ip -j rule show` (`-4`, `-6`; both families: IPv4's rules, then
    /// IPv6's).
    Rule,
}

impl IpObject {
    /// Its key in the object printed for several tables.
    fn key(self) -> &'static str {
        match self {
            IpObject::Link => "link",
            IpObject::Addr => "addr",
            IpObject::Route => "route",
            IpObject::Rule => "rule",
        }
    }
}

/// A JSON value whose objects keep their keys in the order `ip` prints them.
enum J {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Arr(Vec<J>),
    Obj(Obj),
}

/// An object, keys in insertion order.
#[derive(Default)]
struct Obj(Vec<(&'static str, J)>);

impl Obj {
    fn put(&mut self, key: &'static str, v: J) {
        self.0.push((key, v));
    }
    fn int(&mut self, key: &'static str, v: impl Into<i64>) {
        self.put(key, J::Int(v.into()));
    }
    fn str(&mut self, key: &'static str, v: impl Into<String>) {
        self.put(key, J::Str(v.into()));
    }
    fn yes(&mut self, key: &'static str) {
        self.put(key, J::Bool(true));
    }
    fn strs(&mut self, key: &'static str, v: Vec<String>) {
        self.put(key, J::Arr(v.into_iter().map(J::Str).collect()));
    }
}

impl Serialize for J {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            J::Null => s.serialize_unit(),
            J::Bool(b) => s.serialize_bool(*b),
            J::Int(i) => s.serialize_i64(*i),
            J::Str(v) => s.serialize_str(v),
            J::Arr(v) => {
                let mut seq = s.serialize_seq(Some(v.len()))?;
                for x in v {
                    seq.serialize_element(x)?;
                }
                seq.end()
            }
            J::Obj(o) => o.serialize(s),
        }
    }
}

impl Serialize for Obj {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// `ip_json`'s text of a name the kernel sends as bytes.
fn text(b: &[u8]) -> String {
    crate::netlink::names::escape_bytes(b)
}

/// `ll_type_n2a`: the link type of an ARPHRD_* number.
fn link_type(t: u16) -> String {
    crate::netlink::names::link_type_name(t)
}

/// `ll_addr_n2a`: a link-layer address as `ip` writes it (IPv4 and IPv6
/// tunnels' as addresses, others as colon-separated hex).
fn ll_addr(b: &[u8], dev_type: u16) -> String {
    if let Ok(v4) = <[u8; 4]>::try_from(b)
        && matches!(dev_type, ARPHRD_TUNNEL | ARPHRD_SIT | ARPHRD_IPGRE)
    {
        return IpAddr::from(v4).to_string();
    }
    if let Ok(v6) = <[u8; 16]>::try_from(b)
        && matches!(dev_type, ARPHRD_TUNNEL6 | ARPHRD_IP6GRE)
    {
        return IpAddr::from(v6).to_string();
    }
    b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(":")
}

/// `print_link_flags`: NO-CARRIER for a device up without carrier, the
/// IFF_* names in `ip`'s order, what is left in hex, and M-DOWN when the
/// lower device is down.
fn link_flags(flags: u32, m_down: bool) -> Vec<String> {
    const RUNNING: u32 = 0x40;
    let mut out = Vec::new();
    if flags & IFF_UP != 0 && flags & RUNNING == 0 {
        out.push("NO-CARRIER".to_owned());
    }
    let mut left = flags & !RUNNING;
    for (bit, name) in crate::netlink::names::IFF_NAMES {
        if left & bit != 0 {
            left &= !bit;
            out.push(name.to_owned());
        }
    }
    if left != 0 {
        out.push(format!("{left:x}"));
    }
    if m_down {
        out.push("M-DOWN".to_owned());
    }
    out
}

/// The fields of `print_linkinfo` (`ip link show` when `link`, the part
/// of `ip addr show` before `addr_info` otherwise).
fn link_object(l: &LinkEntry, model: &Model, link: bool) -> Obj {
    let show = l.show.as_deref();
    let mut o = Obj::default();
    o.int("ifindex", l.index);
    let mut m_down = false;
    match l.lower() {
        Some(0) => o.put("link", J::Null),
        Some(i) if l.link_elsewhere => o.int("link_index", i),
        Some(i) => {
            o.str("link", model.ifname(i));
            m_down = model.link(i).is_none_or(|x| x.flags & IFF_UP == 0);
        }
        None => {}
    }
    o.str("ifname", l.display_name());
    o.strs("flags", link_flags(l.flags, m_down));
    if let Some(m) = l.mtu {
        o.int("mtu", m);
    }
    if let Some(q) = show.and_then(|s| s.qdisc) {
        o.str("qdisc", q.display());
    }
    if let Some(m) = l.master {
        o.str("master", model.ifname(m));
    }
    match l.operstate {
        Some(s) if s < 7 => o.str("operstate", crate::netlink::names::operstate(s)),
        Some(s) => o.int("operstate_index", s),
        None => {}
    }
    if link {
        match show.and_then(|s| s.linkmode) {
            Some(0) => o.str("linkmode", "DEFAULT"),
            Some(1) => o.str("linkmode", "DORMANT"),
            Some(m) => o.int("linkmode_index", m),
            None => {}
        }
    }
    match show.and_then(|s| s.group) {
        Some(0) => o.str("group", "default"),
        Some(g) => o.str("group", (g as i32).to_string()),
        None => {}
    }
    if let Some(q) = show.and_then(|s| s.txqlen).filter(|q| *q != 0) {
        o.int("txqlen", q as i32);
    }
    if !l.placeholder {
        o.str("link_type", link_type(l.dev_type));
    }
    let hw = l.hwaddr.filter(|h| !h.as_bytes().is_empty());
    if let Some(h) = hw {
        o.str("address", ll_addr(h.as_bytes(), l.dev_type));
    }
    if let Some(b) = show.and_then(|s| s.broadcast).filter(|b| !b.as_bytes().is_empty()) {
        if l.flags & IFF_POINTOPOINT != 0 {
            o.yes("link_pointtopoint");
        }
        o.str("broadcast", ll_addr(b.as_bytes(), l.dev_type));
    }
    if let Some(p) = show.and_then(|s| s.perm_address)
        && !p.as_bytes().is_empty()
        && hw.is_none_or(|h| h.as_bytes() != p.as_bytes())
    {
        o.str("permaddr", ll_addr(p.as_bytes(), l.dev_type));
    }
    if let Some(id) = show.and_then(|s| s.link_netnsid) {
        o.int("link_netnsid", id);
    }
    if show.is_some_and(|s| s.proto_down) {
        o.yes("proto_down");
    }
    if link && let Some(a) = show.and_then(|s| s.ifalias.as_deref()) {
        o.str("ifalias", text(a));
    }
    if let Some(names) = show.and_then(|s| s.altnames.as_deref()) {
        o.strs("altnames", names.iter().map(|n| text(n)).collect());
    }
    o
}

/// `print_addrinfo`: one entry of `addr_info`.
fn addr_object(a: &AddrEntry) -> Obj {
    let mut o = Obj::default();
    // (an address is always inet or inet6)
    o.str("family", a.family.name());
    o.str("local", ntop(a.address));
    if let Some(p) = a.peer.filter(|p| *p != a.address) {
        o.str("address", p.to_string());
    }
    o.int("prefixlen", a.prefix_len);
    // (the kernel sends IFA_RT_PRIORITY only when it is not 0)
    if let Some(m) = a.rt_priority.filter(|m| *m != 0) {
        o.int("metric", m);
    }
    if let Some(b) = a.broadcast {
        o.str("broadcast", b.to_string());
    }
    o.str("scope", a.scope.name());
    // print_ifa_flags: its table's order; IFA_F_SECONDARY is "temporary" for IPv6.
    const FLAGS: [(u32, &str); 11] = [
        (0x02, "nodad"),
        (0x04, "optimistic"),
        (0x08, "dadfailed"),
        (0x10, "home"),
        (0x20, "deprecated"),
        (0x40, "tentative"),
        (IFA_F_PERMANENT, ""),
        (0x100, "mngtmpaddr"),
        (0x200, "noprefixroute"),
        (0x400, "autojoin"),
        (0x800, "stable-privacy"),
    ];
    let mut left = a.flags;
    if left & IFA_F_SECONDARY != 0 {
        o.yes(if a.family == AddressFamily::Inet6 {
            "temporary"
        } else {
            "secondary"
        });
    }
    left &= !IFA_F_SECONDARY;
    for (bit, name) in FLAGS {
        if bit == IFA_F_PERMANENT {
            if left & bit == 0 {
                o.yes("dynamic");
            }
        } else if left & bit != 0 {
            o.yes(name);
        }
        left &= !bit;
    }
    if left != 0 {
        o.str("ifa_flags", format!("{left:02x}"));
    }
    if let Some(l) = a.label {
        o.str("label", l.display());
    }
    // The addresses the kernel makes itself (and requests without
    // lifetimes) live forever.
    let (valid, preferred) = a.cacheinfo.map_or((u32::MAX, u32::MAX), |c| (c.valid, c.preferred));
    o.int("valid_life_time", valid);
    if preferred != u32::MAX && a.flags & IFA_F_DEPRECATED != 0 {
        o.int("preferred_life_time", preferred as i32);
    } else {
        o.int("preferred_life_time", preferred);
    }
    o
}

/// `rtnl_dsfield_n2a` with a stock `/etc/iproute2/rt_dsfield`.
fn dsfield(tos: u8) -> String {
    let name = match tos {
        0x00 => "default",
        0x20 => "CS1",
        0x28 => "AF11",
        0x30 => "AF12",
        0x38 => "AF13",
        0x40 => "CS2",
        0x48 => "AF21",
        0x50 => "AF22",
        0x58 => "AF23",
        0x60 => "CS3",
        0x68 => "AF31",
        0x70 => "AF32",
        0x78 => "AF33",
        0x80 => "CS4",
        0x88 => "AF41",
        0x90 => "AF42",
        0x98 => "AF43",
        0xa0 => "CS5",
        0xb8 => "EF",
        0xc0 => "CS6",
        0xe0 => "CS7",
        other => return format!("0x{other:02x}"),
    };
    name.into()
}

/// `print_rt_flags`: RTNH_F_* and RTM_F_* names in `ip`'s order.
fn route_flags(flags: u32) -> J {
    J::Arr(
        crate::netlink::names::ROUTE_FLAG_NAMES
            .iter()
            .filter(|(bit, _)| flags & bit != 0)
            .map(|(_, n)| J::Str((*n).to_owned()))
            .collect(),
    )
}

/// `print_rta_flow`: realms, numbered (no `/etc/iproute2/rt_realms` names
/// past `unknown` for 0).
fn flow(o: &mut Obj, realms: u32) {
    let n = |r: u32| if r == 0 { "unknown".to_owned() } else { r.to_string() };
    let mut f = Obj::default();
    let (from, to) = (realms >> 16, realms & 0xffff);
    if from != 0 {
        f.str("from", n(from));
    }
    f.str("to", n(to));
    o.put("flow", J::Obj(f));
}

/// An address as glibc's `inet_ntop` writes it: an IPv6 address whose
/// first 96 bits are zero and whose next 16 are not is IPv4-compatible,
/// `::10.19.0.1` (Rust writes `::a13:1`).
fn ntop(a: IpAddr) -> String {
    if let IpAddr::V6(v6) = a {
        let w = v6.segments();
        if w[..6] == [0; 6] && w[6] != 0 {
            let o = v6.octets();
            return format!("::{}.{}.{}.{}", o[12], o[13], o[14], o[15]);
        }
    }
    a.to_string()
}

/// A prefix as `print_route` writes it: the address alone when it is a
/// host's, `default` for length 0 without one.
fn prefix(addr: Option<IpAddr>, len: u8, host_len: u8) -> String {
    match addr {
        Some(a) if len == host_len => ntop(a),
        Some(a) => format!("{}/{len}", ntop(a)),
        None if len != 0 => format!("0/{len} "),
        None => "default".into(),
    }
}

/// `print_rta_metrics`.
fn metrics(values: &[(u16, u32)], lock: u32, congctl: Option<&[u8]>) -> J {
    let mut o = Obj::default();
    for i in 2u16..=17 {
        let value = values.iter().find(|(k, _)| *k == i).map(|(_, v)| *v);
        let present = value.is_some() || (i == 16 && congctl.is_some());
        if !present && lock & (1 << i) == 0 {
            continue;
        }
        let val = value.unwrap_or(0);
        if i == 10 && val as i32 == -1 {
            continue;
        }
        let Some(name) = crate::netlink::names::RTAX_NAMES.get(usize::from(i)).copied() else {
            continue;
        };
        match i {
            12 => {
                if val & 1 != 0 {
                    o.put("ecn", J::Null);
                }
                if val & !1 != 0 {
                    o.str("features", format!("{val:#x}"));
                }
            }
            4 => o.int(name, val / 8),
            5 => o.int(name, val / 4),
            16 => o.str("congestion", congctl.map(text).unwrap_or_default()),
            _ => o.int(name, val),
        }
    }
    J::Arr(vec![J::Obj(o)])
}

/// `print_route`: one route of `ip route show table all`.
fn route_object(r: &RouteEntry, model: &Model) -> Obj {
    let mut o = Obj::default();
    let host_len = if r.family == AddressFamily::Inet6 { 128 } else { 32 };
    let extra = r.extra.as_deref();
    if r.kind != RouteType::Unicast {
        o.str("type", r.kind.ip_name());
    }
    o.str("dst", prefix(r.dst, r.dst_len, host_len));
    if let Some(e) = extra {
        match e.src {
            Some(_) => o.str("from", prefix(e.src, e.src_len, host_len)),
            None if e.src_len != 0 => o.str("src", format!("0/{}", e.src_len)),
            None => {}
        }
        if let Some(id) = e.nhid {
            o.int("nhid", id);
        }
    }
    if r.tos != 0 {
        o.str("tos", dsfield(r.tos));
    }
    if let Some(g) = r.gateway {
        o.str("gateway", g.to_string());
    }
    if let Some(i) = r.oif {
        o.str("dev", model.ifname(i));
    }
    if r.table != TableId::Unspec && r.table != TableId::Main {
        o.str("table", r.table.name());
    }
    if r.protocol != RouteProtocol::Boot {
        o.str("protocol", r.protocol.name());
    }
    if r.scope != Scope::Universe {
        o.str("scope", r.scope.name());
    }
    if let Some(p) = r.prefsrc {
        o.str("prefsrc", p.to_string());
    }
    // The kernel sends an IPv4 route's metric only when it is not 0, an
    // IPv6 route's always.
    match (r.family, r.priority) {
        (AddressFamily::Inet6, p) => o.int("metric", p.unwrap_or(0)),
        (_, Some(p)) if p != 0 => o.int("metric", p),
        _ => {}
    }
    o.put("flags", route_flags(model.route_flags(r)));
    if let Some(e) = extra {
        if let Some(f) = e.flow {
            flow(&mut o, f);
        }
        if let Some(m) = e.metrics.as_deref() {
            o.put("metrics", metrics(m, e.metrics_lock, e.congctl.as_deref()));
        }
        if let Some(i) = e.iif {
            o.str("iif", model.ifname(i));
        }
    }
    if r.family == AddressFamily::Inet6 {
        // Every IPv6 route carries RTA_PREF; medium unless set.
        match r.pref.unwrap_or(0) {
            0 => o.str("pref", "medium"),
            1 => o.str("pref", "high"),
            3 => o.str("pref", "low"),
            p => o.int("pref", p),
        }
    }
    if let Some(e) = extra.filter(|_| r.multipath) {
        let hops = e
            .next_hops
            .iter()
            .map(|h| {
                let mut n = Obj::default();
                if let Some(g) = h.gateway {
                    n.str("gateway", g.to_string());
                }
                if let Some(f) = h.flow {
                    flow(&mut n, f);
                }
                n.str("dev", model.ifname(h.ifindex));
                n.int("weight", i64::from(h.hops) + 1);
                n.put("flags", route_flags(u32::from(h.flags)));
                J::Obj(n)
            })
            .collect();
        o.put("nexthops", J::Arr(hops));
    }
    o
}

/// `ip -j link show`: each link to `each`.
fn links(model: &Model, each: &mut dyn FnMut(J) -> io::Result<()>) -> io::Result<()> {
    for l in model.links() {
        each(J::Obj(link_object(l, model, true)))?;
    }
    Ok(())
}

/// `ip -j [-4|-6] addr show`: every link (with `family`, those holding an
/// address of it), each with its `addr_info`, to `each`.
fn addrs(model: &Model, family: Option<AddressFamily>, each: &mut dyn FnMut(J) -> io::Result<()>) -> io::Result<()> {
    for l in model.links() {
        let list: Vec<&AddrEntry> = [AddressFamily::Inet, AddressFamily::Inet6]
            .into_iter()
            .filter(|f| family.is_none_or(|x| x == *f))
            .flat_map(|f| model.device_addresses(l.index, f))
            .collect();
        if family.is_some() && list.is_empty() {
            continue;
        }
        let mut o = link_object(l, model, false);
        o.put(
            "addr_info",
            J::Arr(list.into_iter().map(|a| J::Obj(addr_object(a))).collect()),
        );
        each(J::Obj(o))?;
    }
    Ok(())
}

/// `ip -j [-4|-6] route show table all`: each route to `each`.
fn routes(model: &Model, family: Option<AddressFamily>, each: &mut dyn FnMut(J) -> io::Result<()>) -> io::Result<()> {
    for r in model
        .route_table()
        .iter()
        .filter(|r| family.is_none_or(|f| f == r.family))
    {
        each(J::Obj(route_object(r, model)))?;
    }
    Ok(())
}

/// What `nlorder table --format ip-json` prints: the tables asked for, of
/// the family asked for (both when `None`).
pub(crate) struct IpTables<'a> {
    pub model: &'a Model,
    pub objects: &'a [IpObject],
    pub family: Option<Family>,
}

/// One table: the array `ip -j` prints. Several: an object with one such
/// array per table, under `link`, `addr` and `route`. One line, as `ip -j`
/// prints it. Written object by object (compact JSON, so the commas and
/// brackets written here are all the array adds): a million routes are
/// never held as JSON values at once.
pub(crate) fn write(out: &mut dyn Write, t: &IpTables<'_>) -> io::Result<()> {
    let family = t.family.map(|f| match f {
        Family::V4 => AddressFamily::Inet,
        Family::V6 => AddressFamily::Inet6,
    });
    let table = |out: &mut dyn Write, o: IpObject| -> io::Result<()> {
        out.write_all(b"[")?;
        let mut first = true;
        // Each object made whole here, then written: serde_json writes in
        // small pieces, each a call through `dyn Write` otherwise.
        let mut one = Vec::new();
        let mut each = |j: J| -> io::Result<()> {
            one.clear();
            if !std::mem::take(&mut first) {
                one.push(b',');
            }
            serde_json::to_writer(&mut one, &j).map_err(io::Error::from)?;
            out.write_all(&one)
        };
        match o {
            IpObject::Link => links(t.model, &mut each)?,
            IpObject::Addr => addrs(t.model, family, &mut each)?,
            IpObject::Route => routes(t.model, family, &mut each)?,
            IpObject::Rule => {
                for f in [AddressFamily::Inet, AddressFamily::Inet6] {
                    if family.is_some_and(|x| x != f) {
                        continue;
                    }
                    for r in t.model.rule_table().rules(f) {
                        one.clear();
                        if !std::mem::take(&mut first) {
                            one.push(b',');
                        }
                        serde_json::to_writer(&mut one, &crate::report::rule::rule_object(r))
                            .map_err(io::Error::from)?;
                        out.write_all(&one)?;
                    }
                }
            }
        }
        out.write_all(b"]")
    };
    match t.objects {
        [one] => table(out, *one)?,
        many => {
            out.write_all(b"{")?;
            for (i, x) in many.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                serde_json::to_writer(&mut *out, x.key()).map_err(io::Error::from)?;
                out.write_all(b":")?;
                table(out, *x)?;
            }
            out.write_all(b"}")?;
        }
    }
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_follow_ip() {
        // UP without RUNNING is NO-CARRIER; unknown bits in hex; M-DOWN last.
        assert_eq!(
            link_flags(0x1 | 0x2 | 0x1000 | 0x8000_0000, true),
            ["NO-CARRIER", "BROADCAST", "MULTICAST", "UP", "80000000", "M-DOWN"]
        );
        assert_eq!(
            link_flags(0x1 | 0x8 | 0x40 | 0x10000, false),
            ["LOOPBACK", "UP", "LOWER_UP"]
        );
    }

    /// As `ip -j` printed sit0's in `tunnels-ipv6` (6.1, 6.12).
    #[test]
    fn ipv4_compatible_addresses_as_glibc_writes_them() {
        let p = |s: &str| s.parse::<IpAddr>().unwrap_or(IpAddr::from([0, 0, 0, 0]));
        assert_eq!(ntop(p("::a13:1")), "::10.19.0.1");
        assert_eq!(ntop(p("::7f00:1")), "::127.0.0.1");
        assert_eq!(ntop(p("::1")), "::1");
        assert_eq!(ntop(p("::")), "::");
        assert_eq!(ntop(p("fe80::a13:1")), "fe80::a13:1");
        assert_eq!(prefix(Some(p("::")), 96, 128), "::/96");
    }

    #[test]
    fn link_addresses_and_prefixes() {
        assert_eq!(ll_addr(&[0x02, 0, 0x5e, 0x10, 0, 1], 1), "02:00:5e:10:00:01");
        assert_eq!(ll_addr(&[10, 0, 0, 1], ARPHRD_TUNNEL), "10.0.0.1");
        assert_eq!(ll_addr(&[10, 0, 0, 1], 1), "0a:00:00:01");
        assert_eq!(link_type(787 + 3), "fcfb3");
        assert_eq!(link_type(0xfffe), "none");
        assert_eq!(link_type(12345), "[12345]");
        let v4 = Some(IpAddr::from([10, 0, 0, 0]));
        assert_eq!(prefix(v4, 8, 32), "10.0.0.0/8");
        assert_eq!(prefix(v4, 32, 32), "10.0.0.0");
        assert_eq!(prefix(None, 0, 32), "default");
        assert_eq!(dsfield(0xb8), "EF");
        assert_eq!(dsfield(0x04), "0x04");
    }
}
