//! Cilium's node IP when the Kubernetes Node has no InternalIP: the
//! agent's fallback, cilium `pkg/node/address_linux.go` (`firstGlobalAddr`
//! through `firstGlobalV4Addr`/`firstGlobalV6Addr`), its exclude list
//! (`pkg/node/ip_linux.go`, `initExcludedIPs`) and its private ranges
//! (`pkg/ip/ip.go`, `initPrivatePrefixes`, `IsPublicAddr`).
//!
//! Contract: a pure function of the model, the device and the release.
//! Semantics: the exclude list holds every address (of every family) of
//! the links named `docker*` and of the links whose operstate is not UP
//! (from 1.11, PR 17418, not UNKNOWN either), dummy links never (from
//! 1.17, PR 34228); a named device that exists empties it and narrows the
//! walk to that device. The addresses of the family, in the kernel's dump
//! order: scope at most universe, not excluded, and from 1.14 (PR 22866)
//! not `IFA_F_SECONDARY` (the bit IPv6 calls `IFA_F_TEMPORARY`), split into
//! public and private by Cilium's own list of private ranges; public wins.
//! The tie-break: before 1.14 the lowest address (bytes), from 1.14 a
//! stable sort by link index (dump order within a link). Nothing: the
//! same with scope up to site; then, when a device was named, everything
//! again over all links (the exclude list still empty); then "No address
//! found". From 1.20 (PR 45868) tentative and dad-failed addresses are
//! skipped too. Not replayed: deprecated addresses taken last (PR 47878,
//! open when this was written).

use std::collections::HashMap;
use std::net::IpAddr;

use super::calico::version::Version;
use super::chooser::{Chooser, Context, OptionsError};
use super::failure::Failure;
use super::family::Family;
use super::verdict::{AddrVerdict, Candidate, Detection, Verdict};
use crate::model::{AddrEntry, LinkEntry, Model};
use crate::netlink::names::{IFA_F_DADFAILED, IFA_F_SECONDARY, IFA_F_TENTATIVE};
use crate::netlink::values::Scope;

/// Cilium's node IP in the registry.
pub struct Cilium;

impl Chooser for Cilium {
    const PROGRAM: super::program::Program = super::program::Program::named("cilium");
    const DOC: &'static str = "Cilium's node-IP fallback";
    type Settings = Settings;
    type Options = Options;

    fn options(cx: &Context<'_>) -> Result<Options, OptionsError> {
        let c = cx.settings::<Cilium>();
        Ok(Options {
            device: c.cilium_device,
            version: c.cilium_version,
            family: cx.family(),
        })
    }

    fn detect(model: &Model, o: &Options) -> Detection {
        detect(model, o)
    }

    /// Several candidates are refused, whatever their order; the sort ends
    /// on dump order only for ties.
    fn walks_links(_: &Options) -> bool {
        true
    }

    fn lean(model: &Model, o: &Options) -> Option<Detection> {
        Some(detect_in(model, o, false))
    }

    fn all_in_family(_: &Model, _: Option<&Options>, family: Family) -> Vec<Options> {
        vec![Options {
            family,
            ..Options::default()
        }]
    }
}

/// The newest release whose behaviour is replayed here.
pub const LATEST: Version = Version(1, 20, 0);

program_options! {
    /// Cilium's settings as given (the node-IP fallback's, NodePort's and
    /// masquerade's).
    pub struct Settings {
        /// Cilium's devices (its `devices` setting): the node-IP fallback walks the first one's addresses only;
        /// NodePort and masquerade take the devices named (comma-separated, `eth+` a prefix).
        #[cfg_attr(feature = "clap", arg(long, value_name = "DEV[,DEV]"))]
        cilium_device: Option<String> = None,
        /// Cilium release to replay: the node-IP fallback takes the lowest address and counts
        /// secondaries before 1.14, the lowest link index without secondaries from 1.14, stops
        /// excluding down dummy links in 1.17 and skips tentative addresses from 1.20; NodePort and
        /// masquerade follow 1.15, or the code after it.
        #[cfg_attr(feature = "clap", arg(long, default_value = "1.20", value_name = "X.Y"))]
        cilium_version: Version = LATEST,
    }
}

/// Cilium's settings that decide its node IP.
#[derive(Debug, Clone)]
pub struct Options {
    /// The first of its `devices` (`--cilium-device`).
    pub device: Option<String>,
    /// The release replayed.
    pub version: Version,
    /// IPv4 or IPv6 (Cilium detects each family separately).
    pub family: Family,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            device: None,
            version: LATEST,
            family: Family::V4,
        }
    }
}

/// IF_OPER_UNKNOWN and IF_OPER_UP.
const OPER_UNKNOWN: u8 = 0;
const OPER_UP: u8 = 6;

/// Cilium's private (non-public) ranges, `initPrivatePrefixes`.
pub(crate) const PRIVATE: super::blocks::Blocks = super::blocks::Blocks(super::blocks::List::CiliumPrivate);

/// `ip.IsPublicAddr`.
pub fn is_public(ip: IpAddr) -> bool {
    !PRIVATE.contains(ip)
}

/// Why a link's addresses are on the exclude list, if they are.
pub(crate) fn excluded_link(l: &LinkEntry, version: Version) -> Option<CiliumExcluded> {
    if version >= Version(1, 17, 0) && l.kind.as_ref().is_some_and(|k| k.as_bytes() == b"dummy") {
        return None;
    }
    // A link no message showed the operstate of is taken as UNKNOWN.
    let oper = l.operstate.unwrap_or(OPER_UNKNOWN);
    let up = oper == OPER_UP || (version >= Version(1, 11, 0) && oper == OPER_UNKNOWN);
    if !up {
        Some(CiliumExcluded::NotUp(oper))
    } else if l.name.as_bytes().starts_with(b"docker") {
        Some(CiliumExcluded::DockerName)
    } else {
        None
    }
}

/// The node-IP fallback.
pub fn detect(model: &Model, o: &Options) -> Detection {
    detect_in(model, o, true)
}

/// The node-IP fallback; the candidates only with `rows` (what
/// `--timeline` compares needs none).
pub fn detect_in(model: &Model, o: &Options, rows_too: bool) -> Detection {
    let mut d = Detection::new(Cilium::PROGRAM, note::Semantics { version: o.version }.into(), o.family);
    let fam = o.family.af();
    // initExcludedIPs: every address of the links excluded (by IP: the
    // same IP on another link is excluded too).
    let mut excluded: HashMap<IpAddr, CiliumExcluded> = HashMap::new();
    for l in model.links() {
        if let Some(why) = excluded_link(l, o.version) {
            for f in [
                crate::netlink::values::AddressFamily::Inet,
                crate::netlink::values::AddressFamily::Inet6,
            ] {
                for a in model.device_addresses(l.index, f) {
                    excluded.entry(a.address).or_insert(why);
                }
            }
        }
    }
    let named = o.device.as_deref().and_then(|n| model.link_by_name(n.as_bytes()));
    if let Some(dev) = &o.device {
        match named {
            Some(_) => excluded.clear(),
            None => d.notes.push(Note::CiliumNoDevice { name: dev.clone() }.into()),
        }
    }
    let mut passes: Vec<(Option<u32>, Scope)> = vec![
        (named.map(|l| l.index), Scope::Universe),
        (named.map(|l| l.index), Scope::Site),
    ];
    if named.is_some() {
        passes.extend([(None, Scope::Universe), (None, Scope::Site)]);
    }
    for (pass, (link, scope_max)) in passes.into_iter().enumerate() {
        let addrs: Vec<&AddrEntry> = match link {
            Some(i) => model.device_addresses(i, fam).iter().collect(),
            None => model.addresses(Some(fam)),
        };
        let verdict = walk(&addrs, &excluded, scope_max, o.version);
        if let Some(won) = verdict.chosen {
            if rows_too {
                d.candidates = rows(model, &addrs, &verdict);
            }
            d.address = Some(won.address.into());
            d.interface = Some(model.ifname(won.index));
            if pass > 0 {
                d.notes.push(
                    Note::CiliumRetry {
                        scope_site: scope_max == Scope::Site,
                        all_links: link.is_none() && named.is_some(),
                    }
                    .into(),
                );
            }
            return d;
        }
        if rows_too {
            d.candidates = rows(model, &addrs, &verdict);
        }
    }
    d.error = Some(Failure::Said("No address found".into()));
    d
}

/// One pass of `firstGlobalAddr` over an address list.
struct Walk<'m> {
    /// Per address, in list order: why it was dropped (None: kept).
    dropped: Vec<Option<Reason>>,
    chosen: Option<&'m AddrEntry>,
    /// Public addresses were kept: the private ones lost to them.
    public: bool,
}

fn walk<'m>(
    addrs: &[&'m AddrEntry],
    excluded: &HashMap<IpAddr, CiliumExcluded>,
    scope_max: Scope,
    v: Version,
) -> Walk<'m> {
    let mut dropped = Vec::with_capacity(addrs.len());
    let mut public = Vec::new();
    let mut private = Vec::new();
    for a in addrs {
        let why = if a.scope > scope_max {
            Some(Reason::ScopeAbove {
                scope: a.scope,
                max: scope_max,
            })
        } else if let Some(why) = excluded.get(&a.address) {
            Some(Reason::CiliumExcluded(*why))
        } else if v >= Version(1, 14, 0) && a.flags & IFA_F_SECONDARY != 0 {
            Some(Reason::SecondarySkipped)
        } else if v >= Version(1, 20, 0) && a.flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED) != 0 {
            Some(Reason::TentativeSkipped)
        } else {
            None
        };
        if why.is_none() {
            if is_public(a.address) {
                public.push(*a);
            } else {
                private.push(*a);
            }
        }
        dropped.push(why);
    }
    let has_public = !public.is_empty();
    let mut pool = if has_public { public } else { private };
    if v >= Version(1, 14, 0) {
        pool.sort_by_key(|a| a.index); // stable
    } else {
        pool.sort_by_key(|a| octets(a.address));
    }
    Walk {
        dropped,
        chosen: pool.first().copied(),
        public: has_public,
    }
}

fn octets(ip: IpAddr) -> Vec<u8> {
    match ip {
        IpAddr::V4(v4) => v4.octets().to_vec(),
        IpAddr::V6(v6) => v6.octets().to_vec(),
    }
}

/// A candidate per link, in the order the list first names it.
fn rows(model: &Model, addrs: &[&AddrEntry], w: &Walk) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    let mut at: HashMap<u32, usize> = HashMap::new();
    for (a, dropped) in addrs.iter().zip(&w.dropped) {
        let chosen = w.chosen.is_some_and(|c| std::ptr::eq(c, *a));
        let (verdict, reason) = match dropped {
            Some(r @ Reason::CiliumExcluded(_)) => (Verdict::Excluded, r.clone().into()),
            Some(r) => (Verdict::Filtered, r.clone().into()),
            None if chosen => (
                Verdict::Chosen,
                if w.public {
                    Reason::PublicFirst
                } else {
                    Reason::PrivateFirst
                }
                .into(),
            ),
            None if w.public && !is_public(a.address) => (Verdict::NotMatching, Reason::PrivateLosesToPublic.into()),
            None => (Verdict::NotReached, super::reason::Reason::SortedAfter),
        };
        let row = AddrVerdict::on_interface(a.address, a.prefix_len, verdict, reason);
        match at.get(&a.index).and_then(|&i| out.get_mut(i)) {
            Some(c) => c.addresses.push(row),
            None => {
                at.insert(a.index, out.len());
                out.push(Candidate {
                    interface: model.ifname(a.index),
                    index: a.index,
                    verdict: Verdict::NotReached,
                    reason: Reason::AddressesListed.into(),
                    addresses: vec![row],
                })
            }
        }
    }
    for c in &mut out {
        if c.addresses.iter().any(|a| a.verdict == Verdict::Chosen) {
            c.verdict = Verdict::Chosen;
        } else if c.addresses.iter().all(|a| a.verdict == Verdict::Excluded) {
            c.verdict = Verdict::Excluded;
        }
    }
    out
}

pub mod note;
pub use self::note::{CiliumExcluded, Note, Reason};

#[cfg(test)]
#[path = "cilium_tests.rs"]
mod tests;
