#!/bin/sh
# Runs inside the VM booted by kernel-matrix.sh (busybox sh, as root).
# For every scenario file in /scen and every listener count in
# /scen/LISTENERS: a fresh namespace, its own nlmon0 and tcpdump, N
# `ip monitor all` listeners, the scenario's steps, a pause for late DAD
# notifications, then tcpdump stops and `ip -j` records the kernel's answer.
# Up to $(cat /scen/PARALLEL) runs (default 1) go on at once, each in its own
# namespace (nlmon only sees its own namespace's netlink traffic).
# `run` steps keep, per run K, $base.runs/K.{name,argv,env,hosts,pid,start,
# end,rc,out,err}; kernel-matrix-collect.py joins them into S.lN.runs.json.
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
    runs=0
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
            hosts)
                # /etc/netns/NS/hosts: `ip netns exec` binds it over /etc/hosts
                hn=$1
                shift
                mkdir -p "/etc/netns/$ns"
                [ -f "/etc/netns/$ns/hosts" ] || cp /etc/hosts "/etc/netns/$ns/hosts"
                for a in "$@"; do echo "$a $hn" >> "/etc/netns/$ns/hosts"; done
                out=""; rc=0 ;;
            run)
                runs=$((runs + 1))
                mkdir -p "$base.runs"
                r=$base.runs/$(printf %03d "$runs")
                echo "$1" > "$r.name"
                shift
                : > "$r.env"
                while [ $# -gt 0 ]; do
                    case $1 in
                        *=*) echo "$1" >> "$r.env"; shift ;;
                        *) break ;;
                    esac
                done
                printf '%s\n' "$@" > "$r.argv"
                if [ -f "/etc/netns/$ns/hosts" ]; then cp "/etc/netns/$ns/hosts" "$r.hosts"; else cp /etc/hosts "$r.hosts"; fi
                date +%s > "$r.start"
                # the shell writes its PID and execs the program in its place
                # (env execs too): replies to its netlink requests carry that
                # PID as nlmsg_pid when the kernel autobinds its socket
                # shellcheck disable=SC2016,SC2046
                $IP netns exec "$ns" sh -c 'echo $$ > "$0"; exec env -i PATH=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin "$@"' \
                    "$r.pid" $(cat "$r.env") "$@" > "$r.out" 2> "$r.err" < /dev/null
                rc=$?
                date +%s > "$r.end"
                echo "$rc" > "$r.rc"
                out=$(cat "$r.out" "$r.err") ;;
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
    rm -rf "/etc/netns/$ns"
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
