// gochoose replays, on the host it runs on, how a node program picks "its"
// node IP, following each program's upstream source (re-implemented with
// the standard library only; README.md names the file, function and version
// replayed for each chooser). It is the reference side of nlorder's
// differential tests on real kernels.
//
//	gochoose CHOOSER [--flag VALUE]...
//
// prints exactly one JSON line:
//
//	{"chooser":"NAME","addresses":["10.0.0.1"],"interface":"eth0","error":""}
//
// addresses: the node IP(s) the program ends up with, in order ([] when it
// fails); interface: where the chosen address came from ("" when the program
// does not know); error: the program's own error or refusal, as upstream
// words it ("" when none). The exit status is 0 whenever a chooser ran (a
// failure is an answer) and 2 for bad usage of gochoose itself.
//
// Choosers: kubeadm, k3s, k3s-flannel, flannel, cilium, cilium-nodeport,
// cilium-masquerade, etcd, swarm, consul, nomad, antrea.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"sort"
	"strings"
)

// Result is the one line gochoose prints.
type Result struct {
	Chooser   string   `json:"chooser"`
	Addresses []string `json:"addresses"`
	Interface string   `json:"interface"`
	Error     string   `json:"error"`
}

type chooser struct {
	flags []string
	run   func(opts map[string]string) Result
}

var choosers = map[string]chooser{
	"kubeadm":           {[]string{"advertise-address"}, chooseKubeadm},
	"k3s":               {[]string{"node-ip", "flannel-iface"}, chooseK3s},
	"k3s-flannel":       {[]string{"flannel-iface", "flannel-version", "family"}, chooseK3sFlannel},
	"flannel":           {[]string{"flannel-version", "family"}, chooseFlannel},
	"cilium":            {[]string{"device", "version", "family"}, chooseCilium},
	"cilium-nodeport":   {[]string{"device", "family", "version"}, chooseCiliumNodePort},
	"cilium-masquerade": {[]string{"device", "family", "version"}, chooseCiliumMasquerade},
	"etcd":              {nil, chooseEtcd},
	"swarm":             {[]string{"docker-subnets"}, chooseSwarm},
	"consul":            {nil, chooseConsul},
	"nomad":             {nil, chooseNomad},
	"antrea":            {[]string{"node-ip", "transport-interface", "transport-interface-cidrs", "host-gateway"}, chooseAntrea},
}

func usage(msg string) {
	if msg != "" {
		fmt.Fprintln(os.Stderr, "gochoose:", msg)
	}
	var names []string
	for n := range choosers {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(os.Stderr, "usage: gochoose CHOOSER [--flag VALUE]...")
	for _, n := range names {
		var fl []string
		for _, f := range choosers[n].flags {
			fl = append(fl, "[--"+f+" V]")
		}
		fmt.Fprintf(os.Stderr, "  %s %s\n", n, strings.Join(fl, " "))
	}
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage("")
	}
	name := os.Args[1]
	c, ok := choosers[name]
	if !ok {
		usage(fmt.Sprintf("unknown chooser %q", name))
	}
	allowed := map[string]bool{}
	for _, f := range c.flags {
		allowed[f] = true
	}
	opts := map[string]string{}
	args := os.Args[2:]
	for len(args) > 0 {
		a := args[0]
		if !strings.HasPrefix(a, "--") {
			usage(fmt.Sprintf("unexpected argument %q", a))
		}
		key, val, hasEq := strings.Cut(a[2:], "=")
		if !hasEq {
			if len(args) < 2 {
				usage(fmt.Sprintf("flag --%s needs a value", key))
			}
			val = args[1]
			args = args[2:]
		} else {
			args = args[1:]
		}
		if !allowed[key] {
			usage(fmt.Sprintf("chooser %s takes no flag --%s", name, key))
		}
		opts[key] = val
	}
	if err := validate(name, opts); err != "" {
		usage(err)
	}
	r := c.run(opts)
	r.Chooser = name
	if r.Addresses == nil {
		r.Addresses = []string{}
	}
	out, err := json.Marshal(r)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gochoose:", err)
		os.Exit(2)
	}
	fmt.Println(string(out))
}

func validate(name string, opts map[string]string) string {
	if _, ok := opts["node-ip"]; name == "antrea" && !ok {
		return "antrea needs --node-ip (the Node's InternalIP addresses, in status order)"
	}
	if f, ok := opts["family"]; ok && f != "4" && f != "6" && !(f == "46" && (name == "k3s-flannel" || name == "flannel")) {
		return "--family must be 4 or 6 (46: dual stack, flannel only)"
	}
	if v, ok := opts["flannel-version"]; ok {
		if _, ok := parseVersion(v); !ok {
			return "--flannel-version must look like X.Y.Z"
		}
	}
	if v, ok := opts["version"]; ok && v != "main" {
		if _, ok := parseVersion(v); !ok {
			return "--version must look like X.Y (or main)"
		}
	}
	return ""
}

// parseVersion reads "X.Y" or "X.Y.Z" (an optional leading v) into a
// comparable triple.
func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	s = strings.TrimPrefix(s, "v")
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		n := 0
		if p == "" {
			return v, false
		}
		for _, c := range p {
			if c < '0' || c > '9' {
				return v, false
			}
			n = n*10 + int(c-'0')
		}
		v[i] = n
	}
	return v, true
}

func versionLess(a, b [3]int) bool {
	for i := 0; i < 3; i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// ok and fail build results.
func ok(iface string, ips ...net.IP) Result {
	r := Result{Interface: iface}
	for _, ip := range ips {
		r.Addresses = append(r.Addresses, ip.String())
	}
	return r
}

// globalUnicast: the interface's global unicast addresses (net.IPNet), in
// the order Addrs lists them.
func globalUnicast(iface *net.Interface) ([]*net.IPNet, error) {
	addrs, err := iface.Addrs()
	if err != nil {
		return nil, err
	}
	var out []*net.IPNet
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.IsGlobalUnicast() {
			out = append(out, n)
		}
	}
	return out, nil
}

func fail(err error) Result { return Result{Error: err.Error()} }

func failf(format string, a ...interface{}) Result { return Result{Error: fmt.Sprintf(format, a...)} }
