#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the kernel-test harness itself (scripts/vm): exit statuses come
# back, a panic, a timeout and a WARN in the guest each fail the run with
# the reason, bad options are refused, the default topology has >= 2 LLCs,
# the selftests reach the guest through the in-tree (lib.mk) install, the
# accelerator is TCG unless KVM is asked for, the guest's /init
# (scripts/guest/init) prints the LLC groups through wl_topo, a guest
# that would have no wakelab.ko is refused unless asked for, a kernel name
# the table does not know is refused, and an image that compresses its
# modules (6.12's .ko.xz) still gets a loadable sctp, and there TIPC and
# veth are loaded at boot, /bin/ip is iproute2's (found in PATH by
# programs), --net brings a virtio-net NIC up with --addr's address,
# getaddrinfo() with AI_ADDRCONFIG resolves 127.0.0.1 in the guest,
# TERM, INT or HUP to scripts/vm kills its guest, and --accel kvm boots
# only after its probe, --kvm-fallback falling back to TCG.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
vm="$top/scripts/vm --no-build --quiet"
# The first boot builds what the guest carries; the others reuse it.
# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "TAP version 13"
echo "1..34"

# The console goes to $out (not --quiet): /init's lines are checked.
$top/scripts/vm -- true >"$out" 2>&1; rc=$?
[ "$rc" = 0 ] || sed 's/^/# /' "$out"
check "vm: true exits 0" 0 $rc
grep -q '^wakelab-vm: tcg-single,' "$out"
check "vm: single-threaded TCG unless asked otherwise" 0 $?
tr -d '\r' < "$out" | grep -Eq '^wakelab-vm: [2-9][0-9]* LLC groups: [0-9]'
check "vm: /init prints the LLC groups (wl_topo), >= 2" 0 $?
$vm -- 'exit 3' >"$out" 2>&1; check "vm: exit status 3 comes back" 3 $?
$vm -- 'echo c > /proc/sysrq-trigger' >"$out" 2>&1; rc=$?
check "vm: guest panic is exit 125" 125 $rc
grep -q 'FAIL: guest panic: Kernel panic - not syncing: sysrq triggered crash' "$out"
check "vm: panic reason is named" 0 $?
start=$(date +%s)
$vm --timeout 20 -- 'sleep 600' >"$out" 2>&1; rc=$?
took=$(( $(date +%s) - start ))
check "vm: timeout is exit 124" 124 $rc
[ "$took" -le 35 ]; check "vm: --timeout 20 stops within 35s (took ${took}s)" 0 $?
$vm -- 'insmod /wakelab/modules/test/wakelab_warn_once.ko' >"$out" 2>&1
check "vm: a WARN in dmesg fails the run (exit 126)" 126 $?
$vm -- 'grep -c "" /wakelab/kselftest/kselftest-list.txt >/dev/null &&
	grep -q "^wakelab:wakelab_basic_test$" /wakelab/kselftest/kselftest-list.txt &&
	set -- $(cat /sys/devices/system/cpu/cpu*/cache/index3/shared_cpu_list | sort -u) &&
	[ $# -ge 2 ]' >"$out" 2>&1
check "vm: in-tree kselftest install present, >= 2 LLCs" 0 $?
$top/scripts/vm --sockets x -- true >"$out" 2>&1; rc=$?
check "vm: bad --sockets is a usage error (exit 2)" 2 $rc
# TCG unless KVM is asked for: a /dev/kvm that exists need not run a guest.
$top/scripts/vm --accel hvf -- true >"$out" 2>&1; rc=$?
check "vm: bad --accel is a usage error (exit 2)" 2 $rc
grep -q -- "--accel takes tcg or kvm, got 'hvf'" "$out"
check "vm: the bad --accel value is named" 0 $?
# KVM only after its probe: a /dev/kvm that hangs its guest fails the
# probe (exit 125, saying so) and --kvm-fallback boots under TCG; where KVM
# works, the guest runs under it and says so.
if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
	for t in "the probe decides" "the mode is named" "the fallback or KVM runs the command"; do
		n=$((n + 1)); echo "ok $n vm: --accel kvm: $t # SKIP no read-writable /dev/kvm"
	done
else
	$top/scripts/vm --no-build --no-module --accel kvm --kvm-probe 20 -- \
		'grep -o "wakelab.accel=[a-z-]*" /proc/cmdline' >"$out" 2>&1; rc=$?
	if grep -q '^wakelab-vm: KVM probe: the kernel booted to its root mount in ' "$out"; then
		check "vm: --accel kvm: the probe passes, the guest runs (exit 0)" 0 $rc
		grep -q '^wakelab-vm: kvm, ' "$out"; check "vm: --accel kvm: the mode is kvm" 0 $?
		tr -d '\r' < "$out" | grep -qx 'wakelab.accel=kvm'
		check "vm: --accel kvm: wakelab.accel=kvm in the guest" 0 $?
	else
		check "vm: --accel kvm: a failed probe is exit 125" 125 $rc
		grep -q "FAIL: --accel kvm: the probe: the kernel did not boot to its root mount in " "$out"
		check "vm: --accel kvm: the failed probe is named" 0 $?
		$top/scripts/vm --no-build --no-module --accel kvm --kvm-probe 5 --kvm-fallback -- \
			'grep -o "wakelab.accel=[a-z-]*" /proc/cmdline' >"$out" 2>&1; rc=$?
		grep -q '^wakelab-vm: tcg-single, ' "$out" &&
			grep -q 'falling back to TCG (--kvm-fallback)' "$out" &&
			tr -d '\r' < "$out" | grep -qx 'wakelab.accel=tcg-single'
		check "vm: --kvm-fallback: a failed probe boots under TCG, saying so (exit $rc)" 0 $?
	fi
fi
# A guest without wakelab.ko only when asked for: a kernel with no build
# dir to build it against is a harness error before anything boots.
$top/scripts/vm --quiet --kdir /nonexistent -- true >"$out" 2>&1; rc=$?
check "vm: no build dir for wakelab.ko is a harness error (exit 125)" 125 $rc
grep -q 'no kernel build dir at /nonexistent' "$out"
check "vm: the missing build dir is named" 0 $?

$top/scripts/vm --kernel stock-9.9 -- true >"$out" 2>&1; rc=$?
check "vm: an unknown kernel name is an error (exit 2)" 2 $rc
grep -q "unknown kernel 'stock-9.9': one of stock-6.1 " "$out"
check "vm: the error lists the table's kernels" 0 $?
$top/scripts/vm --quiet --no-module --kernel stock-6.12 -- \
	'modprobe sctp && grep -q "^sctp " /proc/modules' >"$out" 2>&1; rc=$?
[ "$rc" = 0 ] || sed 's/^/# /' "$out" | tail -n 20
check "vm: stock-6.12 (modules .ko.xz): modprobe sctp loads it" 0 $rc

# The NIC's peer port has no guest: the link is up all the same.
lport=$((30000 + RANDOM % 20000))
$top/scripts/vm --no-module --kernel stock-6.12 --net "$lport:$((lport + 1))" \
	--addr 10.199.0.7/24 --peer 10.199.0.8 -- '
	grep -q "^TIPC " /proc/net/protocols && echo T-TIPC
	/bin/ip link add type veth && echo T-VETH
	/usr/bin/timeout 10 ip -V | grep -q "^ip utility, iproute2-" && echo T-IPROUTE2
	[ "$WAKELAB_ADDR $WAKELAB_PEER" = "10.199.0.7 10.199.0.8" ] &&
		/bin/ip -4 -o addr show dev "$WAKELAB_IF" | grep -q " 10.199.0.7/24 " &&
		echo T-NIC' >"$out" 2>&1; rc=$?
[ "$rc" = 0 ] || sed 's/^/# /' "$out" | tail -n 20
check "vm: stock-6.12 with --net: exit 0" 0 $rc
grep -q '^T-TIPC' "$out"; check "vm: stock-6.12: TIPC loaded at boot" 0 $?
grep -q '^T-VETH' "$out"; check "vm: stock-6.12: ip link add type veth" 0 $?
grep -q '^T-IPROUTE2' "$out"
check "vm: ip in PATH, for a program, is iproute2's (/bin/ip)" 0 $?
grep -q '^T-NIC' "$out"
check "vm: --net --addr: the NIC is up with the address, WAKELAB_ADDR/PEER/IF set" 0 $?
$top/scripts/vm --net 5:x -- true >"$out" 2>&1; rc=$?
check "vm: a bad --net is a usage error (exit 2)" 2 $rc

# Real tools resolve: glibc's getaddrinfo() with AI_ADDRCONFIG, as netperf
# calls it, needs an IPv4 address beside 127/8 (the guest's 192.0.2.1).
tmpd=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$tmpd"' EXIT
cc -O1 -Wall -o "$tmpd/resolve" "$top/tests/helpers/resolve.c"
# With a NIC whose only address is IPv6 link-local, AF_UNSPEC is narrowed
# to IPv6 unless an IPv4 address is seen; AF_INET needs one in any case.
lport=$((30000 + RANDOM % 20000))
$vm --no-module --file "$tmpd/resolve" --net "$lport:$((lport + 1))" -- '
	r=/wakelab/files/resolve
	$r -4 127.0.0.1 && $r -4 localhost && $r 127.0.0.1 && $r localhost' \
	>"$out" 2>&1; rc=$?
[ "$rc" = 0 ] || sed 's/^/# /' "$out" | tail -n 5
check "vm: getaddrinfo(AI_ADDRCONFIG) resolves 127.0.0.1 and localhost, IPv4 or any family" 0 $rc

# The guest dies with the harness: TERM, INT or HUP to scripts/vm while
# its command runs stops qemu, and scripts/vm exits 128 + the signal.
# Job control on: a background job of a script otherwise ignores SIGINT.
for sig in TERM INT HUP; do
	set -m
	$top/scripts/vm --no-build --no-module --pidfile "$tmpd/qemu.pid" -- \
		'echo WL-RUNNING; sleep 600' >"$out" 2>&1 &
	vpid=$!
	set +m
	i=0
	until grep -q '^WL-RUNNING' "$out" || [ $i -ge 240 ]; do
		sleep 0.5; i=$((i + 1))
	done
	qpid=$(cat "$tmpd/qemu.pid" 2>/dev/null)
	kill -s "$sig" "$vpid"
	i=0
	while kill -0 "$vpid" 2>/dev/null && [ $i -lt 60 ]; do
		sleep 0.5; i=$((i + 1))
	done
	kill -0 "$vpid" 2>/dev/null && kill -KILL "$vpid"
	wait "$vpid"; rc=$?
	[ "$rc" = $((128 + $(kill -l "$sig"))) ] || sed 's/^/# /' "$out" | tail -n 5
	check "vm: SIG$sig to scripts/vm while the command runs: exit 128 + $(kill -l "$sig")" \
		$((128 + $(kill -l "$sig"))) "$rc"
	gone=1
	[ -n "$qpid" ] && [ "$(cat "/proc/$qpid/comm" 2>/dev/null)" = qemu-system-x86 ] && gone=0
	[ -n "$qpid" ] && [ $gone = 1 ]
	check "vm: SIG$sig: the guest's qemu (pid ${qpid:-none}) is gone" 0 $?
	[ $gone = 1 ] || kill -KILL "$qpid"
done

echo "# $((n - fails)) of $n passed"
[ "$fails" = 0 ]
