//! Command-line behaviour: completions, man page, colour rules, exit codes.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        let out = common::nlorder(&["completions", shell]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("decode"), "{shell} completion lacks the decode command");
    }
    let man = common::nlorder(&["man"]);
    assert!(man.status.success());
    assert!(String::from_utf8_lossy(&man.stdout).starts_with(".ie"), "roff expected");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let f = common::fixture("basic.pcap");
    let f = f.to_str().expect("path");
    // A pipe (and NO_COLOR) gives plain text ...
    let plain = common::nlorder(&["decode", f]);
    assert!(!plain.stdout.contains(&0x1b), "escape codes in piped output");
    // ... --color always forces it.
    let coloured = common::nlorder(&["decode", "--color", "always", f]);
    assert!(coloured.stdout.contains(&0x1b));
    // --quiet drops the stderr summary.
    let quiet = common::nlorder(&["decode", "-q", f]);
    assert!(quiet.stderr.is_empty());
    assert!(!plain.stderr.is_empty());
}

#[test]
fn usage_errors_are_not_input_errors() {
    let capture = common::fixture("basic.pcap");
    let capture = capture.to_str().expect("path");
    // A mistake in the arguments: clap's `error: ...` with the usage line, exit 2.
    for args in [
        vec!["decode"],
        vec!["decode", "--format", "yaml", "x"],
        vec!["table", "--kernel", "6.99x", capture],
        vec!["detect", "--method", "interface=eth(", capture],
        vec!["detect", "--expect", "banana", capture],
    ] {
        let out = common::nlorder(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error:") && err.contains("--help"), "{args:?}: {err}");
    }
    // Input that cannot be read: one line naming it, no usage, exit 2.
    for (args, what) in [
        (vec!["decode", "/nonexistent/x.pcap"], "/nonexistent/x.pcap"),
        (vec!["table", "Cargo.toml"], "Cargo.toml"),
        (vec!["check", "/nonexistent/dir"], "/nonexistent/dir"),
    ] {
        let out = common::nlorder(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with(&format!("nlorder: {what}")), "{args:?}: {err}");
        assert!(!err.contains("--help") && err.lines().count() == 1, "{args:?}: {err}");
    }
}

/// Runs nlorder with a stdout whose reader closes before a byte arrives.
fn with_closed_stdout(args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait")
}

/// `nlorder ... | head`: a reader that goes away before nlorder writes. Every
/// subcommand and format ends quietly with status 0, as `ip` and `grep` do.
#[test]
fn a_closed_pipe_ends_every_subcommand_quietly() {
    let f = common::fixture("kernels/6.12/routes.l2.pcap");
    let f = f.to_str().expect("path");
    let gai = common::fixture("incident-gai-alias.pcap");
    let gai = gai.to_str().expect("path");
    let manifests = common::fixture("");
    let manifests = manifests.to_str().expect("path");
    let runs: Vec<Vec<&str>> = vec![
        vec!["decode", f],
        vec!["table", f],
        vec!["timeline", f],
        vec!["detect", f],
        vec!["detect", "--all", f],
        vec!["detect", "--timeline", f],
        vec!["gai", gai, "172.18.45.2", "10.0.0.1"],
        vec!["gai", "--timeline", gai, "172.18.45.2", "10.0.0.1"],
        vec!["check", manifests],
    ];
    for args in runs {
        for format in ["text", "json"] {
            let mut a = vec![args[0], "-q", "--format", format];
            if args[0] == "check" {
                a.remove(1);
            }
            a.extend_from_slice(&args[1..]);
            let out = with_closed_stdout(&a);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{a:?}: {err}");
            assert!(
                !err.contains("Broken pipe") && !err.contains("panicked"),
                "{a:?}: {err}"
            );
        }
    }
    for a in [vec!["completions", "bash"], vec!["man"]] {
        let out = with_closed_stdout(&a);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{a:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
