//! kubeadm's API server advertise address (`kubeadm init` without
//! `--apiserver-advertise-address`, or with `::`, `0.0.0.0` or a loopback
//! address): kubeadm's `SetAPIEndpointDynamicDefaults` and
//! `ChooseAPIServerBindAddress` (cmd/kubeadm/app/util/config), over
//! apimachinery's `ResolveBindAddress` and `ChooseBindAddressForInterface`
//! (`pkg/util/net/interface.go`).
//!
//! Contract: a pure function of the model and the advertise address given.
//! Semantics: a specific address is used as given; a loopback address
//! selects the first up `lo`'s first global unicast address (IPv4 first);
//! otherwise the default-route walk ([`super::host_interface`]) prefers the
//! family of the address given (IPv4 when none). No default route at all:
//! kubeadm warns and advertises `0.0.0.0`, which the later validation of
//! the configuration refuses; the answer carries that warning as its error.

use std::net::IpAddr;

use super::chooser::{Chooser, Context, OptionsError};
use super::failure;
use super::family::Family;
use super::go::{self, AddrView};
use super::host_interface::{self, NoHostInterface};
use super::reason;
use super::verdict::{AddrVerdict, Candidate, Detection, Verdict};
use crate::model::Model;
use crate::netlink::names::IFF_UP;

/// kubeadm in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kubeadm;

impl Chooser for Kubeadm {
    const PROGRAM: super::program::Program = super::program::Program::named("kubeadm");
    const DOC: &'static str = "kubeadm's API server advertise address";
    const NO_ROUTES: super::chooser::NoRoutes = super::chooser::NoRoutes::Walks;
    type Settings = Settings;
    type Options = Options;

    fn options(cx: &Context<'_>) -> Result<Options, OptionsError> {
        Ok(Options {
            advertise_address: cx.settings::<Kubeadm>().advertise_address,
        })
    }

    fn detect(model: &Model, o: &Options) -> Detection {
        detect(model, o)
    }

    /// apimachinery's default-route walk ([`super::host_interface::reads`]),
    /// unless `--apiserver-advertise-address` is given.
    fn reads(o: &Options, family: super::family::Family) -> super::unshown::Reads {
        super::host_interface::reads(family, false, o.advertise_address.is_some())
    }

    /// Once, told to prefer IPv6 (`--apiserver-advertise-address ::`) when
    /// only IPv6 is asked for.
    fn all_once(families: &[Family]) -> Vec<Options> {
        let v6_only = families == [Family::V6];
        vec![Options {
            advertise_address: v6_only.then_some(IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED)),
        }]
    }
}

/// kubeadm's flag that decides its advertise address.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--apiserver-advertise-address` (`localAPIEndpoint.advertiseAddress`).
    pub advertise_address: Option<IpAddr>,
}

program_options! {
    /// kubeadm's settings as given.
    pub struct Settings {
        /// kubeadm --apiserver-advertise-address: `::` prefers IPv6, a loopback address
        /// selects a global address on lo, any other is used as given. kube-apiserver
        /// --advertise-address: any but `0.0.0.0` and `::` is used as given.
        #[cfg_attr(feature = "clap", arg(long))]
        advertise_address: Option<IpAddr> = None,
    }
}

/// apimachinery's `LoopbackInterfaceName`.
const LOOPBACK: &str = "lo";

/// kubeadm's API server advertise address on `model`.
pub fn detect(model: &Model, o: &Options) -> Detection {
    let given = o.advertise_address;
    let prefer_v6 = given.is_some_and(|a| a.is_ipv6());
    let family = if prefer_v6 { Family::V6 } else { Family::V4 };
    let mut d = Detection::new(Kubeadm::PROGRAM, Kubeadm.into(), family);
    match given {
        Some(ip) if !ip.is_unspecified() && !ip.is_loopback() => {
            d.address = Some(ip.into());
            d.interface = model
                .addresses(None)
                .iter()
                .find(|a| a.address == ip)
                .map(|a| model.ifname(a.index));
            d.family = Family::of(ip);
            d.notes.push(Note::AdvertiseGiven.into());
            if d.interface.is_none() {
                d.notes.push(Note::AdvertiseNotOnHost { ip }.into());
            }
        }
        Some(ip) if ip.is_loopback() => on_loopback(model, &mut d),
        _ => match host_interface::choose(model, prefer_v6, &mut d, Kubeadm::PROGRAM) {
            Ok(()) => {}
            Err(NoHostInterface::NoRoutesCaptured) => {
                d.error = Some(failure::Failure::NoRoutesCaptured(Kubeadm::PROGRAM));
            }
            Err(NoHostInterface::NoDefaultRoutes) => {
                d.address = Some(IpAddr::from([0, 0, 0, 0]).into());
                d.family = Family::V4;
                d.error = Some(
                    Failure::Unspecified {
                        warning: "WARNING: could not obtain a bind address for the API Server: no default routes \
                                  found in \"/proc/net/route\" or \"/proc/net/ipv6_route\"; using: 0.0.0.0"
                            .into(),
                    }
                    .into(),
                );
            }
            Err(NoHostInterface::NoneUsable) => {
                d.error = Some(failure::Failure::Said(
                    "unable to select an IP from default routes.".into(),
                ));
            }
            Err(e @ NoHostInterface::NoSuchInterface) => d.error = e.said().map(failure::Failure::Said),
        },
    }
    d
}

/// `ChooseBindAddressForInterface("lo")`: the interface must be up; its
/// first global unicast IPv4 address, else its first IPv6 one.
fn on_loopback(model: &Model, d: &mut Detection) {
    d.notes.push(Note::AdvertiseLoopback.into());
    let Some(lo) = model.link_by_name(LOOPBACK.as_bytes()) else {
        d.error = Some(failure::Failure::Said(format!(
            "route ip+net: no such network interface ({LOOPBACK})"
        )));
        return;
    };
    let addrs = go::addrs(model, lo.index, AddrView::GoNet);
    let up = lo.flags & IFF_UP != 0;
    let pick = |v4: bool| {
        addrs
            .iter()
            .find(|a| a.ip.is_ipv4() == v4 && go::is_global_unicast(a.ip))
            .map(|a| a.ip)
    };
    let chosen = up.then(|| pick(true).or_else(|| pick(false))).flatten();
    let verdicts = addrs
        .iter()
        .map(|a| {
            let (verdict, reason) = if Some(a.ip) == chosen {
                (Verdict::Chosen, Reason::FirstGlobalIpv4First.into())
            } else if !go::is_global_unicast(a.ip) {
                (
                    Verdict::NotGlobalUnicast,
                    reason::Reason::NotGlobal(go::not_global(a.ip)),
                )
            } else if chosen.is_some() {
                (Verdict::NotReached, reason::Reason::EarlierAddress)
            } else {
                (Verdict::NotUp, Reason::LoopbackDown.into())
            };
            AddrVerdict::on_interface(a.ip, a.prefix_len, verdict, reason)
        })
        .collect();
    d.candidates.push(Candidate {
        interface: lo.display_name(),
        index: lo.index,
        verdict: match (up, chosen) {
            (false, _) => Verdict::NotUp,
            (true, Some(_)) => Verdict::Chosen,
            (true, None) => Verdict::NoAddress,
        },
        reason: Reason::Loopback.into(),
        addresses: verdicts,
    });
    match chosen {
        Some(ip) => {
            d.address = Some(ip.into());
            d.interface = Some(lo.display_name());
            d.family = Family::of(ip);
        }
        None => {
            d.error = Some(failure::Failure::Said(format!(
                "unable to select an IP from {LOOPBACK} network interface"
            )))
        }
    }
}

pub mod note;
pub use self::note::{Failure, Note, Reason};

#[cfg(test)]
#[path = "kubeadm_tests.rs"]
mod tests;
