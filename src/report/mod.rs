//! Reports: printers that turn results into text for people, JSON for
//! programs, or JUnit XML for CI.
//!
//! Contract: words are chosen here. The layers below return values, except
//! the sentences they still write, which are printed as they come: the
//! diagnostics ([`crate::diag`]) and a request's table as `who` names it
//! ([`crate::looks::Asked::asked`]). One
//! program's words (such as calico-node's log lines, in [`calico`]) live
//! in one file. Every printer is a [`Print`]
//! implementation fed a result the request computed once, so every format
//! shows the same values: JSON's strings are the text's words (one
//! `Display` per value, serialized as it). Whole results are printed by
//! [`Text`], [`Json`] and [`JUnit`] (chosen by [`print()`] from a
//! [`Format`]); streams (`decode`'s messages, `timeline`'s changes) have
//! stateful printers that print one item at a time through the same trait.
//!
//! What agrees (`replay::matrix::agreement`), what conflicts and how
//! conflicts group (`replay::conflict`), which detection is judged, which
//! answers are labelled and where an answer changed arrive as values,
//! computed in `app` and `replay`; so do the requests `timeline` shows as
//! a program's look (`app::timeline`), and `gai`'s verdicts (whether the
//! observed order matches, where the order changed, which moments give the
//! observed order: `app::gai`). The result types of `detect` and `gai` are
//! defined here ([`detect::DetectReport`], [`gai::GaiReport`]) because
//! `app`, above, builds them; they hold values, not words.

use std::io::{self, Write};

/// Serializes each type as its words (its `Display`): the JSON of a
/// reason, note or assumption is the sentence the text shows.
macro_rules! serialize_as_words {
    ($($t:ty),*) => {$(
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
    )*};
}

pub mod annotate;
pub mod ansible;
pub mod antrea;
pub mod assumption;
pub mod calico;
pub mod check;
pub mod cilium;
pub mod cilium_node_address;
pub mod consul;
pub mod decode;
pub mod detect;
pub mod etcd;
pub mod evidence;
pub mod failure;
pub mod fields;
pub mod flannel;
pub mod gai;
pub mod gai_hosts;
pub mod gai_reason;
pub mod ip_json;
pub mod k3s;
pub mod kube_apiserver;
pub mod kubeadm;
pub mod kubelet;
pub mod moment;
pub mod nomad;
pub mod note;
pub mod picture;
pub mod reason;
pub mod record;
pub mod rule;
pub mod semantics;
pub mod source;
pub mod style;
pub mod summary;
pub mod swarm;
pub mod table;
pub mod timeline;
pub mod who;

use style::Style;

/// Text for people, or JSON for programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Lines for people, coloured by the style.
    #[default]
    Text,
    /// JSON for programs.
    Json,
}

/// A printer of one kind of result `R`.
pub trait Print<R: ?Sized> {
    /// Writes `result` to `out` (or keeps it for [`Print::flush`]).
    fn print(&mut self, result: &R, out: &mut dyn Write) -> io::Result<()>;

    /// Writes to `out` what it kept (a printer of many small results may
    /// gather them and write them at once). Default: it keeps nothing.
    fn flush(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

/// Text for people, coloured when the style says so.
#[derive(Debug, Clone, Copy, Default)]
pub struct Text(pub Style);

/// One JSON document (pretty-printed), or one line per item for streams.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json;

/// JUnit XML, for CI systems.
#[derive(Debug, Clone, Copy, Default)]
pub struct JUnit;

/// A JSON array made element by element as the serializer writes it: a
/// list as long as a table (a million routes) is never held whole, only
/// walked. `F` makes a fresh walk each time it is serialized.
pub(crate) struct Streamed<F>(pub F);

impl<F, I> serde::Serialize for Streamed<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: serde::Serialize,
{
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.0)())
    }
}

/// Writes one JSON document, pretty-printed, and the newline that ends it.
fn document(out: &mut dyn Write, doc: &impl serde::Serialize) -> io::Result<()> {
    // serde_json writes in small pieces: buffered here, each is a plain
    // copy rather than a call through `dyn Write` (the document itself is
    // never held whole).
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    serde_json::to_writer_pretty(&mut out, doc).map_err(io::Error::from)?;
    writeln!(out)?;
    out.flush()
}

/// Prints `result` as `format` asks.
pub fn print<R: ?Sized>(format: Format, style: Style, result: &R, out: &mut dyn Write) -> io::Result<()>
where
    Text: Print<R>,
    Json: Print<R>,
{
    match format {
        Format::Text => Text(style).print(result, out),
        Format::Json => Json.print(result, out),
    }
}

/// `1 record`, `2 records`: a count with its noun in the right number.
pub(crate) fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    match n.into() {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}
