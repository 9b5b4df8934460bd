#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Every executable under scripts/ (host and guest side) takes its options
# the same way: -h/--help prints a "usage:" line to stdout and exits 0; an
# unknown option prints usage to stderr and exits 2.  Nothing else runs:
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

# unknown_is_2 SCRIPT: exit 2, "usage:" on stderr, nothing on stdout.
unknown_is_2() {
	local rc
	timeout 60 "$1" --no-such-option >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q '^usage: ' "$tmp/err" && [ ! -s "$tmp/out" ]
}

mapfile -t scripts < <(cd "$top" && find scripts -type f -perm -u+x | sort)
echo "TAP version 13"
echo "1..$(( ${#scripts[@]} * 2 + 1 ))"
check "scripts/ has executables (${#scripts[@]})" [ ${#scripts[@]} -ge 10 ]
for s in "${scripts[@]}"; do
	check "$s --help: usage on stdout, exit 0" help_ok "$top/$s"
	check "$s --no-such-option: usage on stderr, exit 2" unknown_is_2 "$top/$s"
done
echo "# $((n - fails)) of $n passed"
[ "$fails" = 0 ]
