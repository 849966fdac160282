//! Running manifests: one rebuild per distinct moment of each case's
//! capture, every expectation evaluated with the replays the commands use.

use std::net::IpAddr;
use std::path::Path;

use super::error::Error;
use super::manifest::{self, Case, Manifest, WarningsSpec};
use super::update::{self, NewValue, Value};
use crate::app::{Console, Session, Source};
use crate::ingest::rebuild::{At, AtSpec};
use crate::ingest::trace::TraceOptions;
use crate::looks::Looker;
use crate::model::{LinkOrder, Model, ModelOptions};
use crate::netlink::ByteOrder;
use crate::netlink::values::AddressFamily;
use crate::replay::gai;
pub use crate::report::check::Outcome;

/// A rebuilt model and its warnings, for one moment of one capture.
struct Snapshot {
    at: Option<At>,
    model: Model,
    warnings: Vec<String>,
    /// Why `at` names no moment of the capture, if it does not.
    outside: Option<String>,
    /// The capture is cut after this record.
    truncated_after: Option<u64>,
}

fn model_options(m: &Manifest, case_index: Option<usize>, c: &Case) -> Result<ModelOptions, Error> {
    let bad = |key: &str, msg: String| Error::manifest(&m.path, m.key_line(case_index, key), msg);
    Ok(ModelOptions {
        kernel: c
            .kernel
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|e| bad("kernel", format!("kernel = {e}")))?,
        promote_secondaries: c.promote_secondaries,
        link_order: match c.kernel_order.as_deref() {
            None => None,
            Some("ascending") => Some(LinkOrder::Ascending),
            Some("buckets") => Some(LinkOrder::Buckets),
            Some(o) => {
                return Err(bad(
                    "kernel_order",
                    format!("kernel_order = {o:?}: expected \"ascending\" or \"buckets\""),
                ));
            }
        },
        ipv6_mip6: None,
    })
}

fn trace_options(m: &Manifest, case_index: Option<usize>, c: &Case) -> Result<TraceOptions, Error> {
    Ok(TraceOptions {
        byte_order: match c.netlink_endian.as_deref() {
            None => None,
            Some("little") => Some(ByteOrder::Little),
            Some("big") => Some(ByteOrder::Big),
            Some(o) => {
                return Err(Error::manifest(
                    &m.path,
                    m.key_line(case_index, "netlink_endian"),
                    format!("netlink_endian = {o:?}: expected \"little\" or \"big\""),
                ));
            }
        },
    })
}

/// Opens a case's capture as every command does (see
/// [`crate::app::Session`]), silently: what goes wrong is an outcome.
fn open(m: &Manifest, case_index: Option<usize>, path: &Path, c: &Case) -> Result<(Session, Console), Error> {
    let console = Console {
        trace: trace_options(m, case_index, c)?,
        ..Console::quiet()
    };
    let session = console
        .open(&Source::Path(path.to_path_buf()))
        .map_err(|e| capture_error(path, e))?;
    Ok((session.silent(), console))
}

/// A capture's error as check places it: the capture's path, and what
/// went wrong (the session's message names the path first).
fn capture_error(path: &Path, e: crate::app::Error) -> Error {
    let text = e.to_string();
    let prefix = format!("{}: ", path.display());
    Error::Capture {
        path: path.to_path_buf(),
        message: text.strip_prefix(&prefix).map(str::to_owned).unwrap_or(text),
    }
}

fn snapshot(m: &Manifest, case_index: Option<usize>, path: &Path, c: &Case, at: Option<At>) -> Result<Snapshot, Error> {
    let model = model_options(m, case_index, c)?;
    let (mut session, console) = open(m, case_index, path, c)?;
    let (r, _) = session
        .rebuild(console.trace, model, at, &mut ())
        .map_err(|e| capture_error(path, e))?;
    Ok(Snapshot {
        at,
        outside: crate::report::moment::outside_warning(&r.moment, "at ="),
        model: r.model,
        truncated_after: session.grounds.truncated_after,
        warnings: std::mem::take(&mut session.grounds.warnings),
    })
}

fn ips(v: &[String], field: &str) -> Result<Vec<IpAddr>, String> {
    v.iter()
        .map(|s| s.parse().map_err(|_| format!("{field}: {s:?} is not an IP address")))
        .collect()
}

/// Addresses of a link in kernel order, as `IP/len`.
fn link_addresses(model: &Model, ifname: &str, family: Option<u8>) -> Option<Vec<String>> {
    let link = model.link_by_name(ifname.as_bytes())?;
    let fams: Vec<AddressFamily> = match family {
        Some(6) => vec![AddressFamily::Inet6],
        Some(_) => vec![AddressFamily::Inet],
        None => vec![AddressFamily::Inet, AddressFamily::Inet6],
    };
    Some(
        fams.iter()
            .flat_map(|f| model.device_addresses(link.index, *f).iter().map(|a| a.cidr()))
            .collect(),
    )
}

/// ` at MOMENT` for an expectation that names one, so that two that differ
/// only by their moment have two names.
fn at_suffix(at: &Option<manifest::AtValue>) -> String {
    at.as_ref().map(|a| format!(" at {a}")).unwrap_or_default()
}

struct CaseRun<'a> {
    manifest: &'a Manifest,
    case_index: Option<usize>,
    case_name: String,
    outcomes: Vec<Outcome>,
    updates: Vec<NewValue>,
}

impl CaseRun<'_> {
    /// A value for --update that no outcome checks.
    fn update_only(&mut self, kind: &'static str, index: usize, key: &'static str, actual: Result<Value, String>) {
        if let Ok(value) = actual {
            self.updates.push(NewValue {
                case: self.case_index,
                kind,
                index,
                key,
                value,
            });
        }
    }

    /// One outcome; `why` is the replay's own account of its answer
    /// (calico-node's error, say), shown when the expectation fails.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        kind: &'static str,
        index: usize,
        name: String,
        expected: Option<Value>,
        actual: Result<Value, String>,
        key: &'static str,
        why: Option<String>,
    ) {
        let line = self.manifest.line_of(self.case_index, kind, index);
        let (passed, actual_text, message) = match (&expected, &actual) {
            (_, Err(e)) => (false, String::new(), Some(e.clone())),
            (None, Ok(a)) => (
                false,
                a.show(),
                Some(format!("no expected `{key}` recorded: run `nlorder check --update`")),
            ),
            (Some(e), Ok(a)) if e == a => (true, a.show(), None),
            (Some(_), Ok(a)) => (false, a.show(), why),
        };
        if let Ok(a) = &actual {
            self.updates.push(NewValue {
                case: self.case_index,
                kind,
                index,
                key,
                value: a.clone(),
            });
        }
        self.outcomes.push(Outcome {
            manifest: self.manifest.path.clone(),
            line,
            case: self.case_name.clone(),
            kind,
            name,
            passed,
            expected: expected.map_or_else(|| "(not recorded)".into(), |e| e.show()),
            actual: actual_text,
            message,
            truncated_after: None,
            truncated: false,
        });
    }
}

/// Runs every expectation of one manifest, each case's outcomes in the
/// manifest's line order; a case that cannot be run is one `error`
/// outcome (with those of its expectations that did run).
pub fn run(m: &Manifest) -> (Vec<Outcome>, Vec<NewValue>) {
    run_jobs(m, None)
}

/// [`run`] with `jobs` cases at once, one per thread (`None`: one per
/// core); the same outcomes, in the same order, for any number.
pub fn run_jobs(m: &Manifest, jobs: Option<usize>) -> (Vec<Outcome>, Vec<NewValue>) {
    let mut outcomes = Vec::new();
    let mut updates = Vec::new();
    let cases = m.cases();
    let threads = crate::app::parallel::threads(jobs, cases.len());
    let done = |(mut o, mut u): (Vec<Outcome>, Vec<NewValue>)| {
        outcomes.append(&mut o);
        updates.append(&mut u);
        true
    };
    crate::app::parallel::ordered(&cases, threads, |&(i, c)| run_one(m, i, c), done);
    (outcomes, updates)
}

/// One case's outcomes (none for a case without a capture).
fn run_one(m: &Manifest, case_index: Option<usize>, case: &Case) -> (Vec<Outcome>, Vec<NewValue>) {
    {
        let Some(capture) = &case.capture else {
            return (Vec::new(), Vec::new());
        };
        let capture_path = m.dir().join(capture);
        let mut r = CaseRun {
            manifest: m,
            case_index,
            case_name: case.name.clone().unwrap_or_else(|| capture.clone()),
            outcomes: Vec::new(),
            updates: Vec::new(),
        };
        let ran = run_case(case, &capture_path, &mut r);
        if let Err(e) = &ran {
            let line = e.line().or_else(|| m.key_line(case_index, "capture"));
            let name = match e {
                Error::Manifest { .. } => "settings",
                _ => "capture",
            };
            let message = e.detail(&m.path);
            r.outcomes
                .push(Outcome::error(&m.path, line, r.case_name.clone(), name.into(), message));
        }
        if ran.is_ok() && case.expectation_count() == 0 {
            // Nothing written down is nothing checked: that is not a pass.
            r.outcomes.push(Outcome {
                manifest: m.path.clone(),
                line: None,
                case: r.case_name.clone(),
                kind: "none",
                name: "expectations".into(),
                passed: false,
                expected: "at least one".into(),
                actual: "none".into(),
                message: Some(format!(
                    "no expectations: record the current values with nlorder check --update {}",
                    m.path.display()
                )),
                truncated_after: None,
                truncated: false,
            });
        }
        // In the order the manifest writes them (the expectations of one
        // section keep theirs; what has no line comes last).
        r.outcomes.sort_by_key(|o| o.line.unwrap_or(usize::MAX));
        (r.outcomes, r.updates)
    }
}

/// The looks in a case's capture (for `at = "auto"`).
fn who_looked(
    m: &Manifest,
    case_index: Option<usize>,
    path: &Path,
    c: &Case,
) -> Result<Vec<crate::looks::Look>, Error> {
    let (mut session, console) = open(m, case_index, path, c)?;
    let who = session.who(console.trace).map_err(|e| capture_error(path, e))?;
    Ok(who.looks)
}

/// The program whose look `at = "auto"` stands for in a gai expectation.
fn gai_looker(resolver: Option<&str>) -> Looker {
    match resolver {
        None | Some("glibc") => Looker::GlibcGetaddrinfo,
        Some("go") => Looker::GoResolver,
        _ => Looker::Nobody,
    }
}

/// The snapshot at an index `run_case`'s `get` returned (one it found or
/// had just pushed, so always there).
fn snapshot_at(snaps: &[Snapshot], i: usize) -> Result<&Snapshot, String> {
    snaps.get(i).ok_or_else(|| format!("no snapshot {i}"))
}

fn run_case(case: &Case, capture: &Path, r: &mut CaseRun<'_>) -> Result<(), Error> {
    let mut snaps: Vec<Snapshot> = Vec::new();
    let (manifest, case_index) = (r.manifest, r.case_index);
    let mut looks: Option<Vec<crate::looks::Look>> = None;
    // Returns the snapshot index for an `at`, rebuilding once per moment;
    // `at = "auto"` is the last look of `looker` (detect, gai).
    let mut get = |at: &Option<manifest::AtValue>,
                   looker: Option<Looker>,
                   snaps: &mut Vec<Snapshot>|
     -> Result<Result<usize, String>, Error> {
        let at = match at.as_ref().map(|a| a.resolve()).transpose() {
            Ok(None) => None,
            Ok(Some(AtSpec::Moment(a))) => Some(a),
            Ok(Some(AtSpec::Auto)) => {
                let Some(looker) = looker else {
                    return Ok(Err("at = \"auto\" is for detect and gai expectations".into()));
                };
                if looks.is_none() {
                    looks = Some(who_looked(manifest, case_index, capture, case)?);
                }
                let last = crate::looks::choose(looks.as_deref().unwrap_or_default(), looker, false);
                last.first().map(|l| At::Packet(l.look.end_packet))
            }
            Err(e) => return Ok(Err(format!("at: {e}"))),
        };
        let i = match snaps.iter().position(|s| s.at == at) {
            Some(i) => i,
            None => {
                snaps.push(snapshot(manifest, case_index, capture, case, at)?);
                snaps.len() - 1
            }
        };
        // An expectation at a moment the capture does not hold checks nothing.
        Ok(match snaps.get(i).and_then(|s| s.outside.clone()) {
            Some(w) => Err(w),
            None => Ok(i),
        })
    };
    if case.expectation_count() == 0 {
        // Nothing to check still needs a capture that can be read.
        get(&None, None, &mut snaps)?.map_err(|w| Error::Capture {
            path: capture.to_path_buf(),
            message: w,
        })?;
    }
    for (i, e) in case.link_order.iter().enumerate() {
        let s = get(&e.at, None, &mut snaps)?.and_then(|i| snapshot_at(&snaps, i));
        let actual = s.map(|s| Value::List(s.model.links().iter().map(|l| l.display_name()).collect()));
        r.record(
            "link_order",
            i,
            format!("link order{}", at_suffix(&e.at)),
            e.links.clone().map(Value::List),
            actual,
            "links",
            None,
        );
    }
    for (i, e) in case.address.iter().enumerate() {
        let s = get(&e.at, None, &mut snaps)?.and_then(|i| snapshot_at(&snaps, i));
        let want = e.present.unwrap_or(true);
        let actual = s.and_then(|s| {
            let addrs = link_addresses(&s.model, &e.interface, None)
                .ok_or_else(|| format!("no interface named {}", e.interface))?;
            let here = addrs
                .iter()
                .any(|a| a == &e.address || a.split('/').next() == Some(e.address.as_str()));
            Ok(Value::Text(if here { "present" } else { "absent" }.into()))
        });
        let name = format!("address {} on {}{}", e.address, e.interface, at_suffix(&e.at));
        let expected = Some(Value::Text(if want { "present" } else { "absent" }.into()));
        r.record("address", i, name, expected, actual, "present", None);
    }
    for (i, e) in case.address_order.iter().enumerate() {
        let s = get(&e.at, None, &mut snaps)?.and_then(|i| snapshot_at(&snaps, i));
        let actual = s.and_then(|s| {
            link_addresses(&s.model, &e.interface, e.family)
                .map(Value::List)
                .ok_or_else(|| format!("no interface named {}", e.interface))
        });
        let family = e.family.map(|f| format!(" (IPv{f})")).unwrap_or_default();
        let name = format!("address order on {}{family}{}", e.interface, at_suffix(&e.at));
        r.record(
            "address_order",
            i,
            name,
            e.addresses.clone().map(Value::List),
            actual,
            "addresses",
            None,
        );
    }
    for (i, e) in case.detect.iter().enumerate() {
        let s = get(&e.at, Some(Looker::Go), &mut snaps)?.and_then(|i| snapshot_at(&snaps, i));
        let name = format!("detect {} (IPv{})", e.method, e.family());
        let at = at_suffix(&e.at);
        // Settings nlorder cannot use are the manifest's mistake: an error
        // (exit 2), and the other expectations still run.
        let spec = match e
            .validate(std::slice::from_ref(&r.case_name))
            .and_then(|()| e.spec(&r.case_name))
        {
            Ok(spec) => spec,
            Err(err) => {
                let line = r.manifest.line_of(r.case_index, "detect", i);
                r.outcomes.push(Outcome::error(
                    &r.manifest.path,
                    line,
                    r.case_name.clone(),
                    format!("{name}{at}"),
                    err.to_string(),
                ));
                continue;
            }
        };
        let spec: Result<_, String> = Ok(spec);
        let d = s.and_then(|s| spec.map(|spec| spec.detect(&s.model)));
        // Why the replay chose nothing, in its own words, as `detect` says it.
        let why = d.as_ref().ok().and_then(|d| {
            let error = d.error.as_ref()?;
            Some(match d.address {
                None => format!("{} (IPv{}) -> nothing: {error}", d.method, d.family),
                Some(_) => error.to_string(),
            })
        });
        // `address` means what `--expect` means (a bare IP matches any prefix).
        let addr = d.clone().map(|d| match &e.expect {
            Some(want) if want.holds(&d) => Value::Text(want.to_string()),
            _ => Value::Text(d.address_text().unwrap_or_else(|| "none".into())),
        });
        let iface = d.map(|d| Value::Text(d.interface.unwrap_or_else(|| "none".into())));
        // Only the values written down are checked; with none, the
        // expectation is not recorded yet. --update fills both.
        if e.expect.is_some() || e.interface.is_none() {
            r.record(
                "detect",
                i,
                format!("{name}{at}"),
                e.expect.as_ref().map(|x| Value::Text(x.to_string())),
                addr,
                "address",
                why.clone(),
            );
        } else {
            r.update_only("detect", i, "address", addr);
        }
        if e.interface.is_some() {
            r.record(
                "detect",
                i,
                format!("{name} interface{at}"),
                e.interface.clone().map(Value::Text),
                iface,
                "interface",
                why,
            );
        } else {
            r.update_only("detect", i, "interface", iface);
        }
    }
    for (i, e) in case.gai.iter().enumerate() {
        let s = get(&e.at, Some(gai_looker(e.resolver.as_deref())), &mut snaps)?.and_then(|i| snapshot_at(&snaps, i));
        let actual = s.and_then(|snap| {
            let input = ips(&e.candidates, "candidates")?;
            let resolver = match e.resolver.as_deref().unwrap_or("glibc") {
                "glibc" => gai::Resolver::Glibc,
                "go" => gai::Resolver::Go,
                "musl" => gai::Resolver::Musl,
                o => return Err(format!("resolver = {o:?}: expected glibc, go or musl")),
            };
            let gai_conf = match &e.gai_conf {
                Some(p) => {
                    let path = r.manifest.dir().join(p);
                    gai::GaiConf::parse(
                        &std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?,
                    )
                }
                None => gai::GaiConf::default(),
            };
            let mut sources = Vec::new();
            for s in &e.source {
                let (d, src) = s
                    .split_once('=')
                    .ok_or_else(|| format!("source: {s:?} is not DEST=SRC"))?;
                let d: IpAddr = d.parse().map_err(|_| format!("source: {d:?} is not an IP address"))?;
                let src: IpAddr = src
                    .parse()
                    .map_err(|_| format!("source: {src:?} is not an IP address"))?;
                sources.push((d, src));
            }
            let res = gai::sort(
                &snap.model,
                &input,
                &gai::Options {
                    resolver,
                    gai_conf,
                    sources,
                },
            );
            Ok(Value::List(res.order.iter().map(|a| a.to_string()).collect()))
        });
        let name = format!(
            "gai {} {}{}",
            e.resolver.as_deref().unwrap_or("glibc"),
            e.candidates.join(","),
            at_suffix(&e.at)
        );
        r.record("gai", i, name, e.order.clone().map(Value::List), actual, "order", None);
    }
    if let Some(spec) = &case.warnings {
        let line = r.manifest.line_of(r.case_index, "warnings", 0);
        let current = get(&None, None, &mut snaps)?
            .and_then(|i| snapshot_at(&snaps, i))
            .map(|s| s.warnings.clone());
        let (expected, passed, actual, message) = match (spec, &current) {
            (_, Err(e)) => (String::new(), false, String::new(), Some(e.clone())),
            (WarningsSpec::Word(w), Ok(now)) if w == "none" => (
                "none".to_string(),
                now.is_empty(),
                if now.is_empty() { "none".into() } else { now.join("; ") },
                None,
            ),
            (WarningsSpec::Word(w), Ok(_)) => (
                w.clone(),
                false,
                String::new(),
                Some(format!("warnings = {w:?}: expected \"none\" or a list")),
            ),
            (WarningsSpec::Allowed(allowed), Ok(now)) => {
                let unexpected: Vec<&String> = now
                    .iter()
                    .filter(|w| !allowed.iter().any(|s| w.contains(s.as_str())))
                    .collect();
                let shown = if unexpected.is_empty() {
                    "only allowed warnings".to_string()
                } else {
                    format!(
                        "not allowed: {}",
                        unexpected.iter().map(|w| w.as_str()).collect::<Vec<_>>().join("; ")
                    )
                };
                (
                    format!("only warnings containing [{}]", allowed.join(", ")),
                    unexpected.is_empty(),
                    shown,
                    None,
                )
            }
        };
        if let Ok(now) = current {
            r.updates.push(NewValue {
                case: r.case_index,
                kind: "warnings",
                index: 0,
                key: "warnings",
                value: if now.is_empty() {
                    Value::Text("none".into())
                } else {
                    Value::List(now)
                },
            });
        }
        r.outcomes.push(Outcome {
            manifest: r.manifest.path.clone(),
            line,
            case: r.case_name.clone(),
            kind: "warnings",
            name: "warnings".into(),
            passed,
            expected,
            actual,
            message,
            truncated_after: None,
            truncated: false,
        });
    }
    // Every answer of a cut capture says so.
    if let Some(n) = snaps.iter().find_map(|s| s.truncated_after) {
        for o in &mut r.outcomes {
            o.truncated_after = Some(n);
            o.truncated = true;
        }
    }
    Ok(())
}

/// What `--update` makes of one manifest.
enum Update {
    /// The values computed now are the ones written down.
    Unchanged,
    /// The manifest with the values computed now (and, for a case with
    /// no expectations, the default ones).
    Changed(Box<Manifest>),
    /// Some of it could not be run: nothing is written.
    NotRun,
}

fn update_of(m: &Manifest, jobs: Option<usize>) -> Result<Update, Error> {
    let toml_error = |e: toml_edit::TomlError| Error::manifest(&m.path, None, e.to_string());
    let empty: Vec<Option<usize>> = m
        .cases()
        .iter()
        .filter(|(_, c)| c.expectation_count() == 0)
        .map(|(i, _)| *i)
        .collect();
    let with_defaults = match empty.is_empty() {
        true => m.clone(),
        false => manifest::parse(&m.path, update::skeleton(&m.text, &empty).map_err(toml_error)?)?,
    };
    let (outcomes, values) = run_jobs(&with_defaults, jobs);
    if outcomes.iter().any(Outcome::is_error) {
        return Ok(Update::NotRun);
    }
    let text = update::apply(&with_defaults.text, &values).map_err(toml_error)?;
    if text == m.text {
        return Ok(Update::Unchanged);
    }
    Ok(Update::Changed(Box::new(manifest::parse(&m.path, text)?)))
}

/// Runs every manifest under `paths`; the outcomes in manifest order. A
/// path, manifest or case that cannot be run is an `error` outcome and the
/// others still run; the only error is finding nothing at all to run.
///
/// With `update`, first writes the values computed now into each manifest,
/// snapshot style, but only one that ran without an error; `written` hears
/// of each file changed (`true`) and each left as it was because some of
/// it could not be run (`false`).
pub fn run_paths(
    paths: &[std::path::PathBuf],
    update: bool,
    jobs: Option<usize>,
    mut written: impl FnMut(&Path, bool),
) -> Result<Vec<Outcome>, Error> {
    let (files, errors) = manifest::discover(paths);
    if files.is_empty() && errors.is_empty() {
        return Err(Error::NoManifests);
    }
    let place_error =
        |path: &Path, e: &Error, name: &str| Outcome::error(path, e.line(), String::new(), name.into(), e.detail(path));
    // A path that cannot be read is placed at itself.
    let mut outcomes: Vec<Outcome> = errors
        .iter()
        .map(|e| {
            let path = match e {
                Error::Io { path, .. } | Error::Capture { path, .. } | Error::Manifest { path, .. } => path.as_path(),
                Error::NoManifests => Path::new(""),
            };
            place_error(path, e, "path")
        })
        .collect();
    for f in &files {
        let mut m = match manifest::load(f) {
            Ok(m) => m,
            Err(e) => {
                outcomes.push(place_error(f, &e, "manifest"));
                continue;
            }
        };
        if update {
            match update_of(&m, jobs) {
                Ok(Update::Changed(new)) => match std::fs::write(f, &new.text) {
                    Ok(()) => {
                        written(f, true);
                        m = *new;
                    }
                    Err(e) => {
                        let e = Error::Io {
                            path: f.clone(),
                            source: e,
                        };
                        outcomes.push(place_error(f, &e, "update"));
                    }
                },
                Ok(Update::Unchanged) => {}
                Ok(Update::NotRun) => written(f, false),
                Err(e) => outcomes.push(place_error(f, &e, "update")),
            }
        }
        // Without an update written, the manifest as it is (whose errors
        // say why nothing was written).
        outcomes.append(&mut run_jobs(&m, jobs).0);
    }
    Ok(outcomes)
}
