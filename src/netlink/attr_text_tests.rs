//! Unit tests of `attr_text`.

use super::*;
use crate::netlink::attr_value::typed;
use crate::netlink::names::{IFA_FLAGS, IFA_LABEL, IFLA_IFNAME};
use crate::netlink::wire::{ByteOrder, Messages};
use crate::testutil::netlink_payload;

fn texts(data: &[u8]) -> AttrList {
    let m = Messages::new(data, ByteOrder::Little)
        .next()
        .expect("a message")
        .expect("framed");
    attr_texts(&m)
}

#[test]
fn attributes_as_the_crate_decodes_them() {
    // links.l0.pcap packet 4: the link dump's first reply, lo.
    let list = texts(&netlink_payload("kernels/6.12/links.l0.pcap", 4));
    assert_eq!(list.error, None);
    assert_eq!(
        list.attrs.first(),
        Some(&AttrText {
            kind: IFLA_IFNAME,
            name: Some("IFLA_IFNAME"),
            value: AttrValue::Text("lo".into())
        })
    );
    // links.l0.pcap packet 5: NLMSG_DONE has no attribute list.
    let done = texts(&netlink_payload("kernels/6.12/links.l0.pcap", 5));
    assert_eq!(
        done,
        AttrList {
            attrs: Vec::new(),
            error: None
        }
    );
}

#[test]
fn raw_attributes_where_the_crate_refuses() {
    // pyroute2__nl0.pcap packet 10, first message (lo 127.0.0.1/8), with
    // its IFA_FLAGS attribute cut to 2 bytes, which the crate rejects.
    let mut data = netlink_payload("third-party/pyroute2__nl0.pcap", 10);
    data[48] = 6;
    let list = texts(&data);
    assert!(list.error.is_some(), "{list:?}");
    assert!(
        list.attrs.iter().all(|a| matches!(a.value, AttrValue::Raw(_))),
        "{list:?}"
    );
    assert!(list.attrs.contains(&AttrText {
        kind: IFA_LABEL,
        name: Some("IFA_LABEL"),
        value: AttrValue::Raw("6c6f00".into())
    }));
    assert!(list.attrs.iter().any(|a| a.kind == IFA_FLAGS), "{list:?}");
}

fn attr<'a>(list: &'a AttrList, name: &str) -> &'a AttrValue {
    &list.attrs.iter().find(|a| a.name == Some(name)).expect(name).value
}

fn record(fields: &[(&str, AttrValue)]) -> AttrValue {
    AttrValue::Record(fields.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
}

#[test]
fn values_are_typed_and_named() {
    use AttrValue::*;
    // links.l0.pcap packet 4: lo, as the 6.12 kernel dumps it.
    let lo = texts(&netlink_payload("kernels/6.12/links.l0.pcap", 4));
    assert_eq!(attr(&lo, "IFLA_MTU"), &Number(65536));
    assert_eq!(attr(&lo, "IFLA_ADDRESS"), &Text("00:00:00:00:00:00".into()));
    assert_eq!(attr(&lo, "IFLA_OPERSTATE"), &Text("Down".into()));
    assert_eq!(attr(&lo, "IFLA_QDISC"), &Text("noop".into()));
    assert!(
        matches!(attr(&lo, "IFLA_STATS64"), Record(f) if f.iter().any(|(k, v)| k == "rx_packets" && matches!(v, Number(_))))
    );
    // multipath.pcapng packet 10: the dump of a namespace's routes, the
    // IPv4 route with two weighted next hops (ip route add 198.51.100.0/24
    // nexthop via 10.1.0.1 dev mpa weight 1 nexthop via 10.2.0.1 dev mpb weight 2).
    let data = netlink_payload("multipath.pcapng", 10);
    let route = Messages::new(&data, ByteOrder::Little)
        .filter_map(Result::ok)
        .map(|m| attr_texts(&m))
        .find(|l| {
            l.attrs.iter().any(|a| {
                a.name == Some("RTA_MULTIPATH")
                    && matches!(&a.value, List(h) if h.len() == 2 && format!("{}", a.value).contains("10.1.0.1"))
            })
        })
        .expect("the multipath route");
    assert_eq!(attr(&route, "RTA_DST"), &Text("198.51.100.0".into()));
    let List(hops) = attr(&route, "RTA_MULTIPATH") else {
        panic!()
    };
    assert_eq!(
        hops[1],
        record(&[
            ("flags", Number(0)),
            ("hops", Number(1)),
            ("interface_index", Number(5)),
            (
                "attributes",
                List(vec![record(&[("Gateway", Text("10.2.0.1".into()))])])
            ),
        ])
    );
}

#[test]
fn cacheinfo_flags_and_unknown_attributes() {
    use AttrValue::*;
    // basic.pcap: an address dump reply carries IFA_CACHEINFO.
    let data = netlink_payload("kernels/6.12/links.l0.pcap", 4);
    let lo = texts(&data);
    // IFLA_MAX_PACING_OFFLOAD_HORIZON (66): newer than the crate, raw.
    if let Some(a) = lo.attrs.iter().find(|a| a.kind == 66) {
        assert!(matches!(a.value, Raw(_)), "{a:?}");
        assert_eq!(a.name, Some("IFLA_MAX_PACING_OFFLOAD_HORIZON"));
    }
    let addr = Messages::new(&netlink_payload("basic.pcap", 6), ByteOrder::Little)
        .filter_map(Result::ok)
        .map(|m| attr_texts(&m))
        .find(|l| l.attrs.iter().any(|a| a.name == Some("IFA_CACHEINFO")))
        .expect("an address with cache info");
    let Record(fields) = attr(&addr, "IFA_CACHEINFO") else {
        panic!()
    };
    let names: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["ifa_preferred", "ifa_valid", "cstamp", "tstamp"]);
    assert!(matches!(attr(&addr, "IFA_FLAGS"), List(f) if f.iter().all(|x| matches!(x, Text(_)))));
}

#[test]
fn debug_text_the_grammar_cannot_read_is_kept_and_marked() {
    assert_eq!(typed("Mtu(1500)", false), AttrValue::Number(1500));
    assert_eq!(typed("IfName(\"a\\\"b\")", false), AttrValue::Text("a\"b".into()));
    assert_eq!(typed("Weird(<1>)", false), AttrValue::Debug("Weird(<1>)".into()));
    assert_eq!(
        typed("Flags(AddressFlags(Permanent | Noprefixroute))", false),
        AttrValue::List(vec![
            AttrValue::Text("Permanent".into()),
            AttrValue::Text("Noprefixroute".into())
        ])
    );
}
