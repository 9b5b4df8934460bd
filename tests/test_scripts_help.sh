#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every executable under scripts/ (host and guest side) takes its options
# the same way: -h/--help prints a "usage:" line to stdout and exits 0; an
# unknown option prints usage to stderr and exits 2 (255 for the step
# command of git bisect run, where 2 means "bad").  Nothing else runs:
# the options are parsed before any work starts.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

check() {
	local desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -n 20
		fails=$((fails + 1))
	fi
}

# help_ok SCRIPT: exit 0, "usage:" on stdout.
help_ok() {
	timeout 60 "$1" --help >"$tmp/out" 2>"$tmp/err" &&
		grep -q '^usage: ' "$tmp/out"
}

# usage_status SCRIPT: the exit status of a usage error: 2, but for the
# command git bisect run runs, where 2 would mark the commit bad and 255
# aborts the bisection (git-bisect(1)).
usage_status() {
	case $1 in
	scripts/bisect-step) echo 255 ;;
	*) echo 2 ;;
	esac
}

# unknown_is_usage SCRIPT STATUS: exit STATUS, "usage:" on stderr, nothing
# on stdout.
unknown_is_usage() {
	local rc
	timeout 60 "$1" --no-such-option >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$2" ] && grep -q '^usage: ' "$tmp/err" && [ ! -s "$tmp/out" ]
}

mapfile -t scripts < <(cd "$top" && find scripts -type f -perm -u+x | sort)
echo "TAP version 13"
echo "1..$(( ${#scripts[@]} * 2 + 1 ))"
check "scripts/ has executables (${#scripts[@]})" [ ${#scripts[@]} -ge 10 ]
for s in "${scripts[@]}"; do
	check "$s --help: usage on stdout, exit 0" help_ok "$top/$s"
	st=$(usage_status "$s")
	check "$s --no-such-option: usage on stderr, exit $st" unknown_is_usage "$top/$s" "$st"
done
echo "# $((n - fails)) of $n passed"
[ "$fails" = 0 ]
