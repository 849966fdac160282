//! The Antrea agent's words (`initK8sNodeLocalConfig`): its `semantics:`
//! line, notes, reasons and the failure nlorder words (its own messages
//! are kept by the replay as the agent writes them).
//!
//! Contract: `Display` only; the replay ([`crate::replay::antrea`]) hands
//! out values.

use std::fmt;

use crate::replay::antrea::{Failure, Note, Reason, Transport};

impl fmt::Display for crate::replay::antrea::Antrea {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "Antrea agent initK8sNodeLocalConfig (the same in v1.10.0, v1.15.0, v2.0.0 and main): the interface holding the Node's InternalIPs \
             (the first of each family; hostGateway skipped), or transportInterface's first global unicast \
             address of each family, or the first interface in dump order with one inside transportInterfaceCIDRs",
        )
    }
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Transport::Interface(name) => write!(f, "transportInterface {name}"),
            Transport::Cidrs(cidrs) => {
                let list: Vec<String> = cidrs.iter().map(ToString::to_string).collect();
                write!(f, "transportInterfaceCIDRs {}", list.join(", "))
            }
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::NodeIps { v4, v6, dropped } => {
                let kept: Vec<String> = v4.iter().chain(v6).map(ToString::to_string).collect();
                write!(f, "the Node's IPs (InternalIP, as given): {}", kept.join(", "))?;
                if !dropped.is_empty() {
                    let later: Vec<String> = dropped.iter().map(ToString::to_string).collect();
                    write!(
                        f,
                        "; {} ignored (the agent keeps the first of each family)",
                        later.join(", ")
                    )?;
                }
                Ok(())
            }
            Note::NodeInterface { interface, by } => write!(
                f,
                "the Node's IPs are on {interface}; {by} chooses the transport interface instead"
            ),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::HostGateway => f.write_str("Antrea's host gateway: skipped when looking for the Node's IPs"),
            Reason::HoldsNodeIp => f.write_str("holds the Node's IP"),
            Reason::HoldsNoNodeIp => f.write_str("holds none of the Node's IPs"),
            Reason::IsNodeIp => f.write_str("the Node's IP of its family"),
            Reason::SecondDevice { first } => {
                write!(
                    f,
                    "holds a Node IP too, after {first}: the Node's IPs must be on one device"
                )
            }
            Reason::Named => f.write_str("named by transportInterface"),
            Reason::NoGlobalUnicast => f.write_str("named by transportInterface, but no global unicast address"),
            Reason::FirstOfFamily => f.write_str("first global unicast address of its family"),
            Reason::FamilyTaken => f.write_str("an address of its family came first"),
            Reason::InCidr { cidr } => write!(f, "first global unicast address of its family inside {cidr}"),
            Reason::FirstInCidrs => f.write_str("first interface with a global unicast address inside the CIDRs"),
            Reason::NoneInCidrs => f.write_str("no global unicast address inside the CIDRs"),
            Reason::TakenEarlier { interface } => write!(f, "{interface} was taken first"),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::NoNodeIp => f.write_str(
                "the agent looks for the Node's InternalIP, which comes from the API server: give --node-internal-ip",
            ),
        }
    }
}
