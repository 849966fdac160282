//! `nlorder gai`: the order getaddrinfo (glibc, Go or musl) would return
//! the candidates in, at a moment, at every look, or after every change;
//! and, given the order a program got, what explains a difference. The
//! candidates are given, or (`--hosts`) read for a name from a hosts file
//! as glibc's files backend reads it, at each moment (AI_ADDRCONFIG
//! depends on the host's addresses).

use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use super::{Console, Error, Format, Source, Status};
use crate::ingest::rebuild::{AtSpec, Watcher, per_packet};
use crate::looks::Looker;
use crate::model::{Model, ModelOptions};
use crate::netlink::values::AddressFamily;
use crate::replay::gai::hosts::{self, HostConf, HostsFile, Lookup};
use crate::replay::gai::{self, GaiConf, Resolver};
use crate::report;
use crate::report::gai::{GaiLook, GaiLooks, GaiReport, GaiTimeline, Observed};
use crate::report::gai_hosts::HostsShown;

/// One resolver's order of `addrs` on one capture.
#[derive(Debug, Clone)]
pub struct Gai {
    /// The capture of the host that resolves.
    pub capture: Source,
    /// The candidates, in the order the name service returned them
    /// (empty with `hosts`).
    pub addrs: Vec<IpAddr>,
    /// `--hosts`: the candidates for a name, from a hosts file.
    pub hosts: Option<HostsQuery>,
    /// What the capture cannot tell about the host's kernel.
    pub model: ModelOptions,
    /// Whose sort to replay: glibc, Go's own resolver, or musl.
    pub resolver: Resolver,
    /// The host's /etc/gai.conf.
    pub gai_conf: Option<PathBuf>,
    /// The moment to sort at (default: the end of the capture).
    pub at: Option<AtSpec>,
    /// With `--at auto`: the order at every look.
    pub all_looks: bool,
    /// After every change instead of at one moment.
    pub timeline: bool,
    /// `DEST=SRC`: source addresses the capture cannot tell.
    pub sources: Vec<(IpAddr, IpAddr)>,
    /// The order the program got, as a list ...
    pub observed: Vec<IpAddr>,
    /// ... or as `getent ahosts` output.
    pub observed_file: Option<PathBuf>,
    /// Text or JSON.
    pub format: Format,
}

/// `--hosts FILE` and the name looked up in it.
#[derive(Debug, Clone)]
pub struct HostsQuery {
    /// The name, as the program passes it to getaddrinfo.
    pub name: String,
    /// The hosts file.
    pub file: PathBuf,
    /// The host's /etc/host.conf (`multi`); without it `multi` is off.
    pub host_conf: Option<PathBuf>,
    /// The program passed AI_ADDRCONFIG and AI_V4MAPPED, as `getent
    /// ahosts` does.
    pub addrconfig: bool,
}

/// The hosts file and host.conf, read.
struct Hosts<'a> {
    query: &'a HostsQuery,
    file: HostsFile,
    conf: HostConf,
}

impl<'a> Hosts<'a> {
    /// Reads both files; an unreadable one is named, a name that is an
    /// address or that no line names, and a resolver other than glibc, are
    /// refused.
    fn read(query: &'a HostsQuery, resolver: Resolver) -> Result<Hosts<'a>, Error> {
        if resolver != Resolver::Glibc {
            return Err(Error::Usage(
                "--hosts reads the file as glibc's files backend does; Go and musl read it their own way, which \
                 is not replayed: give --resolver glibc"
                    .into(),
            ));
        }
        if query.name.is_empty() || query.name.parse::<IpAddr>().is_ok() {
            return Err(Error::Usage(format!(
                "{:?} is not a name: getaddrinfo reads no hosts file for an address",
                query.name
            )));
        }
        let read = |p: &Path| std::fs::read(p).map_err(|e| Error::Unreadable(format!("{}: {e}", p.display())));
        let file = HostsFile::parse(&read(&query.file)?);
        let conf = match &query.host_conf {
            Some(p) => HostConf::parse(&read(p)?),
            None => HostConf::default(),
        };
        if !file.names(&query.name) {
            return Err(Error::Usage(format!(
                "{}: no line names {}",
                query.file.display(),
                query.name
            )));
        }
        Ok(Hosts { query, file, conf })
    }

    /// The candidates on the host `m` stands for.
    fn lookup(&self, m: &Model) -> Lookup {
        let asked = hosts::asked(m, self.query.addrconfig);
        self.file.lookup(&self.query.name, asked, self.conf.multi)
    }

    /// What the report shows of `lookup`.
    fn shown<'b>(&'b self, lookup: &'b Lookup) -> HostsShown<'b> {
        HostsShown {
            file: &self.query.file,
            name: &self.query.name,
            host_conf: self.query.host_conf.as_deref(),
            host_conf_ignored: &self.conf.ignored,
            lookup,
        }
    }
}

/// The sort at a model (its candidates looked up on it with `--hosts`).
type SortAt<'a> = dyn Fn(&Model) -> gai::GaiResult + 'a;

/// The program `--at auto` looks for: Go's own resolver asks netlink for
/// nothing (on real captures `GODEBUG=netdns=go` leaves no request behind),
/// so its program's interface look stands for it; musl's asks for nothing
/// either.
pub fn looker(resolver: Resolver) -> Looker {
    match resolver {
        Resolver::Glibc => Looker::GlibcGetaddrinfo,
        Resolver::Go => Looker::GoResolver,
        Resolver::Musl => Looker::Nobody,
    }
}

impl Gai {
    /// Sorts the addresses as the resolver would and prints the order
    /// with its reasons; [`Status::Mismatch`] when an observed order is
    /// not the predicted one (or, with the timeline, none of its orders).
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let observed = observed(&self.observed, self.observed_file.as_deref()).map_err(Error::Unreadable)?;
        let gai_conf = match &self.gai_conf {
            Some(p) => GaiConf::parse(
                &std::fs::read_to_string(p).map_err(|e| Error::Unreadable(format!("{}: {e}", p.display())))?,
            ),
            // a sosreport given as the capture: its own /etc/gai.conf
            None => match &self.capture {
                Source::Path(p) => crate::snapshot::etc_file(p, "gai.conf")
                    .map(|t| GaiConf::parse(&t))
                    .unwrap_or_default(),
                _ => GaiConf::default(),
            },
        };
        let options = gai::Options {
            resolver: self.resolver,
            gai_conf,
            sources: self.sources.clone(),
        };
        let hosts = self.hosts.as_ref().map(|q| Hosts::read(q, self.resolver)).transpose()?;
        // The candidates on the host a model stands for, and the lookup
        // that gave them.
        let input = |m: &Model| match &hosts {
            Some(h) => {
                let l = h.lookup(m);
                (l.addresses(), Some(l))
            }
            None => (self.addrs.clone(), None),
        };
        let sort = |m: &Model| gai::sort(m, &input(m).0, &options);
        if self.timeline {
            return self.timeline(console, out, (&sort, hosts.as_ref()), &options, &observed);
        }
        let looker = looker(self.resolver);
        let open = || console.open(&self.capture);
        let (trace, model) = (console.trace, self.model);
        if self.all_looks {
            let (results, grounds) =
                super::session::evaluate_following(open, trace, model, self.at, (looker, true), &mut (), sort)?;
            // Each look's order, and whether it differs from the previous one.
            let mut before: Option<Vec<IpAddr>> = None;
            let looks: Vec<GaiLook> = results
                .into_iter()
                .map(|(moment, result)| {
                    let changed = before.as_ref().is_some_and(|b| *b != result.order);
                    before = Some(result.order.clone());
                    GaiLook {
                        moment,
                        result,
                        changed,
                    }
                })
                .collect();
            let looks = GaiLooks {
                looks: &looks,
                grounds: &grounds,
            };
            report::print(self.format, console.style, &looks, out)?;
            out.flush()?;
            return Ok(Status::Success);
        }
        // With an observed order, a second model watches the whole capture in
        // the same pass: the stretches whose order is the observed one.
        let order = |m: &Model| sort(m).order;
        let mut watcher = (!observed.is_empty())
            .then(|| Watcher::new(model, order, order).only_where(only_routes_to(self.destinations(hosts.as_ref()))));
        let (results, grounds) =
            super::session::evaluate_following(open, trace, model, self.at, (looker, false), &mut watcher, |m| {
                let (addrs, lookup) = input(m);
                let result = gai::sort(m, &addrs, &options);
                let mut why = Vec::new();
                if !observed.is_empty() && observed != result.order {
                    if let Some(h) = &hosts {
                        let q = h.query;
                        let asked = (q.name.as_str(), h.conf.multi, q.addrconfig);
                        why = hosts::explain(m, &h.file, asked, &options, &observed);
                    }
                    why.extend(gai::explain_mismatch(m, &addrs, &options, &observed));
                }
                (result, why, lookup)
            })?;
        let Some((moment, (result, mut why, lookup))) = results.into_iter().next_back() else {
            return Ok(Status::Success);
        };
        let spans = watcher.map_or_else(Vec::new, |w| {
            let last = w.last_packet();
            let flips = per_packet(w.finish().0, |a, b| a == b);
            gai::spans(flips.iter().map(|f| (f.packet, f.after.as_slice())), last)
        });
        let mismatch = !observed.is_empty() && observed != result.order;
        if mismatch && let Some(e) = gai::explain_by_moment(&spans, moment.packet, &observed) {
            why.insert(0, e);
        }
        let moments: Vec<gai::Span> = spans.into_iter().filter(|s| s.order == observed).collect();
        let seen = Observed {
            order: &observed,
            matches: observed == result.order,
            why: &why,
            moments: &moments,
        };
        let answer = GaiReport {
            result: &result,
            moment: &moment,
            observed: seen,
            grounds: &grounds,
            hosts: hosts.as_ref().zip(lookup.as_ref()).map(|(h, l)| h.shown(l)),
        };
        report::print(self.format, console.style, &answer, out)?;
        out.flush()?;
        Ok(if mismatch { Status::Mismatch } else { Status::Success })
    }

    /// `gai --timeline`: the order re-sorted after every change, listed where
    /// it changed (one entry per packet: what `--at PACKET` can name).
    fn timeline(
        &self,
        console: &Console,
        out: &mut dyn Write,
        (sort, hosts): (&SortAt<'_>, Option<&Hosts<'_>>),
        options: &gai::Options,
        observed: &[IpAddr],
    ) -> Result<Status, Error> {
        let key = |m: &Model| sort(m).order;
        let mut session = console.open(&self.capture)?;
        let matters = only_routes_to(self.destinations(hosts));
        let watcher = Watcher::new(self.model, key, sort).only_where(matters);
        let (flips, _) = session.watch_with(console.trace, watcher)?;
        let flips = per_packet(flips, |a, b| a.order == b.order);
        // With --hosts, the candidates of the last change (AI_ADDRCONFIG may
        // change them along the capture); with no change, the host had no
        // address: both families asked.
        let input = match (hosts, flips.last()) {
            (None, _) => self.addrs.clone(),
            (Some(_), Some(f)) => f.after.input.clone(),
            (Some(h), None) => h
                .file
                .lookup(&h.query.name, hosts::Asked::Both, h.conf.multi)
                .addresses(),
        };
        // The flips whose order is the observed one.
        let gives_observed: Vec<bool> = flips
            .iter()
            .map(|f| !observed.is_empty() && f.after.order == observed)
            .collect();
        let listed = GaiTimeline {
            resolver: options.resolver,
            input: &input,
            flips: &flips,
            grounds: &session.grounds,
            observed,
            gives_observed: &gives_observed,
        };
        report::print(self.format, console.style, &listed, out)?;
        out.flush()?;
        let explained = observed.is_empty() || gives_observed.contains(&true);
        Ok(if explained { Status::Success } else { Status::Mismatch })
    }
}

impl Gai {
    /// Every candidate the sort may be given: the addresses, or every
    /// address the hosts file has for the name (AI_ADDRCONFIG only leaves
    /// some out).
    fn destinations(&self, hosts: Option<&Hosts<'_>>) -> Vec<IpAddr> {
        match hosts {
            None => self.addrs.clone(),
            Some(h) => h
                .file
                .lookup(&h.query.name, hosts::Asked::Both, h.conf.multi)
                .addresses(),
        }
    }
}

/// Which messages may change the order of `destinations`: all but those
/// whose every change adds or removes a route to none of them. The sort
/// reads routes only through the kernel's lookup of each destination (an
/// IPv4-mapped one as IPv4), and whether the host has routes at all
/// (without any, connected routes are inferred): a route whose prefix
/// holds no destination changes neither while a family keeps some route.
fn only_routes_to(destinations: Vec<IpAddr>) -> crate::ingest::rebuild::Matters {
    let mut dests = destinations.clone();
    dests.extend(destinations.iter().filter_map(|d| match d {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4),
        IpAddr::V4(_) => None,
    }));
    use crate::model::Change;
    let mut had = None;
    Box::new(move |m: &Model, events: &[crate::model::Event]| {
        let has = Some((
            m.has_routes_of(AddressFamily::Inet),
            m.has_routes_of(AddressFamily::Inet6),
        ));
        if std::mem::replace(&mut had, has) != has {
            return true;
        }
        let aside = |c: &Change| match c {
            Change::RouteAdded { route, .. } | Change::RouteRemoved { route, .. } => !dests.iter().any(|d| {
                (route.family == AddressFamily::Inet) == d.is_ipv4()
                    && route
                        .dst
                        .is_none_or(|net| crate::replay::source::in_prefix(*d, net, route.dst_len))
            }),
            _ => false,
        };
        !events.iter().all(|e| match &e.change {
            Change::Unnotified { change, .. } => aside(change),
            c => aside(c),
        })
    })
}

/// `--observed A,B` or `--observed-file F` (getent output): the order the
/// program got; an error line naming the file when it cannot be read.
fn observed(list: &[IpAddr], file: Option<&Path>) -> Result<Vec<IpAddr>, String> {
    match file {
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| parse_observed(&t))
            .map_err(|e| format!("{}: {e}", p.display())),
        None => Ok(list.to_vec()),
    }
}

/// The addresses of `getent ahosts` output (its STREAM lines, one per
/// answer: an address the name service returned twice is there twice;
/// the DGRAM and RAW lines repeat them) or of one address per line, in
/// order, repeats of the previous one left out.
pub fn parse_observed(text: &str) -> Result<Vec<IpAddr>, String> {
    let mut out: Vec<IpAddr> = Vec::new();
    let has_socktypes = text
        .lines()
        .any(|l| l.split_whitespace().nth(1).is_some_and(|t| t == "STREAM"));
    for (n, line) in text.lines().enumerate() {
        let mut f = line.split_whitespace();
        let Some(first) = f.next() else { continue };
        if has_socktypes && f.next() != Some("STREAM") {
            continue;
        }
        let addr = first.split('%').next().unwrap_or(first);
        let ip: IpAddr = addr
            .parse()
            .map_err(|_| format!("line {}: {first:?} is not an address", n + 1))?;
        if has_socktypes || out.last() != Some(&ip) {
            out.push(ip);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Change, Event, LinkEntry, Origin, RouteEntry};

    /// A static route to `dst` (`10.0.0.0/8`, `default6`) through device 2.
    fn route(dst: &str) -> RouteEntry {
        crate::replay::testhost::route4(dst, None, 2)
    }

    fn added(r: RouteEntry) -> Event {
        Event {
            packet: 1,
            ts: None,
            inferred: false,
            change: Change::RouteAdded { route: r, dev: None },
        }
    }

    #[test]
    fn only_routes_to_a_destination_matter() {
        let dests: Vec<IpAddr> = ["10.1.2.3", "2001:db8::1", "::ffff:192.0.2.7"]
            .iter()
            .filter_map(|a| a.parse().ok())
            .collect();
        let mut matters = only_routes_to(dests);
        let m = Model::new(ModelOptions::default());
        // The first look always counts (whether the host has routes is news).
        assert!(matters(&m, &[added(route("100.0.0.0/24"))]));
        let aside = route("100.0.0.0/24");
        assert!(!matters(&m, &[added(aside.clone())]));
        assert!(!matters(&m, &[added(route("2001:db9::/32"))]));
        // A prefix that holds a destination, the default route, the IPv4
        // form of a mapped destination.
        assert!(matters(&m, &[added(route("10.0.0.0/8"))]));
        assert!(matters(&m, &[added(route("default6"))]));
        assert!(matters(&m, &[added(route("192.0.2.0/24"))]));
        // Any other change, alone or among routes aside.
        let link = Event {
            packet: 1,
            ts: None,
            inferred: false,
            change: Change::LinkAdded(LinkEntry::placeholder(3, Origin::Dump(0))),
        };
        assert!(matters(&m, &[added(aside), link]));
    }
}
