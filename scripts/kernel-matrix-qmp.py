#!/usr/bin/env python3
"""The hypervisor's side of `qmp` steps (kernel-matrix.sh): reads the VM's
console as qemu writes it and, for each line the guest printed there,

    MATRIX-QMP add N MAC      a virtio NIC, id nicN, with that MAC, plugged
                              into hub 100+N whose only other port has no
                              peer (what the NIC sends goes nowhere)
    MATRIX-QMP del N          unplugs nicN (the guest ejects it; its hub
                              ports go once qemu reports DEVICE_DELETED)
    MATRIX-QMP link N on|off  sets nicN's carrier

sends the QMP commands. Everything said on the socket goes to QMP_LOG.

    kernel-matrix-qmp.py QMP_SOCKET CONSOLE_LOG QMP_LOG
"""
import json
import re
import socket
import sys
import time

sock_path, console_path, log_path = sys.argv[1:4]
log = open(log_path, "a", buffering=1)


def note(*words):
    log.write("%.3f %s\n" % (time.time(), " ".join(str(w) for w in words)))


class Qmp:
    def __init__(self, path):
        self.s = None
        for _ in range(600):  # qemu makes the socket as it starts
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(path)
                self.s = s
                break
            except OSError:
                time.sleep(0.2)
        if self.s is None:
            raise SystemExit(f"no QMP socket at {path}")
        self.buf = b""
        self.events = []

    def message(self, timeout):
        """The next whole message, or None when none came within timeout."""
        self.s.settimeout(timeout)
        while b"\n" not in self.buf:
            try:
                chunk = self.s.recv(65536)
            except (socket.timeout, TimeoutError):
                return None
            if not chunk:
                raise EOFError
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, command, **arguments):
        msg = {"execute": command}
        if arguments:
            msg["arguments"] = arguments
        note(">>", json.dumps(msg))
        self.s.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            m = self.message(None)
            if "event" in m:
                note("event", json.dumps(m))
                self.events.append(m)
            else:
                note("<<", json.dumps(m))
                return m


ask = re.compile(rb"MATRIX-QMP (add|del|link) (\d+)(?: (\S+))?")


def main():
    q = Qmp(sock_path)
    note("greeting", json.dumps(q.message(None)))
    q.call("qmp_capabilities")
    offset = 0
    partial = b""
    unplugging = set()
    while True:
        m = q.message(0.2)
        if m is not None:
            note("event", json.dumps(m))
            q.events.append(m)
        while q.events:
            e = q.events.pop(0)
            dev = e.get("data", {}).get("device")
            if e.get("event") == "DEVICE_DELETED" and dev in unplugging:
                unplugging.discard(dev)
                n = dev[len("nic"):]
                q.call("netdev_del", id=f"hp{n}")
                q.call("netdev_del", id=f"sink{n}")
        try:
            with open(console_path, "rb") as c:
                c.seek(offset)
                data = c.read()
        except OSError:
            data = b""
        offset += len(data)
        *lines, partial = (partial + data).split(b"\n")
        for line in lines:
            a = ask.search(line)
            if not a:
                continue
            what, n, arg = a.group(1).decode(), int(a.group(2)), (a.group(3) or b"").decode()
            note("guest asks:", what, n, arg)
            if what == "add":
                q.call("netdev_add", type="hubport", id=f"hp{n}", hubid=100 + n)
                q.call("netdev_add", type="hubport", id=f"sink{n}", hubid=100 + n)
                q.call("device_add", driver="virtio-net-pci", id=f"nic{n}", netdev=f"hp{n}", mac=arg)
            elif what == "del":
                unplugging.add(f"nic{n}")
                q.call("device_del", id=f"nic{n}")
            else:
                q.call("set_link", name=f"nic{n}", up=arg == "on")


try:
    main()
except (EOFError, ConnectionError, OSError) as e:
    note("QMP closed:", repr(e))
