//! Why a replay chose nothing, in words: what `detect` prints after
//! `-> nothing:`, what `check` shows under a failed expectation, and
//! JSON's `error`. Here: the failures several programs share, and the
//! dispatch of each program's own to its wording file, with
//! one arm for every program's own (calico-node's log
//! lines, refusals and autodetection failures are `report::calico`'s; a
//! program's words for a capture without routes are its own failure's,
//! where its replay names one).
//!
//! Contract: `Display` only, one line per value; a program's own message
//! is printed as it is, with nlorder's comment after it where there is
//! one; the sentences naming nlorder's own flags live here, never in the
//! replays.

use std::fmt;

use crate::replay::chooser::NoRoutes;
use crate::replay::failure::Failure;

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Own(e) => e.fmt(f),
                    Failure::Said(message) => f.write_str(message),
                    Failure::UnknownYet { kind, request_packet } => write!(
                        f,
                        "unknown yet: the {} dump asked for in packet {request_packet} is answered after this moment",
                        match kind {
                            crate::model::ObjectKind::Links => "link",
                            crate::model::ObjectKind::Addresses => "address",
                            crate::model::ObjectKind::Routes => "route",
                        }
                    ),
                    Failure::NoAddressesCaptured => f.write_str(
                        "the capture cannot answer this: no message in it shows the host's addresses (record an address dump too)",
                    ),
                    Failure::CannotKnow(unshown) => write!(
                        f,
                        "the capture cannot tell: {}",
                        super::assumption::unshown_list(unshown)
                    ),
                    Failure::NoRoutesCaptured(program) => {
                        let verb = match program.replay().no_routes() {
                            NoRoutes::Own(own) => return fmt::Display::fmt(own, f),
                            NoRoutes::Reads => "reads",
                            NoRoutes::Walks => "walks",
                        };
                        write!(
                            f,
                            "{program} {verb} the default routes, but the capture holds no routes: record a route dump too"
                        )
                    }
                }
    }
}

serialize_as_words!(Failure);
