//! Display filters and field columns over what `decode`, `timeline` and
//! `who` list, in the spirit of tshark's `-Y` and `-T fields -e`.
//!
//! Contract: [`Filter::parse`] reads a small expression
//! (`type == RTM_NEWADDR && dev == "eth0"`, `packet in {10..20}`,
//! `addr == 10.0.0.0/8 || !request`) into a typed tree, refusing fields the
//! listing cannot give and literals of the wrong kind, with the column of
//! the mistake. [`Filter::matches`] evaluates it against anything that
//! implements [`Fields`] (a message, a change, a request; see [`records`]).
//! As in tshark, a comparison on a field the record does not have is false,
//! and a bare field name is true when the record has the field (and it is
//! not `false`). Nothing here prints: values are typed and reports choose
//! how columns look.

mod expr;
mod field;
pub mod records;

#[cfg(test)]
#[path = "filter_tests.rs"]
mod tests;

pub use expr::{Filter, FilterError, LiteralProblem, parse_fields};
pub use field::{Field, Fields, Kind, Value};
