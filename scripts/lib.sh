# SPDX-License-Identifier: GPL-2.0
#
# Common definitions for wakelab's host scripts: where the cache lives, how
# the kernel ABIs are discovered (never hard-coded), option parsing and small
# helpers for errors and progress.  Sourced, never executed.

WL_TOP=${WL_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WL_CACHE=${WL_CACHE:-$WL_TOP/.cache}

wl_die() {
	echo "${0##*/}: error: $*" >&2
	exit 2
}

wl_info() {
	echo "${0##*/}: $*" >&2
}

# wl_options, wl_usage_error, wl_posint, wl_count, wl_seconds.
# shellcheck source=scripts/options.sh
. "$WL_TOP/scripts/options.sh"

# The ABI of Debian's 6.1 kernel, e.g. "6.1.0-57-amd64", taken from the
# installed linux-headers-amd64 meta package's dependency: the kernel the
# VM boots, and the one every VM build is for.
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

# The kernel `make module` builds for: the running one when its build
# tree exists under MODULES_DIR (default /lib/modules), else wl_kver.
wl_module_kver() {
	local mods=${1:-/lib/modules} run
	run=$(uname -r)
	if [ -e "$mods/$run/build/Makefile" ]; then
		echo "$run"
	else
		wl_kver
	fi
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

# Built patched and debug kernels (scripts/kernel/build [--debug]).
WL_PATCHED=${WL_PATCHED:-$WL_CACHE/kernel/build}
WL_DEBUG_BUILD=${WL_DEBUG_BUILD:-$WL_CACHE/kernel/build-debug}

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

# wl_vm_bench NAME TIMEOUT VM-OPTION... -- GUEST-ARGS...: run
# scripts/guest/NAME in the VM (/wakelab/guest/NAME; WL_VM overrides
# scripts/vm) with GUEST-ARGS,
# quietly, and leave the lines starting "BENCH " that it writes to
# /wakelab/out/NAME.txt in $tmp/bench ($tmp: the caller's scratch
# directory).
wl_vm_bench() {
	local name=$1 timeout=$2 vmopts=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		vmopts+=("$1")
		shift
	done
	shift
	"${WL_VM:-$WL_TOP/scripts/vm}" --quiet --timeout "$timeout" \
		--out "$tmp/out" "${vmopts[@]}" -- \
		"sh /wakelab/guest/$name $(printf '%q ' "$@")" >&2 ||
		wl_die "the VM run failed"
	grep '^BENCH ' "$tmp/out/$name.txt" >"$tmp/bench" 2>/dev/null ||
		wl_die "no measurements"
}
