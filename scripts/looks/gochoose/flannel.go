package main

import (
	"errors"
	"fmt"
	"net"
	"sort"
	"syscall"
)

// flannelSorted is true from flannel v0.28.0 (commit 97b6771a, "ip: improve
// primary address selection to account for address flags"), which also
// lower-cased pkg/ip's error strings.
func flannelSorted(opts map[string]string) bool {
	v := "0.28.0"
	if s, ok := opts["flannel-version"]; ok {
		v = s
	}
	pv, _ := parseVersion(v)
	return !versionLess(pv, [3]int{0, 28, 0})
}

// flannelMsg picks the pre-0.28 (capitalised) or 0.28+ wording.
func flannelMsg(sorted bool, old, new string) error {
	if sorted {
		return errors.New(new)
	}
	return errors.New(old)
}

// flannel-io/flannel pkg/ip/iface.go GetDefaultGatewayInterface /
// GetDefaultV6GatewayInterface: the first main-table route of the family
// (netlink.RouteList(nil, family), dump order) whose Dst is nil or the
// zero prefix; link index 0 (multipath, blackhole, ...) is an error.
func flannelDefaultGatewayInterface(family int, sorted bool) (*net.Interface, error) {
	routes, err := RouteList(family)
	if err != nil {
		return nil, err
	}
	for _, r := range routes {
		if !r.isDefault() {
			continue
		}
		if r.OIF <= 0 {
			if family == syscall.AF_INET {
				return nil, flannelMsg(sorted, "Found default route but could not determine interface", "found default route but could not determine interface")
			}
			return nil, flannelMsg(sorted, "Found default v6 route but could not determine interface", "found default v6 route but could not determine interface")
		}
		return net.InterfaceByIndex(r.OIF)
	}
	if family == syscall.AF_INET {
		return nil, flannelMsg(sorted, "Unable to find default route", "unable to find default route")
	}
	return nil, flannelMsg(sorted, "Unable to find default v6 route", "unable to find default v6 route")
}

// flannelCompareAddrs is flannel v0.28 pkg/ip/iface.go compareAddrs:
// global unicast before link-local, IFA_F_PERMANENT before not, not
// IFA_F_TEMPORARY (0x01, the IPv6 reading of IFA_F_SECONDARY) before
// temporary.
func flannelCompareAddrs(a, b Addr) int {
	ag, al := net.IP(a.IP).IsGlobalUnicast(), net.IP(a.IP).IsLinkLocalUnicast()
	bg, bl := net.IP(b.IP).IsGlobalUnicast(), net.IP(b.IP).IsLinkLocalUnicast()
	if ag && bl {
		return -1
	} else if al && bg {
		return 1
	}
	ap, bp := a.Flags&ifaFPermanent != 0, b.Flags&ifaFPermanent != 0
	if ap && !bp {
		return -1
	} else if !ap && bp {
		return 1
	}
	at, bt := a.Flags&ifaFSecondary != 0, b.Flags&ifaFSecondary != 0
	if !at && bt {
		return -1
	} else if at && !bt {
		return 1
	}
	return 0
}

// flannelInterfaceAddrs is GetInterfaceIP4Addrs / GetInterfaceIP6Addrs:
// netlink.AddrList(link, family) in dump order.
//
// Before v0.28: global unicast addresses in dump order, then link-local
// ones. From v0.28: slices.SortFunc(compareAddrs) (pdqsort; for up to 12
// addresses an insertion sort, hence stable; sort.Slice runs the same
// pdqsort), then global-or-link-local, non-deprecated addresses in that
// order.
func flannelInterfaceAddrs(iface *net.Interface, family int, sorted bool) ([]net.IP, error) {
	addrs, err := AddrList(iface.Index, family)
	if err != nil {
		return nil, err
	}
	var out []net.IP
	if sorted {
		sort.Slice(addrs, func(i, j int) bool { return flannelCompareAddrs(addrs[i], addrs[j]) < 0 })
		for _, a := range addrs {
			ip := net.IP(a.IP)
			if (ip.IsGlobalUnicast() || ip.IsLinkLocalUnicast()) && a.Flags&ifaFDeprecated == 0 {
				out = append(out, ip)
			}
		}
	} else {
		var ll []net.IP
		for _, a := range addrs {
			ip := net.IP(a.IP)
			if ip.IsGlobalUnicast() {
				out = append(out, ip)
				continue
			}
			if ip.IsLinkLocalUnicast() {
				ll = append(ll, ip)
			}
		}
		out = append(out, ll...)
	}
	if len(out) > 0 {
		return out, nil
	}
	if family == syscall.AF_INET {
		return nil, flannelMsg(sorted, "No IPv4 address found for given interface", "no IPv4 address found for given interface")
	}
	return nil, flannelMsg(sorted, "No IPv6 address found for given interface", "no IPv6 address found for given interface")
}

func flannelFamilies(opts map[string]string) (v4, v6 bool) {
	switch opts["family"] {
	case "6":
		return false, true
	case "46":
		return true, true
	}
	return true, false
}

// chooseK3sFlannel replays k3s-io/k3s pkg/agent/flannel/flannel.go
// LookupExtInterface (k3s master; v1.27+ shape with netMode): the
// --flannel-iface interface or the default-gateway interface of the first
// enabled family, then its first address per enabled family by flannel's
// pkg/ip (version switch above). The public address is IfaceAddr[0]
// (ExtAddr = IfaceAddr).
func chooseK3sFlannel(opts map[string]string) Result {
	sorted := flannelSorted(opts)
	v4, v6 := flannelFamilies(opts)
	var iface *net.Interface
	if name := opts["flannel-iface"]; name != "" {
		// k3s pkg/agent/config: net.InterfaceByName, wrapped.
		i, err := net.InterfaceByName(name)
		if err != nil {
			return failf("unable to find interface %s: %v", name, err)
		}
		iface = i
	} else {
		var err error
		if v4 {
			iface, err = flannelDefaultGatewayInterface(syscall.AF_INET, sorted)
		} else {
			iface, err = flannelDefaultGatewayInterface(syscall.AF_INET6, sorted)
		}
		if err != nil {
			return failf("failed to get default interface: %v", err)
		}
	}
	var ips []net.IP
	if v4 {
		a, err := flannelInterfaceAddrs(iface, syscall.AF_INET, sorted)
		if err != nil {
			return failf("failed to find IPv4 address for interface %s: %v", iface.Name, err)
		}
		ips = append(ips, a[0])
	}
	if v6 {
		a, err := flannelInterfaceAddrs(iface, syscall.AF_INET6, sorted)
		if err != nil {
			return failf("failed to find IPv6 address for interface %s: %v", iface.Name, err)
		}
		ips = append(ips, a[0])
	}
	if iface.MTU == 0 {
		return failf("failed to determine MTU for %s interface", iface.Name)
	}
	return ok(iface.Name, ips...)
}

// chooseFlannel replays plain flanneld without --iface, --iface-regex,
// --iface-can-reach or --public-ip: flannel-io/flannel pkg/ipmatch/match.go
// LookupExtIface (v0.20+), default-route interface, its first address of
// the stack's family; ExtAddr defaults to it.
func chooseFlannel(opts map[string]string) Result {
	sorted := flannelSorted(opts)
	v4, v6 := flannelFamilies(opts)
	var iface *net.Interface
	var err error
	switch {
	case v4 && !v6:
		if iface, err = flannelDefaultGatewayInterface(syscall.AF_INET, sorted); err != nil {
			return failf("failed to get default interface: %v", err)
		}
	case v6 && !v4:
		if iface, err = flannelDefaultGatewayInterface(syscall.AF_INET6, sorted); err != nil {
			return failf("failed to get default v6 interface: %v", err)
		}
	default:
		if iface, err = flannelDefaultGatewayInterface(syscall.AF_INET, sorted); err != nil {
			return failf("failed to get default interface: %v", err)
		}
		v6Iface, err := flannelDefaultGatewayInterface(syscall.AF_INET6, sorted)
		if err != nil {
			return failf("failed to get default v6 interface: %v", err)
		}
		if iface.Name != v6Iface.Name {
			return failf("v6 default route interface %s must be the same with v4 default route interface %s", v6Iface.Name, iface.Name)
		}
	}
	var ips []net.IP
	if v4 {
		a, err := flannelInterfaceAddrs(iface, syscall.AF_INET, sorted)
		if err != nil || len(a) == 0 {
			return failf("failed to find IPv4 address for interface %s", iface.Name)
		}
		ips = append(ips, a[0])
	}
	if v6 {
		a, err := flannelInterfaceAddrs(iface, syscall.AF_INET6, sorted)
		if err != nil || len(a) == 0 {
			return failf("failed to find IPv6 address for interface %s", iface.Name)
		}
		ips = append(ips, a[0])
	}
	if iface.MTU == 0 {
		var a net.IP
		if v4 {
			a = ips[0]
		}
		return failf("failed to determine MTU for %s interface", fmt.Sprint(a))
	}
	return ok(iface.Name, ips...)
}
