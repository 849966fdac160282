//! What `nlorder record` (and `watch`) say on stderr when the recording
//! starts, the way tcpdump says "listening on ...".

use std::path::Path;

use crate::record::{FileFormat, Options};

/// `recording links, addresses, routes and rules of this namespace into x.pcapng
/// (pcapng, kernel 6.12.1 in its header), following notifications until
/// Ctrl-C (Ctrl-C to stop)`.
/// `file` is `None` for `watch` without `-w`: the recording is read and
/// not kept.
pub fn started(file: Option<&Path>, netns: Option<&str>, format: FileFormat, o: &Options) -> String {
    let whose = match netns {
        Some(ns) => format!("network namespace {ns}"),
        None => "this network namespace".into(),
    };
    let into = match file.map(|f| (f, f.as_os_str().to_str())) {
        None => "memory only (-w FILE keeps it)".to_owned(),
        Some((_, Some("-"))) => "stdout".to_owned(),
        Some((f, _)) => f.display().to_string(),
    };
    let container = match format {
        FileFormat::Pcapng => match crate::record::kernel_release() {
            Some(k) => format!("pcapng, kernel {k} in its section header"),
            None => "pcapng".into(),
        },
        FileFormat::Pcap => "pcap, which cannot name the kernel".into(),
    };
    let how = match (o.follow, o.duration) {
        (false, _) => "the dumps only".to_owned(),
        (true, Some(d)) => format!(
            "then notifications for {} (Ctrl-C to stop sooner)",
            humantime::format_duration(d)
        ),
        (true, None) => "then notifications (Ctrl-C to stop)".into(),
    };
    format!("recording links, addresses, routes and rules of {whose} into {into} ({container}): {how}")
}
