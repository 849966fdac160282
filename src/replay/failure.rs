//! Why a replay chose nothing, as data: the program's own message where
//! it has one, else what stopped it, typed (a program's own failures,
//! missing inputs, a capture without routes).
//!
//! Contract: plain values, a leaf below [`super::verdict`]. A program's
//! own words stay a string ([`Failure::Said`]); everything nlorder
//! explains is a variant carrying what it concerns. What only one
//! program's replay says is that program's own `Failure` (its folder's
//! `note.rs`, an [`OwnWord`]), nested here as [`Failure::Own`] by
//! `From` and worded in that program's `report` file; the
//! rest is common and worded in `report::failure`. JSON's `error` says
//! the same words as the text.

use super::program::{Own, OwnWord, Program};

/// Why a replay chose nothing (or, for kubeadm's `0.0.0.0`, nothing usable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The program's own message, word for word (apimachinery's,
    /// kubeadm's, flannel's, Go's).
    Said(String),
    /// A program's own failure (a value of its [`OwnWord`] type,
    /// worded in its wording file).
    Own(Own),
    /// The program looks for the default route, and the capture holds no
    /// routes at all.
    NoRoutesCaptured(Program),
    /// No message of the capture showed an address (no address dump,
    /// notification or request; what the kernel's rules made from links
    /// alone does not count): the program's choice cannot be replayed.
    NoAddressesCaptured,
    /// What the program reads to answer, no message of the capture
    /// shows (a family's routes or addresses, a table, links known
    /// only by index): its failure on what the capture does show is
    /// no answer.
    CannotKnow(Vec<super::unshown::Unshown>),
    /// At this moment (`--at`) the dump that shows what the program reads
    /// was asked for but not yet answered: unknown yet.
    UnknownYet {
        /// What the dump lists.
        kind: crate::model::ObjectKind,
        /// Its request's packet.
        request_packet: u64,
    },
}

impl<T: OwnWord<Failure>> From<T> for Failure {
    fn from(v: T) -> Failure {
        Failure::Own(Own::new(v))
    }
}
