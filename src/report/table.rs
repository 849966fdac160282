//! Printers for `nlorder table`: the rebuilt tables as nlorder's text
//! (ip-like lines, each with where it came from; not byte for byte what
//! `ip addr show` / `ip route show` print: `ip_json` is the exact form),
//! or as one JSON object.
//!
//! Contract: formatting only, from a [`Model`] snapshot; links in dump
//! order, addresses in the kernel's AF_UNSPEC dump order (all IPv4, then all
//! IPv6; per device in list order), routes in dump order.

use crate::ingest::rebuild::Moment;
use crate::netlink::values::{AddressFamily, RouteType, Scope, TableId};
use std::io::{self, Write};
use std::net::IpAddr;

use serde::Serialize;

use crate::diag::Diagnostics;
use crate::model::{AddrEntry, LinkEntry, LinkOrder, LinkOrderSource, Model, Origin, RouteEntry};
use crate::netlink::names::{self};
use crate::report::style::Style;
use crate::report::{Json, Print, Streamed, Text};

/// Which families to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FamilyFilter {
    All,
    V4,
    V6,
}

impl From<Option<crate::replay::Family>> for FamilyFilter {
    fn from(f: Option<crate::replay::Family>) -> Self {
        match f {
            None => FamilyFilter::All,
            Some(crate::replay::Family::V4) => FamilyFilter::V4,
            Some(crate::replay::Family::V6) => FamilyFilter::V6,
        }
    }
}

impl FamilyFilter {
    fn af(self) -> Option<AddressFamily> {
        match self {
            FamilyFilter::All => None,
            FamilyFilter::V4 => Some(AddressFamily::Inet),
            FamilyFilter::V6 => Some(AddressFamily::Inet6),
        }
    }
}

/// A link in `table`'s (and `timeline`'s) JSON.
#[derive(Serialize)]
pub(crate) struct JsonLink {
    pub index: u32,
    pub name: String,
    pub kind: Option<String>,
    pub state: Option<String>,
    pub flags: Vec<&'static str>,
    pub master: Option<u32>,
    pub mtu: Option<u32>,
    #[serde(flatten)]
    pub origin: Origin,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub placeholder: bool,
}

/// An address in `table`'s JSON.
#[derive(Serialize)]
pub(crate) struct JsonAddr {
    pub index: u32,
    pub ifname: String,
    pub family: u8,
    pub address: IpAddr,
    pub prefix_len: u8,
    pub peer: Option<IpAddr>,
    pub broadcast: Option<IpAddr>,
    pub label: Option<String>,
    pub scope: String,
    pub flags: Vec<&'static str>,
    pub valid_lft: Option<u32>,
    pub preferred_lft: Option<u32>,
    #[serde(flatten)]
    pub origin: Origin,
    /// The kernel's timers changed it after the last record (`--at
    /// end+SECS`): no message shows it as it is listed.
    pub assumed: bool,
}

/// A route in `table`'s JSON.
#[derive(Serialize)]
pub(crate) struct JsonRoute {
    pub family: u8,
    pub table: String,
    pub dst: String,
    pub gateway: Option<IpAddr>,
    pub oif: Option<String>,
    pub oif_index: Option<u32>,
    pub prefsrc: Option<IpAddr>,
    pub metric: Option<u32>,
    #[serde(rename = "type")]
    pub kind: String,
    pub scope: String,
    pub protocol: String,
    pub multipath: bool,
    #[serde(flatten)]
    pub origin: Origin,
    /// The kernel's timers made it after the last record (`--at
    /// end+SECS`): no message shows it.
    pub assumed: bool,
}

/// The link order the tables are listed in, and what decided it.
#[derive(Serialize)]
pub(crate) struct JsonKernelOrder {
    pub links: LinkOrder,
    #[serde(flatten)]
    pub source: LinkOrderSource,
}

/// `table`'s whole JSON document; its lists are written as they are
/// walked (see [`super::Streamed`]).
#[derive(Serialize)]
pub(crate) struct JsonTable<L, A, R> {
    /// The last record applied (`--at`, or the end of the capture).
    pub at_packet: u64,
    /// That moment in full (see `report::moment`).
    pub moment: super::moment::JsonMoment,
    /// Sockets listening to rtnetlink groups, as the notification copies say
    /// (0: a quiet host; the kernel's own changes were inferred).
    pub listeners: u64,
    pub stats: crate::model::ModelStats,
    pub kernel_order: JsonKernelOrder,
    /// A complete link dump was seen: every link is listed. Without one,
    /// only the links the capture names are (see `assumptions`).
    pub links_complete: bool,
    /// A complete address dump (both families) was applied.
    pub addresses_complete: bool,
    /// A complete route dump (both families) was applied.
    pub routes_complete: bool,
    /// The same, per family (`inet`, `inet6`): which complete dumps were
    /// applied, whether any message showed the family's addresses, and
    /// which route tables some message showed (`all`, or their names).
    pub families: JsonFamilies,
    pub links: L,
    pub addresses: A,
    pub routes: R,
    /// The policy routing rules of each family shown, with what they rest
    /// on (the quiet form of the default rules' assumption).
    pub rules: Vec<JsonRules>,
    /// What the model had to assume because the capture cannot say (the
    /// same key as in every other subcommand's JSON).
    pub assumptions: Vec<String>,
    pub warnings: Vec<String>,
}

/// One family's rules in `table`'s JSON.
#[derive(Serialize)]
pub(crate) struct JsonRules {
    /// 4 or 6.
    pub family: u8,
    /// No rule dump showed them: the kernel's defaults stand for what no
    /// message showed.
    pub assumed: bool,
    /// What they rest on, in words.
    pub source: &'static str,
    /// The rules in the kernel's order, as `ip -j rule` prints them.
    pub rules: Vec<crate::report::rule::IpRule>,
}

fn json_rules(model: &Model, filter: FamilyFilter) -> Vec<JsonRules> {
    [AddressFamily::Inet, AddressFamily::Inet6]
        .into_iter()
        .filter(|f| filter.af().is_none_or(|x| x == *f))
        .map(|f| {
            let known = model.rule_table().known(f);
            JsonRules {
                family: family_number(f),
                assumed: known != crate::model::RulesKnown::Dumped,
                source: crate::report::source::rules_known(known),
                rules: model
                    .rule_table()
                    .rules(f)
                    .iter()
                    .map(crate::report::rule::rule_object)
                    .collect(),
            }
        })
        .collect()
}

fn family_number(af: AddressFamily) -> u8 {
    if af == AddressFamily::Inet6 { 6 } else { 4 }
}

pub(crate) fn json_link(l: &LinkEntry) -> JsonLink {
    JsonLink {
        index: l.index,
        name: l.display_name(),
        kind: l.kind.map(|k| k.display()),
        state: l.operstate.map(|s| names::operstate(s).into_owned()),
        flags: names::link_flags(l.flags),
        master: l.master,
        mtu: l.mtu,
        origin: l.origin,
        placeholder: l.placeholder,
    }
}

pub(crate) fn json_addr(a: &AddrEntry, model: &Model) -> JsonAddr {
    JsonAddr {
        index: a.index,
        ifname: model.ifname(a.index),
        family: family_number(a.family),
        address: a.address,
        prefix_len: a.prefix_len,
        peer: a.peer,
        broadcast: a.broadcast,
        label: a.label.map(|l| l.display()),
        scope: a.scope.name().into_owned(),
        flags: names::address_flags(a.family, a.flags),
        valid_lft: a.cacheinfo.map(|c| c.valid),
        preferred_lft: a.cacheinfo.map(|c| c.preferred),
        origin: a.origin,
        assumed: model.address_after_capture(a),
    }
}

/// `default`, `10.9.0.0/24`, `2001:db8::/64`.
pub(crate) fn route_dst(r: &RouteEntry) -> String {
    match r.dst {
        _ if r.dst_len == 0 => "default".into(),
        Some(d) => format!("{d}/{}", r.dst_len),
        None => format!(
            "{}/{}",
            if r.family == AddressFamily::Inet6 {
                "::"
            } else {
                "0.0.0.0"
            },
            r.dst_len
        ),
    }
}

pub(crate) fn json_route(r: &RouteEntry, model: &Model) -> JsonRoute {
    JsonRoute {
        family: family_number(r.family),
        table: r.table.name().into_owned(),
        dst: route_dst(r),
        gateway: r.gateway,
        oif: r.oif.map(|i| model.ifname(i)),
        oif_index: r.oif,
        prefsrc: r.prefsrc,
        metric: r.priority,
        kind: r.kind.name().into_owned(),
        scope: r.scope.name().into_owned(),
        protocol: r.protocol.name().into_owned(),
        multipath: r.multipath,
        origin: r.origin,
        assumed: model.route_after_capture(r),
    }
}

pub(crate) fn table_json<'a>(
    model: &'a Model,
    moment: &Moment,
    filter: FamilyFilter,
    extra: &Diagnostics,
) -> JsonTable<impl Serialize + 'a, impl Serialize + 'a, impl Serialize + 'a> {
    let grounds = crate::ingest::rebuild::Grounds::of(model, extra);
    let (order, source) = model.link_order();
    JsonTable {
        at_packet: moment.packet,
        moment: super::moment::json(moment),
        listeners: model.stats().listeners(),
        stats: model.stats().clone(),
        kernel_order: JsonKernelOrder {
            links: order,
            source: source.clone(),
        },
        links_complete: model.links_complete(),
        addresses_complete: model.addresses_complete(),
        routes_complete: model.routes_complete(),
        families: families(model),
        links: Streamed(move || model.links().iter().map(json_link)),
        addresses: Streamed(move || {
            model
                .addresses(filter.af())
                .into_iter()
                .map(move |a| json_addr(a, model))
        }),
        routes: Streamed(move || {
            model
                .route_table()
                .iter()
                .filter(move |r| filter.af().is_none_or(|f| f == r.family))
                .map(move |r| json_route(r, model))
        }),
        rules: json_rules(model, filter),
        assumptions: grounds
            .assumptions
            .iter()
            .cloned()
            .filter_map(|a| if moment.snapshot { a.at_snapshot() } else { Some(a) })
            .map(|a| a.to_string())
            .collect(),
        warnings: grounds.warnings,
    }
}

/// [`table_json`] with its lists collected, for printers that walk them
/// more than once (the incident picture).
pub(crate) fn table_json_whole(
    model: &Model,
    moment: &Moment,
    filter: FamilyFilter,
    extra: &Diagnostics,
) -> JsonTable<Vec<JsonLink>, Vec<JsonAddr>, Vec<JsonRoute>> {
    let t = table_json(model, moment, filter, extra);
    JsonTable {
        at_packet: t.at_packet,
        moment: t.moment,
        listeners: t.listeners,
        stats: t.stats,
        kernel_order: t.kernel_order,
        links_complete: t.links_complete,
        addresses_complete: t.addresses_complete,
        routes_complete: t.routes_complete,
        families: t.families,
        links: model.links().iter().map(json_link).collect(),
        addresses: model
            .addresses(filter.af())
            .into_iter()
            .map(|a| json_addr(a, model))
            .collect(),
        routes: model
            .route_table()
            .iter()
            .filter(|r| filter.af().is_none_or(|f| f == r.family))
            .map(|r| json_route(r, model))
            .collect(),
        rules: t.rules,
        assumptions: t.assumptions,
        warnings: t.warnings,
    }
}

/// What `nlorder table` prints: the rebuilt tables, the families asked
/// for, and what reading the capture met.
pub(crate) struct Tables<'a> {
    pub rebuilt: &'a crate::ingest::rebuild::Rebuilt,
    pub filter: FamilyFilter,
    pub diagnostics: &'a Diagnostics,
    /// The tables the text shows (none: all three).
    pub objects: &'a [crate::report::ip_json::IpObject],
}

impl Print<Tables<'_>> for Text {
    fn print(&mut self, t: &Tables<'_>, out: &mut dyn Write) -> io::Result<()> {
        let sections = Sections::of(t.objects);
        write_sections(out, &t.rebuilt.model, &t.rebuilt.moment, t.filter, &self.0, sections)
    }
}

/// Which tables a text shows.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sections {
    links: bool,
    addresses: bool,
    routes: bool,
    /// The rules: asked for, or (`None`) where the capture shows any or
    /// routes in tables only rules send traffic to.
    rules: Option<bool>,
}

impl Sections {
    const ALL: Sections = Sections {
        links: true,
        addresses: true,
        routes: true,
        rules: None,
    };

    fn of(objects: &[crate::report::ip_json::IpObject]) -> Sections {
        use crate::report::ip_json::IpObject;
        if objects.is_empty() {
            return Sections::ALL;
        }
        Sections {
            links: objects.contains(&IpObject::Link),
            addresses: objects.contains(&IpObject::Addr),
            routes: objects.contains(&IpObject::Route),
            rules: Some(objects.contains(&IpObject::Rule)),
        }
    }
}

/// Whether the text shows the rules when not asked: where the capture
/// shows rules of a family, or routes in a table other than local, main
/// and default (which only rules send traffic to). Elsewhere the kernel's
/// defaults are all there is to say, and saying it would be noise.
fn rules_worth_showing(model: &Model, filter: FamilyFilter) -> bool {
    [AddressFamily::Inet, AddressFamily::Inet6]
        .into_iter()
        .filter(|f| filter.af().is_none_or(|x| x == *f))
        .any(|f| {
            model.rule_table().known(f) != crate::model::RulesKnown::Assumed || !model.other_route_tables(f).is_empty()
        })
}

impl Print<Tables<'_>> for Json {
    fn print(&mut self, t: &Tables<'_>, out: &mut dyn Write) -> io::Result<()> {
        let table = table_json(&t.rebuilt.model, &t.rebuilt.moment, t.filter, t.diagnostics);
        super::document(out, &table)
    }
}

fn origin_text(o: &Origin) -> String {
    o.text()
}

pub(crate) fn link_line(l: &LinkEntry, style: &Style) -> String {
    let mut s = format!("{}: {}", l.index, style.value(l.display_name()));
    if l.placeholder {
        // Known only from what names it (its addresses, routes): no
        // message says whether it is up.
        s.push_str(" <flags unknown>");
    } else {
        s.push_str(&format!(" <{}>", names::link_flags(l.flags).join(",")));
    }
    if let Some(m) = l.mtu {
        s.push_str(&format!(" mtu {m}"));
    }
    if let Some(k) = l.kind {
        s.push_str(&format!(" {}", k.display()));
    }
    if let Some(m) = l.master {
        s.push_str(&format!(" master {m}"));
    }
    if let Some(o) = l.operstate {
        s.push_str(&format!(" state {}", names::operstate(o)));
    }
    s
}

/// An address as `ip -o addr` prints it.
pub(crate) fn addr_line(a: &AddrEntry, ifname: &str, style: &Style) -> String {
    let fam = a.family.name();
    let mut s = format!("{}: {ifname} {fam} {}", a.index, style.value(a.cidr()));
    if let Some(p) = a.peer {
        s.push_str(&format!(" peer {p}"));
    }
    if let Some(b) = a.broadcast {
        s.push_str(&format!(" brd {b}"));
    }
    s.push_str(&format!(" scope {}", a.scope.name()));
    for f in names::address_flags(a.family, a.flags) {
        s.push(' ');
        s.push_str(f);
    }
    if let Some(l) = a.label {
        s.push(' ');
        s.push_str(&l.display());
    }
    s
}

/// A route in ip-like words (nlorder's own: it always says `proto`, and
/// leaves out `pref`); `ifname` names output devices.
pub(crate) fn route_line(r: &RouteEntry, ifname: &dyn Fn(u32) -> String, style: &Style) -> String {
    let mut s = String::new();
    if r.kind != RouteType::Unicast {
        s.push_str(&r.kind.name());
        s.push(' ');
    }
    let dst = match r.dst {
        Some(d) if u32::from(r.dst_len) == if d.is_ipv4() { 32 } else { 128 } => d.to_string(),
        _ => route_dst(r),
    };
    s.push_str(&style.value(dst));
    if let Some(g) = r.gateway {
        s.push_str(&format!(" via {g}"));
    }
    if let Some(o) = r.oif {
        s.push_str(&format!(" dev {}", ifname(o)));
    }
    if r.multipath {
        s.push_str(" multipath");
    }
    if r.table != TableId::Main {
        s.push_str(&format!(" table {}", r.table.name()));
    }
    s.push_str(&format!(" proto {}", r.protocol.name()));
    if r.scope != Scope::Universe {
        s.push_str(&format!(" scope {}", r.scope.name()));
    }
    if let Some(p) = r.prefsrc {
        s.push_str(&format!(" src {p}"));
    }
    if let Some(m) = r.priority {
        s.push_str(&format!(" metric {m}"));
    }
    s
}

fn write_sections(
    out: &mut dyn Write,
    model: &Model,
    moment: &Moment,
    filter: FamilyFilter,
    style: &Style,
    sections: Sections,
) -> io::Result<()> {
    let (order, source) = model.link_order();
    let why = match source {
        LinkOrderSource::Forced => "forced".to_string(),
        LinkOrderSource::Kernel { version } => format!("the rule of linux {version}"),
        LinkOrderSource::Dump { packet, evidence } => format!("from the link dump in packet {packet}: {evidence}"),
        // The dump fits both orders (every ifindex below 256, say) or
        // neither (a warning says so): the order is assumed, the links are not.
        LinkOrderSource::Default if model.links_complete() => "assumed: the link dump does not tell which".to_string(),
        LinkOrderSource::Default => "assumed: no link dump".to_string(),
    };
    writeln!(
        out,
        "{}",
        style.dim(format!("# tables at {}", crate::report::moment::describe(moment)))
    )?;
    if sections.links {
        writeln!(
            out,
            "{}",
            style.dim(format!("# links (kernel order {order:?}, {why})").to_lowercase())
        )?;
    }
    for l in model.links().iter().filter(|_| sections.links) {
        writeln!(
            out,
            "{}  {}",
            link_line(l, style),
            style.dim(format!("[{}]", origin_text(&l.origin)))
        )?;
    }
    if sections.addresses {
        writeln!(out, "{}", style.dim("# addresses (per link, kernel order)"))?;
    }
    for l in model.links().iter().filter(|_| sections.addresses) {
        for fam in [AddressFamily::Inet, AddressFamily::Inet6] {
            if filter.af().is_some_and(|f| f != fam) {
                continue;
            }
            for a in model.device_addresses(l.index, fam) {
                let after = match model.address_after_capture(a) {
                    true => ", after the capture: assumed",
                    false => "",
                };
                writeln!(
                    out,
                    "{}  {}",
                    addr_line(a, &l.display_name(), style),
                    style.dim(format!("[{}{after}]", origin_text(&a.origin)))
                )?;
            }
        }
    }
    if sections.routes {
        // (an empty section would read as "no routes": say what is known)
        let header = if model.has_routes() || model.route_table().iter().next().is_some() {
            "# routes".to_owned()
        } else if let Some(p) = model.recording_start() {
            format!("# routes: unknown (no route dump or route message in the recording that starts at packet {p})")
        } else {
            "# routes: unknown (no route dump or route message in the capture)".to_owned()
        };
        writeln!(out, "{}", style.dim(header))?;
    }
    for r in model.route_table().iter().filter(|_| sections.routes) {
        if filter.af().is_some_and(|f| f != r.family) {
            continue;
        }
        let line = route_line(r, &|i| model.ifname(i), style);
        match model.route_after_capture(r) {
            true => writeln!(out, "{line}  {}", style.dim("[after the capture: assumed]"))?,
            false => writeln!(out, "{line}")?,
        }
    }
    if sections.rules.unwrap_or_else(|| rules_worth_showing(model, filter)) {
        for fam in [AddressFamily::Inet, AddressFamily::Inet6] {
            if filter.af().is_some_and(|f| f != fam) {
                continue;
            }
            let known = model.rule_table().known(fam);
            let mut header = format!("# {} rules ({})", fam.name(), crate::report::source::rules_known(known));
            let others = model.other_route_tables(fam);
            if known == crate::model::RulesKnown::Assumed && !others.is_empty() {
                header.push_str(&format!(
                    "; yet routes are in {}, which only rules send traffic to",
                    crate::report::source::tables_named(&others)
                ));
            }
            writeln!(out, "{}", style.dim(header))?;
            for r in model.rule_table().rules(fam) {
                writeln!(out, "{}:\t{}", r.priority, r.ip_text())?;
            }
        }
    }
    // (a snapshot heard nothing: what listening would have shown does not apply)
    let notes: Vec<_> = model
        .assumptions()
        .into_iter()
        .filter_map(|a| if moment.snapshot { a.at_snapshot() } else { Some(a) })
        .collect();
    if !notes.is_empty() {
        writeln!(out, "{}", style.dim("# not in the capture (assumed)"))?;
        for n in notes {
            writeln!(out, "{}", style.dim(format!("- {n}")))?;
        }
    }
    Ok(())
}

/// What the capture shows of each family (the `families` field of the table document).
#[derive(Debug, Serialize)]
pub struct JsonFamilies {
    inet: JsonFamily,
    inet6: JsonFamily,
}

/// What the capture shows of one family.
#[derive(Debug, Serialize)]
pub struct JsonFamily {
    addresses_complete: bool,
    addresses_shown: bool,
    routes_complete: bool,
    /// `["all"]`, the tables some message showed, or none.
    route_tables_shown: Vec<String>,
}

fn families(model: &Model) -> JsonFamilies {
    let one = |f: AddressFamily| JsonFamily {
        addresses_complete: model.addresses_complete_of(f),
        addresses_shown: model.addresses_shown_of(f),
        routes_complete: model.routes_complete_of(f),
        route_tables_shown: match model.route_tables_shown(f) {
            None => vec!["all".to_owned()],
            Some(t) => t.iter().map(ToString::to_string).collect(),
        },
    };
    JsonFamilies {
        inet: one(AddressFamily::Inet),
        inet6: one(AddressFamily::Inet6),
    }
}
