//! What a replayed program is to the rest of nlorder: [`Chooser`], which
//! each program's module implements on a unit type at its top (named in
//! the registry, `for_each_program!` in `replay/mod.rs`; a program that
//! takes no options implements [`Optionless`] instead, and its `Chooser`
//! follows). Everything
//! that runs, lists or configures programs is generated from that list and
//! these impls (see [`super::method`]); nothing else names a program.
//!
//! Contract: the trait names only the program's identity ([`Program`]),
//! the model and the replay's values; a program's options are built from
//! every program's settings through [`Context`] (an [`AllSettings`] seen by
//! program), so a program reading another's option (kube-apiserver reads
//! kubeadm's `advertise_address`) names that program's module, not a table
//! of all of them. Building options reads no file itself: [`Context::read`]
//! is given by the caller.

use std::any::Any;
use std::path::Path;

use super::calico::note::MethodError;
use super::failure::Failure;
use super::family::Family;
use super::program::{Method, Program};
use super::verdict::{Detection, NodeAddress};
use crate::model::Model;

/// What `--timeline` compares: a detection's address, interface and error.
pub type Outcome = (Option<NodeAddress>, Option<String>, Option<Failure>);

/// A replayed program. Implemented by a unit type in the program's
/// module; the registry line names it.
pub trait Chooser {
    /// The program it replays (its registry line's; checked when built).
    const PROGRAM: Program;
    /// Its name as `--method` and the manifests spell it (the registry's).
    const NAME: &'static str = Self::PROGRAM.name();
    /// What it chooses, in a few words.
    const DOC: &'static str;
    /// Its own settings as given (`program_options!`): the manifests'
    /// keys, and with the `clap` feature the command line's flags.
    type Settings: Default + Clone + std::fmt::Debug + PartialEq + Any;
    /// Every option it reads (manifest keys): its own settings' and those
    /// of other programs it reads too. An option given to a program that
    /// does not list it is refused.
    const OPTIONS: &'static [&'static str];
    /// What its replay reads, built once per node from the settings.
    type Options: Clone + std::fmt::Debug;
    /// Whether what it picks is the node's IP (Cilium's NodePort and
    /// masquerade addresses are not).
    const PICKS_NODE_IP: bool = true;
    /// Whether it notices another node with its address (calico-node's
    /// `checkConflictingNodes`, which logs and terminates).
    const CHECKS_CONFLICTS: bool = false;
    /// How it asks the kernel for the tables: what `--at auto` looks for.
    const ASKS: Asks = Asks::GoNetlink;

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
    /// in (not on route order or a unique address).
    fn walks_links(o: &Self::Options) -> bool;

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
    /// The program it replays (its registry line's; checked when built).
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
    const OPTIONS: &'static [&'static str] = &[];
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
    /// The settings of `program` (its chooser's `Settings`).
    fn of(&self, program: Program) -> &dyn Any;
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
        .downcast_ref::<C::Settings>()
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
