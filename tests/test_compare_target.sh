#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/compare --target: a bad target, or a VM option with a target
# that is a machine, is a usage error (exit 2) that names the option, and
# nothing is created in the results directory.  (The driver itself runs
# in the VM: selftests/wakelab_local_test.sh.)

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmp="$top/scripts/compare --results $tmp/res"

echo "TAP version 13"
echo "1..6"

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
for o in "--kernel stock-7.3" "--sockets 1" "--pair" "--kernels a"; do
	# shellcheck disable=SC2086 # an option and its value
	usage_error "--target local $o: a VM option is refused" "${o%% *} is for the VM" --target local $o
done
tap_done
