package main

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
)

var swarmErrNoIP = errors.New("could not find the system's IP address")

func swarmErrMultipleIPs(ifA, ifB string, a, b net.IP) error {
	if ifA == ifB {
		return fmt.Errorf("could not choose an IP address to advertise since this system has multiple addresses on interface %s (%s and %s)", ifA, a, b)
	}
	return fmt.Errorf("could not choose an IP address to advertise since this system has multiple addresses on different interfaces (%s on %s and %s on %s)", a, ifA, b, ifB)
}

// chooseSwarm replays `docker swarm init` without --advertise-addr (and no
// daemon default-advertise-addr): moby/moby daemon/cluster/listen_addr.go
// resolveAdvertiseAddr -> listen_addr_linux.go resolveSystemAddr (moby 17.06
// and later, with the deviceFound fallback to
// resolveSystemAddrViaSubnetCheck).
//
// resolveSystemAddr: netlink.LinkList() in order, links of type "device"
// (no IFLA_INFO_KIND: lo and physical NICs, not dummy/veth/bridge) that are
// up; their global unicast addresses (AddrList(link, FAMILY_ALL), the
// IFA_LOCAL address); two IPv4 (or two IPv6) on one link is an error; the
// link's IPv4 else IPv6 is the candidate; two candidate links is an error.
// No global unicast address on any up device link: the subnet check.
func chooseSwarm(opts map[string]string) Result {
	links, err := LinkList()
	if err != nil {
		return fail(err)
	}
	var sysAddr net.IP
	var sysIface string
	deviceFound := false
	for _, l := range links {
		if l.Type() != "device" || !l.Up() {
			continue
		}
		addrs, err := AddrList(l.Index, syscall.AF_UNSPEC)
		if err != nil {
			continue
		}
		var a4, a6 net.IP
		for _, a := range addrs {
			ip := net.IP(a.IP)
			if !ip.IsGlobalUnicast() {
				continue
			}
			deviceFound = true
			if ip.To4() != nil {
				if a4 != nil {
					return fail(swarmErrMultipleIPs(l.Name, l.Name, a4, ip))
				}
				a4 = ip
			} else {
				if a6 != nil {
					return fail(swarmErrMultipleIPs(l.Name, l.Name, a6, ip))
				}
				a6 = ip
			}
		}
		if a4 != nil {
			if sysAddr != nil {
				return fail(swarmErrMultipleIPs(sysIface, l.Name, sysAddr, a4))
			}
			sysAddr, sysIface = a4, l.Name
		} else if a6 != nil {
			if sysAddr != nil {
				return fail(swarmErrMultipleIPs(sysIface, l.Name, sysAddr, a6))
			}
			sysAddr, sysIface = a6, l.Name
		}
	}
	if sysAddr == nil {
		if !deviceFound {
			return swarmSubnetCheck(opts)
		}
		return fail(swarmErrNoIP)
	}
	return ok(sysIface, sysAddr)
}

// swarmDockerSubnets stands in for NetworkSubnetsProvider.Subnets(): the
// subnets of Docker's own networks. Given with --docker-subnets CIDR[,CIDR]
// or, by default, the networks of the addresses on a link named docker0
// (the default bridge network of a running dockerd).
func swarmDockerSubnets(opts map[string]string) (v4, v6 []*net.IPNet) {
	var nets []*net.IPNet
	if s, ok := opts["docker-subnets"]; ok {
		for _, c := range strings.Split(s, ",") {
			if c == "" {
				continue
			}
			if _, n, err := net.ParseCIDR(c); err == nil {
				nets = append(nets, n)
			}
		}
	} else if ifc, err := net.InterfaceByName("docker0"); err == nil {
		if addrs, err := ifc.Addrs(); err == nil {
			for _, a := range addrs {
				if ipn, ok := a.(*net.IPNet); ok && ipn.IP.IsGlobalUnicast() {
					nets = append(nets, &net.IPNet{IP: ipn.IP.Mask(ipn.Mask), Mask: ipn.Mask})
				}
			}
		}
	}
	for _, n := range nets {
		if n.IP.To4() != nil {
			v4 = append(v4, n)
		} else {
			v6 = append(v6, n)
		}
	}
	return v4, v6
}

// swarmSubnetCheck is resolveSystemAddrViaSubnetCheck: net.Interfaces(),
// up and not loopback; global unicast addresses; an interface with an
// address inside a Docker subnet is skipped entirely; then as above.
func swarmSubnetCheck(opts map[string]string) Result {
	intfs, err := net.Interfaces()
	if err != nil {
		return fail(err)
	}
	v4s, v6s := swarmDockerSubnets(opts)
	var sysAddr net.IP
	var sysIface string
ifaceLoop:
	for _, intf := range intfs {
		if intf.Flags&net.FlagUp == 0 || intf.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := intf.Addrs()
		if err != nil {
			continue
		}
		var a4, a6 net.IP
		for _, addr := range addrs {
			ipn, isNet := addr.(*net.IPNet)
			if !isNet || !ipn.IP.IsGlobalUnicast() {
				continue
			}
			if ipn.IP.To4() != nil {
				for _, s := range v4s {
					if s.Contains(ipn.IP) {
						continue ifaceLoop
					}
				}
				if a4 != nil {
					return fail(swarmErrMultipleIPs(intf.Name, intf.Name, a4, ipn.IP))
				}
				a4 = ipn.IP
			} else {
				for _, s := range v6s {
					if s.Contains(ipn.IP) {
						continue ifaceLoop
					}
				}
				if a6 != nil {
					return fail(swarmErrMultipleIPs(intf.Name, intf.Name, a6, ipn.IP))
				}
				a6 = ipn.IP
			}
		}
		if a4 != nil {
			if sysAddr != nil {
				return fail(swarmErrMultipleIPs(sysIface, intf.Name, sysAddr, a4))
			}
			sysAddr, sysIface = a4, intf.Name
		} else if a6 != nil {
			if sysAddr != nil {
				return fail(swarmErrMultipleIPs(sysIface, intf.Name, sysAddr, a6))
			}
			sysAddr, sysIface = a6, intf.Name
		}
	}
	if sysAddr == nil {
		return fail(swarmErrNoIP)
	}
	return ok(sysIface, sysAddr)
}
