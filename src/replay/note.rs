//! What a replay found beside its answer, as data: the settings that
//! decided it, the routes behind it, BGP peers, the program's warnings and
//! the assumptions it rests on.
//!
//! Contract: plain values, a leaf below [`super::verdict`]; one variant per
//! finding, carrying addresses, families, interface names, patterns,
//! routes (as `ip route` prints them) and the release replayed. What only
//! one program finds is that program's own `Note` (its folder's
//! `note.rs`, an [`OwnWord`]), nested here as [`Note::Own`] by `From`
//! and worded in that program's `report` file; what several
//! share (the default-route walk, `--node-ip`, `--flannel-iface`, the
//! assumptions) is common and worded in `report::note`. JSON says the
//! same words.

use super::family::Family;
use crate::model::LinkOrder;

pub use super::program::Program;
use super::program::{Own, OwnWord};

/// One finding of a replay, beside its answer and candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// A program's own note (a value of its [`OwnWord`] type, worded in
    /// its wording file).
    Own(Own),

    // kubelet's step 1 (k3s's too).
    /// Step 1: `--node-ip` given.
    NodeIpGiven,

    // apimachinery's default-route walk (kubelet's step 4, kubeadm, k3s,
    // kube-apiserver).
    /// The address of the default route's interface.
    DefaultRouteInterface {
        /// The program walking.
        by: Program,
    },
    /// That interface has no global address: one on the up loopback.
    LoopbackFallback {
        /// The program walking.
        by: Program,
        /// The default route's interface.
        interface: String,
        /// The loopback interface the address is on.
        loopback: String,
    },
    /// The family preferred gave nothing (`had_route`: it has a default
    /// route, which leads to no global address): the other one answered.
    FellBack {
        /// The program walking.
        by: Program,
        /// The family preferred.
        wanted: Family,
        /// It has a default route.
        had_route: bool,
    },

    // k3s and its embedded flannel.
    /// `--flannel-iface` names the node IPs' interface.
    FlannelIface {
        /// The interface named.
        name: String,
    },

    // What the answer rests on that the capture did not show.
    /// The kernel's link order, assumed: no link dump showed it.
    AssumedLinkOrder(LinkOrder),
    /// These candidates are known only from address messages.
    AssumedPlaceholders(Vec<String>),
    /// What the policy rules did for a route lookup the answer rests
    /// on, and what that rests on.
    Rule(super::source::RuleNote),
}

impl<T: OwnWord<Note>> From<T> for Note {
    fn from(v: T) -> Note {
        Note::Own(Own::new(v))
    }
}
