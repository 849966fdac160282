//! Running a method: [`MethodSpec`] is a [`Method`] (see
//! [`super::program`]) with its program's options, [`MethodSpec::detect`]
//! the one place that runs them, [`ProgramSettings`] every program's
//! settings (the manifests' keys, the command line's flags), and
//! [`options`] the registry of which options each program reads.
//!
//! Contract: everything here that tells programs apart is generated from
//! the registry's list (`for_each_program!`) and each program's
//! [`Chooser`] impl: no program is named by hand. A method's identity is
//! its [`Program`] ([`Method::program`], and a detection's
//! [`program`](super::verdict::Detection::program)); names are read once,
//! in [`super::program`], and nothing after tells methods apart by their
//! text. Adding a program adds nothing here (the files it touches are
//! listed on `for_each_program!` in `replay/mod.rs`).

pub use super::chooser::{Chooser, Context, Given, OptionsError, Outcome};
use super::failure::Failure;
use super::family::Family;
pub use super::program::{Method, Program};
use super::verdict::{Detection, NodeAddress};
use super::{assumed, calico};
use crate::model::{Model, ObjectKind};
use crate::netlink::names::IFF_UP;

/// `$o` in a pattern or expression where the program's variant holds
/// options (`$Opt` given), for the variant `MethodSpec::$P $((o))?`.
macro_rules! held {
    ($Opt:ident $o:ident) => {
        $o
    };
}

/// The options a variant holds, by reference (`&()` for a program that
/// takes none).
macro_rules! held_ref {
    ($Opt:ident $o:ident) => {
        $o
    };
    () => {
        &()
    };
}

/// A variant from its chooser's options (a program that takes none:
/// `()`, dropped).
macro_rules! wrap {
    ($P:ident $Opt:ident $o:ident) => {
        MethodSpec::$P($o)
    };
    ($P:ident $o:ident) => {{
        let () = $o;
        MethodSpec::$P
    }};
}

/// `MethodSpec`, every program's settings and the dispatch to each
/// program's [`Chooser`], from the registry's list.
macro_rules! registry {
    (
        $cfield:ident : $CP:ident $cname:literal { $CV:ident } => $cmodule:ident :: $cty:ident,
        $( $field:ident : $P:ident $name:literal $( ( $Opt:ident ) )? => $module:ident :: $ty:ident, )*
    ) => {
        /// A method and its settings: one variant per program, holding
        /// its chooser's options.
        #[derive(Debug, Clone)]
        pub enum MethodSpec {
            /// calico-node with an `IP_AUTODETECTION_METHOD` value, parsed once.
            $CV {
                /// `IP_AUTODETECTION_METHOD` as written: calico-node's own input
                /// (the detection names it as a [`calico::MethodText`]).
                text: String,
                /// The value as the release replayed parses it, or why it does not.
                method: Result<calico::Method, calico::MethodError>,
                /// calico-node's other settings.
                options: calico::Options,
            },
            $(
                #[doc = concat!("`", $name, "`: ", "see `replay::", stringify!($module), "::", stringify!($ty), "`.")]
                $P $( (<super::$module::$ty as Chooser>::$Opt) )?,
            )*
        }

        /// Every program's settings as given, one field per program (its
        /// chooser's `Settings`): the manifests' keys, and with the `clap`
        /// feature the command line's flags, in the registry's order.
        #[derive(Debug, Clone, Default, PartialEq)]
        #[cfg_attr(feature = "clap", derive(clap::Args))]
        pub struct ProgramSettings {
            #[doc = concat!("`", $cname, "`'s.")]
            #[cfg_attr(feature = "clap", command(flatten))]
            pub $cfield: <super::$cmodule::$cty as Chooser>::Settings,
            $(
                #[doc = concat!("`", $name, "`'s.")]
                #[cfg_attr(feature = "clap", command(flatten))]
                pub $field: <super::$module::$ty as Chooser>::Settings,
            )*
        }

        // Each chooser replays the program of its registry line (its
        // settings are found by it).
        const _: () = {
            assert!(matches!(<super::$cmodule::$cty as Chooser>::PROGRAM, Program::$CP));
            $( assert!(matches!(<super::$module::$ty as Chooser>::PROGRAM, Program::$P)); )*
        };

        impl super::chooser::AllSettings for ProgramSettings {
            fn of(&self, program: Program) -> &dyn std::any::Any {
                match program {
                    Program::$CP => &self.$cfield,
                    $( Program::$P => &self.$field, )*
                }
            }
        }

        impl ProgramSettings {
            /// The keys of every program's settings (manifest keys).
            pub fn keys() -> Vec<&'static str> {
                let mut keys: Vec<&'static str> = <super::$cmodule::$cty as Chooser>::Settings::KEYS.to_vec();
                $( keys.extend(<super::$module::$ty as Chooser>::Settings::KEYS); )*
                keys
            }

            /// Every program's settings given a value other than its
            /// default (their manifest keys).
            pub fn given(&self) -> Vec<&'static str> {
                let mut given = self.$cfield.given();
                $( given.extend(self.$field.given()); )*
                given
            }

            /// Reads one program's key of a manifest; false when no program has it.
            pub fn set<'de, A: serde::de::MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
                if self.$cfield.set(key, map)? {
                    return Ok(true);
                }
                $( if self.$field.set(key, map)? {
                    return Ok(true);
                } )*
                Ok(false)
            }
        }

        /// The keys of each program's own settings.
        #[cfg(test)]
        fn own_keys(p: Program) -> &'static [&'static str] {
            match p {
                Program::$CP => <super::$cmodule::$cty as Chooser>::Settings::KEYS,
                $( Program::$P => <super::$module::$ty as Chooser>::Settings::KEYS, )*
            }
        }

        /// The settings the method's program cannot use together, or for
        /// the nodes named (its chooser's [`Chooser::validate`]).
        pub fn validate(given: &Given<'_>) -> Result<(), OptionsError> {
            match given.method.program() {
                Program::$CP => <super::$cmodule::$cty as Chooser>::validate(given),
                $( Program::$P => <super::$module::$ty as Chooser>::validate(given), )*
            }
        }

        /// The options each program reads (their manifest keys), from its
        /// chooser: the registry of options.
        pub fn options(p: Program) -> &'static [&'static str] {
            match p {
                Program::$CP => <super::$cmodule::$cty as Chooser>::OPTIONS,
                $( Program::$P => <super::$module::$ty as Chooser>::OPTIONS, )*
            }
        }

        impl Program {
            /// What it chooses, in a few words (its chooser's doc).
            pub fn doc(self) -> &'static str {
                match self {
                    Program::$CP => <super::$cmodule::$cty as Chooser>::DOC,
                    $( Program::$P => <super::$module::$ty as Chooser>::DOC, )*
                }
            }

            /// Whether what it picks is the node's IP (Cilium's NodePort and
            /// masquerade addresses are not).
            pub fn picks_node_ip(self) -> bool {
                match self {
                    Program::$CP => <super::$cmodule::$cty as Chooser>::PICKS_NODE_IP,
                    $( Program::$P => <super::$module::$ty as Chooser>::PICKS_NODE_IP, )*
                }
            }

            /// Whether it notices another node with its address: calico-node's
            /// `checkConflictingNodes` (it logs and terminates); the others check
            /// nothing of the kind.
            pub fn checks_conflicts(self) -> bool {
                match self {
                    Program::$CP => <super::$cmodule::$cty as Chooser>::CHECKS_CONFLICTS,
                    $( Program::$P => <super::$module::$ty as Chooser>::CHECKS_CONFLICTS, )*
                }
            }

            /// How it asks the kernel for the tables (what `--at auto`
            /// looks for).
            pub fn asks(self) -> super::chooser::Asks {
                match self {
                    Program::$CP => <super::$cmodule::$cty as Chooser>::ASKS,
                    $( Program::$P => <super::$module::$ty as Chooser>::ASKS, )*
                }
            }
        }

        impl MethodSpec {
            /// The replay `cx` selects: its method's program, with the
            /// options its chooser builds from the settings.
            pub fn new(cx: &Context<'_>) -> Result<MethodSpec, OptionsError> {
                type C = super::$cmodule::$cty;
                Ok(match cx.method.program() {
                    Program::$CP => {
                        let s = <C as Chooser>::options(cx)?;
                        MethodSpec::$CV { text: s.text, method: s.method, options: s.options }
                    }
                    $( Program::$P => {
                        let o = <super::$module::$ty as Chooser>::options(cx)?;
                        wrap!($P $($Opt)? o)
                    } )*
                })
            }

            /// The program replayed.
            pub fn program(&self) -> Program {
                match self {
                    MethodSpec::$CV { .. } => Program::$CP,
                    $( MethodSpec::$P $( (held!($Opt _o)) )? => Program::$P, )*
                }
            }

            /// The program's own replay.
            fn replay(&self, model: &Model) -> Detection {
                match self {
                    MethodSpec::$CV { text, method, options } => calico::detect_parsed(model, text, method, options),
                    $( MethodSpec::$P $( (held!($Opt o)) )? => {
                        <super::$module::$ty as Chooser>::detect(model, held_ref!($($Opt o)?))
                    } )*
                }
            }

            /// Whether the answer depends on the order the interfaces are walked
            /// in (not on route order or a unique address).
            fn walks_links(&self) -> bool {
                match self {
                    MethodSpec::$CV { method, .. } => calico::walks_links(method),
                    $( MethodSpec::$P $( (held!($Opt o)) )? => {
                        <super::$module::$ty as Chooser>::walks_links(held_ref!($($Opt o)?))
                    } )*
                }
            }

            /// What the replay reads of the tables for an answer of `family`.
            fn reads(&self, family: Family) -> super::unshown::Reads {
                match self {
                    MethodSpec::$CV { method, .. } => calico::reads(method, family),
                    $( MethodSpec::$P $( (held!($Opt o)) )? => {
                        <super::$module::$ty as Chooser>::reads(held_ref!($($Opt o)?), family)
                    } )*
                }
            }

            /// The fast outcome, or the lean replay, where the program has one.
            fn quick(&self, model: &Model) -> (Option<Outcome>, Option<Detection>) {
                match self {
                    MethodSpec::$CV { method, options, .. } => (calico::outcome_parsed(model, method, options), None),
                    $( MethodSpec::$P $( (held!($Opt o)) )? => {
                        type C = super::$module::$ty;
                        let o = held_ref!($($Opt o)?);
                        match <C as Chooser>::outcome(model, o) {
                            Some(fast) => (Some(fast), None),
                            None => (None, <C as Chooser>::lean(model, o)),
                        }
                    } )*
                }
            }
        }

        /// What `--all` runs in `family` (one with a global address), in
        /// the registry's order; `spec` is `--method`'s.
        pub(crate) fn all_in_family(model: &Model, spec: &MethodSpec, family: Family, out: &mut Vec<MethodSpec>) {
            {
                type C = super::$cmodule::$cty;
                let base = match spec {
                    MethodSpec::$CV { text, method, options } => Some(calico::Spec {
                        text: text.clone(),
                        method: method.clone(),
                        options: options.clone(),
                    }),
                    _ => None,
                };
                for s in <C as Chooser>::all_in_family(model, base.as_ref(), family) {
                    out.push(MethodSpec::$CV { text: s.text, method: s.method, options: s.options });
                }
            }
            $( {
                type C = super::$module::$ty;
                #[allow(unreachable_patterns)]
                let base = match spec {
                    $( MethodSpec::$P(held!($Opt o)) => Some(o), )?
                    _ => None,
                };
                for o in <C as Chooser>::all_in_family(model, base, family) {
                    out.push(wrap!($P $($Opt)? o));
                }
            } )*
        }

        /// What `--all` runs once, after every family's, in the registry's order.
        pub(crate) fn all_once(families: &[Family], out: &mut Vec<MethodSpec>) {
            $( for o in <super::$module::$ty as Chooser>::all_once(families) {
                out.push(wrap!($P $($Opt)? o));
            } )*
        }
    };
}

for_each_program!(registry);

/// The programs that read an option (a manifest key), in `--all`'s order.
pub fn readers(option: &str) -> Vec<Program> {
    Program::ALL
        .iter()
        .copied()
        .filter(|p| options(*p).contains(&option))
        .collect()
}

/// Every option some program reads, each once.
pub fn all_options() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for p in Program::ALL {
        for o in options(*p) {
            if !all.contains(o) {
                all.push(o);
            }
        }
    }
    all
}

impl MethodSpec {
    /// The replay, with a note for each assumption its answer rests on
    /// (see [`assumed`]).
    pub fn detect(&self, model: &Model) -> Detection {
        let mut d = self.replay(model);
        if d.addresses.is_empty()
            && let Some(a) = d.address
        {
            d.addresses.push(a);
        }
        if !model.addresses_shown() {
            no_addresses(&mut d);
        }
        unknown_yet(model, &mut d);
        let (error, mut unshown) = self.unshown(model, d.family, d.address.map(|a| a.ip()), d.error.take());
        // The interface the answer names (or, for a failure, one it
        // examined) is known only by index: its name is not the host's.
        let named: Vec<String> = match (&d.interface, &error) {
            (Some(name), _) => vec![name.clone()],
            (None, Some(_)) => d.candidates.iter().map(|c| c.interface.clone()).collect(),
            (None, None) => Vec::new(),
        };
        let mut placeholders: Vec<String> = model
            .links()
            .iter()
            .filter(|l| l.placeholder)
            .map(|l| l.display_name())
            .filter(|n| named.is_empty() || named.contains(n))
            .collect();
        if named.is_empty() && error.is_none() {
            placeholders.clear();
        }
        let already = unshown
            .iter()
            .any(|u| matches!(u, super::unshown::Unshown::LinkAttributes(_)));
        if !placeholders.is_empty() && !already {
            unshown.push(super::unshown::Unshown::LinkAttributes(placeholders));
        }
        d.error = error;
        d.unshown = unshown;
        assumed::note(model, &mut d, self.walks_links());
        d.down = d
            .candidates
            .iter()
            .map(|c| c.index)
            .filter(|i| model.link(*i).is_some_and(|l| l.flags & IFF_UP == 0))
            .fold(Vec::new(), |mut v, i| {
                if !v.contains(&i) {
                    v.push(i);
                }
                v
            });
        d
    }

    /// What `--timeline` compares: the detection's address, interface and
    /// error (see [`super::verdict::Choice`]), through a faster path where the
    /// method has one. Always equal to those of [`detect`](Self::detect).
    pub fn outcome(&self, model: &Model) -> (Option<NodeAddress>, Option<String>, Option<Failure>) {
        if !model.addresses_shown() {
            let missing = match model.answered_later(ObjectKind::Addresses) {
                Some(request_packet) => Failure::UnknownYet {
                    kind: ObjectKind::Addresses,
                    request_packet,
                },
                None => Failure::NoAddressesCaptured,
            };
            return (None, None, Some(missing));
        }
        let mut d = match self.quick(model) {
            (Some(fast), _) => {
                // A failure may rest on what the capture does not show: the
                // whole replay says which family it was asked.
                if fast.0.is_none() && fast.2.is_some() && !super::unshown::everything_shown(model) {
                    let full = self.detect(model);
                    return (full.address, full.interface, full.error);
                }
                return fast;
            }
            // The whole-host replays without their candidate rows.
            (None, Some(lean)) => lean,
            (None, None) => self.detect(model),
        };
        unknown_yet(model, &mut d);
        // A failure may rest on what the capture does not show: the whole
        // replay says which family it was asked (the fast paths do not).
        if d.address.is_none() && d.error.is_some() && !super::unshown::everything_shown(model) {
            let full = self.detect(model);
            return (full.address, full.interface, full.error);
        }
        (d.address, d.interface, d.error)
    }

    /// What the answer reads that no message of the capture shows, and the
    /// failure to give: a failure the replay met on what the capture does
    /// show is no answer when what it reads is not shown (the capture's
    /// own lack, no routes or no addresses at all, or a dump answered
    /// later, is said as such).
    fn unshown(
        &self,
        model: &Model,
        family: Family,
        answer: Option<std::net::IpAddr>,
        error: Option<Failure>,
    ) -> (Option<Failure>, Vec<super::unshown::Unshown>) {
        let unshown = super::unshown::check(model, &self.reads(family), answer.map(Family::of));
        let error = match error {
            Some(e @ (Failure::NoAddressesCaptured | Failure::NoRoutesCaptured(_) | Failure::UnknownYet { .. })) => {
                Some(e)
            }
            Some(_) if !unshown.is_empty() => Some(Failure::CannotKnow(unshown.clone())),
            e => e,
        };
        (error, unshown)
    }
}

/// A replay that found no data where the dump holding it is answered
/// after this moment (`--at`) says the answer is unknown yet.
fn unknown_yet(model: &Model, d: &mut Detection) {
    let kind = match d.error {
        Some(Failure::NoAddressesCaptured) => ObjectKind::Addresses,
        Some(Failure::NoRoutesCaptured(_)) => ObjectKind::Routes,
        _ => return,
    };
    if let Some(request_packet) = model.answered_later(kind) {
        d.error = Some(Failure::UnknownYet { kind, request_packet });
    }
}

/// Every chooser reads the host's addresses: where no message showed any,
/// what the model holds (the loopback's, link-locals its rules made) is no
/// answer, and the replay says the capture cannot give one.
fn no_addresses(d: &mut Detection) {
    d.address = None;
    d.addresses.clear();
    d.interface = None;
    // (the program's own log line and the candidates' verdicts would speak
    // of addresses nothing showed)
    d.log.clear();
    d.candidates.clear();
    d.error = Some(Failure::NoAddressesCaptured);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each program reads its own settings (a key it declares but does
    /// not list would be refused for it), and names are the programs'.
    #[test]
    fn every_program_reads_its_own_settings_and_is_found_by_name() {
        for p in Program::ALL {
            for key in own_keys(*p) {
                assert!(options(*p).contains(key), "{}: does not read its own {key}", p.name());
            }
            let found = Program::by_name(p.name());
            match p {
                Program::CalicoNode => assert_eq!(found, None, "calico-node's methods are its values"),
                _ => assert_eq!(found, Some(*p)),
            }
            assert_eq!(Program::ALL.iter().filter(|q| q.name() == p.name()).count(), 1);
        }
        assert_eq!(readers("bind_address"), vec![Program::KubeApiserver]);
        assert_eq!(
            readers("cilium_device"),
            vec![Program::Cilium, Program::CiliumNodePort, Program::CiliumMasquerade]
        );
    }
}
