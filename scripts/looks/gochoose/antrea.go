package main

import (
	"fmt"
	"net"
	"strings"
)

// --- antrea-io/antrea pkg/agent/agent.go, pkg/agent/util/net.go -------------
// The agent's Node and transport interfaces (initK8sNodeLocalConfig): the
// interface that holds the Node's IPs (GetIPNetDeviceFromIP, the host
// gateway skipped), then, when configured, transportInterface
// (GetIPNetDeviceByName) or transportInterfaceCIDRs (GetIPNetDeviceByCIDRs)
// in its place. Everything is read through Go's net.Interfaces() and
// (*Interface).Addrs(), as upstream does: the same in Antrea v1.10.0,
// v1.15.0, v2.0.0 and main after v2.7.0.

// antreaDualStack is utilip.DualStackIPs: at most one address per family.
// Its %v form is what the agent's error prints.
type antreaDualStack struct {
	IPv4 net.IP
	IPv6 net.IP
}

// antreaNodeIPs is GetNodeAddrs over the Node's InternalIP addresses in
// status order: the first of each family.
func antreaNodeIPs(list string) (*antreaDualStack, error) {
	ips := new(antreaDualStack)
	for _, s := range strings.Split(list, ",") {
		ip := net.ParseIP(s)
		if ip == nil {
			return nil, fmt.Errorf("'%s' is not a valid IP address", s)
		}
		if ip.To4() != nil && ips.IPv4 == nil {
			ips.IPv4 = ip
		} else if ip.To4() == nil && ips.IPv6 == nil {
			ips.IPv6 = ip
		}
	}
	return ips, nil
}

// antreaFromIP: the one interface (not ignored) holding the Node's IPs.
func antreaFromIP(local *antreaDualStack, ignored string) (v4, v6 *net.IPNet, iface *net.Interface, err error) {
	links, err := net.Interfaces()
	if err != nil {
		return nil, nil, nil, err
	}
	keep := func(l *net.Interface) error {
		if iface != nil && iface.Index != l.Index {
			return fmt.Errorf("IPs of localIPs should be on the same device")
		}
		iface = l
		return nil
	}
	for i := range links {
		l := links[i]
		if l.Name == ignored {
			continue
		}
		addrs, err := l.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			n, ok := a.(*net.IPNet)
			if !ok {
				continue
			}
			switch {
			case n.IP.Equal(local.IPv4):
				if err := keep(&l); err != nil {
					return nil, nil, nil, err
				}
				v4 = n
			case n.IP.Equal(local.IPv6):
				if err := keep(&l); err != nil {
					return nil, nil, nil, err
				}
				v6 = n
			}
		}
	}
	if iface == nil {
		return nil, nil, nil, fmt.Errorf("unable to find local IPs and device")
	}
	return v4, v6, iface, nil
}

// antreaByName: the named interface's first global unicast address of
// each family.
func antreaByName(name string) (v4, v6 *net.IPNet, iface *net.Interface, err error) {
	iface, err = net.InterfaceByName(name)
	if err != nil {
		return nil, nil, nil, err
	}
	addrs, err := globalUnicast(iface)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, n := range addrs {
		if n.IP.To4() != nil {
			if v4 == nil {
				v4 = n
			}
		} else if v6 == nil {
			v6 = n
		}
	}
	if v4 == nil && v6 == nil {
		return nil, nil, nil, fmt.Errorf("unable to find local IP and device")
	}
	return v4, v6, iface, nil
}

// antreaByCIDRs: the first interface with a global unicast address in one
// of the CIDRs (at most two, one per family), the first such address of
// each family on it.
func antreaByCIDRs(list []string) (v4, v6 *net.IPNet, iface *net.Interface, err error) {
	var cidrs []*net.IPNet
	has4, has6 := false, false
	for i, s := range list {
		_, c, err := net.ParseCIDR(s)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("invalid CIDR[%d]: %v (%v)", i, c, err)
		}
		cidrs = append(cidrs, c)
		if c.IP.To4() != nil {
			has4 = true
		} else {
			has6 = true
		}
	}
	dual := has4 && has6
	if len(cidrs) > 1 && !dual {
		return nil, nil, nil, fmt.Errorf("len of cidrs is %v and they are not configured as dual stack (at least one from each IPFamily)", len(cidrs))
	}
	if len(cidrs) > 2 {
		return nil, nil, nil, fmt.Errorf("length of cidrs is %v more than max allowed of 2", len(cidrs))
	}
	links, err := net.Interfaces()
	if err != nil {
		return nil, nil, nil, err
	}
	for i := range links {
		addrs, err := globalUnicast(&links[i])
		if err != nil {
			return nil, nil, nil, err
		}
		for _, n := range addrs {
			for _, c := range cidrs {
				if !c.Contains(n.IP) {
					continue
				}
				if v4 == nil && n.IP.To4() != nil {
					v4 = n
				} else if v6 == nil && n.IP.To4() == nil {
					v6 = n
				}
			}
		}
		if v4 != nil || v6 != nil {
			return v4, v6, &links[i], nil
		}
	}
	return nil, nil, nil, fmt.Errorf("unable to find local IP and device")
}

// chooseAntrea: the transport interface and its addresses, as
// initK8sNodeLocalConfig leaves them (NodeTransportInterfaceName,
// NodeTransportIPv4Addr, NodeTransportIPv6Addr).
func chooseAntrea(opts map[string]string) Result {
	nodeIPs, err := antreaNodeIPs(opts["node-ip"])
	if err != nil {
		return failf("failed to obtain local IP addresses from K8s: %v", err)
	}
	gateway := "antrea-gw0"
	if g, ok := opts["host-gateway"]; ok {
		gateway = g
	}
	v4, v6, iface, err := antreaFromIP(nodeIPs, gateway)
	if err != nil {
		return failf("failed to get local IPNet device with IP %v: %v", nodeIPs, err)
	}
	if name := opts["transport-interface"]; name != "" {
		v4, v6, iface, err = antreaByName(name)
		if err != nil {
			return failf("failed to get local IPNet device with transport interface %s: %v", name, err)
		}
	} else if list := opts["transport-interface-cidrs"]; list != "" {
		cidrs := strings.Split(list, ",")
		v4, v6, iface, err = antreaByCIDRs(cidrs)
		if err != nil {
			return failf("failed to get local IPNet device with transport Address CIDR %s: %v", cidrs, err)
		}
	}
	var ips []net.IP
	if v4 != nil {
		ips = append(ips, v4.IP)
	}
	if v6 != nil {
		ips = append(ips, v6.IP)
	}
	return ok(iface.Name, ips...)
}
