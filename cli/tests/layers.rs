//! The library's layers, as `src/lib.rs` and docs/layout.md describe
//! them: each top-level module may name (`crate::module`) only the modules
//! listed for it here, so data flows one way (capture → netlink →
//! ingest::trace → model → looks → ingest::moment → ingest::rebuild →
//! replay → report → app; `record` writes captures beside them). A folder
//! of [`FOLDERS`] is no layer itself: each of its files is one, named
//! `folder::file`. A new use of a module above fails here,
//! and so do files that depend on each other: by the paths they name, or
//! by calling the methods a type has in another file of their module
//! (the model's `Model` has its methods in one file per layer). The
//! binary's own files (cli/src) are held to the same: none depends on
//! another that depends on it, and the flags (`args/`) name nothing else.

// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The folders whose files are layers of their own: `ingest`, the stage
/// from decoding to the model, holds one below the model (`trace`) and two
/// above it (`moment`, `rebuild`).
const FOLDERS: &[&str] = &["ingest"];

/// Each module and the modules it may use, besides those [`INHERITS`] gives it.
const LAYERS: &[(&str, &[&str])] = &[
    ("bad_value", &[]),
    ("diag", &[]),
    ("ingest", &[]),
    ("capture", &["diag", "bad_value"]),
    ("netlink", &["diag", "bad_value"]),
    ("ingest::trace", &["capture", "netlink", "diag"]),
    ("model", &["capture", "netlink", "ingest::trace", "diag", "bad_value"]),
    ("looks", &["capture", "netlink", "ingest::trace", "model"]),
    ("ingest::moment", &["capture", "bad_value", "looks"]),
    (
        "ingest::rebuild",
        &[
            "capture",
            "netlink",
            "ingest::trace",
            "diag",
            "model",
            "looks",
            "ingest::moment",
        ],
    ),
    ("filter", &["capture", "netlink", "ingest::trace", "model", "looks"]),
    ("replay", &["netlink", "model", "bad_value"]),
    ("record", &["capture", "netlink", "diag"]),
    ("snapshot", &["capture", "netlink", "record", "diag"]),
    (
        "report",
        &["ingest::rebuild", "replay", "filter", "record", "bad_value", "snapshot"],
    ),
    ("app", &["report"]),
];

/// (module, base): the module may use every module its base may use, too.
const INHERITS: &[(&str, &str)] = &[("report", "ingest::rebuild"), ("app", "report")];

/// Each module and every module it may use ([`LAYERS`] with [`INHERITS`]).
fn allowed() -> BTreeMap<&'static str, Vec<&'static str>> {
    let mut may: BTreeMap<&str, Vec<&str>> = LAYERS.iter().map(|(m, deps)| (*m, deps.to_vec())).collect();
    for (module, base) in INHERITS {
        let inherited = may[base].clone();
        may.get_mut(module).expect("in LAYERS").extend(inherited);
    }
    may
}

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

/// A module path's layer: its top-level module, or `folder::file` in one
/// of [`FOLDERS`].
fn layer(top: &str, next: Option<&str>) -> String {
    match next {
        Some(file) if FOLDERS.contains(&top) && file != "mod" => format!("{top}::{file}"),
        _ => top.to_owned(),
    }
}

/// The layers each file of a layer names, with the files.
fn uses(src: &Path) -> BTreeMap<String, BTreeSet<(String, String)>> {
    let re = regex::Regex::new(r"\bcrate::(\w+)(?:::(\w+))?").expect("regex");
    let mut all = Vec::new();
    files(src, &mut all);
    let mut out: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for f in all {
        let rel = f.strip_prefix(src).expect("under src").to_string_lossy().into_owned();
        let mut parts = rel.split(['/', '.']);
        let top = parts.next().expect("name").to_owned();
        let top = layer(&top, parts.next());
        // Unit tests may reach anywhere to build their inputs.
        if rel.ends_with("_tests.rs") || top == "lib" || top == "testutil" {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("read");
        let code = text.split("#[cfg(test)]\nmod tests").next().expect("code");
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for c in re.captures_iter(line) {
                let used = layer(&c[1], c.get(2).map(|m| m.as_str()));
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
    let allowed = allowed();
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
    // A folder's files are layers of their own: the model reads the
    // trace's messages, and the rebuild (above the model) is no layer of
    // the model's.
    assert!(used["model"].iter().any(|(d, _)| d == "ingest::trace"));
    assert!(used["ingest::rebuild"].iter().any(|(d, _)| d == "model"));
    assert!(!used.contains_key("ingest"));
    assert!(
        !used["replay"]
            .iter()
            .any(|(d, _)| d == "report" || d == "app" || d == "ingest::rebuild")
    );
}

/// A module path (`replay::gai::sort`) → its file, for every file of src/.
fn module_files(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut all = Vec::new();
    files(src, &mut all);
    let mut out = BTreeMap::new();
    for f in all {
        let rel = f.strip_prefix(src).expect("under src").with_extension("");
        let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        if parts.last().is_some_and(|l| l == "mod" || l == "lib" || l == "main") {
            parts.pop();
        }
        out.insert(parts, f);
    }
    out
}

/// The paths a file names: `crate::…`, `super::…`, `self::…` (brace
/// groups expanded one level deep), and `child::…` of its own children.
fn named_paths(code: &str, here: &[String], children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let word = regex::Regex::new(r"\b(crate|super|self)((?:::\w+)*)(?:::\{([^{}]*)\})?").expect("regex");
    let child = regex::Regex::new(r"(?:^|[^:\w])(\w+)::\w").expect("regex");
    let mut out = Vec::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for c in word.captures_iter(line) {
            // `pub(super)`, `pub(crate)`: a visibility, not a path.
            if c[2].is_empty() && c.get(3).is_none() {
                continue;
            }
            let mut base: Vec<String> = match &c[1] {
                "crate" => Vec::new(),
                "super" => here[..here.len().saturating_sub(1)].to_vec(),
                _ => here.to_vec(),
            };
            base.extend(c[2].split("::").filter(|s| !s.is_empty()).map(str::to_owned));
            match c.get(3) {
                Some(group) => {
                    for item in group.as_str().split(',') {
                        let mut p = base.clone();
                        p.extend(
                            item.trim()
                                .split("::")
                                .map(|s| s.split(' ').next().unwrap_or(s).to_owned()),
                        );
                        out.push(p);
                    }
                }
                None => out.push(base),
            }
        }
        for c in child.captures_iter(line) {
            if children.contains(&c[1]) {
                let mut p = here.to_vec();
                p.push(c[1].to_owned());
                out.push(p);
            }
        }
    }
    out
}

/// A file's code for the scans: before its first `#[cfg(test)]`, without
/// comment lines, with method chains that rustfmt broke over lines joined
/// (`self\n    .addresses(…)` → `self.addresses(…)`).
fn scanned_code(f: &Path) -> String {
    let text = std::fs::read_to_string(f).expect("read");
    let code = text.split("#[cfg(test)]\n").next().expect("code");
    let lines: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
    let chain = regex::Regex::new(r"\n\s*\.").expect("regex");
    chain.replace_all(&lines.join("\n"), ".").into_owned()
}

/// Calls between files of one module (a directory module's own file and
/// its children) to methods of a type that has inherent `impl` blocks
/// outside the file defining it, as the model's `Model` has: such a call
/// names no path. Found by name: a method defined in a column-0
/// `impl Type {` block of one file, called as `receiver.name(` (a plain
/// variable or `self`, not a field: `self.links.get(` is another type's)
/// or `Self::name(`/`Type::name(` in another file of the module gives an
/// edge from the caller's file to the definer's. (Two types of one name,
/// each with its methods in its own file, are not split: `str::parse`
/// calls are no edge to a `Method::parse`.)
fn method_edges(modules: &BTreeMap<Vec<String>, PathBuf>) -> BTreeSet<(Vec<String>, Vec<String>)> {
    let impl_block = regex::Regex::new(r"(?m)^impl(?:<[^>]*>)? (\w+)(?:<[^>]*>)? \{\n((?:.*\n)*?)\}$").expect("regex");
    let method = regex::Regex::new(r"(?m)^    (?:pub(?:\([^)]*\))? )?(?:const )?fn (\w+)").expect("regex");
    let call = regex::Regex::new(r"(?:^|[^.\w])\w+\.(\w+)\(").expect("regex");
    let assoc = regex::Regex::new(r"\b(\w+)::(\w+)\(").expect("regex");
    let defined = regex::Regex::new(r"(?m)^(?:pub(?:\([^)]*\))? )?(?:struct|enum|union) (\w+)").expect("regex");
    let is_test = |m: &Vec<String>| m.last().is_some_and(|l| l.ends_with("_tests") || l == "testutil");
    // Each directory module's files: its own and its children's.
    let mut groups: BTreeMap<Vec<String>, Vec<(Vec<String>, String)>> = BTreeMap::new();
    for (m, f) in modules.iter().filter(|(m, _)| !is_test(m)) {
        let own = f
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs" || n == "main.rs");
        let group = if own { m.clone() } else { m[..m.len() - 1].to_vec() };
        groups.entry(group).or_default().push((m.clone(), scanned_code(f)));
    }
    let mut out = BTreeSet::new();
    for files in groups.values() {
        // The types with an inherent impl outside the file defining them,
        // and (type, method, the file with its impl) for every method.
        let mut split: BTreeSet<String> = BTreeSet::new();
        let mut methods: Vec<(String, String, &Vec<String>)> = Vec::new();
        for (m, code) in files {
            let here: BTreeSet<&str> = defined
                .captures_iter(code)
                .map(|c| c.get(1).expect("type").as_str())
                .collect();
            for b in impl_block.captures_iter(code) {
                if !here.contains(&b[1]) {
                    split.insert(b[1].to_owned());
                }
                for f in method.captures_iter(&b[2]) {
                    methods.push((b[1].to_owned(), f[1].to_owned(), m));
                }
            }
        }
        for (m, code) in files {
            let called: BTreeSet<&str> = call
                .captures_iter(code)
                .map(|c| c.get(1).expect("name").as_str())
                .collect();
            let named: BTreeSet<(&str, &str)> = assoc
                .captures_iter(code)
                .map(|c| (c.get(1).expect("type").as_str(), c.get(2).expect("name").as_str()))
                .collect();
            for (ty, name, def) in methods.iter().filter(|(t, _, d)| split.contains(t) && *d != m) {
                if called.contains(name.as_str())
                    || named.contains(&("Self", name.as_str()))
                    || named.contains(&(ty.as_str(), name.as_str()))
                {
                    out.insert((m.clone(), (*def).clone()));
                }
            }
        }
    }
    out
}

/// Each file's module and the modules of the files it names or calls into.
fn file_graph(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules = module_files(src);
    let resolve = |p: &[String]| {
        (0..=p.len())
            .rev()
            .map(|i| p[..i].to_vec())
            .find(|q| modules.contains_key(q))
    };
    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (m, f) in &modules {
        if m.last().is_some_and(|l| l.ends_with("_tests") || l == "testutil") {
            continue;
        }
        let children: BTreeSet<String> = modules
            .keys()
            .filter(|k| k.len() == m.len() + 1 && k.starts_with(m))
            .filter_map(|k| k.last().cloned())
            .collect();
        let text = std::fs::read_to_string(f).expect("read");
        let code = text.split("#[cfg(test)]\n").next().expect("code");
        let deps = graph.entry(m.clone()).or_default();
        for p in named_paths(code, m, &children) {
            if let Some(to) = resolve(&p)
                && !to.is_empty()
                && &to != m
                && !to.last().is_some_and(|l| l.ends_with("_tests") || l == "testutil")
            {
                deps.insert(to);
            }
        }
    }
    for (from, to) in method_edges(&modules) {
        graph.entry(from).or_default().insert(to);
    }
    graph
}

/// Files that depend on each other, found by Tarjan's algorithm.
fn file_cycles(src: &Path) -> Vec<BTreeSet<String>> {
    let graph = file_graph(src);
    // Tarjan's strongly connected components.
    struct T<'g> {
        graph: &'g BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<Vec<String>, (usize, usize)>,
        stack: Vec<Vec<String>>,
        next: usize,
        out: Vec<BTreeSet<String>>,
    }
    fn visit(t: &mut T<'_>, v: &Vec<String>) {
        t.index.insert(v.clone(), (t.next, t.next));
        t.next += 1;
        t.stack.push(v.clone());
        for w in t.graph.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                visit(t, w);
                let low = t.index[w].1.min(t.index[v].1);
                t.index.get_mut(v).expect("visited").1 = low;
            } else if t.stack.contains(w) {
                let low = t.index[w].0.min(t.index[v].1);
                t.index.get_mut(v).expect("visited").1 = low;
            }
        }
        if t.index[v].0 == t.index[v].1 {
            let mut comp = BTreeSet::new();
            while let Some(w) = t.stack.pop() {
                let done = &w == v;
                comp.insert(w.join("/"));
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        graph: &graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_files_depend_on_each_other() {
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../src"));
    let cycles = file_cycles(src);
    assert!(cycles.is_empty(), "files that depend on each other: {cycles:?}");
}

#[test]
fn the_check_sees_files_that_depend_on_each_other() {
    // The check itself, on a crate of its own: a type with its methods in
    // two files, and two files naming each other's items.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("layers");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("m")).expect("mkdir");
    let write = |path: &str, text: &str| std::fs::write(dir.join(path), text).expect("write");
    let cycle = |files: &[&str]| vec![files.iter().map(|f| (*f).to_owned()).collect::<BTreeSet<_>>()];
    write("lib.rs", "pub mod m;\nmod p;\nmod q;\n");
    write("m/mod.rs", "mod a;\nmod b;\n\npub struct M;\n");
    write(
        "m/a.rs",
        "use super::M;\n\nimpl M {\n    pub(super) fn up(&self) {\n        self.down();\n    }\n}\n",
    );
    write(
        "m/b.rs",
        "use super::M;\n\nimpl M {\n    pub(super) fn down(&self) {}\n}\n",
    );
    write("p.rs", "pub struct P;\n");
    write("q.rs", "pub fn q(_: crate::p::P) {}\n");
    assert!(file_cycles(&dir).is_empty(), "a calls b and q uses p: one way each");
    // b calls back (through a chain rustfmt broke), p names q: two cycles.
    write(
        "m/b.rs",
        "use super::M;\n\nimpl M {\n    pub(super) fn down(&self) {\n        self\n            .up();\n    }\n}\n",
    );
    write("p.rs", "pub struct P;\n\npub fn p() {\n    crate::q::q(P);\n}\n");
    let mut found = file_cycles(&dir);
    found.sort();
    assert_eq!(found, [cycle(&["m/a", "m/b"]), cycle(&["p", "q"])].concat());
    // A field's method of the same name is another type's: no edge.
    write(
        "m/b.rs",
        "use super::M;\n\nimpl M {\n    pub(super) fn down(&self) {\n        self.inner.up();\n    }\n}\n",
    );
    assert_eq!(file_cycles(&dir), cycle(&["p", "q"]));
}

#[test]
fn the_binarys_files_do_not_depend_on_each_other() {
    // cli/src: main.rs on top; requests.rs (flags to requests) and man.rs
    // (the pages) use the flags of args/, which name neither.
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
    let graph = file_graph(src);
    let module = |m: &str| m.split('/').map(str::to_owned).collect::<Vec<_>>();
    for (from, to) in [
        ("requests", "args"),
        ("requests", "progress"),
        ("man", "args"),
        ("args/detect", "args/record"),
    ] {
        assert!(
            graph.get(&module(from)).is_some_and(|t| t.contains(&module(to))),
            "the scan misses {from} -> {to}: {graph:?}"
        );
    }
    for (m, to) in &graph {
        if m.first().is_some_and(|f| f == "args") {
            let above: Vec<_> = to.iter().filter(|t| t.first().is_some_and(|f| f != "args")).collect();
            assert!(
                above.is_empty(),
                "{} names {above:?}: the flags use nothing that uses them",
                m.join("/")
            );
        }
    }
    let cycles = file_cycles(src);
    assert!(cycles.is_empty(), "files that depend on each other: {cycles:?}");
}
