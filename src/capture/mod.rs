//! Capture reading: pcap/pcapng containers and the link-layer headers in
//! front of netlink data; and writing a capture back as pcapng, record by
//! record, with comments added ([`writer`]). Knows nothing about netlink
//! messages themselves.

pub mod link;
pub mod reader;
pub mod writer;

pub use link::{NetlinkFrame, NotNetlink, netlink_frame};
pub use reader::{
    CaptureReader, Error, FileInfo, Format, InterfaceDescription, Options, RawOption, Record, Section, Stored,
    StoredKind, Timestamp,
};
pub use writer::{PcapngWriter, StoredPacket};
