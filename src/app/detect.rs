//! `nlorder detect`: what a node-IP detection method would choose on one
//! or more captures (nodes), at a moment, at every look, or after every
//! change; conflicts between nodes and `--expect` decide the status.

use std::io::Write;
use std::path::PathBuf;

use super::settings::DetectSettings;
use super::{Console, Error, Format, Source, Status};
use crate::ingest::rebuild::AtSpec;
use crate::ingest::rebuild::Grounds;
use crate::looks::Looker;
use crate::model::{Model, ModelOptions};
use crate::replay::Family;
use crate::replay::chooser::Asks;
use crate::replay::method::Method;
use crate::replay::verdict::Choice;
use crate::replay::verdict::Detection;
use crate::replay::{MethodSpec, matrix};
use crate::report;
use crate::report::detect::{Answer, DetectReport, Look, MatrixAt, NodeAnswer, outcome};
use crate::report::moment::outside_warning;

/// One detection method over captures named by node.
#[derive(Debug, Clone)]
pub struct Detect {
    /// The captures, one per node (see [`nodes`]).
    pub nodes: Vec<Node>,
    /// The method and its settings, as the replayed program (calico-node,
    /// kubelet, flannel, kubeadm, k3s, Cilium, etcd, Swarm, Consul, Nomad)
    /// would read them.
    pub settings: DetectSettings,
    /// A Tigera operator `Installation` whose method replaces the settings'.
    pub installation: Option<PathBuf>,
    /// What the capture cannot tell about the host's kernel.
    pub model: ModelOptions,
    /// The moment to evaluate at (default: the end of each capture).
    pub at: Option<AtSpec>,
    /// After every change instead of at one moment.
    pub timeline: bool,
    /// Every method side by side.
    pub all: bool,
    /// At every look `--at auto` finds.
    pub all_looks: bool,
    /// Text: the answer and its runner-up only.
    pub brief: bool,
    /// Text or JSON.
    pub format: Format,
    /// Captures read at once (each on its own thread); `None`: one per
    /// core. The output is the same for any number.
    pub jobs: Option<usize>,
}

impl Detect {
    /// Replays the method on every node, prints the answers and the
    /// conflicts between nodes; [`Status::Mismatch`] on a conflict or an
    /// `--expect` that does not hold.
    pub fn run(&self, console: &Console, out: &mut dyn Write) -> Result<Status, Error> {
        let mut settings = self.settings.clone();
        // Said even with --quiet: the answer is not the release asked for.
        if let Some(w) = crate::report::semantics::newer_release(settings.programs.calico.calico_version) {
            crate::diag::say(format_args!("nlorder: warning: --calico-version: {w}"));
        }
        // The families to replay, each with its method: one run, or one
        // per family an operator Installation configures (both when
        // neither --family nor the Installation says one).
        let mut runs: Vec<(Option<Family>, Method)> = vec![(settings.family, settings.method.clone())];
        if let Some(path) = &self.installation {
            let families = match settings.family {
                Some(f) => vec![f],
                None => super::operator::families_of_file(path).map_err(Error::Unreadable)?,
            };
            runs.clear();
            for family in families {
                let (method, why) = super::operator::method_of_file(path, family).map_err(Error::Unreadable)?;
                if !console.quiet {
                    crate::diag::say(format_args!("nlorder: --installation: {method} ({why})"));
                }
                runs.push((Some(family), Method::Calico(method)));
            }
        }
        let names: Vec<String> = self.nodes.iter().map(|n| n.name.clone()).collect();
        // Several captures are read at once, one per thread (none of them
        // draws a progress bar then); answers and stderr come in argument
        // order, and the first capture (in that order) that fails stops the
        // run as it would on one thread.
        let threads = super::parallel::threads(self.jobs, self.nodes.len());
        let quiet_console;
        let console = match threads {
            1 => console,
            _ => {
                quiet_console = Console {
                    progress: None,
                    ..*console
                };
                &quiet_console
            }
        };
        let mut nodes = Vec::new();
        for (family, method) in runs {
            settings.family = family;
            settings.method = method;
            settings.validate(&names).map_err(|e| Error::Usage(e.to_string()))?;
            let settings = &settings;
            let one = |n: &Node| -> Result<NodeAnswer, Error> {
                let spec = settings.spec(&n.name).map_err(|e| Error::Usage(e.to_string()))?;
                let (answer, grounds) = self.answer(console, &n.capture, &spec)?;
                Ok(NodeAnswer {
                    node: n.name.clone(),
                    capture: n.capture.path().to_path_buf(),
                    answer,
                    grounds,
                })
            };
            let mut failed_first: Option<Error> = None;
            super::parallel::ordered(&self.nodes, threads, one, |r| match r {
                Ok(a) => {
                    nodes.push(a);
                    true
                }
                Err(e) => {
                    failed_first = Some(e);
                    false
                }
            });
            if let Some(e) = failed_first {
                return Err(e);
            }
        }
        let last: Vec<(String, Detection)> = nodes
            .iter()
            .filter_map(|n| last(n).map(|d| (n.node.clone(), d.clone())))
            .collect();
        let conflicts = crate::replay::conflict::check(&last);
        let mut failed: Vec<String> = Vec::new();
        if let Some(want) = &settings.expect {
            let missed = last.iter().filter(|(_, d)| !want.holds(d));
            failed.extend(missed.map(|(n, d)| format!("{n}: expected {want}, got {}", outcome(d))));
            // An expectation evaluated outside the capture checked nothing.
            failed.extend(nodes.iter().flat_map(|n| {
                match &n.answer {
                    Answer::At(results) => results
                        .iter()
                        .filter_map(|(m, _)| outside_warning(m, "--at").map(|w| format!("{}: {w}", n.node)))
                        .collect(),
                    _ => Vec::new(),
                }
            }));
        }
        // Several captures are labelled, and their conflicts said (one
        // node's families, from an Installation, are not several nodes).
        let labelled = {
            let mut names = nodes.iter().map(|n| n.node.as_str());
            names.next().is_some_and(|first| names.any(|n| n != first))
        };
        let said = (labelled && !last.is_empty()).then(|| crate::replay::conflict::said(&conflicts));
        let report = DetectReport {
            nodes,
            conflicts,
            brief: self.brief,
            labelled,
            said,
        };
        report::print(self.format, console.style, &report, out)?;
        out.flush()?;
        for f in &failed {
            crate::diag::say(format_args!("nlorder: {f}"));
        }
        Ok(if failed.is_empty() && report.conflicts.is_empty() {
            Status::Success
        } else {
            Status::Mismatch
        })
    }

    /// The families `--all` replays: the one `--family` gives, else both.
    fn families(&self) -> Vec<Family> {
        match self.settings.family {
            Some(f) => vec![f],
            None => vec![Family::V4, Family::V6],
        }
    }

    /// One node's answer, in the shape the options ask for.
    fn answer(&self, console: &Console, source: &Source, spec: &MethodSpec) -> Result<(Answer, Grounds), Error> {
        if self.timeline {
            let (flips, grounds) = flips(console, source, self.model, spec)?;
            return Ok((Answer::Flips(flips), grounds));
        }
        let open = || console.open(source);
        // Most methods replay a Go program: `--at auto` finds the looks of
        // Go's `net` package and syscall.NetlinkRIB (etcd's too); those
        // reading through vishvananda/netlink (Cilium, Swarm) look alike
        // only in part, and kubeadm reads /proc. Ansible runs `ip route
        // get`, one request, which is no look.
        let who = match (self.all, spec.program().asks()) {
            (false, Asks::IpRouteGet) => Looker::OneRequest,
            _ => Looker::Go,
        };
        let looker = (who, self.all_looks);
        let (trace, model) = (console.trace, self.model);
        if self.all {
            let (results, grounds) =
                super::session::evaluate_following(open, trace, model, self.at, looker, &mut (), |m| {
                    matrix::run(m, spec, &self.families())
                })?;
            let results = results
                .into_iter()
                .map(|(moment, rows)| MatrixAt {
                    agreement: matrix::agreement(&rows),
                    moment,
                    rows,
                })
                .collect();
            return Ok((Answer::Matrix(results), grounds));
        }
        let (results, grounds) =
            super::session::evaluate_following(open, trace, model, self.at, looker, &mut (), |m| spec.detect(m))?;
        Ok(match self.all_looks {
            true => {
                let mut before: Option<Choice> = None;
                let looks = results
                    .into_iter()
                    .map(|(moment, detection)| {
                        let now = Choice(detection);
                        let changed = before.as_ref().is_some_and(|b| *b != now);
                        before = Some(now.clone());
                        Look {
                            moment,
                            detection: now.0,
                            changed,
                        }
                    })
                    .collect();
                (Answer::Looks(looks), grounds)
            }
            false => (Answer::At(results), grounds),
        })
    }
}

/// The moments `spec`'s answer changed over the whole of `source` (what
/// `--timeline` lists), and what they rest on: `report` draws the same.
pub(crate) fn flips(
    console: &Console,
    source: &Source,
    model: ModelOptions,
    spec: &MethodSpec,
) -> Result<(Vec<crate::ingest::rebuild::Flip<Choice>>, Grounds), Error> {
    let key = |m: &Model| spec.outcome(m);
    // A flip keeps the answer, not the candidates: on a big host
    // every flip would otherwise hold a row per address.
    let eval = |m: &Model| {
        let mut d = spec.detect(m);
        d.candidates = Vec::new();
        Choice(d)
    };
    let mut session = console.open(source)?;
    let (flips, _) = session.watch(console.trace, model, key, eval)?;
    Ok((flips, session.grounds))
}

/// `NODE=PATH`, or a path whose file name (up to its first dot) names the node.
pub fn node_and_path(arg: &str) -> (String, std::path::PathBuf) {
    match arg.split_once('=') {
        Some((n, p)) if !n.is_empty() && !n.contains('/') => (n.to_string(), std::path::PathBuf::from(p)),
        _ => {
            let p = std::path::PathBuf::from(arg);
            let stem = p
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| arg.to_owned());
            (stem.split('.').next().unwrap_or(&stem).to_string(), p)
        }
    }
}

/// A node's capture.
#[derive(Debug, Clone)]
pub struct Node {
    /// What the node is called in the output (and in conflicts).
    pub name: String,
    /// Where its capture is read from.
    pub capture: Source,
}

/// The captures of `nlorder detect`, named (`NODE=PATH`, or the file's
/// stem); two with one name, or two reading stdin, are refused.
pub fn nodes(args: &[String]) -> Result<Vec<Node>, Error> {
    let nodes: Vec<_> = args.iter().map(|c| node_and_path(c)).collect();
    for (i, (node, path)) in nodes.iter().enumerate() {
        let earlier = nodes.get(..i).unwrap_or_default();
        if earlier.iter().any(|(n, _)| n == node) {
            return Err(Error::Usage(format!(
                "two captures are named {node}: name them NODE=PATH"
            )));
        }
        if path.as_os_str() == "-" && earlier.iter().any(|(_, p)| p == path) {
            return Err(Error::Usage("two captures read stdin (-): only one can".into()));
        }
    }
    Ok(nodes
        .into_iter()
        .map(|(name, path)| Node {
            name,
            capture: Source::Path(path),
        })
        .collect())
}

/// The node's last detection: what conflicts and `--expect` judge (none
/// for `--all`, which answers for every program).
fn last(n: &NodeAnswer) -> Option<&Detection> {
    match &n.answer {
        Answer::At(r) => r.last().map(|(_, d)| d),
        Answer::Looks(r) => r.last().map(|l| &l.detection),
        Answer::Matrix(_) => None,
        Answer::Flips(f) => f.last().map(|f| &f.after.0),
    }
}
