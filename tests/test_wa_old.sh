#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# WA_OLD's arithmetic (module/wa_old.h) on 64-bit and 32-bit: builds
# tests/wa_old_check.c for the host and with gcc -m32 (gcc-multilib, from
# make deps) and runs both; each prints its own TAP, nested here.
set -uo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

out=$WL_CACHE/tests
ksft=$WL_KSRC/tools/testing/selftests
mkdir -p "$out"
echo "TAP version 13"
echo "1..2"
n=0
for abi in 64 32; do
	n=$((n + 1))
	bin=$out/wa_old_check.m$abi
	if ! gcc -m$abi -O2 -Wall -Wextra -Werror -I"$ksft" \
		"$WL_TOP/tests/wa_old_check.c" -o "$bin" 2>"$bin.log"; then
		sed 's/^/# /' "$bin.log"
		echo "not ok $n wa_old: cannot build with gcc -m$abi (make deps installs gcc-multilib)"
		continue
	fi
	if "$bin" 2>&1 | sed 's/^/# /'; [ "${PIPESTATUS[0]}" = 0 ]; then
		echo "ok $n wa_old: $abi-bit"
	else
		echo "not ok $n wa_old: $abi-bit"
	fi
done
