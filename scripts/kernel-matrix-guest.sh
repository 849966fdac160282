#!/bin/sh
# Runs inside the VM booted by kernel-matrix.sh (busybox sh, as root).
# For every scenario file in /scen and every listener count in
# /scen/LISTENERS: a fresh namespace, its own nlmon0 and tcpdump, N
# `ip monitor all` listeners, the scenario's steps, a pause for late DAD
# notifications, then tcpdump stops and `ip -j` records the kernel's answer.
# Up to $(cat /scen/PARALLEL) runs (default 1) go on at once, each in its own
# namespace (nlmon only sees its own namespace's netlink traffic).
# busybox sh runs its own applets before PATH: real tools go by full path.
IP=${IP:-/usr/sbin/ip}
TCPDUMP=${TCPDUMP:-/usr/sbin/tcpdump}
BRIDGE=${BRIDGE:-/usr/sbin/bridge}
uname -r > /out/kernel.txt
PAR=1
[ -f /scen/PARALLEL ] && PAR=$(cat /scen/PARALLEL)

run() { # SCENARIO-FILE LISTENERS
    name=$(basename "$1" .ip)
    n=$2
    base=/out/$name.l$n
    # namespace names are at most a few dozen bytes; keep them short
    ns=m$$_$(echo "$name" | tr -c 'a-zA-Z0-9\n' _ | head -c 20)_$n
    $IP netns add "$ns"
    $IP -n "$ns" link add nlmon0 type nlmon
    $IP -n "$ns" link set nlmon0 up
    $IP netns exec "$ns" $TCPDUMP -Z root -i nlmon0 -U -w "$base.pcap" 2>"$base.tcpdump" &
    td=$!
    i=0
    while ! grep -q listening "$base.tcpdump" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    mons=""
    k=0
    while [ $k -lt "$n" ]; do
        $IP -n "$ns" monitor all > /dev/null 2>&1 &
        mons="$mons $!"
        k=$((k + 1))
    done
    [ "$n" -gt 0 ] && sleep 1
    : > "$base.log"
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
            ''|'#'*) continue ;;
        esac
        # shellcheck disable=SC2086
        set -- $line
        cmd=$1
        shift
        case $cmd in
            ip) out=$($IP -n "$ns" "$@" 2>&1); rc=$? ;;
            bridge) out=$($BRIDGE -n "$ns" "$@" 2>&1); rc=$? ;;
            sysctl)
                key=${1%%=*}
                val=${1#*=}
                out=$($IP netns exec "$ns" sh -c "echo $val > /proc/sys/$(echo "$key" | tr . /)" 2>&1); rc=$? ;;
            sleep) sleep "$1"; out=""; rc=0 ;;
            *) out="unknown step: $cmd"; rc=127 ;;
        esac
        { echo "\$ $line"; [ -n "$out" ] && echo "$out" | head -5; echo "exit $rc"; } >> "$base.log"
    done < "$1"
    # late DAD notifications (1-2 s after link-up) belong inside the capture
    sleep 3
    for m in $mons; do kill "$m"; done
    kill "$td"
    wait "$td" 2>/dev/null
    $IP -n "$ns" -j -d link show > "$base.link.json"
    $IP -n "$ns" -j addr show > "$base.addr.json"
    $IP -n "$ns" -j -4 route show table all > "$base.route4.json"
    $IP -n "$ns" -j -6 route show table all > "$base.route6.json"
    echo "$n" > "$base.listeners"
    $IP netns exec "$ns" cat /proc/sys/net/ipv4/conf/all/promote_secondaries > "$base.promote"
    $IP netns del "$ns"
}

running=0
for f in /scen/*.ip; do
    for n in $(cat /scen/LISTENERS); do
        run "$f" "$n" &
        running=$((running + 1))
        if [ "$running" -ge "$PAR" ]; then
            wait
            running=0
        fi
    done
done
wait
echo "runs: $(ls /out/*.pcap 2>/dev/null | wc -l)"
