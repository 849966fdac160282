//! Which program's behaviour a replay stands for, as data: calico-node's
//! release and what its walk does in that release; flannel's and Cilium's
//! release; the other programs' logic (one version each).
//!
//! Contract: plain values, a leaf below [`super::verdict`]: each
//! program's own `Semantics` (in its vocabulary, `replay/<program>/note.rs`,
//! with the [`Program`] it is), nested here as one variant per vocabulary,
//! generated from `for_each_vocabulary!`; `report::semantics` dispatches
//! their words to each program's wording file (`detect`'s `semantics:` line, JSON's
//! `semantics`).

use super::program::Program;

pub use super::calico::note::CalicoWalk;

macro_rules! semantics_enum {
    ($($Variant:ident $module:ident $whose:literal,)*) => {
        /// What a detection replayed: the program's own semantics, one
        /// variant per vocabulary (`for_each_vocabulary!`).
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Semantics {
            $(
                #[doc = concat!("What ", $whose, " replay stands for.")]
                $Variant(super::$module::note::Semantics),
            )*
        }

        impl Semantics {
            /// The program replayed.
            pub fn program(&self) -> Program {
                match self {
                    $( Semantics::$Variant(s) => s.program(), )*
                }
            }
        }

        $(
            impl From<super::$module::note::Semantics> for Semantics {
                fn from(v: super::$module::note::Semantics) -> Self {
                    Semantics::$Variant(v)
                }
            }
        )*
    };
}
for_each_vocabulary!(semantics_enum);
