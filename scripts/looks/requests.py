#!/usr/bin/env python3
"""Lists every netlink request in a fixtures/looks capture and who sent it.

    scripts/looks/requests.py SCENARIO.ip S.lN.pcap S.lN.runs.json

Prints a Markdown table, one row per request (a message with NLM_F_REQUEST),
in capture order: packet number (as tshark counts), nlmsg_len, type, flags,
seq, the body's shape, the port id the kernel answered to (nlmsg_pid of the
first later kernel message with the same seq) and the sender. The sender is
the `run` step whose program had that port id as its PID, named with the
library the request's shape belongs to (glibc's __check_pf / __check_native,
Go's syscall.NetlinkRIB, iproute2), or else the scenario's `ip` step: the
k-th PID-like port id that no run had is the k-th `ip` step (the script
checks the counts agree). A port id of 2^31 or more is one the kernel drew
at random because the process's PID was taken by its other socket (iproute2
resolves a device name on a second socket): such a request belongs to the
process of the next request with a PID-like port id.
"""
import json
import struct
import sys

TYPES = {
    16: "RTM_NEWLINK", 17: "RTM_DELLINK", 18: "RTM_GETLINK", 19: "RTM_SETLINK",
    20: "RTM_NEWADDR", 21: "RTM_DELADDR", 22: "RTM_GETADDR",
    24: "RTM_NEWROUTE", 25: "RTM_DELROUTE", 26: "RTM_GETROUTE",
    28: "RTM_NEWNEIGH", 29: "RTM_DELNEIGH", 30: "RTM_GETNEIGH",
    34: "RTM_GETQDISC", 78: "RTM_GETNETCONF", 90: "RTM_GETNSID",
}
FAMILIES = {0: "AF_UNSPEC", 2: "AF_INET", 7: "AF_BRIDGE", 10: "AF_INET6"}
IFLA = {3: "IFLA_IFNAME", 4: "IFLA_MTU", 10: "IFLA_MASTER", 13: "IFLA_TXQLEN", 18: "IFLA_LINKINFO",
        29: "IFLA_EXT_MASK", 50: "IFLA_NEW_IFINDEX"}
IFA = {1: "IFA_ADDRESS", 2: "IFA_LOCAL", 3: "IFA_LABEL", 4: "IFA_BROADCAST", 6: "IFA_CACHEINFO",
       8: "IFA_FLAGS"}


def records(path):
    data = open(path, "rb").read()
    magic = struct.unpack_from("<I", data)[0]
    assert magic == 0xA1B2C3D4, "little-endian microsecond pcap expected"
    linktype = struct.unpack_from("<I", data, 20)[0]
    assert linktype == 253, f"LINKTYPE_NETLINK expected, got {linktype}"
    off = 24
    n = 0
    while off + 16 <= len(data):
        _sec, _usec, incl, _orig = struct.unpack_from("<IIII", data, off)
        off += 16
        n += 1
        yield n, data[off + 16 : off + incl]  # after the 16-byte cooked header
        off += incl


def messages(path):
    for n, rec in records(path):
        off = 0
        while off + 16 <= len(rec):
            length, typ, flags, seq, pid = struct.unpack_from("<IHHII", rec, off)
            if length < 16:
                break
            yield n, length, typ, flags, seq, pid, rec[off + 16 : off + length]
            off += (length + 3) & ~3


def attrs(body, names):
    out = []
    off = 0
    while off + 4 <= len(body):
        alen, atype = struct.unpack_from("<HH", body, off)
        if alen < 4:
            break
        val = body[off + 4 : off + alen]
        name = names.get(atype & 0x3FFF, f"attr{atype & 0x3FFF}")
        if name == "IFLA_EXT_MASK" and len(val) == 4:
            name += f"={struct.unpack('<I', val)[0]}"
        elif name in ("IFLA_IFNAME", "IFA_LABEL"):
            name += "=" + val.rstrip(b"\0").decode(errors="replace")
        out.append(name)
        off += (alen + 3) & ~3
    return out


def shape(length, typ, body):
    if length in (17, 20) and typ in (18, 22, 26, 30):
        pad = "" if length == 17 else " + 3 zero bytes" if body[1:4] == b"\0\0\0" else f" + {body[1:4].hex()}"
        return f"rtgenmsg {FAMILIES.get(body[0], body[0])}{pad}"
    if typ in (16, 17, 18, 19) and len(body) >= 16:
        fam, _, _typ, index = struct.unpack_from("<BBHi", body)
        a = attrs(body[16:], IFLA)
        return f"ifinfomsg {FAMILIES.get(fam, fam)} index {index}" + (" + " + ", ".join(a) if a else "")
    if typ in (20, 21, 22) and len(body) >= 8:
        fam, plen, _fl, _scope, index = struct.unpack_from("<BBBBi", body)
        a = attrs(body[8:], IFA)
        return f"ifaddrmsg {FAMILIES.get(fam, fam)} /{plen} index {index}" + (" + " + ", ".join(a) if a else "")
    if typ in (24, 25, 26) and len(body) >= 12:
        return f"rtmsg {FAMILIES.get(body[0], body[0])}"
    if typ == 78 and len(body) >= 4:
        return f"netconfmsg {FAMILIES.get(body[0], body[0])}"
    return f"{len(body)} bytes"


def library(length, typ, flags, seq, body):
    if length == 17 and seq == 1 and flags == 0x301:
        return "Go syscall.NetlinkRIB"
    if length == 20 and flags == 0x301 and typ == 22:
        return "glibc __check_pf"
    if length == 20 and flags == 0x301 and typ == 18:
        return "glibc __check_native"
    return "iproute2"


def main():
    scen, pcap, runs_path = sys.argv[1:4]
    runs = json.load(open(runs_path))
    by_pid = {r["pid"]: r for r in runs}
    ip_steps = []
    for line in open(scen):
        line = line.strip()
        if line.startswith("ip ") or line.startswith("bridge "):
            ip_steps.append(line)
    msgs = list(messages(pcap))
    reqs = []
    for i, (n, length, typ, flags, seq, _pid, body) in enumerate(msgs):
        if not flags & 1:
            continue
        port = None
        for m in msgs[i + 1 :]:
            if not m[3] & 1 and m[4] == seq:
                port = m[5]
                break
        reqs.append([n, length, typ, flags, seq, body, port, None])
    owner = None
    for req in reversed(reqs):
        if req[6] is not None and req[6] < 1 << 31:
            owner = req[6]
        req[7] = owner
    rows = []
    step_of_port = {}
    for n, length, typ, flags, seq, body, port, pid in reqs:
        if pid in by_pid:
            r = by_pid[pid]
            sender = f"run `{r['name']}` ({library(length, typ, flags, seq, body)})"
        else:
            if pid not in step_of_port:
                step_of_port[pid] = len(step_of_port)
            k = step_of_port[pid]
            step = ip_steps[k] if k < len(ip_steps) else "?"
            sender = f"step `{step}`"
        rows.append((n, length, TYPES.get(typ, str(typ)), f"0x{flags:04x}", seq, shape(length, typ, body), port, sender))
    if len(step_of_port) != len(ip_steps):
        sys.exit(f"{pcap}: {len(step_of_port)} processes outside the runs, {len(ip_steps)} ip steps")
    print("| pkt | len | type | flags | seq | body | port | sent by |")
    print("|---:|---:|---|---|---:|---|---:|---|")
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")


if __name__ == "__main__":
    main()
