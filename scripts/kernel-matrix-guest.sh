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
# The steps for real software (daemon, stop, waitfor, netns, in, file, qmp,
# modprobe, rmmod, root-namespace) are described in kernel-matrix.sh; a run
# works in its own directory ($W, `%W` in a step), where daemons write
# NAME.out, and their output ends the step log.
# busybox sh runs its own applets before PATH: real tools go by full path.
IP=${IP:-/usr/sbin/ip}
TCPDUMP=${TCPDUMP:-/usr/sbin/tcpdump}
BRIDGE=${BRIDGE:-/usr/sbin/bridge}
uname -r > /out/kernel.txt
PAR=1
[ -f /scen/PARALLEL ] && PAR=$(cat /scen/PARALLEL)

PATHS=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin

# in namespace $1 ("" for the VM's initial namespace): the rest
nsx() {
    _n=$1
    shift
    if [ -n "$_n" ]; then $IP netns exec "$_n" "$@"; else "$@"; fi
}

ipn() { # NS ARGS: iproute2's ip in that namespace
    _n=$1
    shift
    if [ -n "$_n" ]; then $IP -n "$_n" "$@"; else $IP "$@"; fi
}

# iproute2's ip in namespace $1, in place of the calling (background)
# shell, so that $! is ip's own PID
ipn_exec() {
    _n=$1
    shift
    if [ -n "$_n" ]; then exec $IP -n "$_n" "$@"; else exec $IP "$@"; fi
}

# the rest in namespace $1, in place of the calling (background) shell
nsx_exec() {
    _n=$1
    shift
    if [ -n "$_n" ]; then exec $IP netns exec "$_n" "$@"; else exec "$@"; fi
}

# A step's text with `@@` (the capture's namespace), `@NAME` (a namespace of
# a `netns add NAME` step) and `%W` (the run's directory) replaced.
subst() {
    case $1 in
        *@*|*%W*) printf '%s\n' "$1" | sed -e "s|%W|$W|g" -e "s|@@|$ns|g" $nssed ;;
        *) printf '%s\n' "$1" ;;
    esac
}

# whether process $1 runs (a zombie does not)
alive() {
    [ -n "$1" ] && [ -f "/proc/$1/status" ] && ! grep -q '^State:.*Z' "/proc/$1/status"
}

# the words after the first $2 ones of $1
rest() {
    printf '%s\n' "$1" | awk -v n="$2" '{ for (i = 0; i < n; i++) sub(/^[ \t]*[^ \t]+/, ""); sub(/^[ \t]+/, ""); print }'
}

# One step, in namespace $1 ("" = the initial one); sets out and rc.
step() {
    sns=$1
    sline=$2
    # shellcheck disable=SC2086
    set -- $sline
    cmd=$1
    shift
    case $cmd in
        ip) out=$(ipn "$sns" "$@" 2>&1); rc=$? ;;
        bridge) if [ -n "$sns" ]; then out=$($BRIDGE -n "$sns" "$@" 2>&1); else out=$($BRIDGE "$@" 2>&1); fi; rc=$? ;;
        sysctl)
            key=${1%%=*}
            val=${1#*=}
            out=$(nsx "$sns" sh -c "echo $val > /proc/sys/$(echo "$key" | tr . /)" 2>&1); rc=$? ;;
        sleep) sleep "$1"; out=""; rc=0 ;;
        hosts)
            # /etc/netns/NS/hosts: `ip netns exec` binds it over /etc/hosts
            hn=$1
            shift
            mkdir -p "/etc/netns/$sns"
            [ -f "/etc/netns/$sns/hosts" ] || cp /etc/hosts "/etc/netns/$sns/hosts"
            for a in "$@"; do echo "$a $hn" >> "/etc/netns/$sns/hosts"; done
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
            # a trailing `< FILE` feeds FILE (in the run's directory) on stdin
            stdin=/dev/null
            if [ $# -ge 2 ] && eval "[ \"\${$(($# - 1))}\" = '<' ]"; then
                eval "stdin=\${$#}"
                n2=$(($# - 2))
                a=""
                i=1
                while [ $i -le $n2 ]; do a="$a \"\${$i}\""; i=$((i + 1)); done
                eval "set -- $a"
            fi
            printf '%s\n' "$@" > "$r.argv"
            if [ -f "/etc/netns/$sns/hosts" ]; then cp "/etc/netns/$sns/hosts" "$r.hosts"; else cp /etc/hosts "$r.hosts"; fi
            date +%s > "$r.start"
            # the shell writes its PID and execs the program in its place
            # (env execs too): replies to its netlink requests carry that
            # PID as nlmsg_pid when the kernel autobinds its socket
            # shellcheck disable=SC2016,SC2046
            nsx "$sns" sh -c 'echo $$ > "$0"; exec env -i PATH='"$PATHS"' "$@"' \
                "$r.pid" $(cat "$r.env") "$@" > "$r.out" 2> "$r.err" < "$stdin"
            rc=$?
            date +%s > "$r.end"
            echo "$rc" > "$r.rc"
            out=$(cat "$r.out" "$r.err") ;;
        daemon)
            # daemon NAME [VAR=VALUE...] PROGRAM ARGS: in the background, its
            # output in NAME.out, stopped by `stop NAME` or killed at the end
            dn=$1
            shift
            envs=""
            while [ $# -gt 0 ]; do
                case $1 in
                    *=*) envs="$envs $1"; shift ;;
                    *) break ;;
                esac
            done
            # a session of its own: its PID is its process group, which the
            # end of the run freezes and kills whole
            # shellcheck disable=SC2016,SC2086
            nsx_exec "$sns" /bin/setsid sh -c 'echo $$ > "$0"; exec env -i PATH='"$PATHS"' "$@"' \
                "$W/.pid.$dn" $envs "$@" > "$W/$dn.out" 2>&1 < /dev/null &
            echo "$dn" >> "$W/daemons"
            i=0
            while [ ! -s "$W/.pid.$dn" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
            out="pid $(cat "$W/.pid.$dn" 2>/dev/null)"; rc=0 ;;
        stop)
            # stop NAME [SIGNAL]: signal the daemon (TERM) and wait up to 20 s for it
            p=$(cat "$W/.pid.$1" 2>/dev/null)
            kill -"${2:-TERM}" "$p" 2>/dev/null
            rc=$?
            i=0
            while alive "$p" && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
            if alive "$p"; then out="still running after 20 s"; rc=1; else out="stopped after $((i / 10)).$((i % 10)) s"; fi ;;
        waitfor)
            # waitfor SECONDS CONDITION: run the shell condition in the
            # namespace (no netlink: files, /proc) every half second
            lim=$(($1 * 2))
            cond=$(rest "$sline" 2)
            i=0
            while ! (cd "$W" && nsx "$sns" sh -c "$cond") > /dev/null 2>&1 < /dev/null; do
                i=$((i + 1))
                [ $i -ge $lim ] && break
                sleep 0.5
            done
            if [ $i -ge $lim ]; then out="timed out after $1 s"; rc=1; else out="after $((i / 2)).$((i % 2 * 5)) s"; rc=0; fi ;;
        netns)
            # netns add|del NAME: another namespace, `@NAME` in later steps
            case $1 in
                add)
                    $IP netns add "${nsbase}_$2"; rc=$?
                    echo "$2" >> "$W/netns"
                    nssed="$nssed -e s|@$2\$|${nsbase}_$2| -e s|@$2\([^A-Za-z0-9_]\)|${nsbase}_$2\1|g" ;;
                del) $IP netns del "${nsbase}_$2"; rc=$? ;;
                *) rc=2 ;;
            esac
            out="" ;;
        in)
            # in NAME STEP: the step in namespace @NAME
            step "${nsbase}_$1" "$(rest "$sline" 2)" ;;
        file)
            # file PATH, then its lines up to one that is just EOF (PATH
            # relative to the run's directory)
            f=$1
            case $f in /*) echo "$f" >> "$W/files" ;; *) f=$W/$f ;; esac
            mkdir -p "$(dirname "$f")"
            : > "$f"
            while IFS= read -r fl; do
                [ "$fl" = EOF ] && break
                subst "$fl" >> "$f"
            done
            out=""; rc=0 ;;
        qmp)
            # qmp add N MAC | del N | link N on|off: asks the hypervisor
            # (kernel-matrix-qmp.py reads the console) for a NIC hot-plug
            echo "MATRIX-QMP $*" > /dev/ttyS0
            out=""; rc=0 ;;
        modprobe) out=$(/sbin/modprobe -a "$@" 2>&1); rc=$?; for m in "$@"; do echo "$m" >> "$W/modules"; done ;;
        rmmod) out=$(/sbin/modprobe -r -a "$@" 2>&1); rc=$? ;;
        root-namespace) out=""; rc=0 ;;
        *) out="unknown step: $cmd"; rc=127 ;;
    esac
}

run() { # SCENARIO-FILE LISTENERS
    name=$(basename "$1" .ip)
    n=$2
    base=/out/$name.l$n
    # namespace names are at most a few dozen bytes; keep them short
    nsbase=m$$_$(echo "$name" | tr -c 'a-zA-Z0-9\n' _ | head -c 20)_$n
    ns=$nsbase
    nssed=""
    # `root-namespace`: the capture is of the VM's initial namespace (where
    # hot-added NICs appear)
    grep -q '^[[:space:]]*root-namespace[[:space:]]*$' "$1" && ns=""
    W=/tmp/w/$name.l$n
    rm -rf "$W"
    mkdir -p "$W"
    cd "$W" || return
    [ -n "$ns" ] && $IP netns add "$ns"
    ipn "$ns" link add nlmon0 type nlmon
    ipn "$ns" link set nlmon0 up
    nsx_exec "$ns" $TCPDUMP -Z root -i nlmon0 -U -w "$base.pcap" 2>"$base.tcpdump" &
    td=$!
    i=0
    while ! grep -q listening "$base.tcpdump" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    mons=""
    k=0
    while [ $k -lt "$n" ]; do
        ipn_exec "$ns" monitor all > /dev/null 2>&1 &
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
        step "$ns" "$(subst "$line")"
        { echo "\$ $line"; [ -n "$out" ] && echo "$out" | head -5; echo "exit $rc"; } >> "$base.log"
    done < "$1"
    # late DAD notifications (1-2 s after link-up) belong inside the capture
    sleep 3
    # daemons still running are frozen, so that nothing they would do
    # falls between the capture's end and the dumps
    for d in $(cat "$W/daemons" 2>/dev/null); do
        p=$(cat "$W/.pid.$d" 2>/dev/null)
        ! alive "$p" || kill -STOP -"$p"
    done
    for m in $mons; do kill "$m"; done
    kill "$td"
    wait "$td" 2>/dev/null
    # when `ip` looked (the capture's clock, whole seconds: busybox's date
    # has no %N): the kernel's timers had run on to here, which a quiet
    # host's capture cannot show
    date +%s > "$base.iptime"
    ipn "$ns" -j -d link show > "$base.link.json"
    ipn "$ns" -j addr show > "$base.addr.json"
    ipn "$ns" -j -4 route show table all > "$base.route4.json"
    ipn "$ns" -j -6 route show table all > "$base.route6.json"
    # the same moment as text, as pasted into a ticket: each command after
    # a `$ ip ...` line (`S.lN.ip.txt`), and the one-line forms (`ip -o`,
    # `S.lN.ip-o.txt`)
    for c in "-d link show" "addr show" "route show table all" "-6 route show table all" "rule show" "-6 rule show"; do
        echo "\$ ip $c"
        # shellcheck disable=SC2086
        ipn "$ns" $c
    done > "$base.ip.txt" 2>&1
    for c in "-o -d link show" "-o addr show" "-o route show table all" "-o -6 route show table all"; do
        echo "# ip $c"
        # shellcheck disable=SC2086
        ipn "$ns" $c
    done > "$base.ip-o.txt" 2>&1
    echo "$n" > "$base.listeners"
    nsx "$ns" cat /proc/sys/net/ipv4/conf/all/promote_secondaries > "$base.promote"
    for d in $(cat "$W/daemons" 2>/dev/null); do
        p=$(cat "$W/.pid.$d" 2>/dev/null)
        [ -z "$p" ] || kill -KILL -"$p" 2>/dev/null
    done
    for d in $(cat "$W/daemons" 2>/dev/null); do
        { echo "== daemon $d"; tail -n 150 "$W/$d.out"; } >> "$base.log"
    done
    for m in $(cat "$W/modules" 2>/dev/null); do /sbin/modprobe -r "$m" 2>/dev/null; done
    for x in $(cat "$W/netns" 2>/dev/null); do $IP netns del "${nsbase}_$x" 2>/dev/null; done
    for f in $(cat "$W/files" 2>/dev/null); do rm -f "$f"; done
    if [ -n "$ns" ]; then
        $IP netns del "$ns"
    else
        $IP link del nlmon0
    fi
    [ -z "$ns" ] || rm -rf "/etc/netns/$ns"
}

# A scenario that loads or unloads modules runs alone: a tunnel module
# makes its fallback devices in every namespace, a parallel run's too.
running=0
for f in /scen/*.ip; do
    alone=""
    grep -Eq '^[[:space:]]*(modprobe|rmmod)[[:space:]]' "$f" && alone=1
    for n in $(cat /scen/LISTENERS); do
        if [ -n "$alone" ]; then
            wait
            running=0
            run "$f" "$n"
            continue
        fi
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
