//! nlorder: rebuild a Linux host's interface, address and route tables from
//! netlink (nlmon) captures, in the kernel's own order, and explain which
//! address a node-IP detection method or resolver would pick.
//!
//! Layers, each depending only on the ones above it:
//! - [`capture`]: pcap/pcapng records and their link-layer headers
//!   ([`record`] writes them, from a live kernel);
//! - [`netlink`]: message framing and decoding of NETLINK_ROUTE;
//! - [`trace`]: a capture as a stream of decoded messages;
//! - [`looks`]: who asked the kernel for its tables, and when;
//! - [`model`]: the kernel's tables in the kernel's order, rebuilt from it;
//! - [`replay`]: node-IP detection and resolvers, replayed on the model;
//! - [`check`]: regression manifests run against recorded traces;
//! - [`report`]: printers (text, JSON Lines, summaries) fed those results;
//! - the `nlorder` binary: a thin command line over all of it.

pub mod bad_value;
pub mod capture;
pub mod check;
pub mod diag;
#[doc(hidden)]
pub mod fuzzing;
pub mod looks;
pub mod model;
pub mod moment;
pub mod netlink;
pub mod rebuild;
pub mod record;
pub mod replay;
pub mod report;
pub mod session;
pub mod trace;

#[cfg(test)]
pub(crate) mod testutil;
