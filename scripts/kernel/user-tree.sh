# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
#
# scripts/kernel/build --ksrc DIR [--series BASE]: a user's kernel tree,
# configured as the table's patched kernel of its version (wl_tree_kernel:
# tinyconfig + wakelab.config and that kernel's fragments, v7.config on
# 7.x).  DIR is only read.  Without a series kbuild builds it out of tree; with
# one, DIR's files are copied into .cache/kernel/user-<id>/src (a git
# tree: its tracked and untracked-but-not-ignored files, as they are in
# the work tree; a plain tree: everything) by content, so unchanged files
# keep their objects, and patches/BASE/ is applied there with git apply,
# one patch at a time; a patch that does not apply stops the build with
# its name and git's reason.  Sets SRC, BUILD, FRAGMENT, the hashes, STAMP,
# LOG and what.  Sourced by scripts/kernel/build after its options are
# parsed; never executed.

[ -d "$ksrc" ] || wl_die "KSRC '$ksrc' is not a directory"
if [ -n "$kconfig" ]; then
	[ -f "$kconfig" ] && [ -r "$kconfig" ] ||
		wl_die "KCONFIG '$kconfig' is not a readable file"
	grep -q '^CONFIG_[A-Za-z0-9_]*=' "$kconfig" ||
		wl_die "KCONFIG '$kconfig' sets no CONFIG_ option: not a .config"
	kconfig=$(cd "$(dirname "$kconfig")" && pwd)/$(basename "$kconfig")
fi
ksrc=$(cd "$ksrc" && pwd)
if [ ! -f "$ksrc/kernel/sched/core.c" ] ||
   ! grep -q '^PATCHLEVEL = ' "$ksrc/Makefile" 2>/dev/null; then
	wl_die "KSRC '$ksrc' is not a Linux source tree (no Makefile with PATCHLEVEL, no kernel/sched/core.c)"
fi
kver=$(awk '/^VERSION = /{v=$3} /^PATCHLEVEL = /{p=$3} /^SUBLEVEL = /{s=$3}
	END { printf "%s.%s.%s", v, p, s }' "$ksrc/Makefile")
if [ -n "$series" ]; then
	wl_ktable | awk -v b="$series" '$3 == b { f = 1 } END { exit !f }' ||
		wl_die "--series $series: no such series (patches/: $(cd "$WL_TOP/patches" && echo */ | tr -d /))"
	wl_kbase "$series"
	mapfile -t PATCHES < <(wl_series_files)
	[ ${#PATCHES[@]} -gt 0 ] || wl_die "patches/$series/series lists no patch"
fi
id=$(printf '%s\n%s\n' "$ksrc" "$series" | sha256sum | cut -c1-8)
WL_KROOT=$WL_CACHE/kernel/user-$(basename "$ksrc")-$id
BUILD=$WL_KROOT/build
if [ -n "$build_dir" ]; then
	# The build's logs and lock beside it; with the tree as its sibling,
	# ccache's base directory holds both, and the compiler sees the tree
	# as ../src, as in a table kernel's build (scripts/kernels.sh).
	[ -z "$series" ] ||
		wl_usage_error "--build-dir goes without --series (the series' copy of the tree would be its sibling)"
	BUILD=$(realpath -m "$build_dir")
	WL_KROOT=${BUILD%/*}
fi
if [ -n "$print_dir" ]; then
	echo "$BUILD"
	exit 0
fi
export CCACHE_BASEDIR=$WL_KROOT
mkdir -p "$WL_KROOT"
# The table's configuration for the tree's version: that of the patched
# kernel of its base, or of the newest base of its major version
# (wakelab.config and, on 7.x, v7.config), else wakelab.config alone.
tree_kernel=$(wl_tree_kernel "$kver")
if [ -n "$tree_kernel" ]; then
	wl_kernel "$tree_kernel"
	FRAGMENT=$(wl_table_fragment "$WL_KROOT/config-fragment")
else
	FRAGMENT=$WL_FRAGMENT
fi
STAMP=$BUILD/.wakelab-stamp
LOG=$WL_KROOT/build.log
steps_file=$WL_KROOT/steps
what="$ksrc ($kver${series:+ + patches/$series}, configured as ${tree_kernel:-wakelab.config alone})"
# A user's tree can change at any time: kbuild decides what to rebuild.
input_hash=$(date +%s%N | sha256sum | cut -c1-16)
if [ -n "$kconfig" ]; then
	config_hash=$( { echo "$kver"; cat "$kconfig"; } | sha256sum | cut -c1-16)
	what="$ksrc ($kver${series:+ + patches/$series}, configured from $kconfig)"
else
	config_hash=$( { echo "$kver"; cat "$FRAGMENT"; } | sha256sum | cut -c1-16)
fi

exec 9> "$WL_KROOT/lock"
if ! flock -n 9; then
	wl_info "another build of $ksrc is running: waiting for it"
	flock 9
fi

if [ -z "$series" ]; then
	SRC=$ksrc
	wl_info "building $ksrc out of tree (it is only read)"
else
	SRC=$WL_KROOT/src
	mkdir -p "$SRC"
	wl_info "copying $ksrc to ${SRC#"$WL_TOP"/} (by content) to apply patches/$series"
	if git -C "$ksrc" rev-parse --show-toplevel 2>/dev/null | grep -qx "$ksrc"; then
		git -C "$ksrc" ls-files -z -co --exclude-standard > "$WL_KROOT/files"
		rsync -rlpc --from0 --files-from="$WL_KROOT/files" "$ksrc/" "$SRC/"
		# Files the tree no longer has.
		(cd "$SRC" && find . -type f -printf '%P\0' | sort -z) |
			comm -z -23 - <(sort -z "$WL_KROOT/files") |
			(cd "$SRC" && xargs -0 -r rm -f)
	else
		rsync -rlpc --delete --exclude=/.git "$ksrc/" "$SRC/"
	fi
	# git apply as a patch program: the copy lies inside wakelab's own
	# repository, which git must not take for the patches' target.
	for f in "${PATCHES[@]}"; do
		if ! why=$(cd "$SRC" && GIT_CEILING_DIRECTORIES=$WL_KROOT \
			   git apply --check "$f" 2>&1); then
			wl_die "patches/$series/${f##*/} does not apply to $ksrc ($kver): $(head -n 3 <<<"$why" | tr '\n' ' ')"
		fi
		(cd "$SRC" && GIT_CEILING_DIRECTORIES=$WL_KROOT git apply "$f") ||
			wl_die "applying patches/$series/${f##*/} failed"
	done
	wl_info "applied ${#PATCHES[@]} patches of patches/$series"
fi
