//! `gai NAME --hosts FILE` against the real glibc: in network namespaces
//! this test creates (both families, IPv4 only, IPv6 only, loopback only),
//! the tables are recorded, then for several hosts files (aliases in other
//! cases, comments, duplicates, IPv4 and IPv6 mixed, IPv4-mapped and
//! loopback lines, scope ids and other lines glibc skips, the same lines in
//! two orders) and host.conf files (none, `multi on`, `MULTI On` among other
//! keywords, `multi off` last), `getent ahosts node1` (AI_ADDRCONFIG) and
//! Python's `getaddrinfo` (AF_UNSPEC without it, as Go's cgo asks) run in a
//! private mount namespace (`unshare --mount`) with the files bind-mounted
//! over /etc/hosts, /etc/host.conf and /etc/nsswitch.conf; nlorder must
//! predict exactly the addresses they print, duplicates included, in their
//! order (`--addrconfig` for getent). The addresses are chosen so that many
//! tie on every rule but the last: their order is the hosts file's.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::net::IpAddr;
use std::path::Path;

use common::Netns;

/// The hosts: how each namespace is set up.
const SETUPS: &[(&str, &[&str])] = &[
    (
        "both families",
        &[
            "ip link add eth0 type veth peer name veth-eth0",
            "ip link set eth0 up",
            "ip link set veth-eth0 up",
            "ip addr add 172.18.45.2/24 dev eth0",
            "ip addr add 2001:db8::5/64 dev eth0 nodad",
            "ip route add default via 172.18.45.1 dev eth0",
            "ip -6 route add default via 2001:db8::1 dev eth0",
        ],
    ),
    (
        "IPv4 only",
        &[
            "sysctl -qw net.ipv6.conf.all.disable_ipv6=1",
            "sysctl -qw net.ipv6.conf.default.disable_ipv6=1",
            "sysctl -qw net.ipv6.conf.lo.disable_ipv6=1",
            "ip link add eth0 type veth peer name veth-eth0",
            "ip link set eth0 up",
            "ip link set veth-eth0 up",
            "ip addr add 172.18.45.2/24 dev eth0",
            "ip route add default via 172.18.45.1 dev eth0",
        ],
    ),
    (
        "IPv6 only",
        &[
            "ip link add eth0 type veth peer name veth-eth0",
            "ip link set eth0 up",
            "ip link set veth-eth0 up",
            "ip addr add 2001:db8::5/64 dev eth0 nodad",
            "ip -6 route add default via 2001:db8::1 dev eth0",
        ],
    ),
    ("loopback only", &[]),
];

/// Hosts files that name node1 (198.51.100.0/24 and 203.0.113.0/24 are
/// remote and tie with each other; so do the 2001:db8:1::/48 ones).
const HOSTS: &[(&str, &str)] = &[
    (
        "aliases and comments",
        "127.0.0.1 localhost\n\
         # node1's addresses\n\
         198.51.100.7   web.example  NODE1   # an alias, in capitals\n\
         \t  203.0.113.9\tNode1\n\
         198.51.100.3   node1.example node1\n\
         ::1 localhost ip6-localhost\n\
         198.51.100.4 node1.example\n\
         \x20  # 198.51.100.5 node1\n\
         198.51.100.6 node1\r\n",
    ),
    (
        "duplicates",
        "198.51.100.7 node1\n\
         198.51.100.3 node1\n\
         198.51.100.7 node1 node1\n\
         2001:db8:1::7 node1\n\
         2001:db8:1::7 NODE1\n",
    ),
    (
        "IPv6 first, mapped and loopback",
        "2001:db8:1::7 node1\n\
         198.51.100.7 node1\n\
         ::ffff:198.51.100.9 node1\n\
         ::1 node1\n\
         2001:db8:1::3 node1\n\
         203.0.113.2 node1\n",
    ),
    (
        "lines glibc skips",
        "fe80::1%eth0 node1\n\
         bogus node1\n\
         198.51.100.300 node1\n\
         01.2.3.4 node1\n\
         198.51.100.7#comment node1\n\
         198.51.100.8 node1#x\n\
         198.51.100.9 # node1\n\
         2001:db8:1:1:2:3:4:5:6 node1\n\
         ::ffff:1.2.3.4.5 node1\n\
         1:2:3:4:5:6:7:: node1\n\
         198.51.100.5 node1\n\
         198.51.100.6\0 node1\n\
         203.0.113.1 node1\n",
    ),
    ("IPv4 lines only", "198.51.100.9 node1\n198.51.100.1 node1 n1\n"),
    (
        "order a",
        "198.51.100.20 node1\n203.0.113.20 node1\n2001:db8:1::20 node1\n198.51.100.10 node1\n2001:db8:1::10 node1\n",
    ),
    (
        "order b",
        "2001:db8:1::10 node1\n198.51.100.10 node1\n2001:db8:1::20 node1\n203.0.113.20 node1\n198.51.100.20 node1\n",
    ),
];

/// host.conf files: (description, text, whether nlorder is given it).
const HOST_CONFS: &[(&str, &str, bool)] = &[
    ("no host.conf", "", false),
    ("multi on", "multi on\n", true),
    (
        "MULTI On among other keywords",
        "# glibc's keywords are case-insensitive\norder hosts,bind\nMULTI   On   # every line\nbogus line\n",
        true,
    ),
    ("multi off last", "multi on\nmulti off\n", true),
];

/// Python's getaddrinfo with Go's cgo hints (AF_UNSPEC, no AI_ADDRCONFIG):
/// every SOCK_STREAM answer, duplicates kept.
const GETADDRINFO: &str = r#"import socket, sys
try:
    r = socket.getaddrinfo(sys.argv[1], None, 0, socket.SOCK_STREAM, 0,
                           socket.AI_CANONNAME | socket.AI_V4MAPPED | socket.AI_ALL)
except socket.gaierror:
    r = []
print(' '.join(a[4][0] for a in r))
"#;

/// getent's STREAM lines, one per answer.
fn getent(ns: &Netns, dir: &Path) -> Vec<IpAddr> {
    let text = common::in_mounts(ns, dir, &["getent", "ahosts", "node1"]);
    text.lines()
        .filter(|l| l.split_whitespace().nth(1) == Some("STREAM"))
        .map(|l| {
            l.split_whitespace()
                .next()
                .unwrap()
                .parse()
                .expect("address from getent")
        })
        .collect()
}

fn python(ns: &Netns, dir: &Path) -> Vec<IpAddr> {
    common::in_mounts(ns, dir, &["python3", "-c", GETADDRINFO, "node1"])
        .split_whitespace()
        .map(|a| a.parse().expect("address from getaddrinfo"))
        .collect()
}

/// nlorder's predicted order for node1 in the case's files.
fn predicted(cap: &Path, dir: &Path, conf: bool, addrconfig: bool) -> Vec<IpAddr> {
    let hosts = dir.join("hosts");
    let host_conf = dir.join("host.conf");
    let mut args = vec![cap.to_str().unwrap(), "node1", "--hosts", hosts.to_str().unwrap()];
    if conf {
        args.extend(["--host-conf", host_conf.to_str().unwrap()]);
    }
    if addrconfig {
        args.push("--addrconfig");
    }
    let (v, code) = common::json_of("gai", &args);
    assert_eq!(code, Some(0), "{args:?}: {v}");
    serde_json::from_value(v["order"].clone()).expect("order")
}

#[test]
fn hosts_file_candidates_match_glibc() {
    if !common::can_run_netns(&["unshare", "getent"]) {
        return;
    }
    let root =
        common::TempDir(Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gai-hosts-{}", std::process::id())));
    let mut failures = Vec::new();
    // (setup, hosts, host.conf) -> getent's answer, for the checks that
    // the cases test something.
    let mut answers = std::collections::BTreeMap::new();
    let mut python_differs = 0;
    for (s, (setup, commands)) in SETUPS.iter().enumerate() {
        let ns = Netns::new(&format!("gaihosts{s}"));
        ns.sh("ip link set lo up");
        for c in *commands {
            ns.sh(c);
        }
        let cap = root.0.join(format!("setup{s}.pcap"));
        std::fs::create_dir_all(&root.0).unwrap();
        ns.record(&cap).unwrap_or_else(|e| panic!("{e}"));
        for (h, (hosts_name, hosts)) in HOSTS.iter().enumerate() {
            for (c, (conf_name, conf, given)) in HOST_CONFS.iter().enumerate() {
                let dir = root.0.join(format!("s{s}-h{h}-c{c}"));
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("hosts"), hosts).unwrap();
                std::fs::write(dir.join("host.conf"), conf).unwrap();
                std::fs::write(dir.join("nsswitch.conf"), "hosts: files\n").unwrap();
                let case = format!("{setup}, {hosts_name}, {conf_name}");
                let glibc = getent(&ns, &dir);
                let ours = predicted(&cap, &dir, *given, true);
                if glibc != ours {
                    failures.push(format!(
                        "{case}, getent ahosts:\n  glibc:   {glibc:?}\n  nlorder: {ours:?}"
                    ));
                }
                let unspec = python(&ns, &dir);
                let ours = predicted(&cap, &dir, *given, false);
                if unspec != ours {
                    failures.push(format!(
                        "{case}, getaddrinfo AF_UNSPEC:\n  glibc:   {unspec:?}\n  nlorder: {ours:?}"
                    ));
                }
                python_differs += usize::from(unspec != glibc);
                answers.insert((*setup, *hosts_name, *conf_name), glibc);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The cases must test something: multi changes what glibc returns, the
    // hosts file's order shows through the sort, and AI_ADDRCONFIG changes
    // the answer on a host with one family.
    // (same answer?, (hosts file, host.conf) of one, of the other), all on
    // the host with both families
    for (same, (h1, c1), (h2, c2)) in [
        (false, ("duplicates", "no host.conf"), ("duplicates", "multi on")),
        (true, ("duplicates", "multi off last"), ("duplicates", "no host.conf")),
        (
            true,
            ("duplicates", "MULTI On among other keywords"),
            ("duplicates", "multi on"),
        ),
        (false, ("order a", "multi on"), ("order b", "multi on")),
    ] {
        let (a, b) = (
            &answers[&("both families", h1, c1)],
            &answers[&("both families", h2, c2)],
        );
        assert_eq!(a == b, same, "{h1}/{c1}: {a:?}, {h2}/{c2}: {b:?}");
    }
    assert!(python_differs > 0, "AI_ADDRCONFIG never changed glibc's answer");
    eprintln!(
        "glibc agreed on {} hosts-file cases ({python_differs} where AI_ADDRCONFIG changed the answer)",
        answers.len()
    );
}
