//! The Tigera operator's `Installation` resource: which
//! `IP_AUTODETECTION_METHOD` it gives calico-node, as the operator decides.
//!
//! Contract: reads YAML or JSON text with one or more documents (Calico's
//! quick-start `custom-resources.yaml` holds an Installation and an
//! APIServer) and picks the Installation named `default` (else the only
//! one); rejects, with the line, a misspelt key in
//! `nodeAddressAutodetectionV4/V6`; rejects what the operator's validation
//! rejects (two methods for one family, a CIDR that does not parse), with
//! the operator's message; and when a family's detection is not set, applies
//! the operator's defaulting (for IPv4: first-found, or `can-reach=8.8.8.8`
//! on EKS, `skip-interface=^br-.*` on Docker Enterprise), saying which
//! default applied. Restated from the operator's installation defaulting
//! and validation (`fillDefaults`, `validateNodeAddressDetection`).

use serde::Deserialize;

use crate::replay::Family;
use crate::replay::calico::MethodText;

/// `nodeAddressAutodetectionV4/V6`: at most one method may be set.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Autodetection {
    first_found: Option<bool>,
    kubernetes: Option<String>,
    interface: Option<String>,
    skip_interface: Option<String>,
    can_reach: Option<String>,
    #[serde(default)]
    cidrs: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CalicoNetwork {
    node_address_autodetection_v4: Option<Autodetection>,
    node_address_autodetection_v6: Option<Autodetection>,
    #[serde(default)]
    ip_pools: Vec<IpPool>,
}

#[derive(Debug, Default, Deserialize)]
struct IpPool {
    #[serde(default)]
    cidr: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    calico_network: Option<CalicoNetwork>,
    kubernetes_provider: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct Metadata {
    name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct Document {
    kind: Option<String>,
    metadata: Option<Metadata>,
    spec: Option<Spec>,
}

/// Why an Installation file cannot be replayed: the operator would not
/// take it (its own message), or it is no Installation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstallationError {
    /// YAML that does not read as Kubernetes documents (with its line).
    #[error("{0}")]
    Yaml(String),
    /// No Installation to use among the documents.
    #[error("{0}")]
    NoInstallation(String),
    /// The operator's validation rejects it.
    #[error("nodeAddressAutodetectionV{family}: the operator rejects this: {message}")]
    Rejected {
        /// The IP version of the autodetection field (4 or 6).
        family: u8,
        /// The operator's reason.
        message: String,
    },
}

/// The method the operator gives calico-node for `family`, and a note on
/// where it came from; `Ok(None)` when the operator sets `IP=none`.
pub fn method(text: &str, family: Family) -> Result<Option<(MethodText, String)>, InstallationError> {
    let mut installations = Vec::new();
    let mut kinds = Vec::new();
    for d in serde_yaml_ng::Deserializer::from_str(text) {
        let doc = Document::deserialize(d).map_err(|e| InstallationError::Yaml(e.to_string()))?;
        match doc.kind.as_deref() {
            Some("Installation") => installations.push(doc),
            Some(k) => kinds.push(k.to_owned()),
            None => kinds.push("(no kind)".into()),
        }
    }
    let pick = installations
        .iter()
        .position(|d| d.metadata.as_ref().and_then(|m| m.name.as_deref()) == Some("default"))
        .or_else(|| (installations.len() == 1).then_some(0));
    let Some(i) = pick else {
        return Err(InstallationError::NoInstallation(match installations.len() {
            0 => format!("no Installation document (kinds found: {})", kinds.join(", ")),
            n => format!("{n} Installation documents and none named default: the operator uses the one named default"),
        }));
    };
    let Some(doc) = installations.into_iter().nth(i) else {
        return Err(InstallationError::NoInstallation("no Installation document".into()));
    };
    let spec = doc.spec.unwrap_or_default();
    let provider = spec.kubernetes_provider.unwrap_or_default();
    let net = spec.calico_network.unwrap_or_default();
    let (v4, v6) = (net.node_address_autodetection_v4, net.node_address_autodetection_v6);
    for (ad, fam) in [(&v4, 4), (&v6, 6)] {
        if let Some(ad) = ad {
            validate(ad).map_err(|message| InstallationError::Rejected { family: fam, message })?;
        }
    }
    let pools = |v6: bool| net.ip_pools.iter().any(|p| p.cidr.contains(':') == v6);
    let (set, key) = match family {
        Family::V4 => (v4, "nodeAddressAutodetectionV4"),
        Family::V6 => (v6, "nodeAddressAutodetectionV6"),
    };
    if let Some(ad) = set {
        return Ok(as_method(&ad).map(|m| (m, format!("{key} of the Installation"))));
    }
    // The operator's defaulting: a family with a pool (IPv4 also when no
    // pool is given, as the operator then creates 192.168.0.0/16) gets one.
    let has_pool = match family {
        Family::V4 => pools(false) || net.ip_pools.is_empty(),
        Family::V6 => pools(true),
    };
    if !has_pool {
        return Ok(None);
    }
    let default = match (family, provider.as_str()) {
        (Family::V4, "EKS") => (
            "can-reach=8.8.8.8",
            "the operator's default on EKS (the interface of the default route)",
        ),
        (Family::V4, "DockerEnterprise") => (
            "skip-interface=^br-.*",
            "the operator's default on Docker Enterprise (its br- interfaces are unusable)",
        ),
        _ => ("first-found", "the operator's default when no method is set"),
    };
    Ok(Some((
        MethodText::new(default.0),
        format!("{key} not set: {}", default.1),
    )))
}

/// `--installation FILE`: the calico-node method the operator would set
/// for `family`, and where it came from; an error line when the file
/// cannot be read or replayed, or the operator sets `IP=none`.
pub fn method_of_file(path: &std::path::Path, family: Family) -> Result<(MethodText, String), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let ip = if family == Family::V6 { "IP6" } else { "IP" };
    method(&text, family)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .ok_or_else(|| format!("{}: the operator sets {ip}=none (no IPv{family} pool)", path.display()))
}

/// `--installation FILE` without `--family`: the families the operator
/// runs autodetection for (IPv4, IPv6 or both), in that order; an error
/// line when the file cannot be read or replayed, or it sets neither.
pub fn families_of_file(path: &std::path::Path) -> Result<Vec<Family>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut families = Vec::new();
    for family in [Family::V4, Family::V6] {
        if method(&text, family)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .is_some()
        {
            families.push(family);
        }
    }
    if families.is_empty() {
        return Err(format!(
            "{}: the operator sets IP=none and IP6=none (no pool of either family)",
            path.display()
        ));
    }
    Ok(families)
}

/// The operator's `validateNodeAddressDetection`.
fn validate(ad: &Autodetection) -> Result<(), String> {
    for c in &ad.cidrs {
        if c.parse::<ipnet::IpNet>().is_err() {
            return Err(format!("invalid CIDR provided for node address autodetection: {c}"));
        }
    }
    let set = [
        ad.interface.as_deref().is_some_and(|s| !s.is_empty()),
        ad.skip_interface.as_deref().is_some_and(|s| !s.is_empty()),
        ad.can_reach.as_deref().is_some_and(|s| !s.is_empty()),
        ad.first_found == Some(true),
        !ad.cidrs.is_empty(),
        ad.kubernetes.is_some(),
    ];
    if set.iter().filter(|s| **s).count() > 1 {
        return Err("no more than one node address autodetection method can be specified per-family".into());
    }
    match ad.kubernetes.as_deref() {
        None | Some("NodeInternalIP") => Ok(()),
        Some(other) => Err(format!("kubernetes: unknown value {other:?} (only NodeInternalIP)")),
    }
}

/// The calico-node method an autodetection sets; None when it sets none
/// (`firstFound: false` alone).
fn as_method(ad: &Autodetection) -> Option<MethodText> {
    as_text(ad).map(MethodText::new)
}

/// The `IP_AUTODETECTION_METHOD` text the operator writes for it.
fn as_text(ad: &Autodetection) -> Option<String> {
    let some = |s: &Option<String>| s.clone().filter(|s| !s.is_empty());
    if let Some(r) = some(&ad.interface) {
        return Some(format!("interface={r}"));
    }
    if let Some(r) = some(&ad.skip_interface) {
        return Some(format!("skip-interface={r}"));
    }
    if let Some(d) = some(&ad.can_reach) {
        return Some(format!("can-reach={d}"));
    }
    if ad.first_found == Some(true) {
        return Some("first-found".into());
    }
    if !ad.cidrs.is_empty() {
        return Some(format!("cidr={}", ad.cidrs.join(",")));
    }
    ad.kubernetes.as_ref().map(|_| "kubernetes-internal-ip".into())
}

#[cfg(test)]
#[path = "operator_tests.rs"]
mod tests;
