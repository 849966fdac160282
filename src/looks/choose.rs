//! The look `--at auto` replays for a program: which program stands
//! behind a replay, and the last (or every) look of it.
//!
//! Contract: the choice is a value ([`Chosen`]), worded in
//! `report::moment`.

use super::library::Library;
use super::look::Look;

/// The program a replay stands for, as `--at auto` looks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Looker {
    /// A Go program: Calico, kubelet, flannel.
    Go,
    /// Go's own resolver (`netdns=go`): it asks netlink for nothing (it
    /// learns sources by connecting UDP sockets), but the program around
    /// it usually enumerates its interfaces (kubelet does), and that dump's
    /// port id is its process id. Its moment is inferred from the looks of
    /// Go programs whose port never sent glibc's `__check_pf` (a port that
    /// did is a cgo program, whose lookups go through glibc).
    GoResolver,
    /// glibc's getaddrinfo.
    GlibcGetaddrinfo,
    /// A program that asks with one request, not a dump (Ansible's `ip
    /// route get`): no look is found for it.
    OneRequest,
    /// A resolver that never asks netlink for the tables and lives in no
    /// program that does (musl's learns its sources by connecting UDP
    /// sockets): no dump in a capture shows when it ran.
    Nobody,
}

impl Looker {
    /// Whether a request of `l` may end a look of this program (for Go's
    /// resolver, before its port is known not to be a cgo program's).
    pub fn wants(self, l: Library) -> bool {
        match self {
            Looker::Go | Looker::GoResolver => l.is_go(),
            Looker::GlibcGetaddrinfo => l.is_glibc_getaddrinfo(),
            Looker::Nobody | Looker::OneRequest => false,
        }
    }

    /// Whether a look of this program only suggests when it resolved (the
    /// moment is inferred, not seen).
    pub fn inferred(self) -> bool {
        self == Looker::GoResolver
    }
}

/// Ports of Go programs' looks that also sent glibc's `__check_pf` (or
/// `__check_native`) in `looks`: Go programs built with cgo, whose lookups
/// go through glibc, so not Go's own resolver.
fn cgo_ports(looks: &[Look]) -> std::collections::BTreeSet<u32> {
    let glibc: std::collections::BTreeSet<u32> = looks
        .iter()
        .filter(|l| l.library.is_glibc_getaddrinfo())
        .filter_map(|l| l.port)
        .collect();
    looks
        .iter()
        .filter(|l| l.library.is_go())
        .filter_map(|l| l.port)
        .filter(|p| glibc.contains(p))
        .collect()
}

/// Why `--at auto` evaluated at a moment (worded in `report::moment`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chosen {
    /// A look of the program.
    Look(ChosenLook),
    /// The end of the capture: the resolver asks netlink for nothing, so
    /// no look marks its moment ([`Looker::Nobody`]).
    NobodyAsks,
    /// The end of the capture: Go's own resolver asks netlink for nothing,
    /// and no Go program whose port sent no `__check_pf` enumerated
    /// interfaces.
    NoGoProgramLooked,
    /// The end of the capture: no look of this program in it.
    NoLook(Looker),
    /// The end of the capture: the program asks with one request (`ip
    /// route get`), which is not found as a look ([`Looker::OneRequest`]).
    OneRequest,
}

/// One look `--at auto` chose, and what the choice rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenLook {
    /// The program looked for.
    pub looker: Looker,
    /// `--all-looks`: every look was taken, not only the last.
    pub every: bool,
    /// The looks of the program in the capture (the cgo programs' left out).
    pub total: usize,
    /// Go's resolver: ports of Go programs that also sent `__check_pf`
    /// (cgo programs), left out.
    pub cgo_ports: Vec<u32>,
    /// The look itself.
    pub look: Look,
}

/// The looks `--at auto` replays: the last one of `who` (every one with
/// `every`), each with what it was chosen on; empty when there is none.
///
/// For Go's own resolver ([`Looker::GoResolver`]) the looks are those of Go
/// programs whose port sent no `__check_pf` anywhere in the capture.
pub fn choose(looks: &[Look], who: Looker, every: bool) -> Vec<ChosenLook> {
    let cgo = match who {
        Looker::GoResolver => cgo_ports(looks),
        _ => std::collections::BTreeSet::new(),
    };
    let mut picked: Vec<&Look> = looks
        .iter()
        .filter(|l| who.wants(l.library) && !l.port.is_some_and(|p| cgo.contains(&p)))
        .collect();
    let total = picked.len();
    if !every && let Some(last) = picked.pop() {
        picked = vec![last];
    }
    picked
        .into_iter()
        .map(|l| ChosenLook {
            looker: who,
            every,
            total,
            cgo_ports: cgo.iter().copied().collect(),
            look: l.clone(),
        })
        .collect()
}
