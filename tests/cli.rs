//! Command-line behaviour: completions, man page, colour rules, exit codes.

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
