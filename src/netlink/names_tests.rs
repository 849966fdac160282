//! Unit tests of `names`.

use super::*;

#[test]
fn type_names() {
    assert_eq!(message_type(20), "RTM_NEWADDR");
    assert_eq!(message_type(22), "RTM_GETADDR");
    assert_eq!(message_type(25), "RTM_DELROUTE");
    assert_eq!(message_type(3), "NLMSG_DONE");
    assert_eq!(message_type(24), "RTM_NEWROUTE");
    assert_eq!(message_type(28), "RTM_NEWNEIGH");
    assert_eq!(message_type(80), "RTM_NEWNETCONF");
    assert_eq!(message_type(104), "RTM_NEWNEXTHOP");
    assert_eq!(message_type(112), "RTM_NEWVLAN");
    assert_eq!(message_type(60), "TYPE_60");
    assert_eq!(message_type(u16::MAX), "TYPE_65535");
}

#[test]
fn flag_names_depend_on_kind() {
    assert_eq!(message_flags(RTM_GETADDR, 0x301), ["REQUEST", "ROOT", "MATCH"]);
    assert_eq!(message_flags(RTM_NEWADDR, 0x601), ["REQUEST", "EXCL", "CREATE"]);
    assert_eq!(message_flags(RTM_NEWADDR, 0x2), ["MULTI"]);
    assert_eq!(message_flags(NLMSG_ERROR, 0x100), ["CAPPED"]);
}

#[test]
fn address_flag_bit0_depends_on_family() {
    assert_eq!(
        address_flags(super::super::values::AddressFamily::Inet, 0x81),
        ["secondary", "permanent"]
    );
    assert_eq!(
        address_flags(super::super::values::AddressFamily::Inet6, 0x81),
        ["temporary", "permanent"]
    );
}
