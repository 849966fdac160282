//! A replay's notes in words: what `detect` prints as `note:` lines, and
//! JSON's `notes`.
//!
//! Contract: `Display` only, one sentence per note, with no line break;
//! the sentences that name nlorder's own flags live in `report`, never in
//! the replays. Here: the notes several programs share, and the dispatch
//! of each program's own to its wording file (`report::kubelet`,
//! `report::flannel`, ...), generated from
//! one arm for every program's own.

use std::fmt;

use crate::model::LinkOrder;
use crate::replay::family::Family;
use crate::replay::note::{Note, Program};

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The step of the program's own logic a default-route note belongs to
/// (kubelet numbers them), with its separator.
fn step(by: Program) -> String {
    match by.replay().walk_step() {
        Some(n) => format!("step {n}: "),
        None => String::new(),
    }
}

fn other(family: Family) -> Family {
    match family {
        Family::V4 => Family::V6,
        Family::V6 => Family::V4,
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Own(n) => n.fmt(f),
            Note::NodeIpGiven => f.write_str("step 1: --node-ip given, no detection"),
            Note::DefaultRouteInterface { by } => write!(f, "{}address of the default-route interface", step(*by)),
            Note::LoopbackFallback {
                by,
                interface,
                loopback,
            } => write!(
                f,
                "{}{interface} has no global address; loopback fallback to {loopback}",
                step(*by)
            ),
            Note::FellBack { by, wanted, had_route } => {
                match had_route {
                    false => write!(f, "no IPv{wanted} default route")?,
                    true => write!(f, "no IPv{wanted} default route leads to a global IPv{wanted} address")?,
                }
                write!(f, ": {by} falls back to IPv{}", other(*wanted))
            }
            Note::FlannelIface { name } => write!(f, "--flannel-iface {name}: the node IPs are its addresses"),
            Note::AssumedLinkOrder(order) => write!(
                f,
                "assumed: the kernel's link order ({}); no link dump in the capture showed it, and the candidates \
                         above are examined in that order (give --kernel-order or --kernel if known)",
                match order {
                    LinkOrder::Ascending => "ascending ifindex, as kernels since 6.9 walk them",
                    LinkOrder::Buckets => "ifindex hash buckets, as kernels up to 6.8 walk them",
                }
            ),
            Note::AssumedPlaceholders(names) => write!(
                f,
                "assumed: {} known only from address messages (no RTM_NEWLINK in the capture): flags, state and \
                         type unknown, taken as usable",
                names.join(", ")
            ),
            Note::Rule(n) => write!(f, "{n}"),
        }
    }
}

serialize_as_words!(Note);
