# SPDX-License-Identifier: GPL-2.0
#
# The kernel table (scripts/kernels) and how each kind of kernel is
# obtained: where it lives in the cache, how Debian's packages for it are
# found and extracted, which build directory a module is built against.
# Sourced by scripts/lib.sh, never executed.

WL_KTABLE=$WL_TOP/scripts/kernels

# wl_ktable: the table's kernel rows, comments and aliases left out.
wl_ktable() {
	awk '!/^#/ && NF >= 7 && $1 != "alias"' "$WL_KTABLE"
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
# WK_BASE, WK_PKG, WK_MODE, WK_CHECK and WK_SUITE; an unknown name is an
# error that lists the known ones.  A path to a kernel image is kind "file".
wl_kernel() {
	local name=$1 row
	name=$(awk -v n="$name" '$1 == "alias" && $2 == n { print $3 }' "$WL_KTABLE")
	[ -n "$name" ] || name=$1
	row=$(wl_ktable | awk -v n="$name" '$1 == n')
	if [ -z "$row" ]; then
		case $1 in
		*/*)
			WK_NAME=$1 WK_KIND=file WK_BASE=- WK_PKG=- WK_MODE=- WK_CHECK=no
			WK_SUITE=-
			return 0 ;;
		esac
		wl_die "unknown kernel '$1': one of $(wl_kernel_names | tr '\n' ' ')(or an alias: $(awk '$1 == "alias" { printf "%s ", $2 }' "$WL_KTABLE")), or a path to a bzImage"
	fi
	read -r WK_NAME WK_KIND WK_BASE WK_PKG WK_MODE WK_CHECK WK_SUITE <<<"$row"
}

# --- Debian's suites ------------------------------------------------------------

# The Debian archive the host's apt already uses (its first Debian
# "Packages" index), for suites the host's sources do not list.
wl_debian_mirror() {
	local uri
	uri=$(apt-get indextargets --format '$(REPO_URI)' 'Origin: Debian' \
		'Label: Debian' 'Identifier: Packages' 2>/dev/null | head -n 1)
	[ -n "$uri" ] ||
		wl_die "the host's apt lists no Debian archive: cannot reach Debian's other suites (run 'apt-get update')"
	echo "${uri%/}"
}

# Private apt state for SUITE: .cache/apt/SUITE/{sources.list,lists}.
wl_apt_dir() {
	echo "$WL_CACHE/apt/$1"
}

# wl_apt_opts SUITE: the apt options that reach SUITE (a Debian suite such
# as trixie-backports, with its release's main suite beside it) through a
# sources.list and lists of its own under wl_apt_dir: the host's sources
# are never edited.  Nothing for "-", the host's own sources.
wl_apt_opts() {
	local d
	[ "$1" != - ] || return 0
	d=$(wl_apt_dir "$1")
	printf '%s\n' -o "Dir::Etc::sourcelist=$d/sources.list" \
		-o "Dir::Etc::sourceparts=-" -o "Dir::State::Lists=$d/lists" \
		-o "Dir::Cache=$d/cache" -o "APT::Get::List-Cleanup=0"
}

# wl_apt_update SUITE: make SUITE's sources.list and refresh its lists when
# they are missing or older than a day.  Idempotent; no root needed.
# SUITE+COMPONENT... (e.g. bookworm+non-free, the netperf engine's) is
# SUITE with those components beside main, in lists of its own.
wl_apt_update() {
	local suite=$1 d rel mirror stamp opts comps=main
	[ "$suite" != - ] || return 0
	d=$(wl_apt_dir "$suite")
	stamp=$d/lists/.wakelab-updated
	[ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ] || return 0
	case $suite in
	*+*) comps="main $(echo "${suite#*+}" | tr + ' ')" ;;
	esac
	local dist=${suite%%+*}
	rel=${dist%%-*}
	mirror=$(wl_debian_mirror)
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	{
		echo "# $suite for wakelab (scripts/kernels.sh): the host's sources are not touched"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $rel $comps"
		[ "$rel" = "$dist" ] ||
			echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $dist $comps"
	} > "$d/sources.list"
	mapfile -t opts < <(wl_apt_opts "$suite")
	wl_info "updating the package lists of $suite (${d#"$WL_TOP"/})"
	apt-get "${opts[@]}" update -qq >/dev/null 2>"$d/update.log" ||
		{ cat "$d/update.log" >&2; wl_die "apt-get update of $suite failed"; }
	touch "$stamp"
}

# wl_suite_in SUITE [WORD]: " in SUITE" (or " WORD SUITE") for messages;
# nothing for the host's own sources.
wl_suite_in() {
	[ "$1" = - ] || echo " ${2:-in} $1"
}

# wl_apt_get SUITE ARGS... / wl_apt_cache SUITE ARGS...: apt-get or
# apt-cache over SUITE's lists (the host's for "-").
wl_apt_get() {
	local opts=()
	mapfile -t opts < <(wl_apt_opts "$1")
	shift
	apt-get ${opts[@]+"${opts[@]}"} "$@"
}

wl_apt_cache() {
	local opts=()
	mapfile -t opts < <(wl_apt_opts "$1")
	shift
	apt-cache ${opts[@]+"${opts[@]}"} "$@"
}

# --- Debian's source packages -----------------------------------------------

# Extracted linux-source-BASE tree.
wl_source_dir() {
	echo "$WL_CACHE/linux-source-$1"
}

# wl_base_suite BASE: the Debian suite the table's BASE kernels come from
# ("-": the host's own sources).
wl_base_suite() {
	local s
	s=$(wl_ktable | awk -v b="$1" '$3 == b { print $7; exit }')
	echo "${s:--}"
}

# The Debian version of linux-source-BASE as unpacked, or nothing.
wl_source_version() {
	sed -n 1p "$(wl_source_dir "$1")/.wakelab-extracted" 2>/dev/null
}

# wl_source_fetch BASE: download linux-source-BASE (the newest its suite
# serves) into .cache/dl and unpack its tarball into wl_source_dir;
# nothing is installed.  Idempotent: a tree unpacked from the version
# already downloaded is kept.
wl_source_fetch() {
	local base=$1 pkg=linux-source-$1 suite dir deb ver tmp stamp
	suite=$(wl_base_suite "$base")
	dir=$(wl_source_dir "$base")
	stamp=$dir/.wakelab-extracted
	deb=$(ls "$WL_CACHE/dl/${pkg}"_*.deb 2>/dev/null | sort -V | tail -n 1 || true)
	if [ -z "$deb" ]; then
		wl_apt_update "$suite"
		wl_apt_cache "$suite" policy "$pkg" 2>/dev/null | grep 'Candidate: [0-9]' >/dev/null ||
			wl_die "Debian serves no $pkg here (apt-cache policy $pkg has no candidate$(wl_suite_in "$suite")): the table's $base kernels cannot be built"
		wl_fetch_deb "$WL_CACHE/dl" "$pkg" "$suite"
		deb=$(ls "$WL_CACHE/dl/${pkg}"_*.deb | sort -V | tail -n 1)
	fi
	ver=$(dpkg-deb -f "$deb" Version)
	[ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "$ver" ] && return 0
	wl_info "unpacking $pkg $ver"
	tmp=$dir.tmp
	rm -rf "$dir" "$tmp"
	mkdir -p "$tmp/deb" "$tmp/tree"
	dpkg-deb -x "$deb" "$tmp/deb"
	[ -f "$tmp/deb/usr/src/$pkg.tar.xz" ] ||
		wl_die "$deb holds no usr/src/$pkg.tar.xz"
	tar -C "$tmp/tree" --strip-components=1 -xJf "$tmp/deb/usr/src/$pkg.tar.xz"
	echo "$ver" > "$tmp/tree/.wakelab-extracted"
	mv "$tmp/tree" "$dir"
	rm -rf "$tmp"
}

# --- Debian's binary images ----------------------------------------------------

# wl_image_abi NAME: the ABI of image kernel NAME (what lies between
# "linux-image-" and "-unsigned", or the end, in its package's name): the
# newest its suite serves, else the newest already extracted.
wl_image_abi() {
	local re abi
	wl_kernel "$1"
	[ "$WK_KIND" = image ] || wl_die "$WK_NAME is not a Debian image"
	re="^${WK_PKG}\$"
	[ -d "$(wl_apt_dir "$WK_SUITE")/lists" ] || wl_apt_update "$WK_SUITE"
	abi=$(wl_apt_cache "$WK_SUITE" pkgnames linux-image- 2>/dev/null |
		grep -E "$re" | sort -V | tail -n 1)
	if [ -z "$abi" ]; then
		abi=$(find "$WL_CACHE/stock" -maxdepth 3 -path '*/boot/vmlinuz-*' \
			2>/dev/null | sed 's|.*/boot/vmlinuz-||' |
			sed 's/^/linux-image-/; p; s/$/-unsigned/' | grep -E "$re" |
			sort -V | tail -n 1)
		[ -n "$abi" ] ||
			wl_die "Debian serves no package matching '$WK_PKG'$(wl_suite_in "$WK_SUITE") ($WK_NAME in scripts/kernels), and none is extracted: is apt's list current (apt-get update)?"
	fi
	abi=${abi#linux-image-}
	echo "${abi%-unsigned}"
}

# Extracted root of an image kernel's packages, by ABI.
wl_image_root() {
	echo "$WL_CACHE/stock/$1"
}

# wl_image_fetch NAME: download NAME's image and headers (with their
# -common and linux-kbuild dependencies, and for an image split into
# linux-base/-binary/-modules packages, those) from its suite and extract
# them into wl_image_root; a merged-/usr image gets the /boot and /lib
# links of an installed one; the headers' Makefile is pointed at the
# extracted -common tree, and vmlinux.btf (an ELF holding only the
# kernel's .BTF) is made for module builds.  Idempotent; no root needed.
wl_image_fetch() {
	local abi root dl tmp p pkgs deps f vml img suite
	abi=$(wl_image_abi "$1")
	suite=$WK_SUITE
	root=$(wl_image_root "$abi")
	[ -f "$root/.wakelab-extracted" ] && return 0
	wl_apt_update "$suite"
	dl=$WL_CACHE/dl
	mkdir -p "$dl"
	img=linux-image-$abi-unsigned
	grep -Eq "^${WK_PKG}\$" <<<"$img" || img=linux-image-$abi
	pkgs=("$img" "linux-headers-$abi")
	for p in "${pkgs[@]}"; do
		wl_fetch_deb "$dl" "$p" "$suite"
	done
	# The image's own parts, and the headers' -common (or -common-rt)
	# and linux-kbuild, as the packages name them.
	deps=$( { dpkg-deb -f "$(ls "$dl"/"${img}"_*.deb | sort -V | tail -n 1)" Depends |
		tr ',' '\n' | grep -oE "linux-(base|binary|modules)-$(sed 's/[.+]/\\&/g' <<<"$abi")( |$)" || true
		dpkg-deb -f "$(ls "$dl"/"linux-headers-${abi}"_*.deb | sort -V | tail -n 1)" Depends |
		tr ',' '\n' | grep -oE 'linux-(headers-[^ ]*-common(-rt)?|kbuild-[^ ]*)' || true
		} | tr -d ' ')
	for p in $deps; do
		wl_fetch_deb "$dl" "$p" "$suite"
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
	# Merged /usr (the image in /usr/lib/modules/<ABI>/vmlinuz): the
	# links an installed system has.
	if [ -f "$tmp/usr/lib/modules/$abi/vmlinuz" ]; then
		[ -e "$tmp/lib" ] || ln -s usr/lib "$tmp/lib"
		mkdir -p "$tmp/boot"
		for f in vmlinuz System.map config; do
			[ ! -e "$tmp/usr/lib/modules/$abi/$f" ] ||
				ln -sf "../usr/lib/modules/$abi/$f" "$tmp/boot/$f-$abi"
		done
	fi
	[ -e "$tmp/boot/vmlinuz-$abi" ] || wl_die "$img has no kernel image"
	f=$tmp/usr/src/linux-headers-$abi/Makefile
	[ -f "$f" ] || wl_die "linux-headers-$abi has no Makefile"
	sed -i -e "s|^include /usr/src/|include $root/usr/src/|" \
	       -e "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$root/usr/src/|" "$f"
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
		wl_die "depmod on the extracted $img failed"
	touch "$tmp/.wakelab-extracted"
	rm -rf "$root"
	mv "$tmp" "$root"
}

# wl_fetch_deb DIR PACKAGE [SUITE]: PACKAGE's .deb in DIR, downloaded from
# SUITE (default: the host's sources) when missing.
wl_fetch_deb() {
	local dl=$1 p=$2 suite=${3:--}
	ls "$dl"/"${p}"_*.deb >/dev/null 2>&1 && return 0
	mkdir -p "$dl"
	wl_info "downloading $p$(wl_suite_in "$suite" from)"
	(cd "$dl" && wl_apt_get "$suite" download -q "$p" 2>&1 |
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
# image's packages and its base's Debian source (the module's build reads
# the private WF_* flags from it), a built kernel's Debian source.
wl_kernel_fetch() {
	wl_kernel "$1"
	case $WK_KIND in
	image) wl_image_fetch "$WK_NAME"; wl_source_fetch "$WK_BASE" ;;
	patched|base|debug) wl_source_fetch "$WK_BASE" ;;
	esac
}
