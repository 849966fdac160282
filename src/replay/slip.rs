//! Contract: the one rule for "did you mean": how far a name the user typed
//! is from a name nlorder knows (a program's, a calico-node method's), as a
//! count of edits; only what is one edit in four letters away, or nearer,
//! counts. The words around a suggestion are the report's.

/// The edits from `typed` to `known` (optimal string alignment: two letters
/// swapped count as one edit) when there is at most one in four letters of
/// `known`, 0 when they are the same; `None` when they are further apart
/// (`eth1` is two edits from `etcd`: an interface name, not a slip).
pub(crate) fn slip(typed: &str, known: &str) -> Option<usize> {
    let d = strsim::osa_distance(typed, known);
    (d * 4 <= known.len()).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::slip;

    #[test]
    fn one_edit_in_four_letters() {
        assert_eq!(slip("first-fund", "first-found"), Some(1));
        assert_eq!(slip("frist-found", "first-found"), Some(1));
        assert_eq!(slip("first-found", "first-found"), Some(0));
        assert_eq!(slip("eth1", "etcd"), None);
        assert_eq!(slip("kubelte", "kubelet"), Some(1));
        assert_eq!(slip("nomda", "nomad"), Some(1));
        assert_eq!(slip("nmoad", "nomad"), Some(1));
        assert_eq!(slip("nmda", "nomad"), None);
    }
}
