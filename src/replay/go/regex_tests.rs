//! Unit tests of `go::regex`: Go's behaviour on each difference (checked
//! against Go's regexp by the differential test in tests/go_differential.rs).

use super::*;

fn m(p: &str, s: &str) -> bool {
    GoRegex::new(p).expect("compiles").is_match(s.as_bytes())
}

#[test]
fn unanchored_like_match_string() {
    assert!(m("eth.*", "veth0"));
    assert!(m("lo", "wlo1"));
    assert!(!m("^lo", "wlo1"));
    assert!(m("^lo", "lo0"));
}

#[test]
fn perl_classes_are_ascii() {
    assert!(!m(r"^\d+$", "١٢"));
    assert!(!m(r"^\w+$", "éth0"));
    assert!(m(r"^[\w.]+$", "eth0.100"));
    assert!(!m(r"^[\d]+$", "١"));
    assert!(!m(r"^\s$", "\u{b}"), "Go's \\s has no vertical tab");
    assert!(m(r"^[^\D]+$", "42"));
}

#[test]
fn go_only_syntax() {
    assert!(m(r"\Qvxlan.calico\E", "vxlan.calico"));
    assert!(!m(r"^\Qvxlan.calico\E$", "vxlanXcalico"));
    assert!(m(r"^\145th", "eth0"), "octal escape");
    assert!(m(r"^[a&b]+$", "a&b"), "& is a literal in a Go class");
    assert!(m(r"^[a-c--]+$", "a-c"), "-- is a literal in a Go class");
    assert!(m(r"^eth{0", "eth{0"), "a brace that opens no repeat is literal");
}

#[test]
fn rejected_like_go() {
    for p in [r"(a)\1", r"(?=x)", r"\Z", "a{1001}", "a{2,1001}", "(", "eth["] {
        assert!(GoRegex::new(p).is_err(), "{p} must be rejected");
    }
    assert!(GoRegex::new("a{1000}").is_ok());
}
