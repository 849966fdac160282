//! The order `getaddrinfo` returns, for glibc, Go's pure resolver and musl,
//! from the kernel state in the capture, with the rule that decided every
//! adjacent pair.
//!
//! Contract: [`sort`] is a pure function of the model, the candidates in
//! name-service order and the options. Each candidate's source is its
//! `--source` override, else the kernel's source-address selection
//! (`replay::source`) on the model, or, when the capture holds no routes,
//! on the model with the routes the kernel makes from its addresses
//! ([`crate::model::Model::with_inferred_routes`], said in the notes). glibc:
//! `rfc3484_sort` rules 1-10 as glibc implements them, with `__check_pf`'s
//! facts (prefix lengths and flags are known only when the host has a
//! non-loopback IPv6 address) and `/etc/gai.conf`; Go and musl: RFC 6724
//! with its own tables. Semantics: glibc's nss/getaddrinfo.c
//! (`rfc3484_sort`) and sysdeps/unix/sysv/linux/check_pf.c, Go's
//! net/addrselect.go, musl's src/network/lookup_name.c.
//!
//! Modules by job: `candidates` gathers what the resolver knows about each
//! address, `gai_conf` parses gai.conf and holds glibc's policy tables,
//! `glibc_sort` is glibc's comparator, `rfc6724` is Go's and musl's (each
//! returning the `rule` that decided a pair), `mismatch` looks for
//! assumptions that explain an observed order, and `hosts` reads a hosts
//! file and host.conf as glibc's files backend does (the candidates for a
//! name, each with its line).

mod candidates;
mod facts;
mod gai_conf;
mod glibc_sort;
pub mod hosts;
mod mismatch;
mod rfc6724;
mod rule;
mod sort;

pub use facts::{CandidateFacts, GaiNote, Options, Resolver, SourceWhy};
pub use gai_conf::{GaiConf, PolicyRow};
pub use glibc_sort::glibc_order;
pub use mismatch::{Explanation, Found, Span, explain_by_moment, explain_mismatch, spans};
pub use rule::{Rule, Scopes, SourceEntry};
pub use sort::{GaiResult, Step, sort};

#[cfg(test)]
#[path = "gai_tests.rs"]
mod tests;
