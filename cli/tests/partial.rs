//! Partial captures, made from every real fixture by leaving messages out:
//! every link dump, every IPv4 address and route message, or every route
//! message (with the dump requests and ends that would claim a complete
//! view). No answer may change silently: `detect --all` and `gai` on the
//! reduced capture either give what they gave on the whole one, or say
//! what they could not know (JSON `unshown`, or an error saying the capture
//! cannot answer or tell).
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use nlorder::capture::{CaptureReader, PcapngWriter};
use nlorder::diag::Diagnostics;
use serde_json::Value;

const LINKTYPE_NETLINK: u32 = 253;
const NLM_F_MULTI: u16 = 0x2;
const NLM_F_DUMP: u16 = 0x300;
const NLMSG_DONE: u16 = 3;
const AF_INET: u8 = 2;
const AF_INET6: u8 = 10;

#[derive(Clone, Copy, Debug)]
enum Drop {
    LinkDumps,
    Ipv4,
    Routes,
}

/// Whether message `kind` (with `flags` and first body byte `family`) goes.
fn dropped(how: Drop, kind: u16, flags: u16, family: Option<u8>) -> bool {
    let request = flags & 0x1 != 0;
    let dump_request = request && flags & NLM_F_DUMP != 0;
    match how {
        Drop::LinkDumps => (kind == 16 && flags & NLM_F_MULTI != 0) || (kind == 18 && dump_request),
        // (dump requests of both families are made IPv6's, see `reduce`)
        Drop::Ipv4 => matches!(kind, 20..=22 | 24..=26) && family == Some(AF_INET),
        Drop::Routes => matches!(kind, 24..=26),
    }
}

/// The netlink messages of `data` (after the 16-byte cooked header) that
/// stay, and the sequence numbers of the dump requests left out (their
/// NLMSG_DONE goes too). `None`: the record is not little-endian netlink
/// this test can split; it stays whole.
fn reduce(data: &[u8], how: Drop, gone_seqs: &mut Vec<u32>) -> Option<Vec<u8>> {
    let mut out = data.get(..16)?.to_vec();
    let mut off = 16;
    while off + 16 <= data.len() {
        let len = u32::from_le_bytes(data[off..off + 4].try_into().ok()?) as usize;
        if len == 0 {
            // padding after the last message (nlmon copies the buffer)
            out.extend_from_slice(&data[off..]);
            break;
        }
        if len < 16 || off + len > data.len() {
            return None;
        }
        let kind = u16::from_le_bytes([data[off + 4], data[off + 5]]);
        let flags = u16::from_le_bytes([data[off + 6], data[off + 7]]);
        let seq = u32::from_le_bytes(data[off + 8..off + 12].try_into().ok()?);
        let family = data.get(off + 16).copied().filter(|_| len > 16);
        let aligned = (len + 3) & !3;
        // (the first end with the sequence number of a request left out is
        // its answer's: programs reuse sequence numbers)
        let gone = if kind == NLMSG_DONE {
            match gone_seqs.iter().position(|s| *s == seq) {
                Some(i) => {
                    gone_seqs.remove(i);
                    true
                }
                None => false,
            }
        } else {
            dropped(how, kind, flags, family)
        };
        if gone && flags & 0x1 != 0 && flags & NLM_F_DUMP != 0 {
            gone_seqs.push(seq);
        }
        if !gone {
            let start = out.len();
            out.extend_from_slice(&data[off..(off + aligned).min(data.len())]);
            // An address or route dump of both families becomes one of IPv6
            // (as `ip -6 addr` asks), so that its answer claims nothing of IPv4.
            if matches!(how, Drop::Ipv4) && matches!(kind, 22 | 26) && flags & NLM_F_DUMP != 0 && family == Some(0) {
                out[start + 16] = AF_INET6;
            }
        }
        off += aligned;
    }
    Some(out)
}

/// Writes `path` reduced by `how` into `out`; false when nothing was left
/// out (the reduction changes nothing) or it cannot be read.
fn write_reduced(path: &Path, how: Drop, out: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let Ok(mut reader) = CaptureReader::new(Box::new(file)) else {
        return false;
    };
    let mut writer = PcapngWriter::new(std::io::BufWriter::new(std::fs::File::create(out).unwrap()));
    let mut diags = Diagnostics::default();
    let mut changed = false;
    let mut gone_seqs = Vec::new();
    let read = reader.for_each_record(&mut diags, |rec, _| {
        let Ok(packet) = writer.prepare(rec) else { return false };
        let kept = match rec.linktype {
            LINKTYPE_NETLINK => reduce(rec.data, how, &mut gone_seqs),
            _ => None,
        };
        let packet = match kept {
            Some(k) if k.as_slice() != rec.data => {
                changed = true;
                if k.len() <= 16 {
                    return true;
                }
                packet.with_data(k)
            }
            _ => packet,
        };
        writer.write(&packet, &[]).is_ok()
    });
    writer.finish().unwrap();
    read.is_ok() && changed
}

fn run(bin: &Path, args: &[&str]) -> Option<Value> {
    let out = Command::new(bin).args(args).env("NO_COLOR", "1").output().unwrap();
    serde_json::from_slice(&out.stdout).ok()
}

/// Each method's answer: `(method, family) -> (address, interface, error,
/// said what it could not know)`.
type Answers = HashMap<(String, String), (Value, Value, String, bool)>;

fn detect(bin: &Path, cap: &Path) -> Answers {
    let Some(d) = run(
        bin,
        &["detect", "-q", "--all", "--format", "json", cap.to_str().unwrap()],
    ) else {
        return Answers::new();
    };
    let mut v = Answers::new();
    for m in d["nodes"][0]["methods"].as_array().into_iter().flatten() {
        let error = m["error"].as_str().unwrap_or_default().to_owned();
        let said = m["unshown"].as_array().is_some_and(|u| !u.is_empty()) || says_unknown(&error);
        v.insert(
            (m["method"].to_string(), m["family"].to_string()),
            (m["address"].clone(), m["interface"].clone(), error, said),
        );
    }
    v
}

fn says_unknown(error: &str) -> bool {
    ["cannot answer", "cannot tell", "holds no routes", "unknown yet"]
        .iter()
        .any(|w| error.contains(w))
}

const DESTINATIONS: [&str; 4] = ["192.0.2.7", "2001:db8::7", "10.0.0.1", "fd00::1"];

/// gai's order, and whether it said what it could not know.
fn gai(bin: &Path, cap: &Path) -> Option<(Value, bool)> {
    let mut args = vec!["gai", "-q", "--format", "json", cap.to_str().unwrap()];
    args.extend(DESTINATIONS);
    let g = run(bin, &args)?;
    let said =
        g["unshown"].as_array().is_some_and(|u| !u.is_empty()) || says_unknown(g["error"].as_str().unwrap_or_default());
    Some((g["order"].clone(), said))
}

fn binary() -> PathBuf {
    // (another build of nlorder can be tried against the same reductions)
    std::env::var_os("NLORDER_PARTIAL_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_nlorder")), PathBuf::from)
}

#[test]
fn no_answer_changes_silently_when_messages_are_left_out() {
    let bin = binary();
    let dir = std::env::temp_dir().join(format!("nlorder-partial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut silent = Vec::new();
    let mut compared = 0usize;
    for (i, path) in common::all_captures().iter().enumerate() {
        let whole = detect(&bin, path);
        let whole_gai = gai(&bin, path);
        for how in [Drop::LinkDumps, Drop::Ipv4, Drop::Routes] {
            let reduced = dir.join(format!("{i}-{how:?}.pcapng"));
            if !write_reduced(path, how, &reduced) {
                continue;
            }
            let part = detect(&bin, &reduced);
            for (key, (address, interface, error, _)) in &whole {
                let Some((a, iface, e, said)) = part.get(key) else {
                    continue;
                };
                compared += 1;
                if (a, iface, e) != (address, interface, error) && !said {
                    silent.push(format!(
                        "{} without {how:?}: {} IPv{}: {address} {interface} {error:?} -> {a} {iface} {e:?}",
                        path.display(),
                        key.0,
                        key.1
                    ));
                }
            }
            if let (Some((order, _)), Some((o, said))) = (&whole_gai, gai(&bin, &reduced)) {
                compared += 1;
                if *order != o && !said {
                    silent.push(format!("{} without {how:?}: gai {order} -> {o}", path.display()));
                }
            }
            if std::env::var_os("NLORDER_PARTIAL_KEEP").is_none() {
                std::fs::remove_file(&reduced).unwrap();
            }
        }
    }
    if std::env::var_os("NLORDER_PARTIAL_KEEP").is_none() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(compared > 1000, "only {compared} answers compared");
    assert!(
        silent.is_empty(),
        "{} answers changed without saying what the capture does not show:\n{}",
        silent.len(),
        silent.join("\n")
    );
}

/// calico-node's can-reach takes the first link of its walk holding the
/// kernel's source address: where that address is on two links (eth0 and
/// antrea-gw0 both hold 10.40.0.5 on choosers/6.12/antrea-host1), the
/// links' order decides, and without a link dump the answer says it does
/// not know that order; with one it answers plainly.
#[test]
fn can_reach_says_link_order_is_unknown_where_the_source_is_shared() {
    let bin = binary();
    let path = common::fixture("choosers/6.12/antrea-host1.l0.pcap");
    let dir = std::env::temp_dir().join(format!("nlorder-partial-shared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let reduced = dir.join("no-links.pcapng");
    assert!(write_reduced(&path, Drop::LinkDumps, &reduced));
    let answer = |cap: &Path| {
        run(
            &bin,
            &[
                "detect",
                "-q",
                "--method",
                "can-reach=10.40.0.1",
                "--format",
                "json",
                cap.to_str().unwrap(),
            ],
        )
        .unwrap()["nodes"][0]
            .clone()
    };
    let whole = answer(&path);
    assert_eq!(whole["interface"], "antrea-gw0", "{whole}");
    assert!(whole["unshown"].as_array().is_none_or(|u| u.is_empty()), "{whole}");
    let part = answer(&reduced);
    let unshown = part["unshown"].to_string();
    assert!(
        unshown.contains("no link dump shows which links the host has"),
        "{part}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
