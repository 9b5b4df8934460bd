# SPDX-License-Identifier: GPL-2.0
#
# Common definitions for wakelab's shell scripts: where the cache lives, how
# the Debian kernel ABI is discovered (never hard-coded), and small helpers for
# errors and progress.  Sourced, never executed.

WL_TOP=${WL_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WL_CACHE=${WL_CACHE:-$WL_TOP/.cache}

wl_die() {
	echo "${0##*/}: error: $*" >&2
	exit 2
}

wl_info() {
	echo "${0##*/}: $*" >&2
}

# The ABI of Debian's 6.1 kernel, e.g. "6.1.0-57-amd64", taken from the
# installed linux-headers-amd64 meta package's dependency.
wl_kver() {
	local v
	v=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	    grep -o 'linux-headers-[0-9][^ ,]*-amd64' | head -n 1)
	v=${v#linux-headers-}
	if [ -z "$v" ]; then
		v=$(ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null |
		    sort -V | tail -n 1)
		v=${v##*/linux-headers-}
	fi
	[ -n "$v" ] || wl_die "linux-headers-amd64 is not installed: run 'make deps'"
	echo "$v"
}

# Extracted Debian linux-source-6.1 tree (kselftest headers, checkpatch.pl).
WL_KSRC=${WL_KSRC:-$WL_CACHE/linux-source-6.1}

# Extracted stock image for ABI $1.
wl_stock_root() {
	echo "$WL_CACHE/stock/$1"
}

wl_stock_kernel() {
	echo "$(wl_stock_root "$1")/boot/vmlinuz-$1"
}

# Built patched kernel (scripts/build-kernel).
WL_PATCHED=${WL_PATCHED:-$WL_CACHE/kernel/build}

wl_patched_kernel() {
	echo "$WL_PATCHED/arch/x86/boot/bzImage"
}

wl_patched_release() {
	cat "$WL_PATCHED/include/config/kernel.release" 2>/dev/null
}

# The programs the kselftest runner must report on every kernel: selftests/
# Makefile's TEST_GEN_PROGS.
wl_expected_progs() {
	make -s -C "$WL_TOP/selftests" --no-print-directory -f Makefile -f - \
		wl-print-progs <<<'wl-print-progs: ; @echo $(notdir $(TEST_GEN_PROGS))'
}

