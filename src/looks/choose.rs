//! The look `--at auto` replays for a program: which program stands
//! behind a replay, and the last (or every) look of it.

use crate::model::ObjectKind;

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
            Looker::Nobody => false,
        }
    }

    /// The program's name in `--at auto`'s messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Looker::Go => "Go program",
            Looker::GoResolver => "Go program",
            Looker::GlibcGetaddrinfo => "glibc getaddrinfo",
            Looker::Nobody => "resolver that asks netlink for nothing",
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

/// `links and addresses`.
fn kinds(asked: &[ObjectKind]) -> String {
    let names: Vec<&str> = [
        (ObjectKind::Links, "links"),
        (ObjectKind::Addresses, "addresses"),
        (ObjectKind::Routes, "routes"),
    ]
    .iter()
    .filter(|(k, _)| asked.contains(k))
    .map(|(_, n)| *n)
    .collect();
    match names.as_slice() {
        [one] => (*one).to_owned(),
        [a, b] => format!("{a} and {b}"),
        _ => names.join(", "),
    }
}

/// The looks `--at auto` replays: the last one of `who` (every one with
/// `every`), each with the reason it was chosen; empty when there is none.
///
/// For Go's own resolver ([`Looker::GoResolver`]) the looks are those of Go
/// programs whose port sent no `__check_pf` anywhere in the capture, and
/// the reason says the moment is inferred.
pub fn choose(looks: &[Look], who: Looker, every: bool) -> Vec<(Look, String)> {
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
    let (label, why) = if who.inferred() {
        let left_out = match cgo.len() {
            0 => String::new(),
            n => format!(
                "; port{} {} also sent __check_pf: {}, left out",
                if n == 1 { "" } else { "s" },
                cgo.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
                if n == 1 { "a cgo program" } else { "cgo programs" },
            ),
        };
        (
            ", inferred",
            format!(
                ". Go's own resolver asks netlink for nothing; the program that resolves usually enumerates \
                 its interfaces too, and a look's port is its process id{left_out}"
            ),
        )
    } else {
        ("", String::new())
    };
    picked
        .into_iter()
        .map(|l| {
            let which = if every {
                format!("look {} of the capture", l.number)
            } else {
                format!("the last of {total} {} looks", who.name())
            };
            let port = l.port.map(|p| format!(", port {p}")).unwrap_or_default();
            (
                l.clone(),
                format!(
                    "--at auto{label}: {which}: {} ({}){port}, requests in packets {}; its {} as those dumps returned them{why}",
                    l.library.name(),
                    l.confidence.name(),
                    l.requests.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
                    kinds(&l.asked),
                ),
            )
        })
        .collect()
}
