#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel table (scripts/kernels, scripts/kernels.sh): every name and
# alias resolves, an unknown one is an error naming the known ones, the
# default of each kind, Debian image discovery (newest ABI of the right
# flavour; a package Debian no longer serves is an error naming it, as is
# a source package with no candidate), which tree `make module` builds
# against, and that no script or Makefile names a kernel version outside
# the table.  apt-cache, uname and the modules directory are faked.

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

# check_grep DESC PATTERN TEXT: TEXT matches the extended PATTERN.
check_grep() {
	n=$((n + 1))
	grep -Eq -- "$2" <<<"$3" && echo "ok $n $1" && return
	echo "not ok $n $1 (no '$2' in: $3)"
	fails=$((fails + 1))
}

echo "TAP version 13"
echo "1..31"

# --- names ------------------------------------------------------------------
names=$(wl_kernel_names | tr '\n' ' ')
check "the table's kernels" \
	"stock-6.1 stock-6.12 rt-6.12 stock-7.3 rt-7.3 patched-6.1 patched-6.12 patched-7.3 base-6.1 base-6.12 base-7.3 debug-6.1 debug-6.12 debug-7.3 " \
	"$names"
bad=""
for k in $names; do
	(wl_kernel "$k" && [ "$WK_NAME" = "$k" ]) 2>/dev/null || bad="$bad $k"
done
check "every name resolves to itself" "" "$bad"
for a in stock:stock-6.1 patched:patched-6.1 base:base-6.1 debug:debug-6.1; do
	check "alias ${a%%:*} is ${a#*:}" "${a#*:}" "$(wl_kernel "${a%%:*}"; echo "$WK_NAME")"
done
out=$( (wl_kernel stock-9.9) 2>&1); rc=$?
check "an unknown kernel exits 2" 2 "$rc"
check_grep "an unknown kernel's error lists the names" \
	"unknown kernel 'stock-9.9': one of stock-6.1 .* debug-7.3" "$out"
check "a path is a kernel file" file "$(wl_kernel /boot/vmlinuz-x; echo "$WK_KIND")"
check "defaults: image, patched, base, debug" \
	"stock-7.3 patched-7.3 base-7.3 debug-7.3" \
	"$(echo $(for k in image patched base debug; do wl_kernel_default $k; done))"
check "make check's kernels: the check column" \
	"$(awk '!/^#/ && NF >= 7 && $6 == "yes" { printf "%s ", $1 }' "$top/scripts/kernels")" \
	"$(wl_kernel_check_names | tr '\n' ' ')"
check "suites: the host's for 6.x, trixie-backports for 7.3" \
	"- - trixie-backports trixie-backports" \
	"$(echo $(for k in stock-6.12 patched-6.12 rt-7.3 patched-7.3; do wl_kernel $k; echo "$WK_SUITE"; done))"
check "a build root for 7.3's images only" ":::trixie:trixie:" \
	"$(for k in stock-6.12 patched-6.12 patched-7.3 stock-7.3 rt-7.3; do printf '%s:' "$(wl_kernel_buildroot $k)"; done)"

# --- Debian images --------------------------------------------------------------
mkdir -p "$tmp/bin"
cat > "$tmp/bin/apt-cache" <<'EOF'
#!/bin/sh
# A private suite's options (-o Dir::...=.cache/apt/SUITE/...) pick its list.
pkgs=$FAKE_PKGS
while [ "$1" = -o ]; do
	case $2 in Dir::State::Lists=*/apt/*/lists) pkgs=${FAKE_SUITE_PKGS:-$pkgs} ;; esac
	shift 2
done
case $1 in
pkgnames) cat "$pkgs" ;;
policy) if [ -n "${FAKE_SOURCE:-}" ]; then echo "  Candidate: 1.0"; else echo "  Candidate: (none)"; fi ;;
esac
EOF
chmod +x "$tmp/bin/apt-cache"
cat > "$tmp/pkgs" <<'EOF'
linux-image-6.1.0-9-amd64-unsigned
linux-image-6.1.0-10-amd64-unsigned
linux-image-6.1.0-10-rt-amd64-unsigned
linux-image-6.1.0-10-cloud-amd64-unsigned
linux-image-6.12.9+deb12-amd64-unsigned
linux-image-6.12.10+deb12-amd64-unsigned
linux-image-6.12.10+deb12-rt-amd64-unsigned
linux-image-6.12.10+deb12-cloud-amd64-unsigned
linux-image-6.12.10+deb12-amd64-dbg
EOF
abi() {
	PATH=$tmp/bin:$PATH FAKE_PKGS=$tmp/pkgs WL_CACHE=$tmp/cache wl_image_abi "$1"
}
check "stock-6.1: the newest 6.1 ABI, amd64 flavour" 6.1.0-10-amd64 "$(abi stock-6.1)"
check "stock-6.12: the newest 6.12 ABI, amd64 flavour" 6.12.10+deb12-amd64 "$(abi stock-6.12)"
check "rt-6.12: the rt flavour" 6.12.10+deb12-rt-amd64 "$(abi rt-6.12)"
cat > "$tmp/suite-pkgs" <<'EOF'
linux-image-7.3.2+deb13-amd64
linux-image-7.3.4+deb13-amd64
linux-image-7.3.4+deb13-amd64-dbg
linux-image-7.3.4+deb13-rt-amd64
linux-image-7.3.4+deb13-cloud-amd64
linux-image-7.2.13+deb13-amd64
EOF
mkdir -p "$tmp/cache/apt/trixie-backports/lists"
: > "$tmp/none"
sabi() {
	PATH=$tmp/bin:$PATH FAKE_PKGS=$tmp/none FAKE_SUITE_PKGS=$tmp/suite-pkgs \
		WL_CACHE=$tmp/cache wl_image_abi "$1"
}
check "stock-7.3: from its suite's own lists, no -unsigned" 7.3.4+deb13-amd64 "$(sabi stock-7.3)"
check "rt-7.3: the rt flavour of its suite" 7.3.4+deb13-rt-amd64 "$(sabi rt-7.3)"
out=$( (PATH=$tmp/bin:$PATH FAKE_PKGS=$tmp/pkgs FAKE_SUITE_PKGS=$tmp/none WL_CACHE=$tmp/cache wl_image_abi stock-7.3) 2>&1); rc=$?
check_grep "a 7.3 image its suite no longer serves: the error names the pattern and the suite" \
	"serves no package matching 'linux-image-7.*deb13-amd64' in trixie-backports \(stock-7.3" "$out"
: > "$tmp/none"
out=$( (PATH=$tmp/bin:$PATH FAKE_PKGS=$tmp/none WL_CACHE=$tmp/cache wl_image_abi rt-6.12) 2>&1); rc=$?
check "an image Debian no longer serves: exit 2" 2 "$rc"
check_grep "... and the error names the package and the kernel" \
	"serves no package matching 'linux-image-6.*rt-amd64-unsigned' \(rt-6.12 in scripts/kernels\)" "$out"
mkdir -p "$tmp/cache/stock/6.12.3+deb12-rt-amd64/boot" "$tmp/cache/stock/7.3.1+deb13-amd64/boot"
touch "$tmp/cache/stock/6.12.3+deb12-rt-amd64/boot/vmlinuz-6.12.3+deb12-rt-amd64"
ln -s ../usr/lib/modules/7.3.1+deb13-amd64/vmlinuz "$tmp/cache/stock/7.3.1+deb13-amd64/boot/vmlinuz-7.3.1+deb13-amd64"
check "not served but extracted: the extracted one" 6.12.3+deb12-rt-amd64 \
	"$(PATH=$tmp/bin:$PATH FAKE_PKGS=$tmp/none WL_CACHE=$tmp/cache wl_image_abi rt-6.12 2>/dev/null)"
check "not served but extracted, merged /usr: the extracted one" 7.3.1+deb13-amd64 \
	"$(PATH=$tmp/bin:$PATH FAKE_PKGS=$tmp/none FAKE_SUITE_PKGS=$tmp/none WL_CACHE=$tmp/cache wl_image_abi stock-7.3 2>/dev/null)"
out=$( (export PATH=$tmp/bin:$PATH WL_CACHE=$tmp/cache
	wl_source_fetch 9.9) 2>&1)
check_grep "a source Debian does not serve: the error names the package" \
	"Debian serves no linux-source-9.9 here" "$out"

# --- make module --------------------------------------------------------------------
printf '#!/bin/sh\necho 9.9.9-fake\n' > "$tmp/bin/uname"
chmod +x "$tmp/bin/uname"
mkdir -p "$tmp/mods/9.9.9-fake/build"
vars() {
	PATH=$tmp/bin:$PATH WL_MODULES_DIR=$tmp/mods wl_module_vars "$@" | tr '\n' ' '
}
wl_kernel_paths "$(wl_kernel_default image)"
stock_kdir=$WK_KDIR
check "no build tree for the running kernel: the newest image's headers" \
	"KDIR=$stock_kdir" "$(vars | cut -d' ' -f1)"
touch "$tmp/mods/9.9.9-fake/build/Makefile"
check "the running kernel's build tree exists: that tree" \
	"KDIR=$tmp/mods/9.9.9-fake/build " "$(vars)"
wl_kernel_paths stock-6.12
check "KERNEL=stock-6.12: its headers, its BTF, its base's source" \
	"KDIR=$WK_KDIR WAKELAB_BTF=$WK_BTF WAKELAB_KSRC=$(wl_source_dir 6.12) " \
	"$(vars stock-6.12)"
wl_kernel_paths stock-7.3
check "KERNEL=stock-7.3: its headers, BTF and source, in the trixie build root" \
	"KDIR=$WK_KDIR WAKELAB_BTF=$WK_BTF WAKELAB_KSRC=$(wl_source_dir 7.3) WL_BUILDROOT=trixie " \
	"$(vars stock-7.3)"
kdir() {
	make -s -C "$top" --no-print-directory -f Makefile -f - "$@" print-kdir \
		<<<'print-kdir: ; @echo $(KDIR)'
}
check "make module KDIR=/some/tree" /some/tree "$(kdir KDIR=/some/tree)"
wl_kernel_paths stock-6.12
check "make module KERNEL=stock-6.12" "$WK_KDIR" "$(kdir KERNEL=stock-6.12)"

# --- one table ------------------------------------------------------------------------
# A kernel version (6.1, 6.12, 6.1.0-57, 6.12.117, 7.3, ...) in a script
# or a Makefile, comments included, outside scripts/kernels (a QEMU
# version is not one).
hits=$(cd "$top" && git ls-files -co --exclude-standard scripts Makefile \
	tests/Makefile selftests/Makefile .ci |
	grep -v '^scripts/kernels$' | xargs grep -nE '(^|[^0-9.])(6\.1(2)?|7\.[0-9])([.-][0-9]|[^0-9.]|$)' 2>/dev/null |
	grep -v '^scripts/bench/.*\.c:' | grep -v 'QEMU [0-9]' || true)
check "no script or Makefile names a kernel version outside scripts/kernels" "" "$hits"

echo "# $((n - fails)) of $n passed"
[ "$fails" = 0 ]
