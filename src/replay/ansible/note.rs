//! Ansible's own notes, reasons and failures, as values (nested into the
//! common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] by one variant; worded in `report::ansible`).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use std::net::IpAddr;

use crate::replay::source::Why;

/// Ansible's own notes (nested as [`crate::replay::note::Note::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// kubespray's `fallback_ips` takes the IPv4 fact's address, or
    /// 127.0.0.1 where the fact has none.
    KubesprayFallback {
        /// The address it takes (127.0.0.1 when the fact has none).
        address: IpAddr,
    },
    /// The route has several next hops and a `src`: the address is known,
    /// the device the kernel hashes the flow to (the fact's interface) is
    /// not.
    DeviceUnknown {
        /// The route, as `ip route` prints it.
        route: String,
    },
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// Why the interface was the answer (nested as
/// [`crate::replay::reason::Reason::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// `ip route get DST` goes out of this device from `source`.
    RouteGet {
        /// The destination asked for (8.8.8.8, or Google's IPv6 address).
        dst: IpAddr,
        /// The route the kernel takes, as `ip route` prints it.
        route: String,
        /// How the kernel chose the source.
        why: Why,
    },
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}

/// Why the fact holds no address (nested as
/// [`crate::replay::failure::Failure::Own`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The capture holds no routes: its words for
    /// [`crate::replay::failure::Failure::NoRoutesCaptured`].
    NoRoutes,
    /// `ip route get DST` fails: the kernel's error, as iproute2 prints it
    /// after `RTNETLINK answers: `; the fact is empty.
    RouteGetFails {
        /// The destination asked for.
        dst: IpAddr,
        /// The route that refuses it, as `ip route` prints it (`None`: no
        /// route matches).
        route: Option<String>,
        /// The kernel's error (`strerror` of the errno it returns).
        error: &'static str,
    },
    /// The answer names the route's type first (`local 8.8.8.8 ...`), not
    /// the address: Ansible reads nothing from it.
    NotUnicast {
        /// The destination asked for.
        dst: IpAddr,
        /// The route, as `ip route` prints it.
        route: String,
    },
    /// The kernel finds no source address on the output device: the
    /// answer has no `src`, and the fact names the device but no address.
    NoSource {
        /// The destination asked for.
        dst: IpAddr,
        /// The output device.
        device: String,
    },
    /// The route has several next hops and no `src`: the kernel hashes
    /// the flow to one of them, which the capture does not show, so the
    /// fact is unknown.
    NextHopUnknown {
        /// The destination asked for.
        dst: IpAddr,
        /// The route, as `ip route` prints it.
        route: String,
    },
}

impl crate::replay::program::OwnWord<crate::replay::failure::Failure> for Failure {}
