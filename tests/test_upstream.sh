#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make upstream (scripts/upstream) short of a kernel build (--no-build),
# with BASE= (Debian's source of the newest base, the base repository
# .cache/kernel/<base>/src, which the generator prepares when missing;
# its clone checked out sparsely, only the files the series needs) and
# the fixture report tests/fixtures/upstream/results/<stamp>/ (wl_compare's
# own output on canned data, tests/fixtures/upstream/mkreport): a policy
# that uses the module's state is refused naming each identifier, and
# without a report of the policy against the kernel's default nothing is
# generated, both with nothing written; for idler_llc the minimal series
# (the LLC statistics and the feature) has the feature, its call first in
# wake_affine() and the body verbatim, the changelog's numbers are the
# report's, the cover letter has base-commit: and says that it is
# Debian's tarball, the author is the global git identity, checkpatch
# --strict finds nothing, and git am of the series onto the base commit
# gives the generated tree.  A user's git tree (KSRC=) is
# tests/test_upstream_ksrc.sh's.  TAP.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
# shellcheck source=scripts/kernel/lib.sh
. "$top/scripts/kernel/lib.sh"
tmp=$(mktemp -d /tmp/test_upstream.XXXXXX)
fix=$top/tests/fixtures/upstream
up=$top/scripts/upstream
cleanup() {
	rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

echo "TAP version 13"
wl_kernel "$(wl_kernel_default patched)"
base=$WK_BASE
wl_kbase "$base"
for c in jq perl git; do
	if ! command -v $c >/dev/null; then
		echo "1..0 # SKIP $c is not installed (make deps installs it)"
		exit 4
	fi
done
if ! git -C "$WL_KREPO" rev-parse -q --verify "$WL_BASE_TAG^{commit}" >/dev/null 2>&1 &&
   [ ! -f "$(wl_source_dir "$base")/.wakelab-extracted" ]; then
	echo "1..0 # SKIP no $base source: neither .cache/kernel/$base/src (scripts/kernel/build --kernel $WK_NAME --prepare) nor linux-source-$base (make deps) is there"
	exit 4
fi
echo "1..17"

# The identity: the global one of a HOME of the test's.
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.name "Ada Tester"
git config --global user.email ada@example.org
unset MAKELEVEL SEND

# --- refusals: nothing written ---------------------------------------------------

"$up" --policy "$fix/policy_modstate.c" --results "$fix/results" \
	--out "$tmp/out-mod" --no-build > "$tmp/mod.out" 2> "$tmp/mod.err"
rc=$?
missing=""
for id in sd-\>span_weight modstate_busy MODSTATE_MARGIN modstate_threshold \
	  wl_bias this_cpu_inc modstate_hits; do
	grep -q "policy_modstate.c:[0-9]*: $id: " "$tmp/mod.err" || missing+=" $id"
done
[ $rc -ne 0 ] && [ -z "$missing" ] && grep -q 'refusing .*policy_modstate.c' "$tmp/mod.err"
ok $? "a policy on the module's state is refused (exit $rc), naming each identifier${missing:+ (missing:$missing)}"
sed 's/^/# /' "$tmp/mod.err" | head -n 12

[ ! -e "$tmp/out-mod" ] && [ ! -e "$top/results/upstream/modstate" ] &&
	[ ! -e "$WL_CACHE/upstream/modstate" ]
ok $? "the refused policy leaves nothing: no series, no clone"

mkdir -p "$tmp/empty"
"$up" --policy idler_llc --results "$tmp/empty" --out "$tmp/out-none" \
	--no-build > /dev/null 2> "$tmp/none.err"
rc=$?
[ $rc -ne 0 ] && [ ! -e "$tmp/out-none" ] &&
	grep -qF "no comparison report of idler_llc against the kernel's default in $tmp/empty/: run make compare POLICIES='kernel;idler_llc'" "$tmp/none.err"
ok $? "no report: the error says to run make compare, nothing written"

# A report of another policy does not do either.
stamp=$(basename "$(ls -d "$fix"/results/*/ | sort | tail -n 1)")
mkdir -p "$tmp/other/$stamp"
cp "$fix/results/$stamp/report.txt" "$tmp/other/$stamp/"
jq '.policies[1].spec = "wakelab:old"' "$fix/results/$stamp/results.json" \
	> "$tmp/other/$stamp/results.json"
"$up" --policy idler_llc --results "$tmp/other" --out "$tmp/out-other" \
	--no-build > /dev/null 2> "$tmp/other.err"
rc=$?
[ $rc -ne 0 ] && [ ! -e "$tmp/out-other" ] &&
	grep -q "no comparison report of idler_llc" "$tmp/other.err"
ok $? "a report of another policy is not taken: no numbers are invented"

# --- the series of idler_llc -------------------------------------------------

out=$tmp/out
"$up" --policy idler_llc --results "$fix/results" --out "$out" --no-build \
	> "$tmp/run.out" 2> "$tmp/run.err"
rc=$?
sed 's/^/# /' "$tmp/run.out"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/run.err"
check "make upstream POLICY=idler_llc NO_BUILD=1: exit 0, a cover letter and 2 patches (the LLC statistics, the feature)" \
	"0 3" "$rc $(find "$out" -name '*.patch' 2>/dev/null | wc -l)"
cover=$(ls "$out"/0000-*.patch 2>/dev/null)
new=$(ls "$out"/*.patch 2>/dev/null | tail -n 1)
: "${cover:=/nonexistent}" "${new:=/nonexistent}"

grep -qx '+SCHED_FEAT(WA_IDLER_LLC, false)' "$new" &&
	grep -q '^Subject: \[PATCH 2/2\] sched/fair: Add WA_IDLER_LLC' "$new" &&
	grep -q '^Subject: \[PATCH 1/2\] sched/topology: Keep LLC load statistics' "$out"/0001-*.patch &&
	! grep -h '^[-+]' "$out"/000[12]-*.patch | grep -q 'WA_OLD\|WA_RULE\|wake_affine_policy\|sched_wake_affine_tp'
ok $? "the series: patch 1 the LLC statistics, patch 2 SCHED_FEAT(WA_IDLER_LLC, false); no WA_OLD, rule, tracepoint or hook"

grep -B1 -A3 -x '+	if (sched_feat(WA_IDLER_LLC))' "$new" > "$tmp/call"
printf '%s\n' '-	if (sched_feat(WA_IDLE))' '+	if (sched_feat(WA_IDLER_LLC))' \
	'+		target = wake_affine_idler_llc(sd, p, this_cpu, prev_cpu, sync);' '+' \
	'+	if (sched_feat(WA_IDLE) && target == nr_cpumask_bits)' | cmp -s - "$tmp/call"
ok $? "the new patch: wake_affine() asks wake_affine_idler_llc() first, WA_IDLE only without its opinion"

# The changelog's numbers against the report's: each Hmean and share
# Mean row of the changelog is the report's row of that cell, field for
# field, and its values are results.json's.
rep=$fix/results/$stamp
awk '/^---$/ { exit } { print }' "$new" > "$tmp/log"
awk -v b="$(jq -r '.policies[0].label' "$rep/results.json")" '
	FNR == 1 { f++ }
	# The report: a block head starts a block, its rows follow.
	f == 1 && /^[^ #]/ && NF == 3 && $2 == b { blk = $1; next }
	f == 1 && /^$/ { blk = "" }
	f == 1 && blk != "" && ($1 == "Hmean" || $1 == "Mean") {
		k = blk SUBSEP $1 SUBSEP $2; $1 = $2 = ""; want[k] = $0; next }
	f == 2 && /^  [^ ]/ && NF == 3 && $2 == b { blk = $1; next }
	f == 2 && /^$/ { blk = "" }
	f == 2 && blk != "" && ($1 == "Hmean" || $1 == "Mean") {
		n++; k = blk SUBSEP $1 SUBSEP $2; $1 = $2 = ""
		if (!(k in want) || want[k] != $0) { bad++; print "# differs: " k ": " $0 " vs " want[k] }
	}
	END { print "# " n " rows compared"; exit n < 8 || bad }' "$rep/report.txt" "$tmp/log"
ok $? "the changelog's table: every row as the report has it"

plabel=$(jq -r '.policies[1].label' "$rep/results.json")
jq -r --arg p "$plabel" '.stats[] | select(.policy == $p) |
	"\(.instances) \(.hmean) \(.placement.waker_cpu.mean)"' "$rep/results.json" |
while read -r i h w; do
	hv=$(printf '%.2f' "$h")
	wv=$(printf '%.2f' "$w")
	awk -v c="tcp_stream-$i" -v hv="$hv" -v wv="$wv" '
		/^  Mbit\/s/ { b = "t" } /^  WakerCPU%/ { b = "w" } /^$/ { b = "" }
		b == "t" && $1 == "Hmean" && $2 == c && $6 == hv { h = 1 }
		b == "w" && $1 == "Mean" && $2 == c && $6 == wv { w = 1 }
		END { exit !(h && w) }' "$tmp/log" || echo "tcp_stream-$i: hmean $hv, waker $wv not in the changelog"
done > "$tmp/json.diff"
[ ! -s "$tmp/json.diff" ] && [ "$(jq --arg p "$plabel" '[.stats[] | select(.policy == $p)] | length' "$rep/results.json")" -ge 4 ]
ok $? "the changelog's Hmean and WakerCPU% values are results.json's$([ ! -s "$tmp/json.diff" ] || echo " ($(head -n 1 "$tmp/json.diff"))")"

seed=$(jq -r .seed "$rep/results.json")
flatlog=$(tr '\n' ' ' < "$tmp/log" | tr -d '\\' | tr -s ' ')
grep -qF "mode: TCG (wakelab.accel=tcg-single on the kernel command line)" <<<"$flatlog" &&
	grep -qF "make compare KERNEL=$WK_NAME SOCKETS=2 CORES=2 WORKLOAD=tcp_stream POLICIES='kernel;idler_llc' INSTANCES=1,2,4,8 TRIALS=8 DURATION=5 SEED=$seed" <<<"$flatlog" &&
	! awk 'length($0) > 75' "$tmp/log" | grep -q .
ok $? "the changelog: the execution mode, the command that reproduces the report, no line over 75 columns"

basec=$(git -C "$WL_KREPO" rev-parse "$WL_BASE_TAG^{commit}")
flatcover=$(tr '\n' ' ' < "$cover" | tr -s ' ')
grep -qx "base-commit: $basec" "$cover" &&
	! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$cover" &&
	grep -qF "The base is not an upstream commit: it is Debian's linux-source-$base tarball" <<<"$flatcover" &&
	grep -q "^base: Debian's linux-source-$base tarball" "$tmp/run.out"
ok $? "the cover letter: base-commit: $(cut -c1-12 <<<"$basec"), subject and blurb filled in, and says the base is Debian's tarball"

[ "$(cat "$out"/*.patch | grep -c '^From: Ada Tester <ada@example.org>$')" = 3 ] &&
	[ "$(cat "$out"/000[12]-*.patch | grep -c '^Signed-off-by: Ada Tester <ada@example.org>$')" = 2 ] &&
	! grep -q 'wakelab.invalid' "$out"/*.patch &&
	sed '/^$/q' "$new" | grep -q '^    Peter Zijlstra <peterz@infradead.org>,$'
ok $? "the author and Signed-off-by: the global git identity; To: from get_maintainer.pl"

bad=0
for f in "$out"/000[1-9]-*.patch; do
	t=$(cd "$WL_KREPO" && perl scripts/checkpatch.pl --strict --no-tree --show-types "$f" 2>&1 |
	    grep -v '^WARNING:BAD_SIGN_OFF: Non-standard signature: Originally-by:$' |
	    sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1\/\2\/\3/p')
	# Originally-by: (patch 2) is the one warning not counted.
	grep -q '^Originally-by:' "$f" && t=$(awk -F/ '{ print $1 "/" $2 - 1 "/" $3 }' <<<"$t")
	[ "$t" = 0/0/0 ] || { echo "# $(basename "$f"): $t"; bad=1; }
done
[ "$bad" = 0 ] && [ "$(grep -c ': 0/0/0' "$tmp/run.out")" = 2 ]
ok $? "checkpatch.pl --strict: 0 errors, 0 warnings, 0 checks in every patch"

# git am of the series onto the base commit, in a scratch clone checked
# out sparsely (the files the series touches).
am=$tmp/am
git clone -q --shared --no-checkout "$WL_KREPO" "$am" &&
	git -C "$am" sparse-checkout set --no-cone \
		$(grep -h '^diff --git a/' "$out"/*.patch | awk '{ print "/" substr($3, 3) }' | sort -u) &&
	git -C "$am" -c advice.detachedHead=false checkout -q --detach "$basec" &&
	git -C "$am" -c user.name=t -c user.email=t@t am -q $(ls "$out"/*.patch | grep -v /0000-) \
		> "$tmp/am.out" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/am.out"
gen=$WL_CACHE/upstream/idler_llc/base-$base/src
[ $rc -eq 0 ] && [ "$(git -C "$am" rev-parse HEAD~2)" = "$basec" ] &&
	[ "$(git -C "$am" rev-parse 'HEAD^{tree}')" = "$(git -C "$gen" rev-parse 'HEAD^{tree}')" ]
ok $? "git am of the 2 patches onto the base commit applies and gives the generated tree"

body() {
	awk 'prev == "static int" && /^wake_affine_idler_llc\(/ { on = 1; print prev }
		on { print } on && /^}/ { exit } { prev = $0 }' "$1"
}
body "$top/module/policy_idler_llc.c" > "$tmp/body.policy"
body "$am/kernel/sched/fair.c" > "$tmp/body.fair"
[ -s "$tmp/body.policy" ] && cmp -s "$tmp/body.policy" "$tmp/body.fair"
ok $? "kernel/sched/fair.c has the body of module/policy_idler_llc.c verbatim"

awk '/^static int wake_affine\(struct sched_domain \*sd,/ { on = 1 }
	on && /if \(sched_feat\(WA_IDLER_LLC\)\)/ { mine = NR }
	on && /if \(sched_feat\(WA_IDLE\) && target == nr_cpumask_bits\)/ { idle = NR }
	on && /^}/ { exit }
	END { exit !(mine && idle > mine) }' "$am/kernel/sched/fair.c" &&
	awk '/^SCHED_FEAT\(WA_BIAS, true\)$/ { o = NR } /^SCHED_FEAT\(WA_IDLER_LLC, false\)$/ { m = NR }
		END { exit !(o && m > o) }' "$am/kernel/sched/features.h"
ok $? "after git am: WA_IDLER_LLC runs before WA_IDLE; its SCHED_FEAT follows WA_BIAS's"

flat() { tr '\n\t' '  ' | sed 's/\\ */ /g; s/  */ /g'; }
o=$(make -s -n -C "$top" upstream POLICY=x BASE=7.3 REPORT=/r RESULTS=/s JOBS=3 NO_BUILD=1 2>&1 | flat)
o2=$(make -s -n -C "$top" upstream POLICY=x KSRC=/k 2>&1 | flat)
grep -q "scripts/upstream --policy 'x' --base '7.3' --report '/r' --results '/s' --jobs '3' --no-build" <<<"$o" &&
	grep -q "scripts/upstream --policy 'x' --ksrc '/k'" <<<"$o2"
ok $? "make upstream POLICY/BASE/KSRC/REPORT/RESULTS/JOBS/NO_BUILD reach scripts/upstream"

tap_done
