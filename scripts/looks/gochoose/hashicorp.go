package main

import (
	"bytes"
	"fmt"
	"net"
	"sort"
	"syscall"
)

// --- Consul -----------------------------------------------------------------

// hashicorp/consul ipaddr/detect.go privateBlocks (current: with
// 192.0.0.0/24 and 192.0.2.0/24, which pre-1.2 consul lacked).
var consulPrivateBlocks = mustCIDRs(
	"10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
	"192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16",
	"::1/128", "fe80::/10", "fc00::/7", "fec0::/10", "2001:db8::/32",
)

// chooseConsul replays Consul's advertise address when bind_addr is the
// default 0.0.0.0 and advertise is unset: hashicorp/consul
// agent/config/builder.go (advertiseAddrFunc -> ipaddr.GetPrivateIPv4, then
// exactly one required) and ipaddr/detect.go activeInterfaceAddresses:
// net.Interfaces() in order, up ones; addresses of up loopback interfaces
// are used only when the up non-loopback ones have no address at all (of
// any family); IPv4 addresses in privateBlocks.
func chooseConsul(map[string]string) Result {
	intfs, err := net.Interfaces()
	if err != nil {
		return failf("Error detecting %s address: %s", "private IPv4", fmt.Sprintf("Failed to get interface addresses: %v", fmt.Errorf("Failed to get interfaces: %v", err)))
	}
	type owned struct {
		addr  net.Addr
		iface string
	}
	var up, lo []owned
	for _, intf := range intfs {
		if intf.Flags&net.FlagUp == 0 {
			continue
		}
		addrs, err := intf.Addrs()
		if err != nil {
			return failf("Error detecting %s address: Failed to get interface addresses: Failed to get interface addresses: %v", "private IPv4", err)
		}
		for _, a := range addrs {
			if intf.Flags&net.FlagLoopback != 0 {
				lo = append(lo, owned{a, intf.Name})
			} else {
				up = append(up, owned{a, intf.Name})
			}
		}
	}
	use := up
	if len(up) == 0 {
		use = lo
	}
	var found []owned
	for _, o := range use {
		var ip net.IP
		switch a := o.addr.(type) {
		case *net.IPAddr:
			ip = a.IP
		case *net.IPNet:
			ip = a.IP
		default:
			continue
		}
		if ip.To4() == nil {
			continue
		}
		private := false
		for _, b := range consulPrivateBlocks {
			if b.Contains(ip) {
				private = true
				break
			}
		}
		if private {
			found = append(found, owned{&net.IPAddr{IP: ip}, o.iface})
		}
	}
	switch len(found) {
	case 0:
		return failf("No %s address found", "private IPv4")
	case 1:
		return ok(found[0].iface, found[0].addr.(*net.IPAddr).IP)
	}
	return failf("Multiple %s addresses found. Please configure one with 'bind' and/or 'advertise'.", "private IPv4")
}

// --- Nomad: hashicorp/go-sockaddr GetPrivateIP -------------------------------

type sockIfAddr struct {
	ip    net.IP // 4 bytes for IPv4, 16 for IPv6
	ones  int
	bits  int
	iface net.Interface
}

func (a sockIfAddr) is4() bool { return len(a.ip) == net.IPv4len }

func (a sockIfAddr) mask() net.IPMask { return net.CIDRMask(a.ones, a.bits) }

// sockContains is go-sockaddr's IPv4Addr/IPv6Addr Contains: the whole
// network of sa (its address under its own mask) lies inside block.
func sockContains(block *net.IPNet, sa sockIfAddr) bool {
	bOnes, bBits := block.Mask.Size()
	if bBits != sa.bits {
		return false
	}
	return sa.ones >= bOnes && block.Contains(sa.ip)
}

func sockIsRFC(blocks []*net.IPNet, sa sockIfAddr) bool {
	for _, b := range blocks {
		if sockContains(b, sa) {
			return true
		}
	}
	return false
}

// go-sockaddr rfc.go KnownRFCs()[6890] (the uncommented entries).
var sockRFC6890 = mustCIDRs(
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
	"172.16.0.0/12", "192.0.0.0/24", "192.0.0.0/29", "192.0.2.0/24", "192.88.99.0/24",
	"192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4",
	"255.255.255.255/32",
	"::1/128", "::/128", "64:ff9b::/96", "::ffff:0:0/96", "100::/64", "2001::/16",
	"2002::/16", "fc00::/7", "fe80::/10",
)

// go-sockaddr rfc.go KnownRFCs()[ForwardingBlacklist].
var sockForwardingBlacklist = mustCIDRs(
	"0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16", "192.0.0.0/24", "192.0.2.0/24",
	"198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32",
	"::1/128", "::/128", "::ffff:0:0/96", "2001:db8::/32", "2001:10::/28", "fe80::/10",
)

// sockDefaultIfName emulates go-sockaddr route_info_linux.go
// GetDefaultInterfaceName, which runs `ip route` (IPv4, main table, dump
// order) and takes the first line whose whitespace-split fields read
// "default via GW dev NAME". Read from netlink instead: the line iproute2
// prints starts that way only for a unicast route with dst length 0, no
// RTA_NH_ID, no RTA_ENCAP, tos 0, an IPv4 RTA_GATEWAY (not RTA_VIA, not
// multipath) and an RTA_OIF.
func sockDefaultIfName() (string, error) {
	all, err := RouteDump(syscall.AF_INET)
	if err != nil {
		return "", err
	}
	for _, r := range all {
		if r.Family != syscall.AF_INET || r.Table != syscall.RT_TABLE_MAIN || r.Flags&syscall.RTM_F_CLONED != 0 {
			continue
		}
		if r.Type != syscall.RTN_UNICAST || r.DstLen != 0 || r.NhID || r.Encap || r.Tos != 0 {
			continue
		}
		if r.Gw == nil || r.OIF == 0 {
			continue
		}
		if ifc, err := net.InterfaceByIndex(r.OIF); err == nil {
			return ifc.Name, nil
		}
		return fmt.Sprintf("if%d", r.OIF), nil
	}
	return "", fmt.Errorf("no default interface found")
}

// sockSorter is OrderedIfAddrBy(AscIfDefault, AscIfType, AscIfNetworkSize)
// run through sort.Sort, as GetPrivateInterfaces does (not stable: the
// same pdqsort as upstream's Go, insertion sort up to 12 elements).
type sockSorter struct {
	addrs   []sockIfAddr
	defName string
	defErr  error
}

func (s *sockSorter) Len() int      { return len(s.addrs) }
func (s *sockSorter) Swap(i, j int) { s.addrs[i], s.addrs[j] = s.addrs[j], s.addrs[i] }

func (s *sockSorter) cmpDefault(p, q sockIfAddr) int {
	if s.defErr != nil {
		return 0
	}
	switch {
	case p.iface.Name == s.defName && q.iface.Name == s.defName:
		return 0
	case p.iface.Name == s.defName:
		return -1
	case q.iface.Name == s.defName:
		return 1
	}
	return 0
}

func cmpType(p, q sockIfAddr) int {
	tp, tq := 0x4, 0x4
	if p.is4() {
		tp = 0x2
	}
	if q.is4() {
		tq = 0x2
	}
	switch {
	case tp < tq:
		return -1
	case tp > tq:
		return 1
	}
	return 0
}

func cmpNetworkSize(p, q sockIfAddr) int {
	if p.is4() != q.is4() {
		return 0
	}
	return bytes.Compare(p.mask(), q.mask())
}

func (s *sockSorter) Less(i, j int) bool {
	p, q := s.addrs[i], s.addrs[j]
	for _, c := range []int{s.cmpDefault(p, q), cmpType(p, q)} {
		if c == -1 {
			return true
		}
		if c == 1 {
			return false
		}
	}
	return cmpNetworkSize(p, q) == -1
}

// chooseNomad replays hashicorp/go-sockaddr ifaddr.go GetPrivateIP ->
// ifaddrs.go GetPrivateInterfaces, what Nomad's default advertise address
// ("{{ GetPrivateIP }}") evaluates to: GetAllInterfaces (net.Interfaces()
// and Addrs() in order), IP addresses, "forwardable" (the address's network
// not inside the forwarding blacklist), interface up, sorted default-route
// interface first, IPv4 before IPv6, shorter mask first, then the first
// whose network lies inside an RFC 6890 block. None: "" and no error.
func chooseNomad(map[string]string) Result {
	intfs, err := net.Interfaces()
	if err != nil {
		return fail(err)
	}
	var all []sockIfAddr
	for _, intf := range intfs {
		addrs, err := intf.Addrs()
		if err != nil {
			return fail(err)
		}
		for _, a := range addrs {
			ip, ipn, err := net.ParseCIDR(a.String())
			if err != nil {
				return failf("unable to create an IP address from %q", a.String())
			}
			ones, bits := ipn.Mask.Size()
			if v4 := ip.To4(); v4 != nil && bits == 32 {
				ip = v4
			}
			all = append(all, sockIfAddr{ip: ip, ones: ones, bits: bits, iface: intf})
		}
	}
	var cands []sockIfAddr
	for _, a := range all {
		if sockIsRFC(sockForwardingBlacklist, a) {
			continue
		}
		if a.iface.Flags&net.FlagUp == 0 {
			continue
		}
		cands = append(cands, a)
	}
	if len(cands) == 0 {
		return Result{}
	}
	name, derr := sockDefaultIfName()
	sort.Sort(&sockSorter{addrs: cands, defName: name, defErr: derr})
	for _, a := range cands {
		if sockIsRFC(sockRFC6890, a) {
			return ok(a.iface.Name, a.ip)
		}
	}
	return Result{}
}
