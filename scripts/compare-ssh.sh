# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# `make compare TARGET=ssh:[user@]host[:port]`: the comparison on a test box
# over OpenSSH.  Sourced by scripts/compare (after scripts/lib.sh) for
# --target ssh:...; never executed, except by tests, as
#
#	bash scripts/compare-ssh.sh SPEC DIR [MODULE] -- WL_COMPARE_ARGS...
#
# Two functions:
#
#	wl_ssh_compare SPEC DIR [MODULE] -- WL_COMPARE_ARGS...
#	wl_ssh_features SPEC	(the box's sched/features, or nothing)
#
#   SPEC    [user@]host[:port] (the text after "ssh:"; an IPv6 address in
#           brackets, [::1]:2222)
#   DIR     the results directory, made already (results/<stamp>/): it
#           gets the box's report.txt, results.json, plot.dat, plot.gp
#           (wl_compare -O) and box.log (the box's whole log: driver and
#           guard)
#   MODULE  auto (the default): a wakelab.ko built here when a kernel of scripts/kernels
#                 has the box's `uname -r` (a Debian image extracted, a
#                 kernel built), else the module's source, which the box
#                 builds (or DKMS's wakelab, when installed there);
#           none or --no-module: no module (compare-local --no-module);
#           src:  the source, always;
#           a path to a built wakelab.ko (or --module KO).
#   WL_COMPARE_ARGS  wl_compare's arguments (without -O: the driver adds
#           it), e.g. -w tcp_stream -n 1,2 -r 2 -l 1 default NO_WA_IDLE
#
# It streams the box's output to stdout (the caller tees it into
# DIR/console.log when it wants) and returns the driver's exit status
# (compare-local's: 3 refused before changing anything, 128+N after a
# signal, ...); 2 for a bad SPEC or an unusable box (not reachable, no
# root, no tar), 255 for a connection lost mid-run (the guard on the box
# restores the settings; this function waits for it and fetches its log).
#
# The steps: parse SPEC (nothing is contacted for a bad one); probe the
# box (uname -r, the user's id, tar and mktemp; a user other than root
# needs sudo -n); stage the driver (scripts/guest/compare-local), its
# guard (scripts/guest/compare-guard), scripts/options.sh, the selftests
# built here (wl_compare, wl_stream, wl_topo: make selftests; glibc as
# new as the host's on the box) and the module or its source in a tarball,
# unpacked on the box by `tar -xf - -C` in a new mktemp directory under
# /tmp (dropbear has no scp or sftp server: only ssh and tar); run the
# guard there with the ssh channel as its stdin, held open and written to
# every 5 s (--heartbeat 60): when the connection drops, or this side is
# killed, the guard TERMs the driver, which restores, verifies and unloads,
# or after --grace KILLs it and runs compare-local --restore; fetch the
# results with `tar -cf -` into DIR; check that the box has no snapshot
# left (/run/wakelab-compare); remove the directory on the box.
#
# ssh runs with BatchMode=yes (no password prompt), ServerAliveInterval=5,
# ServerAliveCountMax=3, ConnectTimeout=10 and -T; the environment adds:
#   WAKELAB_SSH_OPTS    more ssh arguments, split on spaces (e.g.
#                       "-o StrictHostKeyChecking=accept-new -F cfg")
#   WAKELAB_SSH_KEY     an identity file (ssh -i)
#   WAKELAB_SSH_BIN     a directory of built wl_compare and wl_stream to
#                       send instead of building the selftests here
#   WAKELAB_SSH_KEEP=1  leave the directory on the box
#   WAKELAB_SSH_TMP     where on the box that directory is made (default
#                       /tmp; another for a box whose /tmp is noexec)
#   WAKELAB_SSH_HEARTBEAT  seconds of silence on the channel after which
#                       the guard takes the connection for lost (default
#                       60; the host writes every 5 s)
#   WAKELAB_SSH_PIDFILE write the run's ssh client's process id there
#                       (tests cut the connection with it)

# wl_ssh_parse SPEC: WS_USER, WS_HOST, WS_PORT (empty when not given) of
# [user@]host[:port]; a usage error for anything else.
wl_ssh_parse() {
	local spec=$1 rest
	WS_USER="" WS_HOST="" WS_PORT=""
	rest=$spec
	if [[ $rest == *@* ]]; then
		WS_USER=${rest%%@*}
		rest=${rest#*@}
		[[ $WS_USER =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]] ||
			wl_usage_error "TARGET=ssh:$spec: bad user '$WS_USER' (expected [user@]host[:port])"
	fi
	if [[ $rest =~ ^\[([0-9A-Fa-f:.]+)\](:([0-9]+))?$ ]]; then
		WS_HOST=${BASH_REMATCH[1]}
		WS_PORT=${BASH_REMATCH[3]}
	elif [[ $rest =~ ^([A-Za-z0-9][A-Za-z0-9._-]*)(:([0-9]+))?$ ]]; then
		WS_HOST=${BASH_REMATCH[1]}
		WS_PORT=${BASH_REMATCH[3]}
	else
		wl_usage_error "TARGET=ssh:$spec: bad host '${rest}' (expected [user@]host[:port], e.g. ssh:root@box:2222)"
	fi
	if [ -n "$WS_PORT" ]; then
		[[ $WS_PORT =~ ^[1-9][0-9]{0,4}$ ]] && [ "$WS_PORT" -le 65535 ] ||
			wl_usage_error "TARGET=ssh:$spec: bad port '$WS_PORT' (1-65535)"
	fi
	return 0
}

# wl_sq WORD...: the words quoted for a POSIX shell (the box's login
# shell: dash, busybox ash, bash), separated by spaces.
wl_sq() {
	local w out=""
	for w in "$@"; do
		out+=" '${w//\'/\'\\\'\'}'"
	done
	echo "${out# }"
}

# wl_ssh_box COMMAND: COMMAND run by the box's login shell.
wl_ssh_box() {
	ssh "${WS_SSH[@]}" "$WS_HOST" "$1"
}

# wl_ssh_find_kernel RELEASE: the name of the kernel of scripts/kernels
# whose release is RELEASE and whose build tree is here, or nothing.
wl_ssh_find_kernel() {
	local rel=$1 name
	while read -r name; do
		wl_kernel "$name"
		case $WK_KIND in
		image)
			[ -f "$(wl_image_root "$rel")/.wakelab-extracted" ] || continue
			grep -Eqx "$WK_PKG" <<<"linux-image-$rel" ||
				grep -Eqx "$WK_PKG" <<<"linux-image-$rel-unsigned" || continue ;;
		patched|base|debug)
			[ "$(cat "$(wl_kbuild_dir "$WK_KIND" "$WK_BASE")/include/config/kernel.release" 2>/dev/null)" = "$rel" ] ||
				continue ;;
		*) continue ;;
		esac
		echo "$name"
		return 0
	done < <(wl_kernel_names)
}

# wl_ssh_build_module NAME: build wakelab.ko for kernel NAME of
# scripts/kernels in .cache/ssh-modbuild/<release>/ as scripts/vm does
# (the sources copied by content, kbuild outputs left behind; the image's
# BTF and Debian source for the private layouts; its build root) and
# print the module's path.
wl_ssh_build_module() {
	local name=$1 out d modvars=()
	wl_kernel_paths "$name"
	[ -z "$WK_MISSING" ] || wl_die "$WK_MISSING"
	out=$WL_CACHE/ssh-modbuild/$WK_RELEASE
	[ -z "$WK_BTF" ] || modvars+=("WAKELAB_BTF=$WK_BTF")
	if [ "$WK_KIND" = image ]; then
		wl_source_fetch "$WK_BASE"
		modvars+=("WAKELAB_KSRC=$(wl_source_dir "$WK_BASE")")
	fi
	mkdir -p "$out/module" "$out/include"
	for d in module include; do
		rsync -rlpc --delete --exclude='*.o' --exclude='*.ko' \
			--exclude='.*.cmd' --exclude='*.mod*' \
			--exclude=modules.order --exclude=Module.symvers \
			--exclude=layout.h --exclude=layout_src.s \
			"$WL_TOP/$d/" "$out/$d/" >&2
		rm -f "$out/$d/modules.order"
	done
	cp "$WL_TOP/Kbuild" "$out/Kbuild"
	rm -f "$out/modules.order"
	wl_kmodule_make "$name" -s -C "$WK_KDIR" M="$out" W=1 \
		${modvars[@]+"${modvars[@]}"} modules >"$out/build.log" 2>&1 ||
		{ cat "$out/build.log" >&2; wl_die "building wakelab.ko for $WK_RELEASE ($name) failed"; }
	echo "$out/module/wakelab.ko"
}

# wl_ssh_selftests DIR: the selftests' programs the driver runs, built
# here (make selftests) unless WAKELAB_SSH_BIN names them, copied to DIR.
wl_ssh_selftests() {
	local src=${WAKELAB_SSH_BIN:-} p
	if [ -z "$src" ]; then
		make -s -C "$WL_TOP/selftests" KSRC="$WL_KSRC" wl_compare wl_stream wl_topo \
			>"$WL_CACHE/ssh-selftests.log" 2>&1 ||
			{ cat "$WL_CACHE/ssh-selftests.log" >&2; wl_die "building the selftests failed"; }
		src=$WL_TOP/selftests
	fi
	for p in wl_compare wl_stream wl_topo; do
		if [ -x "$src/$p" ]; then
			cp "$src/$p" "$1/"
		elif [ "$p" != wl_topo ]; then
			wl_die "no $p in $src"
		fi
	done
}

# wl_ssh_wait_guard: after a lost connection, connect again, wait (up to
# the guard's grace and a margin) for the guard's last line, fetch the
# box's log and whatever results there are, and say how the box was left.
wl_ssh_wait_guard() {
	local i=0 n=$((WS_GRACE + 60))
	while [ $i -lt $n ]; do
		wl_ssh_guard_end && break
		sleep 2
		i=$((i + 2))
	done
	wl_ssh_fetch || true
	if [ -f "$WS_DIR/box.log" ]; then
		echo "--- the guard on the box, after the connection was lost:"
		sed -n '/^compare-guard: connection lost/,$p' "$WS_DIR/box.log"
	else
		wl_info "the box cannot be reached again: its guard restores the settings on its own (log: $WS_RDIR/compare.log there)"
	fi
}

# wl_ssh_heartbeat: WAKELAB_SSH_HEARTBEAT (default 60), a usage error when
# it is not a number: it reaches a command run as root on the box.
wl_ssh_heartbeat() {
	local hb=${WAKELAB_SSH_HEARTBEAT:-60}
	[[ $hb =~ ^[0-9]{1,6}$ ]] ||
		wl_usage_error "WAKELAB_SSH_HEARTBEAT must be a number of seconds (0: EOF only), got '$hb'"
	echo "$hb"
}

# wl_ssh_restore_left: after a lost connection and the guard's end (or
# its wait given up), the box's /run/wakelab-compare left means a run's
# settings may still be changed (a guard that was itself killed): the
# driver's --restore there.  Status 1 when the box is not known restored.
wl_ssh_restore_left() {
	wl_ssh_box '[ ! -e /run/wakelab-compare ]' 2>/dev/null && return 0
	wl_info "ssh:$spec: the box still has /run/wakelab-compare: $sudo $WS_RDIR/wakelab/guest/compare-local --restore there"
	wl_ssh_box "$sudo sh $WS_RDIR/wakelab/guest/compare-local --restore --bin $WS_RDIR/wakelab/bin" \
		< /dev/null 2>&1 | sed 's/^/box: /' || true
	wl_ssh_box '[ ! -e /run/wakelab-compare ]' 2>/dev/null && return 0
	wl_info "error: the box could not be restored: run $sudo $WS_RDIR/wakelab/guest/compare-local --restore there"
	return 1
}

# wl_ssh_fetch: the box's results and log into DIR.
wl_ssh_fetch() {
	local t
	t=$(mktemp -d "$WS_DIR/.fetch.XXXXXX")
	if wl_ssh_box "cd $WS_RDIR && tar -cf - out compare.log" 2>/dev/null |
		tar -xf - -C "$t" 2>/dev/null; then
		[ ! -d "$t/out" ] || cp -a "$t/out/." "$WS_DIR/"
		[ ! -f "$t/compare.log" ] || cp "$t/compare.log" "$WS_DIR/box.log"
		rm -rf "$t"
		return 0
	fi
	[ ! -f "$t/compare.log" ] || cp "$t/compare.log" "$WS_DIR/box.log"
	rm -rf "$t"
	return 1
}

# wl_ssh_setup SPEC: WS_USER, WS_HOST, WS_PORT, and WS_SSH, ssh's options.
wl_ssh_setup() {
	local extra=()
	wl_ssh_parse "$1"
	WS_SSH=(-T -o BatchMode=yes -o ServerAliveInterval=5 -o ServerAliveCountMax=3
		-o ConnectTimeout=10)
	[ -z "$WS_PORT" ] || WS_SSH+=(-p "$WS_PORT")
	[ -z "$WS_USER" ] || WS_SSH+=(-l "$WS_USER")
	[ -z "${WAKELAB_SSH_KEY:-}" ] || WS_SSH+=(-i "$WAKELAB_SSH_KEY")
	read -ra extra <<<"${WAKELAB_SSH_OPTS:-}"
	WS_SSH+=(${extra[@]+"${extra[@]}"})
}

# wl_ssh_features SPEC: the box's sched/features (through sudo -n for a
# user other than root), or nothing when SPEC is bad or the box cannot
# be read (wl_ssh_compare then says why).
wl_ssh_features() {
	( wl_ssh_parse "$1" ) >/dev/null 2>&1 || return 0
	wl_ssh_setup "$1"
	wl_ssh_box 'f=/sys/kernel/debug/sched/features
		cat $f 2>/dev/null || sudo -n cat $f' 2>/dev/null || true
}

wl_ssh_compare() {
	local spec=$1 mod=auto probe uid rel sudo="" stage modopts=() k ko
	local rc=0 remote spid fpid hb sig="" traps
	WS_DIR=$2
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		case $1 in
		auto|none|src) mod=$1 ;;
		--no-module) mod=none ;;
		--module) [ $# -ge 2 ] || wl_usage_error "wl_ssh_compare: --module needs a file"
			mod=$2; shift ;;
		*) [ -f "$1" ] || wl_usage_error "wl_ssh_compare: MODULE is auto, none, src or a wakelab.ko, got '$1'"
			mod=$1 ;;
		esac
		shift
	done
	[ "${1:-}" = -- ] || wl_usage_error "wl_ssh_compare SPEC DIR [MODULE] -- WL_COMPARE_ARGS..."
	shift
	wl_ssh_setup "$spec"
	[ -d "$WS_DIR" ] || wl_die "no results directory $WS_DIR"
	WS_GRACE=60
	local heartbeat
	heartbeat=$(wl_ssh_heartbeat) || return 2

	# --- the box -------------------------------------------------------------
	# shellcheck disable=SC2016 # expanded on the box
	probe=$(wl_ssh_box 'echo "rel $(uname -r)"; echo "uid $(id -u)"
		for t in tar mktemp; do command -v $t >/dev/null 2>&1 || echo "missing $t"; done
		[ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && echo sudo; }' \
		2>"$WS_DIR/ssh-probe.err") || {
		rc=$?
		wl_info "cannot run a command on ssh:$spec (ssh exit $rc): $(grep -v '^Warning: Permanently added' "$WS_DIR/ssh-probe.err" | tail -n 3 | tr '\n' ' ')"
		rm -f "$WS_DIR/ssh-probe.err"
		return 2
	}
	rm -f "$WS_DIR/ssh-probe.err"
	rel=$(sed -n 's/^rel //p' <<<"$probe")
	uid=$(sed -n 's/^uid //p' <<<"$probe")
	[ -n "$rel" ] && [ -n "$uid" ] || { wl_info "ssh:$spec: no answer from the box's shell: '$probe'"; return 2; }
	if grep -q '^missing ' <<<"$probe"; then
		wl_info "ssh:$spec: the box lacks $(sed -n 's/^missing //p' <<<"$probe" | paste -sd' ' -) (needed to unpack and fetch)"
		return 2
	fi
	if [ "$uid" != 0 ]; then
		grep -qx sudo <<<"$probe" || {
			wl_info "ssh:$spec logs in as uid $uid, not root, and sudo -n is not allowed there: log in as root (ssh:root@$WS_HOST) or allow passwordless sudo"
			return 2
		}
		sudo="sudo -n"
	fi
	wl_info "ssh:$spec: kernel $rel, ${sudo:+uid $uid with sudo, }$( [ "$uid" = 0 ] && echo root)"

	# --- what goes there -------------------------------------------------------
	stage=$(mktemp -d "$WL_CACHE/ssh-stage.XXXXXX")
	mkdir -p "$stage/wakelab/guest" "$stage/wakelab/bin"
	cp "$WL_TOP/scripts/guest/compare-local" "$WL_TOP/scripts/guest/compare-guard" \
		"$stage/wakelab/guest/"
	chmod 755 "$stage/wakelab/guest/"*
	cp "$WL_TOP/scripts/options.sh" "$stage/wakelab/"
	wl_ssh_selftests "$stage/wakelab/bin"
	case $mod in
	none) modopts=(--no-module) ;;
	src|auto|"")
		ko=""
		if [ "$mod" != src ]; then
			k=$(wl_ssh_find_kernel "$rel")
			if [ -n "$k" ]; then
				wl_info "building wakelab.ko for $rel (kernel $k of scripts/kernels)"
				ko=$(wl_ssh_build_module "$k")
			fi
		fi
		if [ -n "$ko" ]; then
			mkdir -p "$stage/wakelab/modules"
			cp "$ko" "$stage/wakelab/modules/wakelab.ko"
			modopts=(--module @/wakelab/modules/wakelab.ko)
		else
			wl_info "no build tree here for $rel: sending the module's source (the box builds it, or uses DKMS's)"
			mkdir -p "$stage/wakelab/src"
			git -C "$WL_TOP" ls-files -co --exclude-standard -z Kbuild Makefile module include |
				(cd "$WL_TOP" && xargs -0 cp --parents -t "$stage/wakelab/src/")
			modopts=(--src @/wakelab/src)
		fi ;;
	*)
		[ -f "$mod" ] || wl_die "no module file '$mod'"
		mkdir -p "$stage/wakelab/modules"
		cp "$mod" "$stage/wakelab/modules/wakelab.ko"
		modopts=(--module @/wakelab/modules/wakelab.ko) ;;
	esac

	# shellcheck disable=SC2016 # expanded on the box
	WS_RDIR=$(tar -cf - -C "$stage" . |
		wl_ssh_box "d=\$(mktemp -d $(wl_sq "${WAKELAB_SSH_TMP:-/tmp}/wakelab-ssh.XXXXXX"))"' && tar -xf - -C "$d" && echo "$d"') &&
		[[ $WS_RDIR == /*/wakelab-ssh.* ]] && [[ $WS_RDIR != *[!A-Za-z0-9/._-]* ]] || {
		rm -rf "$stage"
		wl_info "ssh:$spec: could not unpack the driver on the box"
		return 2
	}
	rm -rf "$stage"
	modopts=("${modopts[@]/#@/$WS_RDIR}")
	wl_info "ssh:$spec: driver, guard and selftests in $WS_RDIR; running (the box's output follows)"

	# --- the run ---------------------------------------------------------------
	remote="$sudo sh $WS_RDIR/wakelab/guest/compare-guard --log $WS_RDIR/compare.log"
	remote+=" --heartbeat $(wl_sq "$heartbeat") --grace $WS_GRACE -- $WS_RDIR/wakelab/guest/compare-local"
	remote+=" --bin $WS_RDIR/wakelab/bin --out $WS_RDIR/out $(wl_sq "${modopts[@]}") -- $(wl_sq "$@")"
	# The channel stays open, with a line every 5 s, as long as ssh runs:
	# the guard's stdin.  A signal here ends ssh: the guard sees the
	# channel close and restores the box.
	exec {hb}< <(while echo alive 2>/dev/null; do sleep 5; done)
	fpid=$!
	ssh "${WS_SSH[@]}" "$WS_HOST" "$remote" <&"$hb" &
	spid=$!
	exec {hb}<&-
	[ -z "${WAKELAB_SSH_PIDFILE:-}" ] || echo "$spid" > "$WAKELAB_SSH_PIDFILE"
	traps=$(trap -p TERM INT HUP)
	trap 'sig=TERM; kill -TERM $spid 2>/dev/null' TERM
	trap 'sig=INT; kill -TERM $spid 2>/dev/null' INT
	trap 'sig=HUP; kill -TERM $spid 2>/dev/null' HUP
	while :; do
		rc=0
		wait "$spid" || rc=$?
		kill -0 "$spid" 2>/dev/null || break
	done
	kill "$fpid" 2>/dev/null || true
	trap - TERM INT HUP
	eval "$traps"

	# Lost: a signal here, ssh's own failure (255), a guard still running
	# (ssh killed) or one that saw its channel close or go silent.
	if [ -n "$sig" ] || [ "$rc" = 255 ] || ! wl_ssh_guard_end || [ "$WS_GUARD_LOST" = 1 ]; then
		wl_info "ssh:$spec: the connection ended mid-run (${sig:+SIG$sig here, }ssh exit $rc): the guard on the box restores its settings; waiting for it"
		wl_ssh_wait_guard
		wl_ssh_restore_left || WAKELAB_SSH_KEEP=1
		[ "${WAKELAB_SSH_KEEP:-0}" = 1 ] || wl_ssh_box "$sudo rm -rf $WS_RDIR" 2>/dev/null || true
		case $sig in
		TERM) return 143 ;; INT) return 130 ;; HUP) return 129 ;;
		esac
		return 255
	fi
	wl_ssh_fetch || wl_info "warning: could not fetch the results from $WS_RDIR on the box"
	if wl_ssh_box '[ ! -e /run/wakelab-compare ]' 2>/dev/null; then
		:
	else
		wl_info "error: the box still has /run/wakelab-compare (settings may be changed): $sudo $WS_RDIR/wakelab/guest/compare-local --restore there"
		WAKELAB_SSH_KEEP=1
		[ "$rc" != 0 ] || rc=1
	fi
	[ "${WAKELAB_SSH_KEEP:-0}" = 1 ] || wl_ssh_box "$sudo rm -rf $WS_RDIR" 2>/dev/null ||
		wl_info "warning: could not remove $WS_RDIR on the box"
	return "$rc"
}

# wl_ssh_guard_end: true when the guard's log says it has finished, its
# exit status then in WS_GUARD_RC; WS_GUARD_LOST=1 when the log says it
# took the connection for lost (the box unreachable counts as lost).
wl_ssh_guard_end() {
	local out
	WS_GUARD_RC="" WS_GUARD_LOST=0
	out=$(wl_ssh_box "tail -n 1 $WS_RDIR/compare.log; grep -c '^compare-guard: connection lost' $WS_RDIR/compare.log; true" \
		2>/dev/null) || { WS_GUARD_LOST=1; return 1; }
	[ "$(sed -n 2p <<<"$out")" = 0 ] || WS_GUARD_LOST=1
	WS_GUARD_RC=$(sed -n '1s/^compare-guard: done, exit \([0-9]*\)$/\1/p' <<<"$out")
	[ -n "$WS_GUARD_RC" ]
}

# Executed (tests): the function on the command line's arguments.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	# shellcheck source=scripts/lib.sh
	. "$(dirname "$0")/lib.sh"
	usage() {
		echo "usage: ${0##*/} SPEC DIR [MODULE] -- WL_COMPARE_ARGS...  (see the comment at its top)"
	}
	[ $# -ge 3 ] || wl_usage_error "too few arguments"
	rc=0
	wl_ssh_compare "$@" || rc=$?
	exit "$rc"
fi
