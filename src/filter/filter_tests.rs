use std::borrow::Cow;
use std::collections::HashMap;

use super::*;

/// A record with the given field values.
struct Rec(HashMap<Field, Value<'static>>);

impl Fields for Rec {
    fn field(&self, f: Field) -> Option<Value<'_>> {
        self.0.get(&f).cloned()
    }
}

fn rec() -> Rec {
    Rec(HashMap::from([
        (Field::Packet, Value::Number(12.0)),
        (Field::Type, Value::Named(20, Cow::Borrowed("RTM_NEWADDR"))),
        (Field::Dev, Value::Text(Cow::Borrowed("eth0"))),
        (Field::Addr, Value::Ip("10.1.2.3".parse().unwrap())),
        (Field::Multi, Value::Bool(false)),
        (Field::Dir, Value::Text(Cow::Borrowed("notification"))),
    ]))
}

fn keeps(expr: &str) -> bool {
    Filter::parse(expr, Field::MESSAGE).unwrap().matches(&rec())
}

#[test]
fn comparisons_by_name_number_prefix_and_set() {
    for yes in [
        "type == RTM_NEWADDR",
        "type == rtm_newaddr",
        "type == 20",
        "type >= 20 && type < 21",
        "dev == \"eth0\"",
        "dev eq eth0",
        "dev contains th",
        "dev matches \"^eth[0-9]$\"",
        "dev ~ eth",
        "addr == 10.0.0.0/8",
        "addr != 192.168.0.0/16",
        "addr == 10.1.2.3",
        "packet in {1..3 12}",
        "packet in {1, 12}",
        "type in {RTM_NEWLINK, RTM_NEWADDR}",
        "notification",
        "!request && not reply",
        "dev",
        "!multi",
        "multi == false",
        "(packet == 1 || packet == 12) and dev == eth0",
    ] {
        assert!(keeps(yes), "{yes}");
    }
    for no in [
        "type == RTM_NEWLINK",
        "type != 20",
        "dev == eth1",
        "addr == 10.1.2.4",
        "addr == fe80::/10",
        "packet in {1..3}",
        "multi",
        "scope",
        "scope == global",
        "errno",
        "request",
        "!(dev == eth0)",
    ] {
        assert!(!keeps(no), "{no}");
    }
}

#[test]
fn mistakes_are_refused_with_their_column() {
    let err = |e: &str| Filter::parse(e, Field::MESSAGE).unwrap_err();
    assert!(matches!(err("typ == 3"), FilterError::UnknownField { column: 1, .. }));
    assert!(matches!(
        err("packet == 1 && bogus"),
        FilterError::UnknownField { column: 16, .. }
    ));
    assert!(matches!(
        err("ifindex == eth0"),
        FilterError::BadLiteral {
            column: 12,
            why: LiteralProblem::NotANumber,
            ..
        }
    ));
    assert!(matches!(
        err("dev < eth0"),
        FilterError::BadLiteral {
            why: LiteralProblem::NoOrder,
            ..
        }
    ));
    assert!(matches!(
        err("addr == 10.0.0.256"),
        FilterError::BadLiteral {
            why: LiteralProblem::NotAnAddress,
            ..
        }
    ));
    assert!(matches!(
        err("dev matches \"(\""),
        FilterError::BadLiteral {
            why: LiteralProblem::BadRegex,
            ..
        }
    ));
    assert!(matches!(err("packet == 1 )"), FilterError::Syntax { column: 13, .. }));
    assert!(matches!(err("(packet == 1"), FilterError::Syntax { .. }));
    assert!(matches!(err(""), FilterError::Syntax { .. }));
    let not_here = Filter::parse("program == go-net", Field::MESSAGE).unwrap_err();
    assert!(matches!(
        not_here,
        FilterError::NotHere {
            field: Field::Program,
            ..
        }
    ));
    assert!(Filter::parse("program == go-net", Field::REQUEST).is_ok());
}

#[test]
fn tshark_names_are_accepted() {
    assert!(keeps("frame.number == 12 && netlink-route.nltype == 20"));
    assert_eq!(
        parse_fields(&["frame.number,netlink.hdr_seq".into(), "dev".into()], Field::MESSAGE).unwrap(),
        [Field::Packet, Field::Seq, Field::Dev]
    );
}

#[test]
fn every_field_of_a_listing_has_a_name_that_reads_back() {
    for f in Field::ALL {
        assert_eq!(Field::from_name(f.name()), Some(*f));
    }
    assert_eq!(Field::MESSAGE.last(), Some(&Field::Scope));
    assert!(Field::ALL.iter().enumerate().all(|(i, f)| *f as usize == i));
    for list in [Field::MESSAGE, Field::CHANGE, Field::REQUEST] {
        assert!(list.iter().all(|f| Field::ALL.contains(f)));
    }
}

#[test]
fn program_names_are_the_json_names() {
    for &l in crate::looks::Library::ALL {
        assert_eq!(serde_json::to_value(l).unwrap(), serde_json::Value::from(l.id()));
    }
}

#[test]
fn every_named_value_is_taken_and_a_misspelling_is_not() {
    for &f in Field::ALL {
        for (_, name) in f.values().unwrap_or_default() {
            let listing = [Field::MESSAGE, Field::CHANGE, Field::REQUEST]
                .into_iter()
                .find(|l| l.contains(&f))
                .unwrap();
            let expr = format!("{} == \"{name}\"", f.name());
            assert!(Filter::parse(&expr, listing).is_ok(), "{expr}");
            let wrong = format!("{} == \"{name}x\"", f.name());
            let err = Filter::parse(&wrong, listing).unwrap_err();
            assert!(matches!(err, FilterError::UnknownValue { .. }), "{wrong}: {err}");
        }
    }
}
