#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make upstream (scripts/upstream) on a user's git tree, short of a kernel
# build (--no-build), cheaply: the tree is tests/fixtures/upstream/mktree's
# (the files of Debian's linux-source-<base> that the series and the tool
# touch, a few MB, plus three scheduler commits the series' base does not
# have), the numbers the fixture report's.  The minimal series (two
# patches and a cover letter for idler_llc, one patch for always, which
# uses fair.c's own helpers), base-commit: the tree's HEAD, git am there,
# checkpatch --strict, the author and Signed-off-by: from the tree's git
# identity and none without one, To:/Cc: from get_maintainer.pl, the
# tree left untouched, a patch that does not apply refused by name, a
# quick report and one without a difference said so, the b4 prep branch
# (where b4 is installed), the debug-only commit of the differential.
# TAP.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
tmp=$(mktemp -d /tmp/test_upstream_ksrc.XXXXXX)
fix=$top/tests/fixtures/upstream
up=$top/scripts/upstream
# The trees' clones go where make upstream puts them: removed after.
clones=()
cleanup() {
	local c
	rm -rf "$tmp"
	for c in ${clones[@]+"${clones[@]}"}; do
		rm -rf "$c"
	done
}
trap cleanup EXIT
# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

echo "TAP version 13"
for c in jq perl git; do
	if ! command -v $c >/dev/null; then
		echo "1..0 # SKIP $c is not installed (make deps installs it)"
		exit 4
	fi
done
if [ ! -f "$(wl_source_dir 7.3)/.wakelab-extracted" ]; then
	echo "1..0 # SKIP no linux-source-7.3 in $(wl_source_dir 7.3) (make deps unpacks it)"
	exit 4
fi
echo "1..23"

# The identity: only what a test gives (no global or system config).
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
	MAKELEVEL SEND

stamp=$(basename "$(ls -d "$fix"/results/*/ | sort | tail -n 1)")
rep=$fix/results/$stamp

# report DIR POLICY [JQ] [SED]: the fixture report as one of POLICY, in
# DIR/<stamp>/, results.json through JQ and report.txt through SED.
report() {
	local d=$1/$stamp p=$2
	mkdir -p "$d"
	jq --arg p "$p" '.policies[1].spec = "name=\($p),wakelab:\($p)" |
		.policies[1].label = $p | .policies[1].means = "wakelab:\($p)" |
		(.stats[] | select(.policy == "idler_llc") | .policy) |= $p | '"${3:-.}" \
		"$rep/results.json" > "$d/results.json"
	# The column head keeps its width: the label right-aligned in it.
	awk -v p="$p" '
		/ idler_llc$/ && !/^ / { sub(/ idler_llc$/, sprintf(" %9s", p)) }
		{ sub(/: idler_llc /, ": " p " ") } { print }' "$rep/report.txt" |
		sed -e "${4:-}" > "$d/report.txt"
}
report "$tmp/r-always" always

# up TREE NAME OUT [ARGS...]: scripts/upstream on TREE, its output in
# $tmp/NAME.out and .err, its exit status in rc.
up() {
	local tree=$1 name=$2 out=$3
	shift 3
	clones+=("$WL_CACHE/upstream/$name/ksrc-$(basename "$tree")-$(printf '%s\n' "$tree" | sha256sum | cut -c1-8)")
	"$up" --ksrc "$tree" --out "$out" --no-build "$@" > "$tmp/$name.out" 2> "$tmp/$name.err"
	rc=$?
}

# --- idler_llc on a tree with three commits the series' base lacks ------------

kt=$tmp/linux
head=$("$fix/mktree" "$kt" 2> "$tmp/mktree.err")
[ -n "$head" ] || sed 's/^/# /' "$tmp/mktree.err"
git -C "$kt" config user.name "Ada Tester"
git -C "$kt" config user.email ada@example.org
git -C "$kt" status --porcelain > "$tmp/status.before"
refs_before=$(git -C "$kt" show-ref)

out=$tmp/out
up "$kt" idler_llc "$out" --policy idler_llc --results "$fix/results"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/idler_llc.err"
sed 's/^/# /' "$tmp/idler_llc.out" | head -n 12
mapfile -t P < <(ls "$out"/*.patch 2>/dev/null)
check "idler_llc: exit 0, a cover letter and 2 patches" \
	"0 3" "$rc ${#P[@]}"
cover=${P[0]:-/nonexistent}
p1=${P[1]:-/nonexistent}
p2=${P[2]:-/nonexistent}

grep -q '^Subject: \[PATCH 1/2\] sched/topology: Keep LLC load statistics in' "$p1" &&
	grep -q '^Subject: \[PATCH 2/2\] sched/fair: Add WA_IDLER_LLC' "$p2" &&
	! grep -h '^[-+]' "$p1" "$p2" | grep -q 'WA_OLD\|wake_affine_policy\|sched_wake_affine_tp\|wake_affine\.h' &&
	! grep -q 'later in this series' "$p1" "$p2"
ok $? "the series: the LLC statistics, then WA_IDLER_LLC; no WA_OLD, tracepoint or policy hook, and no changelog promising them"

# The feature on the tree's own wake_affine(), the reader carried.
grep -qx '+SCHED_FEAT(WA_IDLER_LLC, false)' "$p2" &&
	grep -qx '+static bool read_llc_stats(struct llc_stats \*stats, int cpu)' "$p2" &&
	grep -qx '+	if (sched_feat(WA_IDLER_LLC))' "$p2" &&
	grep -qx '+		target = wake_affine_idler_llc(sd, p, this_cpu, prev_cpu, sync);' "$p2" &&
	grep -qx -e '-	if (sched_feat(WA_IDLE))' "$p2" &&
	grep -qx '+	if (sched_feat(WA_IDLE) \&\& target == nr_cpumask_bits)' "$p2"
ok $? "patch 2: SCHED_FEAT(WA_IDLER_LLC, false), read_llc_stats() carried, asked before WA_IDLE, which then needs no opinion"

grep -qx "base-commit: $head" "$cover" && ! grep -q "base-commit:" "$p1" "$p2" &&
	grep -q "The series is based on ${head:0:12}" "$cover" &&
	! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$cover"
ok $? "the cover letter: base-commit: the tree's HEAD (${head:0:12}), subject and blurb filled in"

am=$tmp/am
git clone -q "$kt" "$am" &&
	git -C "$am" -c user.name=t -c user.email=t@t am -q "$p1" "$p2" > "$tmp/am.out" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/am.out"
[ $rc -eq 0 ] && [ "$(git -C "$am" rev-parse HEAD~2)" = "$head" ]
ok $? "git am applies the 2 patches on the tree's HEAD"

awk 'prev == "static int" && /^wake_affine_idler_llc\(/ { on = 1; print prev }
	on { print } on && /^}/ { exit } { prev = $0 }' "$am/kernel/sched/fair.c" > "$tmp/body.fair"
awk 'prev == "static int" && /^wake_affine_idler_llc\(/ { on = 1; print prev }
	on { print } on && /^}/ { exit } { prev = $0 }' "$top/module/policy_idler_llc.c" > "$tmp/body.policy"
[ -s "$tmp/body.policy" ] && cmp -s "$tmp/body.policy" "$tmp/body.fair"
ok $? "after git am: fair.c has the body of module/policy_idler_llc.c verbatim"

bad=0
for f in "$p1" "$p2"; do
	t=$(cd "$kt" && perl scripts/checkpatch.pl --strict --no-tree --show-types "$f" 2>&1 |
	    sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1\/\2\/\3/p')
	[ "$t" = 0/0/0 ] || { echo "# $(basename "$f"): $t"; bad=1; }
done
[ "$bad" = 0 ] && [ "$(grep -c ': 0/0/0$' "$tmp/idler_llc.out")" = 2 ]
ok $? "checkpatch.pl --strict: 0/0/0 on both patches"

n_from=$(cat "${P[@]}" | grep -c '^From: Ada Tester <ada@example.org>$')
n_sob=$(cat "$p1" "$p2" | grep -c '^Signed-off-by: Ada Tester <ada@example.org>$')
check "the author and Signed-off-by: the tree's git identity, on every patch; no placeholder" \
	"3 2 0" "$n_from $n_sob $(cat "${P[@]}" | grep -c 'wakelab.invalid\|wakelab developers')"

# To: maintainers and lists, Cc: reviewers, as get_maintainer.pl says.
(cd "$kt" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
	--no-git-chief-penguins "$p1" "$p2") > "$tmp/maint" 2>/dev/null
hdr() {
	# The header $2 of patch $1, unfolded, one address a line.
	awk -v h="$2:" '/^$/ { exit } $1 == h { on = 1; sub(/^[^ ]+ /, ""); print; next }
		on && /^[ \t]/ { sub(/^[ \t]+/, ""); print; next } { on = 0 }' "$1" |
		tr -d '\n' | tr ',' '\n' | sed 's/^ *//; /^$/d'
}
want_to=$(grep -E 'maintainer:|list' "$tmp/maint" | sed -E 's/ \(.*$//')
want_cc=$(grep -E 'reviewer:' "$tmp/maint" | grep -vE 'maintainer:|list' | sed -E 's/ \(.*$//')
[ -n "$want_to" ] && [ -n "$want_cc" ] &&
	[ "$(hdr "$cover" To)" = "$want_to" ] && [ "$(hdr "$cover" Cc)" = "$want_cc" ] &&
	[ "$(hdr "$p2" To)" = "$want_to" ] && [ "$(hdr "$p2" Cc)" = "$want_cc" ] &&
	grep -q 'Peter Zijlstra <peterz@infradead.org>' <<<"$want_to" &&
	grep -q 'Valentin Schneider <vschneid@redhat.com>' <<<"$want_cc"
ok $? "To: get_maintainer.pl's maintainers and lists ($(wc -l <<<"$want_to")), Cc: its reviewers ($(wc -l <<<"$want_cc")), in every patch"

grep -qF "git send-email --to-cmd='./scripts/get_maintainer.pl" "$tmp/idler_llc.out" &&
	grep -qF -- "--cc-cmd='./scripts/get_maintainer.pl" "$tmp/idler_llc.out" &&
	grep -q "nothing was sent" "$tmp/idler_llc.out"
ok $? "the next step printed: the git send-email command with --to-cmd and --cc-cmd; nothing sent"

[ "$(git -C "$kt" status --porcelain)" = "$(cat "$tmp/status.before")" ] &&
	[ "$(git -C "$kt" show-ref)" = "$refs_before" ] &&
	[ "$(git -C "$kt" rev-parse HEAD)" = "$head" ]
ok $? "KSRC untouched: HEAD, refs and work tree as before"

# --- always: fair.c's own helpers, one patch; no identity ---------------------------

kt2=$tmp/linux2
"$fix/mktree" "$kt2" > /dev/null 2>&1
up "$kt2" always "$tmp/out-a" --policy always --results "$tmp/r-always"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/always.err"
mapfile -t A < <(ls "$tmp"/out-a/*.patch 2>/dev/null)
check "always: exit 0, one patch, no cover letter" "0 1" "$rc ${#A[@]}"
a=${A[0]:-/nonexistent}
grep -q '^Subject: \[PATCH\] sched/fair: Add WA_ALWAYS' "$a" &&
	grep -qx "base-commit: $(git -C "$kt2" rev-parse HEAD)" "$a" &&
	[ "$(grep -c '^diff --git' "$a")" = 2 ] &&
	! grep -q 'llc_stats\|WA_OLD\|wake_affine\.h' "$a"
ok $? "the one patch: features.h and fair.c only, no LLC statistics, base-commit: the tree's HEAD"

! grep -q '^Signed-off-by:' "$a" && ! grep -q 'wakelab.invalid' "$a" &&
	grep -q 'no git identity' "$tmp/always.err" &&
	grep -q '^author: no git identity' "$tmp/always.out" &&
	grep -q '0/0/0 (no Signed-off-by: no git identity; not counted)' "$tmp/always.out"
ok $? "no git identity: the series is made, without Signed-off-by:, and says so"

git -C "$kt2" config user.name "Ada Tester"
git -C "$kt2" config user.email ada@example.org
rm -rf "$tmp/b4-home"
up "$kt2" always "$tmp/out-a2" --policy always --results "$tmp/r-always" --send b4
if [ $rc -ne 0 ] && ! command -v b4 >/dev/null; then
	ok 1 "SEND=b4 without b4: the git send-email command instead (exit $rc)"
elif ! command -v b4 >/dev/null; then
	grep -q "git send-email --to-cmd" "$tmp/always.out"
	ok $? "SEND=b4 without b4 installed: the git send-email command instead # SKIP b4 is not installed"
else
	src=$(sed -n 's/^b4 prep branch b4\/wa-always in \([^ ]*\) .*/\1/p' "$tmp/always.out")
	info=$(cd "$top/$src" 2>/dev/null && git checkout -q b4/wa-always && b4 prep --show-info 2>/dev/null)
	cov=$(cd "$top/$src" 2>/dev/null && git log --format=%B -1 "$(sed -n 's/^start-commit: //p' <<<"$info")")
	(cd "$top/$src" 2>/dev/null && git checkout -q wakelab/wa-always)
	[ $rc -eq 0 ] && grep -q '^branch: b4/wa-always' <<<"$info" &&
		grep -q "^base-commit: $(git -C "$kt2" rev-parse HEAD)" <<<"$info" &&
		grep -q '^To: Peter Zijlstra <peterz@infradead.org>$' <<<"$cov" &&
		grep -q '^Cc: Valentin Schneider <vschneid@redhat.com>$' <<<"$cov" &&
		grep -q 'nothing was sent' "$tmp/always.out"
	ok $? "SEND=b4: a b4 prep branch, enrolled on the tree's HEAD, To/Cc in its cover; nothing sent"
fi

# --- refusals ---------------------------------------------------------------------------

kt3=$tmp/linux3
"$fix/mktree" "$kt3" --conflict > /dev/null 2>&1
up "$kt3" idler_llc "$tmp/out-c" --policy idler_llc --results "$fix/results"
[ $rc -ne 0 ] && [ ! -e "$tmp/out-c" ] &&
	grep -q "patch 1 of patches/7.3, 'sched/topology: Keep LLC load statistics in sched_domain_shared', does not apply" "$tmp/idler_llc.err" &&
	grep -q 'error: patch failed: kernel/sched/fair.c:' "$tmp/idler_llc.err"
ok $? "a patch that does not apply to KSRC: refused, naming it and git's reason; nothing written"
grep '^  error' "$tmp/idler_llc.err" | sed 's/^/# /'

# A tree with the series already: the series is applied by the tool.
git -C "$am" checkout -q --detach HEAD~1
up "$am" idler_llc "$tmp/out-s" --policy idler_llc --results "$fix/results"
[ $rc -ne 0 ] && [ ! -e "$tmp/out-s" ] && grep -q "HEAD has the wakelab series already" "$tmp/idler_llc.err"
ok $? "a KSRC that has the series' LLC statistics already is refused"

mkdir -p "$tmp/notgit"
up "$tmp/notgit" idler_llc "$tmp/out-n" --policy idler_llc --results "$fix/results"
[ $rc -ne 0 ] && grep -q "is not a git tree with a commit" "$tmp/idler_llc.err"
ok $? "a KSRC that is not a git tree is refused"

"$up" --policy idler_llc --ksrc "$kt" --send pigeon > /dev/null 2> "$tmp/send.err"
[ $? -ne 0 ] && grep -q "send b4 or --send email" "$tmp/send.err"
ok $? "--send other than b4 or email is a usage error"

# --- the numbers: a quick run, and no difference ------------------------------------

report "$tmp/r-quick" always '.rounds = 7 | .duration_s = 1'
up "$kt2" always "$tmp/out-q" --policy always --results "$tmp/r-quick"
flat=$(sed '/^---$/q' "$tmp"/out-q/0001-*.patch 2>/dev/null | tr '\n' ' ' | tr -s ' ')
[ $rc -eq 0 ] && grep -qF "These numbers are a quick run (7 trials of 1 s per policy and instance count, as make compare QUICK=1 makes them)" <<<"$flat" &&
	grep -q "^numbers: a quick run" "$tmp/always.out"
ok $? "a quick report: the changelog says it is a quick run"

# No '*' left: no difference survives Holm's correction.
report "$tmp/r-none" always . 's/\*/ /g'
up "$kt2" always "$tmp/out-e" --policy always --results "$tmp/r-none"
[ $rc -eq 0 ] && grep -q "the changelog has no evidence" "$tmp/always.err" &&
	grep -qF "run make compare POLICIES='kernel;always'" "$tmp/always.err" &&
	grep -q "^numbers: no evidence" "$tmp/always.out"
up "$kt2" always "$tmp/out-e2" --policy always --results "$tmp/r-always"
[ $? -eq 0 ] && [ $rc -eq 0 ] && ! grep -q "no evidence" "$tmp/always.err" "$tmp/always.out"
ok $? "no difference in the report: a warning that the changelog has no evidence, naming the full run; none with one"

# --- the policy's tags, and the differential's debug-only commit ---------------------

sed -e 's/^ \* WA_ALWAYS: always wake/ * WA_TAGGED: always wake/' \
	-e 's/wake_affine_always(/wake_affine_tagged(/' \
	-e 's/^WL_FAIR_POLICY(always,/WL_FAIR_POLICY(tagged,/' \
	-e '/^ \* WA_TAGGED: /,/\*\// s|^ \*/$| *\n * Suggested-by: Ada Tester <ada@example.org>\n * Originally-by: Peter Zijlstra <peterz@infradead.org>\n */|' \
	"$top/module/policy_builtin.c" |
	awk '/^\/\*$/ { buf = $0; next } buf != "" { buf = buf "\n" $0; if ($0 ~ /\*\//) { if (buf ~ /WA_TAGGED:/) { print buf; take = 1 } buf = "" } next }
		take && /^static int$/ { print; getline; print; inb = 1; next }
		inb { print; if (/^}/) { inb = 0; take = 0 } next }
		/^WL_FAIR_POLICY\(tagged,/ { print }' > "$tmp/policy_tagged.c"
report "$tmp/r-tagged" tagged
up "$kt2" tagged "$tmp/out-t" --policy "$tmp/policy_tagged.c" --results "$tmp/r-tagged" --differential
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/tagged.err" | head -n 5
t=$(ls "$tmp"/out-t/0001-*.patch 2>/dev/null || echo /nonexistent)
tail3=$(sed '/^---$/q' "$t" | grep -E '^[A-Za-z-]+-by: ' | tr '\n' '|')
check "the policy comment's Suggested-by: and Originally-by: are the changelog's tags, before Signed-off-by:" \
	"Suggested-by: Ada Tester <ada@example.org>|Originally-by: Peter Zijlstra <peterz@infradead.org>|Signed-off-by: Ada Tester <ada@example.org>|" "$tail3"

src=${clones[${#clones[@]} - 1]}/src
dbg=$(git -C "$src" log -1 --format=%s wakelab/wa-tagged-differential 2>/dev/null)
par=$(git -C "$src" rev-parse wakelab/wa-tagged-differential^ 2>/dev/null)
[ "$dbg" = "DEBUG ONLY, not for submission: observe WA_TAGGED with wakelab.ko" ] &&
	[ "$par" = "$(git -C "$src" rev-parse wakelab/wa-tagged)" ] &&
	git -C "$src" show wakelab/wa-tagged-differential:kernel/sched/fair.c | grep -q 'trace_sched_wake_affine_tp' &&
	git -C "$src" show wakelab/wa-tagged-differential:kernel/sched/features.h | grep -q '^SCHED_FEAT(WA_TAGGED, false)$' &&
	! grep -q 'DEBUG ONLY\|trace_sched_wake_affine_tp' "$tmp"/out-t/*.patch
ok $? "--differential: a debug-only commit on the series (tracepoint, hook, WA_TAGGED), never in the series"

tap_done
