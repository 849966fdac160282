//! The summary every command prints on stderr: what was read, what was
//! skipped and why, and the diagnostics with packet numbers and offsets.
//!
//! Contract: formatting only; fed the reader's [`FileInfo`], the trace's
//! [`TraceStats`] and the collected [`Diagnostics`].

use super::count;
use std::io::{self, Write};

use crate::capture::{FileInfo, Format};
use crate::diag::Diagnostics;
use crate::ingest::trace::{OrderSource, TraceStats};
use crate::report::style::Style;

pub(crate) fn family_name(f: u16) -> &'static str {
    match f {
        0 => "route",
        4 => "sock_diag",
        5 => "nflog",
        6 => "xfrm",
        12 => "netfilter",
        16 => "generic",
        _ => "other",
    }
}

/// Writes the summary of one capture's reading to `w` (stderr).
pub(crate) fn write_summary(
    w: &mut dyn Write,
    info: &FileInfo,
    stats: &TraceStats,
    diags: &Diagnostics,
    style: Style,
) -> io::Result<()> {
    let format = match info.format {
        Some(Format::Pcap) => "pcap",
        Some(Format::Pcapng) => "pcapng",
        None => "capture",
    };
    let order = match (stats.byte_order, stats.byte_order_source) {
        (Some(o), Some(OrderSource::Forced)) => format!("{o:?} (forced)").to_lowercase(),
        (Some(o), _) => format!("{o:?} (detected)").to_lowercase(),
        (None, _) => "unknown (no netlink data)".into(),
    };
    writeln!(
        w,
        "nlorder: {} read ({format}{}), {}, {} decoded; netlink byte order {order}",
        count(stats.records, "record", "records"),
        if info.gzip { ", gzip" } else { "" },
        count(stats.route_records, "NETLINK_ROUTE record", "NETLINK_ROUTE records"),
        count(stats.messages, "message", "messages"),
    )?;
    let mut skipped = Vec::new();
    for (t, n) in &stats.skipped_link_type {
        skipped.push(format!("{n} of link type {}", link_type_name(*t)));
    }
    for (f, n) in &stats.skipped_family {
        skipped.push(format!("{n} of netlink family {f} ({})", family_name(*f)));
    }
    if stats.skipped_not_netlink_hatype > 0 {
        skipped.push(format!(
            "{} cooked records not from a netlink device",
            stats.skipped_not_netlink_hatype
        ));
    }
    if stats.skipped_short > 0 {
        skipped.push(format!("{} shorter than their link header", stats.skipped_short));
    }
    if !skipped.is_empty() {
        writeln!(w, "skipped records: {}", skipped.join(", "))?;
    }
    let mut doubtful = Vec::new();
    if info.gzip_truncated.load(std::sync::atomic::Ordering::Relaxed) {
        doubtful.push(format!(
            "unexpected end of file: the gzip stream ends early (a cut file); the {} bytes that decompressed were read",
            info.bytes
        ));
    }
    if stats.truncated_records > 0 {
        doubtful.push(format!("{} truncated records", stats.truncated_records));
    }
    if stats.framing_errors > 0 {
        doubtful.push(format!(
            "{} with a broken nlmsg_len",
            count(stats.framing_errors, "record", "records")
        ));
    }
    if stats.messages_with_problems > 0 {
        doubtful.push(format!(
            "{} partly decoded",
            count(stats.messages_with_problems, "message", "messages")
        ));
    }
    if !doubtful.is_empty() {
        writeln!(w, "{}", style.bad(format!("warnings: {}", doubtful.join(", "))))?;
    }
    for d in diags.iter() {
        writeln!(w, "  {}", d)?;
    }
    if diags.dropped() > 0 {
        writeln!(w, "  ... and {} more", diags.dropped())?;
    }
    Ok(())
}

/// Whether the groups that had notifications had different numbers of listeners.
fn groups_differ(stats: &crate::model::ModelStats) -> bool {
    let mut seen = stats.per_group.iter().filter(|g| g.distinct > 0).map(|g| g.listeners());
    let first = seen.next();
    seen.any(|n| Some(n) != first)
}

fn copies(n: u64) -> String {
    match n {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    }
}

/// One line on what the model saw: requests, refusals, notifications and
/// the listeners they imply (a quiet host's capture has no notification,
/// so everything the kernel did by itself is inferred).
pub fn write_model_summary(w: &mut dyn Write, stats: &crate::model::ModelStats) -> io::Result<()> {
    // (rule notifications are another group's, said apart, so that a capture
    // of `ip rule` changes alone is not called silent)
    let (none, groups) = match stats.rule_notifications {
        0 => ("no notifications", "rtnetlink groups"),
        _ => ("no link, address or route notifications", "their groups"),
    };
    let listeners = match stats.listeners() {
        // A listener during a change would have left its notification in
        // the capture; without changes, silence says nothing about listeners.
        0 if stats.requests_applied > 0 => format!(
            "{none} in the capture although {} changed the tables: nothing listened to {groups} then, so the kernel's own changes are inferred by its rules",
            match stats.requests_applied {
                1 => "a request".to_owned(),
                n => format!("{n} requests"),
            }
        ),
        0 => format!(
            "{none} in the capture: either nothing changed or nothing listened to {groups}; changes the kernel made by itself would not show"
        ),
        _ if groups_differ(stats) => {
            // Listeners join groups, not all of rtnetlink: each group has
            // as many copies as sockets listened to it.
            let per: Vec<String> = ["links", "addresses", "routes"]
                .iter()
                .zip(stats.per_group.iter())
                .filter(|(_, g)| g.distinct > 0)
                .map(|(name, g)| format!("{name} {}", copies(g.listeners())))
                .collect();
            format!(
                "{} notifications, recorded per group as often as sockets listened to it: {} ({} copies merged)",
                stats.notifications,
                per.join(", "),
                stats.duplicate_notifications
            )
        }
        1 => format!(
            "{} (one listener)",
            count(stats.notifications, "notification", "notifications")
        ),
        n => format!(
            "{} notifications, each recorded {n} times ({n} listeners; {} copies merged)",
            stats.notifications, stats.duplicate_notifications
        ),
    };
    let listeners = match stats.rule_notifications {
        0 => listeners,
        n => format!("{listeners}; {}", count(n, "rule notification", "rule notifications")),
    };
    let ignored = match stats.ignored_by_kernel {
        0 => String::new(),
        1 => "; 1 message sent without NLM_F_REQUEST, which the kernel ignored".to_owned(),
        n => format!("; {n} messages sent without NLM_F_REQUEST, which the kernel ignored"),
    };
    writeln!(
        w,
        "nlorder: {} applied, {} refused; {}; {listeners}{ignored}",
        count(stats.requests_applied, "change request", "change requests"),
        stats.requests_refused,
        match stats.rule_dumps {
            0 => count(stats.dumps_applied, "dump", "dumps"),
            r => format!("{} ({r} of rules)", count(stats.dumps_applied + r, "dump", "dumps")),
        }
    )
}

/// A pcap link type by number and, where known, libpcap's name for it
/// (`1 (Ethernet)`).
pub fn link_type_name(t: u32) -> String {
    let name = match t {
        0 => "BSD loopback",
        1 => "Ethernet",
        101 => "raw IP",
        105 => "802.11",
        113 => "Linux cooked SLL",
        127 => "802.11 radiotap",
        228 => "raw IPv4",
        229 => "raw IPv6",
        253 => "NETLINK",
        276 => "Linux cooked SLL2",
        _ => return t.to_string(),
    };
    format!("{t} ({name})")
}

/// Why a capture none of whose records is netlink cannot be read: what
/// link type they are, and what nlorder reads.
pub fn not_netlink(stats: &crate::ingest::trace::TraceStats) -> String {
    let types: Vec<String> = stats.skipped_link_type.keys().map(|t| link_type_name(*t)).collect();
    let (records, are) = match stats.records {
        1 => ("its 1 record".to_owned(), "is"),
        n => (format!("its {n} records"), "are"),
    };
    format!(
        "not a netlink capture: {records} {are} of link type {}; nlorder reads what an nlmon device \
         captures (link type 253, NETLINK, or Linux cooked SLL/SLL2 from one): tcpdump -i nlmon0 -w FILE",
        types.join(", ")
    )
}

/// A snapshot's summary: one dump at one moment, and what it lacks.
pub fn write_snapshot_summary(out: &mut dyn Write, facts: &crate::snapshot::Facts) -> io::Result<()> {
    use crate::snapshot::{Form, Gap};
    let form = match facts.form {
        Form::IpJson => "`ip -j` output",
        Form::IpText => "`ip` text output",
        Form::Mixed => "`ip` output (JSON and text)",
        Form::Sosreport => "a sosreport",
    };
    let kernel = facts
        .kernel
        .as_deref()
        .map(|k| format!(", kernel {k}"))
        .unwrap_or_default();
    writeln!(
        out,
        "snapshot of {form}{kernel}: one dump of each table at one moment (no timeline, no \"who looked\", lifetimes as printed)"
    )?;
    for g in &facts.gaps {
        let owned;
        let words = match g {
            Gap::NoLinkOutput => {
                "no `ip link show` output: the links are those of `ip addr show`; their kinds are unknown"
            }
            Gap::NoDetails => "`ip` without `-d`: link kinds and each device's addr_gen_mode are unknown",
            Gap::NoIpv4Routes => "no IPv4 route listing: the IPv4 route table is taken to be empty",
            Gap::NoIpv6Routes => {
                "no IPv6 route listing (`ip -6 route show table all`): the IPv6 route table is taken to be empty"
            }
            Gap::RulesNotRead => "`ip rule` output is not read: route lookups rest on the default rules",
            Gap::SharedBuckets { kernel_known, links } => {
                owned = format!(
                    "{}: {} share a hash bucket (ifindex & 255), so their order is that of their creation at the \
                     snapshot, newest first; a program that listed links before one of them was made again saw \
                     another order",
                    if *kernel_known {
                        "the kernel dumps links by hash bucket"
                    } else {
                        "the kernel release is not given, so links may be dumped by hash bucket (before 6.9)"
                    },
                    links.join(", ")
                );
                &owned
            }
            Gap::Lifetimes { addresses } => {
                owned = format!(
                    "lifetimes are as `ip` printed them when it ran: {} expire, and at another moment had more \
                     time left, or were gone",
                    addresses.join(", ")
                );
                &owned
            }
        };
        writeln!(out, "  assumed: {words}")?;
    }
    Ok(())
}
