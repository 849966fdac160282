//! Who looked at the kernel's tables, and when: every dump request (and
//! every GET for one object) in a capture, attributed to the library that
//! sent it by the shape of its bytes, and grouped into "looks".
//!
//! Contract: [`Looks::observe`] is fed the trace's messages in capture order
//! (one pass, bounded memory: only requests still waiting for their end are
//! held) and returns, when a request's answer ends, its [`Asked`] record.
//! [`group`] joins consecutive requests of one socket and one library into
//! [`Look`]s. Attribution only uses what the capture holds: request length,
//! body shape, flags, the sequence number's pattern and the port id the
//! kernel's replies carry. A shape no rule knows is `unknown`, never a
//! guess; every attribution says its evidence.
//!
//! The files, each using only those before it: `library.rs` (the
//! libraries a shape may point to, and how surely), `asked.rs` (one
//! request and how its answer went), `rules.rs` (the shapes each
//! library's requests have), `observe.rs` (requests matched with their
//! answers, in one pass), `look.rs` (requests grouped into looks),
//! `collector.rs` (a whole trace's requests and looks), `choose.rs` (the
//! look `--at auto` replays).

mod asked;
mod choose;
mod collector;
mod library;
mod look;
mod observe;
mod rules;

pub use asked::{Asked, Evidence, Iproute2Sign, SeqTime};
pub use choose::{Chosen, ChosenLook, Looker, choose};
pub use collector::{Collector, Ended, Who};
pub use library::{Confidence, Library};
pub use look::{Implication, Look, group};
pub use observe::Looks;
