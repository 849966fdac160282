//! The model's assumptions in words, as every printer and the stderr
//! summary say them (JSON: one sentence each, under `assumptions`).

use std::fmt;

use crate::model::{Assumption, ObjectKind, PromoteBasis};

impl fmt::Display for Assumption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Assumption::AnsweredLater { kind, request_packet } => write!(
                f,
                "packet {request_packet}: the {} dump asked for here is answered after this moment: what it covers \
                 is unknown yet",
                match kind {
                    ObjectKind::Links => "link",
                    ObjectKind::Addresses => "address",
                    ObjectKind::Routes => "route",
                }
            ),
            Assumption::NoLinkDump => f.write_str(
                "no complete link dump: only the links the capture names are listed; \
                 links nothing touched during the capture (lo at least) exist but are not shown",
            ),
            Assumption::VethPeerElsewhere { link } => write!(
                f,
                "the veth peer of {link} is in another namespace: its carrier there is not in this capture; assumed up \
                 (and if the peer is deleted there, {link} goes with it with no message here)"
            ),
            Assumption::MayLeaveUnseen { links } => write!(
                f,
                "no link listener: a device that leaves with no request here (a veth whose peer, or the namespace \
                 holding it, is deleted elsewhere; a NIC unplugged by its bus or hypervisor) leaves no message, so \
                 these may be gone unseen: {}",
                links.join(", ")
            ),
            Assumption::AdvertisementsUnseen { links, addresses_too } => write!(
                f,
                "no route listener: what router advertisements on {} make (prefix and default routes{}) leaves no \
                 message here and is not shown",
                links.join(", "),
                if *addresses_too { ", SLAAC addresses" } else { "" }
            ),
            Assumption::UnseenDevices {
                from,
                to,
                count,
                after_packet,
                before_packet,
                kind,
                names,
            } => {
                let span = if from == to {
                    format!("ifindex {from}")
                } else {
                    format!("ifindexes {from} to {to}")
                };
                match (names, kind) {
                    (Some(names), Some(kind)) => write!(
                        f,
                        "{span}: {}, the fallback devices the {kind} tunnel module (with the modules it needs) \
                         makes in every namespace as it loads (by the kernel's rule: `ip link add ... type {kind}` \
                         at packet {before_packet} loads it when it is not loaded; none where \
                         net.core.fb_tunnels_only_for_init_net keeps them to the initial namespace); no message \
                         showed them",
                        names.join(", ")
                    ),
                    _ => write!(
                        f,
                        "{span}: {count} {} registered in this namespace between packets {after_packet} and \
                         {before_packet} that no message showed (devices a module makes as it loads, such as the \
                         tunnel modules' tunl0, sit0, gre0, gretap0, erspan0, ip_vti0, ip6tnl0, ip6gre0, ip6_vti0; \
                         devices made without netlink; or made and gone unseen): unknown, not listed",
                        if *count == 1 { "device" } else { "devices" }
                    ),
                }
            }
            Assumption::PredictedIndex { index, link } => write!(
                f,
                "ifindex {index} of {link} is the index the kernel would assign next; no reply or dump showed it"
            ),
            Assumption::LinkLocalFromUnseenMac { link } => write!(
                f,
                "the link-local address of {link} is made from its MAC, which the capture never showed: shown as fe80::/64"
            ),
            Assumption::LinkLocalFromPermanentAddress { link } => write!(
                f,
                "the link-local address of {link} is made from its random permanent address, which no message showed: \
                 unknown, shown as fe80::/64"
            ),
            Assumption::LinkListenerLeft { last, request } => write!(
                f,
                "no link listener was left after packet #{last} (the link request in #{request} was answered without \
                 a link notification): a device that left this namespace after that with no request here (a veth \
                 gone with its peer elsewhere) is unknown unless an address notification showed it"
            ),
            Assumption::HomeAddressRule {
                addresses,
                applied,
                build,
            } => write!(
                f,
                "{} {} a home address: source selection {}",
                addresses.join(", "),
                if addresses.len() == 1 { "is" } else { "are" },
                home_rule_basis(*applied, *build)
            ),
            Assumption::MulticastRouteForm { kernel } => write!(
                f,
                "the ff00::/8 routes of linux {kernel}: their type and protocol changed within its stable series \
                 (unicast proto boot before, multicast proto kernel after), and the release given names no stable \
                 number: shown in the newer form"
            ),
            Assumption::LinkLocalIpvlanDevId { link } => write!(
                f,
                "the link-local address of {link} carries the ipvlan's dev_id from its lower device's port, which \
                 the capture cannot tell (the port was made before it, or is shared with another namespace): \
                 unknown, shown as fe80::/64"
            ),
            Assumption::LinkLocalRandom { link } => write!(
                f,
                "the link-local address of {link} has a random interface id, which no message showed: unknown, shown \
                 as fe80::/64"
            ),
            Assumption::LifetimeEndsAfter {
                address,
                link,
                at,
                routes,
            } => write!(
                f,
                "{address} on {link}: its valid lifetime ends at {}, after the last packet; the kernel then deletes it \
                 with its routes ({}) (silently on a quiet host)",
                at.rfc3339(),
                routes.join(", ")
            ),
            Assumption::DadUnderWay {
                packet,
                address,
                link,
                seconds,
                from_dump,
            } => {
                let since = match (seconds, from_dump) {
                    (Some(x), false) => format!(" {x:.2} s after it began (it takes 1 to 2 s)"),
                    (Some(x), true) => {
                        format!(" (a dump showed it tentative {x:.2} s before the last packet; it takes 1 to 2 s)")
                    }
                    (None, _) => String::new(),
                };
                write!(
                    f,
                    "packet {packet}: duplicate address detection of {address} on {link} was still under way{since}: \
                     the address is tentative and has no local route yet; unless it is a duplicate both change \
                     silently when it ends (--at end+2 shows the tables then)"
                )
            }
            Assumption::TentativeInSnapshot { address, link } => write!(
                f,
                "duplicate address detection of {address} on {link} was under way when `ip` ran (it showed the \
                 address tentative): the address has no local route yet; unless it is a duplicate both change \
                 silently within 1 to 2 s"
            ),
            Assumption::LinkwatchQueued { links } => {
                let which = if links.is_empty() {
                    "some devices'".to_owned()
                } else {
                    format!("the link events of {}", links.join(", "))
                };
                let which = if links.is_empty() {
                    format!("{which} link events")
                } else {
                    which
                };
                write!(
                    f,
                    "{which} were still queued for linkwatch at the last packet (it runs within a second): their \
                     operational state, and IPv6 on those just brought up, are as before it ran (--at end+2 shows \
                     the tables once it has)"
                )
            }
            Assumption::ExpiredUnshown {
                packet,
                address,
                link,
                routes,
            } => write!(
                f,
                "packet {packet}: the valid lifetime of {address} on {link} had ended, so it is gone from the tables \
                 with its routes ({}); the kernel deletes them when its lifetime check next runs, up to seconds \
                 later, and no message has shown that yet",
                routes.join(", ")
            ),
            Assumption::AddressOnlyRouted { packet, link, address } => write!(
                f,
                "packet {packet}: a local route names {address} on {link}, an address no message has shown (an \
                 optimistic address is announced when its duplicate address detection ends): its prefix length \
                 and flags are unknown, so it is not in the tables"
            ),
            Assumption::PrefixRouteWithAddress {
                packet,
                link,
                prefix,
                len,
                address,
            } => write!(
                f,
                "packet {packet}: the prefix route {prefix}/{len} dev {link} is taken as gone with {address}, an \
                 address that was not permanent; the kernel removes such a route at its own expiry (the \
                 address's lifetime, or later), not with the address, and no route message has shown when \
                 this one did"
            ),
            Assumption::KeptOnDownUnknown {
                packet,
                link,
                addresses,
            } => write!(
                f,
                "packet {packet}: {link} went down and no address listener shows what became of {}: the kernel \
                 deletes {} with keep_addr_on_down off (its default, taken here) and keeps {} with it on, a sysctl \
                 no message carries",
                addresses.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", "),
                if addresses.len() == 1 { "it" } else { "them" },
                if addresses.len() == 1 { "it" } else { "them" },
            ),
            Assumption::LinkwatchTimed { links } => write!(
                f,
                "linkwatch ran the link events of {} when its once-a-second limit allowed, as this namespace's \
                 own runs set it, and no message has shown their result since: the limit is one for the whole \
                 host, so the kernel may have run them later (their operational state, and IPv6 on those just \
                 brought up, would then be as before)",
                links.join(", ")
            ),
            Assumption::LocalRouteOrderUnknown { address } => write!(
                f,
                "{address} is on several devices and their duplicate address detections ended unseen, each after a \
                 random delay of up to 1 s: the order of its local routes is the order they began, which the \
                 kernel's may not be"
            ),
            Assumption::TimersRunOn { addresses, routes } => write!(
                f,
                "after the last packet the kernel's timers were run on (--at): {addresses} address(es) came or ended \
                 duplicate address detection, {routes} route(s) came; nothing else was assumed to happen"
            ),
            Assumption::ExpiredAfter { address, link } => write!(
                f,
                "{address} on {link}: its valid lifetime ran out after the last packet (--at): deleted with its routes"
            ),
            Assumption::PromoteSecondaries { packet, basis } => write!(
                f,
                "packet {packet}: a primary IPv4 address with secondaries was deleted and no notification showed what \
                 followed; {}",
                match basis {
                    PromoteBasis::DeviceOffAllAssumedOff =>
                        "its device showed promote_secondaries=0 and net.ipv4.conf.all's, which no capture shows, was \
                         assumed 0 too (a host that sets it, as systemd does, shows 1 on every device): the secondaries \
                         were removed (--promote-secondaries on says otherwise)",
                    _ =>
                        "no message showed its device's promote_secondaries: on was assumed, as systemd sets it, and a \
                          secondary promoted (--promote-secondaries off says otherwise)",
                }
            ),
        }
    }
}

serialize_as_words!(Assumption);

/// How source selection's rule 4 (prefer home addresses) was taken, and
/// how to say otherwise: the build the capture names, else the common case.
pub fn home_rule_basis(applied: bool, build: Option<crate::model::kernel_build::KernelBuild>) -> String {
    use crate::model::kernel_build::KernelBuild;
    let how = if applied {
        "prefers it (rule 4)"
    } else {
        "does not prefer it (no rule 4)"
    };
    match build {
        Some(b) => {
            let name = match b {
                KernelBuild::Debian => "Debian's",
                KernelBuild::Fedora => "Fedora's",
                KernelBuild::Ubuntu => "Ubuntu's",
                KernelBuild::RedHat => "Red Hat's",
                KernelBuild::AmazonLinux => "Amazon Linux's",
                KernelBuild::Suse => "SUSE's",
            };
            let (value, other) = if b.ipv6_mip6() { ("y", "n") } else { ("m", "y") };
            format!(
                "{how}, as {name} kernels do (the capture's shb_os names one; they set CONFIG_IPV6_MIP6={value}); \
                 for another build give --kernel-config CONFIG_IPV6_MIP6={other}"
            )
        }
        None => format!(
            "{how}: the capture does not name its kernel's build, and most distributions' (Ubuntu's, Red Hat's, \
             Amazon Linux's, SUSE's) set CONFIG_IPV6_MIP6=m, which leaves the rule out; Debian's and Fedora's set \
             =y: give --kernel-config CONFIG_IPV6_MIP6=y for those"
        ),
    }
}

/// What no message in the capture shows, in words (`detect`'s answer
/// line and JSON `unshown`).
impl std::fmt::Display for crate::replay::unshown::Unshown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::replay::unshown::Unshown;
        match self {
            Unshown::Addresses(fam) => write!(f, "no message in it shows the host's IPv{fam} addresses"),
            Unshown::Routes { family, table, shown } => {
                write!(f, "no message in it shows IPv{family}'s routes of table {table}")?;
                if !shown.is_empty() {
                    let names: Vec<String> = shown.iter().map(|t| format!("table {t}")).collect();
                    write!(f, " (only {})", names.join(", "))?;
                }
                Ok(())
            }
            Unshown::Links => f.write_str(
                "no link dump shows which links the host has and the kernel's order of them (record a link dump too)",
            ),
            Unshown::Ipv6Order(names) => write!(
                f,
                "no message in it shows the kernel's order of the IPv6 addresses of {} (made from router \
                 advertisements, notified when their duplicate address detection ended; a route listener or an \
                 address dump would tell)",
                names.join(", ")
            ),
            Unshown::LinkAttributes(names) => write!(
                f,
                "no link message shows the name, flags or state of {} (known only by index; a link dump would tell)",
                names.join(", ")
            ),
        }
    }
}

serialize_as_words!(crate::replay::unshown::Unshown);

/// Several things no message shows, joined for one line.
pub fn unshown_list(v: &[crate::replay::unshown::Unshown]) -> String {
    v.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}
