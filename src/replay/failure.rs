//! Why a replay chose nothing, as data: the program's own message where
//! it has one, else what stopped it, typed (calico-node's refusals and
//! autodetection failures, missing inputs, a capture without routes).
//!
//! Contract: plain values, a leaf below [`super::verdict`]. A program's
//! own words stay a string ([`Failure::Said`], and the message inside
//! [`Failure::Unspecified`]); everything nlorder explains is a variant
//! carrying what it concerns, worded in `report::failure`. JSON's `error`
//! says the same words as the text.

use std::net::IpAddr;

use super::calico_text::MethodText;
use super::calico_version::Version;
use super::family::Family;
use super::goregex::PatternError;
use super::note::Program;
use super::source::NoSource;

/// Why a replay chose nothing (or, for kubeadm's `0.0.0.0`, nothing usable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The program's own message, word for word (apimachinery's,
    /// kubeadm's, flannel's, Go's).
    Said(String),
    /// kubelet's own failures.
    Kubelet(super::kubelet::Failure),
    /// flannel's own failures.
    Flannel(super::flannel::Failure),
    /// Cilium's NodePort and masquerade addresses' own failures.
    CiliumNodeAddress(super::cilium_node_address::Failure),
    /// kubeadm's own failures.
    Kubeadm(super::kubeadm::Failure),
    /// Nomad's own failures.
    Nomad(super::nomad::Failure),
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
    /// The program looks for the default route, and the capture holds no
    /// routes at all.
    NoRoutesCaptured(Program),
    /// No message of the capture showed an address (no address dump,
    /// notification or request; what the kernel's rules made from links
    /// alone does not count): the program's choice cannot be replayed.
    NoAddressesCaptured,
    /// At this moment (`--at`) the dump that shows what the program reads
    /// was asked for but not yet answered: unknown yet.
    UnknownYet {
        /// What the dump lists.
        kind: crate::model::ObjectKind,
        /// Its request's packet.
        request_packet: u64,
    },
}

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
