//! Running a method: [`MethodSpec`] is a [`Method`] (see
//! [`super::program`]) with its program's options, [`MethodSpec::detect`]
//! the one place that runs them, [`ProgramSettings`] every program's
//! settings (the manifests' keys, the command line's flags), and
//! [`readers`] which programs read an option.
//!
//! Contract: programs are told apart through the registry's table
//! ([`super::registry`], `Program::replay`) and each program's [`Chooser`]
//! impl ([`ProgramSettings`] is the registry's too). A method's identity is its [`Program`]
//! ([`Method::program`], and a detection's
//! [`program`](super::verdict::Detection::program)); names are read once,
//! in [`super::program`], and nothing after tells methods apart by their
//! text.

use std::sync::Arc;

use super::assumed;
pub use super::chooser::{Chooser, Configured, Context, Given, OptionsError, Outcome, With};
use super::failure::Failure;
use super::family::Family;
pub use super::program::{Method, Program};
pub use super::registry::ProgramSettings;
use super::verdict::{Detection, NodeAddress};
use crate::model::{Model, ObjectKind};
use crate::netlink::names::IFF_UP;

/// A method and its settings: a program of the registry with the options
/// its chooser built from them (see [`MethodSpec::of`] to make one from
/// the options themselves).
#[derive(Debug, Clone)]
pub struct MethodSpec(Arc<dyn Configured>);

/// The settings the method's program cannot use together, or for the
/// nodes named (its chooser's [`Chooser::validate`]).
pub fn validate(given: &Given<'_>) -> Result<(), OptionsError> {
    given.method.program().replay().validate(given)
}

impl MethodSpec {
    /// The replay `cx` selects: its method's program, with the options its
    /// chooser builds from the settings.
    pub fn new(cx: &Context<'_>) -> Result<MethodSpec, OptionsError> {
        cx.method.program().replay().configure(cx).map(MethodSpec)
    }

    /// Chooser `C`'s replay with these options (calico-node's:
    /// [`super::calico::Spec`], the method as written, as parsed, and its other
    /// settings).
    pub fn of<C: Chooser + 'static>(options: C::Options) -> MethodSpec {
        MethodSpec(With::<C>::configured(options))
    }

    /// The program replayed.
    pub fn program(&self) -> Program {
        self.0.program()
    }

    /// The program's own replay.
    fn replay(&self, model: &Model) -> Detection {
        self.0.detect(model)
    }

    /// Whether the answer depends on the order the interfaces are walked
    /// in (not on route order or a unique address).
    fn walks_links(&self) -> bool {
        self.0.walks_links()
    }

    /// What the replay reads of the tables for an answer of `family`.
    fn reads(&self, family: Family) -> super::unshown::Reads {
        self.0.reads(family)
    }

    /// The fast outcome, or the lean replay, where the program has one.
    fn quick(&self, model: &Model) -> (Option<Outcome>, Option<Detection>) {
        self.0.quick(model)
    }
}

/// What `--all` runs in `family` (one with a global address), in the
/// registry's order; `spec` is `--method`'s (its options count for its
/// own program).
pub(crate) fn all_in_family(model: &Model, spec: &MethodSpec, family: Family, out: &mut Vec<MethodSpec>) {
    for r in super::registry::replays() {
        out.extend(
            r.all_in_family(model, spec.0.as_ref(), family)
                .into_iter()
                .map(MethodSpec),
        );
    }
}

/// What `--all` runs once, after every family's, in the registry's order.
pub(crate) fn all_once(families: &[Family], out: &mut Vec<MethodSpec>) {
    for r in super::registry::replays() {
        out.extend(r.all_once(families).into_iter().map(MethodSpec));
    }
}

/// The programs that read an option (a manifest key), in `--all`'s order.
pub fn readers(option: &str) -> Vec<Program> {
    Program::ALL
        .iter()
        .copied()
        .filter(|p| p.options().contains(&option))
        .collect()
}

/// Every option some program reads, each once.
pub fn all_options() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for p in Program::ALL {
        for o in p.options() {
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
            for key in ProgramSettings::own_keys(*p) {
                assert!(p.options().contains(key), "{}: does not read its own {key}", p.name());
            }
            let found = Program::by_name(p.name());
            match p.is_calico_node() {
                true => assert_eq!(found, None, "calico-node's methods are its values"),
                false => assert_eq!(found, Some(*p)),
            }
        }
        let names = |ps: Vec<Program>| ps.iter().map(|p| p.name()).collect::<Vec<_>>();
        assert_eq!(names(readers("bind_address")), ["kube-apiserver"]);
        assert_eq!(
            names(readers("cilium_device")),
            ["cilium", "cilium-nodeport", "cilium-masquerade"]
        );
    }
}
