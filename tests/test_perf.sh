#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/perf, Linux's own perf of a kernel version run on the host (the
# perf that reads the VM's profiles), and the lines a profiled report ends
# with (wl_profile_hint): with no perf extracted, a clear error naming
# make deps; with make deps' perfs, the version asked for, the nearest one
# when it is missing (and a note saying so), the newest by default.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"
echo "TAP version 13"
echo "1..9"

WL_CACHE=$tmp/empty "$top/scripts/perf" version >"$tmp/out" 2>"$tmp/err"
check "no perf extracted: exit 2" 2 "$?"
grep -q "no perf in .*run 'make deps'" "$tmp/err"
ok $? "no perf extracted: the error names make deps"

"$top/scripts/perf" --version 7 version >"$tmp/out" 2>"$tmp/err"
check "--version 7: a usage error" 2 "$?"

# The perfs make deps extracted: the newest, and a version between two.
newest=$(for d in "$top"/.cache/perf/*/; do
	[ -x "$d/usr/bin/perf" ] && basename "$d"
done | sort -V | tail -n 1)
if [ -z "$newest" ]; then
	for what in "the newest by default" "--version X.Y: that perf" \
		    "a missing version: the nearest" "a missing version: a note"; do
		n=$((n + 1))
		echo "ok $n $what # SKIP no perf in .cache/perf/ (make deps extracts Debian's linux-perf)"
	done
else
	"$top/scripts/perf" version >"$tmp/out" 2>"$tmp/err"
	grep -q "^perf version $newest\." "$tmp/out"
	ok $? "the newest by default ($newest)"
	"$top/scripts/perf" --version "$newest" version >"$tmp/out" 2>"$tmp/err"
	grep -q "^perf version $newest\." "$tmp/out" && [ ! -s "$tmp/err" ]
	ok $? "--version $newest: that perf, nothing on stderr"
	# A version just past the newest is nearest to it.
	past=${newest%.*}.$((${newest#*.} + 1))
	"$top/scripts/perf" --version "$past" version >"$tmp/out" 2>"$tmp/err"
	grep -q "^perf version $newest\." "$tmp/out"
	ok $? "a missing version ($past): the nearest, $newest"
	grep -q "no perf $past in .*the nearest: $newest" "$tmp/err"
	ok $? "a missing version: a note naming the nearest"
fi

hint=$(WL_TOP=$top bash -c '. "$WL_TOP/scripts/lib.sh" && wl_profile_hint /r/profile /r/profile "scripts/perf --version 7.3"')
grep -q '^  scripts/perf --version 7.3 report -i /r/profile/trial-0001/perf.data --kallsyms /r/profile/kallsyms$' <<<"$hint"
ok $? "the report's hint: perf report on the first trial with the kallsyms"
grep -q '^  scripts/perf --version 7.3 diff --kallsyms /r/profile/kallsyms /r/profile/trial-0001/perf.data /r/profile/trial-0002/perf.data$' <<<"$hint"
ok $? "the report's hint: perf diff of two trials"
tap_done
