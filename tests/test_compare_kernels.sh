#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the kernel comparison (scripts/compare --kernels,
# wl_compare --merge, scripts/lkp-table) with planted data: the boot
# schedule is balanced and reproducible from its seed; with the boot as
# the unit, one boot's shift is not a kernel effect while a shift of every
# boot of a kernel is; a failed boot is reported and left out while the
# others' results stand; each kernel boots with its own spec and its own
# module build tree, a bzImage without a build tree is refused before
# anything boots unless --no-module is asked for; the defaults (7 boots a
# kernel of 3 trials) and the policy comparison's --quick; --profile gives
# the guest perf and the driver --profile, the profiles coming back into
# results/<stamp>/profile (each boot's, with --kernels, the merged Profile
# table's unit the boot).  The VM is a stand-in
# (WL_VM) that runs the guest command on the host with
# tests/helpers/fake-wl-stream and an emulated debugfs.  TAP.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
# The test build (tests/Makefile): only it honours WL_FAKE_DEBUGFS as root.
cmp=$top/.cache/tests/wl_compare
fake=$top/tests/helpers/fake-wl-stream
tmp=$(mktemp -d /tmp/test_compare_kernels.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

echo "TAP version 13"
tap_need_wl_compare "$top"
echo "1..22"

# --- the schedule ---------------------------------------------------------------
s1=$(wl_boot_schedule 7 4 A B | tr '\n' ' ')
s2=$(wl_boot_schedule 7 4 A B | tr '\n' ' ')
[ "$s1" = "$s2" ]
ok $? "schedule: the same seed gives the same boot order ($s1)"

# Every round boots each kernel once, and each pair of rounds runs one
# order and its reverse (A B B A): over 4 rounds each kernel is first in
# half of them.
bal=0
for s in 1 2 3 4 5 6 7 8 9 10; do
	wl_boot_schedule "$s" 4 A B C | awk -v k=3 '
		{ r = int((NR - 1) / k); seen[r, $1]++; if ((NR - 1) % k == 0) first[$1]++
		  pos[$1] += (NR - 1) % k }
		END { for (x in seen) if (seen[x] != 1) exit 1
		      for (x in pos) if (pos[x] != 4 * (k - 1) / 2) exit 1 }' || bal=1
done
ok $bal "schedule: each round boots every kernel once, positions balanced (3 kernels x 4 rounds, 10 seeds)"

orders=$(for s in $(seq 1 40); do wl_boot_schedule "$s" 1 A B C | tr -d '\n'; echo; done | sort -u | wc -l)
[ "$orders" -ge 4 ]
ok $? "schedule: the seed chooses the order ($orders of 6 orders over 40 seeds)"

# --- planted boots ----------------------------------------------------------------
mkdir -p "$tmp/dbg/sched"
echo "WA_IDLE WA_WEIGHT" > "$tmp/dbg/sched/features"
export WL_FAKE_DEBUGFS=$tmp/dbg FAKE_SLEEP=0.01
# planted NAME NOISE BASE...: one boot's results per BASE (the fake
# wl_stream's throughput per instance; 3 trials of 1 and 2 instances,
# NOISE % uniform noise) in $tmp/NAME<i>/, booted in the order A B B A
# A B B A A B; their KERNEL=FILE operands in the array args.
planted() {
	local name=$1 noise=$2 i=0 k base
	shift 2
	args=()
	for base in "$@"; do
		i=$((i + 1))
		FAKE_NOISE=$noise FAKE_BASE=$base "$cmp" -q -R "$fake" -l 1 -r 3 \
			-n 1,2 -s 1 -O "$tmp/$name$i" default >/dev/null 2>&1
		case $i in 2|3|6|7|10) k=B ;; *) k=A ;; esac
		args+=("$k=$tmp/$name$i/results.json")
	done
}
# No noise within a boot, a little between boots; the two B boots 2 and 3
# got a layout that runs 15 % faster.
planted shift 0 1000 1150 1150 1010 990 995 1002 1005
"$cmp" --merge -q -s 1 -j "${args[@]}" > "$tmp/shift.json" 2>/dev/null
python3 - "$tmp/shift.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["test_unit"] == "boot" and len(d["boots"]) == 8
for s in d["stats"]:
    if s["policy"] == "B":
        assert not s["significant"] and s["p_value"] > 0.2, s
        assert s["boots"] == 4 and s["boot_cov"] > 5 and s["trial_cov"] < 0.1, s
EOF
ok $? "merge: two boots 15 % up are not a kernel effect (boot is the unit; BootCoV% >> TrialCoV%)"

# The same trials taken as independent samples would have been called
# significant: the trial-level permutation test on the planted data.
python3 - "$tmp/shift.json" <<'EOF'
import json, sys, random
d = json.load(open(sys.argv[1]))
a = [t["aggregate"] for t in d["trials"] if t["policy"] == "A" and t["cell"] == 0]
b = [t["aggregate"] for t in d["trials"] if t["policy"] == "B" and t["cell"] == 0]
h = lambda x: len(x) / sum(1 / v for v in x)
obs = abs(h(a) - h(b)); pool = a + b; random.seed(1); hit = 0
for _ in range(5000):
    random.shuffle(pool)
    hit += abs(h(pool[:len(a)]) - h(pool[len(a):])) >= obs * (1 - 1e-9)
assert (1 + hit) / 5001 < 0.05, (1 + hit) / 5001
EOF
ok $? "merge: the same data with the trial as the unit would have been flagged"

planted real 1 1000 1200 1200 1000 1000 1200 1200 1000 1000 1200
rargs=("${args[@]}")
"$cmp" --merge -q -s 1 -j "${rargs[@]}" > "$tmp/real.json" 2>/dev/null
python3 - "$tmp/real.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["stats"] if x["policy"] == "B"]
assert len(s) == 2 and all(x["significant"] and abs(x["pct_change"] - 20) < 2 for x in s), s
EOF
ok $? "merge: every boot of a kernel 20 % up is found (exact p = 2/252 with 5 boots each, Holm over 2 cells)"

rargs[2]="B=$tmp/nosuch/results.json"
"$cmp" --merge -q -s 1 -O "$tmp/failed" "${rargs[@]}" > /dev/null 2>&1
rc=$?
python3 - "$tmp/failed/results.json" <<'EOF' && grep -q '^# FAILED boot 3 (B), excluded: no results' "$tmp/failed/report.txt"
import json, sys
d = json.load(open(sys.argv[1]))
bad = [b for b in d["boots"] if not b["ok"]]
assert len(bad) == 1 and bad[0]["seq"] == 3 and "No such file" in bad[0]["error"], bad
s = [x for x in d["stats"] if x["policy"] == "B"]
# The summary is of the boots' Hmeans (n = boots), as the test's.
assert all(x["boots"] == 4 and x["n"] == 4 and x["trials"] == 12 and
           x["boot_trials"] == [3, 3, 3, 3] for x in s), s
assert len(d["trials"]) == 9 * 6
EOF
[ $? -eq 0 ] && [ $rc -eq 1 ]
ok $? "merge: a failed boot is reported and excluded, the other 9 boots' results stand, exit 1 (got $rc)"

"$cmp" --merge -q -j --describe 'B=the new one' --describe 'A=the old one' \
	"${rargs[@]}" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [p["label"] for p in d["policies"]] == ["B", "A"], d["policies"]
assert d["policies"][1]["means"] == "the old one, spec default", d["policies"][1]
assert d["policies"][0]["env"]["kernel"] and d["boots"][0]["kernel"] == "A"
# Each boot'"'"'s SCHED_CACHE state goes through the merge (absent here).
assert all(p["env"]["sched_cache"]["state"] == "absent" for p in d["policies"]), d["policies"]' &&
	grep -Eq '^#   A += .*; SCHED_CACHE absent \(no sched/llc_balancing' "$tmp/failed/report.txt"
ok $? "merge: --describe orders the columns (the first described is the baseline) and says what each kernel is, SCHED_CACHE's state too"

"$cmp" --merge -q "A=$tmp/real1/results.json" > /dev/null 2>&1
[ $? -eq 2 ]
ok $? "merge: one boot is a usage error (exit 2)"
FAKE_NOISE=1 "$cmp" -q -R "$fake" -l 1 -r 33 -n 1 -s 1 -O "$tmp/many" default >/dev/null 2>&1
"$cmp" --merge -q "A=$tmp/many/results.json" "A=$tmp/many/results.json" \
	"B=$tmp/many/results.json" > /dev/null 2> "$tmp/many.err"
[ $? -eq 2 ] && grep -q 'A has 66 trials in a cell, at most 64' "$tmp/many.err"
ok $? "merge: more trials of a kernel in a cell than a summary holds is refused (exit 2), not truncated"
"$cmp" --merge -q "$tmp/real1/results.json" "B=$tmp/real2/results.json" > /dev/null 2>&1
[ $? -eq 2 ]
ok $? "merge: an operand without KERNEL= is a usage error (exit 2)"

"$top/scripts/lkp-table" "$tmp/real.json" > "$tmp/lkp" 2>&1 &&
	grep -Eq '^ +[0-9.]+ +\+(19|20|21)\.[0-9]% +[0-9.]+ +tcp_stream-1\.throughput_Mbit/s$' "$tmp/lkp" &&
	grep -q '^ *%stddev *%change *%stddev$' "$tmp/lkp"
ok $? "lkp-table: 0-day layout, mean (+- %stddev from 2 %) and %change per metric"

# Every placement share the report tests, the wake_affine() rules' among
# them (a bisection's signature may be any), has its row, and its figure
# is the tested mean.  Catches a table that prints only some shares.
FAKE_WAKELAB=1 FAKE_DECISIONS=1 FAKE_LB=1 FAKE_PLACE_NOISE=5 planted rules 0 1000 1000 1000 1000 1000 1000
"$cmp" --merge -q -s 1 -j "${args[@]}" > "$tmp/rules.json" 2>/dev/null
"$top/scripts/lkp-table" "$tmp/rules.json" > "$tmp/lkp-rules" 2>&1
python3 - "$tmp/rules.json" "$tmp/lkp-rules" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); lines = open(sys.argv[2]).read().splitlines()
seen = set()
for s in d["stats"]:
    if s["policy"] != "A":
        continue
    cell = "tcp_stream-%d" % s["instances"]
    for k, v in (s["placement"] or {}).items():
        if v["mean"] is None:
            continue
        row = cell + ".placement." + k + ("/1k_wakeups" if k == "lb_migr" else "_%")
        hit = [l for l in lines if l.endswith("  " + row)]
        assert len(hit) == 1, (row, hit)
        assert hit[0].split()[0] == "%.4g" % v["mean"], (row, hit[0], v["mean"])
        seen.add(k)
assert {"rule_idle", "prev_cpu", "lb_migr", "waker_cpu"} <= seen, seen
PY
ok $? "lkp-table: a row for every tested placement share (rules, prev CPU, LB moves), its figure the tested mean"

# --- scripts/compare --kernels with a stand-in VM ---------------------------------
# Two bzImages, each with a build tree; the stand-in records its arguments
# and runs the guest command on the host.
mkbz() { "$top/tests/helpers/fake-bzimage" "$1" "$2"; }
for k in ka kb; do
	mkdir -p "$tmp/$k/arch/x86/boot"
	echo 'all:' > "$tmp/$k/Makefile"
	printf 'CONFIG_SMP=y\nCONFIG_PREEMPT_VOLUNTARY=y\n' > "$tmp/$k/.config"
done
mkbz "$tmp/ka/arch/x86/boot/bzImage" 6.12.0-a
mkbz "$tmp/kb/arch/x86/boot/bzImage" 6.12.0-b
mkdir -p "$tmp/bin"
cat > "$tmp/bin/wl_compare" <<EOF
#!/bin/sh
exec "$cmp" -R "$fake" "\$@"
EOF
# The guest's driver (scripts/guest/compare-local, tested in the VM by
# wakelab_local_test.sh) as a stand-in: its options up to "--", then
# wl_compare with the rest, its table into --out.
cat > "$tmp/bin/compare-local" <<'EOF'
#!/bin/sh
out="" prof=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	--out) out=$2; shift ;;
	--profile) prof=1 ;;
	--module|--src|--bin|--state) shift ;;
	esac
	shift
done
shift
[ -z "$prof" ] || set -- --profile "$out/profile" "$@"
exec wl_compare ${out:+-O "$out"} "$@"
EOF
chmod +x "$tmp/bin/wl_compare" "$tmp/bin/compare-local"
export WL_VM=$top/tests/helpers/fake-vm FAKEVM_LOG=$tmp/vm.log FAKEVM_BIN=$tmp/bin FAKEVM_COUNT=$tmp/vm.count
kc() { "$top/scripts/compare" --results "$tmp/res" --trials 2 --duration 1 \
	--instances 1 --seed 3 "$@"; }

# TERM to scripts/compare's PID alone while its guests measure: every
# guest it started stops, and it exits 143.
FAKE_SLEEP=38.$$ "$top/scripts/compare" --results "$tmp/res-term" --trials 2 --duration 1 \
	--instances 1 --seed 3 --jobs 2 \
	--kernels "$tmp/ka/arch/x86/boot/bzImage $tmp/kb/arch/x86/boot/bzImage" > "$tmp/term.out" 2>&1 &
tap_term_alone $! 38.$$ "$tmp/res-term"
[ "$term_measuring" -ge 1 ] && [ "$term_rc" = 143 ] && [ -z "$term_left" ] &&
	grep -q 'stopped by SIGTERM' "$tmp/term.out"
ok $? "compare --kernels: TERM to its PID alone stops every guest it started, exit $term_rc (left: ${term_left:-none})"
: > "$tmp/vm.log"
rm -f "$tmp/vm.count"

kc --kernels "$tmp/ka/arch/x86/boot/bzImage $tmp/kb/arch/x86/boot/bzImage" \
	--boots 2 --policies 'default;NO_WA_IDLE' > "$tmp/kc.out" 2>&1
rc=$?
[ $rc -eq 0 ] &&
	[ "$(grep -c -- "--kernel $tmp/ka/arch/x86/boot/bzImage --kdir $tmp/ka " "$tmp/vm.log")" = 2 ] &&
	[ "$(grep -c -- "--kernel $tmp/kb/arch/x86/boot/bzImage --kdir $tmp/kb " "$tmp/vm.log")" = 2 ] &&
	[ "$(grep -c -- "/ka/.*NO_WA_IDLE" "$tmp/vm.log")" = 0 ] &&
	[ "$(grep -c -- "/kb/.*NO_WA_IDLE" "$tmp/vm.log")" = 2 ]
ok $? "compare --kernels: each kernel boots twice with its own build tree and its own spec (exit $rc)"

grep -q '^# unit of the test: the boot' "$tmp/res/latest/report.txt" &&
	grep -q '^#   6.12.0-a .*6.12.0-a.*configuration .*/ka/.config; .config: PREEMPT_VOLUNTARY, spec default' "$tmp/res/latest/report.txt" &&
	grep -q 'tcp_stream-1.throughput_Mbit/s' "$tmp/res/latest/report.txt" &&
	[ -f "$tmp/res/latest/results.json" ] && [ "$(ls -d "$tmp"/res/latest/boots/*/ | wc -l)" = 4 ]
ok $? "compare --kernels: report with the unit, each kernel's release, configuration and its preemption options, the 0-day table; one directory per boot"

: > "$tmp/vm.log"
rm -f "$tmp/vm.count"
FAKEVM_FAIL=2 kc --kernels "$tmp/ka/arch/x86/boot/bzImage $tmp/kb/arch/x86/boot/bzImage" \
	--boots 2 > "$tmp/kc2.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^# boot 2 (6.12.0-b) failed: wakelab-vm: FAIL: timeout' "$tmp/res/latest/report.txt" &&
	grep -q '^# FAILED boot 2 (6.12.0-b), excluded' "$tmp/res/latest/report.txt" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert sum(b["ok"] for b in d["boots"]) == 3' \
		"$tmp/res/latest/results.json"
ok $? "compare --kernels: a boot that times out is reported with the reason, the other three stand (exit $rc)"

: > "$tmp/vm.log"
mkdir -p "$tmp/nokdir"
cp "$tmp/ka/arch/x86/boot/bzImage" "$tmp/nokdir/bzImage"
kc --kernels "$tmp/ka/arch/x86/boot/bzImage $tmp/nokdir/bzImage" > "$tmp/kc3.out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/vm.log" ] && grep -q 'no kernel build tree.*KDIR=.*NO_MODULE=1' "$tmp/kc3.out" &&
	kc --kernels "$tmp/ka/arch/x86/boot/bzImage $tmp/nokdir/bzImage" --boots 1 --no-module > "$tmp/kc4.out" 2>&1 &&
	[ "$(grep -c -- '--no-module' "$tmp/vm.log")" = 2 ] &&
	grep -q 'no wakelab.ko (--no-module)' "$tmp/res/latest/report.txt"
ok $? "compare --kernels: a bzImage without a build tree is refused before any boot (exit $rc); --no-module boots it and the report says so"

: > "$tmp/vm.log"
"$top/scripts/compare" --results "$tmp/res" --seed 3 --quick --policies 'default;NO_WA_IDLE' \
	--kernel "$tmp/ka/arch/x86/boot/bzImage" > "$tmp/q1.out" 2>&1 &&
	"$top/scripts/compare" --results "$tmp/res" --seed 3 --quick --trials 3 \
		--policies 'default;NO_WA_IDLE' --stream-opts '-W 0.1' \
		--kernel "$tmp/ka/arch/x86/boot/bzImage" > "$tmp/q2.out" 2>&1 &&
	grep -q -- ' -n cpus\\,2\\\*cpus -r 7 -l 1 ' "$tmp/vm.log" &&
	grep -q -- ' -n cpus\\,2\\\*cpus -r 3 -l 1 ' "$tmp/vm.log" &&
	grep -q '^Headline' "$tmp/res/latest/report.txt"
ok $? "compare --quick: cpus and 2 x cpus, 7 trials of 1 s unless given; the report has the headline"

: > "$tmp/vm.log"
kc --kernel "$tmp/ka/arch/x86/boot/bzImage" --policies 'default;NO_WA_IDLE' \
	--profile > "$tmp/kp.out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q -- '--perf' "$tmp/vm.log" &&
	grep -q -- ' --profile --out /wakelab/out' "$tmp/vm.log" &&
	grep -q '^Profile: perf ' "$tmp/res/latest/report.txt" &&
	[ -d "$tmp/res/latest/profile/trial-0001" ] && [ -s "$tmp/res/latest/profile/kallsyms" ] &&
	grep -q "^  $top/scripts/perf report -i $tmp/res/[^/]*/profile/trial-0001/perf.data --kallsyms $tmp/res/[^/]*/profile/kallsyms\$" \
		"$tmp/res/latest/report.txt"
ok $? "compare --profile: the guest gets perf (--perf) and the driver --profile; the Profile table, the profiles and one kallsyms in results/<stamp>/profile, the report ends with the perf report command (exit $rc)"

: > "$tmp/vm.log"
kc --kernels "$tmp/ka/arch/x86/boot/bzImage $tmp/kb/arch/x86/boot/bzImage" \
	--boots 2 --profile > "$tmp/kp2.out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c -- '--perf' "$tmp/vm.log")" = 4 ] &&
	[ "$(ls -d "$tmp"/res/latest/boots/*/profile/trial-0001 | wc -l)" = 4 ] &&
	grep -q '^Profile: perf .*, 8 trials, ' "$tmp/res/latest/report.txt" &&
	grep -q 'mean over boots' "$tmp/res/latest/report.txt" &&
	grep -q "^Raw profiles: $tmp/res/[^/]*/boots/NN-KERNEL/profile/trial-SEQ/perf.data" "$tmp/res/latest/report.txt" &&
	grep -q "^  $top/scripts/perf report -i $tmp/res/[^/]*/boots/01-[^/]*/profile/trial-0001/perf.data " "$tmp/res/latest/report.txt"
ok $? "compare --kernels --profile: every boot profiled into its own directory; the merged Profile table with the boot as the unit; the report says where the profiles are and how to read them (exit $rc)"

"$top/scripts/compare" --results "$tmp/res" --seed 3 --instances 1 --duration 1 \
	--kernels "$tmp/ka/arch/x86/boot/bzImage $tmp/kb/arch/x86/boot/bzImage" \
	> "$tmp/k7.out" 2>&1 &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["boots"]) == 14 and d["rounds"] == 3, (len(d["boots"]), d["rounds"])' \
		"$tmp/res/latest/results.json"
ok $? "compare --kernels: 7 boots a kernel of 3 trials by default"

tap_done
