//! flannel's external interface (`--iface`, `--iface-regex`,
//! `--iface-can-reach`, else the default-route interface): flannel
//! `main.go` (`LookupExtIface`) over `pkg/ip` (`GetInterfaceIP4Addrs`,
//! `GetInterfaceIP6Addrs`, `GetDefaultGatewayInterface`).
//!
//! Contract: a pure function of the model; interfaces walked *forward*;
//! a regex is tried against addresses first, then names. An interface's
//! address list: global unicast addresses before link-local ones, in dump
//! order (before v0.28.0); from v0.28.0 (commit 97b6771a) also permanent
//! before dynamic and non-temporary before temporary, deprecated ones
//! dropped. Semantics: detection-methods.md §5.

use std::net::IpAddr;

use super::calico::version::Version;
use super::chooser::{Chooser, Context, OptionsError};
use super::failure;
use super::go::regex::GoRegex;
use super::verdict::{AddrVerdict, Candidate, Detection, NodeAddress, Verdict};
use crate::model::{AddrEntry, Model};
use crate::netlink::names::{IFA_F_DEPRECATED, IFA_F_PERMANENT, IFA_F_TEMPORARY};
use crate::netlink::values::{AddressFamily, TableId};

/// flanneld in the registry.
pub struct Flannel;

impl Chooser for Flannel {
    const PROGRAM: super::program::Program = super::program::Program::named("flannel");
    const DOC: &'static str = "flannel's public IP";
    const NO_ROUTES: super::chooser::NoRoutes = super::chooser::NoRoutes::Own(&note::Failure::NoRoutes);
    type Settings = Settings;
    type Options = Options;

    fn options(cx: &Context<'_>) -> Result<Options, OptionsError> {
        let f = cx.settings::<Flannel>();
        Ok(Options {
            iface: f.iface,
            iface_regex: f.iface_regex,
            iface_can_reach: f.iface_can_reach,
            public_ip: f.public_ip,
            family: cx.family(),
            version: f.flannel_version,
            host: Host::Flanneld,
        })
    }

    fn detect(model: &Model, o: &Options) -> Detection {
        detect(model, o)
    }

    fn walks_links(o: &Options) -> bool {
        !o.iface_regex.is_empty()
    }

    /// The default route of its family without `--iface`, `--iface-regex`
    /// or `--public-ip`, and link names only where `--iface-regex` walks
    /// them.
    fn reads(o: &Options, family: super::family::Family) -> super::unshown::Reads {
        let r = super::unshown::Reads::walk(family);
        let r = if o.iface.is_empty() && o.iface_regex.is_empty() && o.public_ip.is_none() {
            r.with_routes(&[family])
        } else {
            r
        };
        if o.iface_regex.is_empty() {
            r.no_link_attributes()
        } else {
            r
        }
    }

    fn all_in_family(_: &Model, _: Option<&Options>, family: super::family::Family) -> Vec<Options> {
        vec![Options {
            family,
            ..Options::default()
        }]
    }
}

/// k3s's embedded flannel in the registry: flannel's default-route walk
/// (or `--flannel-iface`), in k3s's words.
pub struct K3sFlannel;

impl Chooser for K3sFlannel {
    const PROGRAM: super::program::Program = super::program::Program::named("k3s-flannel");
    const DOC: &'static str = "k3s's embedded flannel's public IP";
    type Settings = super::chooser::NoSettings;
    const OPTIONS: &'static [&'static str] = K3S_OPTIONS;
    type Options = Options;

    fn options(cx: &Context<'_>) -> Result<Options, OptionsError> {
        Ok(Options {
            iface: cx.settings::<super::k3s::K3s>().flannel_iface.into_iter().collect(),
            family: cx.family(),
            version: cx.settings::<Flannel>().flannel_version,
            ..Options::default()
        })
    }

    fn detect(model: &Model, o: &Options) -> Detection {
        detect_k3s(model, o)
    }

    /// As flannel's.
    fn reads(o: &Options, family: super::family::Family) -> super::unshown::Reads {
        <Flannel as Chooser>::reads(o, family)
    }

    /// As flannel's: its defaults, once per family.
    fn all_in_family(model: &Model, base: Option<&Options>, family: super::family::Family) -> Vec<Options> {
        <Flannel as Chooser>::all_in_family(model, base, family)
    }
}

/// flannel's flags that choose its interface and address.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--iface`: names or IPs, tried in order.
    pub iface: Vec<String>,
    /// `--iface-regex`: patterns tried in order, against addresses and
    /// then names.
    pub iface_regex: Vec<String>,
    /// `--iface-can-reach`: the interface of the route to this address.
    pub iface_can_reach: Option<IpAddr>,
    /// `--public-ip`: the address announced instead of the interface's.
    pub public_ip: Option<IpAddr>,
    /// 4 or 6.
    pub family: super::family::Family,
    /// The flannel release replayed (the address sort changed in v0.28.0).
    pub version: Version,
    /// Which program runs flannel's code: flanneld, or k3s's embedded
    /// copy (which words its failures its own way).
    pub host: Host,
}

/// Which program runs flannel's interface lookup.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Host {
    /// flanneld (`main.go`, `pkg/ipmatch`).
    #[default]
    Flanneld,
    /// k3s's agent (`pkg/agent/flannel/flannel.go`, `LookupExtInterface`).
    K3s,
}

/// pkg/ip's `GetDefaultGatewayInterface` (`GetDefaultV6GatewayInterface`)
/// failures, lower-cased from v0.28.0.
fn gateway_words(family: super::family::Family, lower: bool, found: bool) -> String {
    let v6 = if family == super::family::Family::V6 { " v6" } else { "" };
    let text = if found {
        format!("Found default{v6} route but could not determine interface")
    } else {
        format!("Unable to find default{v6} route")
    };
    if lower { lower_first(&text) } else { text }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The caller's wrapping of a default-gateway failure.
fn no_gateway(o: &Options, inner: String) -> String {
    match (o.host, o.family) {
        (Host::Flanneld, super::family::Family::V6) => format!("failed to get default v6 interface: {inner}"),
        _ => format!("failed to get default interface: {inner}"),
    }
}

/// The caller's words when the interface has no address of the family.
fn no_address(o: &Options, interface: &str) -> String {
    let v = o.family;
    match o.host {
        Host::Flanneld => format!("failed to find IPv{v} address for interface {interface}"),
        Host::K3s => {
            let inner = format!("No IPv{v} address found for given interface");
            let inner = if o.version >= SORTED_SINCE {
                lower_first(&inner)
            } else {
                inner
            };
            format!("failed to find IPv{v} address for interface {interface}: {inner}")
        }
    }
}

/// The newest flannel release whose behaviour is replayed here.
pub const LATEST: Version = Version(0, 28, 0);

program_options! {
    /// flanneld's settings as given.
    pub struct Settings {
        /// flannel --iface (name or IP), repeatable.
        #[cfg_attr(feature = "clap", arg(long))]
        iface: Vec<String> = Vec::new(),
        /// flannel --iface-regex, repeatable.
        #[cfg_attr(feature = "clap", arg(long))]
        iface_regex: Vec<String> = Vec::new(),
        /// flannel --iface-can-reach.
        #[cfg_attr(feature = "clap", arg(long))]
        iface_can_reach: Option<IpAddr> = None,
        /// flannel --public-ip.
        #[cfg_attr(feature = "clap", arg(long))]
        public_ip: Option<IpAddr> = None,
        /// flannel release whose address sort to replay (flannel, k3s-flannel): before 0.28.0 an
        /// interface's addresses are taken in dump order (global before link-local).
        #[cfg_attr(feature = "clap", arg(long, default_value = "0.28.0", value_name = "X.Y.Z"))]
        flannel_version: Version = LATEST,
    }
}

/// The options k3s's embedded flannel reads (k3s's `--flannel-iface`).
pub const K3S_OPTIONS: &[&str] = &["flannel_iface", "flannel_version"];

/// The release whose `GetInterfaceIP4Addrs` sorts and filters.
const SORTED_SINCE: Version = Version(0, 28, 0);

impl Default for Options {
    fn default() -> Self {
        Options {
            iface: Vec::new(),
            iface_regex: Vec::new(),
            iface_can_reach: None,
            public_ip: None,
            family: super::family::Family::V4,
            version: LATEST,
            host: Host::Flanneld,
        }
    }
}

/// `GetInterfaceIP4Addrs`/`IP6Addrs`: global before link-local; from
/// v0.28.0 sorted further and filtered.
pub(crate) fn sorted_addrs(model: &Model, index: u32, fam: AddressFamily, version: Version) -> Vec<&AddrEntry> {
    let sorted = version >= SORTED_SINCE;
    let mut v: Vec<&AddrEntry> = model
        .device_addresses(index, fam)
        .iter()
        .filter(|a| !sorted || a.flags & IFA_F_DEPRECATED == 0)
        .filter(|a| {
            super::go::is_global_unicast(a.address)
                || super::go::not_global(a.address) == super::go::NotGlobal::LinkLocal
        })
        .collect();
    // Stable, as slices.SortFunc's insertion sort is for short lists.
    v.sort_by_key(|a| {
        (
            !super::go::is_global_unicast(a.address),
            sorted && a.flags & IFA_F_PERMANENT == 0,
            sorted && fam == AddressFamily::Inet6 && a.flags & IFA_F_TEMPORARY != 0,
        )
    });
    v
}

fn candidate(model: &Model, index: u32, verdict: Verdict, reason: Reason, addrs: Vec<AddrVerdict>) -> Candidate {
    Candidate {
        interface: model.ifname(index),
        index,
        verdict,
        reason: reason.into(),
        addresses: addrs,
    }
}

/// flannel's choice of external interface and address on `model`.
pub fn detect(model: &Model, o: &Options) -> Detection {
    let fam = o.family.af();
    let mut d = Detection::new(
        Flannel::PROGRAM,
        note::Semantics::Flannel { version: o.version }.into(),
        o.family,
    );
    let choose = |d: &mut Detection, index: u32, ip: IpAddr, why: Note| {
        d.address = Some(ip.into());
        d.interface = Some(model.ifname(index));
        d.notes.push(why.into());
    };
    if o.iface.is_empty() && o.iface_regex.is_empty() && o.iface_can_reach.is_none() {
        // Default route: main table, no destination or exactly 0.0.0.0/0.
        let route = model.route_table().prefix(fam, TableId::Main, None, 0).next();
        let lower = o.version >= SORTED_SINCE;
        match route {
            None if !model.has_routes() => d.error = Some(failure::Failure::NoRoutesCaptured(Flannel::PROGRAM)),
            None => {
                d.error = Some(failure::Failure::Said(no_gateway(
                    o,
                    gateway_words(o.family, lower, false),
                )))
            }
            Some(r) => match r.oif {
                None => {
                    d.error = Some(failure::Failure::Said(no_gateway(
                        o,
                        gateway_words(o.family, lower, true),
                    )))
                }
                Some(oif) => match sorted_addrs(model, oif, fam, o.version).first() {
                    Some(a) => {
                        let route = model.route_text(r);
                        let why = Note::DefaultRoute { route: route.clone() };
                        let reason = Reason::DefaultRouteFirstSorted { route };
                        d.candidates
                            .push(candidate(model, oif, Verdict::Chosen, reason, Vec::new()));
                        choose(&mut d, oif, a.address, why);
                    }
                    None => d.error = Some(failure::Failure::Said(no_address(o, &model.ifname(oif)))),
                },
            },
        }
        finish(&mut d, o);
        return d;
    }
    for spec in &o.iface {
        if let Ok(ip) = spec.parse::<IpAddr>() {
            let hit = model
                .links()
                .iter()
                .find(|l| model.device_addresses(l.index, fam).iter().any(|a| a.address == ip));
            match hit {
                Some(l) => {
                    choose(&mut d, l.index, ip, Note::IfaceHolds { spec: spec.clone() });
                    finish(&mut d, o);
                    return d;
                }
                None => d.notes.push(Note::IfaceNotHeld { spec: spec.clone() }.into()),
            }
        } else {
            match model.link_by_name(spec.as_bytes()) {
                Some(l) => match sorted_addrs(model, l.index, fam, o.version).first() {
                    Some(a) => {
                        choose(
                            &mut d,
                            l.index,
                            a.address,
                            Note::IfaceFirstSorted { spec: spec.clone() },
                        );
                        finish(&mut d, o);
                        return d;
                    }
                    None => d.notes.push(
                        Note::IfaceNoAddress {
                            spec: spec.clone(),
                            family: o.family,
                        }
                        .into(),
                    ),
                },
                None => d.notes.push(Note::IfaceNoSuch { spec: spec.clone() }.into()),
            }
        }
    }
    for pattern in &o.iface_regex {
        let re = match GoRegex::new(pattern) {
            Ok(r) => r,
            Err(error) => {
                d.notes.push(
                    Note::IfaceRegexInvalid {
                        pattern: pattern.clone(),
                        error,
                    }
                    .into(),
                );
                continue;
            }
        };
        // Pass 1: addresses; pass 2: names.
        for l in model.links() {
            let addrs = sorted_addrs(model, l.index, fam, o.version);
            let mut verdicts = Vec::new();
            let mut hit = None;
            for a in &addrs {
                let m = hit.is_none() && re.is_match(a.address.to_string().as_bytes());
                if m {
                    hit = Some(a.address);
                }
                let pattern = pattern.clone();
                verdicts.push(AddrVerdict {
                    address: NodeAddress::prefixed(a.address, a.prefix_len),
                    verdict: if m { Verdict::Chosen } else { Verdict::NotMatching },
                    reason: Some(
                        if m {
                            Reason::AddressMatches { pattern }
                        } else {
                            Reason::AddressDoesNotMatch { pattern }
                        }
                        .into(),
                    ),
                });
            }
            if let Some(ip) = hit {
                d.candidates.push(candidate(
                    model,
                    l.index,
                    Verdict::Chosen,
                    Reason::AnAddressMatches,
                    verdicts,
                ));
                let pattern = pattern.clone();
                choose(&mut d, l.index, ip, Note::IfaceRegexAddress { pattern });
                finish(&mut d, o);
                return d;
            }
            d.candidates.push(candidate(
                model,
                l.index,
                Verdict::NotMatching,
                Reason::NoAddressMatches {
                    pattern: pattern.clone(),
                },
                verdicts,
            ));
        }
        for l in model.links() {
            // never match a pattern against an invented ifN
            let named = l.has_name() && re.is_match(l.name.as_bytes());
            let first = sorted_addrs(model, l.index, fam, o.version).first().map(|a| a.address);
            // The rows pass 1 wrote say what pass 2 found too.
            if let Some(row) = d.candidates.iter_mut().rev().find(|c| c.index == l.index) {
                let pattern = pattern.clone();
                if named && let Some(ip) = first {
                    row.verdict = Verdict::Chosen;
                    row.reason = Reason::NameMatches { pattern }.into();
                    for a in &mut row.addresses {
                        if a.address.ip() == ip {
                            a.verdict = Verdict::Chosen;
                            a.reason = Some(Reason::FirstSorted.into());
                        }
                    }
                } else if named {
                    row.reason = Reason::NameMatchesNoAddress {
                        pattern,
                        family: o.family,
                    }
                    .into();
                } else {
                    row.reason = Reason::NothingMatches { pattern }.into();
                }
            }
            if named && let Some(ip) = first {
                let at = l.index;
                let mut after = false;
                for row in &mut d.candidates {
                    if after {
                        row.verdict = Verdict::NotReached;
                        row.reason = Reason::MatchedFirst {
                            interface: model.ifname(at),
                        }
                        .into();
                    }
                    after |= row.index == at;
                }
                let pattern = pattern.clone();
                choose(&mut d, l.index, ip, Note::IfaceRegexName { pattern });
                finish(&mut d, o);
                return d;
            }
        }
    }
    if let Some(dst) = o.iface_can_reach {
        match super::assumed::select_source_noted(model, dst, &mut d.notes) {
            Ok(c) => {
                let oif = c.oif.unwrap_or(0);
                let route = model.route_text(&c.route);
                choose(&mut d, oif, c.source, Note::IfaceCanReach { dst, route });
                finish(&mut d, o);
                return d;
            }
            Err(why) => d.notes.push(Note::IfaceUnreachable { dst, why }.into()),
        }
    }
    d.error = Some(failure::Failure::Said(
        "Failed to find interface to use that matches the interfaces and/or regexes provided".into(),
    ));
    d
}

fn finish(d: &mut Detection, o: &Options) {
    if let Some(p) = o.public_ip {
        d.notes.push(Note::PublicIp(p).into());
    }
}

#[cfg(test)]
#[path = "flannel_tests.rs"]
mod tests;

/// k3s's embedded flannel (k3s `pkg/agent/flannel/flannel.go`,
/// `LookupExtInterface`): `--flannel-iface` (`net.InterfaceByName`), else
/// the interface of the first main-table default route, and the first of
/// its addresses, as flannel's own walk without `--iface` options; k3s
/// words the failures.
pub fn detect_k3s(model: &Model, o: &Options) -> Detection {
    let o = &Options {
        host: Host::K3s,
        ..o.clone()
    };
    let mut d = match o.iface.first() {
        None => detect(model, o),
        Some(name) => {
            let mut d = Detection::new(
                K3sFlannel::PROGRAM,
                note::Semantics::K3sFlannel { version: o.version }.into(),
                o.family,
            );
            match model.link_by_name(name.as_bytes()) {
                None => {
                    d.error = Some(failure::Failure::Said(format!(
                        "unable to find interface {name}: route ip+net: no such network interface"
                    )))
                }
                Some(l) => match sorted_addrs(model, l.index, o.family.af(), o.version).first() {
                    Some(a) => {
                        d.address = Some(a.address.into());
                        d.interface = Some(l.display_name());
                        d.notes.push(super::note::Note::FlannelIface { name: name.clone() });
                    }
                    None => d.error = Some(failure::Failure::Said(no_address(o, &l.display_name()))),
                },
            }
            d
        }
    };
    d.method = K3sFlannel::PROGRAM.into();
    d.semantics = note::Semantics::K3sFlannel { version: o.version }.into();
    d
}

pub mod note;
pub use self::note::{Failure, Note, Reason};
