//! Ingesting a capture: the stage between decoding and the kernel model.
//!
//! Contract: three files, each a layer of its own (`cli/tests/layers.rs`
//! holds each to its place): [`trace`] turns a capture into a stream of
//! decoded messages, below the model (the model reads its messages);
//! [`moment`] names a point of a capture (`--at`) and says where a rebuild
//! stopped; [`rebuild`] streams a capture through the trace into the
//! model, up to a moment, change by change or at each look, in one pass,
//! above the model and the looks. This file only declares them.

pub mod moment;
pub mod rebuild;
pub mod trace;
