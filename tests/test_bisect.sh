#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of make bisect (scripts/bisect, scripts/bisect-step,
# scripts/bisect.sh) on a stand-in: a small git tree whose "kernel" is
# built by a stand-in of scripts/kernel/build (WL_KBUILD: a bzImage whose
# version string says whether kernel/sched/features.h has WA_IDLE on) and
# booted by a stand-in VM (WL_VM: runs the guest command on the host with
# tests/helpers/fake-wl-stream, whose placement and throughput move when
# the emulated debugfs has NO_WA_IDLE).  Checks every refusal before
# anything is written, the planted commit found, a commit that does not
# build skipped around, an A/A range ending in "nothing to bisect", a
# difference of the ends that the confirmation does not see again ending
# there too, the
# step command's exit statuses for git bisect run, and the report.  TAP.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cmp=$top/.cache/tests/wl_compare
fake=$top/tests/helpers/fake-wl-stream
tmp=$(mktemp -d /tmp/test_bisect.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

echo "TAP version 13"
tap_need_wl_compare "$top"
if ! command -v jq >/dev/null; then
	echo "1..0 # SKIP jq is not installed (make deps)"
	exit 4
fi
echo "1..24"

G=(git -c user.name=Tester -c user.email=tester@example.org -c advice.detachedHead=false)

# --- the stand-ins ----------------------------------------------------------------
mkdir -p "$tmp/bin"
cat > "$tmp/kbuild" <<'EOF'
#!/bin/bash
# Stand-in for scripts/kernel/build --ksrc SRC [--kconfig F]
# [--build-dir D] [--print-dir].
src="" print=0 bd=""
while [ $# -gt 0 ]; do
	case $1 in
	--ksrc) src=$2; shift ;;
	--build-dir) bd=$2; shift ;;
	--kconfig) shift ;;
	--print-dir) print=1 ;;
	esac
	shift
done
b=${bd:-$FAKE_BUILD_DIR}
[ "$print" = 0 ] || { echo "$b"; exit 0; }
# The real build's lock, beside its build directory (user-tree.sh).
mkdir -p "$b"
exec 9> "${b%/*}/lock"
flock -n 9 || { echo "error: the build's lock ${b%/*}/lock is held"; exit 3; }
echo "$src $bd" >> "$FAKE_BUILD_LOG"
if [ -e "$src/BROKEN" ] || grep -qs '^#error' "$src/kernel/sched/fair.c"; then
	echo "kernel/sched/fair.c:1:1: error: planted build failure"
	exit 2
fi
mkdir -p "$b/arch/x86/boot"
echo 'all:' > "$b/Makefile"
echo 'CONFIG_SMP=y' > "$b/.config"
idle=on
grep -q 'SCHED_FEAT(WA_IDLE, false)' "$src/kernel/sched/features.h" && idle=off
grep -q 'SCHED_FEAT(WA_IDLE, fading)' "$src/kernel/sched/features.h" && idle=fading
"$FAKE_BZIMAGE" "$b/arch/x86/boot/bzImage" "7.3.0-test wa_idle=$idle"
EOF
cat > "$tmp/bin/wl_compare" <<EOF
#!/bin/sh
exec "$cmp" -R "$fake" "\$@"
EOF
chmod +x "$tmp/kbuild" "$tmp/bin/wl_compare"
export WL_KBUILD=$tmp/kbuild WL_VM=$top/tests/helpers/fake-vm FAKEVM_DEBUGFS=1 WL_COMPARE=$cmp
export FAKE_BUILD_DIR=$tmp/kbuild-out FAKE_BUILD_LOG=$tmp/kbuild.log FAKE_BZIMAGE=$top/tests/helpers/fake-bzimage
export FAKEVM_LOG=$tmp/vm.log FAKEVM_BIN=$tmp/bin WL_CACHE=$tmp/cache
# No noise: every decision of the test is then certain (with noise, the
# ends of an A/A range differ by chance in 5 % of runs, by design).
export FAKE_WAKELAB=1 FAKE_PLACE=shift FAKE_PLACE_NOISE=0 FAKE_NOISE=0 FAKE_SLEEP=0

# tree DIR PLANT BROKEN N: a stand-in kernel tree of a base commit and N
# commits that change documentation only, but for commit PLANT (WA_IDLE
# off: the behavioural one; 0 for none) and commit BROKEN (does not build,
# fixed by the next; 0 for none).  Commit i's hash is in DIR.commits line i.
tree() {
	local d=$1 plant=$2 broken=$3 n=$4 i
	mkdir -p "$d/kernel/sched" "$d/Documentation"
	printf 'VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 0\n' > "$d/Makefile"
	echo '/* core */' > "$d/kernel/sched/core.c"
	echo 'SCHED_FEAT(WA_IDLE, true)' > "$d/kernel/sched/features.h"
	"${G[@]}" -C "$d" init -q -b main
	"${G[@]}" -C "$d" add -A
	"${G[@]}" -C "$d" commit -q -m "base"
	"${G[@]}" -C "$d" rev-parse HEAD > "$d.commits"
	for ((i = 1; i <= n; i++)); do
		echo "note $i" >> "$d/Documentation/notes.txt"
		if [ "$i" = "$plant" ]; then
			echo 'SCHED_FEAT(WA_IDLE, false)' > "$d/kernel/sched/features.h"
		fi
		if [ "$i" = "$broken" ]; then
			touch "$d/BROKEN"
		elif [ -e "$d/BROKEN" ]; then
			rm "$d/BROKEN"
		fi
		"${G[@]}" -C "$d" add -A
		"${G[@]}" -C "$d" commit -q -m "commit $i$([ "$i" = "$plant" ] && echo ': sched/fair: WA_IDLE off')"
		"${G[@]}" -C "$d" rev-parse HEAD >> "$d.commits"
	done
}
commit() { sed -n "$(($2 + 1))p" "$1.commits"; }

bis() { "$top/scripts/bisect" --results "$tmp/res" --instances 1 --trials 2 \
	--duration 1 --boots 7 --seed 5 "$@"; }

# --- refusals, before anything is written ------------------------------------------
tree "$tmp/k" 5 0 8
mkdir -p "$tmp/plain/kernel/sched"
refuse() {
	local want=$1 rc
	shift
	rm -rf "$tmp/res" "$tmp/cache"
	bis "$@" > "$tmp/ref.out" 2>&1
	rc=$?
	[ "$rc" = 2 ] && grep -q -- "$want" "$tmp/ref.out" && [ ! -e "$tmp/res" ] &&
		[ ! -e "$tmp/cache" ] && [ ! -s "$tmp/vm.log" ]
}
refuse 'is not a git tree' --ksrc "$tmp/plain" --good a --bad b
ok $? "refused: a KSRC that is not a git tree"
refuse "GOOD 'nosuch' is not a commit" --ksrc "$tmp/k" --good nosuch --bad main
ok $? "refused: an unknown GOOD"
refuse "BAD 'v9' is not a commit" --ksrc "$tmp/k" --good "$(commit "$tmp/k" 0)" --bad v9
ok $? "refused: an unknown BAD"
refuse 'is not an ancestor of BAD' --ksrc "$tmp/k" --good main --bad "$(commit "$tmp/k" 2)"
ok $? "refused: GOOD not an ancestor of BAD"
"${G[@]}" -C "$tmp/k" branch -q empty main
"${G[@]}" -C "$tmp/k" checkout -q empty
"${G[@]}" -C "$tmp/k" commit -q --allow-empty -m "empty 1"
"${G[@]}" -C "$tmp/k" commit -q --allow-empty -m "empty 2"
"${G[@]}" -C "$tmp/k" checkout -q main
refuse 'changes a file: nothing to bisect' --ksrc "$tmp/k" --good main --bad empty
ok $? "refused: a range whose commits change nothing"
refuse 'one spec for every step' --ksrc "$tmp/k" --good "$(commit "$tmp/k" 0)" --bad main \
	--policies 'default;NO_WA_IDLE'
ok $? "refused: more than one spec"
echo '# not a config' > "$tmp/notconfig"
refuse 'sets no CONFIG_ option' --ksrc "$tmp/k" --good "$(commit "$tmp/k" 0)" --bad main \
	--kconfig "$tmp/notconfig"
ok $? "refused: a KCONFIG that is not a .config"
refuse 'at least 3 boots' --ksrc "$tmp/k" --good "$(commit "$tmp/k" 0)" --bad main --boots 2
ok $? "refused: fewer than 3 boots of an end"

out=$(env -u WL_CACHE make -s -n -C "$top" bisect KSRC=/x/linux GOOD=v1 BAD=v2 KCONFIG=/x/c \
	POLICIES=NO_WA_IDLE INSTANCES=1,4 BOOTS=9 STEP_BOOTS=5 MAX_BOOTS=10 ALPHA=0.01 \
	SEED=3 2>&1 | tr '\n\t' '  ' | sed 's/\\ */ /g; s/  */ /g')
grep -q "scripts/bisect --ksrc '/x/linux' --good 'v1' --bad 'v2' --kconfig '/x/c' --policies 'NO_WA_IDLE' .*--instances '1,4' .*--boots '9' --step-boots '5' --max-boots '10' --alpha '0.01' .*--seed '3'" <<<"$out"
ok $? "make bisect: KSRC GOOD BAD KCONFIG POLICIES INSTANCES BOOTS STEP_BOOTS MAX_BOOTS ALPHA SEED passed to scripts/bisect"

# --- the planted commit --------------------------------------------------------------
before=$("${G[@]}" -C "$tmp/k" for-each-ref; "${G[@]}" -C "$tmp/k" status --porcelain; ls -a "$tmp/k/.git")
bis --ksrc "$tmp/k" --good "$(commit "$tmp/k" 0)" --bad main > "$tmp/p.out" 2>&1
rc=$?
r=$tmp/res/latest/bisect
planted=$(commit "$tmp/k" 5)
[ "$rc" = 0 ] && grep -q "^First bad commit: $planted" "$r/report.txt" &&
	grep -q 'Subject: commit 5: sched/fair: WA_IDLE off' "$r/report.txt" &&
	grep -q 'kernel/sched/features.h' "$r/report.txt"
ok $? "bisect: names the planted commit, its subject and the file it touches (exit $rc)"

after=$("${G[@]}" -C "$tmp/k" for-each-ref; "${G[@]}" -C "$tmp/k" status --porcelain; ls -a "$tmp/k/.git")
[ "$before" = "$after" ] && [ ! -e "$tmp/k/.git/BISECT_LOG" ] &&
	! grep -v "^$tmp/cache/bisect/\(k-[0-9a-f]*\)/src $tmp/cache/bisect/\1/build\$" "$tmp/kbuild.log"
ok $? "bisect: KSRC untouched (refs, status, .git), every build of the clone in .cache/bisect/<id>/build beside it"

# Every step's decision agrees with the planted position.
awk -F'\t' -v p="$planted" '
	BEGIN { while (("cat '"$tmp/k.commits"'" | getline h) > 0) { idx[substr(h, 1, 12)] = n++ } }
	{ want = idx[$2] >= 5 ? "bad" : "good"; if ($3 != want) bad++; steps++ }
	END { exit !(steps >= 2 && !bad) }' "$r/steps.tsv"
ok $? "bisect: each step decided as its position says ($(cut -f2,3 "$r/steps.tsv" | sort -u | tr '\t\n' ': '))"

grep -q '^Decision rule' "$r/report.txt" &&
	grep -Eq '^  step +commit +decision +boots +cell +metric +GOOD +step +BAD +p GOOD +p BAD' "$r/report.txt" &&
	grep -Eq '^  [0-9]+ +[0-9a-f]{12} +(good|bad) +[0-9]+ +tcp_stream-1 +[a-z_]+ +[0-9.]+\+-[0-9.]+ ' "$r/report.txt" &&
	grep -q '^git bisect log:' "$r/report.txt" && grep -q '# first bad commit' "$r/report.txt" &&
	grep -q 'against its parent' "$r/report.txt" &&
	grep -q '%stddev *%change *%stddev' "$r/report.txt" &&
	grep -Eq '^Time: [0-9]+ s in all: the ends [0-9]+ s' "$r/report.txt" &&
	grep -q '^Drift of the ends' "$r/report.txt" &&
	grep -Eq '^Signature' "$r/report.txt" &&
	grep -Eq '^  tcp_stream-1 +[a-z_]+ .* adjusted p [0-9.e-]+, again [0-9.e-]+: confirmed$' "$r/report.txt" &&
	[ "$(ls "$r/boots" | head -n 28 | grep -c -- '-\(good\|bad\)$')" = 28 ]
ok $? "report: rule, signature confirmed by 7 more boots of each end, steps with p against both ends, bisect log, 0-day table against the parent, drift, times"

# --- the step command by hand: git bisect run's contract -----------------------------
st=$r
cd "$tmp/k" || exit 1
"${G[@]}" checkout -q "$(commit "$tmp/k" 2)"
"$top/scripts/bisect-step" --state "$st" > /dev/null 2>&1
rg=$?
"${G[@]}" checkout -q "$(commit "$tmp/k" 7)"
"$top/scripts/bisect-step" --state "$st" > /dev/null 2>&1
rb=$?
"$top/scripts/bisect-step" --state "$tmp/nosuch" > /dev/null 2>&1
rs=$?
"$top/scripts/bisect-step" > /dev/null 2>&1
ru=$?
"${G[@]}" checkout -q main
cd "$top" || exit 1
[ "$rg" = 0 ] && [ "$rb" = 1 ] && [ "$rs" = 255 ] && [ "$ru" = 255 ]
ok $? "bisect-step: 0 at a good commit ($rg), 1 at a bad one ($rb), 255 (abort) on a bad state ($rs) or usage ($ru)"

printf '# wakelab bisect state 1\nrm -rf /\n' > "$tmp/evil.config"
mkdir -p "$tmp/evil"
cp "$tmp/evil.config" "$tmp/evil/config"
(cd "$tmp/k" && "$top/scripts/bisect-step" --state "$tmp/evil") > "$tmp/evil.out" 2>&1
rc=$?
[ "$rc" = 255 ] && grep -q "unknown line 'rm -rf /'" "$tmp/evil.out"
ok $? "bisect-step: a state file with a line that is not a setting is refused, nothing run (exit $rc)"

# --- a commit that does not build ------------------------------------------------------
tree "$tmp/kb" 6 3 9
: > "$tmp/kbuild.log"
bis --ksrc "$tmp/kb" --good "$(commit "$tmp/kb" 0)" --bad main --seed 9 > "$tmp/b.out" 2>&1
rc=$?
r=$tmp/res/latest/bisect
[ "$rc" = 0 ] && grep -q "^First bad commit: $(commit "$tmp/kb" 6)" "$r/report.txt" &&
	{ ! grep -q "$(commit "$tmp/kb" 3 | cut -c1-12)" "$r/steps.tsv" ||
	  grep -q "$(commit "$tmp/kb" 3 | cut -c1-12).*skip.*does not build.*planted build failure" "$r/steps.tsv"; }
ok $? "bisect: a commit that does not build is skipped with the reason, the planted one still found (exit $rc)"

# Bisecting straight onto the broken commit: git skips it.  The results
# directory is named relative to the caller's directory, as make
# validate-bisect RESULTS=results/x passes it: the step command, run by
# git in the clone, must still find the state.
tree "$tmp/kc" 4 2 4
(cd "$tmp" && bis --ksrc "$tmp/kc" --good "$(commit "$tmp/kc" 0)" --bad main --seed 3 \
	--results rel-res) > "$tmp/c.out" 2>&1
rc=$?
r=$tmp/rel-res/latest/bisect
[ "$rc" = 0 ] && grep -q "^First bad commit: $(commit "$tmp/kc" 4)" "$r/report.txt" &&
	grep -q "$(commit "$tmp/kc" 2 | cut -c1-12)	skip	.*does not build" "$r/steps.tsv"
ok $? "bisect: git skips the broken commit it landed on (125) and goes on; a relative --results (exit $rc)"

# --- A/A: nothing to bisect ------------------------------------------------------------
# Every figure equal: no size detectable ("n/a").
tree "$tmp/ka" 0 0 6
: > "$tmp/vm.log"
bis --ksrc "$tmp/ka" --good "$(commit "$tmp/ka" 0)" --bad main > "$tmp/a.out" 2>&1
rc=$?
r=$tmp/res/latest/bisect
[ "$rc" = 0 ] && grep -q '^Result: no difference between GOOD and BAD at this power: nothing to bisect' "$r/report.txt" &&
	grep -Eq '^  1 instances: throughput (n/a|[0-9.]+%)' "$r/report.txt" &&
	[ ! -e "$r/steps.tsv" ] && [ ! -e "$r/bisect-run.log" ]
ok $? "bisect: an A/A range ends in 'nothing to bisect' with the detectable sizes, no step run (exit $rc)"

# A difference of the ends that is gone in their second measurement: BAD's
# image has NO_WA_IDLE in its first 8 boots (the one that loads the
# module, 7 of the ends), WA_IDLE after.
tree "$tmp/kf" 0 0 4
echo 'SCHED_FEAT(WA_IDLE, fading)' > "$tmp/kf/kernel/sched/features.h"
"${G[@]}" -C "$tmp/kf" commit -q -a -m "commit 5: WA_IDLE fading"
FAKEVM_FADE=8 bis --ksrc "$tmp/kf" --good "$(commit "$tmp/kf" 0)" --bad main > "$tmp/f.out" 2>&1
rc=$?
r=$tmp/res/latest/bisect
[ "$rc" = 0 ] && grep -q '^Result: no difference between GOOD and BAD at this power: nothing to bisect' "$r/report.txt" &&
	grep -q '^The first measurement.s differences did not replicate' "$r/report.txt" &&
	grep -Eq '^  tcp_stream-1 +[a-z_]+ .* adjusted p [0-9.e-]+, again [0-9.e-]+: not confirmed$' "$r/report.txt" &&
	! grep -q ': confirmed$' "$r/report.txt" &&
	[ ! -e "$r/steps.tsv" ] && [ ! -e "$r/bisect-run.log" ]
ok $? "bisect: ends that differ once and not in the confirmation end in 'nothing to bisect', no step run (exit $rc)"

# --- --no-run: the ends, and the command for your own tree --------------------------------
bis --ksrc "$tmp/k" --good "$(commit "$tmp/k" 0)" --bad main --no-run > "$tmp/n.out" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q 'git bisect start .* && git bisect run .*/scripts/bisect-step --state ' "$tmp/n.out" &&
	[ "$(readlink "$tmp/res/latest")" != "$(ls "$tmp/res" | grep -v latest | tail -n 1)" ]
ok $? "bisect --no-run: the ends measured, the git bisect run command printed (exit $rc)"

# A state from --no-run drives git bisect run in the user's own tree.
st=$(sed -n 's/.*--state \(.*\)$/\1/p' "$tmp/n.out" | tail -n 1)
"${G[@]}" clone -q "$tmp/k" "$tmp/own"
(cd "$tmp/own" && "${G[@]}" bisect start main "$(commit "$tmp/k" 0)" >/dev/null &&
	"${G[@]}" bisect run "$top/scripts/bisect-step" --state "$st") > "$tmp/own.out" 2>&1
grep -q "^$planted is the first bad commit" "$tmp/own.out"
ok $? "git bisect run scripts/bisect-step in your own tree names the planted commit"

# --- a signal to scripts/bisect alone ------------------------------------------------
# TERM to its PID (not its process group) while a boot measures: every
# process it started stops with it, and its lock is free for the next run.
: > "$tmp/vm.log"
FAKE_SLEEP=37.$$ "$top/scripts/bisect" --results "$tmp/res" --instances 1 --trials 2 \
	--duration 1 --boots 7 --seed 21 --ksrc "$tmp/k" --good "$(commit "$tmp/k" 0)" \
	--bad main > "$tmp/t.out" 2>&1 &
tap_term_alone $! 37.$$ "$tmp/"
lock=$(ls "$tmp"/cache/bisect/k-*/bisect.lock)
[ "$term_measuring" -ge 1 ] && [ "$term_rc" = 143 ] && [ -z "$term_left" ] &&
	grep -q 'stopped by SIGTERM' "$tmp/t.out" && flock -n "$lock" true
ok $? "bisect: TERM to its PID alone stops every boot it started, exit $term_rc, lock free (left: ${term_left:-none})"

# --- validate-bisect: planted, A/A and broken runs on a stand-in base ----------------
mkdir -p "$tmp/vb/kernel/sched"
printf 'VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 0\n' > "$tmp/vb/Makefile"
echo '/* core */' > "$tmp/vb/kernel/sched/core.c"
echo '/* fair */' > "$tmp/vb/kernel/sched/fair.c"
printf 'SCHED_FEAT(WAKEUP_PREEMPTION, true)\nSCHED_FEAT(WA_IDLE, true)\n' > "$tmp/vb/kernel/sched/features.h"
"${G[@]}" -C "$tmp/vb" init -q -b main && "${G[@]}" -C "$tmp/vb" add -A &&
	"${G[@]}" -C "$tmp/vb" commit -q -m base
vb0=$("${G[@]}" -C "$tmp/vb" rev-parse HEAD)
"$top/scripts/validate-bisect" --base "$tmp/vb" --runs 1 --broken-runs 1 --commits 6-9 \
	--seed 11 --results "$tmp/vres" --bisect-opts '--instances 1 --trials 2 --duration 1' \
	> "$tmp/v.out" 2>&1
rc=$?
s=$(ls -d "$tmp"/vres/*/validate-bisect 2>/dev/null | head -n 1)/summary.txt
[ "$rc" = 0 ] && [ "$(grep -Ec '^(planted|aa|broken) +1 .* right$' "$s")" = 3 ] &&
	grep -q '^planted  1 of 1 right' "$s" && grep -q '^aa       1 of 1 right' "$s" &&
	grep -q '^broken   1 of 1 right' "$s" &&
	[ "$("${G[@]}" -C "$tmp/vb" rev-parse HEAD)" = "$vb0" ] &&
	[ -z "$("${G[@]}" -C "$tmp/vb" status --porcelain)" ]
ok $? "validate-bisect: a planted, an A/A and a broken run each right, the rates printed, the base untouched (exit $rc)"

"$top/scripts/validate-bisect" --base "$tmp/k" --runs 1 --kinds planted \
	--results "$tmp/vres2" > "$tmp/v2.out" 2>&1
rc=$?
"$top/scripts/validate-bisect" --kinds 'planted nosuch' > "$tmp/v3.out" 2>&1
rc3=$?
[ "$rc" = 2 ] && grep -q "has no 'SCHED_FEAT(WA_IDLE, true)' to plant against\|has no kernel/sched/fair.c" "$tmp/v2.out" &&
	[ "$rc3" = 2 ] && grep -q -- "--kinds: planted, aa or broken, got 'nosuch'" "$tmp/v3.out" &&
	[ ! -e "$tmp/vres2" ]
ok $? "validate-bisect: a base it cannot plant in and an unknown kind are refused, nothing run"

tap_done
