#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The whole path from prototype to upstream (docs/upstream.md), for the
# template policy idler_llc and the built-in always: a quick comparison
# of the policy against the kernel on patched-<base> (scripts/compare),
# the minimal series of `make upstream` (idler_llc: the LLC statistics
# and the feature; always: the feature alone) with every step built, and
# with --differential the kernel that observes it: the series plus one
# debug-only commit, never in the series, that adds the wakelab series'
# tracepoint and policy hook (and WA_OLD, off) around the same feature
# body (the series' own kernel has neither, so wakelab.ko could not see
# its decisions); a boot of that kernel, and wakelab_transplant_test's
# cells there, with WA_<NAME> on: 0 disagreements in at least 1000
# compared decisions per cell.  TAP, one test per step and policy; `make check-all` and `make
# check-upstream` run it (about 10 minutes a policy here, kernel builds
# warm in ccache).
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

read -ra policies <<<"${WL_UPSTREAM_POLICIES:-idler_llc always}"
base=${WL_UPSTREAM_BASE:-7.3}
kernel=patched-$base
work=$WL_CACHE/tests/upstream-path
rm -rf "$work"
mkdir -p "$work"

n=0 failed=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=$((failed + 1))
	fi
}

echo "TAP version 13"
echo "1..$(( ${#policies[@]} * 3 ))"
for p in "${policies[@]}"; do
	res=$work/$p/results
	log=$work/$p
	mkdir -p "$res"
	scripts=$WL_TOP/scripts

	"$scripts/compare" --kernel "$kernel" --policies "kernel;$p" --quick \
		--instances cpus --results "$res" > "$log/compare.log" 2>&1
	rc=$?
	[ "$rc" = 0 ] || tail -n 20 "$log/compare.log" | sed 's/^/# /'
	result "$rc" "$p: make compare POLICIES='kernel;$p' --quick on $kernel"

	"$scripts/upstream" --policy "$p" --base "$base" --results "$res" \
		--out "$log/series" --differential > "$log/upstream.log" 2>&1
	rc=$?
	sed 's/^/# /' "$log/upstream.log" | tail -n 30
	bz=$(sed -n 's/^differential kernel: \([^ ]*bzImage\) kdir \([^ ]*\).*/\1/p' "$log/upstream.log")
	kdir=$(sed -n 's/^differential kernel: \([^ ]*bzImage\) kdir \([^ ]*\).*/\2/p' "$log/upstream.log")
	[ -z "$bz" ] || [ -f "$WL_TOP/$bz" ] || rc=1
	want=2
	[ "$p" != always ] || want=1
	[ "$(ls "$log/series"/000[1-9]-*.patch 2>/dev/null | wc -l)" = "$want" ] || rc=1
	result "$rc" "$p: make upstream POLICY=$p --differential: $want patch(es), checkpatch, every step builds, the differential's bzImage"
	if [ "$rc" != 0 ] || [ -z "$bz" ]; then
		result 1 "$p: the kernel of the series (+ debug-only commit) decides like the module # no kernel"
		continue
	fi

	"$scripts/vm" --kernel "$WL_TOP/$bz" --kdir "$WL_TOP/$kdir" \
		--timeout 1500 -- \
		'cd /wakelab/kselftest/wakelab && ./wakelab_transplant_test' \
		> "$log/vm.log" 2>&1
	rc=$?
	grep -E '^# transplant |^(not )?ok |# Totals' "$log/vm.log" | sed 's/^/# /'
	# The four cells pass by name (a skipped one reports none); tp's
	# negative test skips on WA_ALWAYS's kernel, which it needs without.
	tr -d '\r' < "$log/vm.log" > "$log/vm.txt"
	cells=$(grep -c "^# transplant $p (WA_" "$log/vm.txt")
	passed=$(grep -c '^ok [0-9]* cell\.[a-z0-9_]*\.kernel_feature_decides_like_the_module$' "$log/vm.txt")
	if grep -q '^not ok' "$log/vm.txt" || [ "$cells" != 4 ] || [ "$passed" != 4 ]; then
		rc=1
	fi
	result "$rc" "$p: the kernel of the series (+ debug-only commit), WA_${p^^} on, decides like the module in 4 cells"
done
[ "$failed" = 0 ]
