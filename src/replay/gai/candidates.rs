//! What a resolver knows about each candidate address before it sorts:
//! its name-service position, its source address and how that was found,
//! and the resolver's own facts about that source.
//!
//! Contract: [`facts`] is a pure function of the model, the candidates and
//! the options. A source is the `--source` override for the destination,
//! else the kernel's source-address selection (`replay::source`) on the
//! model it is given (an IPv4-mapped destination is connected over IPv4,
//! as the kernel does for an AF_INET6 socket, and its source mapped back),
//! else none. glibc's facts (prefix length, flags,
//! device) are filled only when the host has a non-loopback IPv6 address,
//! as `__check_pf` keeps its list only then; musl's prefix length is the
//! bits source and destination share; Go's stay at their defaults.

use std::net::IpAddr;

use super::facts::{CandidateFacts, GaiNote, Options, Resolver, SourceWhy};
use super::{glibc_sort, rfc6724};
use crate::model::Model;
use crate::netlink::values::AddressFamily;
use crate::replay::source;

/// The facts of every candidate in `input`, and whether the host has a
/// non-loopback IPv6 address. `routes_inferred` says the model's routes
/// were inferred from its addresses (kept in each source's `source_why`);
/// glibc sources missing from the address list add a note.
pub(super) fn facts(
    model: &Model,
    input: &[IpAddr],
    o: &Options,
    routes_inferred: bool,
    notes: &mut Vec<GaiNote>,
) -> (Vec<CandidateFacts>, bool) {
    // __check_pf: the list is kept only when a non-loopback IPv6 address exists.
    let all = model.addresses(None);
    let have_v6 = all
        .iter()
        .any(|a| a.family == AddressFamily::Inet6 && !a.address.is_loopback());
    let mut out = Vec::new();
    for (i, &dst) in input.iter().enumerate() {
        let (source, why) = match o.sources.iter().find(|(d, _)| *d == dst) {
            Some((_, s)) => (Some(*s), SourceWhy::Given),
            None => match kernel_source(model, dst, notes) {
                Ok(c) => (
                    Some(c.source),
                    SourceWhy::Kernel {
                        route: model.route_text(&c.route),
                        why: c.why,
                        inferred: routes_inferred,
                    },
                ),
                Err(e) => {
                    if matches!(e, source::NoSource::NextHopUnknown(_)) {
                        notes.push(GaiNote::SourceUnknown { dst });
                    }
                    (None, SourceWhy::None(e))
                }
            },
        };
        let mut f = CandidateFacts {
            address: dst,
            position: i,
            source,
            source_why: why,
            prefix_len: 0,
            deprecated: false,
            home: false,
            index: u32::MAX,
            native: false,
        };
        if o.resolver == Resolver::Glibc && have_v6 {
            if let Some(src) = source {
                match glibc_sort::check_pf_entry(&all, src) {
                    Some(e) => glibc_sort::source_entry_facts(&mut f, e, model),
                    None => notes.push(GaiNote::SourceNotInDump { source: src, dst }),
                }
            }
        } else if o.resolver == Resolver::Musl {
            f.prefix_len = rfc6724::musl_prefix_len(dst, source);
        }
        out.push(f);
    }
    (out, have_v6)
}

/// The kernel's source for `dst`: an AF_INET6 socket connected to an
/// IPv4-mapped address routes over IPv4 (`__ip6_datagram_connect` hands it
/// to `__ip4_datagram_connect`) and `getsockname` gives the IPv4 source
/// mapped.
/// What the policy rules did and rest on is added to `notes`.
fn kernel_source(
    model: &Model,
    dst: IpAddr,
    notes: &mut Vec<GaiNote>,
) -> Result<source::SourceChoice, source::NoSource> {
    let mut said = Vec::new();
    let r = match dst {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => source::route_get(model, IpAddr::V4(v4), None, &mut said).map(|mut c| {
                if let IpAddr::V4(s) = c.source {
                    c.source = IpAddr::V6(s.to_ipv6_mapped());
                }
                c
            }),
            None => source::route_get(model, dst, None, &mut said),
        },
        IpAddr::V4(_) => source::route_get(model, dst, None, &mut said),
    };
    for note in said {
        // (what the whole family's lookups rest on is said once)
        let family_wide = matches!(
            note,
            source::RuleNote::DefaultsAssumed { .. } | source::RuleNote::BeforeMessagesAssumed { .. }
        );
        if family_wide
            && notes
                .iter()
                .any(|n| matches!(n, GaiNote::Rule { note: x, .. } if *x == note))
        {
            continue;
        }
        let n = GaiNote::Rule { dst, note };
        if !notes.contains(&n) {
            notes.push(n);
        }
    }
    r
}
