# SPDX-License-Identifier: GPL-2.0
#
# The kernel table (scripts/kernels) and how each kind of kernel is
# obtained: where it lives in the cache, how Debian's packages for it are
# found and extracted, which build directory a module is built against.
# Sourced by scripts/lib.sh, never executed.

WL_KTABLE=$WL_TOP/scripts/kernels

# wl_ktable: the table's kernel rows, comments and aliases left out.
wl_ktable() {
	awk '!/^#/ && NF >= 6 && $1 != "alias"' "$WL_KTABLE"
}

# Every kernel's name, in the table's order.
wl_kernel_names() {
	wl_ktable | awk '{ print $1 }'
}

# The kernels `make check` runs the suite on.
wl_kernel_check_names() {
	wl_ktable | awk '$6 == "yes" { print $1 }'
}

# wl_kernel_default KIND: the kernel of KIND (image, patched, base, debug)
# with the newest base, the default of the scripts that need that kind
# (the first in the table's order among those of that base).
wl_kernel_default() {
	local base
	base=$(wl_ktable | awk -v k="$1" '$2 == k { print $3 }' | sort -V | tail -n 1)
	wl_ktable | awk -v k="$1" -v b="$base" '$2 == k && $3 == b { print $1; exit }'
}

# wl_kernel NAME: look NAME (or an alias) up and set WK_NAME, WK_KIND,
# WK_BASE, WK_PKG, WK_MODE and WK_CHECK; an unknown name is an error that
# lists the known ones.  A path to a kernel image is kind "file".
wl_kernel() {
	local name=$1 row
	name=$(awk -v n="$name" '$1 == "alias" && $2 == n { print $3 }' "$WL_KTABLE")
	[ -n "$name" ] || name=$1
	row=$(wl_ktable | awk -v n="$name" '$1 == n')
	if [ -z "$row" ]; then
		case $1 in
		*/*)
			WK_NAME=$1 WK_KIND=file WK_BASE=- WK_PKG=- WK_MODE=- WK_CHECK=no
			return 0 ;;
		esac
		wl_die "unknown kernel '$1': one of $(wl_kernel_names | tr '\n' ' ')(or an alias: $(awk '$1 == "alias" { printf "%s ", $2 }' "$WL_KTABLE")), or a path to a bzImage"
	fi
	read -r WK_NAME WK_KIND WK_BASE WK_PKG WK_MODE WK_CHECK <<<"$row"
}

# --- Debian's source packages -----------------------------------------------

# Extracted linux-source-BASE tree.
wl_source_dir() {
	echo "$WL_CACHE/linux-source-$1"
}

# The Debian version of the installed linux-source-BASE, or nothing.
wl_source_version() {
	dpkg-query -W -f='${db:Status-Status} ${Version}' "linux-source-$1" 2>/dev/null |
		sed -n 's/^installed //p'
}

# wl_source_fetch BASE: install linux-source-BASE when missing (as root)
# and unpack it into wl_source_dir; idempotent.
wl_source_fetch() {
	local base=$1 pkg=linux-source-$1 dir tarball stamp
	dir=$(wl_source_dir "$base")
	if [ -z "$(wl_source_version "$base")" ]; then
		apt-cache policy "$pkg" 2>/dev/null | grep 'Candidate: [0-9]' >/dev/null ||
			wl_die "Debian serves no $pkg here (apt-cache policy $pkg has no candidate): the table's $base kernels cannot be built"
		[ "$(id -u)" = 0 ] || wl_die "$pkg is not installed, and installing it needs root: run 'make deps' as root"
		wl_info "installing $pkg"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends "$pkg" >/dev/null ||
			wl_die "apt-get install $pkg failed"
	fi
	tarball=/usr/src/$pkg.tar.xz
	[ -f "$tarball" ] || wl_die "$pkg is installed but $tarball is missing"
	stamp=$dir/.wakelab-extracted
	if [ ! -f "$stamp" ] || [ "$tarball" -nt "$stamp" ]; then
		wl_info "unpacking $tarball"
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -C "$dir.tmp" --strip-components=1 -xJf "$tarball"
		mv "$dir.tmp" "$dir"
		touch "$stamp"
	fi
}

# --- Debian's binary images ----------------------------------------------------

# wl_image_abi NAME: the ABI of image kernel NAME (what lies between
# "linux-image-" and "-unsigned" in its package's name):
# the newest Debian serves, else the newest already extracted.
wl_image_abi() {
	local re abi
	wl_kernel "$1"
	[ "$WK_KIND" = image ] || wl_die "$WK_NAME is not a Debian image"
	re="^${WK_PKG}\$"
	abi=$(apt-cache pkgnames linux-image- 2>/dev/null | grep -E "$re" |
		sort -V | tail -n 1)
	if [ -z "$abi" ]; then
		abi=$(find "$WL_CACHE/stock" -maxdepth 3 -path '*/boot/vmlinuz-*' \
			2>/dev/null | sed 's|.*/boot/vmlinuz-||' |
			sed 's/^/linux-image-/; s/$/-unsigned/' | grep -E "$re" |
			sort -V | tail -n 1)
		[ -n "$abi" ] ||
			wl_die "Debian serves no package matching '$WK_PKG' ($WK_NAME in scripts/kernels), and none is extracted: is apt's list current (apt-get update)?"
	fi
	abi=${abi#linux-image-}
	echo "${abi%-unsigned}"
}

# Extracted root of an image kernel's packages, by ABI.
wl_image_root() {
	echo "$WL_CACHE/stock/$1"
}

# wl_image_fetch NAME: download NAME's image and headers (with their
# -common and linux-kbuild dependencies) and extract them into
# wl_image_root; the headers' Makefile is pointed at the extracted -common
# tree, and vmlinux.btf (an ELF holding only the kernel's .BTF) is made
# for module builds.  Idempotent; no root needed.
wl_image_fetch() {
	local abi root dl tmp p pkgs deps f vml
	abi=$(wl_image_abi "$1")
	root=$(wl_image_root "$abi")
	[ -f "$root/.wakelab-extracted" ] && return 0
	dl=$WL_CACHE/dl
	mkdir -p "$dl"
	pkgs=("linux-image-$abi-unsigned" "linux-headers-$abi")
	for p in "${pkgs[@]}"; do
		wl_fetch_deb "$dl" "$p"
	done
	# -common (or -common-rt) and linux-kbuild, as the headers name them.
	deps=$(dpkg-deb -f "$(ls "$dl"/"linux-headers-${abi}"_*.deb | sort -V | tail -n 1)" Depends |
		tr ',' '\n' | grep -oE 'linux-(headers-[^ ]*-common(-rt)?|kbuild-[^ ]*)' || true)
	for p in $deps; do
		wl_fetch_deb "$dl" "$p"
		pkgs+=("$p")
	done
	wl_info "extracting ${pkgs[*]} into ${root#"$WL_TOP"/} (dpkg-deb, no initramfs trigger)"
	tmp=$root.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	for p in "${pkgs[@]}"; do
		f=$(ls "$dl"/"${p}"_*.deb | sort -V | tail -n 1)
		dpkg-deb -x "$f" "$tmp"
	done
	f=$tmp/usr/src/linux-headers-$abi/Makefile
	[ -f "$f" ] || wl_die "linux-headers-$abi has no Makefile"
	sed -i "s|^include /usr/src/|include $root/usr/src/|" "$f"
	# The kernel's BTF: the headers' vmlinux (newer Debian headers ship
	# one), else the one inside the compressed image.
	vml=$tmp/usr/src/linux-headers-$abi/vmlinux
	if [ ! -f "$vml" ]; then
		vml=$tmp/vmlinux.elf
		wl_extract_vmlinux "$tmp/boot/vmlinuz-$abi" > "$vml" ||
			wl_die "cannot decompress $tmp/boot/vmlinuz-$abi"
	fi
	if objcopy --only-section=.BTF "$vml" "$tmp/vmlinux.btf" 2>/dev/null &&
	   readelf -S "$tmp/vmlinux.btf" | grep '\.BTF' >/dev/null; then
		:
	else
		rm -f "$tmp/vmlinux.btf"
		wl_info "warning: $abi has no BTF: wakelab.ko cannot read its runqueues"
	fi
	rm -f "$tmp/vmlinux.elf"
	depmod -b "$tmp" "$abi" ||
		wl_die "depmod on the extracted linux-image-$abi failed"
	touch "$tmp/.wakelab-extracted"
	rm -rf "$root"
	mv "$tmp" "$root"
}

# wl_fetch_deb DIR PACKAGE: PACKAGE's .deb in DIR, downloaded when missing.
wl_fetch_deb() {
	local dl=$1 p=$2
	ls "$dl"/"${p}"_*.deb >/dev/null 2>&1 && return 0
	wl_info "downloading $p"
	(cd "$dl" && apt-get download -q "$p" 2>&1 |
		grep -v -e '^W: Download is performed unsandboxed' -e '^Get:' -e '^Fetched ' >&2) || true
	ls "$dl"/"${p}"_*.deb >/dev/null 2>&1 ||
		wl_die "Debian serves no $p (apt-get download $p failed)"
}

# wl_extract_vmlinux BZIMAGE: the uncompressed vmlinux inside BZIMAGE, on
# stdout, with the kernel's own scripts/extract-vmlinux (any source tree).
wl_extract_vmlinux() {
	local x
	x=$(ls "$WL_CACHE"/linux-source-*/scripts/extract-vmlinux 2>/dev/null | head -n 1)
	[ -n "$x" ] || wl_die "no linux-source tree with scripts/extract-vmlinux: run 'make deps'"
	sh "$x" "$1"
}

# --- built kernels ---------------------------------------------------------------

# Build directory of a built kernel (patched, base, debug) of BASE.
wl_kbuild_dir() {
	echo "$WL_CACHE/kernel/$2/$1"
}

# --- any kernel ---------------------------------------------------------------------

# wl_kernel_paths NAME: set WK_IMAGE (what qemu boots), WK_KDIR (the tree
# a module is built against), WK_BTF (a file with the kernel's BTF, or
# empty), WK_MODDIR (the image's /lib/modules/<release>, or empty),
# WK_RELEASE and WK_MISSING (why it cannot boot yet, or empty).  Looks,
# never fetches or builds.
wl_kernel_paths() {
	local abi root dir
	wl_kernel "$1"
	WK_BTF="" WK_MODDIR="" WK_MISSING="" WK_RELEASE=""
	case $WK_KIND in
	image)
		abi=$(wl_image_abi "$WK_NAME")
		root=$(wl_image_root "$abi")
		WK_RELEASE=$abi
		WK_IMAGE=$root/boot/vmlinuz-$abi
		WK_KDIR=$root/usr/src/linux-headers-$abi
		WK_MODDIR=$root/lib/modules/$abi
		[ -f "$root/vmlinux.btf" ] && WK_BTF=$root/vmlinux.btf
		[ -f "$root/.wakelab-extracted" ] ||
			WK_MISSING="$WK_NAME ($abi) is not extracted yet"
		;;
	patched|base|debug)
		dir=$(wl_kbuild_dir "$WK_KIND" "$WK_BASE")
		WK_IMAGE=$dir/arch/x86/boot/bzImage
		WK_KDIR=$dir
		WK_RELEASE=$(cat "$dir/include/config/kernel.release" 2>/dev/null || true)
		[ -f "$WK_IMAGE" ] ||
			WK_MISSING="$WK_NAME is not built: run 'make kernel KERNEL=$WK_NAME'"
		;;
	file)
		WK_IMAGE=$WK_NAME
		WK_RELEASE=$(file -bL "$WK_IMAGE" 2>/dev/null |
			sed -n 's/.*version \([^ ]*\) .*/\1/p')
		# The tree the image was built in (<tree>/arch/<arch>/boot/
		# bzImage), else the installed kernel's.
		dir=${WK_IMAGE%/arch/*/boot/*}
		if [ "$dir" != "$WK_IMAGE" ] && [ -f "$dir/Makefile" ] &&
		   [ -f "$dir/Module.symvers" -o -f "$dir/.config" ]; then
			WK_KDIR=$(cd "$dir" && pwd)
		else
			WK_KDIR=/lib/modules/$WK_RELEASE/build
		fi
		[ -f "$WK_IMAGE" ] || WK_MISSING="no kernel image at '$WK_IMAGE'"
		;;
	esac
}

# wl_kernel_fetch NAME: obtain what NAME needs short of a build: an
# image's packages, a built kernel's Debian source.
wl_kernel_fetch() {
	wl_kernel "$1"
	case $WK_KIND in
	image) wl_image_fetch "$WK_NAME" ;;
	patched|base|debug) wl_source_fetch "$WK_BASE" ;;
	esac
}
