//! Unit tests of `values`: each name table round-trips through its numbers
//! and says what iproute2 says.

use super::*;

/// Every number of a u8 value converts to the value and back, a named
/// number to its named arm and an unnamed one to `Other`, whose name is the
/// number after the type's prefix; no two arms share a number or a name.
macro_rules! round_trips {
    ($ty:ident, $prefix:literal, $numbers:expr) => {{
        let mut names = std::collections::BTreeSet::new();
        for (value, number, text) in $ty::NAMED {
            assert_eq!($ty::from(*number), *value);
            assert_eq!(value.number(), *number);
            assert_eq!(value.name(), *text);
            assert!(names.insert(*text), "{text} twice");
            assert!(!matches!(value, $ty::Other(_)));
        }
        for n in $numbers {
            let v = $ty::from(n);
            assert_eq!(v.number(), n);
            let named = $ty::NAMED.iter().find(|(_, number, _)| *number == n);
            match named {
                Some((_, _, text)) => assert_eq!(v.to_string(), *text),
                None => {
                    assert!(matches!(v, $ty::Other(m) if m == n), "{n}");
                    assert_eq!(v.name(), format!("{}{n}", $prefix));
                }
            }
        }
    }};
}

#[test]
fn tables_round_trip() {
    round_trips!(AddressFamily, "af", 0..=u8::MAX);
    round_trips!(Scope, "", 0..=u8::MAX);
    round_trips!(RouteType, "", 0..=u8::MAX);
    round_trips!(RouteProtocol, "", 0..=u8::MAX);
    // (tables are kept as their number: `other` for the `Other` arm)
    let mut names = std::collections::BTreeSet::new();
    for (value, number, text) in TableId::NAMED {
        assert_eq!(TableId::from(*number), *value);
        assert_eq!(value.number(), *number);
        assert_eq!(value.name(), *text);
        assert!(names.insert(*text), "{text} twice");
        assert_eq!(value.other(), None);
    }
    for n in (0..=300).chain([u32::MAX - 1, u32::MAX]) {
        let v = TableId::from(n);
        assert_eq!(v.number(), n);
        match TableId::NAMED.iter().find(|(_, number, _)| *number == n) {
            Some((_, _, text)) => assert_eq!(v.to_string(), *text),
            None => {
                assert_eq!(v.other(), Some(n));
                assert_eq!(v.name(), n.to_string());
                assert_eq!(format!("{v:?}"), format!("Other({n})"));
            }
        }
    }
}

#[test]
fn order_and_hash_follow_the_numbers() {
    assert!(Scope::Universe < Scope::Other(100));
    assert!(Scope::Other(100) < Scope::Link);
    assert!(TableId::Main < TableId::from(1000));
    assert!(RouteProtocol::Other(17) > RouteProtocol::Dhcp);
}

#[test]
fn unnamed_families_read_af_n() {
    assert_eq!(AddressFamily::from(43).name(), "af43");
    assert_eq!(AddressFamily::Inet6.name(), "inet6");
    assert_eq!(AddressFamily::of([10, 0, 0, 1].into()), AddressFamily::Inet);
}

/// iproute2's names, `number name` per line, from the stock files it
/// installs (etc/iproute2/rt_protos, rt_scopes, rt_tables: its built-in
/// names are the same) and from `rtnl_rtntype_n2a` (ip/rtm_map.c), which
/// has no file.
const RT_PROTOS: &str = "0 unspec\n1 redirect\n2 kernel\n3 boot\n4 static\n8 gated\n9 ra\n10 mrt\n11 zebra\n\
    12 bird\n13 dnrouted\n14 xorp\n15 ntk\n16 dhcp\n18 keepalived\n42 babel\n99 openr\n186 bgp\n187 isis\n\
    188 ospf\n189 rip\n192 eigrp\n";
const RT_SCOPES: &str = "0 global\n255 nowhere\n254 host\n253 link\n200 site\n";
const RT_TABLES: &str = "255 local\n254 main\n253 default\n0 unspec\n";
const RTN_NAMES: &str = "0 none\n1 unicast\n2 local\n3 broadcast\n4 anycast\n5 multicast\n6 blackhole\n\
    7 unreachable\n8 prohibit\n9 throw\n10 nat\n11 xresolve\n";

/// `number name` lines (comments and blank lines skipped), sorted by number.
fn parse(text: &str) -> Vec<(u32, String)> {
    let mut out: Vec<(u32, String)> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.split_whitespace();
            let number = words.next().and_then(|n| n.parse().ok()).expect("a number");
            (number, words.next().expect("a name").to_owned())
        })
        .collect();
    out.sort();
    out
}

fn table<E, T: Copy + Into<u32>>(named: &[(E, T, &str)]) -> Vec<(u32, String)> {
    named
        .iter()
        .map(|(_, n, text)| ((*n).into(), (*text).to_owned()))
        .collect()
}

/// `ip`'s words for the route types.
fn ip_route_types() -> Vec<(u32, String)> {
    RouteType::NAMED
        .iter()
        .map(|(t, n, _)| (u32::from(*n), t.ip_name().into_owned()))
        .collect()
}

#[test]
fn names_are_iproute2s() {
    assert_eq!(table(RouteProtocol::NAMED), parse(RT_PROTOS));
    assert_eq!(table(Scope::NAMED), parse(RT_SCOPES));
    assert_eq!(table(TableId::NAMED), parse(RT_TABLES));
    assert_eq!(ip_route_types(), parse(RTN_NAMES));
    // nlorder's own word for RTN_UNSPEC; the others are ip's.
    assert_eq!(RouteType::Unspec.name(), "unspec");
    assert_eq!(RouteType::from(200).ip_name(), "200");
}

/// The installed iproute2's own files (Debian's iproute2 keeps them in
/// /etc/iproute2, newer releases in /usr/share/iproute2) name the same.
#[test]
fn names_are_the_installed_iproute2s() {
    let dir = ["/etc/iproute2", "/usr/share/iproute2"]
        .into_iter()
        .find(|d| std::path::Path::new(d).join("rt_protos").exists())
        .expect("iproute2's rt_protos (apt-get install iproute2)");
    let file = |name: &str| parse(&std::fs::read_to_string(format!("{dir}/{name}")).expect("readable"));
    assert_eq!(table(RouteProtocol::NAMED), file("rt_protos"));
    assert_eq!(table(Scope::NAMED), file("rt_scopes"));
    // rt_tables may name more tables of the host's own: ours must be there.
    let tables = file("rt_tables");
    for entry in table(TableId::NAMED) {
        assert!(tables.contains(&entry), "{entry:?}");
    }
}

#[test]
fn from_name_reads_back_every_name_ip_prints() {
    for (v, _, text) in RouteProtocol::NAMED {
        assert_eq!(RouteProtocol::from_name(text), Some(*v));
    }
    for (v, _, text) in Scope::NAMED {
        assert_eq!(Scope::from_name(text), Some(*v));
    }
    for (v, _, text) in RouteType::NAMED {
        assert_eq!(RouteType::from_name(text), Some(*v));
    }
    for (v, _, text) in TableId::NAMED {
        assert_eq!(TableId::from_name(text), Some(*v));
    }
    // a number without a name, as ip prints it
    assert_eq!(RouteProtocol::from_name("77"), Some(RouteProtocol::Other(77)));
    assert_eq!(TableId::from_name("100").map(TableId::number), Some(100));
    assert_eq!(AddressFamily::from_name("af3"), Some(AddressFamily::Other(3)));
    assert_eq!(RouteType::from_name("banana"), None);
}
