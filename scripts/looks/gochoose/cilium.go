package main

import (
	"bytes"
	"errors"
	"net"
	"sort"
	"strings"
	"syscall"
)

// cilium/cilium pkg/ip/ip.go initPrivatePrefixes: what IsPublicAddr calls
// private (note 2001:db8::/48, not /32).
var ciliumPrivateBlocks = mustCIDRs(
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
	"172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15",
	"198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4",
	"::/128", "::1/128", "100::/64", "2001:2::/48", "2001:db8::/48", "fc00::/7",
	"fe80::/10", "ff00::/8",
)

func mustCIDRs(cidrs ...string) []*net.IPNet {
	var out []*net.IPNet
	for _, c := range cidrs {
		_, n, err := net.ParseCIDR(c)
		if err != nil {
			panic(err)
		}
		out = append(out, n)
	}
	return out
}

func ciliumIsPublic(ip net.IP) bool {
	for _, b := range ciliumPrivateBlocks {
		if b.Contains(ip) {
			return false
		}
	}
	return true
}

func ipListContains(list []net.IP, ip net.IP) bool {
	for _, e := range list {
		if e.Equal(ip) {
			return true
		}
	}
	return false
}

// ciliumExcludedIPs is pkg/node/ip_linux.go initExcludedIPs: every address
// (any family) of links named docker* and of links whose operstate is
// neither UP nor UNKNOWN; from 1.17 (PR 34228) dummy links are never
// excluded.
func ciliumExcludedIPs(links []Link, ver ciliumNodeIPVersion) ([]net.IP, error) {
	var out []net.IP
	for _, l := range links {
		if ver >= cilium117 && l.Type() == "dummy" {
			continue
		}
		if l.OperState == operUp || l.OperState == operUnknown {
			if !strings.HasPrefix(l.Name, "docker") {
				continue
			}
		}
		addrs, err := AddrList(l.Index, syscall.AF_UNSPEC)
		if err != nil {
			continue
		}
		for _, a := range addrs {
			out = append(out, a.IP)
		}
	}
	return out, nil
}

type ciliumNodeIPVersion int

const (
	ciliumPre114 ciliumNodeIPVersion = iota // lowest IP, secondaries kept
	cilium114                               // PR 22866: no secondaries, stable by link index
	cilium117                               // PR 34228: dummy links never excluded
	cilium120                               // PR 45868: tentative and dadfailed addresses skipped
)

// ciliumLatest is the release replayed when --version is not given.
const ciliumLatest = "1.20"

func ciliumVersion(opts map[string]string) ciliumNodeIPVersion {
	v := opts["version"]
	if v == "" {
		v = ciliumLatest
	}
	pv, _ := parseVersion(v)
	switch {
	case versionLess(pv, [3]int{1, 14, 0}):
		return ciliumPre114
	case versionLess(pv, [3]int{1, 17, 0}):
		return cilium114
	case versionLess(pv, [3]int{1, 20, 0}):
		return cilium117
	}
	return cilium120
}

type ciliumCands struct {
	public, private []Addr
}

func (c *ciliumCands) add(a Addr) {
	if ciliumIsPublic(a.IP) {
		c.public = append(c.public, a)
	} else {
		c.private = append(c.private, a)
	}
}

// pick: public before private; before 1.14 the lowest address
// (sort.Slice on bytes.Compare), from 1.14 a stable sort by link index.
func (c *ciliumCands) pick(ver ciliumNodeIPVersion) (Addr, bool) {
	for _, list := range [][]Addr{c.public, c.private} {
		if len(list) == 0 {
			continue
		}
		if ver == ciliumPre114 {
			sort.Slice(list, func(i, j int) bool { return bytes.Compare(list[i].IP, list[j].IP) < 0 })
		} else {
			sort.SliceStable(list, func(i, j int) bool { return list[i].Index < list[j].Index })
		}
		return list[0], true
	}
	return Addr{}, false
}

func (c *ciliumCands) empty() bool { return len(c.public) == 0 && len(c.private) == 0 }

// chooseCilium replays cilium/cilium pkg/node/address_linux.go
// firstGlobalAddr (via firstGlobalV4Addr / firstGlobalV6Addr), the node-IP
// fallback when the Kubernetes Node has no InternalIP, with no preferred
// (restored router) IP. --version X.Y: before 1.14 the v1.13 code; 1.14
// (PR 22866); 1.17 (PR 34228, in initExcludedIPs); 1.20 (PR 45868:
// tentative and dadfailed addresses skipped). Not replayed: PR 47878
// (deprecated addresses last), open when this was written.
func chooseCilium(opts map[string]string) Result {
	ver := ciliumVersion(opts)
	family, ipLen := syscall.AF_INET, 4
	if opts["family"] == "6" {
		family, ipLen = syscall.AF_INET6, 16
	}
	links, err := LinkList()
	if err != nil {
		return fail(err)
	}
	exclude, _ := ciliumExcludedIPs(links, ver)
	linkIdx := 0
	if dev := opts["device"]; dev != "" && dev != "undefined" {
		if l, found := linkByName(links, dev); found {
			linkIdx = l.Index
			exclude = nil
		}
	}
	name := func(a Addr) string {
		if l, found := linkByIndex(links, a.Index); found {
			return l.Name
		}
		return ""
	}
	scopeMax := uint8(scopeUniverse)
retryInterface:
	addrs, err := AddrList(linkIdx, family)
	if err != nil {
		return fail(err)
	}
retryScope:
	var cands ciliumCands
	for _, a := range addrs {
		if a.Scope > scopeMax || ipListContains(exclude, a.IP) || len(a.IP) < ipLen {
			continue
		}
		if ver != ciliumPre114 && a.Flags&ifaFSecondary != 0 {
			continue
		}
		if ver >= cilium120 && a.Flags&(ifaFTentative|ifaFDadfailed) != 0 {
			continue
		}
		cands.add(a)
	}
	if a, found := cands.pick(ver); found {
		return ok(name(a), a.IP)
	}
	if scopeMax != scopeSite {
		scopeMax = scopeSite
		goto retryScope
	}
	if linkIdx != 0 {
		scopeMax = scopeUniverse
		linkIdx = 0
		goto retryInterface
	}
	return fail(errors.New("No address found"))
}

// --- Cilium 1.15+ devices and node addresses --------------------------------

type ciliumDevAddr struct {
	ip        net.IP
	secondary bool
	scope     uint8
}

type ciliumDevice struct {
	Link
	addrs    []ciliumDevAddr
	selected bool
}

// ciliumExcludedPrefixes is pkg/defaults ExcludedDevicePrefixes (with
// cilium_host, which some releases list separately).
var ciliumExcludedPrefixes = []string{"cilium_", "lo", "lxc", "cni", "docker"}

const ciliumHostDevice = "cilium_host"

// ciliumDevices replays pkg/datapath/linux/devices_controller.go: one
// LinkList, one AddrList(nil, FAMILY_ALL), one route dump of every table,
// then isSelectedDevice per link. Left out: the L3-device kernel probe
// (assumed supported, kernel >= 5.8) and --force-device-detection.
// From 1.20 (PR 45868) the device table leaves out tentative and dadfailed
// addresses.
func ciliumDevices(filter []string, opts map[string]string) ([]*ciliumDevice, []Route, error) {
	links, err := LinkList()
	if err != nil {
		return nil, nil, err
	}
	addrs, err := AddrList(0, syscall.AF_UNSPEC)
	if err != nil {
		return nil, nil, err
	}
	routes, err := RouteDump(syscall.AF_UNSPEC)
	if err != nil {
		return nil, nil, err
	}
	var devs []*ciliumDevice
	for _, l := range links {
		d := &ciliumDevice{Link: l}
		for _, a := range addrs {
			if a.Index == l.Index {
				if ciliumNodeAddrVersion(opts) >= 120 && a.Flags&(ifaFTentative|ifaFDadfailed) != 0 {
					continue
				}
				d.addrs = append(d.addrs, ciliumDevAddr{ip: a.IP, secondary: a.Flags&ifaFSecondary != 0, scope: a.Scope})
			}
		}
		d.selected = ciliumIsSelected(d, routes, filter)
		devs = append(devs, d)
	}
	sort.SliceStable(devs, func(i, j int) bool { return devs[i].Index < devs[j].Index })
	return devs, routes, nil
}

func ciliumFilterMatch(filter []string, name string) bool {
	for _, e := range filter {
		if strings.HasSuffix(e, "+") {
			if strings.HasPrefix(name, strings.TrimRight(e, "+")) {
				return true
			}
		} else if name == e {
			return true
		}
	}
	return false
}

func ciliumIsSelected(d *ciliumDevice, routes []Route, filter []string) bool {
	if d.Name == "" || len(d.addrs) == 0 || d.RawFlags&syscall.IFF_UP == 0 {
		return false
	}
	if len(filter) > 0 {
		return ciliumFilterMatch(filter, d.Name)
	}
	if d.RawFlags&(syscall.IFF_SLAVE|syscall.IFF_LOOPBACK) != 0 || d.Master != 0 {
		return false
	}
	for _, p := range ciliumExcludedPrefixes {
		if strings.HasPrefix(d.Name, p) {
			return false
		}
	}
	switch d.Type() {
	case "veth":
		hasDefault := false
		for _, r := range routes {
			if r.OIF == d.Index && r.Table == syscall.RT_TABLE_MAIN && r.DstLen == 0 {
				hasDefault = true
			}
		}
		if !hasDefault {
			return false
		}
	case "bridge", "openvswitch":
		return false
	}
	// hasGlobalRoute: any route of the link, in any table (kernel-made
	// local and broadcast routes included), whose destination address is
	// global unicast.
	for _, r := range routes {
		if r.OIF != d.Index {
			continue
		}
		dst := r.Dst
		if dst == nil {
			if r.Family == syscall.AF_INET {
				dst = net.IPv4zero.To4()
			} else {
				dst = net.IPv6zero
			}
		}
		if dst.IsGlobalUnicast() {
			return true
		}
	}
	return false
}

func ipLess(a, b net.IP) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return bytes.Compare(a, b) < 0
}

// ciliumSortedAddresses is pkg/datapath/tables/node_address.go
// SortedAddresses: stable; primary before secondary, lower scope first,
// public before private (from 1.16, cilium/cilium#30579), then the address.
func ciliumSortedAddresses(in []ciliumDevAddr, publicFirst bool) []ciliumDevAddr {
	a := append([]ciliumDevAddr(nil), in...)
	sort.SliceStable(a, func(i, j int) bool {
		switch {
		case !a[i].secondary && a[j].secondary:
			return true
		case a[i].secondary && !a[j].secondary:
			return false
		case a[i].scope < a[j].scope:
			return true
		case a[i].scope > a[j].scope:
			return false
		case publicFirst && ciliumIsPublic(a[i].ip) && !ciliumIsPublic(a[j].ip):
			return true
		case publicFirst && !ciliumIsPublic(a[i].ip) && ciliumIsPublic(a[j].ip):
			return false
		default:
			return ipLess(a[i].ip, a[j].ip)
		}
	})
	return a
}

type ciliumNodeAddr struct {
	ip       net.IP
	nodePort bool
	primary  bool
	device   string
}

// ciliumAddressScopeMax is defaults.AddressScopeMax (RT_SCOPE_LINK - 1).
const ciliumAddressScopeMax = scopeLink - 1

// ciliumNodeAddrVersion is --version as major*100+minor (default: the newest).
func ciliumNodeAddrVersion(opts map[string]string) int {
	v := opts["version"]
	if v == "" {
		v = ciliumLatest
	}
	pv, _ := parseVersion(v)
	return pv[0]*100 + pv[1]
}

// ciliumNodeAddresses replays getAddressesFromDevice for every device, plus
// (newest) the host-scope local-table routes. No --nodeport-addresses, no
// Kubernetes node IP.
//
// 1.15 (v1.15.0): only up, selected devices outside the excluded prefixes
// (and cilium_host); sorted without the public key; Primary and NodePort
// (on selected devices) the first address of the family.
// 1.16 (cilium/cilium#30579): up devices that are selected, lo or
// cilium_host; the public key; Primary the first public else first
// private; NodePort the first private else first public, on up devices
// other than cilium_host. 1.17 (#34228): dummy devices too, even down.
// 1.18 (#40095): host-scope local routes.
func ciliumNodeAddresses(devs []*ciliumDevice, routes []Route, ver int) []ciliumNodeAddr {
	var out []ciliumNodeAddr
	found := map[string]bool{}
	newest := ver >= 116
	use := func(d *ciliumDevice) bool { return ciliumUsable(d, ver) }
	for _, d := range devs {
		if !use(d) {
			continue
		}
		var addrs []ciliumNodeAddr
		idx := map[[2]bool]int{} // {is6, public} -> first index
		first := map[bool]int{}  // is6 -> first index (1.15 primary)
		for _, a := range ciliumSortedAddresses(d.addrs, newest) {
			skip := a.scope > ciliumAddressScopeMax || a.ip.IsLoopback()
			skip = skip && !(d.Name == ciliumHostDevice && a.scope == scopeLink)
			if skip {
				continue
			}
			is6 := a.ip.To4() == nil
			pub := ciliumIsPublic(a.ip)
			if _, seen := idx[[2]bool{is6, pub}]; !seen {
				idx[[2]bool{is6, pub}] = len(addrs)
			}
			if _, seen := first[is6]; !seen {
				first[is6] = len(addrs)
			}
			addrs = append(addrs, ciliumNodeAddr{ip: a.ip, device: d.Name})
		}
		nodePortOK := d.selected
		if newest {
			nodePortOK = d.Name != ciliumHostDevice && d.Up()
		}
		for _, is6 := range []bool{false, true} {
			priv, hasPriv := idx[[2]bool{is6, false}]
			pub, hasPub := idx[[2]bool{is6, true}]
			if nodePortOK && !newest {
				if f, has := first[is6]; has {
					addrs[f].nodePort = true
				}
			} else if nodePortOK {
				if hasPriv {
					addrs[priv].nodePort = true
				} else if hasPub {
					addrs[pub].nodePort = true
				}
			}
			if newest {
				if hasPub {
					addrs[pub].primary = true
				} else if hasPriv {
					addrs[priv].primary = true
				}
			} else if f, has := first[is6]; has {
				addrs[f].primary = true
			}
		}
		for _, a := range addrs {
			found[a.ip.String()] = true
		}
		out = append(out, addrs...)
	}
	if ver >= 118 {
		// Host-scope routes of the local table without a source address
		// (addresses assigned by routing, e.g. on GCE) on a usable device.
		for _, r := range routes {
			if r.Table != 255 || r.Scope != scopeHost || r.PrefSrc != nil || r.Dst == nil {
				continue
			}
			if r.Dst.IsUnspecified() || r.Dst.IsLoopback() || found[r.Dst.String()] {
				continue
			}
			for _, d := range devs {
				if d.Index == r.OIF && use(d) {
					out = append(out, ciliumNodeAddr{ip: r.Dst, primary: true, device: d.Name})
					found[r.Dst.String()] = true
				}
			}
		}
	}
	return out
}

// ciliumUsable: master's shouldUseDeviceForNodeAddress, or 1.15's checks
// at the top of getAddressesFromDevice.
func ciliumUsable(d *ciliumDevice, ver int) bool {
	if ver >= 116 {
		dummy := ver >= 117 && d.Type() == "dummy"
		if !dummy && !d.Up() {
			return false
		}
		if d.Name != ciliumHostDevice && d.Name != "lo" && !d.selected && !dummy {
			return false
		}
		return true
	}
	if !d.Up() {
		return false
	}
	if d.Name != ciliumHostDevice {
		if !d.selected {
			return false
		}
		for _, p := range ciliumExcludedPrefixes {
			if strings.HasPrefix(d.Name, p) {
				return false
			}
		}
	}
	return true
}

func ciliumFamilyOK(ip net.IP, opts map[string]string) bool {
	if opts["family"] == "6" {
		return ip.To4() == nil
	}
	return ip.To4() != nil
}

func ciliumDeviceFilter(opts map[string]string) []string {
	if d := opts["device"]; d != "" {
		return strings.Split(d, ",")
	}
	return nil
}

// chooseCiliumNodePort: the NodePort addresses of the family, in the
// NodeAddress table's order (address, then device name).
// cilium/cilium pkg/datapath/tables/node_address.go, 1.15 or master
// (--version 1.15, or 1.16 and later: the default is the newest).
func chooseCiliumNodePort(opts map[string]string) Result {
	devs, routes, err := ciliumDevices(ciliumDeviceFilter(opts), opts)
	if err != nil {
		return fail(err)
	}
	var sel []ciliumNodeAddr
	for _, a := range ciliumNodeAddresses(devs, routes, ciliumNodeAddrVersion(opts)) {
		if a.nodePort && ciliumFamilyOK(a.ip, opts) {
			sel = append(sel, a)
		}
	}
	sort.SliceStable(sel, func(i, j int) bool {
		if !sel[i].ip.Equal(sel[j].ip) {
			return bytes.Compare(sel[i].ip.To16(), sel[j].ip.To16()) < 0
		}
		return sel[i].device < sel[j].device
	})
	r := Result{}
	for _, a := range sel {
		r.Addresses = append(r.Addresses, a.ip.String())
	}
	if len(sel) > 0 {
		r.Interface = sel[0].device
	}
	return r
}

// chooseCiliumMasquerade: per selected device (ifindex order) its Primary
// address of the family, else the wildcard fallback address (the best
// non-secondary address over all devices but lxc* and cilium_host).
func chooseCiliumMasquerade(opts map[string]string) Result {
	ver := ciliumNodeAddrVersion(opts)
	newest := ver >= 116
	devs, routes, err := ciliumDevices(ciliumDeviceFilter(opts), opts)
	if err != nil {
		return fail(err)
	}
	nas := ciliumNodeAddresses(devs, routes, ver)
	var feed []*ciliumDevice
	for _, d := range devs {
		// master's reconcile feeds only devices getAddressesFromDevice
		// accepted; 1.15 fed every device of the table.
		if !newest || ciliumUsable(d, ver) {
			feed = append(feed, d)
		}
	}
	fallback := ciliumFallback(feed, opts, newest)
	r := Result{}
	for _, d := range devs {
		if !d.selected {
			continue
		}
		var pick net.IP
		for _, a := range nas {
			if a.device == d.Name && a.primary && ciliumFamilyOK(a.ip, opts) {
				pick = a.ip
				break
			}
		}
		if pick == nil {
			pick = fallback
		}
		if pick == nil {
			continue
		}
		if r.Interface == "" {
			r.Interface = d.Name
		}
		r.Addresses = append(r.Addresses, pick.String())
	}
	return r
}

// ciliumFallback is fallbackAddresses.update over all devices in index
// order: non-secondary addresses; newest: selected devices first; then
// public before private, lower scope, lower ifindex, lower address.
func ciliumFallback(devs []*ciliumDevice, opts map[string]string, newest bool) net.IP {
	var best net.IP
	var bestDev *ciliumDevice
	var bestScope uint8
	for _, d := range devs {
		if strings.HasPrefix(d.Name, "lxc") || d.Name == ciliumHostDevice {
			continue
		}
		for _, a := range d.addrs {
			if a.secondary || !ciliumFamilyOK(a.ip, opts) {
				continue
			}
			better := false
			switch {
			case bestDev == nil:
				better = true
			case newest && d.selected && !bestDev.selected:
				better = true
			case newest && !d.selected && bestDev.selected:
				better = false
			case ciliumIsPublic(a.ip) && !ciliumIsPublic(best):
				better = true
			case !ciliumIsPublic(a.ip) && ciliumIsPublic(best):
				better = false
			case a.scope < bestScope:
				better = true
			case a.scope > bestScope:
				better = false
			case d.Index < bestDev.Index:
				better = true
			case d.Index > bestDev.Index:
				better = false
			default:
				better = ipLess(a.ip, best)
			}
			if better {
				best, bestDev, bestScope = a.ip, d, a.scope
			}
		}
	}
	return best
}
