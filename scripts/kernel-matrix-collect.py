#!/usr/bin/env python3
"""Gathers what one VM of kernel-matrix.sh brought back into fixture files.

    kernel-matrix-collect.py RAWDIR DESTDIR

For every run RAWDIR/S.lN.pcap: copies the capture and the step log, and
joins the four `ip -j` outputs, the kernel release and the listener count
into DESTDIR/S.lN.ip.json.
"""
import json
import pathlib
import shutil
import sys

raw = pathlib.Path(sys.argv[1])
dest = pathlib.Path(sys.argv[2])
dest.mkdir(parents=True, exist_ok=True)
kernel = (raw / "kernel.txt").read_text().strip()
runs = 0
for pcap in sorted(raw.glob("*.pcap")):
    base = pcap.name[: -len(".pcap")]
    scenario, _, listeners = base.rpartition(".l")
    doc = {"kernel": kernel, "listeners": int(listeners), "scenario": scenario}
    promote = raw / f"{base}.promote"
    if promote.exists():
        # a sysctl no capture shows: the tests tell nlorder, as a user would
        doc["promote_secondaries"] = int(promote.read_text().strip())
    for key, suffix in [("link", "link"), ("addr", "addr"), ("route4", "route4"), ("route6", "route6")]:
        text = (raw / f"{base}.{suffix}.json").read_text() or "[]"
        doc[key] = json.loads(text)
    (dest / f"{base}.ip.json").write_text(json.dumps(doc, indent=1) + "\n")
    shutil.copyfile(pcap, dest / pcap.name)
    shutil.copyfile(raw / f"{base}.log", dest / f"{base}.log")
    runs += 1
print(f"{dest}: {runs} runs on {kernel}", file=sys.stderr)
