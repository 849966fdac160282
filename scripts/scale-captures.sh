#!/usr/bin/env bash
# Big-host captures for measuring how nlorder's cost per message grows with
# the size of the tables. Each capture is recorded by `nlorder record` inside
# a network namespace this script creates (and always deletes), while
# `ip -batch` makes the changes. Nothing here touches the host's own tables.
#
# usage: scripts/scale-captures.sh BIN OUTDIR [SHAPE...]     (as root)
#   BIN     an nlorder binary (it records the captures)
#   OUTDIR  where OUTDIR/SHAPE.pcap go; captures that already exist (and are
#           not empty) are kept, so a second run only fills the gaps
#   SHAPE   KIND-N, one of the kinds below; by default pods-100 pods-1000
#           veth-250 veth-500 veth-1000 bgp-100000 bgp-1000000
#           bgpdump-1000000 addrs-10000 (v6hosts-N only when asked for)
#   NS_PREFIX  the start of the namespaces' names (default nlscale)
#
# Kinds (every one but bgpdump is recorded with --follow: a first dump, the
# notifications for each change, a closing dump):
#   pods-N     N pods wired the way Calico wires them: a veth pair each (host
#              side caliXXXXXXXXXXX, peer podI in the same namespace), both
#              up, and a /32 route per pod (10.244.X.Y/32 dev cali... scope
#              link); eth0 with 10.51.0.101/24 and a default route exist
#              before recording starts
#   veth-N     N veth pairs, both ends up, the host side with an IPv4 address
#              in its own /24 (10.64.0.1/24, 10.64.1.1/24, ...)
#   bgp-N      N /24 routes via 10.0.0.2 dev eth0 proto bird, added one at a
#              time the way bird installs a BGP table
#   bgpdump-N  the same N routes installed first, then one dump of them only
#   addrs-N    N IPv4 addresses, each in its own /24, added to a dummy device,
#              deleted, added again and deleted again (16 records per
#              address: the address and its local, prefix and broadcast routes)
#   v6hosts-N  N small hosts, each a namespace of its own recorded once
#              (a link, an address and a route dump, no --follow) into
#              OUTDIR/v6hosts-N/hostNN.pcap, and the N recordings joined
#              one after another into OUTDIR/v6hosts-N.pcap. Every device
#              has IPv6 on, so each host has link-local addresses and their
#              local, fe80::/64 and ff00::/8 routes: lo and 2 to 4 devices
#              with IPv4 and IPv6 addresses, a veth pair eth0/eth0p (both
#              in the host) with a default route of each family, then by
#              host number: a bridge docker0 without ports, a macvlan mv0
#              on eth0, a bridge br0 taking eth0p as its port, or a veth
#              pair eth1/eth1p with eth1p down (eth1 without carrier, its
#              IPv6 address tentative); hosts differ in their addresses
#              and ifindexes (bridges made and deleted first). DAD is left
#              to finish (3 s) before any host is recorded.
#              `scripts/repeat-records.py OUT.pcap 200 OUTDIR/v6hosts-N/*.pcap`
#              repeats them into a long capture (what bench-table.sh does).
set -euo pipefail

DEFAULT_SHAPES=(pods-100 pods-1000 veth-250 veth-500 veth-1000 bgp-100000 bgp-1000000 bgpdump-1000000 addrs-10000)

say() { printf 'scale-captures: %s\n' "$*" >&2; }
die() {
    say "error: $*"
    exit 1
}

if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
    exit 2
fi
BIN=$1
OUT=$2
shift 2
if [ $# -gt 0 ]; then SHAPES=("$@"); else SHAPES=("${DEFAULT_SHAPES[@]}"); fi

[ "$(id -u)" -eq 0 ] || die "must run as root: it creates network namespaces and records inside them (try: sudo $0 $BIN $OUT)"
[ -x "$BIN" ] || die "$BIN is not an executable nlorder binary"
command -v ip > /dev/null || die "needs ip (iproute2)"
command -v awk > /dev/null || die "needs awk"

# Check every shape before doing anything, so a typo costs nothing.
for shape in "${SHAPES[@]}"; do
    [[ $shape =~ ^(pods|veth|bgp|bgpdump|addrs|v6hosts)-([1-9][0-9]*)$ ]] || die "unknown shape '$shape' (want pods-N, veth-N, bgp-N, bgpdump-N, addrs-N or v6hosts-N)"
    n=${BASH_REMATCH[2]}
    case ${BASH_REMATCH[1]} in
        v6hosts) max=250 ;;
        pods | addrs) max=65536 ;;
        veth) max=$((192 * 256)) ;;
        bgp | bgpdump) max=$((156 * 65536)) ;;
    esac
    [ "$n" -le "$max" ] || die "$shape: at most $max for this kind (the addresses would run out)"
done

mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/scale-captures.XXXXXX")
NAMESPACES=()
RECORDER=
PARTIAL=
cleanup() {
    local rc=$?
    if [ -n "$RECORDER" ] && kill -0 "$RECORDER" 2> /dev/null; then
        kill -TERM "$RECORDER" 2> /dev/null || true
        wait "$RECORDER" 2> /dev/null || true
    fi
    [ -z "$PARTIAL" ] || rm -f "$PARTIAL"
    for ns in "${NAMESPACES[@]}"; do
        ip netns del "$ns" 2> /dev/null || true
    done
    rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM HUP

# new_ns NAME: an empty namespace with lo up, deleted again on exit.
new_ns() {
    ip netns add "$1"
    NAMESPACES+=("$1")
    ip -n "$1" link set lo up
}
drop_ns() {
    ip netns del "$1"
    local keep=() ns
    for ns in "${NAMESPACES[@]}"; do [ "$ns" = "$1" ] || keep+=("$ns"); done
    NAMESPACES=("${keep[@]+"${keep[@]}"}")
}

size_of() { stat -c %s "$1" 2> /dev/null || echo 0; }

# record_changes NS BATCH OUT: records NS with --follow while `ip -batch`
# applies BATCH, and stops once every notification is in the file. The
# capture is written under a temporary name and renamed when complete, so an
# interrupted run never leaves a file that a later run would keep.
record_changes() {
    local ns=$1 batch=$2 out=$3 waited=0 last now still=0
    PARTIAL=$out.partial
    rm -f "$PARTIAL"
    "$BIN" record -q --pcap --netns "$ns" --follow --duration 900s -w "$PARTIAL" &
    RECORDER=$!
    # The recorder subscribes to notifications before it writes its first
    # dump request: once the file is longer than the pcap header, no change
    # can be missed.
    while [ "$(size_of "$PARTIAL")" -le 24 ]; do
        kill -0 "$RECORDER" 2> /dev/null || die "$BIN record exited before recording anything"
        [ "$waited" -lt 300 ] || die "$BIN record did not start within 30 s"
        sleep 0.1
        waited=$((waited + 1))
    done
    say "  applying $(wc -l < "$batch") changes with ip -batch"
    ip -n "$ns" -batch "$batch" > /dev/null
    # Every record is flushed as it is written: the file stops growing once
    # the recorder has caught up with the kernel's queue.
    last=$(size_of "$PARTIAL")
    while [ "$still" -lt 2 ]; do
        sleep 1
        kill -0 "$RECORDER" 2> /dev/null || die "$BIN record stopped before the changes were all recorded"
        now=$(size_of "$PARTIAL")
        if [ "$now" -eq "$last" ]; then still=$((still + 1)); else still=0; fi
        last=$now
    done
    kill -INT "$RECORDER"
    wait "$RECORDER" || die "$BIN record failed (status $?)"
    RECORDER=
    mv "$PARTIAL" "$out"
    PARTIAL=
}

# record_dump NS OUT: one dump of NS's tables, no notifications.
record_dump() {
    PARTIAL=$2.partial
    "$BIN" record -q --pcap --netns "$1" -w "$PARTIAL"
    mv "$PARTIAL" "$2"
    PARTIAL=
}

# v6host NS I: small host number I (0 to 249) in a new namespace NS, IPv6
# on every device (the shape v6hosts-N describes); recorded once DAD ends.
v6host() {
    local ns=$1 i=$2 j
    new_ns "$ns"
    ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.default.disable_ipv6=0
    # Hosts differ in their ifindexes: a namespace numbers its devices on
    # from the last one made, deleted or not.
    for ((j = 0; j < i % 5; j++)); do
        ip -n "$ns" link add "tmp$j" type bridge
        ip -n "$ns" link del "tmp$j"
    done
    veth_up "$ns" eth0 eth0p
    ip -n "$ns" addr add "10.$i.0.2/24" dev eth0
    ip -n "$ns" addr add "2001:db8:$i::2/64" dev eth0
    ip -n "$ns" route add default via "10.$i.0.1" dev eth0
    ip -n "$ns" -6 route add default via "2001:db8:$i::1" dev eth0
    case $((i % 4)) in
        0)
            # docker0 before any container: up, no port, so no carrier
            # (its IPv6 address stays tentative, no link-local is made)
            ip -n "$ns" link add docker0 type bridge
            ip -n "$ns" link set docker0 up
            ip -n "$ns" addr add 172.17.0.1/16 dev docker0
            ip -n "$ns" addr add "fd00:$i::1/64" dev docker0
            ;;
        1)
            ip -n "$ns" link add mv0 link eth0 type macvlan mode bridge
            ip -n "$ns" link set mv0 up
            ip -n "$ns" addr add "10.$i.1.1/24" dev mv0
            ip -n "$ns" addr add "2001:db8:$i:1::1/64" dev mv0
            ;;
        2)
            ip -n "$ns" link add br0 type bridge forward_delay 0
            ip -n "$ns" link set eth0p master br0
            ip -n "$ns" link set br0 up
            ip -n "$ns" addr add "10.$i.2.1/24" dev br0
            ip -n "$ns" addr add "2001:db8:$i:2::1/64" dev br0
            ;;
        3)
            # a second NIC whose cable is out: eth1 up, its peer down
            ip -n "$ns" link add eth1 type veth peer name eth1p
            ip -n "$ns" link set eth1 up
            ip -n "$ns" addr add "10.$i.3.1/24" dev eth1
            ip -n "$ns" addr add "2001:db8:$i:3::1/64" dev eth1
            ;;
    esac
}

# A veth pair whose two ends are both in NS and up (carrier on).
veth_up() {
    ip -n "$1" link add "$2" type veth peer name "$3"
    ip -n "$1" link set "$2" up
    ip -n "$1" link set "$3" up
}

pods_batch() {
    awk -v n="$1" 'BEGIN {
        for (i = 0; i < n; i++) {
            host = sprintf("cali%011x", i)
            printf "link add %s type veth peer name pod%d\n", host, i
            printf "link set %s up\nlink set pod%d up\n", host, i
            printf "route add 10.244.%d.%d/32 dev %s scope link\n", int(i / 256), i % 256, host
        }
    }'
}

veth_batch() {
    awk -v n="$1" 'BEGIN {
        for (i = 0; i < n; i++) {
            printf "link add veth%d type veth peer name veth%dp\n", i, i
            printf "address add 10.%d.%d.1/24 dev veth%d\n", 64 + int(i / 256), i % 256, i
            printf "link set veth%d up\nlink set veth%dp up\n", i, i
        }
    }'
}

bgp_batch() {
    awk -v n="$1" 'BEGIN {
        for (i = 0; i < n; i++)
            printf "route add %d.%d.%d.0/24 via 10.0.0.2 dev eth0 proto bird\n", 100 + int(i / 65536), int(i / 256) % 256, i % 256
    }'
}

addrs_batch() {
    awk -v n="$1" 'BEGIN {
        for (round = 0; round < 2; round++)
            for (op = 0; op < 2; op++)
                for (i = 0; i < n; i++)
                    printf "address %s 10.%d.%d.1/24 dev dummy0\n", op ? "del" : "add", int(i / 256), i % 256
    }'
}

# The namespace of bgp-N and bgpdump-N: eth0 on 10.0.0.0/8 (the routes go
# via 10.0.0.2).
bgp_ns() {
    new_ns "$1"
    veth_up "$1" eth0 peer0
    ip -n "$1" addr add 10.0.0.1/8 dev eth0
}

wrote() { # SHAPE FILE START
    say "$1: wrote $2 ($(size_of "$2") bytes) in $((SECONDS - $3)) s"
}

wanted() { # SHAPE: selected and not yet made
    local s
    for s in "${SHAPES[@]}"; do
        if [ "$s" = "$1" ]; then
            [ ! -s "$OUT/$1.pcap" ]
            return
        fi
    done
    return 1
}

MADE=" "
for shape in "${SHAPES[@]}"; do
    f=$OUT/$shape.pcap
    if [ -s "$f" ]; then
        # (bgpdump-N is made along with bgp-N when both are asked for)
        [[ $MADE == *" $shape "* ]] || say "$shape: $f exists, kept"
        continue
    fi
    kind=${shape%-*}
    n=${shape##*-}
    ns=${NS_PREFIX:-nlscale}-$$-$kind
    batch=$WORK/$shape.batch
    start=$SECONDS
    case $kind in
        pods)
            say "$shape: $n Calico-style pods (veth pair and /32 route each) in namespace $ns"
            new_ns "$ns"
            veth_up "$ns" eth0 uplink0
            ip -n "$ns" addr add 10.51.0.101/24 dev eth0
            ip -n "$ns" route add default via 10.51.0.1 dev eth0
            pods_batch "$n" > "$batch"
            record_changes "$ns" "$batch" "$f"
            ;;
        veth)
            say "$shape: $n veth pairs with an IPv4 address each in namespace $ns"
            new_ns "$ns"
            veth_batch "$n" > "$batch"
            record_changes "$ns" "$batch" "$f"
            ;;
        bgp)
            say "$shape: $n BGP routes learnt one by one in namespace $ns"
            bgp_ns "$ns"
            bgp_batch "$n" > "$batch"
            record_changes "$ns" "$batch" "$f"
            if wanted "bgpdump-$n"; then
                wrote "$shape" "$f" "$start"
                start=$SECONDS
                shape=bgpdump-$n
                f=$OUT/$shape.pcap
                say "$shape: a dump of the same $n routes (namespace $ns)"
                record_dump "$ns" "$f"
            fi
            ;;
        bgpdump)
            say "$shape: installing $n routes in namespace $ns, then one dump"
            bgp_ns "$ns"
            bgp_batch "$n" > "$batch"
            ip -n "$ns" -batch "$batch" > /dev/null
            record_dump "$ns" "$f"
            ;;
        v6hosts)
            say "$shape: $n small hosts with IPv6 on every device, namespaces $ns-0 to $ns-$((n - 1))"
            for ((h = 0; h < n; h++)); do v6host "$ns-$h" "$h"; done
            sleep 3 # duplicate address detection: one probe, a second each
            mkdir -p "$OUT/$shape"
            hosts=()
            for ((h = 0; h < n; h++)); do
                hosts+=("$(printf '%s/%s/host%02d.pcap' "$OUT" "$shape" "$h")")
                record_dump "$ns-$h" "${hosts[h]}"
                drop_ns "$ns-$h"
            done
            # One pass over the hosts, each host's dumps after the last's.
            python3 "$(dirname "$0")/repeat-records.py" "$f" 0 "${hosts[@]}" > /dev/null
            ;;
        addrs)
            new_ns "$ns"
            if ip -n "$ns" link add dummy0 type dummy 2> /dev/null; then
                ip -n "$ns" link set dummy0 up
                say "$shape: $n addresses on dummy0, added and deleted twice, in namespace $ns"
            else
                # Kernels built without CONFIG_DUMMY: a veth with both ends
                # up has carrier like a dummy device and takes the same routes.
                veth_up "$ns" dummy0 dummy0p
                say "$shape: this kernel has no dummy devices: dummy0 is a veth (peer dummy0p, both up)"
                say "$shape: $n addresses on dummy0, added and deleted twice, in namespace $ns"
            fi
            addrs_batch "$n" > "$batch"
            record_changes "$ns" "$batch" "$f"
            ;;
    esac
    [ "$kind" = v6hosts ] || drop_ns "$ns"
    rm -f "$batch"
    wrote "$shape" "$f" "$start"
    MADE+="$shape "
done
