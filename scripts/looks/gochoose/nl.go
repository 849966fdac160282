package main

// Host reading through rtnetlink, in the kernel's dump order, shaped the way
// vishvananda/netlink hands links, addresses and routes to the programs
// replayed here (LinkList, AddrList, RouteList). Standard library only.

import (
	"encoding/binary"
	"net"
	"syscall"
	"unsafe"
)

// Values the syscall package does not name.
const (
	iflaOperstate = 16 // IFLA_OPERSTATE
	iflaLinkinfo  = 18 // IFLA_LINKINFO
	iflaInfoKind  = 1  // IFLA_INFO_KIND
	ifaFlagsAttr  = 8  // IFA_FLAGS
	rtaTable      = 15 // RTA_TABLE
	rtaVia        = 18 // RTA_VIA
	rtaNhID       = 30 // RTA_NH_ID
	rtaEncap      = 22 // RTA_ENCAP

	ifaFSecondary  = 0x01
	ifaFDadfailed  = 0x08
	ifaFDeprecated = 0x20
	ifaFTentative  = 0x40
	ifaFPermanent  = 0x80

	operUnknown = 0
	operUp      = 6

	scopeUniverse = 0
	scopeSite     = 200
	scopeLink     = 253
	scopeHost     = 254
)

// Link is one RTM_NEWLINK of a link dump.
type Link struct {
	Index     int
	Name      string
	RawFlags  uint32 // ifi_flags
	OperState uint8
	Kind      string // IFLA_INFO_KIND, "" when absent
	Master    int
	HWAddr    []byte
	MTU       int
}

// Type is vishvananda/netlink's Link.Type(): the IFLA_INFO_KIND, or
// "device" when the link has none (lo and physical NICs); kind "tun" is
// its Tuntap ("tuntap").
func (l Link) Type() string {
	switch l.Kind {
	case "":
		return "device"
	case "tun":
		return "tuntap"
	}
	return l.Kind
}

// Up reports IFF_UP.
func (l Link) Up() bool { return l.RawFlags&syscall.IFF_UP != 0 }

// Addr is one RTM_NEWADDR, as vishvananda/netlink's AddrList returns it:
// IP is IFA_LOCAL when present (IFA_ADDRESS otherwise), Peer is IFA_ADDRESS
// when it differs (point-to-point), Flags is IFA_FLAGS when present else
// ifa_flags.
type Addr struct {
	Family    uint8
	PrefixLen int
	Flags     uint32
	Scope     uint8
	Index     int
	IP        net.IP // 4 bytes for IPv4, 16 for IPv6
	Peer      net.IP
	Label     string
}

// Route is one RTM_NEWROUTE of a route dump.
type Route struct {
	Family   uint8
	DstLen   uint8
	RtTable  uint8  // rtm_table
	Table    uint32 // RTA_TABLE, else rtm_table
	Protocol uint8
	Scope    uint8
	Type     uint8
	Flags    uint32
	Dst      net.IP // nil when no RTA_DST
	Gw       net.IP
	OIF      int
	PrefSrc  net.IP
	Priority uint32
	Multi    bool // RTA_MULTIPATH
	Via      bool // RTA_VIA (IPv4 via an IPv6 gateway)
	NhID     bool // RTA_NH_ID (nexthop object)
	Encap    bool // RTA_ENCAP
	Tos      uint8
}

// ribDump is one dump of proto (an RTM_GET* type) and the family: the
// replies of type reply (the RTM_NEW* type) long enough to hold its fixed
// header of size bytes, in dump order.
func ribDump(proto, family int, reply uint16, size int) ([]syscall.NetlinkMessage, error) {
	tab, err := syscall.NetlinkRIB(proto, family)
	if err != nil {
		return nil, err
	}
	msgs, err := syscall.ParseNetlinkMessage(tab)
	if err != nil {
		return nil, err
	}
	var out []syscall.NetlinkMessage
	for _, m := range msgs {
		if m.Header.Type == reply && len(m.Data) >= size {
			out = append(out, m)
		}
	}
	return out, nil
}

// ribRead is one dump as ribDump gives it, read entry by entry: read gets
// each reply's fixed header H and its attributes and says what the reply
// is and whether to keep it. A reply whose attributes do not parse ends
// the dump with that error, as vishvananda/netlink's parsers end it.
func ribRead[H, T any](proto, family int, reply uint16, read func(h *H, attrs []syscall.NetlinkRouteAttr) (T, bool)) ([]T, error) {
	var h H
	msgs, err := ribDump(proto, family, reply, int(unsafe.Sizeof(h)))
	if err != nil {
		return nil, err
	}
	var out []T
	for i := range msgs {
		m := &msgs[i]
		attrs, err := syscall.ParseNetlinkRouteAttr(m)
		if err != nil {
			return nil, err
		}
		if v, keep := read((*H)(unsafe.Pointer(&m.Data[0])), attrs); keep {
			out = append(out, v)
		}
	}
	return out, nil
}

func cstr(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// nestedAttrs splits a nested rtattr payload.
func nestedAttrs(b []byte) map[uint16][]byte {
	out := map[uint16][]byte{}
	for len(b) >= 4 {
		l := int(binary.LittleEndian.Uint16(b[0:2]))
		t := binary.LittleEndian.Uint16(b[2:4]) &^ 0x8000
		if l < 4 || l > len(b) {
			break
		}
		out[t] = b[4:l]
		al := (l + 3) &^ 3
		if al > len(b) {
			break
		}
		b = b[al:]
	}
	return out
}

func u32(b []byte) uint32 { return *(*uint32)(unsafe.Pointer(&b[0])) }

// LinkList is one RTM_GETLINK dump (AF_UNSPEC), in dump order.
func LinkList() ([]Link, error) {
	return ribRead(syscall.RTM_GETLINK, syscall.AF_UNSPEC, syscall.RTM_NEWLINK, func(ifi *syscall.IfInfomsg, attrs []syscall.NetlinkRouteAttr) (Link, bool) {
		l := Link{Index: int(ifi.Index), RawFlags: ifi.Flags}
		for _, a := range attrs {
			switch a.Attr.Type {
			case syscall.IFLA_IFNAME:
				l.Name = cstr(a.Value)
			case syscall.IFLA_MTU:
				if len(a.Value) >= 4 {
					l.MTU = int(u32(a.Value))
				}
			case syscall.IFLA_MASTER:
				if len(a.Value) >= 4 {
					l.Master = int(u32(a.Value))
				}
			case syscall.IFLA_ADDRESS:
				l.HWAddr = append([]byte(nil), a.Value...)
			case iflaOperstate:
				if len(a.Value) >= 1 {
					l.OperState = a.Value[0]
				}
			case iflaLinkinfo:
				if k, ok := nestedAttrs(a.Value)[iflaInfoKind]; ok {
					l.Kind = cstr(k)
				}
			}
		}
		return l, true
	})
}

// AddrList is one RTM_GETADDR dump of the family (AF_UNSPEC for both), in
// dump order, kept to the link index when index > 0: vishvananda/netlink's
// AddrList(link, family).
func AddrList(index int, family int) ([]Addr, error) {
	return ribRead(syscall.RTM_GETADDR, family, syscall.RTM_NEWADDR, func(ifa *syscall.IfAddrmsg, attrs []syscall.NetlinkRouteAttr) (Addr, bool) {
		if family != syscall.AF_UNSPEC && int(ifa.Family) != family {
			return Addr{}, false
		}
		if index > 0 && int(ifa.Index) != index {
			return Addr{}, false
		}
		a := Addr{Family: ifa.Family, PrefixLen: int(ifa.Prefixlen), Flags: uint32(ifa.Flags), Scope: ifa.Scope, Index: int(ifa.Index)}
		var local, address net.IP
		for _, at := range attrs {
			switch at.Attr.Type {
			case syscall.IFA_LOCAL:
				local = append(net.IP(nil), at.Value...)
			case syscall.IFA_ADDRESS:
				address = append(net.IP(nil), at.Value...)
			case syscall.IFA_LABEL:
				a.Label = cstr(at.Value)
			case ifaFlagsAttr:
				if len(at.Value) >= 4 {
					a.Flags = u32(at.Value)
				}
			}
		}
		// vishvananda/netlink (after libnl): IPv4 with IFA_LOCAL equal to
		// IFA_ADDRESS is a plain address; otherwise IFA_LOCAL is the
		// address and IFA_ADDRESS the peer.
		switch {
		case local != nil && ifa.Family == syscall.AF_INET && address != nil && local.Equal(address):
			a.IP = address
		case local != nil:
			a.IP = local
			a.Peer = address
		default:
			a.IP = address
		}
		return a, a.IP != nil
	})
}

// RouteDump is one RTM_GETROUTE dump of the family, every table, in dump
// order.
func RouteDump(family int) ([]Route, error) {
	return ribRead(syscall.RTM_GETROUTE, family, syscall.RTM_NEWROUTE, func(rt *syscall.RtMsg, attrs []syscall.NetlinkRouteAttr) (Route, bool) {
		r := Route{Family: rt.Family, DstLen: rt.Dst_len, RtTable: rt.Table, Table: uint32(rt.Table),
			Protocol: rt.Protocol, Scope: rt.Scope, Type: rt.Type, Flags: rt.Flags, Tos: rt.Tos}
		for _, a := range attrs {
			switch a.Attr.Type {
			case syscall.RTA_DST:
				r.Dst = append(net.IP(nil), a.Value...)
			case syscall.RTA_GATEWAY:
				r.Gw = append(net.IP(nil), a.Value...)
			case syscall.RTA_OIF:
				if len(a.Value) >= 4 {
					r.OIF = int(u32(a.Value))
				}
			case syscall.RTA_PREFSRC:
				r.PrefSrc = append(net.IP(nil), a.Value...)
			case syscall.RTA_PRIORITY:
				if len(a.Value) >= 4 {
					r.Priority = u32(a.Value)
				}
			case syscall.RTA_MULTIPATH:
				r.Multi = true
			case rtaTable:
				if len(a.Value) >= 4 {
					r.Table = u32(a.Value)
				}
			case rtaVia:
				r.Via = true
			case rtaNhID:
				r.NhID = true
			case rtaEncap:
				r.Encap = true
			}
		}
		return r, true
	})
}

// RouteList is vishvananda/netlink's RouteList(nil, family): the dump of
// the family, cloned entries dropped, only rtm_table == RT_TABLE_MAIN.
func RouteList(family int) ([]Route, error) {
	all, err := RouteDump(family)
	if err != nil {
		return nil, err
	}
	var out []Route
	for _, r := range all {
		if int(r.Family) != family && family != syscall.AF_UNSPEC {
			continue
		}
		if r.Flags&syscall.RTM_F_CLONED != 0 {
			continue
		}
		if r.RtTable != syscall.RT_TABLE_MAIN {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// isDefault is a route with no destination or a zero-length one
// (vishvananda/netlink leaves Dst nil for a default route).
func (r Route) isDefault() bool { return r.DstLen == 0 }

func linkByIndex(links []Link, idx int) (Link, bool) {
	for _, l := range links {
		if l.Index == idx {
			return l, true
		}
	}
	return Link{}, false
}

func linkByName(links []Link, name string) (Link, bool) {
	for _, l := range links {
		if l.Name == name {
			return l, true
		}
	}
	return Link{}, false
}
