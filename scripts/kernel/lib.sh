# SPDX-License-Identifier: GPL-2.0
#
# What scripts/kernel/build and scripts/kernel/check-series share: the
# repository that holds Debian's source as its base commit, the series in
# patches/, the build environment (ccache, fixed identity) and configuring
# a build directory from "make tinyconfig" plus a fragment, every line of
# which must survive Kconfig.  Sourced after scripts/lib.sh, never executed.

WL_KROOT=$WL_CACHE/kernel
WL_KREPO=$WL_KROOT/src		# git repository, HEAD = base + series
WL_PATCHDIR=$WL_TOP/patches
WL_FRAGMENT=$WL_TOP/scripts/kernel/wakelab.config
WL_BASE_TAG=wakelab-base
WL_GIT_ID=(-c user.name="wakelab developers" -c user.email="dev@wakelab.invalid"
	   -c core.autocrlf=false -c gc.auto=0 -c advice.detachedHead=false)

export CCACHE_DIR=${CCACHE_DIR:-$WL_CACHE/ccache}
export CCACHE_BASEDIR=$WL_KROOT
export CCACHE_NOHASHDIR=1
export LOCALVERSION=		# set and empty: no "+" from setlocalversion
export KBUILD_BUILD_USER=wakelab KBUILD_BUILD_HOST=wakelab
export LC_ALL=C

# Ccache through its compiler links: CC stays "gcc", so modules built later
# against these trees without ccache see the same compiler.
wl_use_ccache() {
	if [ -x /usr/lib/ccache/gcc ]; then
		export PATH=/usr/lib/ccache:$PATH
	else
		wl_info "ccache not found: building without it"
	fi
}

# The patch files patches/series lists, in order, one path a line.
wl_series_files() {
	local f
	[ -f "$WL_PATCHDIR/series" ] || return 0
	while read -r f _; do
		case $f in ''|'#'*) continue ;; esac
		[ -f "$WL_PATCHDIR/$f" ] || wl_die "patches/series names missing $f"
		echo "$WL_PATCHDIR/$f"
	done < "$WL_PATCHDIR/series"
}

# wl_kmake SRC BUILD MAKE-ARGS...: kbuild of SRC out of tree in BUILD.
wl_kmake() {
	local src=$1 build=$2
	shift 2
	nice -n "${WL_NICE:-10}" make -C "$src" O="$build" "$@"
}

# wl_check_config BUILD FRAGMENT: every line of FRAGMENT is in BUILD/.config
# as written.
wl_check_config() {
	local line opt want got bad=0
	while read -r line; do
		case $line in
		CONFIG_*=*) opt=${line%%=*}; want=$line ;;
		'# CONFIG_'*' is not set') opt=${line#\# }; opt=${opt%% *}
			want="# $opt is not set" ;;
		*) continue ;;
		esac
		got=$(grep -E "^(# )?$opt[= ]" "$1/.config" || true)
		if [ "$got" != "$want" ]; then
			echo "${0##*/}: error: fragment asks '$want', .config has '${got:-nothing}'" >&2
			bad=1
		fi
	done < "$2"
	return $bad
}

# wl_configure SRC BUILD FRAGMENT HASH: configure BUILD from tinyconfig plus
# FRAGMENT unless it was configured for HASH already; either way, check
# that FRAGMENT survived.
wl_configure() {
	local src=$1 build=$2 fragment=$3 hash=$4
	mkdir -p "$build"
	if [ ! -f "$build/.config" ] ||
	   [ "$(cat "$build/.wakelab-config" 2>/dev/null)" != "$hash" ]; then
		wl_info "configuring $build: tinyconfig + ${fragment#"$WL_TOP"/}"
		rm -f "$build/.wakelab-config"
		wl_kmake "$src" "$build" -s tinyconfig >/dev/null
		(cd "$build" && "$src/scripts/kconfig/merge_config.sh" -m -O "$build" \
			"$build/.config" "$fragment" >/dev/null)
		wl_kmake "$src" "$build" -s olddefconfig >/dev/null 2>&1
		wl_check_config "$build" "$fragment" ||
			wl_die "${fragment#"$WL_TOP"/} does not survive Kconfig (see above)"
		echo "$hash" > "$build/.wakelab-config"
	else
		wl_check_config "$build" "$fragment" ||
			wl_die "$build/.config lost options of ${fragment#"$WL_TOP"/}"
	fi
}
