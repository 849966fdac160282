//! kubelet's node IP (no cloud provider): `--node-ip`, a hostname that is an
//! IP, the node name's resolver answers, then the default-route interface.
//!
//! Contract: a pure function of the model and the options; the resolver's
//! answers are an input (`--resolved`, in resolver order), since the capture
//! shows only the netlink side. Semantics: detection-methods.md §4.

use std::net::IpAddr;

use super::chooser::{Chooser, Context, Given, OptionsError};
use super::failure;
use super::gai::{
    self,
    hosts::{self, HostsFile},
};
use super::go;
use super::host_interface::{self, NoHostInterface};
use super::verdict::{AddrVerdict, Candidate, Detection, Verdict};
use crate::model::Model;

/// kubelet in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kubelet;

impl Chooser for Kubelet {
    const PROGRAM: super::program::Program = super::program::Program::named("kubelet");
    const DOC: &'static str = "kubelet's node IP";
    const WALK_STEP: Option<u8> = Some(4);
    const NO_ROUTES: super::chooser::NoRoutes = super::chooser::NoRoutes::Own(&note::Failure::NoRoutes);
    type Settings = Settings;
    type Options = Options;

    /// kubelet prefers IPv6 when told `--node-ip ::`; `--family 6` says that.
    fn options(cx: &Context<'_>) -> Result<Options, OptionsError> {
        let k = cx.settings::<Kubelet>();
        Ok(Options {
            node_ip: match (cx.family, k.node_ip.is_empty()) {
                (Some(super::family::Family::V6), true) => vec![IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED)],
                _ => k.node_ip.clone(),
            },
            hostname_override: k.hostname_override.clone(),
            resolved: super::options::resolved_ips(&k.resolved),
            resolved_given: !k.resolved.is_empty(),
            lookup: name_lookup(&k, cx)?,
        })
    }

    /// A hosts file and answers given together; a `--family` other than
    /// the first `--node-ip`'s.
    fn validate(given: &Given<'_>) -> Result<(), OptionsError> {
        let k = given.settings::<Kubelet>();
        if k.hosts.is_some() && !k.resolved.is_empty() {
            return Err(OptionsError::HostsAndResolved);
        }
        if let (Some(f), Some(ip)) = (given.family, k.node_ip.first())
            && super::family::Family::of(*ip) != f
        {
            return Err(OptionsError::FamilyConflict(f, *ip));
        }
        Ok(())
    }

    fn detect(model: &Model, o: &Options) -> Detection {
        detect(model, o)
    }

    /// Step 4, apimachinery's default-route walk
    /// ([`super::host_interface::reads`]), unless `--node-ip` is given.
    fn reads(o: &Options, family: super::family::Family) -> super::unshown::Reads {
        super::host_interface::reads(family, false, !o.node_ip.is_empty())
    }

    /// Once, told to prefer IPv6 (`--node-ip ::`) when only IPv6 is asked for.
    fn all_once(families: &[super::family::Family]) -> Vec<Options> {
        let v6_only = families == [super::family::Family::V6];
        vec![Options {
            node_ip: match v6_only {
                true => vec![IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED)],
                false => Vec::new(),
            },
            ..Options::default()
        }]
    }
}

/// `hosts` (and `host_conf`), read, for the node name: the hostname
/// override, else the capture's node name.
fn name_lookup(k: &Settings, cx: &Context<'_>) -> Result<Option<NameLookup>, OptionsError> {
    let Some(path) = &k.hosts else { return Ok(None) };
    let read =
        |p: &std::path::PathBuf| (cx.read)(p).map_err(|e| OptionsError::Unreadable(format!("{}: {e}", p.display())));
    let multi = match &k.host_conf {
        Some(p) => super::gai::hosts::HostConf::parse(&read(p)?).multi,
        None => false,
    };
    Ok(Some(NameLookup {
        name: k.hostname_override.clone().unwrap_or_else(|| cx.node.to_owned()),
        path: path.display().to_string(),
        file: HostsFile::parse(&read(path)?),
        multi,
    }))
}

/// kubelet's flags, and what its node name resolved to.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--node-ip` (one, or two for dual stack).
    pub node_ip: Vec<IpAddr>,
    /// `--hostname-override`: the node name, instead of the host's.
    pub hostname_override: Option<String>,
    /// What the node name resolved to, in resolver order.
    pub resolved: Vec<IpAddr>,
    /// Whether `resolved` was given at all (`--resolved none` gives an
    /// empty list); if not, what the resolver answers is unknown.
    pub resolved_given: bool,
    /// Step 3 from a hosts file instead of `resolved`: the node name
    /// looked up and sorted on the host the model stands for.
    pub lookup: Option<NameLookup>,
}

program_options! {
    /// kubelet's settings as given.
    pub struct Settings {
        /// kubelet --node-ip (one, or two comma-separated for dual stack).
        #[cfg_attr(feature = "clap", arg(long, value_delimiter = ','))]
        node_ip: Vec<IpAddr> = Vec::new(),
        /// kubelet --hostname-override.
        #[cfg_attr(feature = "clap", arg(long))]
        hostname_override: Option<String> = None,
        /// What the node name (kubelet) or can-reach=NAME (calico-node) resolved to, in resolver order
        /// (repeatable); none: the lookup returned nothing.
        #[cfg_attr(feature = "clap", arg(long, value_name = "ADDR|none"))]
        resolved: Vec<super::options::Resolved> = Vec::new(),
        /// kubelet: look the node name (--hostname-override, else the capture's NODE name) up in this
        /// hosts file and sort the answers as glibc's getaddrinfo does on the captured host.
        #[cfg_attr(feature = "clap", arg(long, value_name = "FILE", conflicts_with = "resolved"))]
        hosts: Option<std::path::PathBuf> = None,
        /// With --hosts: the host's /etc/host.conf (`multi on` returns every line naming the name).
        #[cfg_attr(feature = "clap", arg(long, value_name = "FILE", requires = "hosts"))]
        host_conf: Option<std::path::PathBuf> = None,
    }
}

/// The node name in a hosts file, as a kubelet built with cgo resolves it:
/// `net.LookupIP` calls glibc's `getaddrinfo` (AF_UNSPEC, AI_CANONNAME |
/// AI_V4MAPPED | AI_ALL: no AI_ADDRCONFIG), whose files backend reads the
/// file (every line naming it with host.conf's `multi on`, else the
/// first) and whose RFC 3484 sort orders the answers on this host. (A
/// kubelet built without cgo, with Go's own resolver, keeps the file's
/// order: give `--resolved` for that.)
#[derive(Debug, Clone)]
pub struct NameLookup {
    /// The name looked up (the node name).
    pub name: String,
    /// The hosts file, as named.
    pub path: String,
    /// The hosts file, as read.
    pub file: HostsFile,
    /// host.conf's `multi`.
    pub multi: bool,
}

impl NameLookup {
    /// The answers in the order getaddrinfo returns them on this host,
    /// and the note showing the sort.
    fn resolve(&self, model: &Model) -> (Vec<IpAddr>, Note) {
        let found = self
            .file
            .lookup(&self.name, hosts::asked(model, false), self.multi)
            .addresses();
        let sorted = gai::sort(model, &found, &gai::Options::default());
        let note = Note::NameSorted {
            name: self.name.clone(),
            hosts: self.path.clone(),
            found,
            order: sorted.order.clone(),
            steps: sorted.steps,
        };
        (sorted.order, note)
    }
}

/// kubelet's `validateNodeIP`.
fn validate(model: &Model, ip: IpAddr) -> Result<(), NodeIpInvalid> {
    if ip.is_loopback() {
        return Err(NodeIpInvalid::Loopback);
    }
    if ip.is_multicast() {
        return Err(NodeIpInvalid::Multicast);
    }
    if ip.is_unspecified() {
        return Err(NodeIpInvalid::Unspecified);
    }
    if !go::is_global_unicast(ip) && go::not_global(ip) == go::NotGlobal::LinkLocal {
        return Err(NodeIpInvalid::LinkLocal);
    }
    if !go::host_has(model, ip) {
        return Err(NodeIpInvalid::NotOnHost(ip));
    }
    Ok(())
}

/// kubelet's node IP on `model`, step by step as `NodeAddress` takes them.
pub fn detect(model: &Model, o: &Options) -> Detection {
    let node_ip = o.node_ip.first().copied();
    let prefer_v6 = node_ip.is_some_and(|i| i.is_ipv6());
    let family = if prefer_v6 {
        super::family::Family::V6
    } else {
        super::family::Family::V4
    };
    let mut d = Detection::new(Kubelet::PROGRAM, Kubelet.into(), family);
    // Step 1.
    if let Some(ip) = node_ip.filter(|i| !i.is_unspecified()) {
        for ip in &o.node_ip {
            if let Err(why) = validate(model, *ip) {
                d.error = Some(Failure::InvalidNodeIp { ip: *ip, why }.into());
                return d;
            }
        }
        d.address = Some(ip.into());
        d.interface = interface_of(model, ip);
        d.notes.push(super::note::Note::NodeIpGiven);
        if o.node_ip.len() > 1 {
            d.notes.push(Note::DualStack(o.node_ip.clone()).into());
        }
        return d;
    }
    // Step 2.
    if let Some(ip) = o.hostname_override.as_deref().and_then(|h| h.parse::<IpAddr>().ok()) {
        d.address = Some(ip.into());
        d.interface = interface_of(model, ip);
        d.notes.push(Note::HostnameIsIp.into());
        return d;
    }
    // Step 3.
    let resolved = match &o.lookup {
        Some(l) => {
            let (order, note) = l.resolve(model);
            d.notes.push(note.into());
            order
        }
        None => o.resolved.clone(),
    };
    let mut first_other: Option<IpAddr> = None;
    for (i, ip) in resolved.iter().enumerate() {
        let (verdict, reason) = match validate(model, *ip) {
            Err(e) => (Verdict::NotMatching, Reason::Rejected(e).into()),
            Ok(()) if ip.is_ipv6() == prefer_v6 && d.address.is_none() => {
                d.address = Some((*ip).into());
                d.interface = interface_of(model, *ip);
                (Verdict::Chosen, Reason::ResolverAnswer { position: i + 1 }.into())
            }
            Ok(()) if d.address.is_some() => (Verdict::NotReached, Reason::EarlierAnswer.into()),
            Ok(()) => {
                first_other.get_or_insert(*ip);
                (Verdict::OtherFamily, Reason::NotPreferredFamily.into())
            }
        };
        d.candidates.push(Candidate {
            interface: interface_of(model, *ip).unwrap_or_else(|| "-".into()),
            index: index_of(model, *ip).unwrap_or(0),
            verdict,
            reason,
            addresses: vec![AddrVerdict {
                address: (*ip).into(),
                verdict,
                reason: None,
            }],
        });
    }
    if d.address.is_none()
        && let Some(ip) = first_other
    {
        d.address = Some(ip.into());
        d.interface = interface_of(model, ip);
        d.notes.push(Note::ResolvedOtherFamily.into());
        d.family = super::family::Family::of(ip);
    }
    if d.address.is_some() {
        d.notes.insert(0, Note::ResolvedLocal.into());
        return d;
    }
    if resolved.is_empty() && o.lookup.is_none() && !o.resolved_given {
        d.notes.push(Note::ResolvedUnknown.into());
    } else if resolved.is_empty() {
        d.notes.push(Note::ResolvedNothing.into());
    } else {
        d.notes.push(Note::NoValidAnswer.into());
    }
    // Step 4.
    if let Err(e) = host_interface::choose(model, prefer_v6, &mut d, Kubelet::PROGRAM) {
        d.error = Some(match e {
            NoHostInterface::NoRoutesCaptured => failure::Failure::NoRoutesCaptured(Kubelet::PROGRAM),
            NoHostInterface::NoDefaultRoutes => failure::Failure::Said(
                "no default routes found in \"/proc/net/route\" or \"/proc/net/ipv6_route\"".into(),
            ),
            NoHostInterface::NoneUsable => failure::Failure::Said("unable to select an IP from default routes".into()),
            NoHostInterface::NoSuchInterface => failure::Failure::Said(e.said().unwrap_or_default()),
        });
    }
    d
}

fn index_of(model: &Model, ip: IpAddr) -> Option<u32> {
    model.addresses(None).iter().find(|a| a.address == ip).map(|a| a.index)
}

fn interface_of(model: &Model, ip: IpAddr) -> Option<String> {
    model
        .addresses(None)
        .iter()
        .find(|a| a.address == ip)
        .map(|a| model.ifname(a.index))
}

pub mod note;
pub use self::note::{Failure, NodeIpInvalid, Note, Reason};

#[cfg(test)]
#[path = "kubelet_tests.rs"]
mod tests;
