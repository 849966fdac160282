#!/usr/bin/env bash
# `nlorder table` throughput against `tshark -V` on the same page-cached
# capture, and peak memory on a 2 GB capture, in one run.
# usage: scripts/bench-table.sh [SIZE_MB] [BIG_MB]   (defaults 512, 2048)
#   OTHER=PATH  another nlorder binary (an older release, say): `table`,
#               `detect` and `decode --format json` of both on the small-host
#               capture, side by side, and the ratio this / OTHER
#   PROFILE=P   the cargo profile to build (default dist, what installs use)
# The captures repeat real kernel records from fixtures/ (not committed),
# and, for the IPv6 small hosts, 40 small hosts recorded on this machine's
# kernel by `scripts/scale-captures.sh BIN bench-data v6hosts-40` (root:
# made here when missing and run as root, else that shape is skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-512}
big=${2:-2048}
profile=${PROFILE:-dist}
mkdir -p bench-data
mix="fixtures/route-churn.pcap fixtures/notify-addr.pcap fixtures/notify-link.pcap fixtures/basic.pcap"
f=bench-data/mixed-${size}M.pcap
[ -f "$f" ] || python3 scripts/repeat-records.py "$f" "$size" $mix
n=bench-data/churn-only-${size}M.pcap
[ -f "$n" ] || python3 scripts/repeat-records.py "$n" "$size" fixtures/route-churn.pcap
# Many small hosts: every real host fixture, repeated (dumps and
# notifications, the shape of a long recording).
s=bench-data/small-hosts-${size}M.pcap
[ -f "$s" ] || python3 scripts/repeat-records.py "$s" "$size" fixtures/basic.pcap fixtures/incident-*.pcap \
    fixtures/notify-*.pcap fixtures/route-churn.pcap fixtures/two-recordings.pcap
cargo build --profile "$profile" -q -p nlorder-cli
bin=target/$profile/nlorder
# IPv6 small hosts: 40 hosts, each a link, an address and a route dump,
# joined one after another again and again (each host's dumps replace the
# tables the previous one left).
v=bench-data/v6-hosts-${size}M.pcap
if [ ! -f "$v" ]; then
    if [ ! -d bench-data/v6hosts-40 ] && [ "$(id -u)" -eq 0 ]; then
        scripts/scale-captures.sh "$bin" bench-data v6hosts-40
    fi
    if [ -d bench-data/v6hosts-40 ]; then
        python3 scripts/repeat-records.py "$v" "$size" bench-data/v6hosts-40/host*.pcap
    else
        echo "IPv6 small hosts skipped: run as root once to record them" >&2
    fi
fi
shapes=("$s")
[ -f "$v" ] && shapes+=("$v")

best_of() { # N CMD... -> best wall time in seconds
    local n=$1; shift
    local best=
    for _ in $(seq "$n"); do
        local t0 t1
        t0=$(date +%s.%N); "$@" > /dev/null 2>&1; t1=$(date +%s.%N)
        best=$(python3 -c "b='$best'; t=$t1-$t0; print(t if not b else min(float(b), t))")
    done
    echo "$best"
}
report() { # LABEL FILE SECONDS
    python3 -c "import os,sys; b=os.path.getsize(sys.argv[2]); t=float(sys.argv[3]); print(f'{sys.argv[1]:<44} {t:8.3f} s {b/1e6/t:9.1f} MB/s')" "$@"
}
for file in "${shapes[@]}" "$f" "$n"; do
    cat "$file" > /dev/null
    report "nlorder table ($(basename "$file"))" "$file" "$(best_of 5 "$bin" table -q "$file")"
done
if command -v tshark > /dev/null; then
    cat "$f" > /dev/null
    t_ns=$(best_of 1 tshark -r "$f" -V)
    report "tshark -r F -V ($(basename "$f"))" "$f" "$t_ns"
    t_nl=$(best_of 5 "$bin" table -q "$f")
    python3 -c "print(f'nlorder table is {$t_ns/$t_nl:.0f}x tshark -V on the same file')"
fi
if [ -n "${OTHER:-}" ]; then
    for file in "${shapes[@]}"; do
        cat "$file" > /dev/null
        for cmd in "table -q" "detect -q" "decode -q --format json"; do
            # shellcheck disable=SC2086 # the subcommand's words
            t_this=$(best_of 5 "$bin" $cmd "$file")
            # shellcheck disable=SC2086
            t_other=$(best_of 5 "$OTHER" $cmd "$file")
            python3 -c "print(f'{\"$(basename "$file")\":<24} {\"$cmd\":<24} this {$t_this:7.3f} s  other {$t_other:7.3f} s  this/other {$t_this/$t_other:5.2f}')"
        done
    done
fi
g=bench-data/mixed-${big}M.pcap
[ -f "$g" ] || python3 scripts/repeat-records.py "$g" "$big" $mix
/usr/bin/time -f "nlorder table on $(basename "$g"): %e s, peak RSS %M KiB" "$bin" table -q "$g" > /dev/null
