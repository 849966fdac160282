package main

import (
	"errors"
	"fmt"
	"net"
	"sort"
	"syscall"
)

var (
	etcdErrNoDefaultRoute = errors.New("could not find default route")
	etcdErrNoDefaultHost  = errors.New("could not find default host")
)

// chooseEtcd replays etcd-io/etcd pkg/netutil/routes_linux.go
// GetDefaultHost (v3.4 .. main): one RTM_GETROUTE dump with AF_UNSPEC; per
// family the LAST route with rtm_dst_len 0 and rtm_table RT_TABLE_MAIN
// (map overwrite; type not checked); IPv4 first, then the other families in
// ascending order. Per route: RTA_PREFSRC if any; no RTA_OIF (multipath,
// blackhole, ...) is "could not find default route", returned at once (with
// the prefsrc, which etcd's caller then ignores); else the first
// RTM_NEWADDR of that family (own dump) whose ifa_index is the OIF, its
// IFA_ADDRESS (the peer on a point-to-point address).
func chooseEtcd(map[string]string) Result {
	all, err := RouteDump(syscall.AF_UNSPEC)
	if err != nil {
		return fail(err)
	}
	last := map[uint8]Route{}
	for _, r := range all {
		if r.DstLen == 0 && r.RtTable == syscall.RT_TABLE_MAIN {
			last[r.Family] = r
		}
	}
	if len(last) == 0 {
		return fail(etcdErrNoDefaultRoute)
	}
	var families []uint8
	if _, ok := last[syscall.AF_INET]; ok {
		families = append(families, syscall.AF_INET)
	}
	var rest []uint8
	for f := range last {
		if f != syscall.AF_INET {
			rest = append(rest, f)
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i] < rest[j] })
	families = append(families, rest...)
	for _, f := range families {
		host, iface, err := etcdChooseHost(f, last[f])
		if err != nil {
			return fail(err)
		}
		if host != "" {
			return Result{Addresses: []string{host}, Interface: iface}
		}
	}
	return fail(etcdErrNoDefaultHost)
}

func etcdChooseHost(family uint8, r Route) (string, string, error) {
	if r.OIF == 0 {
		return "", "", etcdErrNoDefaultRoute
	}
	if r.PrefSrc != nil {
		return net.IP(r.PrefSrc).String(), "", nil
	}
	msgs, err := ribDump(syscall.RTM_GETADDR, int(family), syscall.RTM_NEWADDR, syscall.SizeofIfAddrmsg)
	if err != nil {
		return "", "", err
	}
	for i := range msgs {
		m := &msgs[i]
		if int(u32(m.Data[4:8])) != r.OIF { // ifa_index
			continue
		}
		attrs, err := syscall.ParseNetlinkRouteAttr(m)
		if err != nil {
			return "", "", err
		}
		name := ""
		if ifc, err := net.InterfaceByIndex(r.OIF); err == nil {
			name = ifc.Name
		}
		for _, a := range attrs {
			if a.Attr.Type == syscall.IFA_ADDRESS { // RTA_DST has the same number
				return net.IP(a.Value).String(), name, nil
			}
		}
		return "", "", nil
	}
	return "", "", fmt.Errorf("could not find address for interface index %v", r.OIF)
}
