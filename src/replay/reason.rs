//! Why a candidate interface or address won or lost, as data: the rule of
//! the replayed program that decided, with what it looked at.
//!
//! Contract: plain values, a leaf below [`super::verdict`]; one variant per
//! rule, carrying interface names, addresses, patterns, families and
//! routes (as `ip route` prints them). A rule only one program applies is
//! that program's own `Reason` (its folder's `note.rs`, an
//! [`OwnWord`]), nested here as [`Reason::Own`] by `From` and worded in
//! that program's `report` file; the rules several apply (the
//! default-route walk, a down interface, another family, a sort) are
//! common and worded in `report::reason`. JSON says the same words.

use super::go::NotGlobal;
use super::program::{Own, OwnWord};

/// Why a candidate (an interface, or one of its addresses) got its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// A program's own reason (a value of its [`OwnWord`] type, worded
    /// in its wording file).
    Own(Own),

    // Shared by several programs.
    /// An address after the one that won, on the same interface.
    EarlierAddress,
    /// Not global unicast (the default-route walk, kubeadm's `lo`).
    NotGlobal(NotGlobal),
    /// An address of the family not being looked for.
    OtherFamily,

    // apimachinery's default-route walk (kubelet, kubeadm, k3s,
    // kube-apiserver).
    /// The interface of this default route.
    DefaultRoute {
        /// The default route, as `ip route` prints it.
        route: String,
    },
    /// The interface of this default route is down.
    DefaultRouteDown {
        /// The default route, as `ip route` prints it.
        route: String,
    },
    /// This default route has no device (`*` in `/proc/net/route`).
    DefaultRouteNoDevice {
        /// The default route, as `ip route` prints it.
        route: String,
    },
    /// The first global unicast address of the family.
    FirstGlobal,

    // Shared by the programs that walk every interface.
    /// The interface is administratively down.
    InterfaceDown,
    /// An up interface, walked.
    UpInterface,
    /// One of several candidates where the program wants exactly one.
    OneOfSeveral,
    /// Kept, but a sort put another one first.
    SortedAfter,
}

impl<T: OwnWord<Reason>> From<T> for Reason {
    fn from(v: T) -> Reason {
        Reason::Own(Own::new(v))
    }
}
