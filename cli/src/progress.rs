//! The progress bar (indicatif) shown on stderr while a large capture is
//! read on a terminal.

use nlorder::app::ReadProgress;

/// Files larger than this get a progress bar on a terminal.
const PROGRESS_FROM: u64 = 8 << 20;

/// The progress bar of a large capture read on a terminal.
#[derive(Default)]
pub struct Progress(Option<indicatif::ProgressBar>);

impl ReadProgress for Progress {
    fn wrap(&mut self, source: Box<dyn std::io::Read + Send>, len: Option<u64>) -> Box<dyn std::io::Read + Send> {
        use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
        let Some(len) = len.filter(|l| *l > PROGRESS_FROM) else {
            return source;
        };
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        if let Ok(s) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}") {
            bar.set_style(s);
        }
        self.0 = Some(bar.clone());
        Box::new(bar.wrap_read(source))
    }

    fn finish(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
