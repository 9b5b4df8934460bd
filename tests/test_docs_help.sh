#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation states no option or default of its own: each program's
# options appear in README.md and docs/*.md as its --help output, after a
# marker line
#
#	<!-- help: scripts/compare -->
#
# followed by a fenced block.  This test runs every marked program with
# --help and compares the output with the block; it also checks that every
# path of the tree and every `make TARGET` named in the documents exists
# (except in docs/results-log.md, a log of commands as they were run), and
# that every relative link and its #anchor resolve.  TAP, exit status
# non-zero on any failure.
#
# usage: tests/test_docs_help.sh [--update]
#   --update  rewrite every marked block from the program's real --help
#             output (no checks, no TAP)

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

usage() {
	cat <<EOF
usage: tests/test_docs_help.sh [--update]
  (none)    check every --help block, path of the tree, make target and
            relative link in README.md and docs/*.md (TAP)
  --update  rewrite every marked block from the program's --help output
EOF
}

case "${1:-}" in
--update) update=1 ;;
"") update= ;;
-h|--help) usage; exit 0 ;;
*) echo "${0##*/}: error: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac

shopt -s nullglob
docs=(README.md docs/*.md)
# The results log records each command as it was run; a script or target
# renamed since keeps its old name there.
named=()
for f in "${docs[@]}"; do
	[ "$f" = docs/results-log.md ] || named+=("$f")
done
marker_re='^<!-- help: ([^ ]+) -->$'

# The --help output of PROG.  A program whose text neither mentions
# --help nor defines usage() is not run at all: without an option parser
# it might do its job (install packages, boot a VM) instead of printing
# its usage.
# shellcheck disable=SC2016 # expanded by the inner bash
help_cmd='grep -aqE -- "--help|^usage\(\)" "./$0" &&
	timeout 30 "./$0" --help 2>/dev/null'
help_of() {
	bash -c "$help_cmd" "$1"
}

# Each marker of FILE as "LINE PROG", one per line.
markers() {
	awk -v re="$marker_re" '$0 ~ re {
		p = $0; sub(/^<!-- help: /, "", p); sub(/ -->$/, "", p)
		print NR, p }' "$1"
}

# The fenced block that follows the marker on line N of FILE, or exit 1
# when the marker is not followed by one.
block_after() {
	awk -v n="$1" '
		NR == n + 1 { if ($0 !~ /^```/) exit 1; inb = 1; next }
		inb && /^```$/ { done = 1; exit }
		inb { print }
		END { if (!done) exit 1 }' "$2"
}

if [ -n "$update" ]; then
	for f in "${docs[@]}"; do
		[ -f "$f" ] || continue
		WL_HELP_CMD=$help_cmd awk -v re="$marker_re" '
			function emit(prog,   cmd, line) {
				cmd = "bash -c \"$WL_HELP_CMD\" " prog
				while ((cmd | getline line) > 0)
					print line
				close(cmd)
			}
			skip { if ($0 ~ /^```$/) { skip = 0; print } ; next }
			want { want = 0
				if ($0 ~ /^```/) { print; emit(prog); skip = 1; next }
			}
			$0 ~ re { prog = $0; sub(/^<!-- help: /, "", prog)
				sub(/ -->$/, "", prog); want = 1 }
			{ print }' "$f" > "$tmp/new" && cat "$tmp/new" > "$f"
	done
	exit 0
fi

# Results are printed after the plan, once their number is known; NOTE
# lines go below the result they explain.
lines=()
n=0
fails=0
result() {
	local ok=$1 desc=$2
	n=$((n + 1))
	if [ "$ok" = 0 ]; then
		lines+=("ok $n $desc")
	else
		lines+=("not ok $n $desc")
		fails=$((fails + 1))
	fi
}
note() {
	local l
	while IFS= read -r l; do
		lines+=("# $l")
	done
}

nmark=0
for f in "${docs[@]}"; do
	[ -f "$f" ] || continue
	while read -r line prog; do
		nmark=$((nmark + 1))
		desc="$f:$line: $prog --help matches the document"
		if [ ! -x "$prog" ]; then
			result 1 "$desc (no executable $prog)"
			continue
		fi
		if ! block_after "$line" "$f" > "$tmp/doc"; then
			result 1 "$desc (no fenced block after the marker)"
			continue
		fi
		if ! help_of "$prog" > "$tmp/help" || [ ! -s "$tmp/help" ]; then
			result 1 "$desc ($prog --help failed or printed nothing; not run when its text has neither --help nor usage())"
			continue
		fi
		if diff -u "$tmp/doc" "$tmp/help" > "$tmp/diff"; then
			result 0 "$desc"
		else
			result 1 "$desc (run tests/test_docs_help.sh --update)"
			note < "$tmp/diff"
		fi
	done < <(markers "$f")
done
[ "$nmark" -gt 0 ]
result $? "the documents have --help markers ($nmark)"

# Every path of the tree named in the documents exists (globs must match;
# a program of selftests/ counts when its source does, built or not).
dirs='scripts|module|selftests|tests|patches|include'
bad=()
# shellcheck disable=SC2013 # words, and globs expanded on purpose
for p in $(grep -ohE "(^|[^A-Za-z0-9_./\$<>-])($dirs)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*/]" \
	"${named[@]}" | sed -E "s,^[^a-z]*($dirs)/,\\1/," | sort -u); do
	[ -e "$p" ] || [ -e "$p.c" ] || bad+=("$p")
done
result ${#bad[@]} "every path of the tree named in the documents exists"
[ ${#bad[@]} = 0 ] || note <<< "missing: ${bad[*]}"

# Every `make TARGET ...` in code (spans, indented or fenced blocks) names
# targets of the Makefile; options and VAR=value end the list of targets.
# --help blocks are prose about the program, not commands: skipped.
targets=" $(sed -n -E 's/^([A-Za-z0-9_. -]+):([^=]|$).*/\1/p' Makefile |
	tr '\n' ' ') "
bad=()
# shellcheck disable=SC2013 # one target a word
for t in $(awk '
	/^<!-- help: / { helpnext = 1; next }
	/^```/ { fence = !fence; inhelp = fence && helpnext; helpnext = 0; next }
	inhelp { next }
	{ helpnext = 0
		s = $0
		if (fence || s ~ /^    /) code = s
		else { code = ""
			while (match(s, /`[^`]*`/)) {
				code = code " " substr(s, RSTART + 1, RLENGTH - 2) " ;"
				s = substr(s, RSTART + RLENGTH)
			}
		}
		n = split(code, w, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			if (w[i] != "make")
				continue
			for (j = i + 1; j <= n && w[j] ~ /^[a-z][a-z0-9_-]*$/; j++)
				print w[j]
		}
	}' "${named[@]}" | sort -u); do
	[[ "$targets" == *" $t "* ]] || bad+=("$t")
done
result ${#bad[@]} "every make target in the documents exists"
[ ${#bad[@]} = 0 ] || note <<< "not Makefile targets: ${bad[*]}"

# The anchors of FILE's headings, as GitHub makes them.
anchors() {
	awk '/^```/ { fence = !fence } !fence && /^#+ / { sub(/^#+ /, ""); print }' "$1" |
		LC_ALL=C tr '[:upper:]' '[:lower:]' | LC_ALL=C sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'
}

# Every relative Markdown link resolves, from the linking file's folder,
# and so does its #anchor.
bad=()
for f in "${docs[@]}"; do
	[ -f "$f" ] || continue
	# shellcheck disable=SC2013 # a link has no blanks
	for l in $(grep -oE '\]\([^)[:space:]]+' "$f" | sed 's/^](//' |
		grep -vE '^[a-z]+:'); do
		target=${l%%#*}
		[ -n "$target" ] && target=$(dirname "$f")/$target || target=$f
		if [ ! -e "$target" ]; then
			bad+=("$f -> $l")
		elif [[ "$l" == *"#"* ]] && ! anchors "$target" | grep -qxF "${l#*#}"; then
			bad+=("$f -> $l")
		fi
	done
done
result ${#bad[@]} "every relative link in the documents resolves"
[ ${#bad[@]} = 0 ] || note <<< "broken links: ${bad[*]}"

echo "TAP version 13"
echo "1..$n"
printf '%s\n' "${lines[@]}"
[ "$fails" = 0 ]
