//! calico-node's own notes, reasons and failures, as values (nested into
//! the common [`crate::replay::note::Note`], [`crate::replay::reason::Reason`] and
//! [`crate::replay::failure::Failure`] as `CalicoNode`; worded in
//! `report::calico`, as calico-node words them where it does).
//!
//! Contract: plain values, a leaf below [`crate::replay::verdict`].

use std::net::IpAddr;

use ipnet::IpNet;

use crate::replay::calico::text::MethodText;
use crate::replay::calico::version::Version;
use crate::replay::family::Family;
use crate::replay::go::NotGlobal;
use crate::replay::go::regex::PatternError;
use crate::replay::source::{NoSource, Why};

/// calico-node's findings beside its answer: its `IP` setting, the
/// kernel's route for can-reach=, kubernetes-internal-ip's warnings, BGP
/// peers, felix's VXLAN parent, re-detection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// `IP=none` (`IP6=none`): no autodetection.
    IpNone {
        /// `IP` (4) or `IP6` (6).
        family: Family,
    },
    /// `IP=text` (`IP6=`): used as given.
    IpGiven {
        /// `IP` (4) or `IP6` (6).
        family: Family,
        /// The setting as given.
        text: String,
    },
    /// The address given is on no interface: calico-node's warning.
    IpNotConfirmed {
        /// `IP` (4) or `IP6` (6).
        family: Family,
        /// The address given.
        ip: IpAddr,
    },
    /// can-reach=: the route the kernel takes to `dst`, and the source it
    /// picks.
    Reaches {
        /// The `can-reach=` destination.
        dst: IpAddr,
        /// The source the kernel picks.
        source: IpAddr,
        /// The route it takes, as `ip route` prints it.
        route: String,
        /// How the kernel chose the source.
        why: Why,
    },
    /// kubernetes-internal-ip: calico-node's warning for an InternalIP on
    /// no interface.
    NoInterfaceFor {
        /// The InternalIP.
        ip: IpAddr,
    },
    /// kubernetes-internal-ip in a release with the network-address bug.
    NetworkAddress {
        /// The release replayed.
        version: Version,
        /// What that release returns: the network.
        network: IpNet,
        /// The InternalIP with its prefix length, which later releases return.
        cidr: IpNet,
    },
    /// `--bgp-peer`: the route and source the kernel uses for the peer.
    BgpPeer {
        /// The peer.
        peer: IpAddr,
        /// The source the kernel connects from.
        source: IpAddr,
        /// The output device.
        device: String,
        /// The route, as `ip route` prints it.
        route: String,
        /// What that says of the node address.
        node: PeerCheck,
    },
    /// `--bgp-peer`: the kernel has no source for the peer.
    BgpPeerUnreachable {
        /// The peer.
        peer: IpAddr,
        /// Why the kernel has no source for it.
        why: NoSource,
    },
    /// `--bgp-peer` of the other family than the one detected: not checked
    /// here (calico-node peers over each family separately).
    BgpPeerOtherFamily {
        /// The peer.
        peer: IpAddr,
        /// The family detected.
        family: Family,
    },
    /// felix's VXLAN device parent: the first link holding the node IP.
    VxlanParent {
        /// The parent link.
        interface: String,
    },
    /// No link holds the node IP: felix finds no VXLAN parent.
    VxlanNoParent,
    /// calico-node re-runs autodetection every 60 s.
    Redetects,
}

impl crate::replay::program::OwnWord<crate::replay::note::Note> for Note {}

/// What the kernel's route to a BGP peer says of the node address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeerCheck {
    /// The kernel connects from the node address.
    Matches,
    /// It connects from another address: the node address and the
    /// interface it was found on.
    Mismatch {
        /// The node address.
        node: IpAddr,
        /// The interface it was found on.
        interface: Option<String>,
    },
    /// No node address was chosen.
    NoNodeAddress,
}

/// Why calico-node's walk (`FilteredEnumeration`), can-reach= or
/// kubernetes-internal-ip kept or passed over an interface or address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// An address of an interface after the one that won.
    EarlierCandidate,
    /// An interface after the one that won.
    EarlierInterface,
    /// The first global unicast address of the first interface kept.
    FirstOfFirstCandidate,
    /// The first interface kept that has a global unicast address.
    FirstCandidate,
    /// An address that is not global unicast.
    AddressNotGlobal {
        /// The address.
        ip: IpAddr,
        /// What it is instead.
        why: NotGlobal,
    },
    /// An address outside every CIDR of `cidr=`.
    OutsideCidrs {
        /// The address.
        ip: IpAddr,
        /// The networks of `cidr=`.
        cidrs: Vec<IpNet>,
    },
    /// An interface without an address of the family.
    NoAddressOfFamily(Family),
    /// An interface whose addresses are all outside the CIDRs.
    NoAddressInCidrs,
    /// An interface without a global unicast address of the family.
    NoGlobalOfFamily(Family),
    /// A link no message named: patterns cannot be matched against it.
    NameUnknown {
        /// The link's ifindex.
        index: u32,
    },
    /// The name matches none of the include patterns.
    MatchesNone {
        /// The include patterns.
        patterns: Vec<String>,
    },
    /// The name matches this exclude pattern.
    ExcludedBy {
        /// The exclude pattern that matched.
        pattern: String,
    },
    /// The source address the kernel picks for `dst`.
    SourceFor {
        /// The `can-reach=` destination.
        dst: IpAddr,
    },
    /// An address that is not the kernel's source address.
    NotSource {
        /// The kernel's source address.
        source: IpAddr,
    },
    /// The interface holding the source address.
    CarriesSource,
    /// An interface not holding it.
    LacksSource,
    /// The interface holding the Node's InternalIP.
    CarriesInternalIp {
        /// The InternalIP.
        ip: IpAddr,
    },
    /// An interface not holding it.
    LacksInternalIp {
        /// The InternalIP.
        ip: IpAddr,
    },
}

impl crate::replay::program::OwnWord<crate::replay::reason::Reason> for Reason {}

/// Why calico-node chose nothing: its refusals and autodetection
/// failures, and its `IP` (`IP6`) setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// calico-node refuses `IP_AUTODETECTION_METHOD` (or nlorder cannot
    /// compile a pattern or CIDR in it).
    Method(MethodError),
    /// calico-node autodetected nothing; its log line gives the same
    /// reason.
    Unable(Unable),
    /// calico-node's `IP=none` (`IP6=none`): no autodetection.
    Disabled,
    /// calico-node's `IP` (`IP6`) setting is not an address.
    NotAnAddress {
        /// `IP` (4) or `IP6` (6).
        family: Family,
        /// The setting as given.
        text: String,
    },
}

impl crate::replay::program::OwnWord<crate::replay::failure::Failure> for Failure {}

/// Why calico-node autodetected nothing (`Unable to auto-detect an IPv4
/// address using …: REASON`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unable {
    /// Every interface was dropped by its name.
    NoValidInterfaces,
    /// No interface kept has a usable address of the family.
    NoValidAddresses(Family),
    /// can-reach=: the kernel's source address is on no interface.
    SourceNotLocal {
        /// The family detected.
        family: Family,
        /// The source the kernel picks.
        source: IpAddr,
    },
    /// can-reach= a host name, which the capture cannot resolve.
    CanReachName {
        /// The host name, as given.
        dest: String,
    },
    /// can-reach= an address of the other family.
    CanReachFamily {
        /// The destination, as given.
        dest: String,
        /// The family detected.
        family: Family,
    },
    /// can-reach=: the kernel has no source for the destination.
    CannotReach {
        /// The destination.
        dst: IpAddr,
        /// Why the kernel has no source for it.
        why: NoSource,
    },
    /// kubernetes-internal-ip without the Node's InternalIP.
    NoInternalIp,
    /// kubernetes-internal-ip: the Node has no InternalIP of the family.
    NoInternalIpOfFamily(Family),
    /// kubernetes-internal-ip: the InternalIP is on no interface.
    InternalIpNotLocal(IpAddr),
}

/// A method calico-node knows that a refused one is one slip away from,
/// with the argument the user gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NearMethod {
    /// The method as written before its argument: `first-found`,
    /// `interface=` (a method that takes an argument ends in `=`).
    pub name: &'static str,
    /// The argument given (`eth.*` of `interfce=eth.*`); `None` when the
    /// method takes none or none was given.
    pub arg: Option<String>,
}

/// Why a method text cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MethodError {
    /// calico-node itself rejects it (and terminates): a replay result.
    /// `introduced`: the method exists, but only in a later release.
    Invalid {
        /// The method, as given.
        method: MethodText,
        /// The release that introduced it, when it exists in a later one.
        introduced: Option<Introduced>,
        /// The method it is one slip away from (`first-fund`:
        /// `first-found`).
        near: Option<NearMethod>,
    },
    /// A pattern in it does not compile: an argument to fix.
    Pattern {
        /// The method, as given.
        method: MethodText,
        /// Why the pattern does not compile.
        error: PatternError,
    },
    /// A CIDR in it does not parse: an argument to fix.
    Cidr {
        /// The method, as given.
        method: MethodText,
        /// The CIDR that does not parse.
        cidr: String,
    },
}

impl MethodError {
    /// A mistake in nlorder's arguments (a pattern or CIDR to fix), not
    /// calico-node's refusal.
    pub fn is_argument(&self) -> bool {
        !matches!(self, MethodError::Invalid { .. })
    }
}

/// The release that introduced a method (`cidr=`, `kubernetes-internal-ip`)
/// and the one replayed, which predates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Introduced {
    /// The method.
    pub method: LaterMethod,
    /// The first release that has it.
    pub since: Version,
    /// The release replayed.
    pub replayed: Version,
}

/// A calico-node method that some releases do not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaterMethod {
    /// `cidr=` (3.16).
    Cidr,
    /// `kubernetes-internal-ip` (3.22).
    KubernetesInternalIp,
}

impl std::error::Error for MethodError {}
impl std::error::Error for Unable {}

/// What a calico-node replay stands for: the release asked for (a later
/// one than any nlorder knows is replayed as [`Version::LATEST`]), and its
/// walk, unless calico-node refused the method (nested as
/// [`crate::replay::semantics::Semantics`], worded in `report::calico`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Semantics {
    /// The release asked for.
    pub asked: Version,
    /// The interface walk replayed (`None`: the method was refused).
    pub walk: Option<CalicoWalk>,
}

impl crate::replay::program::OwnWord<crate::replay::semantics::Semantics> for Semantics {}

/// What calico-node's interface walk does in the release replayed, for the
/// method replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalicoWalk {
    /// `DEFAULT_INTERFACES_TO_EXCLUDE`, in source order (empty when the
    /// method does not apply them).
    pub default_excludes: Vec<&'static str>,
    /// The method does not apply them (all but first-found and
    /// skip-interface=).
    pub without_default_excludes: bool,
    /// kubernetes-internal-ip returns the masked network address (the bug
    /// of v3.22.0-3.22.3 and v3.23.0-3.23.1).
    pub network_address_bug: bool,
    /// Addresses come from one bulk netlink dump (v3.32+), which gives
    /// point-to-point IPv4 addresses as /32.
    pub bulk_dump: bool,
}
