//! Entry points that drive the layers over arbitrary bytes, for the fuzz
//! target (`fuzz/`) and the in-tree robustness tests.
//!
//! Contract: neither entry point panics, whatever `data` holds; both return
//! how many messages were decoded so callers can tell the walk went
//! somewhere. Everything is written to `io::sink()`; nothing touches the
//! file system. Compiled calico methods are kept between calls (per
//! thread, a bounded number): compiling them is pure, and in a debug build
//! it costs more than anything else here.
//!
//! [`run_all_layers`] reads the bytes as a capture once per way the
//! commands read one ([`run_decoders`] is its first pass alone):
//! 1. decoded message by message (both `decode` printers, the strict
//!    cross-check), with `looks` attributing the requests (`who`'s printers);
//! 2. rebuilt to the end with every change reported (`timeline`'s
//!    printers), then `table`'s printers, every detection method (calico's
//!    first-found, interface=, skip-interface=, cidr=, can-reach= and
//!    kubernetes-internal-ip, kubelet and flannel, with and without flags)
//!    through `detect`'s report, and the getaddrinfo order of glibc, Go and
//!    musl over a few candidates, with `gai`'s printers;
//! 3. rebuilt up to the middle record with no change sink (`table --at`),
//!    while a second model watches glibc's order over the whole capture
//!    in the same pass (`gai --at --observed`; `gai --timeline`'s printers);
//! 4. watched with first-found (`detect --timeline`), under model options
//!    taken from the input's length;
//! 5. evaluated at each look of a Go program or of glibc's getaddrinfo
//!    (`detect`/`gai --at auto --all-looks`), when there is one.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::Path;

use crate::capture::CaptureReader;
use crate::diag::Diagnostics;
use crate::looks::{Collector, Looker, Who};
use crate::model::{ChangeSink, Event, KernelVersion, LinkOrder, Model, ModelOptions};
use crate::netlink::strict;
use crate::rebuild::{At, Moment, rebuild, watch};
use crate::replay::calico::{self, IpSetting, Method, MethodError, Version};
use crate::replay::gai::{self, GaiConf, Resolver};
use crate::replay::verdict::{Detection, Outcome};
use crate::replay::{Expected, Family, MethodSpec, flannel, kubelet, matrix};
use crate::report::decode::{JsonLinesPrinter, MessagePrinter, TextPrinter};
use crate::report::detect::{Report, json_flips, write_flips_text, write_matrix_text};
use crate::report::style::Style;
use crate::report::table::{FamilyFilter, table_json, write_table_json, write_table_text};
use crate::report::timeline::TimelinePrinter;
use crate::trace::{TraceOptions, read_trace};

const STYLE: Style = Style { color: true };

/// The decoders, their printers and `who` alone (pass 1).
pub fn run_decoders(data: &[u8]) -> u64 {
    decode(data).map_or(0, |(decoded, _)| decoded)
}

/// Every layer: the decoders, the model, the replays and every printer.
pub fn run_all_layers(data: &[u8]) -> u64 {
    let Some((decoded, _)) = decode(data) else {
        return 0;
    };
    let Some(end) = rebuild_and_replay(data) else {
        return decoded;
    };
    rebuild_to_middle(data, end.packet / 2);
    watch_first_found(data);
    evaluate_at_looks(data);
    decoded
}

fn open(data: &[u8]) -> Option<CaptureReader<'_>> {
    CaptureReader::new(io::Cursor::new(data)).ok()
}

/// The name the printers give the capture.
fn capture_path() -> &'static Path {
    Path::new("fuzz.pcap")
}

/// Pass 1: every message through both printers and the strict decoder,
/// and the requests to `who`. `None` when the bytes are no capture.
fn decode(data: &[u8]) -> Option<(u64, Who)> {
    let mut reader = open(data)?;
    let mut diags = Diagnostics::default();
    let mut text = TextPrinter::new(io::sink(), STYLE, true);
    let mut json = JsonLinesPrinter::new(io::sink(), true);
    let mut collector = Collector::listing();
    let mut n = 0;
    let stats = read_trace(&mut reader, TraceOptions::default(), &mut diags, |m| {
        n += 1;
        let _ = text.message(m);
        let _ = json.message(m);
        if let Ok(Some(full)) = strict::decode_full(&m.message) {
            let _ = strict::cross_check(&m.decoded, &full);
        }
        collector.observe(m);
        true
    });
    let _ = text.finish();
    let _ = json.finish();
    for d in diags.iter() {
        let _ = d.to_string();
    }
    if let Ok(stats) = &stats {
        let _ = crate::report::summary::write_summary(&mut io::sink(), &reader.info, stats, &diags, STYLE);
    }
    let who = collector.finish();
    let _ = crate::report::who::write_who_text(&mut io::sink(), &who, &STYLE);
    let _ = crate::report::who::who_json(&who).to_string();
    Some((n, who))
}

/// Every change to both timeline printers.
struct Timelines {
    text: TimelinePrinter<io::Sink>,
    json: TimelinePrinter<io::Sink>,
    changes: usize,
}

impl ChangeSink for Timelines {
    fn message(&mut self, m: &crate::trace::TraceMessage<'_>) {
        self.text.message(m);
        self.json.message(m);
    }

    fn change(&mut self, event: Event) {
        self.changes += 1;
        self.json.change(event.clone());
        self.text.change(event);
    }
}

/// Pass 2: the whole capture rebuilt with its timeline, then the tables,
/// the detections and the resolvers on the end state. `None` when the
/// bytes are no capture.
fn rebuild_and_replay(data: &[u8]) -> Option<Moment> {
    let mut reader = open(data)?;
    let mut diags = Diagnostics::default();
    let mut timelines = Timelines {
        text: TimelinePrinter::new(io::sink(), false, STYLE),
        json: TimelinePrinter::new(io::sink(), true, STYLE),
        changes: 0,
    };
    let rebuilt = rebuild(
        &mut reader,
        TraceOptions::default(),
        ModelOptions::default(),
        None,
        &mut diags,
        &mut timelines,
    )
    .ok()?;
    let grounds = crate::rebuild::Grounds::of(&rebuilt.model, &diags);
    let _ = timelines.text.finish(&grounds);
    let _ = timelines.json.finish(&grounds);
    let (model, moment) = (&rebuilt.model, &rebuilt.moment);
    let _ = crate::report::summary::write_summary(&mut io::sink(), &reader.info, &rebuilt.stats, &diags, STYLE);
    let _ = crate::report::summary::write_model_summary(&mut io::sink(), model.stats());
    for w in model.warnings().iter() {
        let _ = w.to_string();
    }
    let _ = model.notes();
    for r in model.routes() {
        let _ = model.route_text(r);
    }
    tables(model, moment, &diags);
    detections(model, moment);
    resolvers(model, moment);
    Some(rebuilt.moment)
}

fn tables(model: &Model, moment: &Moment, diags: &Diagnostics) {
    for filter in [FamilyFilter::All, FamilyFilter::V4, FamilyFilter::V6] {
        let _ = write_table_text(&mut io::sink(), model, moment, filter, &STYLE);
        let _ = write_table_json(&mut io::sink(), &table_json(model, moment, filter, diags));
    }
}

/// A few of the model's addresses (the replays' flags name them).
fn some_addresses(model: &Model) -> Vec<IpAddr> {
    model.addresses(None).iter().map(|a| a.address).take(4).collect()
}

/// Compiled methods kept between calls, at most this many.
const KEPT_METHODS: usize = 64;

thread_local! {
    static METHODS: RefCell<BTreeMap<(String, Version), Result<Method, MethodError>>> =
        const { RefCell::new(BTreeMap::new()) };
}

/// `Method::parse`, compiled once per text and release.
fn parse_method(text: &str, version: Version) -> Result<Method, MethodError> {
    METHODS.with_borrow_mut(|kept| {
        let key = (text.to_owned(), version);
        if let Some(m) = kept.get(&key) {
            return m.clone();
        }
        if kept.len() >= KEPT_METHODS {
            kept.clear();
        }
        let m = Method::parse(text, version);
        kept.insert(key, m.clone());
        m
    })
}

fn calico_spec(text: &str, options: &calico::Options) -> MethodSpec {
    MethodSpec::Calico {
        text: text.to_owned(),
        method: parse_method(text, options.version),
        options: options.clone(),
    }
}

/// `detect --all`'s methods, and those it does not try: skip-interface=,
/// older releases, calico's IP setting, kubelet's and flannel's flags.
fn methods(model: &Model) -> Vec<MethodSpec> {
    let addrs = some_addresses(model);
    let first = addrs.first().copied();
    let base = calico::Options {
        node_internal_ips: addrs.clone(),
        bgp_peers: addrs.iter().skip(1).copied().collect(),
        ..calico::Options::default()
    };
    let mut specs = matrix::methods(model, &base);
    let name = model.links().first().map(|l| l.display_name()).unwrap_or_default();
    specs.push(calico_spec(&format!("skip-interface={name},docker.*"), &base));
    // The name as a pattern: whatever bytes it holds go through the translation.
    specs.push(calico_spec(&format!("interface={name}"), &base));
    // Before cidr= (3.16), kubernetes-internal-ip (3.22) and the netlink view (3.32).
    let old = calico::Options {
        version: Version(3, 15, 0),
        ..base.clone()
    };
    for text in ["first-found", "cidr=10.0.0.0/8,fd00::/8", "kubernetes-internal-ip"] {
        specs.push(calico_spec(text, &old));
    }
    for ip in [
        IpSetting::None,
        IpSetting::Explicit(first.map(|a| a.to_string()).unwrap_or_default()),
    ] {
        let set = calico::Options { ip, ..base.clone() };
        specs.push(calico_spec("first-found", &set));
    }
    specs.push(MethodSpec::Kubelet(kubelet::Options {
        node_ip: addrs.clone(),
        hostname_override: Some(name.clone()),
        resolved: addrs.iter().rev().copied().collect(),
    }));
    specs.push(MethodSpec::Kubelet(kubelet::Options {
        resolved: addrs.clone(),
        ..kubelet::Options::default()
    }));
    for family in [Family::V4, Family::V6] {
        specs.push(MethodSpec::Flannel(flannel::Options {
            iface: vec![
                "absent0".into(),
                name.clone(),
                first.map(|a| a.to_string()).unwrap_or_default(),
            ],
            family,
            ..flannel::Options::default()
        }));
        specs.push(MethodSpec::Flannel(flannel::Options {
            iface_regex: vec!["^10\\.".into(), "^e".into()],
            family,
            ..flannel::Options::default()
        }));
        specs.push(MethodSpec::Flannel(flannel::Options {
            iface_can_reach: first,
            public_ip: first,
            family,
            ..flannel::Options::default()
        }));
    }
    specs
}

/// Pass 2, replays: every method, through `detect`'s printers.
fn detections(model: &Model, moment: &Moment) {
    let found: Vec<Detection> = methods(model).iter().map(|s| s.detect(model)).collect();
    let _ = write_matrix_text(&mut io::sink(), &found, &STYLE);
    let expected = some_addresses(model)
        .first()
        .map_or(Expected::Nothing, |a| Expected::Ip(*a));
    for json in [false, true] {
        let mut out = io::sink();
        let mut report = Report::new(&mut out, json, STYLE, true);
        // Several nodes, so that equal answers make conflicts.
        for (i, d) in found.iter().enumerate() {
            let _ = report.detection(
                &format!("node{}", i % 3),
                capture_path(),
                moment,
                d.clone(),
                &Default::default(),
            );
        }
        let _ = report.matrix("all", capture_path(), moment, &found, &Default::default());
        let _ = report.finish(Some(&expected));
    }
}

/// The candidates of the getaddrinfo replays: some of the host's own,
/// loopback, documentation, link-local and IPv4-mapped addresses.
fn gai_candidates(model: &Model) -> Vec<IpAddr> {
    let mut c = some_addresses(model);
    c.extend([
        IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(Ipv6Addr::LOCALHOST),
        IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)),
        IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
        IpAddr::V6(Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 1)),
        IpAddr::V6(Ipv4Addr::new(198, 51, 100, 7).to_ipv6_mapped()),
    ]);
    c
}

/// Pass 2, resolvers: each one's order, the explanation of the reversed
/// order, and `gai`'s printers.
fn resolvers(model: &Model, moment: &Moment) {
    let candidates = gai_candidates(model);
    let conf = GaiConf::parse(
        "reload yes\nprecedence ::ffff:0:0/96 100\nlabel 2001:db8::/32 7\nscopev4 ::ffff:127.0.0.0/104 2\n",
    );
    // All of them, one (nothing to sort), and IPv4 only (musl keeps the order).
    let ipv4: Vec<IpAddr> = candidates.iter().copied().filter(IpAddr::is_ipv4).take(2).collect();
    let inputs = [&candidates[..], candidates.get(..1).unwrap_or_default(), &ipv4[..]];
    for resolver in [Resolver::Glibc, Resolver::Go, Resolver::Musl] {
        for (i, input) in inputs.iter().enumerate() {
            let options = gai::Options {
                resolver,
                gai_conf: if i == 0 { conf.clone() } else { GaiConf::default() },
                sources: candidates.first().map(|&c| (c, c)).into_iter().collect(),
            };
            let result = gai::sort(model, input, &options);
            let observed: Vec<IpAddr> = result.order.iter().rev().copied().collect();
            // (what might explain another order: sorts again under each assumption)
            let why = if i == 0 {
                gai::explain_mismatch(model, input, &options, &observed)
            } else {
                Vec::new()
            };
            let _ =
                crate::report::gai::write_gai_text(&mut io::sink(), &result, Some((&observed, &why)), moment, &STYLE);
            let seen = crate::report::gai::Observed {
                order: &observed,
                why: &why,
                moments: &[],
            };
            let grounds = crate::rebuild::Grounds::of(model, &Diagnostics::default());
            let _ = crate::report::gai::json_document(&result, moment, &seen, &grounds).map(|d| d.to_string());
        }
    }
}

/// Pass 3: the tables as they stood at record `packet`, built without
/// reporting changes (the model's other path), while a watcher follows
/// glibc's order to the end: the moments of the capture that explain an
/// order, and `gai --timeline`'s printers.
fn rebuild_to_middle(data: &[u8], packet: u64) {
    let Some(mut reader) = open(data) else { return };
    let mut diags = Diagnostics::default();
    let at = Some(At::Packet(packet));
    let candidates = [
        IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)),
        IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
        IpAddr::V4(Ipv4Addr::LOCALHOST),
    ];
    let options = gai::Options::default();
    let sort = |m: &Model| gai::sort(m, &candidates, &options);
    let mut watcher = crate::rebuild::Watcher::new(ModelOptions::default(), |m: &Model| sort(m).order, sort);
    let Ok(rebuilt) = crate::rebuild::rebuild_following(
        &mut reader,
        TraceOptions::default(),
        ModelOptions::default(),
        at,
        &mut diags,
        &mut (),
        &mut watcher,
    ) else {
        return;
    };
    let _ = rebuilt.moment.outside_warning();
    let _ = write_table_text(
        &mut io::sink(),
        &rebuilt.model,
        &rebuilt.moment,
        FamilyFilter::All,
        &STYLE,
    );
    let last = watcher.last_packet();
    let flips = crate::rebuild::per_packet(watcher.finish().0, |a, b| a.order == b.order);
    let spans = gai::spans(flips.iter().map(|f| (f.packet, f.after.order.as_slice())), last);
    for s in &spans {
        let _ = gai::explain_by_moment(&spans, rebuilt.moment.packet, &s.order);
    }
    let observed: Vec<IpAddr> = candidates.iter().rev().copied().collect();
    for json in [false, true] {
        let who = (Resolver::Glibc, &candidates[..]);
        let grounds = crate::rebuild::Grounds::of(&rebuilt.model, &Diagnostics::default());
        let _ = crate::report::gai::write_timeline(&mut io::sink(), json, who, (&flips, &grounds), &observed, &STYLE);
    }
}

/// Model options picked by the input, so that the fuzzer reaches them all.
fn options_for(data: &[u8]) -> ModelOptions {
    let n = data.len();
    ModelOptions {
        promote_secondaries: n.is_multiple_of(2),
        link_order: match n % 3 {
            0 => None,
            1 => Some(LinkOrder::Ascending),
            _ => Some(LinkOrder::Buckets),
        },
        kernel: n.is_multiple_of(5).then_some(KernelVersion { major: 6, minor: 1 }),
    }
}

/// Pass 4: first-found re-evaluated after every change, through
/// `detect --timeline`'s printers.
fn watch_first_found(data: &[u8]) {
    let Some(mut reader) = open(data) else { return };
    let mut diags = Diagnostics::default();
    let spec = calico_spec("first-found", &calico::Options::default());
    let eval = |m: &Model| Outcome(spec.detect(m));
    // The fast outcome must be the full detection's, whatever the input.
    let key = |m: &Model| {
        let fast = spec.outcome(m);
        let d = spec.detect(m);
        assert_eq!(fast, (d.address, d.interface, d.error), "outcome fast path");
        fast
    };
    let Ok((flips, _)) = watch(
        &mut reader,
        TraceOptions::default(),
        options_for(data),
        &mut diags,
        key,
        eval,
    ) else {
        return;
    };
    let _ = write_flips_text(&mut io::sink(), &flips, &STYLE);
    let _ = serde_json::to_string(&json_flips(&flips));
    for json in [false, true] {
        let mut out = io::sink();
        let mut report = Report::new(&mut out, json, STYLE, false);
        let _ = report.flips("node", capture_path(), &flips, &Default::default());
        let _ = report.finish(None);
    }
}

/// Pass 5: `--at auto` (and `--all-looks`): first-found and the resolvers'
/// order at the looks of the programs they stand for (Go's resolver's
/// inferred from its program's), found in the same pass.
fn evaluate_at_looks(data: &[u8]) {
    let spec = calico_spec("first-found", &calico::Options::default());
    let candidates = [
        IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)),
        IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
    ];
    for (who, every) in [
        (Looker::Go, true),
        (Looker::GlibcGetaddrinfo, true),
        (Looker::Go, false),
        (Looker::GoResolver, false),
    ] {
        let Some(mut reader) = open(data) else { return };
        let mut diags = Diagnostics::default();
        let eval = |m: &Model| (spec.detect(m), gai::sort(m, &candidates, &gai::Options::default()));
        let Ok((results, _)) = crate::rebuild::evaluate_at_looks(
            &mut reader,
            TraceOptions::default(),
            ModelOptions::default(),
            (who, every),
            &mut diags,
            eval,
        ) else {
            return;
        };
        for (moment, (_, order)) in &results {
            let _ = crate::report::gai::write_gai_text(&mut io::sink(), order, None, moment, &STYLE);
        }
        let detections: Vec<(Moment, Detection)> = results.into_iter().map(|(m, (d, _))| (m, d)).collect();
        for json in [false, true] {
            let mut out = io::sink();
            let mut report = Report::new(&mut out, json, STYLE, false);
            let _ = report.detections("node", capture_path(), detections.clone(), every, &Default::default());
            let _ = report.finish(None);
        }
    }
}
