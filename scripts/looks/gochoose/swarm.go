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
			slot := &a6
			if ip.To4() != nil {
				slot = &a4
			}
			if *slot != nil {
				return fail(swarmErrMultipleIPs(l.Name, l.Name, *slot, ip))
			}
			*slot = ip
		}
		if err := swarmTake(&sysAddr, &sysIface, l.Name, a4, a6); err != nil {
			return fail(err)
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

// swarmTake: the interface's address (its IPv4 one, else its IPv6 one)
// becomes the system's; a second interface with one is Swarm's error.
func swarmTake(sysAddr *net.IP, sysIface *string, name string, a4, a6 net.IP) error {
	a := a4
	if a == nil {
		a = a6
	}
	if a == nil {
		return nil
	}
	if *sysAddr != nil {
		return swarmErrMultipleIPs(*sysIface, name, *sysAddr, a)
	}
	*sysAddr, *sysIface = a, name
	return nil
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
		if addrs, err := globalUnicast(ifc); err == nil {
			for _, ipn := range addrs {
				nets = append(nets, &net.IPNet{IP: ipn.IP.Mask(ipn.Mask), Mask: ipn.Mask})
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
		addrs, err := globalUnicast(&intf)
		if err != nil {
			continue
		}
		var a4, a6 net.IP
		for _, ipn := range addrs {
			slot, subnets := &a6, v6s
			if ipn.IP.To4() != nil {
				slot, subnets = &a4, v4s
			}
			for _, s := range subnets {
				if s.Contains(ipn.IP) {
					continue ifaceLoop
				}
			}
			if *slot != nil {
				return fail(swarmErrMultipleIPs(intf.Name, intf.Name, *slot, ipn.IP))
			}
			*slot = ipn.IP
		}
		if err := swarmTake(&sysAddr, &sysIface, intf.Name, a4, a6); err != nil {
			return fail(err)
		}
	}
	if sysAddr == nil {
		return fail(swarmErrNoIP)
	}
	return ok(sysIface, sysAddr)
}
