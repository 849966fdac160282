//! Why a candidate interface or address won or lost, as data: the rule of
//! the replayed program that decided, with what it looked at.
//!
//! Contract: plain values, a leaf below [`super::verdict`]; one variant per
//! rule, carrying interface names, addresses, patterns, families and
//! routes (as `ip route` prints them). A rule only one program applies is
//! that program's own `Reason` (in its replay module; calico-node's in
//! [`super::calico::note`]), nested here as one variant per program (with its
//! `From`, generated from `for_each_vocabulary!`) and worded in that
//! program's `report` file; the rules several apply (the
//! default-route walk, a down interface, another family, a sort) are
//! common and worded in `report::reason`. JSON says the same words.

use super::go::NotGlobal;

macro_rules! reason_enum {
    ($($Variant:ident $module:ident $whose:literal,)*) => {
        /// Why a candidate (an interface, or one of its addresses) got its verdict.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Reason {
            $(
                #[doc = concat!($whose, " own reasons.")]
                $Variant(super::$module::note::Reason),
            )*

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

        $(
            impl From<super::$module::note::Reason> for Reason {
                fn from(v: super::$module::note::Reason) -> Self {
                    Reason::$Variant(v)
                }
            }
        )*
    };
}
for_each_vocabulary!(reason_enum);
