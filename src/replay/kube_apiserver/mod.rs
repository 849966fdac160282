//! kube-apiserver's advertise address when `--advertise-address` is not
//! given: the address it tells the cluster to reach it at (the
//! `kubernetes` Service's endpoint, the other API servers' lease).
//!
//! Source (k8s.io/apiserver v0.34.0, Kubernetes 1.34):
//! `pkg/server/options/server_run_options.go` `DefaultAdvertiseAddress`
//! (kube-apiserver's option completion calls it): an `--advertise-address`
//! that is given and not unspecified is used as is; else
//! `pkg/server/options/serving.go` `DefaultExternalAddress` returns
//! apimachinery's `ResolveBindAddress(--bind-address)` (default
//! `0.0.0.0`). k8s.io/apimachinery v0.34.0 `pkg/util/net/interface.go`
//! `ResolveBindAddress`: a bind address that is neither unspecified nor
//! loopback is the answer; else `chooseHostInterface` walks the default
//! routes ([`super::host_interface`]), preferring IPv6 when the bind
//! address is IPv6 (`::`, `::1`), IPv4 otherwise. Unlike kubeadm, a
//! loopback address selects nothing on `lo`, and without a default route
//! kube-apiserver stops with its error (no `0.0.0.0`).
//!
//! Contract: a pure function of the model and the two flags; its notes are
//! its own [`Note`]s, worded in `report::kube_apiserver`; its failures are
//! its own message, word for word.

use std::net::{IpAddr, Ipv4Addr};

pub mod note;
pub use self::note::Note;

use super::chooser::{Chooser, Context, OptionsError};
use super::failure::Failure;
use super::family::Family;
use super::host_interface::{self, NoHostInterface};
use super::program::Program;
use super::verdict::Detection;
use crate::model::Model;

/// kube-apiserver in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KubeApiserver;

impl Chooser for KubeApiserver {
    const PROGRAM: Program = Program::named("kube-apiserver");
    const DOC: &'static str = "kube-apiserver's own advertise address";
    type Settings = Settings;
    const OPTIONS: &'static [&'static str] = OPTIONS;
    type Options = Options;

    fn options(cx: &Context<'_>) -> Result<Options, OptionsError> {
        Ok(Options {
            advertise_address: cx.settings::<super::kubeadm::Kubeadm>().advertise_address,
            bind_address: cx.settings::<KubeApiserver>().bind_address,
        })
    }

    fn detect(model: &Model, o: &Options) -> Detection {
        detect(model, o)
    }

    /// apimachinery's default-route walk ([`super::host_interface::reads`]),
    /// IPv6 first for an IPv6 `--bind-address`, unless `--advertise-address`
    /// is given.
    fn reads(o: &Options, family: crate::replay::family::Family) -> crate::replay::unshown::Reads {
        crate::replay::host_interface::reads(
            family,
            o.bind_address.is_some_and(|b| b.is_ipv6()),
            o.advertise_address.is_some(),
        )
    }

    /// Once, with its defaults (`--bind-address 0.0.0.0`), or told to
    /// prefer IPv6 (`--bind-address ::`) when only IPv6 is asked for.
    fn all_once(families: &[Family]) -> Vec<Options> {
        let v6_only = families == [Family::V6];
        vec![Options {
            advertise_address: None,
            bind_address: v6_only.then_some(IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED)),
        }]
    }
}

program_options! {
    /// kube-apiserver's settings as given (its `--advertise-address` is
    /// the one kubeadm's settings hold).
    pub struct Settings {
        /// kube-apiserver --bind-address (default 0.0.0.0): a specific address is advertised as
        /// given; 0.0.0.0, :: or a loopback address: the default-route interface (IPv6 first for ::).
        #[cfg_attr(feature = "clap", arg(long))]
        bind_address: Option<IpAddr> = None,
    }
}

/// The options kube-apiserver reads.
pub const OPTIONS: &[&str] = &["advertise_address", "bind_address"];

/// What the replay reads.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// `--advertise-address`.
    pub advertise_address: Option<IpAddr>,
    /// `--bind-address` (None: its default, `0.0.0.0`).
    pub bind_address: Option<IpAddr>,
}

/// The error kube-apiserver stops with when `ResolveBindAddress` fails
/// (`DefaultAdvertiseAddress`'s wrapping of apimachinery's error).
fn unable(error: &str) -> Failure {
    Failure::Said(format!(
        "Unable to find suitable network address.error='{error}'. \
         Try to set the AdvertiseAddress directly or provide a valid BindAddress to fix this."
    ))
}

/// kube-apiserver's advertise address on the host the model holds: the
/// one given, a specific bind address, or apimachinery's default-route walk.
pub fn detect(model: &Model, o: &Options) -> Detection {
    let bind = o.bind_address.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    let mut d = Detection::new(KubeApiserver::PROGRAM, KubeApiserver.into(), Family::of(bind));
    let given = match (o.advertise_address, bind) {
        (Some(ip), _) if !ip.is_unspecified() => Some((ip, Note::AdvertiseGiven)),
        (_, ip) if !ip.is_unspecified() && !ip.is_loopback() => Some((ip, Note::BindAddressUsed)),
        _ => None,
    };
    if let Some((ip, why)) = given {
        d.address = Some(ip.into());
        d.family = Family::of(ip);
        d.interface = model
            .addresses(None)
            .iter()
            .find(|a| a.address == ip)
            .map(|a| model.ifname(a.index));
        d.notes.push(why.into());
        if d.interface.is_none() {
            d.notes.push(Note::NotOnHost { ip }.into());
        }
        return d;
    }
    match host_interface::choose(model, bind.is_ipv6(), &mut d, KubeApiserver::PROGRAM) {
        Ok(()) => {}
        Err(NoHostInterface::NoRoutesCaptured) => d.error = Some(Failure::NoRoutesCaptured(KubeApiserver::PROGRAM)),
        Err(NoHostInterface::NoDefaultRoutes) => {
            d.error = Some(unable(
                "no default routes found in \"/proc/net/route\" or \"/proc/net/ipv6_route\"",
            ))
        }
        Err(NoHostInterface::NoneUsable) => d.error = Some(unable("unable to select an IP from default routes.")),
        Err(e @ NoHostInterface::NoSuchInterface) => d.error = e.said().map(|m| unable(&m)),
    }
    d
}

#[cfg(test)]
#[path = "kube_apiserver_tests.rs"]
mod tests;
