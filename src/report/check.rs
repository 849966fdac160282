//! Printers for `nlorder check`: one line per expectation with the
//! difference shown like a diff, the `N passed, M failed` summary, JSON,
//! and JUnit XML for CI systems.
//!
//! Contract: formatting only, fed the [`Outcome`]s of `check::run`.

use std::io::{self, Write};

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::check::Outcome;
use crate::report::style::Style;

fn place(o: &Outcome) -> String {
    match o.line {
        Some(l) => format!("{}:{l}", o.manifest.display()),
        None => o.manifest.display().to_string(),
    }
}

pub fn write_text(out: &mut dyn Write, outcomes: &[Outcome], style: &Style) -> io::Result<()> {
    for o in outcomes {
        if o.passed {
            writeln!(out, "{} {} [{}] {}", style.value("PASS"), place(o), o.case, o.name)?;
            continue;
        }
        writeln!(out, "{} {} [{}] {}", style.bad("FAIL"), place(o), o.case, o.name)?;
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

/// `N passed, M failed` (the line CI systems read).
/// Prints `nlorder check`'s results: text with the closing summary, or JSON.
pub fn write(out: &mut dyn Write, json: bool, outcomes: &[Outcome], style: &Style) -> io::Result<()> {
    if json {
        return write_json(out, outcomes);
    }
    write_text(out, outcomes, style)?;
    writeln!(out, "{}", summary(outcomes))
}

pub fn summary(outcomes: &[Outcome]) -> String {
    let passed = outcomes.iter().filter(|o| o.passed).count();
    format!("{passed} passed, {} failed", outcomes.len() - passed)
}

pub fn write_json(out: &mut dyn Write, outcomes: &[Outcome]) -> io::Result<()> {
    let passed = outcomes.iter().filter(|o| o.passed).count();
    let doc = serde_json::json!({
        "passed": passed,
        "failed": outcomes.len() - passed,
        "results": outcomes,
    });
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
    writeln!(out)
}

/// JUnit XML: a test suite per manifest, a test case per expectation.
pub fn junit(outcomes: &[Outcome]) -> Result<String, quick_junit::SerializeError> {
    let mut report = Report::new("nlorder check");
    let mut manifests: Vec<&std::path::Path> = outcomes.iter().map(|o| o.manifest.as_path()).collect();
    manifests.dedup();
    for m in manifests {
        let mut suite = TestSuite::new(m.display().to_string());
        for o in outcomes.iter().filter(|o| o.manifest == m) {
            let status = if o.passed {
                TestCaseStatus::success()
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
                    place(o)
                ));
                s
            };
            let mut case = TestCase::new(format!("[{}] {}", o.case, o.name), status);
            case.set_classname(o.kind);
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string()
}
