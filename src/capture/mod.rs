//! Capture reading: pcap/pcapng containers and the link-layer headers in
//! front of netlink data. Knows nothing about netlink messages themselves.

pub mod link;
pub mod reader;

pub use link::{NetlinkFrame, NotNetlink, netlink_frame};
pub use reader::{CaptureReader, Error, FileInfo, Format, Record, Timestamp};
