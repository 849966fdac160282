//! nlorder: rebuild a Linux host's interface, address and route tables from
//! netlink (nlmon) captures, in the kernel's own order, and explain which
//! address a node-IP detection method or resolver would pick.
//!
//! Layers, each depending only on the ones above it (`cli/tests/layers.rs`
//! holds the code to this list):
//! - [`capture`]: pcap/pcapng records and their link-layer headers, and
//!   a capture written back as pcapng with comments ([`record`] writes
//!   captures from a live kernel);
//! - [`netlink`]: message framing and decoding of NETLINK_ROUTE;
//! - [`ingest::trace`]: a capture as a stream of decoded messages;
//! - [`model`]: the kernel's tables in the kernel's order, rebuilt from it;
//! - [`looks`]: who asked the kernel for its tables, and when;
//! - [`ingest::moment`] and [`ingest::rebuild`]: a capture replayed into
//!   the model, up to a moment (`--at`), change by change, or at each look,
//!   in one pass ([`ingest`] holds the three files of this stage, from
//!   decoding to the model);
//! - [`replay`]: node-IP detection methods and resolvers, pure functions of
//!   the model, one module per program ([`replay::method`] reads
//!   `--method` and runs one);
//! - [`report`]: printers (text, JSON, JUnit, the stderr summary) fed those
//!   results, and the words for the values the model, the looks and the
//!   replays return (assumptions, evidence, reasons, notes, failures);
//! - [`app`]: one typed request per subcommand (`app::detect::Detect`,
//!   `app::gai::Gai`, ...) that runs the pipeline and the printers, with
//!   the settings the command line and the regression manifests share,
//!   and the manifests themselves ([`app::check`]);
//! - the `nlorder` binary (`cli/`, its own crate: clap and the progress
//!   bar live there): maps flags to a request and its status to an exit
//!   code.
//!
//! # Example
//!
//! Rebuild the tables of a captured host and replay Calico's `first-found`
//! on them (the incident behind `fixtures/incident-nerdctl.pcap`: a bridge
//! created last wins, because calico-node walks links in reverse order):
//!
//! ```
//! use nlorder::capture::CaptureReader;
//! use nlorder::model::ModelOptions;
//! use nlorder::ingest::rebuild::rebuild_to_end;
//! use nlorder::replay::calico;
//!
//! let file = std::fs::File::open("fixtures/incident-nerdctl.pcap")?;
//! let mut reader = CaptureReader::new(file)?;
//! // the tables at the end of the capture (`rebuild::rebuild` stops earlier
//! // with `--at`'s moments, and reports each change to a sink)
//! let (rebuilt, _warnings) = rebuild_to_end(&mut reader, ModelOptions::default())?;
//! let answer = calico::detect(&rebuilt.model, "first-found", &calico::Options::default());
//! assert_eq!(answer.interface.as_deref(), Some("nerdctl0"));
//! // every candidate with the reason it was taken or passed over
//! for c in &answer.candidates {
//!     println!("{}: {}", c.interface, c.reason);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/first_found.rs` does the same for every capture in a folder.

#![warn(missing_docs)]

pub mod app;
pub mod bad_value;
pub mod capture;
pub mod diag;
pub mod filter;
pub mod ingest;
pub mod looks;
pub mod model;
pub mod netlink;
pub mod record;
pub mod replay;
pub mod report;
pub mod snapshot;

#[cfg(test)]
pub(crate) mod testutil;
