#!/bin/bash
# Runs two nlorder binaries over every capture and snapshot under fixtures/
# and says where their output differs: stdout, stderr, exit code, and the
# file `report -o` writes. A restructuring that means to change no output
# must end with "0 differ".
#
#   scripts/same-output.sh BASE_BIN NEW_BIN [WORKDIR]
#
# Run it from anywhere; it works in the repository it belongs to. WORKDIR
# (default: a fresh temporary directory) keeps both runs' outputs, one
# file per input, command and stream, and the list of differences in
# WORKDIR/differ.txt. The base's outputs are kept by the binary's checksum
# under WORKDIR/by-sum/, so a second run against the same base only runs
# the new binary. Exit status: 0 when nothing differs, 1 otherwise.
set -u
if [ $# -lt 2 ]; then
	echo "usage: $0 BASE_BIN NEW_BIN [WORKDIR]" >&2
	exit 2
fi
BASE=$(readlink -f "$1")
NEW=$(readlink -f "$2")
WORK=$(readlink -m "${3:-$(mktemp -d)}")
cd "$(dirname "$0")/.." || exit 2

# Both binaries under the same name: help and usage lines name it.
setup() { # binary -> directory holding it as nlorder
	local sum dir
	sum=$(sha256sum "$1" | cut -c1-16)
	dir="$WORK/by-sum/$sum"
	mkdir -p "$dir/out"
	cp "$1" "$dir/nlorder"
	echo "$dir"
}
BDIR=$(setup "$BASE")
NDIR=$(setup "$NEW")

# The inputs: captures (pcap, pcapng, gzip), ip -j snapshots, pastes, sosreports.
mapfile -t CAPS < <(find fixtures -type f \( -name '*.pcap' -o -name '*.pcapng' -o -name '*.gz' \) -not -path '*/sos/*' | sort)
mapfile -t SNAPS < <( (find fixtures -type f -name '*.ip.json' -not -path '*/sos/*'; find fixtures/pastes -type f -not -name README.md; find fixtures/sos -mindepth 1 -maxdepth 1 -type d) | sort)

ADDRS=(10.0.0.1 192.168.10.100 2001:db8::1 fe80::1 ::1 127.0.0.1 8.8.8.8)
OBSERVED=8.8.8.8,127.0.0.1,::1,fe80::1,2001:db8::1,192.168.10.100,10.0.0.1

n=0
differ=0
: >"$WORK/differ.txt"

# Runs one command with one binary, unless its outputs are kept already.
run() { # dir key args...
	local dir=$1 key=$2
	shift 2
	local o="$dir/out/$key"
	[ -e "$o.rc" ] && return
	local args=() a
	for a in "$@"; do
		a=${a//@OUT@/$dir/report.tmp}
		args+=("$a")
	done
	rm -f "$dir/report.tmp"
	"$dir/nlorder" "${args[@]}" >"$o.out" 2>"$o.err"
	local rc=$?
	sed -i "s#$dir/report.tmp#@OUT@#g" "$o.err" "$o.out"
	if [ -e "$dir/report.tmp" ]; then
		mv "$dir/report.tmp" "$o.file"
	fi
	echo $rc >"$o.rc"
}

compare() { # key args...
	local key=$1
	shift
	run "$BDIR" "$key" "$@"
	run "$NDIR" "$key" "$@"
	n=$((n + 1))
	local s
	for s in out err rc file; do
		if [ -e "$BDIR/out/$key.$s" ] || [ -e "$NDIR/out/$key.$s" ]; then
			if ! cmp -s "$BDIR/out/$key.$s" "$NDIR/out/$key.$s"; then
				echo "$key.$s: nlorder $*" >>"$WORK/differ.txt"
				differ=$((differ + 1))
				return
			fi
		fi
	done
}

key() { echo "$1" | sed 's#^fixtures/##; s#/#__#g'; }

inputs=0
for c in "${CAPS[@]}" "${SNAPS[@]}"; do
	inputs=$((inputs + 1))
	k=$(key "$c")
	compare "$k.table" table -q "$c"
	compare "$k.table-json" table -q --format json "$c"
	compare "$k.detect-all" detect -q --all "$c"
	compare "$k.detect-all-json" detect -q --all --format json "$c"
	compare "$k.detect" detect "$c"
	compare "$k.gai" gai -q "$c" "${ADDRS[@]}"
	compare "$k.gai-json" gai -q --format json "$c" "${ADDRS[@]}"
	compare "$k.gai-observed" gai -q --observed "$OBSERVED" "$c" "${ADDRS[@]}"
	compare "$k.report" report -q --all "$c" -o @OUT@
done
for c in "${CAPS[@]}"; do
	k=$(key "$c")
	compare "$k.timeline" timeline -q "$c"
	compare "$k.who" who -q "$c"
	compare "$k.detect-looks" detect -q --at auto --all-looks "$c"
	compare "$k.gai-timeline" gai -q --timeline "$c" "${ADDRS[@]}"
	compare "$k.gai-timeline-observed" gai -q --timeline --format json --observed "$OBSERVED" "$c" "${ADDRS[@]}"
done

# Every program's --method, and calico-node's methods, on a few captures.
METHODS=(first-found can-reach=10.0.0.1 'interface=eth.*' skip-interface=eth0 cidr=10.0.0.0/8
	kubernetes-internal-ip kubelet flannel k3s k3s-flannel kubeadm kube-apiserver cilium
	cilium-nodeport cilium-masquerade etcd swarm consul nomad ansible no-such-program)
for c in fixtures/incident-nerdctl.pcap fixtures/incident-k8s-node-1.pcap fixtures/incident-dual-nic.ip.json; do
	k=$(key "$c")
	for m in "${METHODS[@]}"; do
		mk=$(echo "$m" | tr '/*=.' '___-')
		compare "$k.method-$mk" detect -q --method "$m" "$c"
		compare "$k.method-$mk-json" detect -q --format json --method "$m" "$c"
	done
done

# Manifests, and the command line itself (help, man pages, completions).
for m in $(find fixtures -name '*.nlorder.toml' | sort); do
	compare "check-$(key "$m")" check "$m"
done
compare help --help
for s in decode table timeline who annotate detect gai check report record watch; do
	compare "help-$s" "$s" --help
	compare "man-$s" man "$s"
done
compare completions-bash completions bash
compare completions-zsh completions zsh

echo "$inputs inputs, $n runs compared, $differ differ (list: $WORK/differ.txt)"
[ "$differ" -eq 0 ]
