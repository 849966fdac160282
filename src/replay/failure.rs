//! Why a replay chose nothing, as data: the program's own message where
//! it has one, else what stopped it, typed (a program's own failures,
//! missing inputs, a capture without routes).
//!
//! Contract: plain values, a leaf below [`super::verdict`]. A program's
//! own words stay a string ([`Failure::Said`]); everything nlorder
//! explains is a variant carrying what it concerns. What only one
//! program's replay says is that program's own enum (in its replay
//! module; calico-node's in [`super::calico::note`]), nested here as one
//! variant per program (with its `From`, generated from
//! `for_each_vocabulary!`) and worded in that program's `report` file; the
//! rest is common and worded in `report::failure`. JSON's `error` says
//! the same words as the text.

use std::convert::Infallible;
use std::fmt;
use std::marker::PhantomData;

use super::note::Program;

/// A vocabulary's enum where the program has none of its own (failures,
/// reasons): a type with no values. `S` is the program's `Semantics`, so
/// that each program's is a type of its own and nests as its own variant
/// (nested all the same, so that every program's vocabulary has the same
/// enums).
pub struct Empty<S>(Infallible, PhantomData<S>);

impl<S> Empty<S> {
    /// There is no value to have: whatever a caller wants of one.
    pub fn absurd<T>(&self) -> T {
        match self.0 {}
    }
}

impl<S> fmt::Debug for Empty<S> {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.absurd()
    }
}

impl<S> Clone for Empty<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Empty<S> {}

impl<S> PartialEq for Empty<S> {
    fn eq(&self, _: &Self) -> bool {
        self.absurd()
    }
}

impl<S> Eq for Empty<S> {}

macro_rules! failure_enum {
    ($($Variant:ident $module:ident $whose:literal,)*) => {
        /// Why a replay chose nothing (or, for kubeadm's `0.0.0.0`, nothing usable).
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Failure {
            /// The program's own message, word for word (apimachinery's,
            /// kubeadm's, flannel's, Go's).
            Said(String),
            $(
                #[doc = concat!($whose, " own failures.")]
                $Variant(super::$module::note::Failure),
            )*
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

        $(
            impl From<super::$module::note::Failure> for Failure {
                fn from(v: super::$module::note::Failure) -> Self {
                    Failure::$Variant(v)
                }
            }
        )*
    };
}
for_each_vocabulary!(failure_enum);
