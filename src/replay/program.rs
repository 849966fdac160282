//! The programs nlorder replays: [`Program`], the identity of a node-IP
//! chooser everywhere (a detection's
//! [`program`](super::verdict::Detection::program), `--all`'s agreement,
//! conflicts, failures and notes that name a program): its name, made by
//! the program's own module (its `Chooser::PROGRAM`). The list of them, in
//! `--all`'s order, with each one's replay, is the registry's one table
//! ([`Program::ALL`], `Program::replay`, in [`super::registry`]).
//! [`Method`] is `--method` (or a manifest's `method`) parsed once: a
//! program, or calico-node's `IP_AUTODETECTION_METHOD` ([`MethodText`],
//! which calico's replay parses per release). [`Own`] holds a value of one
//! program's own vocabulary (its notes, reasons, failures and semantics),
//! which the common enums nest without naming the program.
//!
//! Contract: names only [`MethodText`] (a leaf), so every program's module
//! may name [`Program`] (the registry, which names them all, is apart).
//! The name is the program as `--method` and the manifests spell it
//! (calico-node's methods are spelt by their `IP_AUTODETECTION_METHOD`
//! value instead).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use super::calico::text::MethodText;

/// A program nlorder replays, by its name (`--method`'s): each program's
/// module makes its own (`Chooser::PROGRAM`), and the registry's table
/// lists each once with its replay. Programs order as `--all` lists them
/// (`Ord`, beside the table).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Program(&'static str);

impl Program {
    /// calico-node, whose methods are spelt by their
    /// `IP_AUTODETECTION_METHOD` value ([`Method::Calico`]).
    pub const CALICO_NODE: Program = Program("calico-node");

    /// The program called `name` (as `--method` spells it): for its own
    /// module's `Chooser::PROGRAM` only (the registry's test holds each
    /// name to one line of the table); others find a program by
    /// [`Program::by_name`] or in [`Program::ALL`], so none names a program
    /// the table lacks.
    pub(crate) const fn named(name: &'static str) -> Program {
        Program(name)
    }

    /// The program as the command line and the manifests spell it
    /// (`calico-node`, `kubelet`, ...: `--method`'s names).
    pub const fn name(self) -> &'static str {
        self.0
    }

    /// The program `--method NAME` names, if it names one besides
    /// calico-node (whose methods are its `IP_AUTODETECTION_METHOD`
    /// values).
    pub fn by_name(name: &str) -> Option<Program> {
        Program::ALL
            .iter()
            .copied()
            .filter(|p| !p.is_calico_node())
            .find(|p| p.name() == name)
    }

    /// Whether it is calico-node.
    pub fn is_calico_node(self) -> bool {
        self == Program::CALICO_NODE
    }
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A detection method, parsed once from `--method` or a manifest's
/// `method`: the name of a program that picks a node IP, or else a
/// calico-node `IP_AUTODETECTION_METHOD` value (calico-node's default
/// program; what calico-node itself rejects, it rejects in the replay).
/// The programs are listed once, by [`Program`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// calico-node, with the `IP_AUTODETECTION_METHOD` value as written
    /// (parsed by [`super::calico::method::Method::parse`] for the release replayed).
    Calico(MethodText),
    /// Any other program, by its name (never calico-node, whose methods
    /// are [`Method::Calico`]).
    Program(Program),
}

impl Method {
    /// The program whose settings these are.
    pub fn program(&self) -> Program {
        match self {
            Method::Calico(_) => Program::CALICO_NODE,
            Method::Program(p) => *p,
        }
    }

    /// The calico-node method, if it is one.
    pub fn calico(&self) -> Option<&MethodText> {
        match self {
            Method::Calico(text) => Some(text),
            Method::Program(_) => None,
        }
    }
}

impl From<Program> for Method {
    /// A program's method; calico-node's is its default, `first-found`.
    fn from(p: Program) -> Method {
        match p.is_calico_node() {
            true => Method::default(),
            false => Method::Program(p),
        }
    }
}

impl From<MethodText> for Method {
    fn from(text: MethodText) -> Method {
        Method::Calico(text)
    }
}

impl Default for Method {
    fn default() -> Self {
        Method::Calico(MethodText::default())
    }
}

impl From<&str> for Method {
    fn from(s: &str) -> Method {
        match Program::by_name(s) {
            Some(p) => Method::Program(p),
            None => Method::Calico(MethodText::new(s)),
        }
    }
}

impl Method {
    /// A calico-node method that is no `IP_AUTODETECTION_METHOD` form at
    /// all (no `=`, not `first-found` or `kubernetes-internal-ip`) but is
    /// within one edit in four letters of a program's name (two letters
    /// swapped count as one edit): most likely
    /// that program, misspelt.
    pub fn misspelt_program(&self) -> Option<Program> {
        let Method::Calico(text) = self else { return None };
        let t = text.as_str();
        if t.contains('=') || t.is_empty() || t == "first-found" || text.is_kubernetes_internal_ip() {
            return None;
        }
        Program::ALL
            .iter()
            .copied()
            .filter(|p| !p.is_calico_node())
            // (`eth1` is an interface name, two edits from etcd, and
            // calico-node's to reject)
            .filter_map(|p| slip(t, p.name()).filter(|d| *d > 0).map(|d| (d, p)))
            .min_by_key(|(d, _)| *d)
            .map(|(_, p)| p)
    }
}

impl std::str::FromStr for Method {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Method::from(s))
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Method::Calico(text) => text.fmt(f),
            Method::Program(p) => f.write_str(p.name()),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Method {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Method::from(String::deserialize(d)?.as_str()))
    }
}

/// JSON spells a method as the command line does.
impl serde::Serialize for Method {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A value of one program's own vocabulary (a note, a reason, a failure or
/// what its replay stands for: the types of its folder's `note.rs`),
/// worded by its `Display` in the program's wording file
/// (`report/<program>.rs`). Every such type is one: the common enums nest
/// it as [`Own`] without naming the program.
pub trait Word: fmt::Display + fmt::Debug + Send + Sync + 'static {
    /// Whether `other` is the same value (of the same type).
    fn same(&self, other: &dyn Word) -> bool;
    /// Itself, to compare with another of its type.
    fn as_any(&self) -> &dyn Any;
}

impl<T: fmt::Display + fmt::Debug + PartialEq + Send + Sync + 'static> Word for T {
    fn same(&self, other: &dyn Word) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A type of a program's own vocabulary that nests in the common `Kind`
/// ([`super::note::Note`], [`super::reason::Reason`],
/// [`super::failure::Failure`] or [`super::semantics::Semantics`]), by
/// `From`: its folder's `note.rs` says which it is, beside the type.
pub trait OwnWord<Kind>: Word {}

/// One program's own note, reason, failure or semantics, as the common
/// enums hold it ([`super::note::Note::Own`], ...): compared, cloned,
/// shown and worded as the value itself.
#[derive(Clone)]
pub struct Own(Arc<dyn Word>);

impl Own {
    /// A program's own value.
    pub fn new(word: impl Word) -> Own {
        Own(Arc::new(word))
    }

    /// The value, if it is a `T` (a test's or a program's look at its own).
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }
}

impl PartialEq for Own {
    fn eq(&self, other: &Own) -> bool {
        self.0.same(&*other.0)
    }
}

impl Eq for Own {}

impl fmt::Debug for Own {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A program's words, as its wording file has them.
impl fmt::Display for Own {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The one rule for "did you mean": how far a name the user typed is from
/// a name nlorder knows (a program's, a calico-node method's); the words
/// around a suggestion are the report's.
///
/// The edits from `typed` to `known` (optimal string alignment: two letters
/// swapped count as one edit) when there is at most one in four letters of
/// `known`, 0 when they are the same; `None` when they are further apart
/// (`eth1` is two edits from `etcd`: an interface name, not a slip).
pub(crate) fn slip(typed: &str, known: &str) -> Option<usize> {
    let d = strsim::osa_distance(typed, known);
    (d * 4 <= known.len()).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::slip;

    #[test]
    fn one_edit_in_four_letters() {
        assert_eq!(slip("first-fund", "first-found"), Some(1));
        assert_eq!(slip("frist-found", "first-found"), Some(1));
        assert_eq!(slip("first-found", "first-found"), Some(0));
        assert_eq!(slip("eth1", "etcd"), None);
        assert_eq!(slip("kubelte", "kubelet"), Some(1));
        assert_eq!(slip("nomda", "nomad"), Some(1));
        assert_eq!(slip("nmoad", "nomad"), Some(1));
        assert_eq!(slip("nmda", "nomad"), None);
    }
}
