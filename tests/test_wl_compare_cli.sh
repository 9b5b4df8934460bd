#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the whole wl_compare program with a stand-in wl_stream
# (tests/helpers/fake-wl-stream) and an emulated debugfs
# (WL_FAKE_DEBUGFS): usage errors exit 2 and change nothing; a comparison
# prints the mmtests table with '*' on a real effect and not on an A/A
# pair; --brief, --json and --out (report, JSON, gnuplot data, PNG) are
# well formed, and --json has exactly its schema's members; the features
# come back exactly, also after SIGTERM mid-run; after SIGKILL the state
# file holds the originals, a new run refuses to start, and --restore puts
# them back (no, bad, stale or busy state files are refused); failed
# trials and a skipping workload give exit 1 and 4; NO_SCHED_CACHE is
# refused on a kernel without sched/llc_balancing, and where it has one it
# is applied for its trials and restored, the report and the JSON say
# SCHED_CACHE's state, and the load-balance migrations get their own
# LBMigr/1k row; --profile gives each trial a profile directory of its
# own, the Profile table names a planted symbol first and marked after
# Holm over the profile's family, marks nothing on identical profiles, and
# perf stat's table names a hardware counter missing, never 0.  TAP.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# The test build (tests/Makefile): only it honours WL_FAKE_DEBUGFS as root.
cmp=$top/.cache/tests/wl_compare
fake=$top/tests/helpers/fake-wl-stream
tmp=$(mktemp -d /tmp/test_wl_compare_cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

echo "TAP version 13"
if ! make -s -C "$top/tests" "$cmp" >/dev/null 2>&1 && [ ! -x "$cmp" ]; then
	echo "1..0 # SKIP wl_compare does not build"
	exit 4
fi
echo "1..40"

mkdir -p "$tmp/dbg/sched" "$tmp/dbg/wakelab"
feat="GENTLE_FAIR_SLEEPERS START_DEBIT NO_HRTICK WA_IDLE WA_WEIGHT WA_BIAS"
echo "$feat" > "$tmp/dbg/sched/features"
cp "$tmp/dbg/sched/features" "$tmp/features.orig"
echo "[default] old never" > "$tmp/dbg/wakelab/policy"
export WL_FAKE_DEBUGFS=$tmp/dbg FAKE_NOISE=0 FAKE_SLEEP=0.01
run() { "$cmp" -q -R "$fake" -l 1 "$@"; }
same() { cmp -s "$tmp/features.orig" "$tmp/dbg/sched/features"; }
state=$tmp/dbg/wl_compare.state
# Start a slow comparison in the background (pid in $bg) and wait until it
# has applied NO_WA_IDLE for a trial: the trials have begun (the stand-in
# logged a start; the specs' check before them applies and restores
# NO_WA_IDLE once, too briefly to kill it in) and NO_WA_IDLE is set.
start_applied() {
	rm -f "$tmp/started"
	FAKE_ARGS_LOG=$tmp/started FAKE_SLEEP=1 \
		"$cmp" -q -R "$fake" -l 1 -r 5 -n 1 "$@" default NO_WA_IDLE >/dev/null 2>&1 &
	bg=$!
	applied=0
	for _ in $(seq 400); do
		if [ -s "$tmp/started" ] &&
		   grep -qw NO_WA_IDLE "$tmp/dbg/sched/features"; then
			applied=1
			break
		fi
		sleep 0.05
	done
}

run --bogus default >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q usage: "$tmp/err"
ok $? "bad flag: exit 2 with usage"

run WA_IDLE,NO_WA_NOPE >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "no sched feature WA_NOPE" "$tmp/err" && same
ok $? "unknown feature: exit 2, one-line reason, nothing changed"

run WA_OLD,NO_WA_IDLE >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "patched" "$tmp/err" && same
ok $? "WA_OLD on a kernel without it: exit 2, nothing changed"

run -n 1,0 default >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "bad instance count: exit 2"

run -r 5 -n 1,2 default NO_WA_IDLE,NO_WA_WEIGHT > "$tmp/table" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && same && [ ! -e "$state" ]
ok $? "comparison exits 0, restores the features exactly, removes its state file"

grep -Eq '^Hmean +tcp_stream-1 .*\( +0\.00%\) .*\* +50\.00%\*' "$tmp/table" &&
	grep -Eq '^Holm +tcp_stream-2 +baseline +0\.0159 \*$' "$tmp/table"
ok $? "real effect (+50%) marked significant after Holm (2/252 x 2 tests)"

grep -q '^Min ' "$tmp/table" && grep -q '^Stddev ' "$tmp/table" &&
	grep -q '^CoeffVar ' "$tmp/table" && grep -q '^Max ' "$tmp/table" &&
	grep -q '^Placement: none' "$tmp/table" && grep -q 'settings restored: yes' "$tmp/table" &&
	grep -q '^# cache-aware scheduling (SCHED_CACHE): absent (no sched/llc_balancing' "$tmp/table"
ok $? "table has Min/Hmean/Stddev/CoeffVar/Max, a placement line, restore line, SCHED_CACHE absent"

run -r 4 -n 1 name=a,default name=b,default > "$tmp/aa" 2>/dev/null
grep -E '^Hmean' "$tmp/aa" | grep -vq '\*'
ok $? "A/A comparison not marked significant"

# A planted placement difference: NO_WA_IDLE moves the waker-CPU share
# from 25 % to 5 % (+-3 points of noise) and 20 points to the previous CPU.
FAKE_WAKELAB=1 FAKE_PLACE=shift FAKE_PLACE_NOISE=3 FAKE_DECISIONS=1 \
	run -r 6 -n 1,2 -O "$tmp/pl" default NO_WA_IDLE > "$tmp/place" 2>/dev/null
grep -Eq '^Mean +tcp_stream-1 +2[2-8]\.[0-9]+ \( +0\.00\) +[2-8]\.[0-9]+ \* *-[12][0-9]\.[0-9]+\*$' "$tmp/place" &&
	grep -Eq '^  tcp_stream-2: NO_WA_IDLE throughput \+5[0-9]\.[0-9] %, significant \(p 0\.0022, Holm 0\.0[0-9]+\); places the wakee on the waker.s CPU in [2-8]\.[0-9] % of wakeups on average per trial vs 2[2-8]\.[0-9] % with default \(p 0\.0022, Holm 0\.0[0-9]+; PrevCPU% is the same test, a constant minus it\)' "$tmp/place" &&
	grep -Eq '^Perm +tcp_stream-1 +baseline +0\.0022 = WakerCPU% *$' "$tmp/place" &&
	grep -q '^WakerCPU% ' "$tmp/place" && grep -q '^PrevCPU% ' "$tmp/place" &&
	grep -q '^RuleIdle% ' "$tmp/place" && ! grep -q '^RuleOld% ' "$tmp/place"
ok $? "planted placement shift: share rows marked, headline names it with p and Holm's p"

python3 - "$tmp/pl/results.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == 3 and d["correction"]["method"] == "holm", d["correction"]
# 2 cells x (throughput + waker share + idle rule): the previous-CPU
# share is 75 - the waker-CPU share in every trial, the weight rule 100 -
# the idle rule: the same tests, counted once (issue 37); the waker-LLC
# share is 25 % in every trial: not tested
assert d["correction"]["tests"] == 6 and d["correction"]["same_tests"] == 4, d["correction"]
assert d["share_definition"] == "mean over trials of each trial's share", d
assert len(d["headline"]) == 2 and "waker's CPU" in d["headline"][0], d["headline"]
for s in d["stats"]:
    w = s["placement"]["waker_cpu"]
    assert w["n"] == 6 and w["min"] <= w["mean"] <= w["max"] and w["stddev"] > 0
    if s["policy"] == "NO_WA_IDLE":
        assert w["significant"] and w["p_value"] <= w["p_adjusted"] <= 10 * w["p_value"]
        assert abs(w["diff"] + 20) < 6 and abs(s["waker_cpu_pct"] - w["mean"]) < 1e-9
        assert s["placement"]["rule_idle"]["significant"]
        assert "rule_none" not in s["placement"]  # decided nothing anywhere
        assert s["placement"]["prev_cpu"]["same_test_as"] == "waker_cpu"
        assert s["placement"]["prev_cpu"]["p_adjusted"] == w["p_adjusted"]
        assert s["placement"]["waker_cpu"]["same_test_as"] is None
    else:
        assert w["p_value"] is None and not w["significant"] and w["diff"] == 0
EOF
ok $? "--json v3: per-share statistics, raw and Holm-adjusted p, the family size, the headline"

FAKE_WAKELAB=1 FAKE_PLACE_NOISE=3 FAKE_DECISIONS=1 \
	run -r 6 -n 1,2 name=a,default name=b,default > "$tmp/aaplace" 2>/dev/null
! grep -v '^#' "$tmp/aaplace" | grep -q '\*' &&
	grep -q '^  no difference after Holm' "$tmp/aaplace" &&
	grep -Eq '^    shifts of the waker-CPU share of about \+-[0-9.]+ points' "$tmp/aaplace"
ok $? "A/A with placement noise: no mark anywhere; the headline says nothing differs and what was detectable"

FAKE_WAKELAB=1 FAKE_PLACE=zero run -r 3 -n 1 -j default NO_WA_IDLE > "$tmp/zero" 2>/dev/null
python3 - "$tmp/zero" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert all(s["placement"] is None and s["waker_cpu_pct"] is None for s in d["stats"]), d["stats"]
assert d["correction"]["tests"] == 1
EOF
ok $? "no wakeups counted: no shares, no placement tests"

awk '!/^#/ && NF { if (NF != 9) bad = 1; n++ } END { exit bad || n != 4 }' "$tmp/pl/plot.dat" &&
	grep -q 'multiplot' "$tmp/pl/plot.gp" && grep -q 'using 1:6:7' "$tmp/pl/plot.gp"
ok $? "plot.dat carries the waker-CPU and cross-LLC shares; plot.gp draws the placement panel"

# The workload counted apart (schema 5): the Others rows and "others",
# beside the mix, not tested; without it "others" is null.
FAKE_WAKELAB=1 FAKE_OTHERS=120 run -r 3 -n 1 -j -O "$tmp/oth" default NO_WA_IDLE > "$tmp/others" 2>/dev/null
python3 - "$tmp/others" "$tmp/zero" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["stats"]:
    o = s["others"]
    assert abs(o["per_1k"] - 120) < 1e-6 and abs(o["waker_cpu_pct"] - 40) < 1e-6, o
    assert abs(o["wakeups"] - 120) < 1e-6, o
assert all(s["others"] is None for s in json.load(open(sys.argv[2]))["stats"])
EOF
r=$?
[ "$r" = 0 ] &&
	grep -Eq '^Per1k +tcp_stream-1 +120\.00 +120\.00$' "$tmp/oth/report.txt" &&
	grep -q "^#   the workload's tasks alone" "$tmp/oth/report.txt" &&
	grep -q '^Others: the wakeups of every task outside' "$tmp/oth/report.txt"
ok $? "workload counted apart: Others rows (count, per 1000, waker CPU) and \"others\" beside the mix"

run -r 4 -n 1,2 -b NO_WA_IDLE default > "$tmp/brief" 2>/dev/null
head -1 "$tmp/brief" | grep -q '^NO_WA_IDLE:$' &&
	grep -Eq '^TCP_STREAM-2 : Avg: 1500\.0$' "$tmp/brief" &&
	grep -q '^WA_IDLE:$' "$tmp/brief"
ok $? "--brief: Peter's loop format, one block per policy"

FAKE_WAKELAB=1 run -r 3 -n 1,2 -j default NO_WA_IDLE > "$tmp/json" 2>/dev/null
python3 - "$tmp/json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["trials"]) == 12, len(d["trials"])
assert all(t["ok"] and t["wl_stream"]["integrity"] == "ok" for t in d["trials"])
assert d["restored"] is True and d["env"]["sched_features"]
s = [x for x in d["stats"] if x["policy"] == "NO_WA_IDLE"][0]
assert abs(s["pct_change"] - 50) < 1e-6 and abs(s["waker_cpu_pct"] - 25) < 1e-9
assert abs(s["cross_llc_pct"] - 10) < 1e-9
EOF
ok $? "--json: every trial, environment, stats and placement mix"

python3 - "$tmp/json" <<'EOF'
import json, sys
def unique(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), "duplicate member in %s" % keys
    return dict(pairs)
d = json.load(open(sys.argv[1]), object_pairs_hook=unique)
schema = {
    None: "tool version workload unit duration_s rounds order seed alpha "
          "max_exact permutations wl_stream_options interrupted restored "
          "failed wall_s correction share_definition headline env "
          "test_unit boots policies cells stats profile trials",
    "env": "kernel version preempt machine cpus sockets llc_level llcs mode "
           "mode_how sched_features module module_caps module_policy "
           "sched_cache",
    "env.sched_cache": "state enabled effective effective_how llcs tunables",
    "policies": "label spec means env",
    "cells": "instances_arg msg_size instances",
    "stats": "policy cell instances n failed hmean min max stddev coeffvar "
             "avg_per_instance pct_change p_value p_adjusted exact "
             "significant waker_cpu_pct cross_llc_pct placement others trials "
             "zero_throughput detectable_pct boot_trials boots "
             "boot_cov trial_cov",
    "trials": "seq round boot policy cell instances_arg instances exit ok "
              "aggregate start_s elapsed_s integrity error placement "
              "wl_stream",
}
for part, names in schema.items():
    objs = [d] if part is None else d["env"]["sched_cache"] \
        if part == "env.sched_cache" else d[part]
    assert objs, part
    for o in objs if isinstance(objs, list) else [objs]:
        got, want = set(o), set(names.split())
        assert got == want, "%s: missing %s, unexpected %s" % (
            part or "top level", sorted(want - got), sorted(got - want))
EOF
ok $? "--json: exactly the schema's members (top level, env, policies, cells, stats, trials)"

FAKE_NOISE=5 run -r 3 -n 1,2 -O "$tmp/out" default name=same,pin=same-cpu >/dev/null 2>&1
[ -s "$tmp/out/report.txt" ] && [ -s "$tmp/out/results.json" ] &&
	[ -s "$tmp/out/plot.dat" ] && [ -s "$tmp/out/plot.gp" ] &&
	{ ! command -v gnuplot >/dev/null || [ -s "$tmp/out/plot.png" ]; }
ok $? "--out writes report.txt, results.json, plot.dat, plot.gp, plot.png"

awk '!/^#/ && NF { if (NF != 9) bad = 1; n++ } END { exit bad || n != 4 }' "$tmp/out/plot.dat"
ok $? "plot.dat: 2 policies x 2 counts of 'instances hmean stddev min max' and four share columns"

start_applied
kill -TERM $bg
wait $bg; rc=$?
[ "$applied" = 1 ] && [ $rc -eq 143 ] && same && [ ! -e "$state" ]
ok $? "SIGTERM mid-run: exit 143, features restored, no state file (applied=$applied rc=$rc)"

start_applied
{ kill -KILL $bg; wait $bg; rc=$?; } 2>/dev/null
[ "$applied" = 1 ] && [ $rc -eq 137 ] && ! same &&
	grep -q "^set	feature	WA_IDLE	.*	1$" "$state"
ok $? "SIGKILL mid-run: features left changed, the state file holds the original (applied=$applied rc=$rc)"

cp "$tmp/dbg/sched/features" "$tmp/features.killed"
run --check default >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "wl_compare --restore" "$tmp/err" &&
	cmp -s "$tmp/features.killed" "$tmp/dbg/sched/features"
ok $? "a new run refuses to start over a killed run's settings: exit 2"

"$cmp" --restore >"$tmp/restored" 2>&1; rc=$?
[ $rc -eq 0 ] && same && [ ! -e "$state" ] && grep -q "restored 1 setting" "$tmp/restored"
ok $? "--restore: every original back, verified, state file removed"

"$cmp" --restore >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "nothing to restore" "$tmp/err" && same
ok $? "--restore without a state file: exit 2, says so"

start_applied --state "$tmp/st"
"$cmp" --restore --state "$tmp/st" >/dev/null 2>"$tmp/err"; rc=$?
kill -TERM $bg
wait $bg
[ "$applied" = 1 ] && [ $rc -eq 2 ] && grep -q "still going" "$tmp/err" &&
	same && [ ! -e "$tmp/st" ]
ok $? "--state FILE; --restore refuses while the run that saved it is going"

# A state file as a killed run leaves it, but for WA_IDLE off.
{
	echo "wl_compare-state 1"
	echo "boot_id $(cat /proc/sys/kernel/random/boot_id)"
	echo "pid 999999"
	echo "root $tmp/dbg"
	printf 'set\tfeature\tWA_IDLE\t%s\t0\n' "$tmp/dbg/sched/features"
} > "$tmp/good"
bad=0
for v in truncated magic kind boot root; do
	case $v in
	truncated) cp "$tmp/good" "$tmp/st" ;;	# no "end"
	magic) { echo "wl_compare-state 9"; tail -n +2 "$tmp/good"; echo end; } > "$tmp/st" ;;
	kind) { sed 's/	feature	/	knob	/' "$tmp/good"; echo end; } > "$tmp/st" ;;
	boot) { sed 's/^boot_id .*/boot_id 0/' "$tmp/good"; echo end; } > "$tmp/st" ;;
	root) { sed "s|^root .*|root $tmp/other|" "$tmp/good"; echo end; } > "$tmp/st" ;;
	esac
	"$cmp" --restore --state "$tmp/st" >/dev/null 2>"$tmp/err"; rc=$?
	if [ $rc -ne 2 ] || ! same || [ ! -e "$tmp/st" ] ||
	   [ "$(wc -l < "$tmp/err")" -ne 1 ]; then
		echo "# $v state file: exit $rc: $(cat "$tmp/err")"
		bad=1
	fi
done
[ $bad -eq 0 ]
ok $? "--restore refuses incomplete, foreign, other-boot and other-root state files: exit 2, one line, nothing changed"

{ cat "$tmp/good"; echo end; } > "$tmp/st"
"$cmp" --restore --state "$tmp/st" >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && grep -qw NO_WA_IDLE "$tmp/dbg/sched/features" && [ ! -e "$tmp/st" ]
ok $? "--restore writes what the file holds (a saved WA_IDLE off)"
cp "$tmp/features.orig" "$tmp/dbg/sched/features"

FAKE_FAIL=3 FAKE_COUNTER=$tmp/cnt run -r 3 -n 1 default NO_WA_IDLE > "$tmp/fail" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && grep -q "FAILED trials: 2" "$tmp/fail" && same
ok $? "integrity failures: exit 1, counted in the report, restored"

FAKE_EXIT=4 run -r 2 -n 1 default NO_WA_IDLE >/dev/null 2>&1; rc=$?
[ $rc -eq 4 ] && same
ok $? "workload skipped by wl_stream: exit 4, restored"

run --check default NO_WA_IDLE name=x,WA_BIAS,NO_WA_WEIGHT > "$tmp/check" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "3 specs OK" "$tmp/check" && same
ok $? "--check applies, restores and verifies every spec"

# Cache-aware scheduling (CONFIG_SCHED_CACHE, 7.3): its own switch.
run NO_SCHED_CACHE >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && same && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
	grep -q "no cache-aware scheduling (CONFIG_SCHED_CACHE): no $tmp/dbg/sched/llc_balancing/enabled" "$tmp/err"
ok $? "NO_SCHED_CACHE without sched/llc_balancing: exit 2, one line naming CONFIG_SCHED_CACHE, nothing changed"

mkdir -p "$tmp/sc/sched/llc_balancing" "$tmp/sc/wakelab"
cp "$tmp/features.orig" "$tmp/sc/sched/features"
echo 1 > "$tmp/sc/sched/llc_balancing/enabled"
echo 1 > "$tmp/sc/sched/llc_balancing/aggr_tolerance"
run_sc() { WL_FAKE_DEBUGFS=$tmp/sc FAKE_WAKELAB=1 FAKE_LB=1 run "$@"; }
run_sc sched_cache.enabled=2 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "is not 0 or 1" "$tmp/err" &&
	[ "$(cat "$tmp/sc/sched/llc_balancing/enabled")" = 1 ]
ok $? "a bad sched_cache value: exit 2, llc_balancing/enabled untouched"

run_sc -r 5 -n 1 -O "$tmp/scout" default NO_SCHED_CACHE > "$tmp/sc.txt" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$tmp/sc/sched/llc_balancing/enabled")" = 1 ] &&
	[ ! -e "$tmp/sc/wl_compare.state" ] &&
	grep -Eq '^#   NO_SCHED_CACHE += NO_SCHED_CACHE  \[NO_SCHED_CACHE\]$' "$tmp/sc.txt" &&
	grep -Eq '^# cache-aware scheduling \(SCHED_CACHE\): (on|off) \(.*inferred.*LLC.*\), user flag llc_balancing/enabled 1 as found' "$tmp/sc.txt" &&
	grep -Eq '^Mean +tcp_stream-1 +50\.00 \( +0\.00\) +5\.00 \* *-45\.00\*$' "$tmp/sc.txt" &&
	grep -q '^LBMigr/1k ' "$tmp/sc.txt" &&
	grep -q 'has 5.0 load-balance migrations (tasks moved while not waking) per 1000 wakeups on average per trial vs 50.0 with default' "$tmp/sc.txt"
ok $? "default vs NO_SCHED_CACHE: applied for its trials (the stand-in's LBMigr/1k 50 -> 5), restored to 1, headline and header (rc=$rc)"

python3 - "$tmp/scout/results.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
sc = d["env"]["sched_cache"]
assert sc["enabled"] == 1 and sc["llcs"] == len(d["env"]["llcs"]), sc
assert sc["state"] == ("on" if sc["llcs"] > 1 else "off"), sc
assert sc["effective"] == (sc["state"] == "on") and "inferred" in sc["effective_how"], sc
assert sc["tunables"] == "aggr_tolerance=1", sc
assert d["restored"] is True
s = {x["policy"]: x["placement"]["lb_migr"] for x in d["stats"]}
assert s["default"]["mean"] == 50 and s["NO_SCHED_CACHE"]["mean"] == 5, s
assert s["NO_SCHED_CACHE"]["significant"] and not s["default"]["significant"], s
t = d["trials"][0]["placement"]
assert t["lb_migr"] in (50, 5) and t["lb_cross_llc"] in (10, 0), t
EOF
ok $? "--out JSON: env.sched_cache (enabled 1, state from the LLC count, inferred), lb_migr per 1000 wakeups in stats, raw counters in trials"

# --profile: the stand-in's shares from a host profile (+-10 %), its
# wakelab_planted_burn 20 % under the one spec that sets the emulated
# wakelab_planted.ko's burn_loops, 0.3 % otherwise.
rm -f "$tmp/pargs"
mkdir -p "$tmp/dbg/sys/module/wakelab_planted/parameters"
echo 0 > "$tmp/dbg/sys/module/wakelab_planted/parameters/burn_loops"
FAKE_PROF_COST=90 FAKE_ARGS_LOG=$tmp/pargs run -r 8 -n 1,2 -s 7 \
	--profile "$tmp/prof/deeper" -O "$tmp/pout" default \
	name=planted,param.wakelab_planted.burn_loops=100000 >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c -- '--profile '"$tmp"'/prof/deeper/trial-0' "$tmp/pargs")" -eq 32 ] &&
	[ "$(grep -vc -- '--profile' "$tmp/pargs")" -eq 6 ] &&
	[ -d "$tmp/prof/deeper/trial-0001" ] && [ -d "$tmp/prof/deeper/trial-0032" ] &&
	[ "$(grep -o -- '--profile [^ ]*' "$tmp/pargs" | sort -u | wc -l)" -eq 32 ] &&
	[ -s "$tmp/prof/deeper/kallsyms" ] && ! ls "$tmp"/prof/deeper/trial-*/kallsyms >/dev/null 2>&1 &&
	[ "$(cat "$tmp/dbg/sys/module/wakelab_planted/parameters/burn_loops")" = 0 ]
ok $? "--profile DIR (made with the directories above it): each trial's wl_stream gets DIR/trial-SEQ of its own, one kallsyms kept; 3 rounds x 2 cells of unprofiled baseline twins; burn_loops restored to 0 (rc=$rc)"

awk '/^Profile, tcp_stream-[12], planted against default:$/ { getline; getline; print }' \
	"$tmp/pout/report.txt" > "$tmp/first"
[ "$(wc -l < "$tmp/first")" -eq 2 ] &&
	[ "$(grep -Ec '^  wakelab_planted_burn +0\.30 +20\.00 +\+19\.70 +0\.0002 +0\.00[0-9]+ \*$' "$tmp/first")" -eq 2 ] &&
	grep -q '^Profile: perf 6.1.192 record -a -g over each trial.s window, 32 trials, event cpu-clock\.$' "$tmp/pout/report.txt" &&
	grep -q 'Holm over the profile.s own' "$tmp/pout/report.txt" &&
	grep -q '^  Cost: the baseline.s throughput with perf is 90.0 % of that without$' "$tmp/pout/report.txt" &&
	grep -q '^  (geometric mean of 6 pairs, 90.0 to 90.0 %' "$tmp/pout/report.txt" &&
	grep -q '^  perf-stat.i.cpu-cycles: missing (perf stat could not count it here: no PMU)$' "$tmp/pout/report.txt" &&
	grep -Eq '^ +306394 +\+0\.0% +306394 +perf-stat.i.context-switches$' "$tmp/pout/report.txt" &&
	! grep -q 'perf-stat.i.cpu-cycles .*[0-9]' "$tmp/pout/report.txt"
ok $? "--profile: the planted symbol (param.wakelab_planted.burn_loops in one spec) first in both cells, marked after Holm; the cost measured (90 %); perf stat's hardware counters missing"

python3 - "$tmp/pout/results.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["profile"]
assert p["event"] == "cpu-clock" and p["trials"] == 32, p["event"]
assert p["correction"]["family"] == "profile" and 0 < p["correction"]["tests"] <= 2 * 10, p["correction"]
assert p["cost"]["pairs"] == 6 and abs(p["cost"]["ratio"] - 0.9) < 1e-9, p["cost"]
assert [c["pairs"] for c in p["cost"]["cells"]] == [3, 3], p["cost"]
cells = [c for c in p["cells"] if c["policy"] == "planted"]
assert len(cells) == 2, cells
for c in cells:
    s = {x["symbol"]: x for x in c["symbols"]}["wakelab_planted_burn"]
    assert s["significant"] and s["p_holm"] <= 0.05 and abs(s["mean_pct"] - 20) < 1e-9, s
    assert c["stat"]["perf-stat.i.cpu-cycles"] is None and c["stat"]["perf-stat.i.ipc"] is None, c["stat"]
    assert c["stat"]["perf-stat.i.context-switches"]["mean"] == 306394, c["stat"]
EOF
ok $? "--profile JSON: the profile family, the planted symbol significant, missing counters null"

sed -n 2p "$tmp/pout/profile.dat" | grep -Eq '^"wakelab_planted_burn" 0\.300 0\.000 20\.000 0\.000$' &&
	[ "$(grep -c '^# tcp_stream-' "$tmp/pout/profile.dat")" -eq 2 ] &&
	grep -q "^plot 'profile.dat' index 0 using 2:3:xtic(1) title 'default'" "$tmp/pout/profile.gp" &&
	{ ! command -v gnuplot >/dev/null || [ -s "$tmp/pout/profile.png" ]; }
ok $? "--profile plot: profile.dat's largest symbols per cell, each policy's mean and stddev; profile.gp draws them (profile.png with gnuplot)"

FAKE_PROF_NOISE=0 run -r 8 -n 1 --profile "$tmp/prof2" default name=again,WA_IDLE >"$tmp/aa.txt" 2>&1; rc=$?
run param.nosuch.x=1 >/dev/null 2>"$tmp/err"; prc=$?
touch "$tmp/afile"
run --profile "$tmp/afile" default >/dev/null 2>"$tmp/err2"; frc=$?
[ $rc -eq 0 ] && grep -q '^Profile:' "$tmp/aa.txt" &&
	! sed -n '/^Profile:/,/^perf stat/p' "$tmp/aa.txt" | grep -q ' \*$' &&
	! run -r 2 -n 1 default NO_WA_IDLE 2>/dev/null | grep -q '^Profile:' &&
	[ $prc -eq 2 ] && grep -q 'module nosuch is not loaded' "$tmp/err" &&
	[ $frc -eq 2 ] && grep -q -- "--profile $tmp/afile: not a directory" "$tmp/err2" && same
ok $? "--profile A/A on identical profiles: nothing marked; without --profile no Profile table; a parameter of a module not loaded, a --profile that is a file: exit 2, nothing changed (rc=$rc)"

FAKE_ARGS_LOG=$tmp/args run -r 1 -n 2 -m 64K default name=p,pin=same-cpu -- -W 0.5 -s 1M >/dev/null 2>&1
grep -q -- '^--json -w tcp_stream -n 2 -l 1 -m 64K -W 0.5 -s 1M$' "$tmp/args" &&
	grep -q -- '^--json -w tcp_stream -n 2 -l 1 -m 64K -W 0.5 -s 1M --pin same-cpu$' "$tmp/args"
ok $? "wl_stream gets the cell, the options after -- and the spec's pin="

tap_done
