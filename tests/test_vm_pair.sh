#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of scripts/vm-pair: two stock-6.12 guests joined by virtio-net
# reach each other (ping, a busybox nc transfer), the main command's exit
# status comes back and a peer still running is asked to stop and reports
# (its dmesg checked: a splat in it fails the pair); a peer that fails
# before the main command ends fails the pair (exit 1) with the reason;
# bad options are refused.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pair="$top/scripts/vm-pair --kernel stock-6.12 --no-build --timeout 300"
# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "TAP version 13"
echo "1..10"

# The peer receives with nc, then waits for ever: the main guest asks it to
# stop.
# shellcheck disable=SC2016 # expanded in the guests
$pair --peer-cmd 'nc -l -p 5000 >/tmp/x; echo "got $(cat /tmp/x)"; sleep 1000' -- '
	i=0
	until ping -c 1 -W 1 "$WAKELAB_PEER" >/dev/null; do
		i=$((i + 1)); [ $i -lt 120 ] || exit 9
	done
	i=0
	until echo "hello from $WAKELAB_ADDR" | nc "$WAKELAB_PEER" 5000; do
		i=$((i + 1)); [ $i -lt 60 ] || exit 8; sleep 1
	done
	sleep 2
	exit 3' >"$out" 2>&1; rc=$?
[ "$rc" = 3 ] || sed 's/^/# /' "$out" | tail -n 30
check "vm-pair: the main command's exit status (3) comes back" 3 $rc
grep -q '^\[peer\] got hello from 10.199.0.1' "$out"
check "vm-pair: the peer received the main guest's message over virtio-net" 0 $?
grep -q "^\[peer\] vm-pair: the peer's command stopped at the main guest's request" "$out" &&
	grep -q '^\[peer\] wakelab-vm: command exited 0 after' "$out"
check "vm-pair: the peer still running is asked to stop and reports (exit 0)" 0 $?

# A splat in the peer's kernel log fails the pair, also when the peer ran
# until it was asked to stop.
# shellcheck disable=SC2016 # expanded in the guests
$pair --peer-cmd 'echo "WARNING: wakelab test splat" >/dev/kmsg; sleep 1000' -- '
	i=0
	until ping -c 1 -W 1 "$WAKELAB_PEER" >/dev/null; do
		i=$((i + 1)); [ $i -lt 120 ] || exit 9
	done
	sleep 2' >"$out" 2>&1; rc=$?
[ "$rc" = 1 ] || sed 's/^/# /' "$out" | tail -n 30
check "vm-pair: a splat in a peer asked to stop fails the pair (exit 1)" 1 $rc
grep -q '^vm-pair: FAIL: the peer failed after the main command (scripts/vm exit 126)' "$out"
check "vm-pair: the peer's splat is named" 0 $?

$pair --peer-cmd 'exit 4' -- 'sleep 20' >"$out" 2>&1; rc=$?
[ "$rc" = 1 ] || sed 's/^/# /' "$out" | tail -n 30
check "vm-pair: a peer failing before the main command fails the pair (exit 1)" 1 $rc
grep -q '^vm-pair: FAIL: the peer ended before the main command, failing (scripts/vm exit 4)' "$out"
check "vm-pair: the peer's failure is named" 0 $?

"$top/scripts/vm-pair" -- true >"$out" 2>&1; rc=$?
check "vm-pair: no --peer-cmd is a usage error (exit 2)" 2 $rc
"$top/scripts/vm-pair" --peer-cores 0 --peer-cmd true -- true >"$out" 2>&1; rc=$?
check "vm-pair: a bad --peer-cores is a usage error (exit 2)" 2 $rc
"$top/scripts/vm-pair" --peer-cmd true >"$out" 2>&1; rc=$?
check "vm-pair: no command is a usage error (exit 2)" 2 $rc

echo "# $((n - fails)) of $n passed"
[ "$fails" = 0 ]
