//! Live: in a network namespace this test creates, `nlorder watch` prints a
//! line the moment a hot-added NIC changes Calico's first-found answer,
//! `--expect` exits 1 at that moment, `-w` keeps the capture, and
//! `nlorder record --follow -w - | nlorder decode -` shows each change
//! while the recorder still runs. Every wait is bounded.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use common::Netns;

const BIN: &str = env!("CARGO_BIN_EXE_nlorder");

/// The lines a child prints on stdout, as they come.
fn lines(child: &mut Child) -> Receiver<String> {
    let (tx, rx) = channel();
    let out = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for l in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    rx
}

/// Waits (at most `within`) for a line that contains `want`; the lines
/// read meanwhile.
fn wait_for(rx: &Receiver<String>, want: &str, within: Duration) -> Vec<String> {
    let end = Instant::now() + within;
    let mut seen = Vec::new();
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(l) => {
                let hit = l.contains(want);
                seen.push(l);
                if hit {
                    return seen;
                }
            }
            Err(_) => break,
        }
    }
    panic!("no line with {want:?} within {within:?}; saw {seen:#?}");
}

/// A node with one NIC: first-found picks 10.9.0.2.
fn node(tag: &str) -> Netns {
    let ns = Netns::new(tag);
    ns.sh("ip link set lo up
         ip link add eth0 type veth peer name veth-eth0
         ip link set eth0 up
         ip link set veth-eth0 up
         ip addr add 10.9.0.2/24 dev eth0");
    ns
}

/// The hypervisor hot-adds a NIC: a new link, later in kernel order, with
/// its address: Calico walks links in reverse, so it wins first-found.
fn hot_add(ns: &Netns) {
    ns.sh("ip link add ens19 type veth peer name veth-ens19
         ip link set ens19 up
         ip link set veth-ens19 up
         ip addr add 192.168.100.5/24 dev ens19");
}

fn watch(ns: &Netns, extra: &[&str]) -> Child {
    Command::new(BIN)
        .args(["watch", "--netns", &ns.0, "--method", "first-found", "--color", "never"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nlorder watch")
}

/// `nlorder record --follow -w -` in `ns`, its capture on a pipe.
fn recorder(ns: &Netns) -> Child {
    Command::new(BIN)
        .args([
            "record",
            "-q",
            "--follow",
            "--duration",
            "20s",
            "--netns",
            &ns.0,
            "-w",
            "-",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("record")
}

/// `nlorder ARGS...` reading the recorder's output from a pipe.
fn reading(recorder: &mut Child, args: &[&str]) -> Child {
    Command::new(BIN)
        .args(args)
        .stdin(recorder.stdout.take().unwrap())
        .stdout(Stdio::piped())
        .spawn()
        .expect("nlorder reading the pipe")
}

/// What the reader has shown came while the recorder still ran; stopped
/// with Ctrl-C, the recorder ends cleanly, and so does the reader.
fn stop_both(mut recorder: Child, mut reader: Child) {
    assert!(
        recorder.try_wait().unwrap().is_none(),
        "seen only once the recorder ended"
    );
    nix_kill(&recorder, "INT");
    assert!(wait_exit(&mut recorder, Duration::from_secs(10)).success());
    assert!(wait_exit(&mut reader, Duration::from_secs(10)).success());
}

fn wait_exit(child: &mut Child, within: Duration) -> std::process::ExitStatus {
    let end = Instant::now() + within;
    loop {
        if let Some(s) = child.try_wait().expect("wait") {
            return s;
        }
        if Instant::now() > end {
            let _ = child.kill();
            panic!("did not end within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn watch_prints_the_flip_a_hot_added_nic_causes_as_it_happens() {
    if !common::can_run_netns(&[]) {
        return;
    }
    let ns = node("watch");
    let kept = std::env::temp_dir().join(format!("nlorder-watch-{}.pcapng", std::process::id()));
    let mut child = watch(&ns, &["--duration", "20s", "-w", kept.to_str().unwrap()]);
    let rx = lines(&mut child);
    wait_for(&rx, "(start) -> 10.9.0.2/24 on eth0", Duration::from_secs(10));
    let added = Instant::now();
    hot_add(&ns);
    let seen = wait_for(
        &rx,
        "10.9.0.2/24 on eth0 -> 192.168.100.5/24 on ens19",
        Duration::from_secs(5),
    );
    assert!(added.elapsed() < Duration::from_secs(5));
    let causes = wait_for(&rx, "because: + 192.168.100.5/24 on ens19", Duration::from_secs(2));
    assert!(!seen.is_empty() && !causes.is_empty());
    // Ctrl-C ends it with the final dumps written.
    nix_kill(&child, "INT");
    assert!(wait_exit(&mut child, Duration::from_secs(10)).success());
    // The kept capture tells the same story to detect --timeline.
    let text = common::stdout_ok(&[
        "detect",
        "--timeline",
        "-q",
        "--method",
        "first-found",
        kept.to_str().unwrap(),
    ]);
    common::assert_has(&text, &["10.9.0.2/24 on eth0 -> 192.168.100.5/24 on ens19"]);
    let _ = std::fs::remove_file(&kept);
}

fn nix_kill(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{sig}"), &child.id().to_string()])
        .status()
        .expect("kill")
        .success();
    assert!(ok);
}

#[test]
fn watch_expect_exits_1_at_the_first_deviation() {
    if !common::can_run_netns(&[]) {
        return;
    }
    let ns = node("expect");
    let mut child = watch(&ns, &["--expect", "10.9.0.2", "--duration", "30s"]);
    let rx = lines(&mut child);
    wait_for(&rx, "(start) -> 10.9.0.2/24 on eth0", Duration::from_secs(10));
    hot_add(&ns);
    let status = wait_exit(&mut child, Duration::from_secs(5));
    assert_eq!(status.code(), Some(1));
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    common::assert_has(&err, &["expected 10.9.0.2, got 192.168.100.5/24 on ens19"]);
}

#[test]
fn decode_and_timeline_read_a_pipe_as_it_fills() {
    if !common::can_run_netns(&[]) {
        return;
    }
    let ns = node("stream");
    for listing in ["decode", "timeline"] {
        let mut recorder = recorder(&ns);
        let mut reader = reading(&mut recorder, &[listing, "-q", "-"]);
        let rx = lines(&mut reader);
        // The first dumps arrive while the recorder keeps running.
        let first = if listing == "decode" { "NLMSG_DONE" } else { "dump #" };
        wait_for(&rx, first, Duration::from_secs(10));
        assert!(recorder.try_wait().unwrap().is_none(), "the recorder ended early");
        ns.sh("ip addr add 10.9.0.77/24 dev eth0");
        let want = if listing == "decode" {
            "10.9.0.77/24"
        } else {
            "+ 10.9.0.77/24 on eth0"
        };
        wait_for(&rx, want, Duration::from_secs(5));
        stop_both(recorder, reader);
        ns.sh("ip addr del 10.9.0.77/24 dev eth0");
    }
}

#[test]
fn watch_says_why_the_kernel_cannot_be_watched() {
    let out = common::nlorder(&["watch", "--netns", "nlorder-no-such-ns", "--duration", "1s"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(&err, &["network namespace nlorder-no-such-ns not found"]);
    // and a wrong argument is a usage error before anything starts
    let out = common::nlorder(&["watch", "--read", "x.pcap", "--netns", "n"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `watch --help`'s example, `nlorder record --follow -w - | nlorder watch
/// -r -`: the flip a hot-added NIC causes comes through the pipe while the
/// recorder still runs.
#[test]
fn watch_reads_a_recorder_s_pipe_as_its_help_shows() {
    if !common::can_run_netns(&[]) {
        return;
    }
    let ns = node("watchpipe");
    let mut recorder = recorder(&ns);
    let mut watcher = reading(
        &mut recorder,
        &["watch", "-q", "--method", "first-found", "--color", "never", "-r", "-"],
    );
    let rx = lines(&mut watcher);
    wait_for(&rx, "(start) -> 10.9.0.2/24 on eth0", Duration::from_secs(10));
    hot_add(&ns);
    wait_for(
        &rx,
        "10.9.0.2/24 on eth0 -> 192.168.100.5/24 on ens19",
        Duration::from_secs(5),
    );
    stop_both(recorder, watcher);
}
