//! The regression manifest: a TOML file naming a capture and what must hold
//! in it.
//!
//! Contract: [`load`] parses a manifest strictly (unknown keys are errors
//! with the line number), resolving nothing yet; values are checked when
//! the expectations run. One manifest holds one case (top-level `capture`)
//! or several (`[[case]]`, for one manifest per folder).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::error::Error;

pub use crate::ingest::rebuild::AtValue;

/// `[[detect]]`: any `nlorder detect` setting, the same names and meanings
/// (`address` is `--expect`), plus the `interface` expected and `at`.
pub type Detect = crate::app::settings::DetectSettings;

/// `warnings = "none"` or a list of substrings that warnings may contain.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub(crate) enum WarningsSpec {
    Word(String),
    Allowed(Vec<String>),
}

/// `[[link_order]]`: the interfaces in kernel dump order.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LinkOrder {
    pub(crate) at: Option<AtValue>,
    /// Interface names in kernel dump order.
    pub(crate) links: Option<Vec<String>>,
}

/// `[[address]]`: an address an interface has, or must not have.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AddressPresent {
    pub(crate) at: Option<AtValue>,
    pub(crate) interface: String,
    /// `10.9.0.2/24` (or a bare IP: any prefix).
    pub(crate) address: String,
    /// false: the address must be absent.
    pub(crate) present: Option<bool>,
}

/// `[[address_order]]`: an interface's addresses in the kernel's order.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AddressOrder {
    pub(crate) at: Option<AtValue>,
    pub(crate) interface: String,
    /// 4 or 6; both (IPv4 first) when absent.
    pub(crate) family: Option<u8>,
    pub(crate) addresses: Option<Vec<String>>,
}

/// `[[gai]]`: the order a resolver sorts candidate addresses in.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Gai {
    pub(crate) at: Option<AtValue>,
    /// Candidates in name-service order.
    pub(crate) candidates: Vec<String>,
    /// glibc (default), go or musl.
    pub(crate) resolver: Option<String>,
    /// A gai.conf file, relative to the manifest.
    pub(crate) gai_conf: Option<String>,
    /// `DEST=SRC` source overrides.
    #[serde(default)]
    pub(crate) source: Vec<String>,
    /// Expected order.
    pub(crate) order: Option<Vec<String>>,
}

/// One case: a capture, how to read it, and what must hold in it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Case {
    pub(crate) name: Option<String>,
    /// The capture, relative to the manifest.
    pub(crate) capture: Option<String>,
    pub(crate) promote_secondaries: Option<bool>,
    /// "ascending" or "buckets".
    pub(crate) kernel_order: Option<String>,
    /// The captured host's kernel release ("6.1", "6.12.117+deb12-amd64").
    pub(crate) kernel: Option<String>,
    /// "little" or "big".
    pub(crate) netlink_endian: Option<String>,
    pub(crate) warnings: Option<WarningsSpec>,
    #[serde(default)]
    pub(crate) link_order: Vec<LinkOrder>,
    #[serde(default)]
    pub(crate) address: Vec<AddressPresent>,
    #[serde(default)]
    pub(crate) address_order: Vec<AddressOrder>,
    #[serde(default)]
    pub(crate) detect: Vec<Detect>,
    #[serde(default)]
    pub(crate) gai: Vec<Gai>,
    /// Further cases (only at the top level).
    #[serde(default)]
    pub(crate) case: Vec<Case>,
}

impl Case {
    pub(crate) fn expectation_count(&self) -> usize {
        self.link_order.len()
            + self.address.len()
            + self.address_order.len()
            + self.detect.len()
            + self.gai.len()
            + usize::from(self.warnings.is_some())
    }
}

/// A parsed manifest.
#[derive(Debug, Clone)]
pub struct Manifest {
    pub(crate) path: PathBuf,
    pub(crate) text: String,
    pub(crate) root: Case,
}

impl Manifest {
    /// The cases: the top-level one when it names a capture, then `[[case]]`.
    pub(crate) fn cases(&self) -> Vec<(Option<usize>, &Case)> {
        let mut v = Vec::new();
        if self.root.capture.is_some() {
            v.push((None, &self.root));
        }
        v.extend(self.root.case.iter().enumerate().map(|(i, c)| (Some(i), c)));
        v
    }

    pub(crate) fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }

    /// Line (1-based) of the key `key` of case `case` itself (`capture`,
    /// `kernel`, ...), when the manifest sets it.
    pub(crate) fn key_line(&self, case: Option<usize>, key: &str) -> Option<usize> {
        let mut case_seen: isize = -1;
        let mut in_table = false;
        for (i, line) in self.text.lines().enumerate() {
            let t = line.trim();
            if t.starts_with('[') {
                let header = t.split('#').next().unwrap_or(t).trim_end();
                if header == "[[case]]" {
                    case_seen += 1;
                    in_table = false;
                } else {
                    in_table = true;
                }
                continue;
            }
            let here = case.map_or(case_seen < 0, |c| case_seen == c as isize);
            if here && !in_table && is_key(t, key) {
                return Some(i + 1);
            }
        }
        None
    }

    /// Line (1-based) of the `n`-th `[[KIND]]` header of case `case`.
    pub(crate) fn line_of(&self, case: Option<usize>, kind: &str, n: usize) -> Option<usize> {
        // `warnings` is a key of the case, not a section.
        if kind == "warnings" {
            return self.key_line(case, "warnings");
        }
        let header = match case {
            None => format!("[[{kind}]]"),
            Some(_) => format!("[[case.{kind}]]"),
        };
        let mut case_seen: isize = -1;
        let mut seen = 0;
        for (i, line) in self.text.lines().enumerate() {
            // A header may carry a trailing comment (`[[detect]]  # why`).
            let t = match line.trim() {
                h if h.starts_with('[') => h.split('#').next().unwrap_or(h).trim_end(),
                other => other,
            };
            if t == "[[case]]" {
                case_seen += 1;
                seen = 0;
                continue;
            }
            let here = case.map_or(case_seen < 0, |c| case_seen == c as isize);
            if t == header && here {
                if seen == n {
                    return Some(i + 1);
                }
                seen += 1;
            }
        }
        None
    }
}

/// Whether a (trimmed) line sets `key` (`key = ...`).
fn is_key(line: &str, key: &str) -> bool {
    line.strip_prefix(key)
        .is_some_and(|rest| rest.trim_start().starts_with('='))
}

/// Reads and parses a manifest; errors carry the file and line.
pub fn load(path: &Path) -> Result<Manifest, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::Io {
        path: path.to_path_buf(),
        source: e,
    })?;
    // pcap (either byte order, µs or ns), pcapng, gzip: a capture given where a manifest goes.
    const CAPTURE_MAGIC: [[u8; 4]; 5] = [
        [0xd4, 0xc3, 0xb2, 0xa1],
        [0xa1, 0xb2, 0xc3, 0xd4],
        [0x4d, 0x3c, 0xb2, 0xa1],
        [0xa1, 0xb2, 0x3c, 0x4d],
        [0x0a, 0x0d, 0x0d, 0x0a],
    ];
    let head = bytes.get(..4).unwrap_or_default();
    if CAPTURE_MAGIC.iter().any(|m| m.as_slice() == head) || head.starts_with(&[0x1f, 0x8b]) {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = file.split('.').next().unwrap_or(&file);
        return Err(Error::manifest(
            path,
            None,
            format!(
                "a capture, not a manifest: write {stem}.nlorder.toml next to it holding \
                 capture = \"{file}\", then record its values with nlorder check --update {stem}.nlorder.toml"
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| Error::manifest(path, None, "not a manifest (not UTF-8 text)"))?;
    parse(path, text)
}

/// Parses a manifest's text (read from `path`, or to be written there).
pub fn parse(path: &Path, text: String) -> Result<Manifest, Error> {
    let root: Case = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text.as_bytes().iter().take(s.start).filter(|&&b| b == b'\n').count() + 1);
        Error::manifest(path, line, e.message())
    })?;
    if root.capture.is_none() && root.case.is_empty() {
        return Err(Error::manifest(
            path,
            None,
            "names no capture (`capture = \"FILE\"` or [[case]] sections)",
        ));
    }
    for (i, c) in root.case.iter().enumerate() {
        if c.capture.is_none() {
            return Err(Error::manifest(
                path,
                None,
                format!("[[case]] #{} names no capture", i + 1),
            ));
        }
        if !c.case.is_empty() {
            return Err(Error::manifest(
                path,
                None,
                format!("[[case]] #{} nests cases; only the top level may", i + 1),
            ));
        }
    }
    Ok(Manifest {
        path: path.to_path_buf(),
        text,
        root,
    })
}

/// Every manifest under `paths`: files as given, folders searched for
/// `*.nlorder.toml` and `nlorder.toml`, sorted; and every path or folder
/// that could not be read (the others are still searched).
pub fn discover(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<Error>) {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>, errors: &mut Vec<Error>) {
        let rd = match std::fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => {
                errors.push(Error::Io {
                    path: dir.to_path_buf(),
                    source: e,
                });
                return;
            }
        };
        let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out, errors);
            } else if p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n == "nlorder.toml" || n.ends_with(".nlorder.toml"))
            {
                out.push(p);
            }
        }
    }
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out, &mut errors);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            errors.push(Error::Io {
                path: p.clone(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or folder"),
            });
        }
    }
    (out, errors)
}
