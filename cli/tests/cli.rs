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
    // every page, each subcommand's too, names the version it documents,
    // printed alone or written by --dir
    let version = format!("\"nlorder {}\"", env!("CARGO_PKG_VERSION"));
    let th = |text: &str| {
        text.lines()
            .find(|l| l.starts_with(".TH"))
            .expect(".TH line")
            .to_owned()
    };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("man-version");
    let _ = std::fs::remove_dir_all(&dir);
    let out = common::nlorder(&["man", "--dir", dir.to_str().expect("path")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut pages = 0;
    for entry in std::fs::read_dir(&dir).expect("pages") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("page");
        assert!(th(&text).contains(&version), "{}: {}", path.display(), th(&text));
        let name = path.file_stem().expect("name").to_str().expect("utf-8").to_owned();
        let printed = match name.strip_prefix("nlorder-") {
            Some(sub) => common::nlorder(&["man", sub]),
            None => common::nlorder(&["man"]),
        };
        let printed = String::from_utf8_lossy(&printed.stdout);
        assert!(th(&printed).contains(&version), "{name}: {}", th(&printed));
        pages += 1;
    }
    // nlorder(1) and one per subcommand (`nlorder --help` lists them)
    let subs = subcommands().len();
    assert!(subs >= 13, "{subs} subcommands");
    assert_eq!(pages, subs + 1, "a page per subcommand, and nlorder(1)");
}

#[test]
fn every_file_written_takes_dash_o() {
    let capture = common::fixture("basic.pcap");
    let capture = capture.to_str().expect("path");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dash-o");
    std::fs::create_dir_all(&dir).expect("dir");
    for (flag, name) in [("-o", "a.pcapng"), ("--output", "b.pcapng"), ("-w", "c.pcapng")] {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let out = common::nlorder(&["annotate", "-q", capture, flag, path.to_str().expect("path")]);
        assert!(out.status.success(), "{flag}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(std::fs::metadata(&path).expect("written").len() > 0, "{flag}");
    }
    let page = dir.join("page.html");
    for flag in ["-o", "--output"] {
        let _ = std::fs::remove_file(&page);
        let out = common::nlorder(&["report", "-q", capture, flag, page.to_str().expect("path")]);
        common::assert_ok(&out, format_args!("report {flag}"));
        assert!(std::fs::metadata(&page).expect("written").len() > 0, "report {flag}");
    }
    // Every subcommand's help: the option that names the file written is
    // -o/--output, with tcpdump's -w/--write beside it where a capture is
    // written; no subcommand takes -w alone.
    let mut writers = Vec::new();
    let subs = subcommands();
    for sub in subs.iter().map(String::as_str) {
        let help = common::stdout_ok(&[sub, "--help"]);
        // an option's entry: from its line to the next option's
        let entry = |flags: &str| -> Option<String> {
            let at = help.find(&format!("\n  {flags}"))? + 3;
            let mut lines = help[at..].lines();
            let first = lines.next()?;
            let more = lines.take_while(|l| !l.starts_with("  -") && !l.starts_with("      --"));
            let text: Vec<&str> = std::iter::once(first)
                .chain(more)
                .flat_map(str::split_whitespace)
                .collect();
            Some(text.join(" "))
        };
        if let Some(w) = entry("-w, --write") {
            assert!(w.contains("[aliases: -o, --output]"), "{sub}: {w}");
            writers.push(sub);
        } else if let Some(o) = entry("-o, --output") {
            assert!(o.contains("<FILE>"), "{sub}: {o}");
            writers.push(sub);
        }
    }
    assert_eq!(writers, ["annotate", "report", "record", "watch"]);
}

/// `record -o FILE`, as tcpdump's `-w FILE`, writes the capture (of a
/// namespace of its own).
#[test]
fn record_writes_with_dash_o() {
    if !common::can_run_netns(&[]) {
        return;
    }
    let ns = common::Netns::new("dash-o");
    ns.sh("ip link add name veth7 type veth peer name veth8
         ip addr add 10.7.0.1/24 dev veth7");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dash-o");
    std::fs::create_dir_all(&dir).expect("dir");
    for flag in ["-o", "--output", "-w"] {
        let cap = dir.join(format!("record{flag}.pcapng"));
        let cap = cap.to_str().expect("path");
        let _ = std::fs::remove_file(cap);
        let out = common::nlorder(&["record", "-q", "--netns", &ns.0, flag, cap]);
        assert!(out.status.success(), "{flag}: {}", String::from_utf8_lossy(&out.stderr));
        let table = common::stdout_ok(&["table", "-q", cap]);
        assert!(table.contains("10.7.0.1/24"), "{flag}: {table}");
    }
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

/// `nlorder ... 2>&1 | head`: standard error closed too. What nlorder has to
/// say there (a summary, a warning, an unreadable capture) ends quietly,
/// never as a panic (exit 101).
#[test]
fn a_closed_stderr_is_no_panic() {
    let f = common::fixture("basic.pcap");
    let f = f.to_str().expect("path");
    for (args, code) in [
        (vec!["detect", f], 0),
        (vec!["table", "--at", "99999", f], 0),
        (vec!["detect", "/nonexistent/x.pcap"], 2),
        (vec!["table", "Cargo.toml"], 2),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_nlorder"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                drop(child.stderr.take());
                child.wait_with_output()
            })
            .expect("run");
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
}

/// The subcommands `nlorder --help` lists, `help` left out.
fn subcommands() -> Vec<String> {
    common::stdout_ok(&["--help"])
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| {
            l.strip_prefix("  ")
                .filter(|r| !r.starts_with(' '))?
                .split_whitespace()
                .next()
        })
        .filter(|s| *s != "help")
        .map(str::to_owned)
        .collect()
}

/// What a tshark user types (`-r`, `-V`, `-T`) means what it means to
/// tshark; a conflict or a missing part is a usage error.
#[test]
fn tshark_flags_mean_what_tshark_means() {
    let f = common::fixture("incident-hotplug.pcap");
    let f = f.to_str().unwrap();
    for sub in ["decode", "timeline", "who", "table"] {
        assert_eq!(
            common::stdout_ok(&[sub, "-q", "-r", f]),
            common::stdout_ok(&[sub, "-q", f]),
            "{sub} -r"
        );
    }
    assert_eq!(
        common::stdout_ok(&["decode", "-q", "-V", f]),
        common::stdout_ok(&["decode", "-q", "--attrs", f])
    );
    assert_ne!(
        common::stdout_ok(&["decode", "-q", "-V", f]),
        common::stdout_ok(&["decode", "-q", f])
    );
    for sub in ["decode", "timeline", "who"] {
        let json = common::stdout_ok(&[sub, "-q", "--format", "json", f]);
        assert_eq!(
            common::stdout_ok(&[sub, "-q", "-T", "json", "-r", f]),
            json,
            "{sub} -T json"
        );
        assert_eq!(common::stdout_ok(&[sub, "-q", "-T", "ek", f]), json, "{sub} -T ek");
        assert_eq!(
            common::stdout_ok(&[sub, "-q", "-T", "fields", "-e", "packet,time", f]),
            common::stdout_ok(&[sub, "-q", "-e", "packet,time", f]),
            "{sub} -T fields"
        );
        assert_eq!(
            common::stdout_ok(&[sub, "-q", "-T", "text", f]),
            common::stdout_ok(&[sub, "-q", f])
        );
        for bad in [
            vec![sub, "-T", "fields", f],
            vec![sub, "-T", "json", "--format", "json", f],
            vec![sub, "-r", f, f],
            vec![sub],
        ] {
            let out = common::nlorder(&bad);
            assert_eq!(out.status.code(), Some(2), "{bad:?}");
            assert!(out.stdout.is_empty(), "{bad:?}");
        }
    }
}

/// What an iproute2 user types to `table` (`-4`, `-6`, `-j`, `--family
/// inet6`) means what it means to `ip`; `--objects` picks text sections too;
/// `detect -4`/`-6` are its `--family`.
#[test]
fn iproute2_flags_mean_what_ip_means() {
    let f = common::fixture("notify-addr.pcap");
    let f = f.to_str().unwrap();
    for (short, long) in [("-4", "4"), ("-6", "6")] {
        let want = common::stdout_ok(&["table", "-q", "--family", long, f]);
        assert_eq!(common::stdout_ok(&["table", "-q", short, f]), want);
        let word = if long == "4" { "inet" } else { "inet6" };
        assert_eq!(common::stdout_ok(&["table", "-q", "--family", word, f]), want);
    }
    assert_eq!(
        common::stdout_ok(&["table", "-q", "-j", "-6", "--objects", "addr", f]),
        common::stdout_ok(&[
            "table",
            "-q",
            "--format",
            "ip-json",
            "--family",
            "6",
            "--objects",
            "addr",
            f
        ])
    );
    let all = common::stdout_ok(&["table", "-q", f]);
    let routes = common::stdout_ok(&["table", "-q", "--objects", "route", f]);
    assert!(routes.contains("# routes\n") && !routes.contains("# links") && !routes.contains("# addresses"));
    let route_lines = |t: &str| {
        t.split("# routes\n")
            .nth(1)
            .unwrap()
            .lines()
            .take_while(|l| !l.starts_with('#'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(route_lines(&routes), route_lines(&all));
    let links = common::stdout_ok(&["table", "-q", "--objects", "link,addr", f]);
    assert!(links.contains("# links") && links.contains("# addresses") && !links.contains("# routes"));
    // detect (and report and watch, which share its settings) take them too
    for (short, long) in [("-4", "4"), ("-6", "6")] {
        assert_eq!(
            common::stdout_ok(&["detect", "-q", short, f]),
            common::stdout_ok(&["detect", "-q", "--family", long, f])
        );
    }
    assert_ne!(
        common::stdout_ok(&["detect", "-q", "-4", f]),
        common::stdout_ok(&["detect", "-q", "-6", f])
    );
    for bad in [
        vec!["detect", "-4", "-6", f],
        vec!["detect", "-6", "--family", "4", f],
        vec!["table", "-4", "-6", f],
        vec!["table", "-4", "--family", "6", f],
        vec!["table", "-j", "--format", "text", f],
        vec!["table", "--format", "json", "--objects", "route", f],
    ] {
        assert_eq!(common::nlorder(&bad).status.code(), Some(2), "{bad:?}");
    }
}

/// Every subcommand's `--format` says what its formats are, and no help
/// sends an installed binary's user to a README they do not have.
#[test]
fn every_format_is_described_and_help_stands_alone() {
    for sub in [
        "decode", "table", "timeline", "who", "annotate", "detect", "gai", "check", "record", "watch",
    ] {
        let help = common::stdout_ok(&[sub, "--help"]);
        assert!(!help.contains("README"), "{sub} --help points to the README");
        if let Some(at) = help.find("--format <") {
            let after = &help[at..];
            let line_end = after.find('\n').unwrap();
            let next = after[line_end + 1..].lines().next().unwrap_or("");
            assert!(
                next.trim().len() > 20 && !next.trim().starts_with('-') && !next.trim().starts_with('['),
                "{sub} --format has no description: {next:?}"
            );
        }
    }
}

/// A program's name where a capture goes (`detect flannel x.pcap`, as a
/// newcomer types it): the missing file is said, and how to name the
/// program.
#[test]
fn a_program_given_as_a_capture_is_pointed_to_method() {
    let basic = common::fixture("basic.pcap");
    let out = common::nlorder(&["detect", "-q", "flannel", basic.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    common::assert_has(&err, &["flannel: No such file", "give it as --method flannel"]);
}
