//! The man pages (roff), rendered from the command line's definitions:
//! nlorder(1) with a section per subcommand, and nlorder-SUBCOMMAND(1)
//! each. Contract: the pages say what `--help` says, nothing of their own.

use crate::args::Cli;

/// The subcommands that have a page of their own (`help` has none).
fn man_subcommands(cmd: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    cmd.get_subcommands().filter(|s| s.get_name() != "help")
}

/// nlorder-SUBCOMMAND(1): one subcommand's page, as the top page's
/// SEE ALSO names it (`None`: no such subcommand).
pub fn sub_page(name: &str, out: &mut dyn std::io::Write) -> Option<std::io::Result<()>> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let sub = man_subcommands(&cmd).find(|s| s.get_name() == name)?.clone();
    let page = format!("nlorder-{name}");
    // (a subcommand has no version of its own: the page's source is the
    // package, as on the top page)
    let source = format!("nlorder {}", cmd.get_version().unwrap_or_default());
    let man = clap_mangen::Man::new(sub.clone().name(page.clone()).bin_name(format!("nlorder {name}")))
        .title(page)
        .source(source);
    let mut buf = Vec::new();
    if let Err(e) = man.render(&mut buf) {
        return Some(Err(e));
    }
    let text = headings(&with_aliases(&String::from_utf8_lossy(&buf), &sub), ".SH");
    Some(out.write_all(text.as_bytes()))
}

/// The visible aliases of each option (`-o`/`--output` beside `-w`/`--write`)
/// added to its entry, as `--help` lists them: clap_mangen names only the
/// option itself.
fn with_aliases(roff: &str, cmd: &clap::Command) -> String {
    let mut text = roff.to_owned();
    for arg in cmd.get_arguments() {
        let shorts = arg.get_visible_short_aliases().unwrap_or_default();
        let longs = arg.get_visible_aliases().unwrap_or_default();
        if shorts.is_empty() && longs.is_empty() {
            continue;
        }
        let mut entry = Vec::new();
        entry.extend(arg.get_short().map(|c| format!("\\fB\\-{c}\\fR")));
        entry.extend(
            arg.get_long()
                .map(|l| format!("\\fB\\-\\-{}\\fR", l.replace('-', "\\-"))),
        );
        let entry = entry.join(", ");
        let mut more: Vec<String> = shorts.iter().map(|c| format!("\\fB\\-{c}\\fR")).collect();
        more.extend(longs.iter().map(|l| format!("\\fB\\-\\-{}\\fR", l.replace('-', "\\-"))));
        // the entry's own line (`.TP` then the flags), not the synopsis
        let at = format!(".TP\n{entry}");
        text = text.replacen(&at, &format!("{at}, {}", more.join(", ")), 1);
    }
    text
}

/// The guide at the end of a listing's help (FILTERS, FIELDS, EXAMPLE) as
/// man sections (`.SH`) or subsections (`.SS`), instead of one EXTRA.
fn headings(roff: &str, level: &str) -> String {
    let mut out = String::with_capacity(roff.len());
    let mut lines = roff.lines().peekable();
    while let Some(line) = lines.next() {
        if line == ".SH EXTRA" {
            continue;
        }
        let heading = !line.is_empty()
            && !line.starts_with([' ', '.'])
            && line == line.to_uppercase()
            && line.chars().any(|c| c.is_ascii_alphabetic())
            && lines.peek().is_some_and(|next| next.starts_with("  "));
        if heading && ["FILTERS", "FIELDS", "EXAMPLE"].iter().any(|h| line.starts_with(h)) {
            out.push_str(&format!("{level} {line}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The names `nlorder man PAGE` takes.
pub fn sub_pages() -> Vec<String> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    man_subcommands(&cmd).map(|s| s.get_name().to_owned()).collect()
}

/// `nlorder man --dir DIR`: nlorder.1 and one page per subcommand; the
/// files written, in order.
pub fn write_pages(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let top = dir.join("nlorder.1");
    man_page(&mut std::io::BufWriter::new(std::fs::File::create(&top)?))?;
    written.push(top);
    for name in sub_pages() {
        let path = dir.join(format!("nlorder-{name}.1"));
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path)?);
        if let Some(r) = sub_page(&name, &mut f) {
            r?;
        }
        std::io::Write::flush(&mut f)?;
        written.push(path);
    }
    Ok(written)
}

/// `nlorder man`: the top-level page, then a section per subcommand with its
/// synopsis and every option (clap_mangen renders one command per page).
pub fn man_page(out: &mut dyn std::io::Write) -> std::io::Result<()> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    clap_mangen::Man::new(cmd.clone()).render(out)?;
    for sub in man_subcommands(&cmd) {
        let name = format!("nlorder {}", sub.get_name());
        let man = clap_mangen::Man::new(sub.clone().bin_name(name.clone()));
        let mut buf = Vec::new();
        man.render_synopsis_section(&mut buf)?;
        man.render_description_section(&mut buf)?;
        man.render_options_section(&mut buf)?;
        if sub.get_after_long_help().is_some() {
            man.render_extra_section(&mut buf)?;
        }
        let text = String::from_utf8_lossy(&buf)
            .replace(".SH SYNOPSIS", ".SS Synopsis")
            .replace(".SH DESCRIPTION", ".SS Description")
            .replace(".SH OPTIONS", ".SS Options");
        let text = headings(&with_aliases(&text, sub), ".SS");
        writeln!(out, ".SH \"{}\"", name.to_uppercase())?;
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}
