//! A sosreport (a directory, or the tarball sos makes: `.tar.xz`,
//! `.tar.gz` or `.tar`) read as a snapshot.
//!
//! Contract: [`Tree::open`] gathers the files a snapshot reads from a
//! report, by their path inside it (the report's own top directory,
//! `sosreport-HOST-DATE/`, left out): the `ip` outputs sos's networking
//! plugin keeps in `sos_commands/networking/` (`ip_-d_address`,
//! `ip_-o_addr`, `ip_-s_-d_link`, `ip_route_show_table_all`,
//! `ip_-6_route_show_table_all`, `ip_-4_rule`, `ip_-6_rule`: each file
//! named after its command, spaces as `_`), the kernel plugin's
//! `sos_commands/kernel/sysctl_-a` and `uname_-a`, and `etc/hosts`,
//! `etc/gai.conf`, `etc/host.conf`. [`Tree::ip_outputs`] gives each `ip`
//! output with its command as a prompt line before it, so that the text
//! reader knows an empty listing's family; [`Tree::sysctl`] the
//! per-device settings a link dump carries (`IFLA_AF_SPEC`), typed;
//! [`Tree::kernel`] the release `uname -a` printed. A directory is a
//! report when it holds `sos_commands/` (or its one subdirectory does); a
//! file is one when it opens as xz, gzip or tar. Files the snapshot does
//! not read are never decompressed into memory.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::error::Error;

/// The files of a report the snapshot reads, by path inside the report.
#[derive(Debug, Default)]
pub(super) struct Tree {
    files: BTreeMap<String, Vec<u8>>,
}

/// Whether `path` inside a report is a file the snapshot reads.
fn wanted(path: &str) -> bool {
    path.strip_prefix("sos_commands/networking/ip_")
        .is_some_and(|rest| !rest.contains('/'))
        || matches!(
            path,
            "sos_commands/kernel/sysctl_-a"
                | "sos_commands/kernel/uname_-a"
                | "etc/hosts"
                | "etc/gai.conf"
                | "etc/host.conf"
        )
}

/// A file's opening bytes as a compressed or plain tarball.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Packing {
    Xz,
    Gzip,
    Tar,
}

fn packing(head: &[u8]) -> Option<Packing> {
    if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Some(Packing::Xz)
    } else if head.starts_with(&[0x1f, 0x8b]) {
        Some(Packing::Gzip)
    } else if head.get(257..262) == Some(b"ustar") {
        Some(Packing::Tar)
    } else {
        None
    }
}

/// Whether `path` is a sosreport: a directory holding `sos_commands/`
/// (itself or its one subdirectory), or a tarball.
pub(super) fn is_report(path: &Path) -> bool {
    if path.is_dir() {
        return report_root(path).is_some();
    }
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = [0u8; 512];
    let n = f.read(&mut head).unwrap_or(0);
    match packing(head.get(..n).unwrap_or_default()) {
        // a gzip capture is a capture: only a gzip tarball is a report
        Some(Packing::Gzip) => {
            let Ok(f) = std::fs::File::open(path) else {
                return false;
            };
            let mut inner = Vec::new();
            let _ = flate2::read::GzDecoder::new(f).take(512).read_to_end(&mut inner);
            inner.get(257..262) == Some(b"ustar")
        }
        Some(_) => true,
        None => false,
    }
}

/// The directory holding `sos_commands/`: `dir` or its only subdirectory.
fn report_root(dir: &Path) -> Option<PathBuf> {
    if dir.join("sos_commands").is_dir() {
        return Some(dir.to_owned());
    }
    let subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    match subdirs.as_slice() {
        [one] if one.join("sos_commands").is_dir() => Some(one.clone()),
        _ => None,
    }
}

impl Tree {
    /// Reads the report at `path`; `None` when it is not one.
    pub(super) fn open(path: &Path) -> Result<Option<Tree>, Error> {
        let io_err = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let mut tree = Tree::default();
        if path.is_dir() {
            let Some(root) = report_root(path) else {
                return Ok(None);
            };
            let networking = root.join("sos_commands/networking");
            let mut names: Vec<String> = Vec::new();
            if let Ok(rd) = std::fs::read_dir(&networking) {
                for e in rd.filter_map(Result::ok) {
                    names.push(format!("sos_commands/networking/{}", e.file_name().to_string_lossy()));
                }
            }
            for n in [
                "sos_commands/kernel/sysctl_-a",
                "sos_commands/kernel/uname_-a",
                "etc/hosts",
                "etc/gai.conf",
                "etc/host.conf",
            ] {
                names.push(n.to_owned());
            }
            for n in names {
                let p = root.join(&n);
                if wanted(&n) && p.is_file() {
                    tree.files.insert(n, std::fs::read(&p).map_err(io_err)?);
                }
            }
            return Ok(Some(tree));
        }
        if !path.is_file() {
            return Ok(None);
        }
        let mut f = std::fs::File::open(path).map_err(io_err)?;
        let mut head = [0u8; 512];
        let n = f.read(&mut head).map_err(io_err)?;
        let Some(packing) = packing(head.get(..n).unwrap_or_default()) else {
            return Ok(None);
        };
        let bytes = std::fs::read(path).map_err(io_err)?;
        let tar: Vec<u8> = match packing {
            Packing::Tar => bytes,
            Packing::Gzip => {
                let mut out = Vec::new();
                flate2::read::GzDecoder::new(bytes.as_slice())
                    .read_to_end(&mut out)
                    .map_err(|e| bad(path, format!("not a gzip tarball: {e}")))?;
                out
            }
            Packing::Xz => {
                let mut out = Vec::new();
                lzma_rs::xz_decompress(&mut bytes.as_slice(), &mut out)
                    .map_err(|e| bad(path, format!("not an xz tarball: {e:?}")))?;
                out
            }
        };
        let mut archive = tar::Archive::new(tar.as_slice());
        let entries = archive
            .entries()
            .map_err(|e| bad(path, format!("not a tarball: {e}")))?;
        let mut any = false;
        for entry in entries {
            let mut entry = entry.map_err(|e| bad(path, format!("a tarball cut short? {e}")))?;
            let name = entry
                .path()
                .map_err(|e| bad(path, format!("a tarball entry: {e}")))?
                .to_string_lossy()
                .into_owned();
            // the report's own top directory
            let inside = name.split_once('/').map_or("", |(_, rest)| rest);
            any |= inside.starts_with("sos_commands/");
            if !wanted(inside) || !entry.header().entry_type().is_file() {
                continue;
            }
            let mut content = Vec::new();
            entry
                .read_to_end(&mut content)
                .map_err(|e| bad(path, format!("{name}: {e}")))?;
            tree.files.insert(inside.to_owned(), content);
        }
        if !any {
            return Err(bad(path, "a tarball without `sos_commands/`: not a sosreport".into()));
        }
        Ok(Some(tree))
    }

    /// Each `ip` output of the networking plugin, as `$ ip ARGS` and its
    /// text, `-o` forms first (a later full listing says more).
    pub(super) fn ip_outputs(&self) -> Vec<(String, String)> {
        let mut out: Vec<(bool, String, String)> = self
            .files
            .iter()
            .filter_map(|(name, content)| {
                let command = name.strip_prefix("sos_commands/networking/")?.replace('_', " ");
                let one_line = command.split_whitespace().any(|w| w == "-o");
                Some((
                    !one_line,
                    name.clone(),
                    format!("$ {command}\n{}", String::from_utf8_lossy(content)),
                ))
            })
            .collect();
        out.sort();
        out.into_iter().map(|(_, name, text)| (name, text)).collect()
    }

    /// The release `uname -a` printed (its third word).
    pub(super) fn kernel(&self) -> Option<String> {
        let u = self.files.get("sos_commands/kernel/uname_-a")?;
        String::from_utf8_lossy(u).split_whitespace().nth(2).map(str::to_owned)
    }

    /// `sysctl -a`'s per-device IPv4 and IPv6 settings.
    pub(super) fn sysctl(&self) -> Option<BTreeMap<String, DevSysctl>> {
        let text = String::from_utf8_lossy(self.files.get("sos_commands/kernel/sysctl_-a")?).into_owned();
        let mut out: BTreeMap<String, DevSysctl> = BTreeMap::new();
        for line in text.lines() {
            let Some((key, value)) = line.split_once(" = ") else {
                continue;
            };
            let Ok(value) = value.trim().parse::<i32>() else {
                continue;
            };
            let (v6, rest) = match (key.strip_prefix("net.ipv4.conf."), key.strip_prefix("net.ipv6.conf.")) {
                (Some(r), _) => (false, r),
                (_, Some(r)) => (true, r),
                _ => continue,
            };
            let Some((dev, setting)) = rest.rsplit_once('.') else {
                continue;
            };
            // (sysctl writes a device name's dots as slashes)
            let d = out.entry(dev.replace('/', ".")).or_default();
            match (v6, setting) {
                (false, "promote_secondaries") => d.promote_secondaries = Some(value),
                (true, "accept_ra") => d.accept_ra = Some(value),
                (true, "use_tempaddr") => d.use_tempaddr = Some(value),
                (true, "disable_ipv6") => d.disable_ipv6 = Some(value),
                (true, "accept_dad") => d.accept_dad = Some(value),
                (true, "addr_gen_mode") => d.addr_gen_mode = u8::try_from(value).ok(),
                _ => {}
            }
        }
        Some(out)
    }

    /// A file of the report's `etc/`, as text.
    pub(super) fn etc(&self, name: &str) -> Option<String> {
        self.files
            .get(&format!("etc/{name}"))
            .map(|b| String::from_utf8_lossy(b).into_owned())
    }
}

/// One device's settings as `sysctl -a` printed them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct DevSysctl {
    /// `net.ipv4.conf.DEV.promote_secondaries`.
    pub promote_secondaries: Option<i32>,
    /// `net.ipv6.conf.DEV.accept_ra`.
    pub accept_ra: Option<i32>,
    /// `net.ipv6.conf.DEV.use_tempaddr`.
    pub use_tempaddr: Option<i32>,
    /// `net.ipv6.conf.DEV.disable_ipv6`.
    pub disable_ipv6: Option<i32>,
    /// `net.ipv6.conf.DEV.accept_dad`.
    pub accept_dad: Option<i32>,
    /// `net.ipv6.conf.DEV.addr_gen_mode`.
    pub addr_gen_mode: Option<u8>,
}

fn bad(path: &Path, what: String) -> Error {
    Error::Malformed {
        path: path.to_owned(),
        what,
    }
}

#[cfg(test)]
mod tests {
    // Tests fail by panicking.
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    /// The real report's `sysctl -a` and `uname -a`, read per device
    /// (`fixtures/sos/README.md`).
    #[test]
    fn a_real_report_s_sysctl_and_release() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sos/node1");
        let tree = Tree::open(&dir).unwrap().expect("a report");
        assert!(tree.kernel().unwrap().starts_with("6."));
        let s = tree.sysctl().unwrap();
        let eth0 = s.get("eth0").expect("eth0");
        assert_eq!(eth0.promote_secondaries, Some(0));
        assert_eq!(eth0.addr_gen_mode, Some(0));
        assert_eq!(eth0.disable_ipv6, Some(0));
        assert!(eth0.accept_dad.is_some() && eth0.accept_ra.is_some() && eth0.use_tempaddr.is_some());
        assert!(s.contains_key("all") && s.contains_key("br0"));
        let outputs: Vec<String> = tree.ip_outputs().into_iter().map(|(n, _)| n).collect();
        // the one-line addresses first, the full listing after them
        let o = outputs.iter().position(|n| n.ends_with("ip_-o_addr")).unwrap();
        let d = outputs.iter().position(|n| n.ends_with("ip_-d_address")).unwrap();
        assert!(o < d, "{outputs:?}");
        assert!(tree.etc("hosts").unwrap().contains("node1.example"));
    }
}
