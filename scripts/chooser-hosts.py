#!/usr/bin/env python3
"""Writes kernel-matrix scenarios of hosts on which node programs disagree
about their own address.

    scripts/chooser-hosts.py --seed N --out DIR [--count K]

Each scenario (DIR/chooser-hostI.ip, I = 1..K, default K = 8) builds one
host in a fresh namespace and then asks every chooser of
scripts/looks/gochoose (kubeadm, k3s, k3s's and flanneld's flannel, Cilium's
node, NodePort and masquerade addresses, etcd, Docker Swarm, Consul, Nomad)
which address it would take, with no flags and with a few flag variants,
and ends with `ip addr show` and `ip route show table all`. The same seed
and count always write the same files.

What the hosts mix, every feature on at least one host of the set (with
the default count, on several):

- the uplink's kind: dummy, veth (its peer up, so it has carrier) or VLAN
  (on a dummy parent);
- the uplink's IPv4 address from RFC 1918, 100.64.0.0/10 (shared address
  space), the documentation and benchmarking blocks (192.0.2.0/24,
  198.51.100.0/24, 203.0.113.0/24, 198.18.0.0/15: "private" for RFC 6890,
  go-sockaddr and Cilium, not for Go's IsPrivate; Consul counts only
  192.0.2.0/24 of them) or the public
  Internet (45/8, 81/8, ...); a public /32 with an `onlink` gateway (as at
  Hetzner); a secondary in the same subnet, a /32 VIP, a second prefix of
  another kind;
- a second NIC (private IPv4, ULA, an explicit link-local), a `docker0`
  and a `cni0` bridge (up without a port, down, or up with a pod's veth
  as its port), a link left down with addresses, a point-to-point address
  (`peer`, as a WireGuard or Tailscale link has) on a dummy `wg0`;
- IPv6: 2001:db8::/32 (documentation; Cilium calls only 2001:db8::/48
  private, so both 2001:db8:0:X:: and 2001:db8:X:: appear) and 2a01::
  (public) global addresses, ULA, explicit link-local, `nodad`,
  `noprefixroute`, deprecated (`preferred_lft 0`), leased as DHCP and
  SLAAC leave them (finite `valid_lft`: not permanent, which flannel
  0.28 sorts last; on the uplink, with a static prefix after it), and
  tentative ones
  that stay so to the end: on a veth or a bridge with a port (a dummy,
  and a VLAN on one, is NOARP and skips duplicate address detection),
  whose `net.ipv6.neigh.IF.retrans_time_ms` is ten minutes, so one probe
  is never followed by a verdict (the link's link-local and its other
  addresses without `nodad` with it); a down link's IPv6 addresses are
  tentative too;
- `lo` up or down, with global addresses (a /32 and a /128) or without:
  Swarm's first pass looks only at links without a kind, which in a
  namespace is `lo` alone, so a global address on `lo` is its answer, and
  without one it falls back to its subnet check (one up link with one
  IPv4 and at most one IPv6 address: an answer; more: an error);
- 0, 1 or 2 IPv4 and IPv6 default routes with metrics and sometimes
  `src`, on the uplink, the second NIC or the point-to-point link;
- explicit link indexes that 6.1 dumps in another order than 6.12 (hash
  buckets against ascending index), for the choosers that keep the first
  of tied interfaces.

One host is always a Swarm answer through `lo`'s only global address, and
one through the subnet-check fallback (a single up link with addresses).

It prints which hosts hold each feature and exits 1 (the files written
all the same) when one is on no host: another seed or a larger count then.
fixtures/choosers/scenarios/chooser-host*.ip are `--seed 1` (count 8).

Run names are `CHOOSER` for the run without flags and
`CHOOSER--VARIANT` otherwise (`cilium--v1.13`, `k3s--fiface-eth1`); the
arguments themselves are in each run's `command` in runs.json.
"""
import argparse
import ipaddress
import pathlib
import random
import sys

GOCHOOSE = "/usr/local/bin/gochoose"
CHOOSERS = [
    "kubeadm",
    "k3s",
    "k3s-flannel",
    "flannel",
    "cilium",
    "cilium-nodeport",
    "cilium-masquerade",
    "etcd",
    "swarm",
    "consul",
    "nomad",
]


# A flag variant is (key, chooser, short name, args); DEV stands for one of
# the host's links, chosen per host. The flags that several choosers take:
def flannel_iface(key, chooser):
    return (key, chooser, "fiface-DEV", ["--flannel-iface", "DEV"])


def flannel_version(key, chooser, version):
    return (key, chooser, f"v{version}", ["--flannel-version", version])


def family6(key, chooser):
    return (key, chooser, "fam6", ["--family", "6"])


def device(key, chooser):
    return (key, chooser, "dev-DEV", ["--device", "DEV"])


# the flag variants
VARIANTS = [
    ("kubeadm-any6", "kubeadm", "adv-any6", ["--advertise-address", "::"]),
    flannel_iface("k3s-fiface", "k3s"),
    flannel_version("k3s-flannel-versions", "k3s-flannel", "0.27.0"),
    flannel_version("k3s-flannel-versions", "k3s-flannel", "0.28.0"),
    flannel_iface("k3s-flannel-fiface", "k3s-flannel"),
    flannel_version("flannel-0.27", "flannel", "0.27.0"),
    family6("flannel-fam6", "flannel"),
    ("cilium-1.13", "cilium", "v1.13", ["--version", "1.13"]),
    ("cilium-main", "cilium", "v1.16", ["--version", "1.16"]),
    ("cilium-main-fam6", "cilium", "v1.16-fam6", ["--version", "1.16", "--family", "6"]),
    family6("cilium-fam6", "cilium"),
    device("cilium-dev", "cilium"),
    device("nodeport-dev", "cilium-nodeport"),
    family6("nodeport-fam6", "cilium-nodeport"),
    device("masq-dev", "cilium-masquerade"),
    family6("masq-fam6", "cilium-masquerade"),
]
# the links' kinds each address class comes from
V4_CLASSES = ["rfc1918", "cgnat", "testnet", "public"]
# how the headers name them
CLASS_WORDS = {
    "rfc1918": "RFC 1918",
    "cgnat": "shared address space 100.64/10",
    "testnet": "documentation or benchmarking block",
    "public": "public",
}
# a tentative address's link keeps its duplicate address detection going
# this long (ms): past the end of any capture
DAD_HOLD_MS = 600000


class Host:
    def __init__(self, num, seed, rng, feat):
        self.num = num
        self.seed = seed
        self.rng = rng
        self.f = feat
        self.setup = []  # steps before the pause
        self.routes = []  # steps after it
        self.desc = []  # what the host holds, for the header
        self.used4 = []
        self.used6 = []
        # per link: name -> {"kind", "up", "v4": [(addr, prefix, noprefixroute)], "v6nodad": [...]}
        self.links = {}
        self.link_order = []

    # -- addresses ---------------------------------------------------
    def free_net(self, used, family, draw):
        """The first prefix of up to 100 that draw() writes that overlaps
        none of used (the host's prefixes of the family, which it joins)."""
        for _ in range(100):
            n = ipaddress.ip_network(draw())
            if not any(n.overlaps(u) for u in used):
                used.append(n)
                return n
        raise RuntimeError(f"no free {family} prefix")

    def net4(self, cls):
        rng = self.rng

        def draw():
            if cls == "rfc1918":
                return rng.choice(
                    [
                        f"10.{rng.randint(1, 40)}.{rng.randint(0, 255)}.0/24",
                        f"172.{rng.randint(20, 31)}.{rng.randint(0, 255)}.0/24",
                        f"192.168.{rng.randint(1, 250)}.0/24",
                    ]
                )
            if cls == "cgnat":
                return f"100.{rng.randint(64, 127)}.{rng.randint(0, 255)}.0/24"
            if cls == "testnet":
                return rng.choice(
                    ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", f"198.18.{rng.randint(0, 255)}.0/24"]
                )
            return f"{rng.choice([45, 81, 91, 95, 185, 37])}.{rng.randint(1, 254)}.{rng.randint(0, 255)}.0/24"

        return self.free_net(self.used4, "IPv4", draw)

    def net6(self, kind):
        rng = self.rng

        def draw():
            if kind == "db8":
                # inside 2001:db8::/48 (private to Cilium) or not (public)
                if rng.random() < 0.5:
                    return f"2001:db8:0:{self.num:x}{rng.randint(0, 255):02x}::/64"
                return f"2001:db8:{self.num:x}{rng.randint(0, 255):02x}::/64"
            if kind == "2a01":
                return f"2a01:4f8:{rng.randint(0x100, 0xfff):x}:{rng.randint(1, 0xffff):x}::/64"
            # ula
            return f"fd{rng.randint(0, 255):02x}:{rng.randint(0, 0xffff):x}:{rng.randint(0, 0xffff):x}:{self.num:x}::/64"

        return self.free_net(self.used6, "IPv6", draw)

    def host4(self, net, avoid=()):
        while True:
            a = net.network_address + self.rng.randint(10, 250)
            if a not in avoid:
                return a

    def host6(self, net):
        return net.network_address + self.rng.choice([self.rng.randint(2, 0xff), self.rng.randint(0x100, 0xffff)])

    # -- links -------------------------------------------------------
    def link(self, name, kind, up=True, index=None, peer=None, parent=None, vid=None, master=None, note=None):
        idx = f" index {index}" if index else ""
        if kind == "veth":
            self.setup.append(f"ip link add {name}{idx} type veth peer name {peer}")
        elif kind == "vlan":
            self.setup.append(f"ip link add link {parent} name {name}{idx} type vlan id {vid}")
        else:
            self.setup.append(f"ip link add {name}{idx} type {kind}")
        self.links[name] = {"kind": kind, "up": up, "v4": [], "v6": [], "index": index}
        self.link_order.append(name)
        if master:
            self.setup.append(f"ip link set {name} master {master}")

    def up(self, name):
        self.setup.append(f"ip link set {name} up")

    def addr4(self, dev, addr, plen, extra="", peer=None):
        if peer:
            self.setup.append(f"ip addr add {addr} peer {peer}/{plen} dev {dev}{extra}")
        else:
            self.setup.append(f"ip addr add {addr}/{plen} dev {dev}{extra}")
        self.links[dev]["v4"].append(
            {"addr": ipaddress.ip_address(addr), "plen": plen, "npr": "noprefixroute" in extra, "peer": peer}
        )

    def addr6(self, dev, addr, plen, extra=""):
        self.setup.append(f"ip addr add {addr}/{plen} dev {dev}{extra}")
        link = self.links[dev]
        nodad = "nodad" in extra
        # duplicate address detection that never ends: held on this link,
        # or not started (link down); a dummy (and a
        # VLAN on one) is NOARP and lo LOOPBACK: no detection at all
        held = link.get("hold") or not link["up"]
        noarp = link["kind"] in ("dummy", "vlan") or dev == "lo"
        link["v6"].append(
            {
                "addr": ipaddress.ip_address(addr),
                "plen": plen,
                "npr": "noprefixroute" in extra,
                "nodad": nodad,
                "tentative": held and not nodad and not (noarp and link["up"]),
            }
        )
        return link["v6"][-1]

    # -- the host ----------------------------------------------------
    def build(self):
        f, rng = self.f, self.rng
        if not f["lo_down"]:
            self.setup.append("ip link set lo up")
        else:
            self.desc.append("lo left down")
        self.links["lo"] = {"kind": None, "up": not f["lo_down"], "v4": [], "v6": []}
        lo = f["lo_global"]
        if lo:
            words = []
            if "v4" in lo:
                vip = rng.choice([f"10.{rng.randint(41, 99)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                                  f"{rng.choice([45, 81, 185])}.{rng.randint(1, 254)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"])
                self.addr4("lo", vip, 32)
                words.append(f"{vip}/32")
            if lo == "2v4":
                vip2 = f"10.{rng.randint(41, 99)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
                self.addr4("lo", vip2, 32)
                words.append(f"{vip2}/32")
            if "v6" in lo:
                v6 = self.net6(rng.choice(["db8", "2a01"]))
                a = v6.network_address + 0x100
                self.addr6("lo", a, 128)
                words.append(f"{a}/128")
            self.desc.append("global addresses on lo (" + ", ".join(words) + ")")

        # the uplink
        kind = f["uplink_kind"]
        if kind == "veth":
            up_name = "eth0"
            self.link("eth0", "veth", peer="eth0-peer", index=f["uplink_index"])
            self.links["eth0-peer"] = {"kind": "veth", "up": True, "v4": [], "v6": []}
            self.up("eth0-peer")
            self.desc.append("uplink eth0: a veth (peer eth0-peer up, so it has carrier)")
        elif kind == "vlan":
            self.link("trunk0", "dummy")
            self.up("trunk0")
            vid = rng.choice([10, 100, 200, 4000])
            up_name = f"vlan{vid}"
            self.link(up_name, "vlan", parent="trunk0", vid=vid, index=f["uplink_index"])
            self.desc.append(f"uplink {up_name}: VLAN {vid} on dummy trunk0")
        else:
            up_name = rng.choice(["eth0", "ens3", "enp1s0"])
            self.link(up_name, "dummy", index=f["uplink_index"])
            self.desc.append(f"uplink {up_name}: a dummy")
        self.uplink = up_name
        if f["uplink_index"]:
            self.desc[-1] += f", index {f['uplink_index']}"
        if f["tentative"] == "uplink":
            self.hold_dad(up_name)
        self.up(up_name)

        cls = f["v4class"]
        lease, leased = "", ""
        if f["dynamic"]:
            # as DHCP leaves it: finite lifetimes, so not IFA_F_PERMANENT
            t = rng.choice([3600, 43200, 86400])
            lease, leased = f" valid_lft {t} preferred_lft {t}", f", leased: valid_lft {t}, not permanent"
        if f["slash32"]:
            n = self.net4("public")
            a = self.host4(n)
            self.addr4(up_name, a, 32, lease)
            self.gw4_uplink = ("172.31.1.1", True)
            self.desc.append(f"{up_name} {a}/32 (public, gateway 172.31.1.1 onlink{leased})")
        else:
            n = self.net4(cls)
            a = self.host4(n, avoid=[n.network_address + 1])
            self.addr4(up_name, a, 24, lease)
            self.gw4_uplink = (str(n.network_address + 1), False)
            self.desc.append(f"{up_name} {a}/24 ({CLASS_WORDS[cls]}{leased})")
        self.primary4 = a
        if f["secondary"]:
            s = self.host4(n, avoid=[a, n.network_address + 1]) if not f["slash32"] else None
            if s is None:
                n2 = self.net4("rfc1918")
                s = self.host4(n2)
                self.addr4(up_name, s, 24)
                self.desc.append(f"{up_name} second prefix {s}/24 (RFC 1918)")
            else:
                self.addr4(up_name, s, 24)
                self.desc.append(f"{up_name} secondary {s}/24")
        if f["extra_v4"]:
            ecls = rng.choice([c for c in V4_CLASSES if c != cls])
            en = self.net4(ecls)
            ea = self.host4(en)
            extra = ""
            words = ""
            if f["noprefixroute"] and rng.random() < 0.5:
                extra, words = " noprefixroute", ", noprefixroute"
            if f["deprecated"] and rng.random() < 0.5:
                extra += " preferred_lft 0"
                words += ", deprecated"
            self.addr4(up_name, ea, 24, extra)
            self.desc.append(f"{up_name} second prefix {ea}/24 ({CLASS_WORDS[ecls]}{words})")
        if f["vip32"]:
            vcls = rng.choice(V4_CLASSES)
            vn = self.net4(vcls)
            va = self.host4(vn)
            self.addr4(up_name, va, 32)
            self.desc.append(f"{up_name} VIP {va}/32 ({CLASS_WORDS[vcls]})")

        # the uplink's IPv6
        for item in f["uplink_v6"]:
            if item == "ll":
                ll = f"fe80::{rng.randint(1, 0xfff):x}:{rng.randint(1, 0xffff):x}"
                self.addr6(up_name, ll, 64, " nodad")
                self.desc.append(f"{up_name} explicit link-local {ll}/64")
                continue
            v6 = self.net6(item)
            a6 = self.host6(v6)
            flags = []
            if rng.random() < 0.6:
                flags.append("nodad")
            if item == f["noprefixroute6"]:
                flags.append("noprefixroute")
            if item == f["deprecated6"]:
                flags.append("preferred_lft 0")
            if f["dynamic"] and item == f["uplink_v6"][0]:
                # as SLAAC leaves it: finite lifetimes
                if "preferred_lft 0" in flags:
                    flags[flags.index("preferred_lft 0")] = "valid_lft 2592000 preferred_lft 0"
                else:
                    flags.append("valid_lft 2592000 preferred_lft 604800")
            extra = "".join(" " + x for x in flags)
            e = self.addr6(up_name, a6, 64, extra)
            what = {"db8": "2001:db8 GUA", "2a01": "2a01 GUA", "ula": "ULA"}[item]
            if e["tentative"]:
                flags.append("tentative to the end")
            note = ", ".join(
                "deprecated" if x.endswith("preferred_lft 0") else "leased, not permanent" if x.startswith("valid_lft") else x
                for x in flags
            )
            if any(x == "valid_lft 2592000 preferred_lft 0" for x in flags):
                note += ", leased, not permanent"
            self.desc.append(f"{up_name} {a6}/64 ({what}{', ' + note if note else ''})")
        if f["tentative"] == "uplink":
            t = self.net6(rng.choice(["db8", "2a01"]))
            ta = self.host6(t)
            self.addr6(up_name, ta, 64)
            self.desc.append(f"{up_name} {ta}/64 tentative to the end ({up_name}'s retrans_time_ms={DAD_HOLD_MS}: "
                             "its link-local and every address without nodad too)")

        # the second NIC
        if f["n2"]:
            n2name = rng.choice(["eth1", "ens4", "enp2s0"]) if up_name != "eth1" else "eth2"
            if n2name == up_name:
                n2name = "eth1"
            k2 = f["n2_kind"]
            if k2 == "veth":
                self.link(n2name, "veth", peer=f"{n2name}-peer", index=f["n2_index"])
                self.links[f"{n2name}-peer"] = {"kind": "veth", "up": True, "v4": [], "v6": []}
                self.up(f"{n2name}-peer")
            else:
                self.link(n2name, "dummy", index=f["n2_index"])
            if f["tentative"] == "n2":
                self.hold_dad(n2name)
            self.up(n2name)
            ncls = rng.choice(["rfc1918", "rfc1918", "cgnat"])
            nn = self.net4(ncls)
            na = self.host4(nn, avoid=[nn.network_address + 1])
            self.addr4(n2name, na, 24)
            self.n2 = n2name
            self.gw4_n2 = str(nn.network_address + 1)
            words = [f"second NIC {n2name} ({k2}{', index ' + str(f['n2_index']) if f['n2_index'] else ''}) {na}/24 ({CLASS_WORDS[ncls]})"]
            if f["n2_ula"]:
                un = self.net6("ula")
                ua = self.host6(un)
                self.addr6(n2name, ua, 64, " nodad")
                words.append(f"{ua}/64")
            if f["n2_ll"]:
                ll = f"fe80::{rng.randint(1, 0xfff):x}:{rng.randint(1, 0xffff):x}"
                self.addr6(n2name, ll, 64, " nodad")
                words.append(f"explicit link-local {ll}/64")
            if f["tentative"] == "n2":
                t = self.net6(rng.choice(["db8", "2a01"]))
                ta = self.host6(t)
                self.addr6(n2name, ta, 64)
                words.append(f"{ta}/64 tentative to the end (retrans_time_ms={DAD_HOLD_MS}, its link-local too)")
            self.desc.append(", ".join(words))
        else:
            self.n2 = None

        # bridges
        d = f["docker0"]
        if d != "absent":
            self.link("docker0", "bridge")
            self.links["docker0"]["up"] = d == "up"
            self.addr4("docker0", "172.17.0.1", 16)
            words = ["docker0 bridge 172.17.0.1/16"]
            if f["docker0_v6"]:
                self.addr6("docker0", "fd00:d0c::1", 64)
                words.append("fd00:d0c::1/64" + (" (tentative: down)" if d != "up" else ""))
            if d == "up":
                self.up("docker0")
                words.append("up, no port")
            else:
                words.append("down")
            self.desc.append(", ".join(words))
        c = f["cni0"]
        if c != "absent":
            cn = rng.choice(["10.42.0.1", "10.244.0.1"])
            self.link("cni0", "bridge")
            self.addr4("cni0", cn, 24)
            words = [f"cni0 bridge {cn}/24"]
            if c == "up-port":
                # a pod's veth as its port
                self.link("veth1a2b3c", "veth", peer="veth1a2b3c-pod", master="cni0")
                self.links["veth1a2b3c-pod"] = {"kind": "veth", "up": True, "v4": [], "v6": []}
                self.up("veth1a2b3c")
                self.up("veth1a2b3c-pod")
                if f["tentative"] == "cni0":
                    self.hold_dad("cni0")
                self.up("cni0")
                words.append("up with a veth port")
                if f["tentative"] == "cni0":
                    t = self.net6("db8")
                    ta = t.network_address + 1
                    self.addr6("cni0", ta, 64)
                    words.append(f"{ta}/64 tentative to the end (retrans_time_ms={DAD_HOLD_MS})")
            elif c == "up":
                self.up("cni0")
                words.append("up, no port")
            else:
                self.links["cni0"]["up"] = False
                words.append("down")
            self.desc.append(", ".join(words))

        # a link left down with addresses
        if f["downlink"]:
            name = rng.choice(["eth3", "ens5", "enp3s0"])
            self.link(name, "dummy", up=False)
            dn = self.net4(rng.choice(["public", "rfc1918"]))
            da = self.host4(dn)
            self.addr4(name, da, 24)
            d6 = self.net6(rng.choice(["2a01", "db8"]))
            d6a = self.host6(d6)
            self.addr6(name, d6a, 64, " nodad")
            self.desc.append(f"{name} down, with {da}/24 and {d6a}/64")
            self.downlink = name
        else:
            self.downlink = None

        # a point-to-point address
        if f["p2p"]:
            self.link("wg0", "dummy")
            self.up("wg0")
            pcls = rng.choice(["rfc1918", "cgnat"])
            if pcls == "cgnat":
                local = f"100.{rng.randint(64, 127)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}"
                peer = f"100.{rng.randint(64, 127)}.{rng.randint(0, 255)}.1"
            else:
                local = f"10.9.{self.num}.1"
                peer = f"10.9.{self.num}.2"
            self.addr4("wg0", local, 32, peer=peer)
            self.p2p_peer = peer
            self.desc.append(f"wg0 (dummy) {local} peer {peer}/32")
        else:
            self.p2p_peer = None

        self.build_routes()

    def hold_dad(self, name):
        # one probe, answered by nobody, ten minutes apart: tentative to the end
        self.links[name]["hold"] = True
        self.setup.append(f"sysctl net.ipv6.conf.{name}.dad_transmits=1")
        # (a neighbour parameter: net.ipv6.neigh, not net.ipv6.conf)
        self.setup.append(f"sysctl net.ipv6.neigh.{name}.retrans_time_ms={DAD_HOLD_MS}")

    def build_routes(self):
        f, rng = self.f, self.rng
        metrics = rng.sample([0, 20, 50, 100, 101, 200, 425, 600, 1024], 3)
        if f["dynamic"]:
            # the leased uplink's route first, as DHCP clients set it
            metrics.sort()
        # IPv4
        cands = [("uplink", self.uplink)]
        if self.n2:
            cands.append(("n2", self.n2))
        if self.p2p_peer:
            cands.append(("p2p", "wg0"))
        n4 = f["defaults4"]
        chosen = [cands[0]] if n4 >= 1 else []
        if n4 == 2:
            chosen.append(rng.choice(cands[1:]) if len(cands) > 1 else ("uplink-onlink", self.uplink))
        if f["defaults4_first_other"] and n4 == 1 and len(cands) > 1:
            chosen = [rng.choice(cands[1:])]
        words = []
        for i, (what, dev) in enumerate(chosen):
            m = metrics[i]
            if what == "uplink":
                gw, onlink = self.gw4_uplink
            elif what == "n2":
                gw, onlink = self.gw4_n2, False
            elif what == "p2p":
                gw, onlink = self.p2p_peer, False
            else:  # a second gateway on the uplink, outside its prefixes
                gw, onlink = f"192.0.0.{rng.randint(1, 7)}", True
            src = ""
            if f["src4"] and (i == 0 or rng.random() < 0.5):
                # any local address will do; lo's only when lo is up (a
                # down link's addresses have no local route)
                local = [a["addr"] for a in self.links[dev]["v4"]]
                if self.links["lo"]["up"]:
                    local += [a["addr"] for a in self.links["lo"]["v4"]]
                if local:
                    src = f" src {rng.choice(local)}"
            met = f" metric {m}" if m else ""
            self.routes.append(f"ip route add default via {gw} dev {dev}{' onlink' if onlink else ''}{met}{src}")
            words.append(f"via {gw} dev {dev}{met}{src}")
        self.desc.append("IPv4 default routes: " + ("; ".join(words) if words else "none"))
        # IPv6
        n6 = f["defaults6"]
        devs6 = [self.uplink] + ([self.n2] if self.n2 else [])
        words = []
        m6 = rng.sample([100, 256, 512, 1024, 2048], 2)
        for i in range(n6):
            dev = devs6[i % len(devs6)] if i == 0 or rng.random() < 0.6 else self.uplink
            # a gateway in a prefix the device has a route for
            gua = [a for a in self.links[dev]["v6"]
                   if not a["addr"].is_link_local and a["plen"] == 64 and not a["npr"] and not a["tentative"]]
            if gua and rng.random() < 0.5:
                g = gua[0]
                gw = ipaddress.ip_network(f"{g['addr']}/64", strict=False).network_address + 1
                onlink = ""
            elif rng.random() < 0.3:
                gw, onlink = f"2a01:4f8:ffff:{self.num:x}::1", " onlink"
            else:
                gw, onlink = f"fe80::{i + 1}", ""
            src = ""
            if f["src6"]:
                # a source must have finished (or skipped) duplicate
                # address detection: nodad ones, and lo's when lo is up
                ok = [a["addr"] for a in self.links[dev]["v6"] if a["nodad"] and not a["addr"].is_link_local]
                if self.links["lo"]["up"]:
                    ok += [a["addr"] for a in self.links["lo"]["v6"]]
                if ok:
                    src = f" src {rng.choice(ok)}"
            self.routes.append(f"ip -6 route add default via {gw} dev {dev}{onlink} metric {m6[i]}{src}")
            words.append(f"via {gw} dev {dev} metric {m6[i]}{src}")
        self.desc.append("IPv6 default routes: " + ("; ".join(words) if words else "none"))

    # -- the runs ----------------------------------------------------
    def devices(self):
        """Candidates for --device / --flannel-iface, most telling first."""
        out = []
        if self.n2:
            out.append(self.n2)
        if self.p2p_peer:
            out.append("wg0")
        out.append(self.uplink)
        if self.downlink:
            out.append(self.downlink)
        return out

    def runs(self, variants):
        rng = self.rng
        lines = []
        devs = self.devices()
        for chooser in CHOOSERS:
            lines.append(f"run {chooser} {GOCHOOSE} {chooser}")
            for key, ch, short, args in VARIANTS:
                if ch != chooser or key not in variants:
                    continue
                if "DEV" in short:
                    dev = devs[0] if rng.random() < 0.6 else rng.choice(devs)
                    short = short.replace("DEV", dev)
                    args = [dev if x == "DEV" else x for x in args]
                lines.append(f"run {chooser}--{short} {GOCHOOSE} {chooser} {' '.join(args)}")
        lines.append("run ip-addr /usr/sbin/ip addr show")
        lines.append("run ip-route /usr/sbin/ip route show table all")
        return lines


def plan(rng, count):
    """Per host, which features it gets: every value and feature on at
    least one host (when the count allows), the rest at random."""
    hosts = [{} for _ in range(count)]
    roles = rng.sample(range(count), 2)
    hosts[roles[0]]["role"] = "swarm-lo"
    hosts[roles[1]]["role"] = "swarm-fallback"
    for h in hosts:
        h.setdefault("role", "mixed")
    # every host but the fallback one takes any feature; lo's own features
    # stay off the one whose lo holds Swarm's answer
    mixed = [i for i in range(count) if hosts[i]["role"] != "swarm-fallback"]
    plain = [i for i in range(count) if hosts[i]["role"] == "mixed"]

    def spread(key, values, among=None):
        idx = list(range(count)) if among is None else list(among)
        seq = list(values)[: len(idx)]
        seq += [rng.choice(values) for _ in range(len(idx) - len(seq))]
        rng.shuffle(seq)
        for i, v in zip(idx, seq):
            hosts[i][key] = v

    def some(key, lo, hi, among=None, value=True, default=False):
        idx = list(range(count)) if among is None else list(among)
        k = min(len(idx), rng.randint(lo, hi))
        chosen = set(rng.sample(idx, k))
        for i in range(count):
            if key not in hosts[i] or i in chosen:
                hosts[i][key] = value if i in chosen else default

    spread("uplink_kind", ["dummy", "veth", "vlan"])
    spread("v4class", V4_CLASSES)
    spread("defaults4", [0, 1, 2, 1])
    spread("defaults6", [0, 1, 2, 0])
    spread("docker0", ["up", "down", "absent"], among=mixed)
    spread("cni0", ["up-port", "up", "down", "absent"], among=mixed)
    some("secondary", 2, 4, among=mixed)
    some("vip32", 2, 4, among=mixed)
    some("extra_v4", 2, 4, among=mixed)
    some("slash32", 1, 1, among=[i for i in mixed if hosts[i]["v4class"] == "public"] or mixed)
    some("n2", 3, 5, among=mixed)
    some("downlink", 3, 4)
    some("p2p", 2, 3, among=mixed)
    some("lo_down", 1, 1, among=plain)
    spread("lo_global", ["v4", "v4v6", "2v4", None, None], among=plain)
    hosts[roles[0]]["lo_global"] = rng.choice(["v4", "v4v6"])
    some("noprefixroute", 2, 3)
    some("deprecated", 2, 3)
    some("src4", 3, 4, among=[i for i in range(count) if hosts[i]["defaults4"] >= 1])
    some("src6", 2, 3, among=[i for i in range(count) if hosts[i]["defaults6"] >= 1])
    some("docker0_v6", 1, 2, among=[i for i in mixed if hosts[i]["docker0"] != "absent"])
    # the uplink's IPv6: each kind on some hosts
    for i in range(count):
        hosts[i]["uplink_v6"] = []
    for item in ["db8", "2a01", "ula", "ll"]:
        for i in rng.sample(mixed, min(len(mixed), rng.randint(2, 4))):
            hosts[i]["uplink_v6"].append(item)
    # the Swarm fallback host: one up link with one IPv4 address and at
    # most one global IPv6 one; nothing else up with an address
    fb = roles[1]
    hosts[fb]["uplink_v6"] = [rng.choice(["db8", "2a01", "ula"])] + (["ll"] if rng.random() < 0.5 else [])
    hosts[fb]["lo_global"] = None
    for k in ["secondary", "vip32", "extra_v4", "slash32", "n2", "p2p", "lo_down"]:
        hosts[fb][k] = False
    hosts[fb]["docker0"] = "down"
    hosts[fb]["cni0"] = "absent"
    hosts[fb]["downlink"] = True
    for h in hosts:
        for k in ["docker0", "cni0"]:
            h.setdefault(k, "absent")
        for k in ["secondary", "vip32", "extra_v4", "slash32", "n2", "p2p", "lo_down", "docker0_v6",
                  "defaults4_first_other"]:
            h.setdefault(k, False)
        h.setdefault("lo_global", None)
        h.setdefault("uplink_index", None)
        h["n2_kind"] = rng.choice(["dummy", "veth"])
        h["n2_ula"] = rng.random() < 0.5
        h["n2_ll"] = rng.random() < 0.4
        h["n2_index"] = None
        # which IPv6 address is noprefixroute / deprecated (one made for it
        # if the uplink has none)
        v6gua = [x for x in h["uplink_v6"] if x != "ll"]
        if (h["noprefixroute"] or h["deprecated"]) and not v6gua:
            h["uplink_v6"].append("db8")
            v6gua = ["db8"]
        h["noprefixroute6"] = rng.choice(v6gua) if h["noprefixroute"] and v6gua else None
        h["deprecated6"] = rng.choice(v6gua) if h["deprecated"] and v6gua else None
        h["tentative"] = None
    # IPv6 addresses that stay tentative: on a veth or a bridge with a port
    for i in rng.sample(mixed, min(len(mixed), 3)):
        h = hosts[i]
        if h["uplink_kind"] == "veth":
            h["tentative"] = "uplink"
        elif h["cni0"] == "up-port" and rng.random() < 0.5:
            h["tentative"] = "cni0"
        else:
            h["n2"] = True
            h["n2_kind"] = "veth"
            h["tentative"] = "n2"
    # explicit indexes: the second NIC in lo's or nlmon0's hash bucket (6.1
    # dumps it before the uplink, 6.12 after); one such host has no IPv4
    # default route, so the choosers' "first interface" fallback shows it
    idx_hosts = rng.sample(mixed, min(len(mixed), 2))
    no_def = [i for i in mixed if hosts[i]["defaults4"] == 0]
    if no_def and not set(idx_hosts) & set(no_def):
        idx_hosts[0] = rng.choice(no_def)
    for i in idx_hosts:
        hosts[i]["n2"] = True
        hosts[i]["n2_index"] = rng.choice([257, 258, 513])
    # an uplink with a high index elsewhere: dumped last on 6.12 only
    rest = [i for i in mixed if i not in idx_hosts]
    if rest:
        j = rng.choice(rest)
        hosts[j]["uplink_index"] = rng.choice([259, 515])
        hosts[j]["n2"] = True
    # a single IPv4 default route through the second NIC or the
    # point-to-point link rather than the uplink
    other = [i for i in range(count) if hosts[i]["defaults4"] == 1 and (hosts[i]["n2"] or hosts[i]["p2p"])]
    for i in rng.sample(other, min(len(other), 2)):
        hosts[i]["defaults4_first_other"] = True
    # leased addresses (DHCP, SLAAC: not permanent) on the uplink that the
    # default route leaves by, with a static second prefix after the IPv4
    # one: flannel from 0.28 sorts permanent addresses first
    for h in hosts:
        h["dynamic"] = False
    dyn = [i for i in range(count) if hosts[i]["defaults4"] >= 1 and not hosts[i]["defaults4_first_other"]]
    for i in rng.sample(dyn, min(len(dyn), 3)):
        hosts[i]["dynamic"] = True
        if i != fb:
            hosts[i]["extra_v4"] = True
    # flag variants: each on 3 to 5 hosts; flannel's versions where leases
    # are, Cilium 1.16 (before 1.20 skips tentative addresses) where
    # tentative or deprecated addresses are
    for h in hosts:
        h["variants"] = set()
    keys = sorted({v[0] for v in VARIANTS})
    for key in keys:
        for i in rng.sample(range(count), min(count, rng.randint(3, 5))):
            hosts[i]["variants"].add(key)
    for h in hosts:
        if h["dynamic"]:
            h["variants"] |= {"k3s-flannel-versions", "flannel-0.27"}
        if h["tentative"] or h["deprecated"]:
            h["variants"].add("cilium-main-fam6")
    return hosts


# what the set must show somewhere: a label and a test on one host's
# features and steps
COVERAGE = [
    ("uplink dummy", lambda f, t: f["uplink_kind"] == "dummy"),
    ("uplink veth", lambda f, t: f["uplink_kind"] == "veth"),
    ("uplink VLAN", lambda f, t: f["uplink_kind"] == "vlan"),
    ("RFC 1918 IPv4", lambda f, t: f["v4class"] == "rfc1918"),
    ("100.64/10 IPv4", lambda f, t: " 100." in t),
    ("TEST-NET/benchmark IPv4", lambda f, t: any(x in t for x in (" 192.0.2.", " 198.51.100.", " 203.0.113.", " 198.18."))),
    ("public IPv4", lambda f, t: f["v4class"] == "public" or f["slash32"]),
    ("public /32 with onlink gateway", lambda f, t: f["slash32"]),
    ("IPv4 secondary", lambda f, t: f["secondary"]),
    ("/32 VIP", lambda f, t: f["vip32"]),
    ("second prefix on the uplink", lambda f, t: f["extra_v4"]),
    ("second NIC", lambda f, t: f["n2"]),
    ("docker0 up", lambda f, t: f["docker0"] == "up"),
    ("docker0 down", lambda f, t: f["docker0"] == "down"),
    ("cni0 up with a port", lambda f, t: f["cni0"] == "up-port"),
    ("cni0 up, no port", lambda f, t: f["cni0"] == "up"),
    ("cni0 down", lambda f, t: f["cni0"] == "down"),
    ("link down with addresses", lambda f, t: f["downlink"]),
    ("point-to-point peer", lambda f, t: " peer " in t and "dev wg0" in t),
    ("2001:db8 GUA", lambda f, t: "ip addr add 2001:db8:" in t),
    ("2a01 GUA", lambda f, t: "ip addr add 2a01:" in t),
    ("ULA", lambda f, t: "ip addr add fd" in t),
    ("explicit link-local", lambda f, t: "ip addr add fe80::" in t),
    ("nodad", lambda f, t: " nodad" in t),
    ("noprefixroute", lambda f, t: "noprefixroute" in t),
    ("deprecated", lambda f, t: "preferred_lft 0" in t),
    ("leased (not permanent)", lambda f, t: "valid_lft" in t),
    ("2001:db8 inside Cilium's /48", lambda f, t: "ip addr add 2001:db8:0:" in t),
    ("tentative to the end", lambda f, t: "retrans_time_ms" in t),
    ("global address on lo", lambda f, t: f["lo_global"] is not None),
    ("two IPv4 on lo", lambda f, t: f["lo_global"] == "2v4"),
    ("lo down", lambda f, t: f["lo_down"]),
    ("no IPv4 default route", lambda f, t: "ip route add default" not in t),
    ("one IPv4 default route", lambda f, t: t.count("ip route add default") == 1),
    ("two IPv4 default routes", lambda f, t: t.count("ip route add default") == 2),
    ("no IPv6 default route", lambda f, t: "ip -6 route add default" not in t),
    ("one IPv6 default route", lambda f, t: t.count("ip -6 route add default") == 1),
    ("two IPv6 default routes", lambda f, t: t.count("ip -6 route add default") == 2),
    ("IPv4 default route with src", lambda f, t: any(l.startswith("ip route add default") and " src " in l for l in t.splitlines())),
    ("IPv6 default route with src", lambda f, t: any(l.startswith("ip -6 route add default") and " src " in l for l in t.splitlines())),
    ("onlink gateway", lambda f, t: " onlink" in t),
    ("default route not on the uplink", lambda f, t: f["defaults4_first_other"] and t.count("ip route add default") == 1),
    ("explicit index", lambda f, t: " index " in t),
    ("Swarm through lo", lambda f, t: f["role"] == "swarm-lo"),
    ("Swarm through its fallback", lambda f, t: f["role"] == "swarm-fallback"),
] + [(f"variant {k}", (lambda k: lambda f, t: k in f["variants"])(k)) for k in sorted({v[0] for v in VARIANTS})]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=8)
    args = ap.parse_args()
    if args.count < 3:
        sys.exit("--count must be at least 3 (two hosts have fixed roles)")
    rng = random.Random(args.seed)
    hosts = plan(rng, args.count)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    covered = {}
    for i, feat in enumerate(hosts, start=1):
        h = Host(i, args.seed, random.Random(f"{args.seed}/{i}"), feat)
        h.build()
        runs = h.runs(feat["variants"])
        role = {
            "swarm-lo": "Swarm's answer: lo's only global IPv4 address",
            "swarm-fallback": "Swarm's answer: its subnet-check fallback (one up link with addresses)",
            "mixed": None,
        }[feat["role"]]
        head = [
            f"# Generated by scripts/chooser-hosts.py --seed {args.seed} --count {args.count}: host {i}.",
            "# The host:",
        ]
        head += [f"#   - {d}" for d in h.desc]
        if role:
            head.append(f"#   - {role}")
        head.append("# Every gochoose chooser without flags, then these variants: "
                    + (", ".join(sorted(feat["variants"])) or "none")
                    + "; ip addr and ip route last.")
        body = h.setup + ["# non-tentative duplicate address detection ends", "sleep 3"] + h.routes + runs
        text = "\n".join(head + body) + "\n"
        (out / f"chooser-host{i}.ip").write_text(text)
        steps = "\n".join(h.setup + h.routes)
        for label, test in COVERAGE:
            if test(feat, steps):
                covered.setdefault(label, []).append(i)
    missing = [label for label, _ in COVERAGE if label not in covered]
    for label, _ in COVERAGE:
        print(f"  {label}: hosts {', '.join(map(str, covered.get(label, []))) or '-'}", file=sys.stderr)
    if missing:
        print(f"not covered with seed {args.seed}: {', '.join(missing)}", file=sys.stderr)
    print(f"{out}: {len(hosts)} hosts (seed {args.seed})", file=sys.stderr)
    if missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
