//! The JSON printers write typed structs, never `serde_json::Value` maps:
//! a map's key order follows serde_json's `preserve_order` feature, which
//! this crate's tests turn on (tshark's JSON needs it) and the release
//! binary does not, so the order users got differed from the order the
//! tests and README showed. A struct writes one order in every build.

use std::path::Path;

/// Files under `dir` that build JSON as a map, with the line that does.
fn value_builders(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            found.extend(value_builders(&path));
            continue;
        }
        let name = path.to_string_lossy().into_owned();
        if !name.ends_with(".rs") || name.ends_with("_tests.rs") {
            continue;
        }
        let Ok(code) = std::fs::read_to_string(&path) else {
            continue;
        };
        // test modules may compare values however they like
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or_default();
            if line.contains("json!") || line.contains("serde_json::Value") || line.contains("to_value(") {
                found.push(format!("{name}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn printers_write_json_from_typed_structs() {
    let report = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src/report");
    assert!(report.is_dir(), "{}", report.display());
    let found = value_builders(&report);
    assert!(found.is_empty(), "JSON built as a map:\n{}", found.join("\n"));
}
