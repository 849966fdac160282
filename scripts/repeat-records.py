#!/usr/bin/env python3
"""Build a large capture by repeating the records of real fixtures.

usage: repeat-records.py OUT SIZE_MB IN.pcap [IN.pcap ...]

Only little-endian microsecond pcap inputs (what the fixtures are). Record
bytes are copied unchanged; only the timestamps advance, so the result is
still real kernel data, just more of it. Used by the benchmarks; big files
are never committed.
"""
import struct, sys

out, size_mb, inputs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
records, header = [], None
for path in inputs:
    data = open(path, "rb").read()
    if data[:4] != b"\xd4\xc3\xb2\xa1":
        sys.exit(f"{path}: not a little-endian microsecond pcap")
    header = header or data[:24]
    off = 24
    while off + 16 <= len(data):
        caplen = struct.unpack_from("<I", data, off + 8)[0]
        records.append(data[off + 8 : off + 16 + caplen])  # caplen, len, bytes
        off += 16 + caplen
target = int(size_mb * 1024 * 1024)
written, usec = 24, 0
with open(out, "wb") as f:
    f.write(header)
    while written < target:
        for r in records:
            usec += 10
            f.write(struct.pack("<II", 1_700_000_000 + usec // 1_000_000, usec % 1_000_000))
            f.write(r)
            written += 8 + len(r)
print(f"{out}: {written} bytes, {len(records)} distinct records repeated")
