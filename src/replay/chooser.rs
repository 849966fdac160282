//! What a replayed program is to the rest of nlorder: [`Chooser`], which
//! each program's module implements on a unit type at its top (a program
//! that takes no options implements [`Optionless`] instead, and its
//! `Chooser` follows). Every `Chooser` is a [`Replay`], the object-safe
//! form the registry's one table holds (`replay/registry.rs`), with its
//! options behind [`Configured`] ([`With`] a chooser's options): what
//! runs, lists or configures programs goes through that table.
//!
//! Contract: the trait names only the program's identity ([`Program`]),
//! the model and the replay's values; a program's options are built from
//! every program's settings through [`Context`] (an [`AllSettings`] seen by
//! program), so a program reading another's option (kube-apiserver reads
//! kubeadm's `advertise_address`) names that program's module, not a table
//! of all of them. Building options reads no file itself: [`Context::read`]
//! is given by the caller.

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use super::calico::note::MethodError;
use super::failure::Failure;
use super::family::Family;
use super::program::{Method, Program, Word};
use super::verdict::{Detection, NodeAddress};
use crate::model::Model;

/// What `--timeline` compares: a detection's address, interface and error.
pub type Outcome = (Option<NodeAddress>, Option<String>, Option<Failure>);

/// A replayed program. Implemented by a unit type in the program's
/// module; the registry line names it.
pub trait Chooser {
    /// The program it replays (its name: `Program::named`).
    const PROGRAM: Program;
    /// Its name as `--method` and the manifests spell it (its `Program`'s).
    const NAME: &'static str = Self::PROGRAM.name();
    /// What it chooses, in a few words.
    const DOC: &'static str;
    /// Its own settings as given (`program_options!`): the manifests'
    /// keys, and with the `clap` feature the command line's flags.
    type Settings: Default + Clone + std::fmt::Debug + PartialEq + Any + super::options::Keys;
    /// Every option it reads (manifest keys): its own settings' and those
    /// of other programs it reads too. An option given to a program that
    /// does not list it is refused. Default: its own settings' keys.
    const OPTIONS: &'static [&'static str] = <Self::Settings as super::options::Keys>::KEYS;
    /// What its replay reads, built once per node from the settings.
    type Options: Clone + std::fmt::Debug + Send + Sync + 'static;
    /// Whether what it picks is the node's IP (Cilium's NodePort and
    /// masquerade addresses are not).
    const PICKS_NODE_IP: bool = true;
    /// Whether it notices another node with its address (calico-node's
    /// `checkConflictingNodes`, which logs and terminates).
    const CHECKS_CONFLICTS: bool = false;
    /// How it asks the kernel for the tables: what `--at auto` looks for.
    const ASKS: Asks = Asks::GoNetlink;
    /// How its failure on a capture without routes is said. Default: the
    /// common sentence, that it reads the default routes.
    const NO_ROUTES: NoRoutes = NoRoutes::Reads;
    /// The step of its own logic the default-route walk is, where it
    /// numbers its steps (kubelet's 4).
    const WALK_STEP: Option<u8> = None;

    /// Its options from the settings, or why they cannot be used.
    fn options(cx: &Context<'_>) -> Result<Self::Options, OptionsError>;

    /// Settings it cannot use together, or for the nodes named, checked
    /// once before any capture is read (after every option given was
    /// found to be one it reads). Default: none.
    fn validate(_given: &Given<'_>) -> Result<(), OptionsError> {
        Ok(())
    }

    /// Its replay.
    fn detect(model: &Model, o: &Self::Options) -> Detection;

    /// Whether the answer depends on the order the interfaces are walked
    /// in (not on route order or a unique address). Default: no.
    fn walks_links(_o: &Self::Options) -> bool {
        false
    }

    /// What the replay reads of the tables for an answer of `family`: the
    /// addresses of that family on links filtered by name or state unless
    /// it says otherwise (checked against what the capture shows, see
    /// [`super::unshown`]).
    fn reads(_o: &Self::Options, family: Family) -> super::unshown::Reads {
        super::unshown::Reads::walk(family)
    }

    /// `--timeline`'s fast path, where it has one: the outcome of
    /// [`detect`](Self::detect) without its candidate rows (None: none).
    fn outcome(_model: &Model, _o: &Self::Options) -> Option<Outcome> {
        None
    }

    /// The replay without candidate rows, where it has one (the whole-host
    /// replays); its outcome equals [`detect`](Self::detect)'s.
    fn lean(_model: &Model, _o: &Self::Options) -> Option<Detection> {
        None
    }

    /// What `--all` runs for `family` (called for each family with a
    /// global address), given the options `--method` gave it if it named
    /// this program (`base`). Default: nothing.
    fn all_in_family(_model: &Model, _base: Option<&Self::Options>, _family: Family) -> Vec<Self::Options> {
        Vec::new()
    }

    /// What `--all` runs once, after every family's (`families`: those
    /// asked for). Default: nothing.
    fn all_once(_families: &[Family]) -> Vec<Self::Options> {
        Vec::new()
    }
}

/// A program that takes no options (nlorder replays its defaults only):
/// its replay and what it reads. Its [`Chooser`] follows: no settings, no
/// options, and `--all` runs it once.
pub trait Optionless {
    /// The program it replays ([`Chooser::PROGRAM`]).
    const PROGRAM: Program;
    /// What it chooses, in a few words.
    const DOC: &'static str;
    /// Whether the answer depends on the order the interfaces are walked
    /// in ([`Chooser::walks_links`]).
    const WALKS_LINKS: bool;

    /// Its replay.
    fn detect(model: &Model) -> Detection;

    /// What the replay reads of the tables ([`Chooser::reads`]).
    fn reads(family: Family) -> super::unshown::Reads {
        super::unshown::Reads::walk(family)
    }

    /// The replay without candidate rows, where it has one
    /// ([`Chooser::lean`]).
    fn lean(_model: &Model) -> Option<Detection> {
        None
    }
}

impl<P: Optionless> Chooser for P {
    const PROGRAM: Program = <P as Optionless>::PROGRAM;
    const DOC: &'static str = <P as Optionless>::DOC;
    type Settings = NoSettings;
    type Options = ();

    fn options(_: &Context<'_>) -> Result<(), OptionsError> {
        Ok(())
    }

    fn detect(model: &Model, _: &()) -> Detection {
        <P as Optionless>::detect(model)
    }

    fn walks_links(_: &()) -> bool {
        P::WALKS_LINKS
    }

    fn reads(_: &(), family: Family) -> super::unshown::Reads {
        <P as Optionless>::reads(family)
    }

    fn lean(model: &Model, _: &()) -> Option<Detection> {
        <P as Optionless>::lean(model)
    }

    fn all_once(_: &[Family]) -> Vec<()> {
        vec![()]
    }
}

/// A program as the registry's table holds it (`Program::replay` finds
/// it): what its [`Chooser`] says, with its options behind [`Configured`],
/// so that one table ([`Program::ALL`], in `replay/registry.rs`) holds
/// every program and dispatch goes through it.
/// Every [`Chooser`] is one.
pub trait Replay: Sync {
    /// The program it replays.
    fn program(&self) -> Program;
    /// How its failure on a capture without routes is said
    /// ([`Chooser::NO_ROUTES`]).
    fn no_routes(&self) -> NoRoutes;
    /// The step its default-route walk is ([`Chooser::WALK_STEP`]).
    fn walk_step(&self) -> Option<u8>;
    /// What it chooses, in a few words ([`Chooser::DOC`]).
    fn doc(&self) -> &'static str;
    /// Every option it reads ([`Chooser::OPTIONS`]).
    fn options_read(&self) -> &'static [&'static str];
    /// Whether what it picks is the node's IP ([`Chooser::PICKS_NODE_IP`]).
    fn picks_node_ip(&self) -> bool;
    /// Whether it notices another node with its address
    /// ([`Chooser::CHECKS_CONFLICTS`]).
    fn checks_conflicts(&self) -> bool;
    /// How it asks the kernel for the tables ([`Chooser::ASKS`]).
    fn asks(&self) -> Asks;
    /// Settings it cannot use together ([`Chooser::validate`]).
    fn validate(&self, given: &Given<'_>) -> Result<(), OptionsError>;
    /// Its replay with the options built from the settings
    /// ([`Chooser::options`]).
    fn configure(&self, cx: &Context<'_>) -> Result<Arc<dyn Configured>, OptionsError>;
    /// What `--all` runs for `family` ([`Chooser::all_in_family`]), given
    /// `--method`'s replay (its options count when it is this program's).
    fn all_in_family(&self, model: &Model, base: &dyn Configured, family: Family) -> Vec<Arc<dyn Configured>>;
    /// What `--all` runs once ([`Chooser::all_once`]).
    fn all_once(&self, families: &[Family]) -> Vec<Arc<dyn Configured>>;
}

/// A program's replay with its options: what a method runs (the
/// registry's `MethodSpec` holds one).
pub trait Configured: Send + Sync + fmt::Debug {
    /// The program replayed.
    fn program(&self) -> Program;
    /// Its replay ([`Chooser::detect`]).
    fn detect(&self, model: &Model) -> Detection;
    /// Whether the answer depends on the order the interfaces are walked
    /// in ([`Chooser::walks_links`]).
    fn walks_links(&self) -> bool;
    /// What the replay reads of the tables ([`Chooser::reads`]).
    fn reads(&self, family: Family) -> super::unshown::Reads;
    /// The fast outcome ([`Chooser::outcome`]), else the lean replay
    /// ([`Chooser::lean`]), where the program has one.
    fn quick(&self, model: &Model) -> (Option<Outcome>, Option<Detection>);
    /// Itself, to find a program's own options among any ([`With`]).
    fn as_any(&self) -> &dyn Any;
}

/// Chooser `C`'s replay with its options.
pub struct With<C: Chooser>(pub C::Options, PhantomData<fn() -> C>);

impl<C: Chooser> With<C> {
    /// `C`'s replay with these options, as a method runs it.
    pub fn configured(options: C::Options) -> Arc<dyn Configured>
    where
        C: 'static,
    {
        Arc::new(With::<C>(options, PhantomData))
    }
}

impl<C: Chooser> fmt::Debug for With<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple(C::NAME).field(&self.0).finish()
    }
}

impl<C: Chooser + 'static> Configured for With<C> {
    fn program(&self) -> Program {
        C::PROGRAM
    }

    fn detect(&self, model: &Model) -> Detection {
        <C as Chooser>::detect(model, &self.0)
    }

    fn walks_links(&self) -> bool {
        <C as Chooser>::walks_links(&self.0)
    }

    fn reads(&self, family: Family) -> super::unshown::Reads {
        <C as Chooser>::reads(&self.0, family)
    }

    fn quick(&self, model: &Model) -> (Option<Outcome>, Option<Detection>) {
        match <C as Chooser>::outcome(model, &self.0) {
            Some(fast) => (Some(fast), None),
            None => (None, <C as Chooser>::lean(model, &self.0)),
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl<C: Chooser + Sync + 'static> Replay for C {
    fn program(&self) -> Program {
        C::PROGRAM
    }

    fn no_routes(&self) -> NoRoutes {
        C::NO_ROUTES
    }

    fn walk_step(&self) -> Option<u8> {
        C::WALK_STEP
    }

    fn doc(&self) -> &'static str {
        C::DOC
    }

    fn options_read(&self) -> &'static [&'static str] {
        C::OPTIONS
    }

    fn picks_node_ip(&self) -> bool {
        C::PICKS_NODE_IP
    }

    fn checks_conflicts(&self) -> bool {
        C::CHECKS_CONFLICTS
    }

    fn asks(&self) -> Asks {
        C::ASKS
    }

    fn validate(&self, given: &Given<'_>) -> Result<(), OptionsError> {
        <C as Chooser>::validate(given)
    }

    fn configure(&self, cx: &Context<'_>) -> Result<Arc<dyn Configured>, OptionsError> {
        <C as Chooser>::options(cx).map(With::<C>::configured)
    }

    fn all_in_family(&self, model: &Model, base: &dyn Configured, family: Family) -> Vec<Arc<dyn Configured>> {
        let base = base.as_any().downcast_ref::<With<C>>().map(|w| &w.0);
        <C as Chooser>::all_in_family(model, base, family)
            .into_iter()
            .map(With::<C>::configured)
            .collect()
    }

    fn all_once(&self, families: &[Family]) -> Vec<Arc<dyn Configured>> {
        <C as Chooser>::all_once(families)
            .into_iter()
            .map(With::<C>::configured)
            .collect()
    }
}

/// A program replayed in one version only stands for its logic: its
/// chooser is its semantics, worded by the chooser's `Display`.
impl<C: Chooser + Word> super::program::OwnWord<super::semantics::Semantics> for C {}

/// How a program's failure on a capture without routes
/// ([`Failure::NoRoutesCaptured`]) is said.
#[derive(Debug, Clone, Copy)]
pub enum NoRoutes {
    /// The common sentence: it reads the default routes.
    Reads,
    /// The common sentence for a program that walks them
    /// (apimachinery's walk, as kubeadm and k3s say it).
    Walks,
    /// Its own failure, worded in its wording file.
    Own(&'static dyn Word),
}

/// How a program asks the kernel for what it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asks {
    /// Dumps through Go's `net` package, `syscall.NetlinkRIB` or
    /// vishvananda/netlink: the looks `--at auto` finds.
    GoNetlink,
    /// `ip route get`: one request, not a dump, which `--at auto` does
    /// not find as a look.
    IpRouteGet,
}

/// Every program's settings, by program (implemented by the registry's
/// `ProgramSettings`).
pub trait AllSettings {
    /// The settings of `program` (its chooser's `Settings`), if it has a
    /// line in the registry.
    fn of(&self, program: Program) -> Option<&dyn Any>;
}

/// What a program's options are built from.
pub struct Context<'a> {
    /// Every program's settings.
    pub settings: &'a dyn AllSettings,
    /// The method asked for.
    pub method: &'a Method,
    /// `--family`, if given.
    pub family: Option<Family>,
    /// The node (the capture's name).
    pub node: &'a str,
    /// Reads a file named by a setting (a hosts file): its bytes, or why not.
    pub read: &'a dyn Fn(&Path) -> Result<Vec<u8>, String>,
}

/// The settings of chooser `C` among every program's (its defaults if
/// none were kept).
fn settings_of<C: Chooser>(all: &dyn AllSettings) -> C::Settings {
    all.of(C::PROGRAM)
        .and_then(|s| s.downcast_ref::<C::Settings>())
        .cloned()
        .unwrap_or_default()
}

impl Context<'_> {
    /// The settings of chooser `C` (its defaults if none were kept).
    pub fn settings<C: Chooser>(&self) -> C::Settings {
        settings_of::<C>(self.settings)
    }

    /// The family asked for (IPv4 unless said).
    pub fn family(&self) -> Family {
        self.family.unwrap_or_default()
    }
}

/// What [`Chooser::validate`] checks: the settings as given, for every
/// node named.
pub struct Given<'a> {
    /// Every program's settings.
    pub settings: &'a dyn AllSettings,
    /// The method asked for.
    pub method: &'a Method,
    /// `--family`, if given.
    pub family: Option<Family>,
    /// The nodes (the captures' names).
    pub nodes: &'a [String],
}

impl Given<'_> {
    /// The settings of chooser `C` (its defaults if none were kept).
    pub fn settings<C: Chooser>(&self) -> C::Settings {
        settings_of::<C>(self.settings)
    }
}

/// Settings a program cannot use (values; `app::settings` words them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionsError {
    /// A pattern or CIDR of calico-node's method does not compile.
    Pattern(MethodError),
    /// A file a setting names cannot be read (its name and why).
    Unreadable(String),
    /// kubelet: a hosts file to look the node name up in, and its answers given too.
    HostsAndResolved,
    /// calico-node: resolver answers for a method that resolves no name.
    ResolvedNotRead(Method),
    /// calico-node's kubernetes-internal-ip without the Node's InternalIP.
    NoInternalIp,
    /// calico-node's kubernetes-internal-ip: no InternalIP given applies
    /// to this node (the node, and the nodes some were given for).
    NoInternalIpFor(String, String),
    /// kubelet: `--family` against the family of its first `--node-ip`.
    FamilyConflict(Family, std::net::IpAddr),
}

program_options! {
    /// The settings of a program that takes none.
    pub struct NoSettings {}
}
