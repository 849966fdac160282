//! Every `console` example in README.md and in the guide (`docs/*.md`)
//! runs here, against the shipped fixtures, and must print what the page
//! shows (`...` and `[..]` elide long or moving parts). A changed output
//! format fails this test until the page follows.

// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

/// The README's commands run from the top of the repository (where a
/// newcomer types them); every test here works from there.
fn at_top() {
    std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).expect("the repository's top");
}

#[test]
fn readme_examples_print_what_they_show() {
    at_top();
    trycmd::TestCases::new()
        .register_bin("nlorder", std::path::Path::new(env!("CARGO_BIN_EXE_nlorder")))
        .env("NO_COLOR", "1")
        .case("README.md")
        .case("docs/*.md");
}

/// The README and the guide's pages, each a file name and its text.
fn guide() -> Vec<(String, String)> {
    let mut pages = vec![(
        "README.md".to_owned(),
        std::fs::read_to_string("README.md").expect("README.md"),
    )];
    let mut docs: Vec<_> = std::fs::read_dir("docs")
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    assert!(docs.len() >= 10, "the guide has {} pages", docs.len());
    for p in docs {
        let text = std::fs::read_to_string(&p).expect("page");
        pages.push((p.display().to_string(), text));
    }
    pages
}

/// The README stays a page a newcomer reads (the reference is the guide),
/// and every page it or the guide links to exists.
#[test]
fn readme_is_short_and_its_links_resolve() {
    at_top();
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    assert!(
        readme.lines().count() <= 160,
        "README.md has {} lines",
        readme.lines().count()
    );
    let link = regex::Regex::new(r"\]\(([^)#]+)\)").expect("regex");
    for (name, text) in guide() {
        let base = std::path::Path::new(&name).parent().unwrap_or(std::path::Path::new(""));
        for c in link.captures_iter(&text) {
            let target = base.join(&c[1]);
            assert!(
                target.exists(),
                "{name} links to {}, which does not exist",
                target.display()
            );
        }
    }
}

/// Long options a subcommand's `--help` lists.
fn help_options(sub: &str) -> std::collections::BTreeSet<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .args([sub, "--help"])
        .output()
        .expect("run nlorder");
    options_in(&String::from_utf8_lossy(&out.stdout))
}

fn options_in(text: &str) -> std::collections::BTreeSet<String> {
    let re = regex::Regex::new(r"--[a-z][a-z0-9-]+").expect("regex");
    re.find_iter(text).map(|m| m.as_str().to_owned()).collect()
}

/// `--help`, the man page and the guide (README and `docs/`) name the same
/// options: every option a subcommand takes is documented, and the guide
/// documents no option nlorder does not have (cargo's own flags aside).
#[test]
fn help_man_page_and_readme_agree_on_every_option() {
    at_top();
    let readme = options_in(&guide().into_iter().map(|(_, t)| t).collect::<Vec<_>>().join("\n"));
    let man = std::process::Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .arg("man")
        .output()
        .expect("run nlorder man");
    // roff escapes each dash
    let man = options_in(&String::from_utf8_lossy(&man.stdout).replace("\\-", "-"));
    let mut all = std::collections::BTreeSet::new();
    for sub in [
        "decode", "table", "timeline", "who", "annotate", "detect", "gai", "check", "report", "record", "watch", "man",
    ] {
        let help = help_options(sub);
        assert!(help.contains("--help"), "{sub}: {help:?}");
        for o in help.iter().filter(|o| *o != "--help") {
            assert!(readme.contains(o), "`nlorder {sub} {o}` is not in README.md or docs/");
        }
        all.extend(help);
    }
    for o in all.iter().filter(|o| *o != "--help") {
        assert!(man.contains(o), "{o} is not in the man page");
    }
    let cargo_flags = [
        "--bench",
        "--locked",
        "--nocapture",
        "--path",
        "--profile",
        "--release",
        "--test",
    ];
    for o in &readme {
        assert!(
            all.contains(o) || cargo_flags.contains(&o.as_str()),
            "README.md or docs/ documents {o}, which no subcommand takes"
        );
    }
}

/// Short options (`-Y`, `-4`, `-G`) a `--help` lists, each as the guide
/// would write it (`-Y`).
fn short_options(args: &[&str]) -> std::collections::BTreeSet<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nlorder"))
        .args(args)
        .output()
        .expect("run nlorder");
    let re = regex::Regex::new(r"(?m)^\s{2,}(-[A-Za-z0-9])(?:,|\s|$)").expect("regex");
    re.captures_iter(&String::from_utf8_lossy(&out.stdout))
        .map(|c| c[1].to_owned())
        .filter(|o| o != "-h")
        .collect()
}

/// Every short option, the tshark and iproute2 spellings among them, is in
/// the guide too, written as a user types it (`` `-Y`` or `` -Y ``).
#[test]
fn the_guide_names_every_short_option() {
    at_top();
    let text = guide().into_iter().map(|(_, t)| t).collect::<Vec<_>>().join("\n");
    let mut all = short_options(&["--help"]);
    for sub in [
        "decode", "table", "timeline", "who", "annotate", "detect", "gai", "check", "record", "watch",
    ] {
        all.extend(short_options(&[sub, "--help"]));
    }
    assert!(
        all.contains("-G") && all.contains("-4") && all.contains("-T"),
        "{all:?}"
    );
    for o in &all {
        assert!(
            text.contains(&format!("`{o}")) || text.contains(&format!(" {o} ")) || text.contains(&format!("{o}`")),
            "{o} is not in README.md or docs/"
        );
    }
}

/// `nlorder man SUBCOMMAND` is that subcommand's own page,
/// nlorder-SUBCOMMAND(1), naming every option its `--help` names; `--dir`
/// writes the top page and one per subcommand, the same pages; a page
/// that does not exist is refused with the list of those that do.
#[test]
fn every_subcommand_has_its_own_man_page() {
    let nlorder = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_nlorder"))
            .args(args)
            .output()
            .expect("run nlorder")
    };
    let dir = std::env::temp_dir().join(format!("nlorder-man-{}", std::process::id()));
    let out = nlorder(&["man", "--dir", dir.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.join("nlorder.1").is_file());
    for sub in [
        "decode", "table", "timeline", "who", "annotate", "detect", "gai", "check", "record", "watch",
    ] {
        let page = nlorder(&["man", sub]);
        assert!(page.status.success(), "man {sub}");
        let text = String::from_utf8_lossy(&page.stdout).into_owned();
        assert!(
            text.contains(&format!(".TH nlorder-{sub} 1")),
            "{sub}: {}",
            &text[..200.min(text.len())]
        );
        assert!(
            text.contains(&format!("nlorder\\-{sub} \\-")),
            "{sub}: NAME is not nlorder-{sub}"
        );
        let options = options_in(&text.replace("\\-", "-"));
        for o in help_options(sub) {
            assert!(
                options.contains(&o),
                "{o} of `nlorder {sub} --help` is not in nlorder-{sub}(1)"
            );
        }
        let file = std::fs::read_to_string(dir.join(format!("nlorder-{sub}.1"))).expect("written page");
        assert_eq!(file, text, "--dir wrote another nlorder-{sub}(1)");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let bad = nlorder(&["man", "banana"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("no man page nlorder-banana(1)") && err.contains("decode"),
        "{err}"
    );
}

/// Every Cargo profile the README and the guide name (`--profile dist`,
/// "the `release` profile", "the light profile") is one Cargo.toml has
/// (or one of Cargo's own): a newcomer looks it up there.
#[test]
fn the_profiles_the_guide_names_exist() {
    at_top();
    let cargo = std::fs::read_to_string("Cargo.toml").expect("Cargo.toml");
    let defined = |name: &str| {
        ["dev", "release", "test", "bench"].contains(&name) || cargo.contains(&format!("[profile.{name}]"))
    };
    let named = regex::Regex::new(r"--profile[ =]([a-z][a-z0-9_-]*)|(?:the|its) `?([a-z][a-z0-9_-]*)`? profile")
        .expect("regex");
    let mut seen = 0;
    for (page, text) in guide() {
        let text = text.replace('\n', " ");
        for c in named.captures_iter(&text) {
            let name = c.get(1).or_else(|| c.get(2)).expect("a name").as_str();
            // (prose such as "the same profile" names none)
            if ["same", "other", "build", "quicker", "one"].contains(&name) {
                continue;
            }
            seen += 1;
            assert!(
                defined(name),
                "{page} names the profile `{name}`, which Cargo.toml does not define"
            );
        }
    }
    assert!(seen > 0, "the guide names no profile: the pattern is stale");
}
