//! Which program's behaviour a replay stands for, as data: calico-node's
//! release and what its walk does in that release; flannel's and Cilium's
//! release; the other programs' logic (one version each).
//!
//! Contract: plain values below [`super::verdict`]: each program's own
//! `Semantics` (in its vocabulary, `replay/<program>/note.rs`, or its
//! chooser where it is replayed in one version only; an
//! [`OwnWord`]`<Semantics>`), held here by `From`; each program's wording file
//! words it (`detect`'s `semantics:` line, JSON's `semantics`). The
//! program replayed is the detection's method's.

use super::program::{Own, OwnWord};

/// What a detection replayed: the program's own semantics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Semantics(pub Own);

impl<T: OwnWord<Semantics>> From<T> for Semantics {
    fn from(v: T) -> Semantics {
        Semantics(Own::new(v))
    }
}
