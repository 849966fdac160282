//! Calico's `first-found` for every capture in a folder: which address each
//! node would have picked at the end of its capture, and on which interface.
//!
//! ```sh
//! cargo run --example first_found -- fixtures/
//! ```
//!
//! A capture that cannot be read is reported and skipped; the others are
//! answered one line each, in file-name order.

use std::path::{Path, PathBuf};

use nlorder::capture::CaptureReader;
use nlorder::ingest::rebuild::rebuild_to_end;
use nlorder::model::ModelOptions;
use nlorder::replay::calico;

/// The answer for one capture, as one line.
fn first_found(path: &Path) -> Result<String, Box<dyn std::error::Error>> {
    let mut reader = CaptureReader::new(std::fs::File::open(path)?)?;
    let (rebuilt, _) = rebuild_to_end(&mut reader, ModelOptions::default())?;
    let d = calico::detect(&rebuilt.model, "first-found", &calico::Options::default());
    Ok(match (&d.address, &d.interface, &d.error) {
        (Some(a), Some(i), _) => format!("{a} on {i}"),
        (_, _, Some(e)) => format!("nothing: {e}"),
        _ => "nothing".to_owned(),
    })
}

fn main() {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    let mut captures: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pcap" || x == "pcapng"))
            .collect(),
        Err(e) => {
            eprintln!("{}: {e}", dir.display());
            std::process::exit(2);
        }
    };
    captures.sort();
    for path in &captures {
        match first_found(path) {
            Ok(answer) => println!("{}: {answer}", path.display()),
            Err(e) => eprintln!("{}: skipped: {e}", path.display()),
        }
    }
}

/// Run by `cargo test` (`test = true` in Cargo.toml): the nerdctl bridge,
/// created last, wins first-found.
#[test]
fn the_bridge_created_last_wins() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/incident-nerdctl.pcap");
    assert_eq!(first_found(&path).ok().as_deref(), Some("10.4.0.1/24 on nerdctl0"));
}
