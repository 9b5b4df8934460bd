#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The library's layering (selftests/lib/libwl.mk): core, kernel, stream,
# compare, each group using only its own units and those of the groups
# before it.  Read from two graphs of units (lib/G/N.c + include/wl/G/N.h
# is the unit G/N):
#  - includes: the #include lines of every source and header;
#  - calls: the undefined symbols of every object of the test build
#    (.cache/tests/lib), each to the object that defines it.
# In both, these arrows never exist:
#  - core -> any other group; kernel -> stream or compare; stream -> compare;
#  - compare -> stream, except the option parsers it reuses ($reuse), even
#    through other units;
#  - a report or headline -> engine, netperf, remote, trial or opts, even
#    through other units;
#  - any loop between units.
# And from the sources: the library includes no module/ source (only
# <linux/wakelab.h>), every unit has its header, every wl/ include names a
# header that exists, and lib/libwl.mk lists exactly the sources there are.
# Each rule is first shown to catch a planted tree that breaks it.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

# What compare may use of stream, even through other units: the option
# parsers (the workload, size and instance count of wl_compare's own
# options) and the configuration types they fill.
reuse="stream/opts stream/cfg"
# The units a report or headline must not reach.
reports="stream/report compare/report compare/headline"
runners="stream/engine stream/netperf stream/remote compare/trial compare/opts stream/opts"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# unit PATH: G/N of lib/G/N.c, include/wl/G/N.h or lib/G/N.o.
unit() {
	local p=${1%.*}
	p=${p#*lib/}
	p=${p#*include/wl/}
	echo "${p#wl/}"
}

# include_edges SEL: "FROM TO" for every #include "wl/..." of the library
# under SEL (a selftests/ tree); "bad FILE TEXT" for any other quoted
# include or a wl/ header that does not exist.
include_edges() {
	local sel=$1 f u inc
	for f in "$sel"/lib/*/*.c "$sel"/include/wl/*/*.h; do
		[ -e "$f" ] || continue
		u=$(unit "${f#"$sel"/}")
		while read -r inc; do
			case $inc in
			wl/*/*.h)
				if [ ! -f "$sel/include/$inc" ]; then
					echo "bad ${f#"$sel"/} \"$inc\" (no such header)"
				elif [ "$(unit "$inc")" != "$u" ]; then
					echo "$u $(unit "$inc")"
				fi ;;
			*)	echo "bad ${f#"$sel"/} \"$inc\"" ;;
			esac
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
		grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*<.*module/' "$f" |
			sed 's/^/bad /'
	done
}

# call_edges SEL OBJDIR: "FROM TO" for every symbol the object of a source
# of SEL/lib (under OBJDIR/lib) uses that another one defines.
call_edges() {
	local c o
	for c in "$1"/lib/*/*.c; do
		o=$2/lib/${c#"$1"/lib/}
		o=${o%.c}.o
		nm -g --defined-only "$o" | awk -v u="$(unit "$o")" \
			'NF == 3 { print "def", $3, u }'
		nm -u "$o" | awk -v u="$(unit "$o")" '{ print "use", $NF, u }'
	done | awk '$1 == "def" { def[$2] = $3; next }
		    { use[++n] = $3 " " $2 }
		    END { for (i = 1; i <= n; i++) {
			    split(use[i], a, " ")
			    if ((a[2] in def) && def[a[2]] != a[1])
				    print a[1], def[a[2]] } }' | sort -u
}

# violations: the arrows of "FROM TO" lines on stdin that break a rule,
# one per line; the loops tsort finds.
violations() {
	local all edges
	all=$(sort -u)
	grep '^bad ' <<<"$all"
	edges=$(grep -v '^bad ' <<<"$all")
	awk -v reuse="$reuse" -v reports="$reports" -v runners="$runners" '
	function rank(u) { split(u, p, "/"); return r[p[1]] }
	BEGIN {
		r["core"] = 0; r["kernel"] = 1; r["stream"] = 2; r["compare"] = 3
		split(reuse, a, " "); for (i in a) ok[a[i]] = 1
		split(runners, a, " "); for (i in a) run[a[i]] = 1
		nr = split(reports, rep, " ")
	}
	NF == 2 {
		to[$1] = to[$1] " " $2
		split($1, f, "/"); split($2, t, "/")
		if (!(f[1] in r) || !(t[1] in r))
			print "unknown group: " $1 " -> " $2
		else if (rank($2) > rank($1))
			print $1 " -> " $2 ": " t[1] " above " f[1]
		else if (f[1] == "compare" && t[1] == "stream" && !($2 in ok))
			print $1 " -> " $2 ": compare uses of stream only " reuse
	}
	END {
		for (u in to) {
			split(u, f, "/")
			if (f[1] != "compare")
				continue
			delete seen; n = 0; q[++n] = u; seen[u] = 1
			while (n) {
				v = q[n--]; m = split(to[v], nx, " ")
				for (j = 1; j <= m; j++) {
					if (nx[j] in seen)
						continue
					seen[nx[j]] = 1; q[++n] = nx[j]
					split(nx[j], t, "/")
					if (t[1] == "stream" && !(nx[j] in ok))
						print u " reaches " nx[j] \
						      ": compare uses of stream only " reuse
				}
			}
		}
		for (i = 1; i <= nr; i++) {
			delete seen; n = 0; q[++n] = rep[i]; seen[rep[i]] = 1
			while (n) {
				u = q[n--]; m = split(to[u], nx, " ")
				for (j = 1; j <= m; j++) {
					if (nx[j] in seen)
						continue
					seen[nx[j]] = 1; q[++n] = nx[j]
					if (nx[j] in run)
						print rep[i] " reaches " nx[j]
				}
			}
		}
	}' <<<"$edges"
	echo "$edges" | tsort 2>&1 >/dev/null |
		sed -n 's/^tsort: //p' | grep -v 'input contains a loop' |
		sed 's/^/loop through /'
}

# tree_checks SEL: each unit's header, and libwl.mk against the sources.
tree_checks() {
	local sel=$1 c listed present
	for c in "$sel"/lib/*/*.c; do
		[ -e "$c" ] || continue
		[ -f "$sel/include/wl/$(unit "${c#"$sel"/}").h" ] ||
			echo "bad ${c#"$sel"/} has no header include/wl/$(unit "${c#"$sel"/}").h"
	done
	listed=$(printf 'LIBWL_OUT := /none\ninclude %s\nprint:\n\t@echo $(LIBWL_SRCS)\n' \
			"$sel/lib/libwl.mk" | make -s --no-print-directory -f - print |
		tr ' ' '\n' | sed '/^$/d' | sort)
	present=$(cd "$sel/lib" && ls -- */*.c 2>/dev/null | sort)
	[ "$listed" = "$present" ] ||
		diff <(echo "$listed") <(echo "$present") | sed -n 's/^[<>] /bad libwl.mk: /p'
}

# plant DIR FILE INCLUDE...: a file of a planted tree with those includes.
plant() {
	local d=$1 f=$2 i
	shift 2
	mkdir -p "$d/$(dirname "$f")"
	for i in "$@"; do echo "#include \"$i\""; done > "$d/$f"
}

# planted_tree DIR: a tree that keeps every rule.
planted_tree() {
	local d=$1 u
	for u in core/a kernel/b stream/cfg stream/opts stream/run stream/report \
		 stream/engine compare/report compare/headline compare/trial; do
		plant "$d" "lib/$u.c" "wl/$u.h"
		plant "$d" "include/wl/$u.h"
	done
	plant "$d" lib/kernel/b.c wl/kernel/b.h wl/core/a.h
	plant "$d" lib/stream/engine.c wl/stream/engine.h wl/stream/opts.h \
		wl/kernel/b.h
	plant "$d" include/wl/stream/opts.h wl/stream/cfg.h
	plant "$d" include/wl/stream/run.h wl/stream/cfg.h
	plant "$d" lib/stream/report.c wl/stream/report.h wl/stream/run.h
	plant "$d" lib/compare/trial.c wl/compare/trial.h wl/stream/opts.h \
		wl/compare/report.h
	plant "$d" lib/compare/report.c wl/compare/report.h \
		wl/compare/headline.h
	{
		printf 'LIBWL_SRCS := core/a.c kernel/b.c stream/cfg.c '
		printf 'stream/engine.c stream/opts.c stream/report.c stream/run.c '
		printf 'compare/headline.c compare/report.c compare/trial.c\n'
	} > "$d/lib/libwl.mk"
}

# planted NAME WANT SETUP...: a tree planted with SETUP (plant arguments
# after the tree, ';'-separated) is reported, with WANT in the report.
planted() {
	local name=$1 want=$2 d out
	shift 2
	d=$tmp/$name
	planted_tree "$d"
	"$@"
	out=$(include_edges "$d" | violations; tree_checks "$d")
	if grep -qF -- "$want" <<<"$out"; then
		ok 0 "planted: $name is reported"
	else
		ok 1 "planted: $name is reported (wanted '$want', got: ${out:-nothing})"
	fi
}

d0=$tmp/clean
planted_tree "$d0"
out=$(include_edges "$d0" | violations; tree_checks "$d0")
check "the planted tree that keeps every rule passes" "" "$out"

planted core-up "core/a -> kernel/b: kernel above core" \
	plant "$tmp/core-up" lib/core/a.c wl/core/a.h wl/kernel/b.h
planted kernel-up "kernel/b -> stream/run: stream above kernel" \
	plant "$tmp/kernel-up" include/wl/kernel/b.h wl/stream/run.h
planted stream-up "stream/engine -> compare/trial: compare above stream" \
	plant "$tmp/stream-up" lib/stream/engine.c wl/compare/trial.h
planted compare-engine "compare/trial -> stream/engine: compare uses of stream only" \
	plant "$tmp/compare-engine" lib/compare/trial.c wl/stream/engine.h
planted compare-through-opts "compare/trial reaches stream/run: compare uses of stream only" \
	plant "$tmp/compare-through-opts" include/wl/stream/opts.h wl/stream/run.h
planted report-trial "compare/report reaches compare/trial" \
	plant "$tmp/report-trial" include/wl/compare/headline.h wl/compare/trial.h
planted report-opts "stream/report reaches stream/opts" \
	plant "$tmp/report-opts" include/wl/stream/run.h wl/stream/opts.h
planted loop "loop through" \
	plant "$tmp/loop" include/wl/compare/headline.h wl/compare/report.h
planted module "bad lib/kernel/b.c \"../../module/place.h\"" \
	plant "$tmp/module" lib/kernel/b.c wl/kernel/b.h ../../module/place.h
planted missing "(no such header)" \
	plant "$tmp/missing" lib/core/a.c wl/core/a.h wl/core/gone.h
planted no-header "has no header include/wl/kernel/c.h" \
	plant "$tmp/no-header" lib/kernel/c.c wl/kernel/b.h
planted unlisted "bad libwl.mk: kernel/c.c" \
	plant "$tmp/unlisted" lib/kernel/c.c

# A call the includes do not show: core/a calls kernel/b's function.
d=$tmp/calls
mkdir -p "$d/lib/core" "$d/lib/kernel" "$d/obj/lib/core" "$d/obj/lib/kernel"
echo 'void wl_b(void); void wl_a(void) { wl_b(); }' > "$d/lib/core/a.c"
echo 'void wl_b(void) { }' > "$d/lib/kernel/b.c"
if cc -c -o "$d/obj/lib/core/a.o" "$d/lib/core/a.c" &&
   cc -c -o "$d/obj/lib/kernel/b.o" "$d/lib/kernel/b.c"; then
	out=$(call_edges "$d" "$d/obj" | violations)
	check "planted: a call from core into kernel is reported" \
		"core/a -> kernel/b: kernel above core" "$out"
else
	ok 1 "planted: a call from core into kernel is reported (cc failed)"
fi

sel=$top/selftests
out=$(include_edges "$sel" | violations)
check "the library's includes keep the layering" "" "$out"
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
out=$(tree_checks "$sel")
check "every unit has its header; libwl.mk lists every source" "" "$out"
[ -z "$out" ] || echo "$out" | sed 's/^/# /'

objs=${WL_CACHE:-$top/.cache}/tests
if ! ls "$objs"/lib/*/*.o >/dev/null 2>&1; then
	echo "# SKIP calls: no objects under $objs/lib (make -C tests builds them)"
	n=$((n + 1))
	echo "ok $n the library's calls keep the layering # SKIP not built"
else
	out=$(call_edges "$sel" "$objs" | violations)
	check "the library's calls keep the layering" "" "$out"
	[ -z "$out" ] || echo "$out" | sed 's/^/# /'
fi

tap_done
