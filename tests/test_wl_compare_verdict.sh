#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of issue 37, "every printed number is the one that was
# tested", with the planted results.json of tests/fixtures/wl_compare/
# (written by its make-fixtures.py) merged by wl_compare --merge: the
# Hmean a kernel comparison prints, its %change in the table, the
# headline, the JSON and scripts/lkp-table are the tested statistic's
# (the Hmean of the boots' Hmeans) also with unequal trials per boot,
# which the report shows; the smallest attainable p is exact for unequal
# sides and skips an empty cell; a share that is a complement of another
# is tested once; the simulated detectable size is printed; shares are
# worded as the mean per unit; a negative aggregate is a failed trial with
# its reason, a zero throughput is flagged and its CoeffVar is not 0.
# Each check says in a comment what it catches.  TAP.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cmp=$top/.cache/tests/wl_compare
fix=$top/tests/fixtures/wl_compare
tmp=$(mktemp -d /tmp/test_wl_compare_verdict.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

echo "TAP version 13"
if ! make -s -C "$top/tests" "$cmp" >/dev/null 2>&1 || [ ! -x "$cmp" ]; then
	echo "1..0 # SKIP wl_compare does not build"
	exit 4
fi
echo "1..12"

# merge CASE [options]: the case's boots, in file order (A1 A2 ... B1 ...),
# into $tmp/CASE.txt and $tmp/CASE/results.json; the exit status in $rc.
merge() {
	local c=$1 f b
	local args=()

	shift
	for f in $(cd "$fix/$c" && ls -- *.json | sort -V); do
		b=${f%.json}
		args+=("${b%%[0-9]*}=$fix/$c/$f")
	done
	"$cmp" --merge -q -s 1 -O "$tmp/$c" "$@" "${args[@]}" >/dev/null 2>"$tmp/$c.err"
	rc=$?
	cp "$tmp/$c/report.txt" "$tmp/$c.txt" 2>/dev/null
}
js() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $2" "$tmp/$1/results.json"; }

# 1. A's pooled trials (6 x ~100, 57 x 160) have an Hmean of 151.3 and B's
# 140 would print -7.5 %; the boots' Hmeans, which the test compares, give
# 105.7 and +32.8 %.  Catches a table, headline or JSON that prints the
# pooled figure beside the boot-level test's star.
merge unequal
[ $rc -eq 0 ] &&
	grep -Eq '^Hmean +tcp_stream-1 +105\.66 \( +0\.00%\) +140\.30 \* +32\.79%\*$' "$tmp/unequal.txt" &&
	grep -q '^  tcp_stream-1: B throughput +32.8 %, significant (p 0.0047, Holm 0.0047)' "$tmp/unequal.txt" &&
	js unequal 's = d["stats"][1]; assert s["significant"] and abs(s["pct_change"] - 32.79) < 0.01 and abs(d["stats"][0]["hmean"] - 105.66) < 0.01, s'
ok $? "unequal trials a boot: table, headline and JSON print the tested +32.8 %, not the pooled -7.5 %"

# Catches a header that reads the trial count off the first boot ("1
# trials per cell a boot") and a report that hides the unequal counts.
grep -q '^# wl_compare: kernels across boots: tcp_stream, 2 kernels x 1 cells, 14 boots, 1-57 trials per cell a boot' "$tmp/unequal.txt" &&
	grep -Eq '^Trials +tcp_stream-1 +1-57 +3$' "$tmp/unequal.txt" &&
	grep -q '^# NOTE: the boots have unequal numbers of successful trials (1-57 per cell' "$tmp/unequal.txt" &&
	js unequal 'assert d["stats"][0]["boot_trials"] == [1] * 6 + [57] and d["stats"][0]["trials"] == 63'
ok $? "unequal trials a boot: the header's range 1-57, the Trials row, the JSON's boot_trials"

# Catches scripts/lkp-table printing a third central value (the
# arithmetic mean of the pooled trials, 151.1 and -7.3 %).
"$top/scripts/lkp-table" "$tmp/unequal/results.json" > "$tmp/lkp" 2>&1 &&
	grep -Eq '^ +105\.7 +\+-[ 0-9]+% +\+32\.8% +140\.3 +tcp_stream-1\.throughput_Mbit/s$' "$tmp/lkp"
ok $? "lkp-table: the throughput row is the tested Hmean of boot Hmeans, +32.8 %"

# 2. 3 boots against 4, separated: the exact p is 1/35 = 0.0286, and
# nothing may warn that no difference can be significant (2/35 would say
# 0.057 > 0.05).  Catches 2/C for unequal sides.
merge sides
[ $rc -eq 0 ] && ! grep -q WARNING "$tmp/sides.txt" &&
	grep -q 'B throughput +99.5 %, significant (p 0.0286, Holm 0.0286)' "$tmp/sides.txt" &&
	js sides 'assert abs(d["correction"]["smallest_p"] - 1 / 35) < 1e-9, d["correction"]'
ok $? "3 boots against 4: smallest p 1/35 in the JSON, no warning, the difference found at p 0.0286"

# 3. A cell where B has no successful trial is not tested and must not
# make the header warn "with 0 ... the smallest attainable p is 1".
merge empty
[ $rc -eq 1 ] && ! grep -q WARNING "$tmp/empty.txt" &&
	grep -Eq '^Hmean +tcp_stream-1 .*\* +98\.07%\*$' "$tmp/empty.txt" &&
	js empty 'assert d["correction"]["tests"] == 1 and abs(d["correction"]["smallest_p"] - 2 / 252) < 1e-9, d["correction"]'
ok $? "an empty cell: not tested, no warning, the family's smallest p 2/252 from the tested cell"

# 4. PrevCPU% = 100 - WakerCPU% in every trial: the same test.  Counted
# twice, 9 tests at 2/252 give Holm 0.071 and nothing is found; once, 6
# give 0.048 and all are.  Catches duplicates in the family.
merge complement
[ $rc -eq 0 ] &&
	grep -q "^# correction: Holm over the report's 6 tests" "$tmp/complement.txt" &&
	[ "$(grep -c '^Holm .*0\.0476 \*$' "$tmp/complement.txt")" = 9 ] &&
	[ "$(grep -c '^Perm .*0\.0079 = WakerCPU%' "$tmp/complement.txt")" = 3 ] &&
	grep -q "PrevCPU% is a constant minus WakerCPU% in every value of both sides, the same test, counted once as WakerCPU%'s" "$tmp/complement.txt" &&
	js complement '
for s in d["stats"][1::2]:
    assert s["significant"] and s["placement"]["prev_cpu"]["same_test_as"] == "waker_cpu", s
assert d["correction"]["tests"] == 6 and d["correction"]["same_tests"] == 3'
ok $? "complementary shares: tested once (6 tests, not 9), every difference found, the report names the pair"

# 5. Nothing differs: the detectable size comes from simulating the test
# (issue 37's optimistic normal formula said so without the word).
# Catches the old "Detectable at this run's spread" approximation.
merge aa
[ $rc -eq 0 ] &&
	grep -q '^  Detectable, simulated (200 runs resampling this run.s boots with a planted shift,' "$tmp/aa.txt" &&
	grep -Eq '^    throughput changes of about \+-[0-9.]+ %$' "$tmp/aa.txt" &&
	js aa 'assert d["stats"][1]["detectable_pct"] > 0'
ok $? "A/A: the detectable size is simulated and says so; the JSON carries it"

# 6. A's boots: a trial of 10^6 wakeups at 90 % and one of 10 at 0 %:
# 45.0 % on average per trial (90.0 % of all wakeups).  Catches the
# headline's "in 45.0 % of wakeups", which reads as the share of all.
merge shares
[ $rc -eq 0 ] &&
	grep -q "places the wakee on the waker's CPU in 10.2 % of wakeups on average per boot vs 45.0 % with A" "$tmp/shares.txt" &&
	! grep -q '% of wakeups vs' "$tmp/shares.txt" &&
	js shares 'assert d["share_definition"] == "mean over boots of each boot'"'"'s mean per-trial share", d["share_definition"]'
ok $? "shares: the mean per unit, worded 'on average per boot', the JSON's share_definition"

# 7. A negative aggregate: a failed trial with its reason, not a NaN
# Hmean marked "+nan %, significant (p 0.0000)".
merge bad
[ $rc -eq 1 ] && ! grep -qi 'nan %' "$tmp/bad.txt" &&
	grep -q '^# FAILED trials: 1 (not in the statistics)' "$tmp/bad.txt" &&
	js bad '
t = [t for t in d["trials"] if not t["ok"]]
assert len(t) == 1 and t[0]["error"] == "aggregate -5 is negative: not a throughput", t'
ok $? "a negative aggregate: a failed trial, with its reason"

# Catches a zero-throughput trial passing silently with CoeffVar 0.00
# printed as "(100.00%)" better.
grep -q '^# ZERO throughput: 1 of 15 trials of B in tcp_stream-1' "$tmp/bad.txt" &&
	grep -Eq '^CoeffVar +tcp_stream-1 +1\.37 \( +0\.00%\) +NaN \( +NaN%\)$' "$tmp/bad.txt" &&
	js bad 's = d["stats"][1]; assert s["zero_throughput"] == 1 and s["coeffvar"] is None and not s["significant"], s'
ok $? "a zero-throughput trial: flagged, its CoeffVar NaN, not 0"

# Catches a merged non-finite aggregate (1e999 reads as inf) passing.
sed 's/"aggregate":100/"aggregate":1e999/' "$fix/sides/A1.json" > "$tmp/inf.json"
"$cmp" --merge -q -s 1 -j "A=$tmp/inf.json" "B=$fix/sides/B1.json" > "$tmp/inf.out" 2>/dev/null
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); t = d["trials"][0]; assert not t["ok"] and "not finite" in t["error"], t' "$tmp/inf.out"
ok $? "a non-finite aggregate: a failed trial, with its reason"

# 8. The JSON's smallest p and the header agree (issue 37: the header
# warned 0.100, the JSON said 0.0571, for one report): every case, and 3
# boots against 4 at alpha 0.01, where the header must warn with 1/35.
cp -r "$fix/sides" "$tmp/fx-sides01" && fix=$tmp merge fx-sides01 -a 0.01
grep -q '^# WARNING: with 3-4 boots a side the smallest attainable p of any test is 0.0286 > 0.01:' "$tmp/fx-sides01.txt"
bad=$?
for c in unequal sides empty complement aa shares bad fx-sides01; do
	js "$c" '
m = d["correction"]["smallest_p"]
t = open(sys.argv[1].replace("results.json", "report.txt")).read()
w = "smallest attainable p of any test is %.4f" % m
assert ("WARNING: with" not in t) or w in t, (m, t[:2000])' || bad=1
done
ok $bad "every case: the header's smallest p, when it warns, is the JSON's smallest_p"
