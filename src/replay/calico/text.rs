//! calico-node's `IP_AUTODETECTION_METHOD` as written: the program's own
//! input, which each release parses in its own way
//! ([`crate::replay::calico::method::Method::parse`]).
//!
//! Contract: a leaf. Only parsing and printing read the text; the rest of
//! nlorder asks the typed questions here.

/// `IP_AUTODETECTION_METHOD` as written: calico-node's own input, kept as
/// text because each release parses it differently ([`crate::replay::calico::method::Method::parse`]).
/// Only parsing and printing read the text; everything else asks the
/// typed questions below.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MethodText(String);

impl MethodText {
    /// The method as written.
    pub fn new(text: impl Into<String>) -> MethodText {
        MethodText(text.into())
    }

    /// The text, for parsing and printing.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `can-reach=` a host name (not an address): the one method that
    /// asks a resolver.
    pub fn is_can_reach_name(&self) -> bool {
        self.0
            .strip_prefix("can-reach=")
            .is_some_and(|d| d.parse::<std::net::IpAddr>().is_err())
    }

    /// `kubernetes-internal-ip` (the one method that reads the Node's
    /// InternalIP), as every release that knows it recognises it.
    pub fn is_kubernetes_internal_ip(&self) -> bool {
        self.0.starts_with("kubernetes-internal-ip")
    }

    /// The method as a detection names it: empty text is `first-found`.
    pub fn named(&self) -> MethodText {
        if self.0.is_empty() {
            MethodText::default()
        } else {
            self.clone()
        }
    }
}

impl Default for MethodText {
    fn default() -> Self {
        MethodText("first-found".into())
    }
}

/// Compares the text as written (for tests and manifests' expectations).
impl PartialEq<&str> for MethodText {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl std::fmt::Display for MethodText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
