//! Why a candidate interface or address won or lost, in words: what
//! `detect` prints after each candidate's verdict, and JSON's `reason`.
//!
//! Contract: `Display` only, one clause per value, with no line break; the
//! replays hand out the values, never these words. Here: the reasons
//! several programs share, and the dispatch of each program's own to its
//! wording file, one arm for every program's own.

use std::fmt;

use crate::replay::go::NotGlobal;
use crate::replay::reason::Reason;

/// Go's terms.
impl fmt::Display for NotGlobal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotGlobal::Loopback => "loopback",
            NotGlobal::LinkLocal => "link-local",
            NotGlobal::Multicast => "multicast",
            NotGlobal::UnspecifiedOrBroadcast => "unspecified or broadcast",
        })
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Own(r) => r.fmt(f),
            Reason::EarlierAddress => f.write_str("an earlier address won"),
            Reason::NotGlobal(why) => why.fmt(f),
            Reason::OtherFamily => f.write_str("other family"),
            Reason::DefaultRoute { route } => write!(f, "default route `{route}`"),
            Reason::DefaultRouteDown { route } => write!(f, "default route `{route}`: interface is down"),
            Reason::DefaultRouteNoDevice { route } => write!(
                f,
                "default route `{route}`: no device (`*` in /proc/net/route), no interface has that name"
            ),
            Reason::FirstGlobal => f.write_str("first global unicast address"),
            Reason::InterfaceDown => f.write_str("interface down"),
            Reason::UpInterface => f.write_str("up"),
            Reason::OneOfSeveral => f.write_str("one of several: the program wants exactly one"),
            Reason::SortedAfter => f.write_str("sorted after the winner"),
        }
    }
}

/// `a<sep>b<sep>c`.
pub(crate) fn joined<T: fmt::Display>(items: &[T], sep: &str) -> String {
    items.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(sep)
}

serialize_as_words!(Reason);
