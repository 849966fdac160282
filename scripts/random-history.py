#!/usr/bin/env python3
"""Writes random histories of link, address and route changes as scenario
files for scripts/kernel-matrix.sh.

    random-history.py SEED COUNT OUTDIR

The kind of history an engineer makes on a node: devices created with and
without explicit indexes (dummy, veth pairs, bridges, VLANs, macvlans),
renamed, put up and down, enslaved and deleted; IPv4 primaries,
secondaries, labels and scopes; IPv6 global, ULA and link-local addresses
with and without nodad or noprefixroute; routes with gateways, metrics, other
tables, append/prepend/replace and deletions; requests the kernel refuses;
and now and then `ip addr show`, `ip route show` or `bridge link show`.
promote_secondaries is drawn per history. Same SEED, same files.
"""
import os
import random
import sys


def history(rng, n):
    steps = ["ip link show", "ip link set lo up"]
    promote = rng.choice([0, 1])
    steps.insert(0, f"sysctl net.ipv4.conf.all.promote_secondaries={promote}")
    steps.insert(1, f"sysctl net.ipv4.conf.default.promote_secondaries={promote}")
    devs = {}  # name -> {"kind", "up", "v4": [...], "v6": [...], "lower", "peer"}
    used_idx = set()
    counter = [0]

    def newname(prefix):
        counter[0] += 1
        return f"{prefix}{counter[0]}"

    def index_opt():
        if rng.random() < 0.5:
            return ""
        while True:
            i = rng.choice([rng.randint(3, 60), rng.randint(256, 1100)])
            if i not in used_idx:
                used_idx.add(i)
                return f" index {i}"

    def pick(pred=lambda d: True):
        c = [k for k, v in devs.items() if pred(v)]
        return rng.choice(c) if c else None

    subnets4 = ["10.9.0", "10.9.1", "192.168.50", "172.18.45"]
    subnets6 = ["2001:db8:1", "2001:db8:2", "fd00:10", "2001:db8:77"]
    for _ in range(n):
        r = rng.random()
        if r < 0.16 or not devs:
            kind = rng.choice(["dummy", "dummy", "veth", "bridge", "vlan", "macvlan"])
            base = pick(lambda d: d["kind"] == "dummy")
            if kind in ("vlan", "macvlan") and base is None:
                kind = "dummy"
            name = newname({"dummy": "eth", "veth": "veth", "bridge": "br", "vlan": "vl", "macvlan": "mv"}[kind])
            if kind == "veth":
                peer = newname("vpeer")
                steps.append(f"ip link add {name}{index_opt()} type veth peer name {peer}{index_opt()}")
                devs[name] = {"kind": "veth", "up": False, "peer": peer}
                devs[peer] = {"kind": "veth", "up": False, "peer": name}
            elif kind == "vlan":
                vid = rng.randint(2, 4000)
                steps.append(f"ip link add link {base} name {name}{index_opt()} type vlan id {vid}")
                devs[name] = {"kind": "vlan", "up": devs[base]["up"], "lower": base}
            elif kind == "macvlan":
                steps.append(f"ip link add link {base} name {name}{index_opt()} type macvlan mode bridge")
                devs[name] = {"kind": "macvlan", "up": False, "lower": base}
            else:
                steps.append(f"ip link add {name}{index_opt()} type {kind}")
                devs[name] = {"kind": kind, "up": False}
        elif r < 0.30:
            d = pick()
            up = not devs[d]["up"]
            if devs[d]["kind"] == "vlan" and up and not devs[devs[d]["lower"]]["up"]:
                up = True  # refused (ENETDOWN): the lower device is down
                steps.append(f"ip link set {d} up")
                continue
            steps.append(f"ip link set {d} {'up' if up else 'down'}")
            devs[d]["up"] = up
            for v, info in devs.items():
                if info.get("lower") == d and info["kind"] == "vlan":
                    info["up"] = up
        elif r < 0.34:
            d = pick(lambda v: v["kind"] == "veth")
            b = pick(lambda v: v["kind"] == "bridge")
            if d and b:
                steps.append(f"ip link set {d} master {b}")
        elif r < 0.37:
            d = pick(lambda v: v["kind"] in ("dummy", "bridge", "macvlan"))
            if d and not any(v.get("lower") == d for v in devs.values()):
                new = newname("ens")
                steps.append(f"ip link set {d} name {new}")
                devs[new] = devs.pop(d)
                for v in devs.values():
                    if v.get("lower") == d:
                        v["lower"] = new
                    if v.get("peer") == d:
                        v["peer"] = new
        elif r < 0.41:
            d = pick()
            gone = [d]
            if devs[d].get("peer"):
                gone.append(devs[d]["peer"])
            gone += [k for k, v in devs.items() if v.get("lower") in gone]
            steps.append(f"ip link del {d}")
            for g in gone:
                devs.pop(g, None)
        elif r < 0.62:
            d = pick()
            s = rng.choice(subnets4)
            host = rng.randint(1, 20)
            plen = rng.choice([24, 24, 24, 16, 25, 32])
            extra = ""
            x = rng.random()
            if x < 0.2:
                extra = f" label {d[:10]}:{rng.randint(0, 9)}"
            elif x < 0.27:
                extra = " scope link"
            elif x < 0.3:
                extra = " noprefixroute"
            if plen == 16:
                s = s.rsplit(".", 1)[0] + ".0"
            steps.append(f"ip addr add {s}.{host}/{plen} dev {d}{extra}")
            devs[d].setdefault("v4", []).append(f"{s}.{host}/{plen}")
        elif r < 0.74:
            d = pick()
            x = rng.random()
            if x < 0.2:
                a = f"fe80::{rng.randint(1, 0xffff):x}/64"
            else:
                a = f"{rng.choice(subnets6)}::{rng.randint(1, 0xff):x}/64"
            flags = ""
            if rng.random() < 0.6:
                flags += " nodad"
            if rng.random() < 0.15:
                flags += " noprefixroute"
            steps.append(f"ip addr add {a} dev {d}{flags}")
            devs[d].setdefault("v6", []).append(a)
        elif r < 0.80:
            d = pick(lambda v: v.get("v4") or v.get("v6"))
            if d:
                fam = "v4" if devs[d].get("v4") and (not devs[d].get("v6") or rng.random() < 0.6) else "v6"
                a = rng.choice(devs[d][fam])
                steps.append(f"ip addr del {a} dev {d}")
                devs[d][fam] = [x for x in devs[d][fam] if x != a]
            else:
                steps.append("ip addr del 10.250.0.1/24 dev lo")
        elif r < 0.93:
            d = pick(lambda v: v.get("v4"))
            dst = f"10.{rng.randint(100, 104)}.0.0/16"
            how = rng.choice(["add", "add", "append", "prepend", "replace"])
            metric = rng.choice(["", "", " metric 10", " metric 200"])
            table = " table 100" if rng.random() < 0.1 else ""
            if d and rng.random() < 0.7:
                net = devs[d]["v4"][0].rsplit(".", 1)[0]
                if net.endswith(".0") and devs[d]["v4"][0].endswith("/16"):
                    net = net
                steps.append(f"ip route {how} {dst} via {net}.254 dev {d}{metric}{table}")
            elif d:
                steps.append(f"ip route {how} {dst} dev {d}{metric}{table}")
            else:
                steps.append(f"ip route add {dst} via 10.99.99.1")  # unreachable gateway: refused
        elif r < 0.96:
            dst = f"10.{rng.randint(100, 104)}.0.0/16"
            steps.append(f"ip route del {dst}")
        else:
            steps.append(rng.choice(["ip addr show", "ip route show", "bridge link show", "ip -6 route show"]))
    return steps


def main():
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    os.makedirs(out, exist_ok=True)
    for i in range(count):
        rng = random.Random(seed * 100003 + i)
        steps = history(rng, rng.randint(12, 28))
        with open(os.path.join(out, f"r{seed}-{i:03d}.ip"), "w") as f:
            f.write(f"# random history {i} of seed {seed} (scripts/random-history.py)\n")
            f.write("\n".join(steps) + "\n")


if __name__ == "__main__":
    main()
