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
#                     stdlib modules /usr/local/bin/pylook.py needs
#   # comment
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

# Programs for `run` steps, built or gathered once; only when a scenario runs one.
looks=""
if grep -Eq '^[[:space:]]*run[[:space:]]' "$@"; then
    looks=$(mktemp -d)
    # shellcheck disable=SC2064
    trap "rm -rf '$looks'" EXIT
    command -v go >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 || {
        echo "run steps need go and gcc (golang-go, gcc)" >&2
        exit 2
    }
    # cgo on: one binary serves GODEBUG=netdns=go and netdns=cgo (glibc's getaddrinfo)
    CGO_ENABLED=1 go build -trimpath -o "$looks/golook" "$here/looks/golook/main.go"
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

run_kernel() { # KV OUTDIR
    local kv=$1 dest=$2 k ver
    read -r k ver < <(fetch_kernel "$kv")
    local root
    root=$(mktemp -d)
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
    if [ -n "$looks" ]; then
        copyto() { # SOURCE PATH-IN-VM, with the libraries ldd names
            mkdir -p "$root$(dirname "$2")"
            cp -L "$1" "$root$2"
            for l in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
                mkdir -p "$root$(dirname "$l")"
                cp -L "$l" "$root$l"
            done
        }
        ln -sf busybox "$root/bin/env"
        copyto /usr/bin/getent /usr/bin/getent
        copyto "$looks/golook" /usr/local/bin/golook
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
    printf 'hosts: files\n' >"$root/etc/nsswitch.conf"
    printf '127.0.0.1 localhost\n' >"$root/etc/hosts"
    echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
    echo 'root:x:0:' >"$root/etc/group"
    : >"$root/mods/order"
    for m in virtio_pci virtio_blk nlmon dummy veth bridge 8021q macvlan; do
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
export IP=/usr/sbin/ip TCPDUMP=/usr/sbin/tcpdump BRIDGE=/usr/sbin/bridge
cd /out && sh /guest.sh > /out/guest.log 2>&1
echo "guest exit $?" >> /out/guest.log
tar -cf /dev/vda -C /out . ; sync
echo o > /proc/sysrq-trigger
INIT
    chmod +x "$root/init"
    (cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >"$root.initrd")
    truncate -s 512M "$root.img"
    timeout "${VM_TIMEOUT:-1800}" qemu-system-x86_64 -accel tcg -smp 1 -m 2048 -nographic -no-reboot \
        -kernel "$k/boot/vmlinuz-$ver" -initrd "$root.initrd" \
        -drive file="$root.img",format=raw,if=virtio \
        -append "console=ttyS0 quiet panic=-1 sysrq_always_enabled=1" >"$dest/console.log" 2>&1 || true
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
