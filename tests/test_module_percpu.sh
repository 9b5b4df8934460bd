#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# wakelab.ko keeps no static per-CPU data: a module's DEFINE_PER_CPU
# variables come out of the small reserve all modules share (8 KiB on
# x86-64), so a module that uses it can fail to load on a host with many
# modules.  Checks the linked object (section .data..percpu) of the
# observe-mode build and of the control-mode one (WAKELAB_FAKE_HOOK=1,
# compiled in a scratch copy; it does not link against a stock kernel, but
# its object does), against the headers of the first Debian image of make
# check's kernels that the host's compiler builds for (make deps obtains
# it).
set -uo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$WL_TOP/tests/helpers/tap.sh"

for k in $(wl_kernel_check_names); do
	wl_kernel "$k"
	[ "$WK_KIND" = image ] && [ -z "$(wl_kernel_buildroot "$k")" ] && break
done
wl_kernel_paths "$k"
kdir=$WK_KDIR
echo "TAP version 13"
echo "1..2"

# Size of .data..percpu in object $1 (0 when there is none).
percpu_size() {
	local hex
	hex=$(readelf -S --wide "$1" | awk '$2 == ".data..percpu" { print $6 }')
	echo $(( 16#${hex:-0} ))
}

# result WHAT OBJ: one result, ok when OBJ has no static per-CPU data.
result() {
	local what=$1 obj=$2 size
	if [ ! -f "$obj" ]; then
		echo "# no $obj"
		ok 1 "$what: no static per-CPU data"
		return
	fi
	size=$(percpu_size "$obj")
	[ "$size" = 0 ] || echo "# $obj: .data..percpu is $size bytes"
	ok "$size" "$what: no static per-CPU data"
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# A copy of the module's sources and the uapi header they include, laid
# out as in the tree; no objects of another build.
copy_module() {
	mkdir -p "$1"
	cp -a "$WL_TOP/module" "$WL_TOP/include" "$1/"
	rm -f "$1"/module/*.o "$1"/module/*.ko
}

copy_module "$scratch/observe"
make -s -C "$kdir" M="$scratch/observe/module" modules \
	>"$scratch/observe.log" 2>&1 || sed 's/^/# /' "$scratch/observe.log"
result "observe mode" "$scratch/observe/module/wakelab.o"

copy_module "$scratch/control"
# modpost fails on the patched kernel's symbols; the object is linked first.
make -s -C "$kdir" M="$scratch/control/module" WAKELAB_FAKE_HOOK=1 modules \
	>"$scratch/control.log" 2>&1 || true
result "control mode" "$scratch/control/module/wakelab.o"
tap_done
