#!/usr/bin/env bash
# Compares nlorder with tshark on the same large capture, in one run.
# usage: scripts/bench-vs-tshark.sh [SIZE_MB]   (default 64)
# Builds bench-data/big.pcap from the real fixtures (not committed), warms
# the page cache, then times each command once and prints MB/s.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-64}
mkdir -p bench-data
big=bench-data/big-${size}M.pcap
[ -f "$big" ] || python3 scripts/repeat-records.py "$big" "$size" fixtures/basic.pcap fixtures/notify-link.pcap fixtures/notify-addr.pcap
cargo build --release -q
bin=target/release/nlorder
bytes=$(stat -c %s "$big")
cat "$big" > /dev/null

rate() { # LABEL CMD...
    local label=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    t1=$(date +%s.%N)
    python3 -c "import sys; t=$t1-$t0; print(f'{sys.argv[1]:<34} {t:8.3f} s {($bytes/1e6)/t:10.1f} MB/s')" "$label"
}
echo "capture: $big ($((bytes / 1000000)) MB)"
rate "nlorder decode --format json" "$bin" decode --format json -q "$big"
rate "nlorder decode (text)" "$bin" decode -q "$big"
if command -v tshark > /dev/null; then
    rate "tshark -r F -T json" tshark -r "$big" -T json
fi
