#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of scripts/tap-summary, the line that decides whether `make check`
# is green: crafted TAP streams (a healthy one, a missing plan, a short
# plan, a program with no results, a skipped stage, "# skip" inside a
# failure, a runner that reported fewer programs than it planned, an
# expected program that did not run) and the counts and exit status each
# must give.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
sum=$top/scripts/tap-summary
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

# case NAME WANT_LINE WANT_RC [AWK_ARGS...] < STREAM
case_() {
	local name=$1 want=$2 want_rc=$3 got rc
	shift 3
	cat > "$tmp/in"
	got=$("$sum" "$@" "$tmp/in" 2>&1)
	rc=$?
	n=$((n + 1))
	if [ "$(tail -n 1 <<<"$got")" = "$want" ] && [ "$rc" = "$want_rc" ]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		echo "# expected '$want' (exit $want_rc), got exit $rc:"
		sed 's/^/#   /' <<<"$got"
		fails=$((fails + 1))
	fi
}

echo "TAP version 13"
echo "1..14"

# A program block as the kselftest runner prints it: $1 name, $2 plan,
# then one leaf per remaining argument ("ok", "not ok", "skip").
prog() {
	local name=$1 plan=$2 i=0 r
	shift 2
	echo "# selftests: wakelab: $name"
	[ "$plan" = - ] || echo "# 1..$plan"
	for r in "$@"; do
		i=$((i + 1))
		case $r in
		skip) echo "# ok $i $name.t$i # SKIP no such thing" ;;
		*) echo "# $r $i $name.t$i" ;;
		esac
	done
}

healthy() {
	echo "TAP version 13"
	echo "ok 0 build: module, selftests, host tests"
	echo "1..2"
	prog a 2 ok ok
	echo "ok 1 selftests: wakelab: a"
	prog b 2 ok skip
	echo "ok 2 selftests: wakelab: b"
	echo "ok 3 vm: stock kernel boots, suite ran, dmesg clean"
}

case_ "healthy stream" "5 passed, 0 failed, 1 skipped" 0 < <(healthy)
case_ "healthy stream, expected programs all ran" \
	"5 passed, 0 failed, 1 skipped" 0 --expect "a b" < <(healthy)
case_ "an expected program that did not run fails" \
	"5 passed, 1 failed, 1 skipped" 1 --expect "a b c" < <(healthy)
case_ "a program with results but no plan fails" \
	"2 passed, 1 failed, 0 skipped" 1 < <(
	echo "1..1"; prog a - ok ok; echo "ok 1 selftests: wakelab: a")
case_ "a short plan (2 of 8 results) fails" \
	"2 passed, 1 failed, 0 skipped" 1 < <(
	echo "1..1"; prog a 8 ok ok; echo "ok 1 selftests: wakelab: a")
case_ "a program that printed nothing fails" \
	"0 passed, 1 failed, 0 skipped" 1 < <(
	echo "1..1"; echo "# selftests: wakelab: a"
	echo "ok 1 selftests: wakelab: a")
case_ "a timed-out program with a short plan is one failure" \
	"1 passed, 1 failed, 0 skipped" 1 < <(
	echo "1..1"; prog a 3 ok
	echo "not ok 1 selftests: wakelab: a # TIMEOUT 45 seconds")
case_ "a skipped stage is a skip, not a pass" \
	"1 passed, 0 failed, 1 skipped" 0 < <(
	echo "ok 1 vm: stock kernel boots, suite ran, dmesg clean"
	echo "ok 2 # SKIP patched kernel: WAKELAB_CHECK_PATCHED=0")
case_ "a skip directive on a failing result is a failure" \
	"1 passed, 1 failed, 0 skipped" 1 < <(
	echo "1..1"; echo "# selftests: wakelab: a"; echo "# 1..2"
	echo "# ok 1 a.x"; echo "# not ok 2 a.y # skip this"
	echo "not ok 1 selftests: wakelab: a # exit=1")
case_ "a failed stage with no results is one failure" \
	"1 passed, 1 failed, 0 skipped" 1 < <(
	echo "ok 0 build: module, selftests, host tests"
	echo "not ok 1 vm: stock kernel boots, suite ran, dmesg clean (exit 125)")
case_ "a runner that reported fewer programs than planned fails" \
	"2 passed, 1 failed, 0 skipped" 1 < <(
	echo "1..3"; prog a 1 ok; echo "ok 1 selftests: wakelab: a"
	echo "ok 2 vm: stock kernel boots, suite ran, dmesg clean")
case_ "a skipped program (exit 4, no plan) is a skip" \
	"0 passed, 0 failed, 1 skipped" 0 < <(
	echo "1..1"; echo "# selftests: wakelab: a"
	echo "ok 1 selftests: wakelab: a # SKIP")
case_ "the stage line of a failed runner block does not count it twice" \
	"1 passed, 1 failed, 0 skipped" 1 < <(
	echo "1..1"; prog a 2 ok "not ok"
	echo "not ok 1 selftests: wakelab: a # exit=1"
	echo "not ok 2 vm: stock kernel boots, suite ran, dmesg clean (exit 1)")
case_ "a failed stage after a clean runner block is a failure of its own" \
	"2 passed, 1 failed, 0 skipped" 1 < <(
	echo "1..1"; prog a 2 ok ok
	echo "ok 1 selftests: wakelab: a"
	echo "not ok 2 vm: stock kernel boots, suite ran, dmesg clean (exit 1)")

[ "$fails" = 0 ]
