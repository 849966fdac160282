//! Printers for `nlorder check`: one line per expectation with the
//! difference shown like a diff, an `ERROR` line with the reason for each
//! manifest, case or expectation that could not be run, the
//! `N passed, M failed` summary (`, K errors` when there are), JSON, and
//! JUnit XML for CI systems (errors as `<error>` test cases).
//!
//! Contract: formatting only, fed the [`Outcome`]s of `app::check::run` (the result type is defined here, with its printers).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

/// The result of one expectation.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The manifest file the expectation is in.
    pub manifest: PathBuf,
    /// Line of the expectation's section, when known.
    pub line: Option<usize>,
    /// The case's name or capture.
    pub case: String,
    /// `link_order`, `address`, `address_order`, `detect`, `gai`,
    /// `warnings`; or `error`: it could not be run (`message` says why).
    pub kind: &'static str,
    /// What was checked, e.g. `detect first-found (IPv4)`, with the
    /// expectation's `at` when it has one (`detect first-found (IPv4) at 11`).
    pub name: String,
    /// The actual value is the expected one.
    pub passed: bool,
    /// The value the manifest expects, as text (empty for an error).
    pub expected: String,
    /// The value the capture gives, as text (empty for an error).
    pub actual: String,
    /// Why it could not be evaluated, if it could not.
    pub message: Option<String>,
    /// The capture is cut: the number of its last whole record (JSON
    /// `truncated: true` and `truncated_after`; the line says it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_after: Option<u64>,
    /// See `truncated_after`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

impl Outcome {
    /// The kind of an outcome that could not be run.
    pub const ERROR: &'static str = "error";

    /// A manifest, case or expectation that could not be run.
    pub fn error(manifest: &Path, line: Option<usize>, case: String, name: String, message: String) -> Outcome {
        Outcome {
            manifest: manifest.to_path_buf(),
            line,
            case,
            kind: Outcome::ERROR,
            name,
            passed: false,
            expected: String::new(),
            actual: String::new(),
            message: Some(message),
            truncated_after: None,
            truncated: false,
        }
    }

    /// `manifest:line`, or the manifest alone when the line is not known.
    pub fn place(&self) -> String {
        match self.line {
            Some(l) => format!("{}:{l}", self.manifest.display()),
            None => self.manifest.display().to_string(),
        }
    }

    /// Whether it could not be run (rather than passed or failed).
    pub fn is_error(&self) -> bool {
        self.kind == Outcome::ERROR
    }
}

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::report::style::Style;
use crate::report::{JUnit, Json, Print, Text};

/// ` (the end of the capture, truncated after record N: ...)` for an
/// outcome of a cut capture.
fn cut(o: &Outcome) -> String {
    o.truncated_after
        .map(|n| format!(" ({})", super::moment::end_of_capture(n)))
        .unwrap_or_default()
}

/// `[case] name`, or the name alone for what belongs to no case.
fn title(o: &Outcome) -> String {
    match o.case.is_empty() {
        true => o.name.clone(),
        false => format!("[{}] {}", o.case, o.name),
    }
}

/// One line per outcome (what failed shown like a diff), then the summary.
impl Print<[Outcome]> for Text {
    fn print(&mut self, outcomes: &[Outcome], out: &mut dyn Write) -> io::Result<()> {
        write_text(out, outcomes, &self.0)?;
        writeln!(out, "{}", summary(outcomes))
    }
}

fn write_text(out: &mut dyn Write, outcomes: &[Outcome], style: &Style) -> io::Result<()> {
    for o in outcomes {
        if o.is_error() {
            writeln!(out, "{} {} {}", style.bad("ERROR"), o.place(), title(o))?;
            if let Some(m) = &o.message {
                writeln!(out, "    {m}")?;
            }
            continue;
        }
        if o.passed {
            writeln!(
                out,
                "{} {} [{}] {}{}",
                style.value("PASS"),
                o.place(),
                o.case,
                o.name,
                cut(o)
            )?;
            continue;
        }
        writeln!(
            out,
            "{} {} [{}] {}{}",
            style.bad("FAIL"),
            o.place(),
            o.case,
            o.name,
            cut(o)
        )?;
        if let Some(m) = &o.message {
            writeln!(out, "    {m}")?;
        }
        if o.message.is_none() || !o.actual.is_empty() {
            writeln!(out, "    {}", style.bad(format!("- expected: {}", o.expected)))?;
            writeln!(out, "    {}", style.value(format!("+ actual:   {}", o.actual)))?;
        }
    }
    Ok(())
}

/// Passed, failed, and could not be run.
fn counts(outcomes: &[Outcome]) -> (usize, usize, usize) {
    let passed = outcomes.iter().filter(|o| o.passed).count();
    let errors = outcomes.iter().filter(|o| o.is_error()).count();
    (passed, outcomes.len() - passed - errors, errors)
}

/// `N passed, M failed` (the line CI systems read).
pub fn summary(outcomes: &[Outcome]) -> String {
    match counts(outcomes) {
        (passed, failed, 0) => format!("{passed} passed, {failed} failed"),
        (passed, failed, 1) => format!("{passed} passed, {failed} failed, 1 error"),
        (passed, failed, errors) => format!("{passed} passed, {failed} failed, {errors} errors"),
    }
}

/// `check`'s JSON document.
#[derive(Serialize)]
struct JsonOutcomes<'a> {
    passed: usize,
    failed: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<usize>,
    results: &'a [Outcome],
}

/// `{passed, failed, results}`, and `errors` when something could not be run.
impl Print<[Outcome]> for Json {
    fn print(&mut self, outcomes: &[Outcome], out: &mut dyn Write) -> io::Result<()> {
        let (passed, failed, errors) = counts(outcomes);
        let doc = JsonOutcomes {
            passed,
            failed,
            errors: (errors > 0).then_some(errors),
            results: outcomes,
        };
        super::document(out, &doc)
    }
}

/// JUnit XML: a test suite per manifest, a test case per expectation, an
/// `<error>` test case for each manifest, case or expectation that could
/// not be run. Test case names are unique in their suite.
impl Print<[Outcome]> for JUnit {
    fn print(&mut self, outcomes: &[Outcome], out: &mut dyn Write) -> io::Result<()> {
        let xml = junit(outcomes).map_err(io::Error::other)?;
        out.write_all(xml.as_bytes())
    }
}

fn junit(outcomes: &[Outcome]) -> Result<String, quick_junit::SerializeError> {
    let mut report = Report::new("nlorder check");
    let mut manifests: Vec<&std::path::Path> = outcomes.iter().map(|o| o.manifest.as_path()).collect();
    manifests.dedup();
    for m in manifests {
        let mut suite = TestSuite::new(m.display().to_string());
        let here: Vec<&Outcome> = outcomes.iter().filter(|o| o.manifest == m).collect();
        // Names repeat where expectations differ only in settings the name
        // leaves out (a Calico release, say): those name their line too.
        let mut seen = std::collections::HashMap::new();
        for o in &here {
            *seen.entry(title(o)).or_insert(0usize) += 1;
        }
        for o in here {
            let status = if o.passed {
                TestCaseStatus::success()
            } else if o.is_error() {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
                s.set_message(o.message.clone().unwrap_or_default());
                s.set_description(format!("at {}", o.place()));
                s
            } else {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                s.set_message(
                    o.message
                        .clone()
                        .unwrap_or_else(|| format!("expected {}, got {}", o.expected, o.actual)),
                );
                s.set_description(format!(
                    "- expected: {}\n+ actual:   {}\nat {}",
                    o.expected,
                    o.actual,
                    o.place()
                ));
                s
            };
            let mut name = title(o);
            if seen.get(&name).is_some_and(|n| *n > 1)
                && let Some(line) = o.line
            {
                name.push_str(&format!(" (line {line})"));
            }
            let mut case = TestCase::new(name, status);
            case.set_classname(o.kind);
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string()
}
