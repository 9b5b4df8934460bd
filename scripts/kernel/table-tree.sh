# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
#
# scripts/kernel/build for a kernel of scripts/kernels: Debian's
# linux-source-<base> in a git repository whose first commit is the
# untouched tree, the series applied on top (patched, debug) or a worktree
# of the base commit (base).  Sets SRC, BUILD, FRAGMENT, the input and
# configuration hashes, STAMP, LOG and what; exits when the build is up to
# date or with --prepare.  Sourced by scripts/kernel/build after its
# options are parsed; never executed.

wl_kernel "$kernel"
case $WK_KIND in
patched|base|debug) ;;
*) wl_usage_error "--kernel $kernel: $WK_NAME is not built from source (a Debian image is fetched, not built)" ;;
esac
wl_kbase "$WK_BASE"
patched=1
[ "$WK_KIND" != base ] || patched=
BUILD=$(wl_kbuild_dir "$WK_KIND" "$WK_BASE")
what="$WK_NAME kernel"
if [ -n "$print_dir" ]; then
	echo "$BUILD"
	exit 0
fi
if [ "$WK_KIND" = base ]; then
	SRC=$WL_KROOT/base-src		# worktree of $REPO at the base commit
else
	SRC=$WL_KREPO
fi
REPO=$WL_KREPO
steps_file=$WL_KROOT/steps-$WK_KIND
LOG=$BUILD.log

mkdir -p "$WL_KROOT"
# One build of a kernel at a time (make check-debug may find one running).
exec 9> "$BUILD.lock"
if ! flock -n 9; then
	wl_info "another build of $WK_NAME is running: waiting for it"
	flock 9
fi
# The fragment: wakelab.config, then the table's fragments over it.
FRAGMENT=$(wl_table_fragment "$BUILD.config-fragment")

# --- inputs ----------------------------------------------------------------

# Debian's source, installed and unpacked on first use.
src_version() {
	wl_source_fetch "$WK_BASE" >&2
	echo "linux-source-$WK_BASE $(wl_source_version "$WK_BASE")"
}

mapfile -t PATCHES < <(wl_series_files)
[ -n "$patched" ] || PATCHES=()
[ -z "$patched" ] || [ ${#PATCHES[@]} -gt 0 ] ||
	wl_die "$WK_NAME: ${WL_PATCHDIR#"$WL_TOP"/}/series lists no patch"

SRCVER=$(src_version)
CCVER=$(gcc --version | head -n 1)
series_hash=$(cat /dev/null "${PATCHES[@]}" | sha256sum | cut -c1-16)
input_hash=$( {
	echo "$SRCVER"; echo "$CCVER"; echo "patched=$patched"
	cat "$0" "$WL_TOP/scripts/kernel/lib.sh" "$WL_TOP/scripts/kernel/table-tree.sh" \
		"$FRAGMENT"
	cat /dev/null "${PATCHES[@]}"
} | sha256sum | cut -c1-16)
config_hash=$( { echo "$SRCVER"; cat "$FRAGMENT"; } | sha256sum | cut -c1-16)
STAMP=$BUILD/.wakelab-stamp

[ -n "$prepare" ] || exit_if_up_to_date

# --- base repository -------------------------------------------------------

# The base commit is made with a fixed identity, date and message, so the
# same Debian source gives the same commit id everywhere (the cover letter's
# base-commit).
base_commit() {
	local tree
	tree=$(git -C "$1" write-tree)
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" \
	GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git -C "$1" "${WL_GIT_ID[@]}" commit-tree "$tree" \
		-m "Debian $SRCVER" \
		-m "Untouched copy of Debian's $SRCVER source tree."
}

make_base_repo() {
	local tmp=$REPO.tmp from
	from=$(wl_source_dir "$WK_BASE")
	rm -rf "$tmp"
	wl_info "copying $from"
	cp -a "$from" "$tmp"
	rm -f "$tmp/.wakelab-extracted"
	wl_info "recording the base commit ($SRCVER; this takes a minute)"
	git -C "$tmp" "${WL_GIT_ID[@]}" init -q -b wakelab
	git -C "$tmp" config gc.auto 0
	git -C "$tmp" "${WL_GIT_ID[@]}" add -A -f .
	git -C "$tmp" tag "$WL_BASE_TAG" "$(base_commit "$tmp")"
	git -C "$tmp" update-ref HEAD "$WL_BASE_TAG^{commit}"
	echo "$SRCVER" > "$tmp/.git/wakelab-source"
	rm -rf "$REPO"
	mv "$tmp" "$REPO"
	git -C "$REPO" worktree prune
}

if [ ! -f "$REPO/.git/wakelab-source" ] ||
   [ "$(cat "$REPO/.git/wakelab-source")" != "$SRCVER" ]; then
	rm -rf "$WL_KROOT/base-src" "$WL_KROOT/check"
	make_base_repo
fi
wl_info "base: $SRCVER, commit $(git -C "$REPO" rev-parse --short=12 "$WL_BASE_TAG")"

# --- apply the series ------------------------------------------------------

# Turn the series into commits on top of the base the way "git am" does
# (git mailinfo + git apply), but in a private index, without touching the
# work tree; then move the work tree from its current state to the result,
# which rewrites only the files whose content differs, so that a changelog
# edit or a one-patch change does not make kbuild rebuild everything that
# includes a patched header.  Prints the new head commit.
commit_series() {
	local idx=$REPO/.git/wakelab-index tmp head f name email date subj
	tmp=$(mktemp -d)
	head=$(git -C "$REPO" rev-parse "$WL_BASE_TAG^{commit}")
	rm -f "$idx"
	GIT_INDEX_FILE=$idx git -C "$REPO" read-tree "$head"
	for f in ${PATCHES[@]+"${PATCHES[@]}"}; do
		git -C "$REPO" mailinfo "$tmp/msg" "$tmp/patch" < "$f" > "$tmp/info"
		if ! GIT_INDEX_FILE=$idx git -C "$REPO" apply --cached "$tmp/patch"; then
			rm -rf "$tmp" "$idx"
			wl_die "${f##*/} does not apply to $WL_BASE_TAG"
		fi
		name=$(sed -n 's/^Author: //p' "$tmp/info")
		email=$(sed -n 's/^Email: //p' "$tmp/info")
		date=$(sed -n 's/^Date: //p' "$tmp/info")
		subj=$(sed -n 's/^Subject: //p' "$tmp/info")
		head=$( { echo "$subj"; echo; cat "$tmp/msg"; } |
			GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
			GIT_AUTHOR_DATE=$date GIT_COMMITTER_NAME=$name \
			GIT_COMMITTER_EMAIL=$email GIT_COMMITTER_DATE=$date \
			git -C "$REPO" commit-tree \
			"$(GIT_INDEX_FILE=$idx git -C "$REPO" write-tree)" -p "$head")
	done
	rm -rf "$tmp" "$idx"
	echo "$head"
}

if [ -n "$patched" ]; then
	applied=$(cat "$REPO/.git/wakelab-series" 2>/dev/null || true)
	if [ "$applied" != "$series_hash" ] ||
	   [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no)" ]; then
		rm -f "$REPO/.git/wakelab-series"
		[ ${#PATCHES[@]} -eq 0 ] ||
			wl_info "applying ${#PATCHES[@]} patches"
		new=$(commit_series)
		git -C "$REPO" am --abort >/dev/null 2>&1 || true
		git -C "$REPO" reset -q --hard
		git -C "$REPO" read-tree -m -u HEAD "$new"
		git -C "$REPO" update-ref --no-deref HEAD "$new"
		echo "$series_hash" > "$REPO/.git/wakelab-series"
	fi
	git -C "$REPO" log --oneline "$WL_BASE_TAG..HEAD" | sed 's/^/  /' >&2
else
	if [ ! -f "$SRC/Makefile" ]; then
		wl_info "checking out the base in $SRC"
		rm -rf "$SRC"
		git -C "$REPO" worktree prune
		git -C "$REPO" worktree add -q --detach "$SRC" "$WL_BASE_TAG"
	fi
fi

[ -z "$prepare" ] || exit 0
