//! `detect`'s `log:` lines against what calico-node logs: per method and
//! release, the message each release's source formats (cited by file and
//! line at the tag), filled in with what the replay chose on a real
//! capture (`fixtures/incident-nerdctl.pcap`: `nerdctl0` 10.4.0.1/24 made
//! after `ens160` 192.168.10.5/24, a default route via ens160).
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

/// The `log:` lines `detect` prints, in order.
fn log_lines(release: &str, method: &str, extra: &[&str]) -> Vec<String> {
    let f = common::fixture("incident-nerdctl.pcap");
    let mut args = vec!["detect", "--calico-version", release, "--method", method];
    args.extend_from_slice(extra);
    args.push(f.to_str().expect("path"));
    let out = common::nlorder(&args);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("log: ").map(str::to_owned))
        .collect()
}

/// Every release of `releases` logs `want` (the `log:` lines in order) for
/// `method`.
#[track_caller]
fn assert_logs(releases: &[&str], method: &str, extra: &[&str], want: &[&str]) {
    for r in releases {
        assert_eq!(log_lines(r, method, extra), want, "{r}");
    }
}

/// Where each release formats its lines.
/// v3.20.0: projectcalico/node `pkg/lifecycle/startup/startup.go`;
/// v3.22.1, v3.26.0, v3.32.1: projectcalico/calico
/// `node/pkg/lifecycle/startup/autodetection/autodetection_methods.go`
/// (the same lines in all three).
const RELEASES: [&str; 4] = ["3.20.0", "3.22.1", "3.26.0", "3.32.1"];

#[test]
fn first_found() {
    // v3.20.0 startup.go:713; later autodetection_methods.go:103:
    // "Using autodetected IPv%d address on interface %s: %s"
    assert_logs(
        &RELEASES,
        "first-found",
        &[],
        &["Using autodetected IPv4 address on interface nerdctl0: 10.4.0.1/24"],
    );
}

#[test]
fn first_found_ipv6_finds_nothing() {
    // v3.20.0 startup.go:709, filtered.go:51; later
    // autodetection_methods.go:99, filtered.go:52: "Unable to auto-detect an
    // IPv%d address: %s" with "no valid IPv%d addresses found on the host
    // interfaces" (the capture's IPv6 addresses are link-local).
    assert_logs(
        &RELEASES,
        "first-found",
        &["--family", "6"],
        &["Unable to auto-detect an IPv6 address: no valid IPv6 addresses found on the host interfaces"],
    );
}

#[test]
fn interface() {
    // v3.20.0 startup.go:727; later autodetection_methods.go:117:
    // "Using autodetected IPv%d address %s on matching interface %s"
    assert_logs(
        &RELEASES,
        "interface=ens.*",
        &[],
        &["Using autodetected IPv4 address 192.168.10.5/24 on matching interface ens160"],
    );
    // v3.20.0 startup.go:723, filtered.go:35; later
    // autodetection_methods.go:113, filtered.go:36: "Unable to auto-detect
    // an IPv%d address using interface regexes %v: %s", the regexes as Go's
    // %v prints a []string (split at `\s*,\s*`).
    assert_logs(
        &RELEASES,
        "interface=^eth.*, wl.*",
        &[],
        &[
            "Unable to auto-detect an IPv4 address using interface regexes [^eth.* wl.*]: no valid host interfaces found",
        ],
    );
}

#[test]
fn skip_interface() {
    // v3.20.0 startup.go:771; later autodetection_methods.go:161:
    // "Using autodetected IPv%d address on interface %s: %s while skipping
    // matching interfaces"
    assert_logs(
        &RELEASES,
        "skip-interface=nerd.*",
        &[],
        &["Using autodetected IPv4 address on interface ens160: 192.168.10.5/24 while skipping matching interfaces"],
    );
    // v3.20.0 startup.go:767; later autodetection_methods.go:157: "Unable to
    // auto-detect an IPv%d address while excluding %v: %s", only the
    // patterns given (not the default excludes).
    assert_logs(
        &RELEASES,
        "skip-interface=nerd.*,ens.*",
        &[],
        &["Unable to auto-detect an IPv4 address while excluding [nerd.* ens.*]: no valid host interfaces found"],
    );
}

#[test]
fn cidr() {
    // v3.20.0 startup.go:741; later autodetection_methods.go:131:
    // "Using autodetected IPv%d address %s on interface %s matching cidrs
    // %+v", the CIDRs as net.ParseCIDR returns them (host bits cleared).
    assert_logs(
        &RELEASES,
        "cidr=192.168.10.77/24",
        &[],
        &["Using autodetected IPv4 address 192.168.10.5/24 on interface ens160 matching cidrs [192.168.10.0/24]"],
    );
    // v3.20.0 startup.go:737; later autodetection_methods.go:127: "Unable to
    // auto-detect an IPv%d address using interface cidr %s: %s".
    assert_logs(
        &RELEASES,
        "cidr=172.16.0.0/12,10.9.0.0/16",
        &[],
        &[
            "Unable to auto-detect an IPv4 address using interface cidr [172.16.0.0/12 10.9.0.0/16]: no valid IPv4 addresses found on the host interfaces",
        ],
    );
}

#[test]
fn can_reach() {
    // v3.20.0 startup.go:753; later autodetection_methods.go:143:
    // "Using autodetected IPv%d address %s, detected by connecting to %s"
    assert_logs(
        &RELEASES,
        "can-reach=8.8.8.8",
        &[],
        &["Using autodetected IPv4 address 192.168.10.5/24, detected by connecting to 8.8.8.8"],
    );
    // A name is logged as written, once its answer is given.
    assert_logs(
        &RELEASES,
        "can-reach=example.com",
        &["--resolved", "93.184.215.14"],
        &["Using autodetected IPv4 address 192.168.10.5/24, detected by connecting to example.com"],
    );
    // v3.20.0 startup.go:750; later autodetection_methods.go:140: "Unable to
    // auto-detect IPv%d address by connecting to %s: %s", with Go's
    // net.Dial("udp4", …) error for an IPv6 destination.
    assert_logs(
        &RELEASES,
        "can-reach=fd00::1",
        &[],
        &[
            "Unable to auto-detect IPv4 address by connecting to fd00::1: dial udp4: address fd00::1: no suitable address found",
        ],
    );
}

#[test]
fn can_reach_a_name_without_its_answer_logs_nothing_invented() {
    let f = common::fixture("incident-nerdctl.pcap");
    let text = common::stdout_ok(&["detect", "--method", "can-reach=example.com", f.to_str().expect("path")]);
    assert!(!text.contains("log:"), "{text}");
    common::assert_has(&text, &["nlorder's limit", "--resolved"]);
}

#[test]
fn a_route_that_refuses_is_gos_dial_error() {
    // notify-link.pcap has routes, none to 8.8.8.8: connect() says
    // ENETUNREACH, which Go's net.Dial reports as below (seen with Go in a
    // namespace without a default route).
    let f = common::fixture("notify-link.pcap");
    let text = common::stdout_ok(&["detect", "--method", "can-reach=8.8.8.8", f.to_str().expect("path")]);
    common::assert_has(
        &text,
        &[
            "log: Unable to auto-detect IPv4 address by connecting to 8.8.8.8: dial udp4 8.8.8.8:80: connect: network is unreachable",
        ],
    );
}

#[test]
fn kubernetes_internal_ip() {
    // No "Using autodetected" line: autodetection_methods.go (v3.22.1:225,
    // v3.26.0 and v3.32.1: 229) logs GetLocalCIDR's
    // log.WithField("CIDR", …).Info("Including CIDR information from host
    // interface."), the field as calico-node's formatter appends it.
    let knowing = ["3.22.1", "3.26.0", "3.32.1"];
    assert_logs(
        &knowing,
        "kubernetes-internal-ip",
        &["--node-internal-ip", "10.4.0.1"],
        &["Including CIDR information from host interface. CIDR=\"10.4.0.1/24\""],
    );
    // v3.22.1:232 (later 236), then :185 "Unable to parse CIDR %v : %v"
    // with Go's net.ParseCIDR error.
    assert_logs(
        &knowing,
        "kubernetes-internal-ip",
        &["--node-internal-ip", "10.9.0.1"],
        &[
            "Unable to find matching host interface for IP 10.9.0.1",
            "Unable to parse CIDR 10.9.0.1 : invalid CIDR address: 10.9.0.1",
        ],
    );
    // v3.20.0 does not know the method: startup.go:697 "Invalid IP
    // autodetection method: %s" (and calico-node terminates).
    assert_logs(
        &["3.20.0"],
        "kubernetes-internal-ip",
        &["--node-internal-ip", "10.4.0.1"],
        &["Invalid IP autodetection method: kubernetes-internal-ip"],
    );
}

#[test]
fn semantics_lists_default_excludes_only_where_they_apply() {
    let f = common::fixture("incident-nerdctl.pcap");
    for (method, applies) in [
        ("first-found", true),
        ("skip-interface=x", true),
        ("interface=ens.*", false),
        ("cidr=10.0.0.0/8", false),
        ("can-reach=8.8.8.8", false),
    ] {
        let text = common::stdout_ok(&["detect", "--method", method, f.to_str().expect("path")]);
        let semantics = text
            .lines()
            .find(|l| l.trim_start().starts_with("semantics:"))
            .expect("semantics line");
        assert_eq!(
            semantics.contains("default excludes ("),
            applies,
            "{method}: {semantics}"
        );
    }
    let out = common::nlorder(&[
        "detect",
        "--method",
        "kubernetes-internal-ip",
        "--node-internal-ip",
        "10.4.0.1",
        f.to_str().expect("path"),
    ]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("default excludes ("));
}
