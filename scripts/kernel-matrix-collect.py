#!/usr/bin/env python3
"""Gathers what one VM of kernel-matrix.sh brought back into fixture files.

    kernel-matrix-collect.py RAWDIR DESTDIR

For every run RAWDIR/S.lN.pcap: copies the capture and the step log, and
joins the four `ip -j` outputs, the kernel release, the listener count and
when `ip -j` ran (`ip_time`, epoch seconds) into DESTDIR/S.lN.ip.json. Runs that had `run` steps also get
DESTDIR/S.lN.runs.json: a list, in the scenario's order, of
{"name", "command", "env", "hosts", "pid", "start", "end", "exit", "stdout",
"stderr"} (command: the argv; env: the VAR=VALUEs the step set, on top of
PATH; hosts: the /etc/hosts lines the program saw; pid: the program's PID;
start, end: Unix seconds around it; stdout, stderr: lists of lines).
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
    iptime = raw / f"{base}.iptime"
    if iptime.exists():
        # when `ip -j` ran, in epoch seconds on the capture's clock
        # (whole seconds: a `.%N` left by a date without nanoseconds goes)
        doc["ip_time"] = iptime.read_text().strip().removesuffix(".%N")
    for key, suffix in [("link", "link"), ("addr", "addr"), ("route4", "route4"), ("route6", "route6")]:
        text = (raw / f"{base}.{suffix}.json").read_text() or "[]"
        doc[key] = json.loads(text)
    (dest / f"{base}.ip.json").write_text(json.dumps(doc, indent=1) + "\n")
    shutil.copyfile(pcap, dest / pcap.name)
    shutil.copyfile(raw / f"{base}.log", dest / f"{base}.log")
    for text in (f"{base}.ip.txt", f"{base}.ip-o.txt"):
        if (raw / text).exists():
            shutil.copyfile(raw / text, dest / text)
    rundir = raw / f"{base}.runs"
    if rundir.is_dir():
        def lines(path):
            return path.read_text().splitlines()

        doc = []
        for name in sorted(rundir.glob("*.name")):
            k = rundir / name.name[: -len(".name")]
            env = {}
            for kv in lines(k.with_suffix(".env")):
                key, _, value = kv.partition("=")
                env[key] = value
            pid = k.with_suffix(".pid")
            doc.append(
                {
                    "name": name.read_text().strip(),
                    "command": lines(k.with_suffix(".argv")),
                    "env": env,
                    "hosts": lines(k.with_suffix(".hosts")),
                    "pid": int(pid.read_text().strip()) if pid.exists() else None,
                    "start": int(k.with_suffix(".start").read_text().strip()),
                    "end": int(k.with_suffix(".end").read_text().strip()),
                    "exit": int(k.with_suffix(".rc").read_text().strip()),
                    "stdout": lines(k.with_suffix(".out")),
                    "stderr": lines(k.with_suffix(".err")),
                }
            )
        (dest / f"{base}.runs.json").write_text(json.dumps(doc, indent=1) + "\n")
    runs += 1
print(f"{dest}: {runs} runs on {kernel}", file=sys.stderr)
