#!/usr/bin/env bash
# The real-kernel matrix: boots Debian's own kernels under qemu (software
# emulation, no KVM needed), runs scenario files inside them, each in a fresh
# network namespace with a real `nlmon0` and `tcpdump -i nlmon0`, once per
# listener count, and brings back for every run the capture and what
# `ip -j` printed right after it.
#
#   scripts/kernel-matrix.sh [-k "6.1 6.12"] [-l "0 1 2"] [-p PARALLEL] -o OUTDIR SCENARIO.ip...
#
# A scenario file holds one step per line (see fixtures/kernels/README.md):
#   ip ARGS...        run iproute2's ip in the namespace (its exit status is logged, not fatal)
#   bridge ARGS...    iproute2's bridge tool, likewise
#   sysctl KEY=VALUE  write /proc/sys/KEY (dots as slashes) in the namespace
#   sleep SECONDS
#   hosts NAME ADDR...  add one `ADDR NAME` line per ADDR to the namespace's
#                     /etc/hosts (/etc/netns/NS/hosts, which `ip netns exec`
#                     binds over /etc/hosts; it starts as `127.0.0.1 localhost`)
#   run NAME [VAR=VALUE...] PROGRAM ARGS...
#                     run a program inside the namespace during the capture
#                     (`ip netns exec`, environment PATH plus the VAR=VALUEs)
#                     and keep what it printed; NAME labels the run. Programs
#                     packed when a scenario has a run step: /usr/bin/getent,
#                     /usr/sbin/ip, /usr/local/bin/golook (scripts/looks/golook,
#                     built here with cgo), /usr/bin/python3.11 with the few
#                     stdlib modules /usr/local/bin/pylook.py needs; and,
#                     only when a run step names gochoose,
#                     /usr/local/bin/gochoose (scripts/looks/gochoose, built
#                     here static: CGO_ENABLED=0)
#   # comment
# Steps for real node software (Debian 12's packages, unpacked, never
# installed, with `apt-get download` + `dpkg-deb -x` and cached in
# $VMCACHE/daemons; see fixtures/daemons/README.md):
#   netns add|del NAME  another namespace; `@NAME` in any later step (and in
#                     file contents) is its real name, `@@` the capture's
#   in NAME STEP      a step in namespace @NAME instead of the capture's
#   daemon NAME [VAR=VALUE...] PROGRAM ARGS...
#                     start a program in the background (its own session,
#                     environment PATH plus the VAR=VALUEs); what it prints
#                     goes to NAME.out in the run's directory and, at the end,
#                     to the log. Daemons still running when the steps end
#                     are frozen (SIGSTOP) before tcpdump stops and killed
#                     after the dumps
#   stop NAME [SIGNAL]  signal a daemon (TERM) and wait for it to exit
#   waitfor SECONDS CONDITION...
#                     poll a shell condition in the namespace every half
#                     second, in the run's directory, for at most SECONDS
#                     (use files and /proc, not netlink: the capture sees ip)
#   file PATH         the following lines, up to a line `EOF`, become PATH
#                     (relative: in the run's directory, `%W` in any step)
#   run ... < FILE    a run step fed FILE on stdin
#   qmp add N MAC | qmp del N | qmp link N on|off
#                     ask the hypervisor (QMP) to hot-add virtio NIC N, to
#                     remove it, or to set its carrier; the NIC appears in
#                     the VM's initial namespace, so such scenarios say
#   root-namespace    capture the VM's initial namespace instead of a fresh one
#   modprobe MODULE... / rmmod MODULE...
#                     load / unload modules (tunnels: ipip sit ip_gre
#                     ip6_tunnel ip6_gre vxlan geneve wireguard bonding; ipvlan,
#                     macvtap); what a
#                     run loaded is unloaded after it
# Output, per kernel K, scenario S and listener count N:
#   OUTDIR/K/S.lN.pcap       what tcpdump recorded on nlmon0 (pcap, LINKTYPE_NETLINK)
#   OUTDIR/K/S.lN.ip.json    {"kernel", "listeners", "scenario", "link", "addr", "route4", "route6"}
#   OUTDIR/K/S.lN.log        each step with its exit status and what ip printed
#   OUTDIR/K/S.lN.runs.json  only with run steps: one object per run, in order
#                            (see fixtures/looks/README.md)
# Needs root only for nothing: qemu runs unprivileged; apt-get installs what
# is missing (qemu-system-x86, busybox-static, tcpdump, cpio, kmod, xz-utils).
# Kernel packages are fetched with apt-get download and cached in $VMCACHE.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernels="6.1 6.12"
listeners="0 1 2"
parallel=1
out=""
while getopts "k:l:o:p:" opt; do
    case $opt in
        k) kernels=$OPTARG ;;
        l) listeners=$OPTARG ;;
        o) out=$OPTARG ;;
        p) parallel=$OPTARG ;;
        *) echo "usage: $0 [-k \"6.1 6.12\"] [-l \"0 1 2\"] -o OUTDIR SCENARIO.ip..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ -z "$out" ] || [ $# -eq 0 ]; then
    echo "usage: $0 [-k \"6.1 6.12\"] [-l \"0 1 2\"] -o OUTDIR SCENARIO.ip..." >&2
    exit 2
fi
for s in "$@"; do [ -f "$s" ] || { echo "$s: no such scenario file" >&2; exit 2; }; done
VMCACHE=${VMCACHE:-/tmp/nlorder-vm}
mkdir -p "$VMCACHE" "$out"

# The steps for real software (and what they need in the VM) are only
# packed when a scenario uses them.
extended=""
grep -Eq '^[[:space:]]*(daemon|stop|waitfor|netns|in|file|qmp|modprobe|rmmod|root-namespace)([[:space:]]|$)' "$@" && extended=1
qmp=""
grep -Eq '^[[:space:]]*qmp[[:space:]]' "$@" && qmp=1

# Programs for `run` steps that look (Go, Python, getent) or choose (the
# node programs' address choosers), built or gathered once into one
# temporary directory; only when a scenario runs one.
looks=""
choose=""
progs=""
grep -Eq '^[[:space:]]*run[[:space:]].*(golook|pylook|getent|python)' "$@" && looks=1
grep -Eq '^[[:space:]]*run[[:space:]].*gochoose' "$@" && choose=1
if [ -n "$looks$choose" ]; then
    progs=$(mktemp -d)
    # shellcheck disable=SC2064
    trap "rm -rf '$progs'" EXIT
fi
if [ -n "$looks" ]; then
    command -v go >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 || {
        echo "run steps need go and gcc (golang-go, gcc)" >&2
        exit 2
    }
    # cgo on: one binary serves GODEBUG=netdns=go and netdns=cgo (glibc's getaddrinfo)
    CGO_ENABLED=1 go build -trimpath -o "$progs/golook" "$here/looks/golook/main.go"
fi
if [ -n "$choose" ]; then
    command -v go >/dev/null 2>&1 || {
        echo "gochoose run steps need go (golang-go)" >&2
        exit 2
    }
    # static (std library only, no cgo): nothing to pack but the binary.
    # A module when the directory has a go.mod, else GOPATH mode (one
    # package main, its files only)
    if [ -f "$here/looks/gochoose/go.mod" ]; then
        (cd "$here/looks/gochoose" && CGO_ENABLED=0 go build -trimpath -o "$progs/gochoose" .)
    else
        (cd "$here/looks/gochoose" && CGO_ENABLED=0 GO111MODULE=off go build -trimpath -o "$progs/gochoose" .)
    fi
fi

need=()
for t in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static cpio:cpio depmod:kmod tcpdump:tcpdump xz:xz-utils ip:iproute2 python3:python3; do
    command -v "${t%%:*}" >/dev/null 2>&1 || need+=("${t#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# Debian's kernels: 6.1 (Debian 12, hash-bucket link dumps) and 6.12 (Debian
# 12 backports, ascending ifindex). The unsigned packages carry the same bits.
kernel_package() {
    case $1 in
        6.1) echo "linux-image-6.1.0-50-amd64-unsigned 6.1.0-50-amd64" ;;
        6.12) echo "linux-image-6.12.117+deb12-amd64-unsigned 6.12.117+deb12-amd64" ;;
        *) echo "unknown kernel $1 (6.1 or 6.12)" >&2; return 2 ;;
    esac
}

# Debian 12's node software, unpacked (never installed: no service starts
# here) under $VMCACHE/daemons, with the libraries they need that the host
# may lack. Downloaded once.
daemon_packages="containernetworking-plugins dnsmasq-base dhcpcd-base isc-dhcp-client radvd keepalived bird2
    systemd libsystemd-shared libnetfilter-conntrack3 libnftables1 libnftnl11 libnfnetlink0 libxtables12
    libjansson4 libsnmp40 libsensors5 libpci3 libwrap0 libnl-3-200 libnl-genl-3-200 libssh-gcrypt-4"
fetch_daemons() { # -> prints the unpacked tree
    local d=$VMCACHE/daemons
    if [ ! -f "$d/.complete" ]; then
        local debs=$VMCACHE/daemon-debs
        mkdir -p "$debs"
        # shellcheck disable=SC2086
        (cd "$debs" && { apt-get download -qq $daemon_packages 2>/dev/null || { apt-get update -qq && apt-get download -qq $daemon_packages; }; }) >&2
        rm -rf "$d"
        mkdir -p "$d"
        for f in "$debs"/*.deb; do dpkg-deb -x "$f" "$d"; done
        rm -rf "$debs"
        touch "$d/.complete"
    fi
    echo "$d"
}

fetch_kernel() { # KV -> prints the unpacked tree
    read -r pkg ver < <(kernel_package "$1")
    local k=$VMCACHE/k$1
    if [ ! -f "$k/boot/vmlinuz-$ver" ]; then
        (cd "$VMCACHE" && { apt-get download -qq "$pkg" 2>/dev/null || { apt-get update -qq && apt-get download -qq "$pkg"; }; } \
            && rm -rf "$k" && dpkg-deb -x "$pkg"_*.deb "$k" && rm -f "$pkg"_*.deb) >&2
        find "$k/lib/modules" -name '*.ko.xz' -exec xz -d {} + >&2
        depmod -b "$k" "$ver" >&2
    fi
    echo "$k $ver"
}

# What the steps for real software need in the VM: the daemons with their
# libraries, their users and directories, all of busybox's applets but those
# that would stand in for real tools, dash for dhclient-script, and kmod's
# modprobe with a module tree for the modules loaded on demand.
pack_extended() { # ROOT KERNEL-TREE VERSION
    local root=$1 k=$2 ver=$3 d
    d=$(fetch_daemons)
    local llp="$d/usr/lib/x86_64-linux-gnu:$d/lib/x86_64-linux-gnu:$d/usr/lib/x86_64-linux-gnu/systemd"
    put() { # SOURCE PATH-IN-VM, with its libraries (those from the packages where the packages put them)
        mkdir -p "$root$(dirname "$2")"
        cp -L "$1" "$root$2"
        for l in $(LD_LIBRARY_PATH=$llp ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
            local t=${l#"$d"}
            mkdir -p "$root$(dirname "$t")"
            [ -e "$root$t" ] || cp -L "$l" "$root$t"
        done
    }
    for b in usr/sbin/dnsmasq usr/sbin/dhcpcd sbin/dhclient usr/sbin/radvd usr/sbin/keepalived \
        usr/sbin/bird usr/sbin/birdc lib/systemd/systemd-networkd; do
        put "$d/$b" "/$b"
    done
    for c in bridge ptp macvlan ipvlan vlan host-local loopback; do put "$d/usr/lib/cni/$c" "/usr/lib/cni/$c"; done
    # systemd-networkd's DUID comes from the machine ID
    echo 5a6f8d0e2b9c4e1f9a3d7c6b5e4f3a21 >"$root/etc/machine-id"
    # /var/run is /run, as on Debian (ip netns, CNI and the daemons agree)
    rmdir "$root/var/run"
    ln -s ../run "$root/var/run"
    mkdir -p "$root/usr/lib/dhcpcd" "$root/etc/dhcp" "$root/var/lib/dhcpcd" "$root/var/lib/dhcp" "$root/var/lib/misc" \
        "$root/var/lib/cni" "$root/etc/systemd/network" "$root/etc/keepalived" "$root/etc/bird"
    cp -a "$d/usr/lib/dhcpcd/." "$root/usr/lib/dhcpcd/"
    cp "$d/etc/dhcpcd.conf" "$root/etc/"
    cp "$d/sbin/dhclient-script" "$root/sbin/"
    cp -a "$d/etc/dhcp/." "$root/etc/dhcp/"
    # Debian's dhclient-script under dash: busybox's sh would run its own
    # `ip` applet instead of iproute2's
    put /bin/dash /bin/dash
    put "$(command -v run-parts)" /usr/bin/run-parts
    printf '#!/bin/dash\n. /sbin/dhclient-script\n' >"$root/sbin/dhclient-script.dash"
    chmod +x "$root/sbin/dhclient-script.dash"
    for a in $(busybox --list); do
        case $a in
            ip | ipneigh | route | ifconfig | arp | tc | brctl | vconfig | nameif | tunctl | udhcpc | udhcpd | \
                modprobe | rmmod | lsmod | depmod | modinfo | run-parts | init | linuxrc | halt | reboot | poweroff) ;;
            *) [ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a" ;;
        esac
    done
    put /usr/bin/kmod /usr/bin/kmod
    for t in modprobe rmmod lsmod; do ln -sf /usr/bin/kmod "$root/sbin/$t"; done
    for m in ipip sit ip_gre ip6_tunnel ip6_gre vxlan geneve ipvlan macvtap wireguard bonding; do
        modprobe -d "$k" -S "$ver" --show-depends $m 2>/dev/null | awk '$1=="insmod"{print $2}' | while read -r p; do
            local rel=${p#"$k"}
            mkdir -p "$root$(dirname "$rel")"
            cp "$p" "$root$rel"
        done
    done
    cp "$k/lib/modules/$ver/modules.builtin" "$k/lib/modules/$ver/modules.builtin.modinfo" "$k/lib/modules/$ver/modules.order" \
        "$root/lib/modules/$ver/"
    depmod -b "$root" "$ver"
}

run_kernel() { # KV OUTDIR
    local kv=$1 dest=$2 k ver
    read -r k ver < <(fetch_kernel "$kv")
    local root
    root=$(mktemp -d)
    # the VM's / as usual: daemons that drop privileges still reach their files
    chmod 755 "$root"
    # shellcheck disable=SC2064
    trap "rm -rf '$root' '$root.initrd' '$root.img'" RETURN
    mkdir -p "$root"/{bin,sbin,lib,lib64,proc,sys,dev,tmp,mods,etc,run,var/run,out,scen}
    cp "$(command -v busybox)" "$root/bin/"
    for b in sh mount insmod sleep cat echo kill mkdir ls tar sync grep sed head wc date printf mv cp rm tr uname; do
        ln -sf busybox "$root/bin/$b"
    done
    copybin() {
        mkdir -p "$root/usr/sbin"
        cp -L "$1" "$root/usr/sbin/"
        for l in $(ldd "$1" | grep -o '/[^ ]*'); do
            mkdir -p "$root$(dirname "$l")"
            cp -L "$l" "$root$l"
        done
    }
    copybin "$(command -v tcpdump)"
    copybin "$(command -v ip)"
    copybin "$(command -v bridge)"
    copyto() { # SOURCE PATH-IN-VM, with the libraries ldd names
        mkdir -p "$root$(dirname "$2")"
        cp -L "$1" "$root$2"
        for l in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
            mkdir -p "$root$(dirname "$l")"
            cp -L "$l" "$root$l"
        done
    }
    if [ -n "$choose" ]; then
        # run steps exec through env
        ln -sf busybox "$root/bin/env"
        copyto "$progs/gochoose" /usr/local/bin/gochoose
    fi
    if [ -n "$looks" ]; then
        ln -sf busybox "$root/bin/env"
        copyto /usr/bin/getent /usr/bin/getent
        copyto "$progs/golook" /usr/local/bin/golook
        # Debian's python3.11: its extension modules are built in, so the
        # pure-Python modules a getaddrinfo call loads (socket, and the idna
        # codec with stringprep and re) and the encodings package are enough,
        # under the same paths (the interpreter finds its prefix by os.py),
        # with their compiled copies (source mtimes kept, so they are used).
        if [ -x /usr/bin/python3.11 ]; then
            copyto /usr/bin/python3.11 /usr/bin/python3.11
            cp "$here/looks/pylook.py" "$root/usr/local/bin/pylook.py"
            mkdir -p "$root/usr/lib/python3.11/lib-dynload"
            cp -rp /usr/lib/python3.11/encodings "$root/usr/lib/python3.11/"
            /usr/bin/python3.11 -I -S -c 'import socket, sys
socket.getaddrinfo("localhost", None)
for m in list(sys.modules.values()):
    f = getattr(m, "__file__", None)
    if f: print(f)' | sort -u | while read -r f; do
                mkdir -p "$root$(dirname "$f")/__pycache__"
                cp -p "$f" "$root$f"
                c="$(dirname "$f")/__pycache__/$(basename "$f" .py).cpython-311.pyc"
                [ ! -f "$c" ] || cp -p "$c" "$root$c"
            done
        fi
        # as on Debian: every /etc/hosts line for a name, not just the first
        printf 'multi on\n' >"$root/etc/host.conf"
    fi
    [ -z "$extended" ] || pack_extended "$root" "$k" "$ver"
    printf 'hosts: files\n' >"$root/etc/nsswitch.conf"
    printf '127.0.0.1 localhost\n' >"$root/etc/hosts"
    if [ -n "$extended" ]; then
        # the users the daemons switch to
        cat >"$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
dnsmasq:x:101:65534:dnsmasq:/var/lib/misc:/bin/false
dhcpcd:x:102:65534:DHCP Client Daemon:/usr/lib/dhcpcd:/bin/false
systemd-network:x:103:103:systemd Network Management:/:/bin/false
bird:x:104:104:BIRD Internet Routing Daemon:/run/bird:/bin/false
keepalived_script:x:105:65534::/nonexistent:/bin/false
PASSWD
        printf 'root:x:0:\nnogroup:x:65534:\nsystemd-network:x:103:\nbird:x:104:\n' >"$root/etc/group"
        printf 'hosts: files\npasswd: files\ngroup: files\n' >"$root/etc/nsswitch.conf"
    else
        echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
        echo 'root:x:0:' >"$root/etc/group"
    fi
    : >"$root/mods/order"
    local boot_modules="virtio_pci virtio_blk nlmon dummy veth bridge 8021q macvlan"
    # virtio_net for hot-added NICs (no udev here to load it)
    [ -z "$qmp" ] || boot_modules="$boot_modules virtio_net"
    for m in $boot_modules; do
        modprobe -d "$k" -S "$ver" --show-depends $m 2>/dev/null | awk '$1=="insmod"{print $2}' | while read -r p; do
            b=$(basename "$p")
            grep -qx "$b" "$root/mods/order" || { cp "$p" "$root/mods/"; echo "$b" >>"$root/mods/order"; }
        done
    done
    for s in "${scenarios[@]}"; do cp "$s" "$root/scen/"; done
    echo "$listeners" >"$root/scen/LISTENERS"
    echo "$parallel" >"$root/scen/PARALLEL"
    cp "$here/kernel-matrix-guest.sh" "$root/guest.sh"
    cat >"$root/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev; mount -t tmpfs tmp /tmp; mount -t tmpfs run /run
for m in $(cat /mods/order); do insmod /mods/$m 2>/dev/null; done
if [ -d /usr/lib/cni ]; then
    mkdir -p /run/dhcpcd /run/bird /run/keepalived /run/systemd/netif /run/radvd
    chown 103:103 /run/systemd/netif
fi
export IP=/usr/sbin/ip TCPDUMP=/usr/sbin/tcpdump BRIDGE=/usr/sbin/bridge
cd /out && sh /guest.sh > /out/guest.log 2>&1
echo "guest exit $?" >> /out/guest.log
tar -cf /dev/vda -C /out . ; sync
echo o > /proc/sysrq-trigger
INIT
    chmod +x "$root/init"
    (cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >"$root.initrd")
    truncate -s 512M "$root.img"
    : >"$dest/console.log"
    # -nic none: the VM has no network device but the NICs `qmp` steps add,
    # each alone on a hub whose other port goes nowhere
    local qmpargs=() drv="" sock=""
    if [ -n "$qmp" ]; then
        sock=$(mktemp -u /tmp/matrix-qmp.XXXXXX)
        python3 "$here/kernel-matrix-qmp.py" "$sock" "$dest/console.log" "$dest/qmp.log" &
        drv=$!
        qmpargs=(-qmp "unix:$sock,server=on,wait=off")
    fi
    timeout "${VM_TIMEOUT:-1800}" qemu-system-x86_64 -accel tcg -smp 1 -m 2048 -nographic -no-reboot -nic none \
        "${qmpargs[@]}" \
        -kernel "$k/boot/vmlinuz-$ver" -initrd "$root.initrd" \
        -drive file="$root.img",format=raw,if=virtio \
        -append "console=ttyS0 quiet panic=-1 sysrq_always_enabled=1" >>"$dest/console.log" 2>&1 || true
    if [ -n "$drv" ]; then
        kill "$drv" 2>/dev/null || true
        wait "$drv" 2>/dev/null || true
        rm -f "$sock"
    fi
    mkdir -p "$dest/raw"
    tar -xf "$root.img" -C "$dest/raw" 2>/dev/null || { echo "$kv: no output from the VM (see $dest/console.log)" >&2; return 1; }
    python3 "$here/kernel-matrix-collect.py" "$dest/raw" "$dest"
    tail -1 "$dest/raw/guest.log" >&2
    rm -rf "$dest/raw"
}

scenarios=("$@")
for kv in $kernels; do
    mkdir -p "$out/$kv"
    echo "kernel $kv: ${#scenarios[@]} scenarios x listeners {$listeners}" >&2
    run_kernel "$kv" "$out/$kv"
done
