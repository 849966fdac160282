//! The model's state: the [`Model`] struct, what it holds (the tables,
//! each device's state, what is under way), its read-only queries and the
//! bookkeeping every rule shares.
//!
//! Contract: the lowest of the model's files with methods of [`Model`]: it
//! uses the tables and the bookkeeping leaves (`dad`, `linkwatch_queue`,
//! `pending_requests`, `open_dumps`, `lifetimes`), never a file whose rules
//! change the model. Queries change nothing; bookkeeping (a placeholder for
//! an unknown device, a device's state entry, which devices hold addresses,
//! warnings, an address's lifetime noted, a linkwatch event queued)
//! reports no change.

use std::collections::HashSet;

use rustc_hash::FxHashMap;

use super::assumption::{Assumption, PromoteBasis};
use super::changes::{Change, Event};
use super::entries::{AddrEntry, KernelRule, LinkEntry, Origin, RouteEntry, RouteKey};
use super::kernel_order::{KernelVersion, LinkOrder};
use super::lifetimes::nanos;
use super::link_table::LinkTable;
use super::pending_requests::RequestBody;
use super::prefix;
use super::route_table::RouteTable;
use super::{dad, lifetimes, linkwatch_queue, open_dumps, pending_requests};
use crate::diag::{Diagnostic, Diagnostics};
use crate::netlink::names::*;
use crate::netlink::values::{AddressFamily, RouteType, TableId};

/// What the kernel's timers did after the last record (`--at end+SECS`),
/// kept apart so the printers can mark it assumed.
#[derive(Debug, Default)]
pub(super) struct AfterCapture {
    /// The timers are running past the last record now.
    pub(super) running: bool,
    /// Routes they added.
    pub(super) routes: rustc_hash::FxHashSet<RouteKey>,
    /// Addresses they added or whose duplicate address detection they ended.
    pub(super) addrs: rustc_hash::FxHashSet<lifetimes::AddrKey>,
    /// Addresses whose lifetime they ended (deleted).
    pub(super) expired: Vec<(u32, String)>,
}

/// How the model was told to behave where a capture cannot say.
#[derive(Debug, Clone, Copy, Default)]
pub struct ModelOptions {
    /// `net.ipv4.conf.all.promote_secondaries` as the user gave it: on a
    /// primary's deletion the first secondary of its subnet is promoted
    /// when this or the device's own setting is on (`IN_DEV_ORCONF`). The
    /// device's own is read from the capture (see [`Model::promotion`]);
    /// `None`: not given.
    pub promote_secondaries: Option<bool>,
    /// Force the device walk order instead of inferring it from a link dump.
    pub link_order: Option<LinkOrder>,
    /// The captured host's kernel (`--kernel`, or the capture's `shb_os`):
    /// chooses the release-specific rules.
    pub kernel: Option<KernelVersion>,
    /// `CONFIG_IPV6_MIP6=y` in the captured host's kernel build
    /// (`--kernel-config`): source address selection's rule 4, prefer a
    /// home address, exists only then (`ipv6_get_saddr_eval` has it under
    /// `#ifdef CONFIG_IPV6_MIP6`, which a module build does not define).
    /// `None`: not given; then the distribution the capture's `shb_os`
    /// names decides (see [`super::kernel_build`]), else the common case,
    /// a module build (Ubuntu's, Red Hat's, Amazon Linux's, SUSE's): not
    /// built in; said where an answer rests on it.
    pub ipv6_mip6: Option<bool>,
}

/// One kernel build option the answers depend on, as `--kernel-config`
/// gives it: `CONFIG_IPV6_MIP6=y` (`=m` and `=n` leave the code out of the
/// kernel proper).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KernelConfigOption {
    /// `CONFIG_IPV6_MIP6`: built in or not.
    Ipv6Mip6(bool),
}

impl std::str::FromStr for KernelConfigOption {
    type Err = crate::bad_value::BadValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            crate::bad_value::BadValue::new(
                s,
                "not a kernel build option nlorder's answers depend on: CONFIG_IPV6_MIP6=y, =m or =n",
            )
        };
        let (name, value) = s.split_once('=').ok_or_else(bad)?;
        let on = match value.trim() {
            "y" => true,
            "m" | "n" => false,
            _ => return Err(bad()),
        };
        match name.trim() {
            "CONFIG_IPV6_MIP6" => Ok(KernelConfigOption::Ipv6Mip6(on)),
            _ => Err(bad()),
        }
    }
}

/// Where the link order in use came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "source", rename_all = "lowercase")]
pub enum LinkOrderSource {
    /// `--kernel-order`.
    Forced,
    /// The kernel release (`--kernel` or the capture's `shb_os`).
    Kernel {
        /// The release, `6.12`, with ` (the capture's shb_os)` when the
        /// capture named it.
        version: String,
    },
    /// Inferred from a link dump.
    Dump {
        /// The record of the dump's request.
        packet: u64,
        /// Why only this order fits the ifindexes as the dump listed them.
        evidence: String,
    },
    /// No dump could tell; modern kernels walk in ascending ifindex.
    Default,
}

/// Counts for the summary.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ModelStats {
    /// Complete dumps, asked for in the capture and unfiltered, that
    /// replaced the model's view of what they list.
    pub dumps_applied: u64,
    /// Distinct notifications applied.
    pub notifications: u64,
    /// Further byte-identical copies of them (one per extra listener).
    pub duplicate_notifications: u64,
    /// Bridge port messages (AF_BRIDGE link notifications, and `bridge
    /// link` dumps counted once each): counted, never applied to the link
    /// table.
    pub bridge_port_events: u64,
    /// Change requests the kernel accepted (and the model applied).
    pub requests_applied: u64,
    /// Change requests the kernel refused.
    pub requests_refused: u64,
    /// Messages user space sent without `NLM_F_REQUEST`: the kernel only
    /// acknowledges them, so they change nothing (and are not notifications).
    pub ignored_by_kernel: u64,
    /// Distinct notifications and all their copies per rtnetlink group
    /// (links, addresses, routes): listeners join groups, so each group
    /// has its own number of copies.
    pub per_group: [GroupCopies; 3],
    /// Distinct rule notifications (`ip rule` changes): not counted in
    /// [`Self::notifications`], which are the links', addresses' and routes'.
    #[serde(skip_serializing_if = "is_zero")]
    pub rule_notifications: u64,
    /// Complete rule dumps applied (not among `dumps_applied`).
    #[serde(skip_serializing_if = "is_zero")]
    pub rule_dumps: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A group's notifications: how many distinct ones, and how many copies of
/// them nlmon recorded in all (one per socket that listened to the group).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct GroupCopies {
    /// Distinct notifications of this group.
    pub distinct: u64,
    /// Every copy recorded, the first ones included.
    pub copies: u64,
}

impl GroupCopies {
    /// Copies per notification, rounded to the nearest (the sockets that
    /// listened to the group); 0 without notifications.
    pub fn listeners(&self) -> u64 {
        (self.copies + self.distinct / 2)
            .checked_div(self.distinct)
            .unwrap_or(0)
    }
}

impl ModelStats {
    /// How many sockets listened to rtnetlink groups, as the copies of each
    /// notification say: nlmon records one copy per delivery. 0 when the
    /// capture holds no notification at all (a quiet host).
    pub fn listeners(&self) -> u64 {
        (self.notifications + self.duplicate_notifications + self.notifications / 2)
            .checked_div(self.notifications)
            .unwrap_or(0)
    }

    /// Listeners per group: links, addresses, routes (see [`GroupCopies`]).
    pub fn group_listeners(&self) -> [u64; 3] {
        self.per_group.map(|g| g.listeners())
    }
}

/// What the model tracks of a device beyond its link message: the state
/// the kernel's rules react to.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct DeviceState {
    /// Its kernel state below was set: at registration, or from the first
    /// message that showed the device.
    pub(super) seen: bool,
    /// Administratively up, as the model last reacted to it.
    pub(super) admin_up: bool,
    /// `netif_carrier_ok` as the kernel has it now (a VLAN's is what the
    /// kernel last handed it; see `Model::carrier`).
    pub(super) carrier: bool,
    /// `netif_oper_up`: the operational state linkwatch last gave it is UP
    /// or UNKNOWN. It follows the carrier only once the device's linkwatch
    /// event has run (see `linkwatch`).
    pub(super) oper_up: bool,
    /// A tx qdisc is attached (`!qdisc_tx_is_noop`): the device was opened,
    /// or linkwatch last saw it, with carrier.
    pub(super) qdisc: bool,
    /// A linkwatch event is queued for it, with this ticket.
    pub(super) lw_pending: bool,
    pub(super) lw_ticket: u64,
    /// Ready for IPv6 (`addrconf_link_ready`: up, oper up, with a tx qdisc).
    pub(super) ipv6_ready: bool,
    /// Its IPv6 configuration (link-local address, fe80::/64 and ff00::/8)
    /// was made since it last went up (the kernel's IF_READY): losing and
    /// regaining carrier does not make it again.
    pub(super) ipv6_configured: bool,
    /// Its link-local address was made without knowing its interface id.
    pub(super) unknown_link_local: bool,
    /// Why that id is unknown.
    pub(super) unknown_link_local_why: super::entries::UnknownWhy,
    /// A bridge that has had a port (its carrier follows its ports).
    pub(super) had_ports: bool,
    /// A linkwatch event of the device ran in the model: its operational
    /// state is the one `rfc2863_policy` gave it then, not one a message
    /// showed.
    pub(super) lw_ran: bool,
    /// The last message showing its state showed it up (a device shown
    /// down shows operstate DOWN, whatever its own is).
    pub(super) oper_shown_up: bool,
    /// A veth whose peer is in another namespace, last shown by a message
    /// up without carrier: its peer is down. Until a message shows it, the
    /// peer is taken to be up (the software that puts a peer elsewhere, a
    /// CNI plugin, brings it up there); the capture cannot say.
    pub(super) foreign_peer_down: bool,
    /// Its MTU is below IPv6's minimum: IPv6 is off on it.
    pub(super) ipv6_off: bool,
    /// An MTU its driver set without a notifier (an ipvlan following its
    /// lower device, `ipvlan_adjust_mtu`): addrconf never saw it, so it
    /// takes no IPv6 away and gives none back.
    pub(super) silent_mtu: Option<u32>,
    /// An ipvlan's `dev_id` from its port (see `ipvlan_port`), where the
    /// capture shows it.
    pub(super) dev_id: Option<u16>,
    /// Made during the capture (a request or a notification of a new
    /// device): whether its MAC was set by hand (`hwaddr_set`) is known, as
    /// every later change of it would show. For a device first met in a
    /// dump it is not (Docker sets docker0's MAC; `ip link add
    /// type bridge` leaves it random, to be replaced by its lowest port's).
    pub(super) created_here: bool,
    /// Opened since it was registered here (`dev_activate` gave it its
    /// default qdisc, which stays as `qdisc_sleeping` while it is down or
    /// without carrier). A device the capture did not make is taken as
    /// opened before.
    pub(super) activated: bool,
    /// A bridge whose MAC may have changed to a port's unseen (see
    /// `created_here`): a link-local address made from it is unknown.
    pub(super) mac_uncertain: bool,
    /// Its own settings as the last link message from the kernel showed
    /// them (IFLA_AF_SPEC); unknown where no message carried them.
    pub(super) conf: crate::netlink::rtnl::DevConf,
}

#[derive(Debug, Default)]
pub(super) struct DeviceAddrs {
    pub(super) v4: Vec<AddrEntry>,
    pub(super) v6: Vec<AddrEntry>,
}

impl DeviceAddrs {
    pub(super) fn list(&self, family: AddressFamily) -> &Vec<AddrEntry> {
        if family == AddressFamily::Inet6 {
            &self.v6
        } else {
            &self.v4
        }
    }

    pub(super) fn list_mut(&mut self, family: AddressFamily) -> &mut Vec<AddrEntry> {
        if family == AddressFamily::Inet6 {
            &mut self.v6
        } else {
            &mut self.v4
        }
    }
}

/// The kernel's tables and the state its rules need, composed of tables
/// that each keep their own order and indexes (the link table,
/// [`RouteTable`], a device's address lists) while the rules that change
/// them are split in layers that call only down: `tables`, then the
/// kernel's own reactions (`address_rules`, `link_rules`, `linkwatch`),
/// then one file per kind of message (`notify`, `requests`, `dumps`).
pub struct Model {
    pub(super) options: ModelOptions,
    pub(super) links: LinkTable,
    /// Each device's addresses; a device without any has no entry.
    pub(super) addrs: FxHashMap<u32, DeviceAddrs>,
    /// Emptied address lists kept with their room (see `dumps::recycle`).
    pub(super) addr_pool: Vec<Vec<AddrEntry>>,
    /// An address dump's lists by device while it is applied (emptied
    /// after, its room kept).
    pub(super) addr_scratch: FxHashMap<u32, DeviceAddrs>,
    /// Lists a dump's application fills and empties again (devices it
    /// lists, devices it removes, the IPv6 addresses it lists), kept with
    /// their room.
    pub(super) scratch_listed: Vec<u32>,
    pub(super) scratch_ids: Vec<u32>,
    pub(super) scratch_v6: Vec<(u32, std::net::IpAddr, u32)>,
    /// The devices holding an IPv4, and an IPv6, address.
    pub(super) holders: [rustc_hash::FxHashSet<u32>; 2],
    pub(super) routes: RouteTable,
    /// The policy routing rules.
    pub(super) rules: super::rule_table::RuleTable,
    /// Change requests waiting for the kernel's answer.
    pub(super) pending: pending_requests::PendingRequests,
    /// The last ifindex the kernel assigned by itself (its allocation hint).
    pub(super) last_assigned_index: u32,
    pub(super) devices: FxHashMap<u32, DeviceState>,
    /// The first packet where a deletion relied on a promote_secondaries
    /// value the capture does not show, and what was assumed there.
    pub(super) assumed_promotion: Option<(u64, PromoteBasis)>,
    /// Duplicate address detection under way (IPv6 local routes wait for it).
    pub(super) dad: dad::PendingDads,
    /// Devices whose operational state has yet to follow their carrier.
    pub(super) lw: linkwatch_queue::Linkwatch,
    /// DAD still under way at the moment the tables were asked for.
    pub(super) dad_unfinished: Vec<dad::PendingDad>,
    /// The tables are asked for before the end of the capture (`--at`).
    pub(super) cut_before_end: bool,
    /// Dumps asked for before that moment and answered after it (kind,
    /// request packet): what they cover is unknown yet.
    pub(super) answered_later: Vec<(super::changes::ObjectKind, u64)>,
    /// Addresses whose DADs ended unseen (by time, no notification) close
    /// enough together that the order of their local routes is not known.
    pub(super) dad_order_unknown: Vec<std::net::IpAddr>,
    /// Routes and addresses the kernel's timers made after the last record
    /// (`--at end+SECS`): assumed, nothing in the capture shows them.
    pub(super) after_capture: AfterCapture,
    pub(super) link_order: LinkOrder,
    pub(super) link_order_source: LinkOrderSource,
    pub(super) dumps: open_dumps::Dumps,
    /// Which object kinds/families a complete dump has shown (so a
    /// notification about something unknown is worth a warning).
    pub(super) seen_link_dump: bool,
    /// Where the last recording joined after another starts (its link
    /// dump's request): what the model holds comes from there on.
    pub(super) recording_start: Option<u64>,
    /// The distribution whose kernel the capture's `shb_os` names.
    pub(super) kernel_build: Option<super::kernel_build::KernelBuild>,
    /// Whether a record's `shb_os` was read for [`Self::kernel_build`].
    pub(super) os_read: bool,
    /// The pcapng section of the last message applied (0 before the first).
    pub(super) section: u32,
    /// A new section began and no dump ended since: a link dump that shows
    /// another host then says nothing more than the section's warning did.
    pub(super) fresh_section: bool,
    pub(super) seen_addr_dump: [bool; 2],
    pub(super) seen_route_dump: [bool; 2],
    /// A message showed routes (IPv4, IPv6): a dump, a notification, a GET
    /// reply or a request the kernel accepted. Routes the kernel's rules made
    /// from links alone (`fe80::/64`, `ff00::/8`) do not count.
    pub(super) routes_shown: [bool; 2],
    /// Which tables of each family (IPv4, IPv6) a message showed: every
    /// table (a dump not filtered to one), or those named by the routes
    /// and the table-filtered dumps seen.
    pub(super) route_tables_shown: [TablesShown; 2],
    /// Likewise for addresses (not the loopback's or the link-locals the
    /// kernel's rules made).
    pub(super) addrs_shown: [bool; 2],
    pub(super) warned_unknown: HashSet<u32>,
    /// Links created by notifications during the capture.
    pub(super) created_links: HashSet<u32>,
    /// The devices made during the capture, in the order of their
    /// ifindexes' allocation (see `ifindex_gaps`).
    pub(super) allocations: super::ifindex_gaps::Allocations,
    pub(super) copies: Copies,
    pub(super) warnings: Diagnostics,
    pub(super) stats: ModelStats,
    pub(super) last_packet: u64,
    pub(super) last_ts: Option<crate::capture::Timestamp>,
    /// When each address with a finite valid lifetime runs out.
    pub(super) lifetimes: lifetimes::Lifetimes,
    /// The record where each advertised prefix's route was first met, per
    /// device (see `slaac_order`).
    pub(super) ra_prefixes: FxHashMap<(u32, std::net::Ipv6Addr), u64>,
    /// Devices where an address made from a router advertisement was placed
    /// beside others without its prefix route's notification: the order of
    /// their IPv6 addresses is the notifications', which the kernel's list
    /// need not follow, until an address dump shows it (see `slaac_order`).
    pub(super) slaac_order_unshown: std::collections::BTreeSet<u32>,
    /// Devices taken as gone from an address notification alone (see
    /// `gone_unseen`): a later RTM_DELLINK for them is no surprise.
    pub(super) gone_unseen: HashSet<u32>,
    /// The device and record of the last IPv6 address a notification removed.
    pub(super) last_v6_removal: Option<(u32, u64)>,
    /// The last record holding a link notification.
    pub(super) last_link_notification: Option<u64>,
    /// (last link notification, the link request answered without one
    /// after it): link listeners had left (see `listener_left`).
    pub(super) link_listener_left: Option<(u64, u64)>,
    /// A `ff00::/8` route was made on a release whose form of it the
    /// model does not know (`KernelVersion::multicast_route_form`).
    pub(super) multicast_form_unknown: bool,
    /// Each lower device's ipvlan port (see `ipvlan_port`).
    pub(super) ipvlan_ports: FxHashMap<u32, super::ipvlan_port::IpvlanPort>,
    /// The IPv6 addresses of a device that just went down, while the
    /// kernel's announcements of their deletion may follow (see
    /// `kept_on_down`).
    pub(super) down_walk: Option<super::kept_on_down::DownWalk>,
    /// Devices that went down with addresses `keep_addr_on_down` keeps and
    /// no address listener to show what the kernel did (the record, the
    /// device, the addresses), until an IPv6 address dump shows it.
    pub(super) keep_unknown: Vec<(u64, u32, Vec<std::net::IpAddr>)>,
    /// IPv6 prefix routes the model took along with an address that was
    /// not permanent, with no route listener to show when the kernel
    /// removes them, until a route dump: the record, the device, the prefix
    /// and its length, the address.
    pub(super) prefix_route_assumed: Vec<(u64, u32, std::net::IpAddr, u8, std::net::IpAddr)>,
    /// IPv6 addresses only a local route names (the record, the device,
    /// the address): said while no message shows them and the route is
    /// there.
    pub(super) unshown_by_local: Vec<(u64, u32, std::net::IpAddr, super::entries::RouteKey)>,
    /// Addresses the model expired by its own clock (the record that
    /// showed the time had passed, the address) that no message has shown
    /// deleted yet: until one does, or an address dump.
    pub(super) expired_unshown: Vec<(u64, AddrEntry)>,
}

impl Model {
    /// An empty model: no links, addresses or routes yet, the device walk
    /// order forced or the kernel release's, else ascending until a link
    /// dump tells.
    pub fn new(options: ModelOptions) -> Self {
        let (link_order, link_order_source) = match (options.link_order, options.kernel) {
            (Some(o), _) => (o, LinkOrderSource::Forced),
            (None, Some(k)) => (k.link_order(), LinkOrderSource::Kernel { version: k.to_string() }),
            (None, None) => (LinkOrder::Ascending, LinkOrderSource::Default),
        };
        Model {
            options,
            links: LinkTable::new(),
            addrs: FxHashMap::default(),
            addr_pool: Vec::new(),
            addr_scratch: FxHashMap::default(),
            scratch_listed: Vec::new(),
            scratch_ids: Vec::new(),
            scratch_v6: Vec::new(),
            holders: Default::default(),
            routes: RouteTable::default(),
            rules: super::rule_table::RuleTable::default(),
            pending: pending_requests::PendingRequests::default(),
            last_assigned_index: 0,
            devices: FxHashMap::default(),
            assumed_promotion: None,
            dad: dad::PendingDads::default(),
            lw: linkwatch_queue::Linkwatch::default(),
            dad_unfinished: Vec::new(),
            cut_before_end: false,
            answered_later: Vec::new(),
            dad_order_unknown: Vec::new(),
            after_capture: AfterCapture::default(),
            link_order,
            link_order_source,
            dumps: open_dumps::Dumps::default(),
            seen_link_dump: false,
            recording_start: None,
            kernel_build: None,
            os_read: false,
            section: 0,
            fresh_section: false,
            seen_addr_dump: [false; 2],
            seen_route_dump: [false; 2],
            routes_shown: [false; 2],
            route_tables_shown: Default::default(),
            addrs_shown: [false; 2],
            warned_unknown: HashSet::new(),
            created_links: HashSet::new(),
            allocations: Default::default(),
            copies: Copies::default(),
            warnings: Diagnostics::default(),
            stats: ModelStats::default(),
            last_packet: 0,
            last_ts: None,
            lifetimes: lifetimes::Lifetimes::default(),
            ra_prefixes: FxHashMap::default(),
            slaac_order_unshown: std::collections::BTreeSet::new(),
            gone_unseen: HashSet::new(),
            last_v6_removal: None,
            last_link_notification: None,
            link_listener_left: None,
            multicast_form_unknown: false,
            ipvlan_ports: FxHashMap::default(),
            down_walk: None,
            keep_unknown: Vec::new(),
            prefix_route_assumed: Vec::new(),
            unshown_by_local: Vec::new(),
            expired_unshown: Vec::new(),
        }
    }

    /// A model with default options holding these tables: links in dump
    /// order, each device's addresses in list order, routes numbered in the
    /// order given (a route with the key of an earlier one replaces it).
    /// The links count as dumped, so later notifications about other
    /// devices are warned about; the entries keep their origins.
    pub fn from_tables(links: Vec<LinkEntry>, addrs: Vec<AddrEntry>, routes: Vec<RouteEntry>) -> Self {
        let mut m = Model::new(ModelOptions::default());
        m.links.replace_all(links);
        for a in addrs {
            m.addrs.entry(a.index).or_default().list_mut(a.family).push(a);
        }
        m.rebuild_holders();
        for (i, mut r) in routes.into_iter().enumerate() {
            r.seq = i as i64;
            m.routes.insert(r);
        }
        m.seen_link_dump = true;
        // The tables given are what is known: the caller vouches for them.
        m.routes_shown = [true; 2];
        m.route_tables_shown = [TablesShown::all(), TablesShown::all()];
        m.addrs_shown = [true; 2];
        m
    }

    /// The time of the last record applied (None: no record had one).
    pub fn last_ts(&self) -> Option<crate::capture::Timestamp> {
        self.last_ts
    }

    /// Every link, in the order a link dump lists them.
    pub fn links(&self) -> &[LinkEntry] {
        self.links.as_slice()
    }

    /// The link with this ifindex.
    pub fn link(&self, index: u32) -> Option<&LinkEntry> {
        self.links.get(index)
    }

    /// The link a message named so (raw IFLA_IFNAME bytes; a device known
    /// only by its ifindex matches no name).
    pub fn link_by_name(&self, name: &[u8]) -> Option<&LinkEntry> {
        self.links.by_name(name)
    }

    /// The name of a route's output device, for a change report.
    pub(crate) fn route_dev(&self, r: &RouteEntry) -> Option<String> {
        let link = self.link(r.oif?)?;
        link.has_name().then(|| link.display_name())
    }

    /// A device's name for messages: its name, or `ifN` when nothing in
    /// the capture named it.
    pub fn ifname(&self, index: u32) -> String {
        self.link(index)
            .map(LinkEntry::display_name)
            .unwrap_or_else(|| format!("if{index}"))
    }

    /// A device's addresses of one family (AF_INET or AF_INET6), in kernel order.
    pub fn device_addresses(&self, index: u32, family: AddressFamily) -> &[AddrEntry] {
        self.addrs
            .get(&index)
            .map(|d| d.list(family).as_slice())
            .unwrap_or_default()
    }

    /// Every address in the order of an AF_UNSPEC address dump: all IPv4
    /// (devices in link order, each device's list in order), then all IPv6.
    pub fn addresses(&self, family: Option<AddressFamily>) -> Vec<&AddrEntry> {
        let mut out = Vec::new();
        for fam in [AddressFamily::Inet, AddressFamily::Inet6] {
            if family.is_some_and(|f| f != fam) {
                continue;
            }
            for l in self.links.as_slice() {
                out.extend(self.device_addresses(l.index, fam));
            }
        }
        out
    }

    /// The devices holding an address of `family`, in no particular order.
    pub fn devices_with_addresses(&self, family: AddressFamily) -> impl Iterator<Item = u32> + '_ {
        let [v4, v6] = &self.holders;
        (if family == AddressFamily::Inet6 { v6 } else { v4 }).iter().copied()
    }

    /// A link's position in dump order (O(1)).
    pub fn link_position(&self, index: u32) -> Option<usize> {
        self.links.position_of(index)
    }

    /// Whether any device has an address.
    pub fn has_addresses(&self) -> bool {
        self.holders.iter().any(|h| !h.is_empty())
    }

    /// Routes in the order a dump would list them (see [`route_order`](super::route_order)).
    pub fn routes(&self) -> Vec<&RouteEntry> {
        self.routes.iter().collect()
    }

    /// The policy routing rules, per family in the kernel's order.
    pub fn rule_table(&self) -> &super::rule_table::RuleTable {
        &self.rules
    }

    /// The routing tables other than local, main and default that hold
    /// routes of `family`, in number order: where rules must send traffic
    /// for them to be used.
    pub fn other_route_tables(&self, family: AddressFamily) -> Vec<crate::netlink::TableId> {
        use crate::netlink::TableId;
        let mut v: Vec<TableId> = self
            .routes
            .tables()
            .filter(|(f, t)| *f == family && ![TableId::Local, TableId::Main, TableId::Default].contains(t))
            .map(|(_, t)| t)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// A rule as a line of `ip rule` prints it (`PRIO: from ...`).
    pub fn rule_text(&self, r: &super::rule_table::RuleEntry) -> String {
        r.ip_line()
    }

    /// The route table itself: routes in dump order and the kernel's lookups.
    pub fn route_table(&self) -> &RouteTable {
        &self.routes
    }

    /// A route as one line, `10.50.0.0/16 via 192.168.100.1 dev eth0 table main metric 20`.
    pub fn route_text(&self, r: &RouteEntry) -> String {
        let mut s = match r.dst {
            _ if r.dst_len == 0 => "default".to_string(),
            Some(d) => format!("{d}/{}", r.dst_len),
            None => format!("?/{}", r.dst_len),
        };
        if r.kind != RouteType::Unicast {
            s = format!("{} {s}", r.kind);
        }
        if let Some(g) = r.gateway {
            s.push_str(&format!(" via {g}"));
        }
        if let Some(o) = r.oif {
            s.push_str(&format!(" dev {}", self.ifname(o)));
        }
        s.push_str(&format!(" table {}", r.table));
        if let Some(p) = r.prefsrc {
            s.push_str(&format!(" src {p}"));
        }
        if let Some(m) = r.priority {
            s.push_str(&format!(" metric {m}"));
        }
        s
    }

    /// The device walk order link dumps follow, and where it came from.
    pub fn link_order(&self) -> (LinkOrder, &LinkOrderSource) {
        (self.link_order, &self.link_order_source)
    }

    /// What the model found wrong or could not place: dumps that contradict
    /// its order or were interrupted or cut short, messages about devices
    /// it does not know.
    pub fn warnings(&self) -> &Diagnostics {
        &self.warnings
    }

    /// How many dumps, notifications (and copies) and requests it applied.
    pub fn stats(&self) -> &ModelStats {
        &self.stats
    }

    /// The links whose IPv6 addresses' order no message shows: addresses
    /// made from router advertisements, notified when their duplicate
    /// address detection ended, with no prefix route notification to tell
    /// when they were made (see `slaac_order`), and no address dump since.
    pub fn ipv6_order_unshown(&self) -> Vec<u32> {
        self.slaac_order_unshown
            .iter()
            .copied()
            .filter(|i| self.links.position_of(*i).is_some() || self.addrs.contains_key(i))
            .collect()
    }

    /// Whether a complete link dump was seen, so that every link of the
    /// namespace is known (not only those the capture names).
    pub fn links_complete(&self) -> bool {
        self.seen_link_dump
    }

    /// What the model had to assume because the capture cannot say:
    /// indexes it predicted, link-local addresses made from a MAC it never
    /// saw, the promote_secondaries setting it relied on, ... (the report
    /// says each in words).
    pub fn assumptions(&self) -> Vec<Assumption> {
        let mut v = Vec::new();
        if !self.seen_link_dump {
            v.push(Assumption::NoLinkDump);
        }
        if let Some((last, request)) = self.link_listener_left {
            v.push(Assumption::LinkListenerLeft { last, request });
        }
        if self.options.ipv6_mip6.is_none() {
            let home: Vec<String> = self
                .links
                .as_slice()
                .iter()
                .flat_map(|l| self.device_addresses(l.index, AddressFamily::Inet6).iter())
                .filter(|a| a.flags & IFA_F_HOMEADDRESS != 0)
                .map(|a| a.address.to_string())
                .collect();
            if !home.is_empty() {
                v.push(Assumption::HomeAddressRule {
                    addresses: home,
                    applied: self.ipv6_home_rule(),
                    build: self.kernel_build,
                });
            }
        }
        if let Some(kernel) = self.options.kernel.filter(|_| self.multicast_form_unknown) {
            v.push(Assumption::MulticastRouteForm {
                kernel: kernel.to_string(),
            });
        }
        for l in self.links.as_slice() {
            if l.link_elsewhere
                && l.peer.is_none()
                && l.flags & IFF_UP != 0
                && l.flags & IFF_LOWER_UP == 0
                && !self.state(l.index).foreign_peer_down
                && l.kind.is_some_and(|k| k.as_bytes() == b"veth")
            {
                v.push(Assumption::VethPeerElsewhere { link: l.display_name() });
            }
        }
        // Devices that reach outside the namespace: a veth whose peer is
        // elsewhere, a device of no kind (hardware).
        let outside: Vec<&LinkEntry> = self
            .links
            .as_slice()
            .iter()
            .filter(|l| !l.placeholder && l.flags & IFF_LOOPBACK == 0)
            .filter(|l| match l.kind.as_ref().map(|k| k.as_bytes()) {
                Some(b"veth") => l.link_elsewhere && l.peer.is_none(),
                Some(_) => false,
                None => l.dev_type == ARPHRD_ETHER,
            })
            .collect();
        // (a veth already said to have its peer elsewhere is not said again)
        let leaving: Vec<String> = outside
            .iter()
            .map(|l| l.display_name())
            .filter(|n| {
                !v.iter()
                    .any(|a| matches!(a, Assumption::VethPeerElsewhere { link } if link == n))
            })
            .collect();
        if self.last_link_notification.is_none() && !leaving.is_empty() {
            v.push(Assumption::MayLeaveUnseen { links: leaving });
        }
        let [_, addr_group, route_group] = self.stats.per_group;
        let advertised: Vec<String> = outside
            .iter()
            .filter(|l| l.flags & IFF_UP != 0)
            .filter(|l| {
                let st = self.state(l.index);
                !st.ipv6_off && st.conf.disable_ipv6 != Some(true) && st.conf.accept_ra != Some(0)
            })
            .map(|l| l.display_name())
            .collect();
        if route_group.distinct == 0 && !advertised.is_empty() {
            v.push(Assumption::AdvertisementsUnseen {
                links: advertised,
                addresses_too: addr_group.distinct == 0,
            });
        }
        v.extend(self.allocations.gaps(|i| self.link(i).is_some()));
        for l in self.links.as_slice() {
            if matches!(l.origin, Origin::KernelRule(_, KernelRule::AssignedIndex)) {
                v.push(Assumption::PredictedIndex {
                    index: l.index,
                    link: l.display_name(),
                });
            }
        }
        let mut unknown: Vec<u32> = self
            .devices
            .iter()
            .filter(|(_, d)| d.unknown_link_local)
            .map(|(i, _)| *i)
            .collect();
        unknown.sort_unstable();
        for i in unknown {
            use super::entries::UnknownWhy;
            v.push(match self.state(i).unknown_link_local_why {
                UnknownWhy::UnseenMac => Assumption::LinkLocalFromUnseenMac { link: self.ifname(i) },
                UnknownWhy::PermanentAddress => Assumption::LinkLocalFromPermanentAddress { link: self.ifname(i) },
                UnknownWhy::Random => Assumption::LinkLocalRandom { link: self.ifname(i) },
                UnknownWhy::IpvlanDevId => Assumption::LinkLocalIpvlanDevId { link: self.ifname(i) },
            });
        }
        for (end, (index, family, address, _)) in self.lifetimes.pending() {
            if let Some(a) = self
                .device_addresses(index, family)
                .iter()
                .find(|a| a.address == address)
            {
                v.push(Assumption::LifetimeEndsAfter {
                    address: a.cidr(),
                    link: self.ifname(index),
                    at: lifetimes::timestamp(end),
                    routes: routes_going_with(a),
                });
            }
        }
        for d in &self.dad_unfinished {
            let secs = match (d.started, self.last_ts) {
                (Some(s), Some(l)) => Some((l.as_nanos() - s.as_nanos()) as f64 / 1e9),
                _ => None,
            };
            v.push(Assumption::DadUnderWay {
                packet: d.packet,
                address: d.address,
                link: self.ifname(d.index),
                seconds: secs,
                from_dump: d.from_dump,
            });
        }
        if !self.lw.is_empty() {
            let mut queued: Vec<u32> = self
                .devices
                .iter()
                .filter(|(_, st)| st.lw_pending)
                .map(|(i, _)| *i)
                .filter(|i| self.links.contains(*i))
                .collect();
            queued.sort_by_key(|i| self.links.position_of(*i));
            v.push(Assumption::LinkwatchQueued {
                links: queued.into_iter().map(|i| self.ifname(i)).collect(),
            });
        }
        for (packet, a) in &self.expired_unshown {
            let routes = routes_going_with(a);
            v.push(Assumption::ExpiredUnshown {
                packet: *packet,
                address: a.cidr(),
                link: self.ifname(a.index),
                routes,
            });
        }
        for (packet, index, address, key) in &self.unshown_by_local {
            let (packet, index, address) = (*packet, *index, *address);
            let shown = self
                .device_addresses(index, AddressFamily::Inet6)
                .iter()
                .any(|e| e.address == address);
            let routed = self.routes.contains(key);
            if !shown && routed {
                v.push(Assumption::AddressOnlyRouted {
                    packet,
                    link: self.ifname(index),
                    address,
                });
            }
        }
        for &(packet, index, prefix, len, address) in &self.prefix_route_assumed {
            v.push(Assumption::PrefixRouteWithAddress {
                packet,
                link: self.ifname(index),
                prefix,
                len,
                address,
            });
        }
        for (packet, index, addresses) in &self.keep_unknown {
            v.push(Assumption::KeptOnDownUnknown {
                packet: *packet,
                link: self.ifname(*index),
                addresses: addresses.clone(),
            });
        }
        if !self.lw.timed.is_empty() {
            let mut timed: Vec<u32> = self
                .lw
                .timed
                .iter()
                .copied()
                .filter(|i| self.links.contains(*i))
                .collect();
            timed.sort_by_key(|i| self.links.position_of(*i));
            if !timed.is_empty() {
                v.push(Assumption::LinkwatchTimed {
                    links: timed.into_iter().map(|i| self.ifname(i)).collect(),
                });
            }
        }
        for a in &self.dad_order_unknown {
            v.push(Assumption::LocalRouteOrderUnknown { address: *a });
        }
        if !self.after_capture.routes.is_empty() || !self.after_capture.addrs.is_empty() {
            v.push(Assumption::TimersRunOn {
                addresses: self.after_capture.addrs.len(),
                routes: self.after_capture.routes.len(),
            });
        }
        for (i, a) in &self.after_capture.expired {
            v.push(Assumption::ExpiredAfter {
                address: a.to_string(),
                link: self.ifname(*i),
            });
        }
        for &(kind, request_packet) in &self.answered_later {
            v.push(Assumption::AnsweredLater { kind, request_packet });
        }
        if let Some((p, basis)) = self.assumed_promotion {
            v.push(Assumption::PromoteSecondaries { packet: p, basis });
        }
        v
    }

    /// The tables are asked for at a moment before the capture's end
    /// (`--at`): a dump still open then is answered later, not never.
    pub fn cut_before_end(&mut self) {
        self.cut_before_end = true;
    }

    /// A dump of `kind` asked for before this moment and answered after it
    /// (`--at`), with its request's packet: what it covers is unknown yet.
    pub fn answered_later(&self, kind: super::changes::ObjectKind) -> Option<u64> {
        self.answered_later.iter().find(|(k, _)| *k == kind).map(|(_, p)| *p)
    }

    /// Whether deleting a primary IPv4 address of device `index` promotes a
    /// secondary, and what that rests on. The kernel promotes when the
    /// device's own `promote_secondaries` or `net.ipv4.conf.all`'s is set
    /// (`__inet_del_ifa`, `IN_DEV_ORCONF`): a device a message showed with 1
    /// decides; one showed with 0 leaves `all`, given by the user or
    /// assumed 0 (a host that set `*.promote_secondaries=1`, as systemd
    /// does, shows 1 on every device); a device no message described
    /// takes `all` as given, else on (systemd's setting).
    pub fn promotion(&self, index: u32) -> (bool, PromoteBasis) {
        let given = self.options.promote_secondaries;
        match (self.state(index).conf.promote_secondaries, given) {
            (Some(true), _) => (true, PromoteBasis::DeviceOn),
            (Some(false), Some(all)) => (all, PromoteBasis::AllGiven),
            (Some(false), None) => (false, PromoteBasis::DeviceOffAllAssumedOff),
            (None, Some(all)) => (all, PromoteBasis::AllGiven),
            (None, None) => (true, PromoteBasis::UnknownAssumedOn),
        }
    }

    /// Whether the kernel's timers made this route after the last record
    /// (`--at end+SECS`): assumed, no message shows it.
    pub fn route_after_capture(&self, r: &RouteEntry) -> bool {
        !self.after_capture.routes.is_empty() && self.after_capture.routes.contains(&r.key())
    }

    /// A route's `rtm_flags` as a dump would show them now. The kernel
    /// marks the routes through a device that is up without carrier
    /// (`netif_carrier_ok`, as the model has it) RTNH_F_LINKDOWN, and
    /// unmarks them when the carrier is back, without a route message
    /// saying so (its local and
    /// anycast routes stay unmarked; routes of a device that is down are
    /// as they were). Seen in every route of the kernel matrix's `ip -j`.
    pub fn route_flags(&self, r: &RouteEntry) -> u32 {
        let Some(l) = r.oif.and_then(|i| self.link(i)) else {
            return r.flags;
        };
        if matches!(r.kind, RouteType::Local | RouteType::Anycast) || l.flags & IFF_UP == 0 {
            return r.flags;
        }
        let st = self.state(l.index);
        let carrier = if st.seen {
            st.carrier
        } else {
            l.flags & IFF_LOWER_UP != 0
        };
        if !carrier {
            r.flags | RTNH_F_LINKDOWN
        } else {
            r.flags & !RTNH_F_LINKDOWN
        }
    }

    /// Whether the kernel's timers changed this address after the last
    /// record (its duplicate address detection ended): assumed.
    pub fn address_after_capture(&self, a: &AddrEntry) -> bool {
        !self.after_capture.addrs.is_empty() && self.after_capture.addrs.contains(&a.key())
    }

    /// Whether source address selection prefers home addresses (rule 4):
    /// `CONFIG_IPV6_MIP6=y`: as given, else as the distribution the capture
    /// names builds it, else not (the common case, a module build).
    pub fn ipv6_home_rule(&self) -> bool {
        self.options
            .ipv6_mip6
            .or(self.kernel_build.map(super::kernel_build::KernelBuild::ipv6_mip6))
            .unwrap_or(false)
    }

    /// Whether the model holds routes of a family.
    pub fn has_routes_of(&self, family: AddressFamily) -> bool {
        self.routes_shown
            .get(usize::from(family == AddressFamily::Inet6))
            .copied()
            .unwrap_or(false)
            && self.routes.has_family(family)
    }

    /// Whether a message showed routes of `family` in `table`: a dump of
    /// every table, a dump filtered to that one, or a route of it (a
    /// notification, a GET reply or an accepted request). A capture whose
    /// only route dump was filtered to IPv6's table main shows nothing of
    /// IPv4's.
    pub fn routes_shown_in(&self, family: AddressFamily, table: TableId) -> bool {
        self.route_tables_shown
            .get(usize::from(family == AddressFamily::Inet6))
            .is_some_and(|t| t.shows(table))
    }

    /// Whether a message showed addresses of `family`.
    pub fn addresses_shown_of(&self, family: AddressFamily) -> bool {
        self.addrs_shown
            .get(usize::from(family == AddressFamily::Inet6))
            .copied()
            .unwrap_or(false)
    }

    /// Whether a complete address dump of `family` was applied.
    pub fn addresses_complete_of(&self, family: AddressFamily) -> bool {
        self.seen_addr_dump
            .get(usize::from(family == AddressFamily::Inet6))
            .copied()
            .unwrap_or(false)
    }

    /// Whether a complete route dump of `family` (every table) was applied.
    pub fn routes_complete_of(&self, family: AddressFamily) -> bool {
        self.seen_route_dump
            .get(usize::from(family == AddressFamily::Inet6))
            .copied()
            .unwrap_or(false)
    }

    /// The tables of `family` a message showed (`None`: every table).
    pub fn route_tables_shown(&self, family: AddressFamily) -> Option<&[TableId]> {
        self.route_tables_shown
            .get(usize::from(family == AddressFamily::Inet6))
            .and_then(|t| (!t.all).then_some(t.some.as_slice()))
    }

    /// Marks that a message showed routes of `family` in `table` (`None`:
    /// a dump of every table).
    pub(super) fn shown_table(&mut self, family: AddressFamily, table: Option<TableId>) {
        if !matches!(family, AddressFamily::Inet | AddressFamily::Inet6) {
            return;
        }
        if let Some(t) = self
            .route_tables_shown
            .get_mut(usize::from(family == AddressFamily::Inet6))
        {
            match table {
                None => t.all = true,
                Some(id) if !t.all && !t.some.contains(&id) => t.some.push(id),
                Some(_) => {}
            }
        }
    }

    /// Whether the capture showed any routes (a dump, a notification, a
    /// GET reply or an accepted request): routes the kernel's rules made
    /// from links alone do not answer what a program reads of the routes.
    pub fn has_routes(&self) -> bool {
        self.routes_shown.iter().any(|s| *s) && !self.routes.is_empty()
    }

    /// The packet where the last of several recordings joined in the
    /// capture starts, if another started before it (see `dumps.rs`):
    /// the tables hold what was captured from there on.
    pub fn recording_start(&self) -> Option<u64> {
        self.recording_start
    }

    /// Whether any message showed addresses (see [`Model::has_routes`]).
    pub fn addresses_shown(&self) -> bool {
        self.addrs_shown.iter().any(|s| *s)
    }

    /// A complete address dump of both families was applied: every address
    /// the host had then is known.
    pub fn addresses_complete(&self) -> bool {
        self.seen_addr_dump.iter().all(|s| *s)
    }

    /// A complete route dump of both families was applied.
    pub fn routes_complete(&self) -> bool {
        self.seen_route_dump.iter().all(|s| *s)
    }

    /// Marks that a message showed routes (`route`) or addresses of `family`.
    pub(super) fn shown(&mut self, route: bool, family: AddressFamily) {
        let flags = if route {
            &mut self.routes_shown
        } else {
            &mut self.addrs_shown
        };
        if let Some(f) = flags.get_mut(usize::from(family == AddressFamily::Inet6)) {
            *f = true;
        }
    }

    pub(super) fn warn(&mut self, ctx: &Ctx, msg: String) {
        self.warnings.push(Diagnostic::record(ctx.packet, ctx.offset, msg));
    }

    /// Makes sure a device mentioned by an address has a link entry.
    pub(super) fn ensure_link(&mut self, index: u32, ctx: &Ctx) {
        if self.links.contains(index) {
            return;
        }
        if self.seen_link_dump && self.warned_unknown.insert(index) {
            self.warn(
                ctx,
                format!("notification for ifindex {index}, which no link dump or notification introduced"),
            );
        }
        self.links.insert(
            LinkEntry::placeholder(index, Origin::Inferred(ctx.packet)),
            self.link_order,
        );
    }

    pub(super) fn state(&self, index: u32) -> DeviceState {
        self.devices.get(&index).copied().unwrap_or_default()
    }

    pub(super) fn state_mut(&mut self, index: u32) -> &mut DeviceState {
        self.devices.entry(index).or_default()
    }

    /// Forgets a device's addresses entry once it holds none.
    pub(super) fn prune_addrs(&mut self, index: u32) {
        self.sync_holders(index);
        if self
            .addrs
            .get(&index)
            .is_some_and(|d| d.v4.is_empty() && d.v6.is_empty())
        {
            self.addrs.remove(&index);
        }
    }

    /// Whether a device holds addresses of each family, as its lists say now.
    pub(super) fn sync_holders(&mut self, index: u32) {
        let d = self.addrs.get(&index);
        let [v4, v6] = &mut self.holders;
        for (set, has) in [
            (v4, d.is_some_and(|d| !d.v4.is_empty())),
            (v6, d.is_some_and(|d| !d.v6.is_empty())),
        ] {
            if has {
                set.insert(index);
            } else {
                set.remove(&index);
            }
        }
    }

    pub(super) fn rebuild_holders(&mut self) {
        // Emptied and filled again, keeping their room: every address
        // dump rebuilds them.
        let [v4, v6] = &mut self.holders;
        v4.clear();
        v6.clear();
        for (i, d) in &self.addrs {
            if !d.v4.is_empty() {
                v4.insert(*i);
            }
            if !d.v6.is_empty() {
                v6.insert(*i);
            }
        }
    }

    /// The first index after `after` that no device uses.
    pub(super) fn next_free_index(&self, after: u32) -> u32 {
        let mut i = after.saturating_add(1);
        while self.links.contains(i) {
            i += 1;
        }
        i
    }
}

// What is under way: requests waiting for their answer, addresses'
// lifetimes, linkwatch events queued (the kernel's rules queue them; `linkwatch` runs them).
impl Model {
    /// Whether a change request waits for its answer: the kernel holds
    /// its rtnl lock for it, and linkwatch cannot run meanwhile.
    pub(super) fn change_in_progress(&self) -> bool {
        self.pending.waiting.iter().any(|p| !matches!(p.body, RequestBody::Get))
    }

    /// Notes what an address's message (or request) says of its valid
    /// lifetime, at the moment of `ctx`.
    pub(super) fn note_lifetime(&mut self, a: &AddrEntry, ctx: &Ctx) {
        let Some(at) = ctx.ts.map(nanos) else { return };
        let valid = a.cacheinfo.map_or(u32::MAX, |c| c.valid);
        self.lifetimes.note(a.key(), at, valid);
    }

    /// `linkwatch_urgent_event`: the device is running and either stacked
    /// (its iflink is not its own ifindex: IFLA_LINK names the iflink,
    /// always when IFLA_LINK_NETNSID is there too, so a veth whose peer in
    /// another namespace has the same ifindex is not stacked) or has
    /// carrier while its qdisc is changing (`qdisc_tx_changing`: opened
    /// before, and no tx qdisc attached now; a device opened for the first
    /// time has none to change to yet).
    pub(super) fn lw_urgent(&self, index: u32) -> bool {
        let st = self.state(index);
        // (checked for a veth only, which gets its carrier inside
        // `veth_open`, before `dev_activate`: on its first open it has no
        // qdisc to change to yet; the model's other carrier rules take a
        // device's carrier at its open from elsewhere, and keep it urgent)
        let veth = self.link(index).is_some_and(|l| kind_in(l, &[b"veth", b"bridge"]));
        let qdisc_changing = !veth || ((!st.created_here || st.activated) && !st.qdisc);
        let stacked = self.link(index).is_some_and(|l| match l.link {
            Some(iflink) => iflink != index,
            None => {
                l.peer.is_some()
                    || l.link_elsewhere
                    || kind_in(
                        l,
                        &[
                            b"veth", b"vlan", b"macvlan", b"macvtap", b"ipvlan", b"ipip", b"sit", b"gre", b"ip6tnl",
                            b"ip6gre",
                        ],
                    )
            }
        });
        st.admin_up && (stacked || (st.carrier && qdisc_changing))
    }

    /// `linkwatch_fire_event`: queued once; an urgent event also asks for
    /// the work to run at once.
    pub(super) fn lw_fire(&mut self, index: u32) {
        let urgent = self.lw_urgent(index);
        if !self.state(index).lw_pending {
            self.lw.tickets += 1;
            let ticket = self.lw.tickets;
            let st = self.state_mut(index);
            st.lw_pending = true;
            st.lw_ticket = ticket;
            self.lw.queue.push((index, ticket));
        } else if !urgent {
            return;
        } else {
            // (queued earlier: perhaps held)
            self.lw.recheck = true;
        }
        if urgent {
            // (the work runs now, or once the request holding the rtnl
            // lock is answered)
            self.lw.urgent = true;
            let now = self.lw.clock.unwrap_or(i128::MIN);
            self.lw.due = Some(self.lw.due.map_or(now, |d| d.min(now)));
        } else {
            self.schedule_delayed();
        }
    }

    /// `linkwatch_schedule_work(0)`: the delayed work is set for the end of
    /// the limit's window, or now; a timer already set stays.
    pub(super) fn schedule_delayed(&mut self) {
        if self.lw.due.is_none() {
            let now = self.lw.clock.unwrap_or(i128::MIN);
            self.lw.due = Some(self.lw.next_event.map_or(now, |e| e.max(now)));
        }
    }

    /// `netif_carrier_on` / `netif_carrier_off`: a change queues an event.
    pub(super) fn set_carrier(&mut self, index: u32, carrier: bool) {
        let st = self.state_mut(index);
        if st.carrier != carrier {
            st.carrier = carrier;
            self.lw_fire(index);
        }
    }
}

/// Whether a link is of one of these kinds (`IFLA_INFO_KIND`).
pub(super) fn kind_in(l: &LinkEntry, kinds: &[&[u8]]) -> bool {
    l.kind.is_some_and(|k| kinds.contains(&k.as_bytes()))
}

/// The copies of one notification: nlmon records one per listening socket,
/// byte-identical and adjacent; they count once.
#[derive(Debug, Default)]
pub(super) struct Copies {
    /// The last notification, while nothing else has come since.
    last: Option<(crate::netlink::Header, Vec<u8>)>,
    adjacent: bool,
}

impl Copies {
    /// Whether this notification repeats the one just before it; it
    /// becomes the one to compare the next with.
    pub(super) fn is_copy(&mut self, h: crate::netlink::Header, payload: &[u8]) -> bool {
        let copy = self.adjacent && matches!(&self.last, Some((lh, lp)) if *lh == h && lp.as_slice() == payload);
        match &mut self.last {
            Some((lh, lp)) => {
                *lh = h;
                lp.clear();
                lp.extend_from_slice(payload);
            }
            None => self.last = Some((h, payload.to_vec())),
        }
        self.adjacent = true;
        copy
    }

    /// Another kind of message came between: only adjacent copies are copies.
    pub(super) fn interrupted(&mut self) {
        self.adjacent = false;
    }
}

/// Where a message came from, for diagnostics and events.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ctx {
    /// The packet entries made now name as their origin: the record
    /// applied, or the request an acknowledgement applies.
    pub(super) packet: u64,
    /// The record being applied, at which the changes take effect (an
    /// accepted request's acknowledgement).
    pub(super) record: u64,
    pub(super) ts: Option<crate::capture::Timestamp>,
    pub(super) offset: u64,
    /// The changes made now are a kernel timer's, at `ts`: no record
    /// shows them (see [`Event::inferred`]).
    pub(super) timer: bool,
}

impl Ctx {
    pub(super) fn event(&self, change: Change) -> Event {
        Event {
            packet: self.record,
            ts: self.ts,
            inferred: self.timer,
            change,
        }
    }
}

/// The tables of one family some message showed (see
/// [`Model::routes_shown_in`]).
#[derive(Debug, Clone, Default)]
pub struct TablesShown {
    /// A dump of every table.
    pub(super) all: bool,
    /// The tables named by routes or table-filtered dumps.
    pub(super) some: Vec<TableId>,
}

impl TablesShown {
    fn all() -> TablesShown {
        TablesShown {
            all: true,
            some: Vec::new(),
        }
    }

    fn shows(&self, table: TableId) -> bool {
        self.all || self.some.contains(&table)
    }
}

/// The routes that go with an address when it is deleted, as an
/// assumption names them: its local route, its broadcast routes (IPv4)
/// and its prefix route (none with `noprefixroute`).
fn routes_going_with(a: &AddrEntry) -> Vec<String> {
    match a.address {
        std::net::IpAddr::V4(_) => {
            let net = prefix::network(a.address, a.prefix_len);
            let subnet_brd = std::net::Ipv4Addr::from(prefix::v4(a.address) | !prefix::v4_mask(a.prefix_len));
            let mut r = vec![a.address.to_string()];
            r.extend(a.broadcast.map(|b| b.to_string()));
            if a.prefix_len < 31 && a.broadcast != Some(std::net::IpAddr::V4(subnet_brd)) {
                r.push(subnet_brd.to_string());
            }
            if a.flags & IFA_F_NOPREFIXROUTE == 0 {
                r.push(format!("{net}/{}", a.prefix_len));
            }
            r
        }
        std::net::IpAddr::V6(_) => {
            let mut r = vec![a.address.to_string()];
            if a.flags & IFA_F_NOPREFIXROUTE == 0 {
                r.push(format!("{}/{}", prefix::network(a.address, a.prefix_len), a.prefix_len));
            }
            r
        }
    }
}
