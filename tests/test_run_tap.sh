#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/run-tap.sh, the top-level line make check prints for each TAP
# producer: it must not say "ok" when the producer exited non-zero, nor
# when it exited 0 after printing a "not ok" (the case of a test that
# forgets to return its failures); a TODO failure does not count.  Planted
# producers, each a small shell function.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/helpers/tap.sh"
. "$top/scripts/run-tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export WL_TAP_LOGDIR=$tmp

# The producers.
all_ok() { echo "1..2"; echo "ok 1 a"; echo "ok 2 b"; }
nested_fail_rc0() { echo "1..2"; echo "ok 1 a"; echo "not ok 2 b"; }
deep_fail_rc0() { echo "1..1"; echo "# not ok 1 inner"; echo "ok 1 outer"; }
all_ok_rc1() { all_ok; return 1; }
todo_fail_rc0() { echo "1..1"; echo "not ok 1 a # TODO not yet"; }
mentions_rc0() { echo "1..1"; echo "ok 1 the words not ok 2 in a name"; }

# top NAME PRODUCER: the top-level line wl_run_tap prints for PRODUCER.
top() {
	wl_tap_n=0
	wl_run_tap "$1" "$2" > "$tmp/out" 2>&1
	tail -n 1 "$tmp/out"
}

echo "TAP version 13"
echo "1..8"
check "all ok, exit 0: ok" "ok 1 p" "$(top p all_ok)"
check "a nested not ok, exit 0: not ok" "not ok 1 p" "$(top p nested_fail_rc0)"
grep -q '^# p exited 0, but printed a failure: not ok 2 b$' "$tmp/out"
ok $? "the hidden failure is named above the top line"
check "a failure two levels down, exit 0: not ok" "not ok 1 p" "$(top p deep_fail_rc0)"
check "all ok, exit 1: not ok" "not ok 1 p" "$(top p all_ok_rc1)"
check "a TODO failure, exit 0: ok" "ok 1 p" "$(top p todo_fail_rc0)"
check "'not ok' inside a name is not a result" "ok 1 p" "$(top p mentions_rc0)"
# The producers make check runs that were found to hide a failure: each
# now exits non-zero after a planted "not ok" of its own kind.
(
	. "$top/tests/helpers/tap.sh"
	echo "1..1"; ok 1 "planted"; tap_done
) > /dev/null
ok $((! $?)) "tests/helpers/tap.sh's tap_done returns a planted failure"
tap_done
