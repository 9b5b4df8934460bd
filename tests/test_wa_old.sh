#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# WA_OLD's arithmetic (module/wa_old.h) on 64-bit and 32-bit: builds
# tests/helpers/wa_old_check.c for the host and with gcc -m32
# (gcc-multilib, from make deps) and runs both; each prints its own TAP, nested here.  The
# 32-bit program runs natively where this kernel executes i386 binaries,
# else under Debian's user-mode emulator (qemu-i386-static, from
# qemu-user-static, which make deps installs); a SKIP only when neither
# can run it.  Exits non-zero when any result failed.
set -uo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$WL_TOP/tests/helpers/tap.sh"

out=$WL_CACHE/tests
ksft=$WL_KSRC/tools/testing/selftests
mkdir -p "$out"

# runner32: how this machine runs an i386 program, as a command prefix
# (empty: natively); status 1, with the reason in $why32, when it cannot.
runner32() {
	local probe=$out/wa_old_probe.m32 q
	why32=""
	if ! echo 'int main(void) { return 0; }' |
	     gcc -m32 -x c - -o "$probe" 2>"$probe.log"; then
		why32="gcc -m32 cannot link ($(tail -n 1 "$probe.log"); make deps installs gcc-multilib)"
		return 1
	fi
	if "$probe" 2>/dev/null; then
		how32=native
		run32=()
		return 0
	fi
	for q in qemu-i386-static qemu-i386; do
		if command -v "$q" >/dev/null && "$q" "$probe"; then
			how32=$q
			run32=("$q")
			return 0
		fi
	done
	why32="this kernel does not execute i386 binaries and no qemu-i386-static runs them (make deps installs qemu-user-static)"
	return 1
}

echo "TAP version 13"
echo "1..2"
for abi in 64 32; do
	bin=$out/wa_old_check.m$abi
	run32=()
	how32=native
	if [ "$abi" = 32 ] && ! runner32; then
		n=$((n + 1))
		echo "ok $n wa_old: 32-bit # SKIP $why32"
		continue
	fi
	if ! gcc -m$abi -O2 -Wall -Wextra -Werror -I"$ksft" \
		"$WL_TOP/tests/helpers/wa_old_check.c" -o "$bin" 2>"$bin.log"; then
		sed 's/^/# /' "$bin.log"
		ok 1 "wa_old: cannot build with gcc -m$abi (make deps installs gcc-multilib)"
		continue
	fi
	"${run32[@]}" "$bin" 2>&1 | sed 's/^/# /'
	ok "${PIPESTATUS[0]}" "wa_old: $abi-bit${run32:+ (under $how32)}"
done
tap_done
