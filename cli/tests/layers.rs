//! The library's layers, as `src/lib.rs` and README's Layout describe
//! them: each top-level module may name (`crate::module`) only the modules
//! listed for it here, so data flows one way (capture → netlink → trace →
//! model → looks → moment → rebuild → replay → report → app; `record`
//! writes captures beside them). A new use of a module above fails here.

// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each module and the modules it may use.
const LAYERS: &[(&str, &[&str])] = &[
    ("bad_value", &[]),
    ("diag", &[]),
    ("capture", &["diag", "bad_value"]),
    ("netlink", &["diag", "bad_value"]),
    ("trace", &["capture", "netlink", "diag"]),
    ("model", &["capture", "netlink", "trace", "diag", "bad_value"]),
    ("looks", &["capture", "netlink", "trace", "model"]),
    ("moment", &["capture", "bad_value"]),
    (
        "rebuild",
        &["capture", "netlink", "trace", "diag", "model", "looks", "moment"],
    ),
    ("replay", &["netlink", "model", "bad_value"]),
    ("record", &["capture", "netlink", "diag"]),
    (
        "report",
        &[
            "capture",
            "netlink",
            "trace",
            "diag",
            "model",
            "looks",
            "moment",
            "rebuild",
            "replay",
            "bad_value",
        ],
    ),
    (
        "app",
        &[
            "capture",
            "netlink",
            "trace",
            "diag",
            "model",
            "looks",
            "moment",
            "rebuild",
            "replay",
            "record",
            "report",
            "bad_value",
        ],
    ),
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level modules each file of `module` names, with the files.
fn uses(src: &Path) -> BTreeMap<String, BTreeSet<(String, String)>> {
    let re = regex::Regex::new(r"\bcrate::(\w+)").expect("regex");
    let mut all = Vec::new();
    files(src, &mut all);
    let mut out: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for f in all {
        let rel = f.strip_prefix(src).expect("under src").to_string_lossy().into_owned();
        let top = rel.split(['/', '.']).next().expect("name").to_owned();
        // Unit tests may reach anywhere to build their inputs.
        if rel.ends_with("_tests.rs") || top == "lib" || top == "testutil" {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("read");
        let code = text.split("#[cfg(test)]\nmod tests").next().expect("code");
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for c in re.captures_iter(line) {
                let used = c[1].to_owned();
                if used != top {
                    out.entry(top.clone()).or_default().insert((used, rel.clone()));
                }
            }
        }
    }
    out
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../src"));
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (module, used) in uses(src) {
        let Some(may) = allowed.get(module.as_str()) else {
            wrong.push(format!("{module}: not in LAYERS (add it where it belongs)"));
            continue;
        };
        for (dep, file) in used {
            if !may.contains(&dep.as_str()) {
                wrong.push(format!("src/{file} uses crate::{dep}, above or beside {module}"));
            }
        }
    }
    assert!(wrong.is_empty(), "layer violations:\n{}", wrong.join("\n"));
}

#[test]
fn the_check_sees_a_use_of_a_layer_above() {
    // The check itself: replay is below report, and a report module names
    // replay (it prints replay results), never the other way round.
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../src"));
    let used = uses(src);
    assert!(used["report"].iter().any(|(d, _)| d == "replay"));
    assert!(
        !used["replay"]
            .iter()
            .any(|(d, _)| d == "report" || d == "app" || d == "rebuild")
    );
}
