//! apimachinery's `ChooseHostInterface` (`pkg/util/net/interface.go`:
//! `chooseHostInterface`, `getAllDefaultRoutes`,
//! `chooseHostInterfaceFromRoute`), the walk kubelet, kubeadm and k3s
//! share: the default routes of `/proc/net/route` and
//! `/proc/net/ipv6_route` (main table, dump order), the preferred family
//! first; the first up interface with a global unicast address of that
//! family, else a global address on an up loopback interface.
//!
//! Contract: a pure function of the model; fills a detection's candidates
//! and answer (with notes naming the program that walked), or says why
//! there is none ([`NoHostInterface`]), which each program turns into its
//! own failure.

use std::net::IpAddr;

use super::family::Family;
use super::go::{self, AddrView};
use super::note::{Note, Program};
use super::reason::Reason;
use super::verdict::{AddrVerdict, Candidate, Detection, Verdict};
use crate::model::{Model, RouteEntry};
use crate::netlink::names::{IFF_LOOPBACK, IFF_UP};
use crate::netlink::values::{AddressFamily, TableId};

/// An answer of the family tried second: says why the first gave none,
/// and labels the detection with the answer's family.
fn fell_back(d: &mut Detection, fams: [AddressFamily; 2], defaults: &[&RouteEntry], ip: IpAddr, by: Program) {
    let [first, _] = fams;
    let got = if ip.is_ipv6() {
        AddressFamily::Inet6
    } else {
        AddressFamily::Inet
    };
    if got == first {
        return;
    }
    d.notes.push(Note::FellBack {
        by,
        wanted: if first == AddressFamily::Inet6 {
            Family::V6
        } else {
            Family::V4
        },
        had_route: defaults.iter().any(|r| r.family == first),
    });
    d.family = Family::of(ip);
}

/// Why no address was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoHostInterface {
    /// The capture holds no routes at all: the walk cannot be replayed.
    NoRoutesCaptured,
    /// No default route (apimachinery's `noRoutesError`).
    NoDefaultRoutes,
    /// Default routes, but none leads to a usable address.
    NoneUsable,
    /// A default route of the family walked has no device (`unreachable`,
    /// `blackhole`, `prohibit`): `/proc/net/route` names its interface `*`
    /// and `InterfaceByName("*")` fails, which ends the walk.
    NoSuchInterface,
}

/// What Go's `net.InterfaceByName` says for a name no interface has.
pub const NO_SUCH_INTERFACE: &str = "route ip+net: no such network interface";

impl NoHostInterface {
    /// The program's own words when the walk failed on an interface it
    /// could not find (the route file's `*`).
    pub fn said(self) -> Option<String> {
        (self == NoHostInterface::NoSuchInterface).then(|| format!("{NO_SUCH_INTERFACE} (*)"))
    }
}

/// What the walk reads for an answer of `family`: both families' defaults
/// of table main, IPv4's first unless `prefer_v6`, and the devices' state;
/// nothing of the tables when the address is `given`.
pub fn reads(family: super::family::Family, prefer_v6: bool, given: bool) -> super::unshown::Reads {
    use super::family::Family;
    let r = super::unshown::Reads::walk(family);
    if given {
        return r.no_link_attributes();
    }
    let order = if prefer_v6 {
        [Family::V6, Family::V4]
    } else {
        [Family::V4, Family::V6]
    };
    r.with_routes(&order).first_answer_ends()
}

/// `ChooseHostInterface` (`ResolveBindAddress` preferring IPv6 when
/// `prefer_v6`): the candidates go into `d`, and the chosen address and
/// interface when there is one; `by` names the program in the notes.
pub fn choose(model: &Model, prefer_v6: bool, d: &mut Detection, by: Program) -> Result<(), NoHostInterface> {
    let fams: [AddressFamily; 2] = if prefer_v6 {
        [AddressFamily::Inet6, AddressFamily::Inet]
    } else {
        [AddressFamily::Inet, AddressFamily::Inet6]
    };
    if !model.has_routes() {
        return Err(NoHostInterface::NoRoutesCaptured);
    }
    // /proc/net/route: main table, destination 0.0.0.0 whatever the mask;
    // /proc/net/ipv6_route: destination :: with a gateway.
    // (in dump order: IPv4's, then IPv6's, each looked up by prefix)
    let table = model.route_table();
    let defaults: Vec<_> = [AddressFamily::Inet, AddressFamily::Inet6]
        .into_iter()
        .flat_map(|f| table.zero_prefixes(f, TableId::Main))
        .filter(|r| {
            r.dst.is_none_or(|x| x.is_unspecified())
                && (r.family == AddressFamily::Inet || r.gateway.is_some_and(|g| !g.is_unspecified()))
        })
        .collect();
    if defaults.is_empty() {
        return Err(NoHostInterface::NoDefaultRoutes);
    }
    for fam in fams {
        for r in defaults.iter().filter(|r| r.family == fam) {
            // (IPv6 reject routes have no gateway and are not walked; an
            // IPv4 one shows `*`, which `getIPFromInterface` cannot find)
            let Some(oif) = r.oif else {
                d.candidates.push(Candidate {
                    interface: "*".into(),
                    index: 0,
                    verdict: Verdict::NoAddress,
                    reason: Reason::DefaultRouteNoDevice {
                        route: model.route_text(r),
                    },
                    addresses: Vec::new(),
                });
                return Err(NoHostInterface::NoSuchInterface);
            };
            let name = model.ifname(oif);
            let Some(link) = model.link(oif) else { continue };
            let mut addrs = Vec::new();
            let mut found = None;
            if link.flags & IFF_UP == 0 {
                d.candidates.push(Candidate {
                    interface: name.clone(),
                    index: oif,
                    verdict: Verdict::NotUp,
                    reason: Reason::DefaultRouteDown {
                        route: model.route_text(r),
                    },
                    addresses: Vec::new(),
                });
            } else {
                for a in go::addrs(model, oif, AddrView::GoNet) {
                    let want = if fam == AddressFamily::Inet {
                        a.ip.is_ipv4()
                    } else {
                        a.ip.is_ipv6()
                    };
                    let (v, why) = if !want {
                        (Verdict::OtherFamily, Reason::OtherFamily)
                    } else if found.is_some() {
                        (Verdict::NotReached, Reason::EarlierAddress)
                    } else if go::is_global_unicast(a.ip) {
                        found = Some(a.ip);
                        (Verdict::Chosen, Reason::FirstGlobal)
                    } else {
                        (Verdict::NotGlobalUnicast, Reason::NotGlobal(go::not_global(a.ip)))
                    };
                    addrs.push(AddrVerdict::on_interface(a.ip, a.prefix_len, v, why));
                }
                d.candidates.push(Candidate {
                    interface: name.clone(),
                    index: oif,
                    verdict: if found.is_some() {
                        Verdict::Chosen
                    } else {
                        Verdict::NoAddress
                    },
                    reason: Reason::DefaultRoute {
                        route: model.route_text(r),
                    },
                    addresses: addrs,
                });
            }
            if let Some(ip) = found {
                d.address = Some(ip.into());
                d.interface = Some(name);
                d.notes.push(Note::DefaultRouteInterface { by });
                fell_back(d, fams, &defaults, ip, by);
                return Ok(());
            }
            // RFC 5549 setups: a global address on an up loopback interface.
            for l in model.links() {
                if l.flags & IFF_UP != 0 && l.flags & IFF_LOOPBACK != 0 {
                    let lo = go::addrs(model, l.index, AddrView::GoNet)
                        .into_iter()
                        .find(|a| a.ip.is_ipv4() == (fam == AddressFamily::Inet) && go::is_global_unicast(a.ip));
                    if let Some(a) = lo {
                        d.address = Some(a.ip.into());
                        d.interface = Some(l.display_name());
                        d.notes.push(Note::LoopbackFallback {
                            by,
                            interface: name.clone(),
                            loopback: l.display_name(),
                        });
                        fell_back(d, fams, &defaults, a.ip, by);
                        return Ok(());
                    }
                }
            }
        }
    }
    Err(NoHostInterface::NoneUsable)
}
