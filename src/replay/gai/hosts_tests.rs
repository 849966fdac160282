//! The hosts file and host.conf as glibc's files backend reads them
//! (nss/nss_files/files-hosts.c, files-parse.c, nss_readline.c,
//! resolv/res_hconf.c); `cli/tests/gai_hosts.rs` holds the same rules
//! against the real glibc's `getaddrinfo`.

use std::net::IpAddr;

use super::*;
use crate::model::{AddrEntry, LinkEntry, Model, Origin};
use crate::netlink::values::Scope;

fn ip(s: &str) -> IpAddr {
    s.parse().expect("ip")
}

fn found(l: &Lookup) -> Vec<(IpAddr, usize)> {
    l.found.iter().map(|f| (f.address, f.line)).collect()
}

fn why(l: &Lookup) -> Vec<(usize, NotReturnedWhy)> {
    l.not_returned.iter().map(|n| (n.line, n.why.clone())).collect()
}

const FILE: &[u8] = b"127.0.0.1 localhost\n\
    \n\
    # a comment: 10.0.0.9 node1\n\
    \t  10.0.0.1\tweb  NODE1   # the first\n\
    10.0.0.2 node1#glued comment\n\
    10.0.0.3#glued node1\n\
    fe80::1%eth0 node1\n\
    bogus node1\n\
    2001:db8::1 node1.example node1\r\n\
    ::ffff:10.0.0.4 node1\n\
    ::1 node1\n\
    10.0.0.1 node1\n\
    10.0.0.5\0 node1\n\
    10.0.0.6\n\
    10.0.0.7 node10 xnode1";

#[test]
fn lines_fields_and_comments() {
    let f = HostsFile::parse(FILE);
    let numbers: Vec<usize> = f.lines.iter().map(|l| l.number).collect();
    // blank and comment lines are left out; every other line is kept
    assert_eq!(numbers, [1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    let l4 = &f.lines[1];
    assert_eq!(l4.address, Ok(ip("10.0.0.1")));
    assert_eq!(l4.names, [b"web".to_vec(), b"NODE1".to_vec()]);
    assert_eq!(l4.text, "10.0.0.1\tweb  NODE1   # the first");
    // `#` ends a line anywhere, even inside a field
    assert_eq!(f.lines[2].names, [b"node1".to_vec()]);
    assert_eq!(f.lines[3].address, Ok(ip("10.0.0.3")));
    assert!(f.lines[3].names.is_empty());
    assert_eq!(f.lines[4].address, Err(BadAddress::ScopeId("fe80::1%eth0".into())));
    assert_eq!(f.lines[5].address, Err(BadAddress::NotAnAddress("bogus".into())));
    // `\r` is white space
    assert_eq!(f.lines[6].names, [b"node1.example".to_vec(), b"node1".to_vec()]);
    // a NUL ends the C string: its names are not read
    assert!(f.lines[10].names.is_empty());
    // an address alone names nothing
    assert!(f.lines[11].names.is_empty());
}

#[test]
fn first_line_only_without_multi() {
    let f = HostsFile::parse(FILE);
    let l = f.lookup("node1", Asked::Both, false);
    assert_eq!(found(&l), [(ip("10.0.0.1"), 4)]);
    assert_eq!(
        why(&l),
        [
            (5, NotReturnedWhy::AfterFirst),
            (
                7,
                NotReturnedWhy::BadAddress(BadAddress::ScopeId("fe80::1%eth0".into()))
            ),
            (8, NotReturnedWhy::BadAddress(BadAddress::NotAnAddress("bogus".into()))),
            (9, NotReturnedWhy::AfterFirst),
            (10, NotReturnedWhy::AfterFirst),
            (11, NotReturnedWhy::AfterFirst),
            (12, NotReturnedWhy::AfterFirst),
        ]
    );
}

#[test]
fn every_line_with_multi_duplicates_kept() {
    let f = HostsFile::parse(FILE);
    let l = f.lookup("Node1", Asked::Both, true);
    assert_eq!(
        l.addresses(),
        [
            ip("10.0.0.1"),
            ip("10.0.0.2"),
            ip("2001:db8::1"),
            ip("::ffff:10.0.0.4"),
            ip("::1"),
            ip("10.0.0.1"),
        ]
    );
    assert!(l.found.iter().all(|f| f.read_as == ReadAs::Written));
    // a name is matched whole: node10 and xnode1 are other names
    assert!(!f.names("node"));
    assert!(f.names("NODE10"));
    assert_eq!(f.lookup("web", Asked::Both, true).addresses(), [ip("10.0.0.1")]);
}

#[test]
fn ipv4_asked_reads_mapped_and_loopback_as_ipv4() {
    let f = HostsFile::parse(FILE);
    let l = f.lookup("node1", Asked::Ipv4, true);
    let got: Vec<(IpAddr, ReadAs)> = l.found.iter().map(|f| (f.address, f.read_as)).collect();
    assert_eq!(
        got,
        [
            (ip("10.0.0.1"), ReadAs::Written),
            (ip("10.0.0.2"), ReadAs::Written),
            (ip("10.0.0.4"), ReadAs::Ipv4OfMapped),
            (ip("127.0.0.1"), ReadAs::Ipv4OfLoopback),
            (ip("10.0.0.1"), ReadAs::Written),
        ]
    );
    assert!(why(&l).contains(&(9, NotReturnedWhy::OtherFamily(Asked::Ipv4))));
    // without multi: the first line with an IPv4 reading
    let v6_first = HostsFile::parse(b"2001:db8::1 n\n::1 n\n10.0.0.1 n\n");
    assert_eq!(v6_first.lookup("n", Asked::Ipv4, false).addresses(), [ip("127.0.0.1")]);
    assert_eq!(
        v6_first.lookup("n", Asked::Both, false).addresses(),
        [ip("2001:db8::1")]
    );
}

#[test]
fn ipv6_asked_drops_mapped_answers_or_maps_ipv4_lines() {
    let f = HostsFile::parse(FILE);
    let l = f.lookup("node1", Asked::Ipv6, true);
    assert_eq!(l.addresses(), [ip("2001:db8::1"), ip("::1")]);
    assert!(why(&l).contains(&(10, NotReturnedWhy::MappedDropped)));
    assert!(why(&l).contains(&(4, NotReturnedWhy::OtherFamily(Asked::Ipv6))));
    // no IPv6 line names it: the IPv4 lines, mapped
    let v4 = HostsFile::parse(b"10.0.0.1 n\n10.0.0.2 n\n");
    let l = v4.lookup("n", Asked::Ipv6, true);
    assert_eq!(l.addresses(), [ip("::ffff:10.0.0.1"), ip("::ffff:10.0.0.2")]);
    assert!(l.found.iter().all(|f| f.read_as == ReadAs::MappedIpv4));
    // only a mapped line: it answers, then is dropped; IPv4 is not asked
    let mapped = HostsFile::parse(b"::ffff:10.0.0.1 n\n10.0.0.2 n\n");
    assert!(mapped.lookup("n", Asked::Ipv6, true).found.is_empty());
}

#[test]
fn address_grammar_is_inet_ptons() {
    let f = HostsFile::parse(
        b"01.2.3.4 n\n1.2.3 n\n198.51.100.300 n\n1:2:3:4:5:6:7:: n\n::ffff:1.2.3.4.5 n\n1:2:3:4:5:6:7:8:9 n\n0.0.0.0 n\n",
    );
    let ok: Vec<bool> = f.lines.iter().map(|l| l.address.is_ok()).collect();
    assert_eq!(ok, [false, false, false, true, false, false, true]);
}

#[test]
fn host_conf_multi() {
    let multi = |t: &str| HostConf::parse(t.as_bytes()).multi;
    assert!(!multi(""));
    assert!(multi("multi on\n"));
    assert!(multi("  MULTI\tOn  # comment\n"));
    // strncasecmp(args, "on", 2): anything that starts with `on`
    assert!(multi("multi onward\n"));
    assert!(!multi("multi on\nmulti off\n"));
    assert!(multi("multi off\nmulti on"));
    // no value, or a comma glued to the keyword: the line is rejected
    assert!(multi("multi on\nmulti\n"));
    assert!(multi("multi on\nmulti,off\n"));
    assert!(!multi("# multi on\n"));
    let c = HostConf::parse(b"order hosts,bind\ntrim example.com\nreorder on\nnospoof on\nmulti\nmulti yes\n");
    assert_eq!(
        c.ignored,
        [
            (4, "nospoof on".to_owned()),
            (5, "multi".to_owned()),
            (6, "multi yes".to_owned())
        ]
    );
}

fn host(addrs: &[&str]) -> Model {
    let entries = addrs
        .iter()
        .map(|a| {
            let len = if a.contains(':') { 64 } else { 24 };
            AddrEntry::kernel_made(2, ip(a), len, Scope::Universe, None, Origin::Inferred(0))
        })
        .collect();
    Model::from_tables(
        vec![LinkEntry::placeholder(2, Origin::Inferred(0))],
        entries,
        Vec::new(),
    )
}

#[test]
fn addrconfig_asks_the_family_the_host_has() {
    let lo = ["127.0.0.1", "::1"];
    assert_eq!(asked(&host(&["10.0.0.1", "2001:db8::1"]), false), Asked::Both);
    assert_eq!(asked(&host(&["10.0.0.1", "2001:db8::1"]), true), Asked::Both);
    assert_eq!(asked(&host(&[lo[0], lo[1], "10.0.0.1"]), true), Asked::Ipv4);
    assert_eq!(asked(&host(&[lo[0], lo[1], "fe80::1"]), true), Asked::Ipv6);
    assert_eq!(asked(&host(&lo), true), Asked::Both);
    // only 127.0.0.1 is not counted: another loopback address is
    assert_eq!(asked(&host(&["127.0.0.2", "::1", "fe80::1"]), true), Asked::Both);
}
