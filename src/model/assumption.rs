//! What the model assumes where the capture is silent, as values: the
//! report says each in words (`report::assumption`).
//!
//! Contract: plain data, one variant per kind of assumption, with what
//! the sentence names.

use std::net::IpAddr;

use crate::capture::Timestamp;

/// Something the model took to be so where the capture is silent, with
/// what the report's sentence names; [`Model::assumptions`] lists those a
/// replay relied on.
///
/// [`Model::assumptions`]: super::Model::assumptions
#[derive(Debug, Clone, PartialEq)]
pub enum Assumption {
    /// No complete link dump: the model knows only the devices some message
    /// named. Devices nothing touched (lo at least) exist but are not
    /// shown, since only a dump lists every device.
    NoLinkDump,
    /// A dump asked for before the moment of the tables (`--at`) and
    /// answered after it: what it covers is unknown at that moment.
    AnsweredLater {
        /// What it dumps.
        kind: super::changes::ObjectKind,
        /// The packet of its request.
        request_packet: u64,
    },
    /// A veth whose peer is in another namespace: the peer, whose state the
    /// veth's carrier follows, is taken to be up; only that namespace's
    /// traffic would show it.
    VethPeerElsewhere {
        /// The veth's name.
        link: String,
    },
    /// No link notification in the capture (no link listener): a device
    /// that leaves this namespace with no request here leaves no message.
    /// These are the devices that can: a veth whose peer is in another
    /// namespace (deleted there, or with that namespace), a device of no
    /// kind (hardware, which its bus or hypervisor may unplug).
    MayLeaveUnseen {
        /// Their names, in dump order.
        links: Vec<String>,
    },
    /// No route notification in the capture (no route listener): the
    /// prefix and default routes the kernel makes from router
    /// advertisements, and with no address listener the SLAAC addresses,
    /// leave no message. These are the up devices with IPv6 that reach
    /// outside the namespace (a veth with its peer elsewhere, hardware),
    /// where a router may advertise.
    AdvertisementsUnseen {
        /// Their names, in dump order.
        links: Vec<String>,
        /// No address notification either: SLAAC addresses are unseen too.
        addresses_too: bool,
    },
    /// Devices made during the capture left ifindexes between them that
    /// no message shows: devices registered in the namespace unseen, such as
    /// the fallback devices a tunnel module makes as it loads
    /// (`ifindex_gaps`).
    UnseenDevices {
        /// The lowest ifindex of the gap no message showed.
        from: u32,
        /// The highest.
        to: u32,
        /// How many ifindexes of the gap no message showed.
        count: usize,
        /// The packet that showed the device made before the gap.
        after_packet: u64,
        /// The packet that showed the device made after it.
        before_packet: u64,
        /// That device's kind.
        kind: Option<String>,
        /// Their names by the kernel's rule: the fallback devices of the
        /// module of that kind, exactly as many as the gap.
        names: Option<Vec<String>>,
    },
    /// An ifindex the kernel chose itself that no reply or dump showed:
    /// the model took the one the kernel would assign next.
    PredictedIndex {
        /// The ifindex predicted.
        index: u32,
        /// The device's name.
        link: String,
    },
    /// An EUI-64 link-local address the kernel made from a MAC no message
    /// showed (no dump or GET reply carried the device's IFLA_ADDRESS): its
    /// interface identifier is unknown.
    LinkLocalFromUnseenMac {
        /// The device's name.
        link: String,
    },
    /// A link-local address the kernel made from the device's random
    /// permanent address (ip6tnl, ip6gre), which only the address's own
    /// notification shows: unknown.
    LinkLocalFromPermanentAddress {
        /// The device's name.
        link: String,
    },
    /// Link notifications stopped: the link request in record `request`,
    /// which the kernel always announces, was acknowledged without one
    /// after the last, in record `last`. A device that left after that
    /// without a request here left no link message.
    LinkListenerLeft {
        /// The last record with a link notification.
        last: u64,
        /// The request answered without one.
        request: u64,
    },
    /// The `ff00::/8` routes of a release whose stable series changed
    /// their form part way (type multicast and protocol kernel from
    /// unicast and boot), when the release's text gives no stable number:
    /// shown in the newer form.
    MulticastRouteForm {
        /// The release as the model knows it (`4.19`).
        kernel: String,
    },
    /// An IPv6 address is a home address (`IFA_F_HOMEADDRESS`), and the
    /// kernel's build is not given: source selection's rule 4 (prefer home
    /// addresses), which only `CONFIG_IPV6_MIP6=y` builds have, is applied
    /// as the distribution the capture names builds it, else not (most
    /// distributions build it as a module, which leaves the rule out).
    HomeAddressRule {
        /// The home addresses.
        addresses: Vec<String>,
        /// Whether rule 4 was applied.
        applied: bool,
        /// The distribution the capture's `shb_os` names, if one.
        build: Option<super::kernel_build::KernelBuild>,
    },
    /// An ipvlan's link-local address: its MAC's EUI-64 with the ipvlan's
    /// `dev_id` from its lower device's port, which no message shows and
    /// the capture does not tell (the port was made before it, or shared
    /// with another namespace): unknown until notified.
    LinkLocalIpvlanDevId {
        /// The device's name.
        link: String,
    },
    /// A link-local address from a random or secret interface id
    /// (`addr_gen_mode` random or stable privacy): unknown until notified.
    LinkLocalRandom {
        /// The device's name.
        link: String,
    },
    /// An address whose valid lifetime ends after the moment the tables
    /// are for: the kernel then deletes it with its routes, with a
    /// notification only for those who listen.
    LifetimeEndsAfter {
        /// The address and its prefix length, `10.0.0.5/24`.
        address: String,
        /// Its device's name.
        link: String,
        /// When its valid lifetime ends, as the IFA_CACHEINFO of the last
        /// message that showed it implies.
        at: Timestamp,
        /// The routes that go with it (local, broadcast, prefix).
        routes: Vec<String>,
    },
    /// A snapshot (`ip` output) showed the address tentative: duplicate
    /// address detection was under way when `ip` ran (see
    /// [`Assumption::at_snapshot`]).
    TentativeInSnapshot {
        /// The tentative address.
        address: IpAddr,
        /// Its device's name.
        link: String,
    },
    /// Duplicate address detection still under way at the last packet: the
    /// address is tentative and its local route not yet added. When DAD
    /// ends the kernel changes both silently, and nothing in the capture
    /// says how long it ran on.
    DadUnderWay {
        /// The record where DAD began, or the dump that showed the address
        /// tentative.
        packet: u64,
        /// The tentative address.
        address: IpAddr,
        /// Its device's name.
        link: String,
        /// How long before the last packet DAD began, or the dump showed it
        /// tentative (`from_dump`), in seconds; `None` when the records
        /// carry no time.
        seconds: Option<f64>,
        /// Only a dump showed it under way (IFA_F_TENTATIVE): it began then
        /// at the latest.
        from_dump: bool,
    },
    /// Link events still queued for linkwatch at the last packet: the
    /// operational state of those devices, and IPv6 on those just brought
    /// up, are as before linkwatch ran (within a second, unseen on a quiet
    /// host).
    LinkwatchQueued {
        /// The devices whose events wait, in dump order.
        links: Vec<String>,
    },
    /// An address whose valid lifetime ended, deleted in the tables by the
    /// model's clock, that no message has shown deleted: the kernel's
    /// lifetime worker (`check_lifetime`, `addrconf_verify`) runs when it
    /// scheduled itself, which can be seconds after the end.
    ExpiredUnshown {
        /// The record at which the model took the end as passed.
        packet: u64,
        /// The address with its prefix length.
        address: String,
        /// Its device.
        link: String,
        /// The routes that go with it (local, broadcast, prefix).
        routes: Vec<String>,
    },
    /// A local route in table local names an IPv6 address of its device
    /// that no message has shown (an optimistic address is announced when
    /// its duplicate address detection ends): its prefix length and flags
    /// are unknown, and it is not in the tables.
    AddressOnlyRouted {
        /// The record of the route's notification.
        packet: u64,
        /// The device.
        link: String,
        /// The address.
        address: IpAddr,
    },
    /// An IPv6 address that was not permanent went (deleted, or its
    /// lifetime over), and with no route listener the model took its
    /// prefix route with it; the kernel removes the route at its own
    /// expiry, which no message has shown until a route dump.
    PrefixRouteWithAddress {
        /// The record that deleted the address.
        packet: u64,
        /// Its device.
        link: String,
        /// The prefix route's destination.
        prefix: IpAddr,
        /// Its length.
        len: u8,
        /// The address.
        address: IpAddr,
    },
    /// A device went down with IPv6 addresses `keep_addr_on_down` keeps,
    /// and no address listener showed what the kernel did: they are taken
    /// as deleted (the sysctl off, its default), until an address dump
    /// shows them.
    KeptOnDownUnknown {
        /// The record of the link message that took it down.
        packet: u64,
        /// The device.
        link: String,
        /// Its addresses the sysctl would keep, in list order.
        addresses: Vec<IpAddr>,
    },
    /// Link events that were not urgent, which the model ran when the
    /// once-a-second limit allowed as this namespace's own runs set it,
    /// and whose result no message has shown since.
    LinkwatchTimed {
        /// The devices, in dump order.
        links: Vec<String>,
    },
    /// An address on several devices whose DADs ended unseen, each after
    /// a random delay: the order of its local routes is taken to be the
    /// order the DADs began.
    LocalRouteOrderUnknown {
        /// The address the devices share.
        address: IpAddr,
    },
    /// The kernel's timers were run on past the last packet (`--at
    /// end+SECS`): what they did is assumed, no message shows it.
    TimersRunOn {
        /// Addresses they added or whose DAD they ended.
        addresses: usize,
        /// Routes they added.
        routes: usize,
    },
    /// An address whose valid lifetime ran out between the last packet and
    /// the moment asked for (`--at`): deleted with its routes, which no
    /// message shows.
    ExpiredAfter {
        /// The address and its prefix length, `10.0.0.5/24`.
        address: String,
        /// Its device's name.
        link: String,
    },
    /// A primary IPv4 address with secondaries was deleted and no
    /// notification showed what followed: whether the kernel promoted a
    /// secondary or deleted them all rests on a `promote_secondaries`
    /// value the capture does not show (see `Model::promotion`).
    PromoteSecondaries {
        /// The first record where a deletion relied on it.
        packet: u64,
        /// What was assumed.
        basis: PromoteBasis,
    },
}

impl Assumption {
    /// What this says of a snapshot (one `ip` dump at one moment): nothing
    /// when it is about listening; a tentative address in the words of
    /// what `ip` showed, not of a capture's packets.
    pub fn at_snapshot(self) -> Option<Assumption> {
        if self.about_listening() {
            return None;
        }
        Some(match self {
            Assumption::DadUnderWay { address, link, .. } => Assumption::TentativeInSnapshot { address, link },
            a => a,
        })
    }

    /// Whether it is about messages a capture without listeners could
    /// not hear (devices leaving unseen, router advertisements, a
    /// listener leaving, a dump answered after the moment): none of
    /// these applies to a snapshot, whose dump shows the tables as they
    /// were.
    pub fn about_listening(&self) -> bool {
        matches!(
            self,
            Assumption::MayLeaveUnseen { .. }
                | Assumption::AdvertisementsUnseen { .. }
                | Assumption::LinkListenerLeft { .. }
                | Assumption::AnsweredLater { .. }
                | Assumption::KeptOnDownUnknown { .. }
        )
    }
}

/// What a promotion (or its absence) rests on: see `Model::promotion`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PromoteBasis {
    /// The kernel's notifications showed what it did.
    Notified,
    /// The device showed `promote_secondaries=1`: read from the capture.
    DeviceOn,
    /// `all` as the user gave it (`--promote-secondaries`).
    AllGiven,
    /// The device showed 0, and `all`, which no capture shows, was taken
    /// to be 0 too.
    DeviceOffAllAssumedOff,
    /// No message showed the device's setting: on was assumed.
    UnknownAssumedOn,
}

impl PromoteBasis {
    /// Rests on something the capture does not show.
    pub fn is_assumed(self) -> bool {
        matches!(
            self,
            PromoteBasis::DeviceOffAllAssumedOff | PromoteBasis::UnknownAssumedOn
        )
    }
}
