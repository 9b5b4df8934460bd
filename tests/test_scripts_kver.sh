#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Which kernel `make module` builds for (scripts/lib.sh wl_module_kver):
# the running kernel when its build tree exists, else Debian's 6.1 package
# ABI (wl_kver, the kernel the VM boots); KVER= and KDIR= override both.
# The running kernel is faked with a uname on PATH and the modules
# directory with a scratch one.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

# check DESC WANT GOT
check() {
	n=$((n + 1))
	[ "$2" = "$3" ] && echo "ok $n $1" && return
	echo "not ok $n $1 (expected '$2', got '$3')"
	fails=$((fails + 1))
}

echo "TAP version 13"
echo "1..6"
debian=$(wl_kver)
mkdir -p "$tmp/bin" "$tmp/mods/9.9.9-fake/build"
printf '#!/bin/sh\necho 9.9.9-fake\n' > "$tmp/bin/uname"
chmod +x "$tmp/bin/uname"

check "no build tree for the running kernel: Debian's ABI" "$debian" \
	"$(PATH=$tmp/bin:$PATH wl_module_kver "$tmp/mods")"
touch "$tmp/mods/9.9.9-fake/build/Makefile"
check "the running kernel's build tree exists: the running kernel" 9.9.9-fake \
	"$(PATH=$tmp/bin:$PATH wl_module_kver "$tmp/mods")"
rm -r "$tmp/mods/9.9.9-fake/build"
ln -s /nonexistent "$tmp/mods/9.9.9-fake/build"
check "a dangling build link is no build tree" "$debian" \
	"$(PATH=$tmp/bin:$PATH wl_module_kver "$tmp/mods")"

# The Makefile takes the same answer, and its overrides (its variables
# printed, nothing built).
kdir() {
	make -s -C "$top" --no-print-directory -f Makefile -f - "$@" print-kdir \
		<<<'print-kdir: ; @echo $(KDIR)'
}
want=$(wl_module_kver)
check "make module builds for wl_module_kver ($want)" \
	"/lib/modules/$want/build" "$(kdir)"
check "make module KVER=1.2.3" /lib/modules/1.2.3/build "$(kdir KVER=1.2.3)"
check "make module KDIR=/some/tree" /some/tree "$(kdir KDIR=/some/tree)"

echo "# $((n - fails)) of $n passed"
[ "$fails" = 0 ]
