# SPDX-License-Identifier: GPL-2.0
#
# What scripts/kernel/build and scripts/kernel/check-series share: per
# base (a kernel series of scripts/kernels), the repository that holds
# Debian's source as its base commit and the series in patches/<base>/;
# the build environment (ccache, fixed identity) and configuring a build
# directory from "make tinyconfig" plus fragments, every line of which must
# survive Kconfig.  Sourced after scripts/lib.sh, never executed.

WL_FRAGMENT=$WL_TOP/scripts/kernel/wakelab.config
WL_BASE_TAG=wakelab-base
WL_GIT_ID=(-c user.name="wakelab developers" -c user.email="dev@wakelab.invalid"
	   -c core.autocrlf=false -c gc.auto=0 -c advice.detachedHead=false)

# The compiler cache lives outside the clone, so a fresh clone on the same
# machine builds its kernels warm.
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/wakelab/ccache}
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

# wl_kbase BASE: set the per-base paths: WL_KROOT (.cache/kernel/BASE),
# WL_KREPO (its git repository: HEAD = base commit + series) and
# WL_PATCHDIR (patches/BASE).
wl_kbase() {
	WL_KROOT=$WL_CACHE/kernel/$1
	WL_KREPO=$WL_KROOT/src
	WL_PATCHDIR=$WL_TOP/patches/$1
	export CCACHE_BASEDIR=$WL_KROOT
}

# The patch files patches/<base>/series lists, in order, one path a line.
wl_series_files() {
	local f
	[ -f "$WL_PATCHDIR/series" ] || return 0
	while read -r f _; do
		case $f in ''|'#'*) continue ;; esac
		[ -f "$WL_PATCHDIR/$f" ] ||
			wl_die "${WL_PATCHDIR#"$WL_TOP"/}/series names missing $f"
		echo "$WL_PATCHDIR/$f"
	done < "$WL_PATCHDIR/series"
}

# wl_merge_fragments OUT FRAGMENT...: OUT = the fragments merged in order,
# each one's options (set or unset) replacing the earlier ones'.  OUT is
# rewritten only when its content changes.
wl_merge_fragments() {
	local out=$1 f opts
	shift
	: > "$out.new"
	for f in "$@"; do
		opts=$(sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' \
			      -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' "$f")
		if [ -n "$opts" ]; then
			grep -v -w -F -f <(printf '%s\n' "$opts") "$out.new" > "$out.tmp" || true
			mv "$out.tmp" "$out.new"
		fi
		{ echo "# --- ${f#"$WL_TOP"/}"; grep -v '^# ---' "$f"; } >> "$out.new"
	done
	if cmp -s "$out.new" "$out"; then
		rm -f "$out.new"
	else
		mv "$out.new" "$out"
	fi
}

# wl_table_fragment OUT: the configuration fragment of the table's kernel
# WK_NAME (wl_kernel): wakelab.config alone, or with the fragments its
# package column names (scripts/kernel/<f>.config) merged over it in
# order into OUT; prints the fragment's path.
wl_table_fragment() {
	local out=$1 f frags=("$WL_FRAGMENT")
	if [ "$WK_PKG" = - ]; then
		echo "$WL_FRAGMENT"
		return
	fi
	for f in ${WK_PKG//,/ }; do
		[ -f "$WL_TOP/scripts/kernel/$f.config" ] ||
			wl_die "scripts/kernels: $WK_NAME names scripts/kernel/$f.config, which does not exist"
		frags+=("$WL_TOP/scripts/kernel/$f.config")
	done
	wl_merge_fragments "$out" "${frags[@]}"
	echo "$out"
}

# wl_tree_kernel VERSION: the patched kernel of the table whose
# configuration (wakelab.config and its fragments) fits a tree of VERSION
# (x.y[.z]): that of base x.y, else that of the newest base of major x,
# else nothing (wakelab.config alone).
wl_tree_kernel() {
	local mm maj
	mm=$(cut -d. -f1,2 <<<"$1")
	maj=${1%%.*}
	wl_ktable | awk -v b="$mm" -v m="$maj" '
		$2 != "patched" { next }
		$3 == b { exact = $1 }
		{ split($3, v, ".")
		  if (v[1] == m && (best == "" || v[2] + 0 > bv)) { best = $1; bv = v[2] + 0 } }
		END { print exact != "" ? exact : best }'
}

# wl_kmake SRC BUILD MAKE-ARGS...: kbuild of SRC out of tree in BUILD.
wl_kmake() {
	local src=$1 build=$2
	shift 2
	nice -n "${WL_NICE:-10}" make -C "$src" O="$build" "$@"
}

# wl_check_config BUILD FRAGMENT: every line of FRAGMENT is in BUILD/.config
# as written ("is not set" is also met by an option .config does not
# list).
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
		# An option Kconfig does not show (or the tree lacks) is unset.
		[ -n "$got" ] || [ "$want" != "# $opt is not set" ] || continue
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

# wl_configure_file SRC BUILD CONFIG HASH: configure BUILD from the user's
# .config CONFIG (olddefconfig answers what the tree asks anew) unless it
# was configured for HASH already.
wl_configure_file() {
	local src=$1 build=$2 config=$3 hash=$4
	mkdir -p "$build"
	[ ! -f "$build/.config" ] ||
		[ "$(cat "$build/.wakelab-config" 2>/dev/null)" != "$hash" ] || return 0
	wl_info "configuring $build from $config (olddefconfig)"
	rm -f "$build/.wakelab-config"
	cp "$config" "$build/.config"
	wl_kmake "$src" "$build" -s olddefconfig >/dev/null 2>&1 ||
		wl_die "make olddefconfig failed on $config"
	echo "$hash" > "$build/.wakelab-config"
}
