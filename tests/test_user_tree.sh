#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A user's kernel tree through `make kernel KSRC=` (scripts/kernel/build
# --ksrc) and a user's bzImage through `make check`/`make compare`
# KERNEL/KERNELS/KDIR, short of building a kernel: what is not a kernel
# tree and an unknown series are refused; a series that does not apply is
# refused naming the patch, and the user's tree is left byte for byte as
# it was (a plain tree and a git tree with uncommitted changes); the copy
# holds the work tree's files; a tree is configured as the table's patched
# kernel of its version; the make variables reach the scripts; the build
# tree is found next to a bzImage; a --kconfig that is not a .config is
# refused; --build-dir is where the build goes.  TAP.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
tmp=$(mktemp -d /tmp/test_user_tree.XXXXXX)
export WL_CACHE=$tmp/cache
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/helpers/tap.sh
. "$top/tests/helpers/tap.sh"

echo "TAP version 13"
echo "1..11"
build=$top/scripts/kernel/build

# A tree that looks like Linux to the checks, and to which no patch applies.
mk_tree() {
	mkdir -p "$1/kernel/sched"
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n' > "$1/Makefile"
	echo 'int x;' > "$1/kernel/sched/core.c"
}
sum() { (cd "$1" && find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 md5sum | md5sum); }

"$build" --ksrc "$tmp" > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q 'is not a Linux source tree' "$tmp/out"
ok $? "--ksrc: a directory that is not a kernel tree is refused (exit 2)"

mk_tree "$tmp/plain"
"$build" --ksrc "$tmp/plain" --series 0.0 > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q -- '--series 0.0: no such series' "$tmp/out"
ok $? "--series: an unknown series is refused, naming those there are"

before=$(sum "$tmp/plain")
"$build" --ksrc "$tmp/plain" --series 6.12 > "$tmp/out" 2>&1
rc=$?
first=$(grep -v -e '^#' -e '^$' "$top/patches/6.12/series" | head -n 1 | awk '{print $1}')
[ $rc -eq 2 ] && grep -q "patches/6.12/$first does not apply to $tmp/plain (6.12.0)" "$tmp/out" &&
	[ "$before" = "$(sum "$tmp/plain")" ]
ok $? "--series: a series that does not apply is refused naming the patch; the tree is untouched"

dir=$("$build" --ksrc "$tmp/plain" --series 6.12 --print-dir)
[ -f "${dir%/build}/src/kernel/sched/core.c" ] && [ ! -d "$dir/../src/.git" ]
ok $? "--series: the patches go to a copy under the cache ($(basename "${dir%/build}"))"

mk_tree "$tmp/git"
git -C "$tmp/git" init -q && git -C "$tmp/git" add -A &&
	git -C "$tmp/git" -c user.name=t -c user.email=t@t commit -q -m base
echo 'int y;' >> "$tmp/git/kernel/sched/core.c"
echo 'new' > "$tmp/git/kernel/sched/new.c"
echo 'ignored.o' > "$tmp/git/.gitignore"
echo 'obj' > "$tmp/git/ignored.o"
before=$(sum "$tmp/git"; git -C "$tmp/git" status --porcelain; git -C "$tmp/git" rev-parse HEAD)
"$build" --ksrc "$tmp/git" --series 6.12 > "$tmp/out" 2>&1
src=$("$build" --ksrc "$tmp/git" --series 6.12 --print-dir)
src=${src%/build}/src
grep -q 'int y;' "$src/kernel/sched/core.c" && [ -f "$src/kernel/sched/new.c" ] &&
	[ ! -e "$src/ignored.o" ] &&
	[ "$before" = "$(sum "$tmp/git"; git -C "$tmp/git" status --porcelain; git -C "$tmp/git" rev-parse HEAD)" ]
ok $? "--ksrc git tree: the copy has the work tree's changes and untracked files, not ignored ones; the tree, its index and HEAD untouched"

. "$top/scripts/kernel/lib.sh"
got=$(for v in 7.3.4 7.9.1 6.12.40 6.6.1 5.10.0; do echo "$v=$(wl_tree_kernel "$v")"; done | tr '\n' ' ')
wl_kernel "$(wl_tree_kernel 7.9.1)"
check "--ksrc: a tree's configuration is the table's patched kernel of its version (7.x with v7.config)" \
	"7.3.4=patched-7.3 7.9.1=patched-7.3 6.12.40=patched-6.12 6.6.1=patched-6.12 5.10.0=  v7" \
	"$got $WK_PKG"

# make -n prints a recipe's continuation lines as they are written.
flat() { tr '\n\t' '  ' | sed 's/\\ */ /g; s/  */ /g'; }
out=$(make -s -n -C "$top" kernel KSRC=/x/linux SERIES=6.12 KCONFIG=/x/config 2>&1 | flat)
grep -q "scripts/kernel/build.*--ksrc '/x/linux'.*--series '6.12'.*--kconfig '/x/config'" <<<"$out"
ok $? "make kernel KSRC=... SERIES=... KCONFIG=...: passed to scripts/kernel/build"

echo '# not a config' > "$tmp/notconfig"
"$build" --ksrc "$tmp/plain" --kconfig "$tmp/nosuch" > "$tmp/o1" 2>&1
r1=$?
"$build" --ksrc "$tmp/plain" --kconfig "$tmp/notconfig" > "$tmp/o2" 2>&1
r2=$?
"$build" --kconfig "$tmp/notconfig" > "$tmp/o3" 2>&1
r3=$?
[ "$r1" = 2 ] && grep -q "KCONFIG '$tmp/nosuch' is not a readable file" "$tmp/o1" &&
	[ "$r2" = 2 ] && grep -q "sets no CONFIG_ option: not a .config" "$tmp/o2" &&
	[ "$r3" = 2 ] && grep -q -- '--kconfig goes with --ksrc' "$tmp/o3" &&
	[ ! -e "$tmp/cache/kernel/user-plain-"*/build/.config ]
ok $? "--kconfig: a missing file, a file that is not a .config, and --kconfig without --ksrc are refused; nothing configured"

"$build" --build-dir "$tmp/bd/build" > "$tmp/o1" 2>&1
r1=$?
"$build" --ksrc "$tmp/plain" --series 6.12 --build-dir "$tmp/bd/build" > "$tmp/o2" 2>&1
r2=$?
d=$("$build" --ksrc "$tmp/plain" --build-dir "$tmp/bd/x/../build" --print-dir)
[ "$r1" = 2 ] && grep -q -- '--build-dir goes with --ksrc' "$tmp/o1" &&
	[ "$r2" = 2 ] && grep -q -- '--build-dir goes without --series' "$tmp/o2" &&
	[ "$d" = "$tmp/bd/build" ] && [ ! -e "$tmp/bd" ]
ok $? "--build-dir: printed as given (absolute), refused without --ksrc or with --series; nothing made"

out=$( (make -s -n -C "$top" check KERNEL=/x/bzImage KDIR=/x/build 2>&1
	make -s -n -C "$top" compare KERNELS='a b' KDIR=/x/build NO_MODULE=1 BOOTS=2 JOBS=2 2>&1) | flat)
grep -q "scripts/check --kernel '/x/bzImage' --kdir '/x/build'" <<<"$out" &&
	grep -q "scripts/compare .*--kernels 'a b' --boots '2' --jobs '2' --kdir '/x/build' --no-module" <<<"$out"
ok $? "make check KERNEL=path KDIR=..., make compare KERNELS/KDIR/NO_MODULE/BOOTS/JOBS: passed to the scripts"

mkdir -p "$tmp/tree/arch/x86/boot"
touch "$tmp/tree/arch/x86/boot/bzImage" "$tmp/tree/Module.symvers"
echo 'all:' > "$tmp/tree/Makefile"
wl_kernel_paths "$tmp/tree/arch/x86/boot/bzImage"
k1=$WK_KDIR
cp "$tmp/tree/arch/x86/boot/bzImage" "$tmp/bz"
wl_kernel_paths "$tmp/bz"
[ "$k1" = "$tmp/tree" ] && [ "$WK_KDIR" = "/lib/modules/$WK_RELEASE/build" ]
ok $? "a bzImage inside a build tree has that tree as its KDIR; elsewhere, the installed kernel's"

tap_done
