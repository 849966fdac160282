//! What a replay's answer rests on that the capture did not show.
//!
//! Contract: a pure function of the model and a finished [`Detection`]; it
//! adds one note per assumption the answer depends on (the kernel's link
//! order when no link dump showed it and the candidates would come in
//! another order on a kernel that walks its links the other way;
//! candidates known only by the index their addresses named), so that the
//! caveat is printed next to the answer, not only in a summary; and the
//! kernel's source for a destination with what its policy rules did and
//! rest on as the answer's notes ([`select_source_noted`]).

use std::net::IpAddr;

use super::note::Note;
use super::source::{self, NoSource, SourceChoice};
use super::verdict::{Detection, Verdict};
use crate::model::{LinkOrderSource, Model};

/// Whether the candidates come in the same order whichever way the kernel
/// walks its links: ascending ifindex and hash buckets (`ifindex & 255`,
/// newest first within one) agree when no two share a bucket and bucket
/// order is index order.
fn same_in_every_order(d: &Detection) -> bool {
    let mut by_index: Vec<u32> = d.candidates.iter().map(|c| c.index).collect();
    by_index.sort_unstable();
    let mut by_bucket = by_index.clone();
    by_bucket.sort_by_key(|i| i & 255);
    let mut buckets: Vec<u32> = by_index.iter().map(|i| i & 255).collect();
    buckets.dedup();
    by_bucket == by_index && buckets.len() == by_index.len()
}

/// `walks_links`: whether the method examines interfaces in the kernel's
/// link order (Calico's interface walks, flannel's `--iface-regex`).
pub fn note(model: &Model, d: &mut Detection, walks_links: bool) {
    let (order, source) = model.link_order();
    if walks_links && matches!(source, LinkOrderSource::Default) && !same_in_every_order(d) {
        d.notes.push(Note::AssumedLinkOrder(order));
    }
    let placeholders: Vec<String> = d
        .candidates
        .iter()
        // A name that ruled a candidate out does not depend on its flags.
        .filter(|c| {
            !matches!(
                c.verdict,
                Verdict::Excluded | Verdict::NotIncluded | Verdict::NameUnknown
            )
        })
        .filter(|c| model.link(c.index).is_some_and(|l| l.placeholder))
        .map(|c| c.interface.clone())
        .collect();
    if !placeholders.is_empty() {
        d.notes.push(Note::AssumedPlaceholders(placeholders));
    }
}

/// [`source::select_source`], with what the rules did and rest on added to
/// `notes` as the replay's notes.
pub fn select_source_noted(model: &Model, dst: IpAddr, notes: &mut Vec<Note>) -> Result<SourceChoice, NoSource> {
    let mut said = Vec::new();
    let r = source::route_get(model, dst, None, &mut said);
    for n in said {
        let n = Note::Rule(n);
        if !notes.contains(&n) {
            notes.push(n);
        }
    }
    r
}
