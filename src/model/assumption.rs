//! What the model assumes where the capture is silent, as values: the
//! report says each in words (`report::assumption`).
//!
//! Contract: plain data, one variant per kind of assumption, with what
//! the sentence names.

use std::net::IpAddr;

use crate::capture::Timestamp;

#[derive(Debug, Clone, PartialEq)]
pub enum Assumption {
    /// No complete link dump: links nothing touched are not shown.
    NoLinkDump,
    /// A veth whose peer is in another namespace: its carrier assumed up.
    VethPeerElsewhere { link: String },
    /// An ifindex the model predicted (the next the kernel would assign).
    PredictedIndex { index: u32, link: String },
    /// A link-local address made from a MAC the capture never showed.
    LinkLocalFromUnseenMac { link: String },
    /// An address whose valid lifetime ends after the last packet.
    LifetimeEndsAfter {
        address: String,
        link: String,
        at: Timestamp,
    },
    /// Duplicate address detection still under way at the last packet
    /// (`seconds`: since it began, or before the last packet when a dump
    /// showed it tentative).
    DadUnderWay {
        packet: u64,
        address: IpAddr,
        link: String,
        seconds: Option<f64>,
        from_dump: bool,
    },
    /// Link events still queued for linkwatch at the last packet.
    LinkwatchQueued,
    /// An address on several devices whose DADs ended unseen: the order
    /// of its local routes is the order they began.
    LocalRouteOrderUnknown { address: IpAddr },
    /// The kernel's timers were run on past the last packet (`--at`).
    TimersRunOn { addresses: usize, routes: usize },
    /// An address whose valid lifetime ran out past the last packet.
    ExpiredAfter { address: String, link: String },
    /// The promote_secondaries setting relied on at a packet.
    PromoteSecondaries { packet: u64, on: bool },
}
