//! The registry of detection methods: one variant per replayed program,
//! each with its settings, and the one place that runs them.
//!
//! Contract: adding a method adds its replay module, a variant here and
//! its arm in each match; nothing else dispatches on methods.

use super::verdict::Detection;
use super::{assumed, calico, flannel, kubelet};
use crate::model::Model;

/// A method and its settings.
#[derive(Debug, Clone)]
pub enum MethodSpec {
    /// calico-node with an `IP_AUTODETECTION_METHOD` value, parsed once.
    Calico {
        text: String,
        method: Result<calico::Method, calico::MethodError>,
        options: calico::Options,
    },
    Kubelet(kubelet::Options),
    Flannel(flannel::Options),
}

impl MethodSpec {
    /// The replay, with a note for each assumption its answer rests on
    /// (see [`assumed`]).
    pub fn detect(&self, model: &Model) -> Detection {
        let mut d = match self {
            MethodSpec::Calico { text, method, options } => calico::detect_parsed(model, text, method, options),
            MethodSpec::Kubelet(o) => kubelet::detect(model, o),
            MethodSpec::Flannel(o) => flannel::detect(model, o),
        };
        assumed::note(model, &mut d, self.walks_links());
        d
    }

    /// Whether the answer depends on the order the interfaces are walked
    /// in (not on route order or a unique address).
    fn walks_links(&self) -> bool {
        match self {
            MethodSpec::Calico { method, .. } => matches!(
                method,
                Ok(calico::Method::FirstFound(_)
                    | calico::Method::Interface(_)
                    | calico::Method::SkipInterface(_)
                    | calico::Method::Cidr(_))
            ),
            MethodSpec::Flannel(o) => !o.iface_regex.is_empty(),
            MethodSpec::Kubelet(_) => false,
        }
    }

    /// What `--timeline` compares: the detection's address, interface and
    /// error (see [`verdict::Outcome`]), through a faster path where the
    /// method has one. Always equal to those of [`detect`](Self::detect).
    pub fn outcome(&self, model: &Model) -> (Option<String>, Option<String>, Option<String>) {
        if let MethodSpec::Calico { method, options, .. } = self
            && let Some(o) = calico::outcome_parsed(model, method, options)
        {
            return o;
        }
        let d = self.detect(model);
        (d.address, d.interface, d.error)
    }
}
