package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
)

// --- kubernetes/apimachinery pkg/util/net/interface.go ----------------------
// Replayed from the version with AddressFamilyPreference, ResolveBindAddress
// and the loopback fallback (getIPFromLoopbackInterface), i.e. apimachinery
// v0.24 and later (kubernetes 1.24+); unchanged through current master.

type addrFamily uint

const (
	familyIPv4 addrFamily = 4
	familyIPv6 addrFamily = 6
)

var (
	preferIPv4 = []addrFamily{familyIPv4, familyIPv6}
	preferIPv6 = []addrFamily{familyIPv6, familyIPv4}
)

const (
	ipv4RouteFile = "/proc/net/route"
	ipv6RouteFile = "/proc/net/ipv6_route"
)

type kubeRoute struct {
	iface  string
	family addrFamily
}

// noRoutesError is apimachinery's noRoutesError (IsNoRoutesError).
type noRoutesError struct{ msg string }

func (e noRoutesError) Error() string { return e.msg }

// kubeHostIP is an address chosen by chooseHostInterface plus the interface
// it was read from (apimachinery returns only the IP; the name is kept here
// for the report).
type kubeHostIP struct {
	ip    net.IP
	iface string
}

func kubeParseIP(str string, family addrFamily) (net.IP, error) {
	if str == "" {
		return nil, fmt.Errorf("input is nil")
	}
	b, err := hex.DecodeString(str)
	if err != nil {
		return nil, err
	}
	if family == familyIPv4 {
		if len(b) != net.IPv4len {
			return nil, fmt.Errorf("invalid IPv4 address in route")
		}
		return net.IP([]byte{b[3], b[2], b[1], b[0]}), nil
	}
	if len(b) != net.IPv6len {
		return nil, fmt.Errorf("invalid IPv6 address in route")
	}
	return net.IP(b), nil
}

// kubeDefaultRoutes reads one route file like getIPv4DefaultRoutes /
// getIPv6DefaultRoutes: bufio ReadString('\n') until EOF (a last line with
// no newline is dropped), IPv4 destination 0.0.0.0 (gateway not checked),
// IPv6 destination :: with a gateway other than ::.
func kubeDefaultRoutes(r io.Reader, family addrFamily) ([]kubeRoute, error) {
	var routes []kubeRoute
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		if family == familyIPv4 && strings.HasPrefix(line, "Iface") {
			continue
		}
		f := strings.Fields(line)
		if family == familyIPv4 {
			if len(f) < 3 {
				continue
			}
			dest, err := kubeParseIP(f[1], familyIPv4)
			if err != nil {
				return nil, err
			}
			if _, err := kubeParseIP(f[2], familyIPv4); err != nil {
				return nil, err
			}
			if !dest.Equal(net.IPv4zero) {
				continue
			}
			routes = append(routes, kubeRoute{iface: f[0], family: familyIPv4})
		} else {
			if len(f) < 10 {
				continue
			}
			dest, err := kubeParseIP(f[0], familyIPv6)
			if err != nil {
				return nil, err
			}
			gw, err := kubeParseIP(f[4], familyIPv6)
			if err != nil {
				return nil, err
			}
			if !dest.Equal(net.IPv6zero) || gw.Equal(net.IPv6zero) {
				continue
			}
			routes = append(routes, kubeRoute{iface: f[9], family: familyIPv6})
		}
	}
	return routes, nil
}

func kubeExtract(name string, family addrFamily) ([]kubeRoute, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return kubeDefaultRoutes(f, family)
}

// getAllDefaultRoutes: the IPv4 file must read, the IPv6 file is optional.
func kubeAllDefaultRoutes() ([]kubeRoute, error) {
	routes, err := kubeExtract(ipv4RouteFile, familyIPv4)
	if err != nil {
		return nil, err
	}
	v6, _ := kubeExtract(ipv6RouteFile, familyIPv6)
	routes = append(routes, v6...)
	if len(routes) == 0 {
		return nil, noRoutesError{fmt.Sprintf("no default routes found in %q or %q", ipv4RouteFile, ipv6RouteFile)}
	}
	return routes, nil
}

func memberOf(ip net.IP, family addrFamily) bool {
	if ip.To4() != nil {
		return family == familyIPv4
	}
	return family == familyIPv6
}

// getMatchingGlobalIP: the first address of the family that is global
// unicast, in Addrs() order.
func kubeMatchingGlobalIP(addrs []net.Addr, family addrFamily) (net.IP, error) {
	for _, a := range addrs {
		ip, _, err := net.ParseCIDR(a.String())
		if err != nil {
			return nil, err
		}
		if memberOf(ip, family) && ip.IsGlobalUnicast() {
			return ip, nil
		}
	}
	return nil, nil
}

// getIPFromInterface: the interface must exist (else its error) and be up.
func kubeIPFromInterface(name string, family addrFamily) (net.IP, error) {
	intf, err := net.InterfaceByName(name)
	if err != nil {
		return nil, err
	}
	if intf.Flags&net.FlagUp == 0 {
		return nil, nil
	}
	addrs, err := intf.Addrs()
	if err != nil {
		return nil, err
	}
	return kubeMatchingGlobalIP(addrs, family)
}

// getIPFromLoopbackInterface: every up interface with FlagLoopback, in
// net.Interfaces() order.
func kubeIPFromLoopback(family addrFamily) (kubeHostIP, error) {
	intfs, err := net.Interfaces()
	if err != nil {
		return kubeHostIP{}, err
	}
	for _, intf := range intfs {
		if intf.Flags&net.FlagUp == 0 || intf.Flags&net.FlagLoopback == 0 {
			continue
		}
		addrs, err := intf.Addrs()
		if err != nil {
			return kubeHostIP{}, err
		}
		ip, err := kubeMatchingGlobalIP(addrs, family)
		if err != nil {
			return kubeHostIP{}, err
		}
		if ip != nil {
			return kubeHostIP{ip, intf.Name}, nil
		}
	}
	return kubeHostIP{}, nil
}

// chooseIPFromHostInterfaces: used only when /proc/net/route is absent.
func kubeIPFromHostInterfaces(families []addrFamily) (kubeHostIP, error) {
	intfs, err := net.Interfaces()
	if err != nil {
		return kubeHostIP{}, err
	}
	if len(intfs) == 0 {
		return kubeHostIP{}, fmt.Errorf("no interfaces found on host.")
	}
	for _, family := range families {
		for _, intf := range intfs {
			if intf.Flags&net.FlagUp == 0 || intf.Flags&(net.FlagLoopback|net.FlagPointToPoint) != 0 {
				continue
			}
			addrs, err := intf.Addrs()
			if err != nil {
				return kubeHostIP{}, err
			}
			for _, a := range addrs {
				ip, _, err := net.ParseCIDR(a.String())
				if err != nil {
					return kubeHostIP{}, fmt.Errorf("Unable to parse CIDR for interface %q: %s", intf.Name, err)
				}
				if memberOf(ip, family) && ip.IsGlobalUnicast() {
					return kubeHostIP{ip, intf.Name}, nil
				}
			}
		}
	}
	return kubeHostIP{}, fmt.Errorf("no acceptable interface with global unicast address found on host")
}

// chooseHostInterface(addressFamilies): per family, per default route of
// that family in file order: the route's interface's first global address
// of the family, else (still inside the route loop) the first global
// address of the family on an up loopback interface.
func kubeChooseHostInterface(families []addrFamily) (kubeHostIP, error) {
	if _, err := os.Stat(ipv4RouteFile); os.IsNotExist(err) {
		return kubeIPFromHostInterfaces(families)
	}
	routes, err := kubeAllDefaultRoutes()
	if err != nil {
		return kubeHostIP{}, err
	}
	for _, family := range families {
		for _, r := range routes {
			if r.family != family {
				continue
			}
			ip, err := kubeIPFromInterface(r.iface, family)
			if err != nil {
				return kubeHostIP{}, err
			}
			if ip != nil {
				return kubeHostIP{ip, r.iface}, nil
			}
			lo, err := kubeIPFromLoopback(family)
			if err != nil {
				return kubeHostIP{}, err
			}
			if lo.ip != nil {
				return lo, nil
			}
		}
	}
	return kubeHostIP{}, fmt.Errorf("unable to select an IP from default routes.")
}

// ResolveBindAddress: nil, unspecified or loopback binds resolve to the host
// interface, IPv6 preferred when the bind address is IPv6.
func kubeResolveBindAddress(bind net.IP) (kubeHostIP, error) {
	families := preferIPv4
	if bind != nil && memberOf(bind, familyIPv6) {
		families = preferIPv6
	}
	if bind == nil || bind.IsUnspecified() || bind.IsLoopback() {
		return kubeChooseHostInterface(families)
	}
	return kubeHostIP{ip: bind}, nil
}

// chooseKubeadm replays kubeadm's advertise-address defaulting:
// kubernetes/kubernetes cmd/kubeadm/app/util/config/initconfiguration.go
// SetAPIEndpointDynamicDefaults, cmd/kubeadm/app/util/config/common.go
// ChooseAPIServerBindAddress, and apimachinery ResolveBindAddress /
// ChooseBindAddressForInterface (kubernetes 1.24+ through master).
func chooseKubeadm(opts map[string]string) Result {
	adv := opts["advertise-address"]
	addressIP := net.ParseIP(adv)
	if addressIP == nil && adv != "" {
		return failf("couldn't use \"%s\" as \"apiserver-advertise-address\", must be ipv4 or ipv6 address", adv)
	}
	// A loopback advertise address selects a global address on "lo"
	// (ChooseBindAddressForInterface, IPv4 first).
	if addressIP.IsLoopback() {
		for _, family := range preferIPv4 {
			ip, err := kubeIPFromInterface("lo", family)
			if err != nil {
				return fail(err)
			}
			if ip != nil {
				return ok("lo", ip)
			}
		}
		return failf("unable to select an IP from %s network interface", "lo")
	}
	// ChooseAPIServerBindAddress.
	h, err := kubeResolveBindAddress(addressIP)
	if err != nil {
		var nr noRoutesError
		if errors.As(err, &nr) {
			return Result{Addresses: []string{"0.0.0.0"},
				Error: fmt.Sprintf("WARNING: could not obtain a bind address for the API Server: %v; using: %s", err, "0.0.0.0")}
		}
		return fail(err)
	}
	return ok(h.iface, h.ip)
}

// chooseK3s replays k3s-io/k3s pkg/util/net.go GetHostnameAndIPs (node IPs;
// the name is not reported) and, for --flannel-iface without --node-ip,
// GetIPFromInterface as pkg/cli/{agent,server} call it to fill --node-ip.
// Current k3s master (v1.30+ shape).
func chooseK3s(opts map[string]string) Result {
	nodeIP := opts["node-ip"]
	iface := ""
	if fl := opts["flannel-iface"]; fl != "" && nodeIP == "" {
		ip, err := k3sIPFromInterface(fl)
		if err != nil {
			return failf("interface %s does not have a correct global unicast ip: %v", fl, err)
		}
		nodeIP = ip
		iface = fl
	}
	if nodeIP != "" {
		var ips []net.IP
		for _, v := range strings.Split(nodeIP, ",") {
			ip := net.ParseIP(v)
			if ip == nil {
				return failf("invalid node-ip: invalid ip format '%s'", v)
			}
			ips = append(ips, ip)
		}
		return ok(iface, ips...)
	}
	host, err := kubeChooseHostInterface(preferIPv4)
	if err != nil {
		return fail(err)
	}
	ips := []net.IP{host.ip}
	if host.ip.To4() != nil {
		// ResolveBindAddress(net.IPv6loopback): IPv6 preferred.
		h6, err := kubeResolveBindAddress(net.IPv6loopback)
		if err == nil && !h6.ip.Equal(host.ip) {
			ips = append(ips, h6.ip)
		}
	}
	return ok(host.iface, ips...)
}

// k3sIPFromInterface is k3s pkg/util/net.go getIPFromInterface: the
// interface's global unicast addresses in Addrs() order; more than one IPv4
// is an error; the IPv4 (and the first IPv6) or the first IPv6.
func k3sIPFromInterface(name string) (string, error) {
	intf, err := net.InterfaceByName(name)
	if err != nil {
		return "", err
	}
	addrs, err := intf.Addrs()
	if err != nil {
		return "", err
	}
	if intf.Flags&net.FlagUp == 0 {
		return "", fmt.Errorf("the interface %s is not up", name)
	}
	var v4, v6 []string
	for _, a := range addrs {
		ip, _, err := net.ParseCIDR(a.String())
		if err != nil {
			return "", fmt.Errorf("unable to parse CIDR for interface %s: %w", intf.Name, err)
		}
		if ip.To4() == nil {
			if ip.IsGlobalUnicast() {
				v6 = append(v6, ip.String())
			}
			continue
		}
		if ip.IsGlobalUnicast() {
			v4 = append(v4, ip.String())
		}
	}
	if len(v4) > 1 {
		return "", fmt.Errorf("multiple global unicast addresses defined for %s, please set ip from one of %v", name, v4)
	}
	switch {
	case len(v4) == 1 && len(v6) == 0:
		return v4[0], nil
	case len(v6) > 0 && len(v4) == 1:
		return v4[0] + "," + v6[0], nil
	case len(v6) > 0:
		return v6[0], nil
	}
	return "", fmt.Errorf("can't find ip for interface %s", name)
}
