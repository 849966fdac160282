//! `check`: the manifests to run, and how to report them.

use std::path::PathBuf;

use clap::Args;

use super::common::{ColorChoice, OutputFormat};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Manifests, or folders searched for *.nlorder.toml and nlorder.toml.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write the values computed now into the manifests (snapshot style); a
    /// manifest that only names its capture gets default expectations. A
    /// manifest any part of which cannot be run is not written at all.
    #[arg(long)]
    pub update: bool,
    /// Also write JUnit XML to this file: a test case per expectation, and an
    /// <error> one for each manifest, case or expectation that could not be run.
    #[arg(long)]
    pub junit: Option<PathBuf>,
    /// Output format: a line per expectation as text, or one JSON document.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// Run this many cases at once, one per thread (default: one per
    /// core). The output is the same, in manifest order.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
}
