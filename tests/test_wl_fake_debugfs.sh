#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# WL_FAKE_DEBUGFS, the emulated debugfs of the host tests, is honoured by a
# test build of wl_compare (tests/Makefile, -DWL_TEST_BUILD) always, and by
# the selftests' build only when not root: run as root with it set, the
# selftests' wl_compare refuses (exit 2, says why) and changes nothing,
# also with --restore and a state file beside it; --merge, which reads
# only files, still runs; the test build applies and restores a spec on
# the same tree; and, where setpriv can drop to uid 65534, the selftests'
# build honours it for a user who is not root.  TAP.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
prod=$top/selftests/wl_compare
testb=$top/.cache/tests/wl_compare
fake=$top/tests/helpers/fake-wl-stream
tmp=$(mktemp -d /tmp/test_wl_fake_debugfs.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

echo "TAP version 13"
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the rule is about root: run as root"
	exit 4
fi
# Both builds are the product under test: one that fails is a failure.
# (lib.mk's targets are $(OUTPUT)/NAME: the selftests' one by its path.)
if ! make -s -C "$top/selftests" "$prod" >"$tmp/build.log" 2>&1 ||
   ! make -s -C "$top/tests" "$testb" >>"$tmp/build.log" 2>&1; then
	echo "1..1"
	sed 's/^/# /' "$tmp/build.log"
	echo "not ok 1 the selftests' and the test build's wl_compare build"
	exit 1
fi
echo "1..5"

mkdir -p "$tmp/dbg/sched"
echo "WA_IDLE WA_WEIGHT WA_BIAS" > "$tmp/dbg/sched/features"
cp "$tmp/dbg/sched/features" "$tmp/features.orig"
same() { cmp -s "$tmp/features.orig" "$tmp/dbg/sched/features"; }
export WL_FAKE_DEBUGFS=$tmp/dbg FAKE_NOISE=0 FAKE_SLEEP=0.01

"$prod" -q -R "$fake" -l 1 -c NO_WA_IDLE >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "WL_FAKE_DEBUGFS is set" "$tmp/err" &&
	grep -q "test build" "$tmp/err" && same
ok $? "selftests' build as root: WL_FAKE_DEBUGFS refused, exit 2, nothing changed (rc=$rc: $(head -c 160 "$tmp/err"))"

printf 'wl_compare-state 1\nboot_id %s\npid 1\nroot %s\nset\tfeature\tWA_IDLE\t%s\t0\nend\n' \
	"$(cat /proc/sys/kernel/random/boot_id)" "$tmp/dbg" "$tmp/dbg/sched/features" \
	> "$tmp/dbg/wl_compare.state"
"$prod" --restore >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "WL_FAKE_DEBUGFS is set" "$tmp/err" && same &&
	[ -e "$tmp/dbg/wl_compare.state" ]
ok $? "selftests' build as root: --restore refused too, the state file left alone (rc=$rc)"
rm -f "$tmp/dbg/wl_compare.state"

"$testb" -q -R "$fake" -l 1 -r 2 -n 1 -O "$tmp/out" default NO_WA_IDLE >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && same && [ -s "$tmp/out/results.json" ]
ok $? "test build as root: honours it, applies NO_WA_IDLE and restores (rc=$rc)"

# One boot per kernel: a report, with exit 1 for the test it cannot make.
"$testb" -q -R "$fake" -l 1 -r 2 -n 1 -O "$tmp/boot" default >/dev/null 2>&1
"$prod" --merge -q "A=$tmp/boot/results.json" "B=$tmp/boot/results.json" >"$tmp/merge" 2>"$tmp/err"; rc=$?
[ $rc -ne 2 ] && grep -q "kernels across boots" "$tmp/merge" &&
	! grep -q WL_FAKE_DEBUGFS "$tmp/err"
ok $? "selftests' build as root: --merge reads files only and runs (rc=$rc)"

if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chown -R 65534:65534 "$tmp/dbg"
	chmod 755 "$tmp"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$prod" -q -R "$fake" -l 1 -c NO_WA_IDLE >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc -eq 0 ] && same
	ok $? "selftests' build as uid 65534: honours it, --check applies and restores (rc=$rc: $(head -c 160 "$tmp/err"))"
else
	echo "ok 5 # SKIP setpriv cannot drop to uid 65534 here"
	n=$((n + 1))
fi
tap_done
