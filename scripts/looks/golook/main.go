// golook prints what Go's net package sees of the host, for the real-kernel
// fixtures under fixtures/looks (scripts/kernel-matrix.sh builds it with cgo
// and runs it inside the VM through `run` steps). Standard library only.
//
//	golook interfaces    net.Interfaces() in order; after each interface,
//	                     its Addrs() in order (one RTM_GETADDR dump each)
//	golook lookup NAME   net.LookupIP(NAME) in order; GODEBUG=netdns=go or
//	                     netdns=cgo picks the resolver
//	golook node NAME     both in one process, as a node agent (kubelet)
//	                     enumerates its interfaces and resolves its own name:
//	                     interfaces, then lookup NAME
//
// Output, one item a line:
//
//	iface INDEX NAME MTU FLAGS     FLAGS as Go prints them (up|broadcast|...), "0" if none
//	addr INDEX ADDRESS/PREFIX      an address of the interface above
//	ip ADDRESS                     one LookupIP result
//
// Errors go to stderr and the exit status is 1.
package main

import (
	"fmt"
	"net"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "interfaces":
		if len(os.Args) != 2 {
			usage()
		}
		interfaces()
	case "lookup":
		if len(os.Args) != 3 {
			usage()
		}
		lookup(os.Args[2])
	case "node":
		if len(os.Args) != 3 {
			usage()
		}
		interfaces()
		lookup(os.Args[2])
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: golook interfaces | golook lookup NAME | golook node NAME")
	os.Exit(2)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "golook:", err)
	os.Exit(1)
}

func interfaces() {
	ifs, err := net.Interfaces()
	if err != nil {
		fail(err)
	}
	for _, ifi := range ifs {
		fmt.Printf("iface %d %s %d %s\n", ifi.Index, ifi.Name, ifi.MTU, ifi.Flags)
		addrs, err := ifi.Addrs()
		if err != nil {
			fail(err)
		}
		for _, a := range addrs {
			fmt.Printf("addr %d %s\n", ifi.Index, a)
		}
	}
}

func lookup(name string) {
	ips, err := net.LookupIP(name)
	if err != nil {
		fail(err)
	}
	for _, ip := range ips {
		fmt.Printf("ip %s\n", ip)
	}
}
