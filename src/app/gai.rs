//! `nlorder gai`: the order getaddrinfo (glibc, Go or musl) would return
//! the candidates in, at a moment, at every look, or after every change;
//! and, given the order a program got, what explains a difference.

use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use super::{Console, Error, Format, Source, Status};
use crate::looks::Looker;
use crate::model::{Model, ModelOptions};
use crate::rebuild::{AtSpec, Watcher, per_packet};
use crate::replay::gai::{self, GaiConf, Resolver};
use crate::report;
use crate::report::gai::{GaiLooks, GaiReport, GaiTimeline, Observed};

/// One resolver's order of `addrs` on one capture.
#[derive(Debug, Clone)]
pub struct Gai {
    /// The capture of the host that resolves.
    pub capture: Source,
    /// The candidates, in the order the name service returned them.
    pub addrs: Vec<IpAddr>,
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
            None => GaiConf::default(),
        };
        let options = gai::Options {
            resolver: self.resolver,
            gai_conf,
            sources: self.sources.clone(),
        };
        if self.timeline {
            return self.timeline(console, out, &options, &observed);
        }
        let looker = looker(self.resolver);
        let open = || console.open(&self.capture);
        let (trace, model) = (console.trace, self.model);
        if self.all_looks {
            let (results, grounds) =
                super::session::evaluate_following(open, trace, model, self.at, (looker, true), &mut (), |m| {
                    gai::sort(m, &self.addrs, &options)
                })?;
            let looks = GaiLooks {
                results: &results,
                grounds: &grounds,
            };
            report::print(self.format, console.style, &looks, out)?;
            out.flush()?;
            return Ok(Status::Success);
        }
        // With an observed order, a second model watches the whole capture in
        // the same pass: the stretches whose order is the observed one.
        let order = |m: &Model| gai::sort(m, &self.addrs, &options).order;
        let mut watcher = (!observed.is_empty()).then(|| Watcher::new(model, order, order));
        let (results, grounds) =
            super::session::evaluate_following(open, trace, model, self.at, (looker, false), &mut watcher, |m| {
                let result = gai::sort(m, &self.addrs, &options);
                let why = match !observed.is_empty() && observed != result.order {
                    true => gai::explain_mismatch(m, &self.addrs, &options, &observed),
                    false => Vec::new(),
                };
                (result, why)
            })?;
        let Some((moment, (result, mut why))) = results.into_iter().next_back() else {
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
            why: &why,
            moments: &moments,
        };
        let answer = GaiReport {
            result: &result,
            moment: &moment,
            observed: seen,
            grounds: &grounds,
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
        options: &gai::Options,
        observed: &[IpAddr],
    ) -> Result<Status, Error> {
        let key = |m: &Model| gai::sort(m, &self.addrs, options).order;
        let eval = |m: &Model| gai::sort(m, &self.addrs, options);
        let mut session = console.open(&self.capture)?;
        let (flips, _) = session.watch(console.trace, self.model, key, eval)?;
        let flips = per_packet(flips, |a, b| a.order == b.order);
        let listed = GaiTimeline {
            resolver: options.resolver,
            input: &self.addrs,
            flips: &flips,
            grounds: &session.grounds,
            observed,
        };
        report::print(self.format, console.style, &listed, out)?;
        out.flush()?;
        let explained = observed.is_empty() || flips.iter().any(|f| f.after.order == observed);
        Ok(if explained { Status::Success } else { Status::Mismatch })
    }
}

/// Addresses from `getent ahosts` output (STREAM lines; other lines of the
/// same address are duplicates) or from one address per line.
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

/// The addresses of `getent ahosts` output (its STREAM lines) or of one
/// address per line, in order, repeats of the previous one left out.
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
        if out.last() != Some(&ip) {
            out.push(ip);
        }
    }
    Ok(out)
}
