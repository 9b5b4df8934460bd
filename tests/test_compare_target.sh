#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/compare --target: a bad target, or a VM option with a target
# that is a machine, is a usage error (exit 2) that names the option, and
# nothing is created in the results directory.  The driver on this host:
# where debugfs is not mounted, or its files cannot be read (a sandbox's
# kernel), it refuses with exit 3 and changes nothing.  (The driver runs
# for real in the VM: selftests/wakelab_local_test.sh.)

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmp="$top/scripts/compare --results $tmp/res"

echo "TAP version 13"
echo "1..8"

# usage_error DESCRIPTION WANT-IN-STDERR ARGS...
usage_error() {
	local desc=$1 want=$2 rc
	shift 2
	$cmp "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/err" && [ ! -e "$tmp/res" ]
	ok $? "$desc (exit $rc)"
	[ "$rc" = 2 ] || sed 's/^/# /' "$tmp/err" | head -n 5
}

usage_error "--target foo is refused" "--target is vm, local or ssh:[user@]host[:port], got 'foo'" --target foo
usage_error "--target ssh: without a host is refused" "--target is vm, local or ssh:" --target ssh:
WAKELAB_SSH_HEARTBEAT='1;reboot' usage_error "a WAKELAB_SSH_HEARTBEAT that is not a number is refused" \
	"WAKELAB_SSH_HEARTBEAT must be a number of seconds (0: EOF only), got '1;reboot'" \
	--target ssh:root@127.0.0.1:1
for o in "--kernel stock-7.3" "--sockets 1" "--pair" "--kernels a"; do
	# shellcheck disable=SC2086 # an option and its value
	usage_error "--target local $o: a VM option is refused" "${o%% *} is for the VM" --target local $o
done
# The driver's refusal on this host, as root.
D=/sys/kernel/debug
ag=/proc/sys/kernel/sched_autogroup_enabled
drv() {
	"$top/scripts/guest/compare-local" --no-module --state "$tmp/state" \
		--bin "$tmp" -- -w tcp_stream -n 1 default >"$tmp/out" 2>"$tmp/err"
}
ag0=$(cat $ag 2>/dev/null)
rc=3
if [ "$(id -u)" != 0 ]; then
	ok 0 "driver on this host # SKIP not root"
elif ! grep -q " $D debugfs " /proc/mounts; then
	drv; rc=$?
	[ $rc = 3 ] && grep -q 'refused (nothing changed): debugfs is not mounted' "$tmp/err" &&
		[ ! -e "$tmp/state" ] && [ "$(cat $ag 2>/dev/null)" = "$ag0" ]
	ok $? "driver on this host: debugfs not mounted, refused (exit $rc), nothing changed"
elif ! cat $D/sched/features >/dev/null 2>&1; then
	drv; rc=$?
	[ $rc = 3 ] && grep -q "refused (nothing changed): cannot read $D/sched/features" "$tmp/err" &&
		[ ! -e "$tmp/state" ] && [ "$(cat $ag 2>/dev/null)" = "$ag0" ]
	ok $? "driver on this host: debugfs files unreadable, refused (exit $rc), nothing changed"
else
	ok 0 "driver on this host # SKIP debugfs is usable here: no refusal to check (the VM suites run the driver)"
fi
[ "$rc" = 3 ] 2>/dev/null || sed 's/^/# /' "$tmp/err" | head -n 5
tap_done
