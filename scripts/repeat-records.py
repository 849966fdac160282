#!/usr/bin/env python3
"""Build a large capture by repeating the records of real fixtures.

usage: repeat-records.py OUT SIZE_MB IN.pcap [IN.pcap ...]

Only little-endian pcap inputs, microsecond or nanosecond (what the
fixtures and `nlorder record --pcap` write); OUT has the first input's
header. Record bytes are copied unchanged; only the timestamps advance
(10 µs a record), so the result is still real kernel data, just more of it:
the inputs one after another, again and again until OUT holds SIZE_MB
(0: each input once). Used by the benchmarks; big files are never committed.
"""
import struct, sys

MAGIC = {b"\xd4\xc3\xb2\xa1": 1_000_000, b"\x4d\x3c\xb2\xa1": 1_000_000_000}
out, size_mb, inputs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
records, header = [], None
for path in inputs:
    data = open(path, "rb").read()
    if data[:4] not in MAGIC:
        sys.exit(f"{path}: not a little-endian pcap")
    header = header or data[:24]
    off = 24
    while off + 16 <= len(data):
        caplen = struct.unpack_from("<I", data, off + 8)[0]
        records.append(data[off + 8 : off + 16 + caplen])  # caplen, len, bytes
        off += 16 + caplen
per_second = MAGIC[header[:4]]
target = int(size_mb * 1024 * 1024)
written, usec = 24, 0
with open(out, "wb") as f:
    f.write(header)
    while True:
        for r in records:
            usec += 10
            f.write(struct.pack("<II", 1_700_000_000 + usec // 1_000_000, usec % 1_000_000 * (per_second // 1_000_000)))
            f.write(r)
            written += 8 + len(r)
        if written >= target:
            break
print(f"{out}: {written} bytes, {len(records)} distinct records repeated")
