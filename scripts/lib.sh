# SPDX-License-Identifier: GPL-2.0
#
# Common definitions for wakelab's host scripts: where the cache lives, how
# the kernel ABIs are discovered (never hard-coded), option parsing and small
# helpers for errors and progress.  Sourced, never executed.

WL_TOP=${WL_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WL_CACHE=${WL_CACHE:-$WL_TOP/.cache}

wl_die() {
	echo "${0##*/}: error: $*" >&2
	exit 2
}

wl_info() {
	echo "${0##*/}: $*" >&2
}

# wl_options, wl_usage_error, wl_posint, wl_count, wl_seconds.
# shellcheck source=scripts/options.sh
. "$WL_TOP/scripts/options.sh"

# The kernel table and how each kernel is obtained.
# shellcheck source=scripts/kernels.sh
. "$WL_TOP/scripts/kernels.sh"

# The extracted Debian source that provides the kselftest framework and
# checkpatch.pl: the one of the base of the kernel named "stock".
WL_KSRC=${WL_KSRC:-$(wl_kernel stock && wl_source_dir "$WK_BASE")}

# wl_module_vars [NAME]: the make variables `make module` builds with:
# KDIR, the tree of kernel NAME (without NAME: the running kernel's build
# tree when it has one, else the newest Debian image's, which make deps
# obtains), and for a Debian image
# WAKELAB_BTF and WAKELAB_KSRC, where module/Kbuild reads the kernel's
# private layouts from.  WL_MODULES_DIR replaces /lib/modules (tests).
wl_module_vars() {
	local run mods=${WL_MODULES_DIR:-/lib/modules}
	run=$(uname -r)
	if [ -z "${1:-}" ] && [ -e "$mods/$run/build/Makefile" ]; then
		echo "KDIR=$mods/$run/build"
		return
	fi
	wl_kernel_paths "${1:-$(wl_kernel_default image)}"
	echo "KDIR=$WK_KDIR"
	[ -z "$WK_BTF" ] || echo "WAKELAB_BTF=$WK_BTF"
	[ "$WK_KIND" != image ] || echo "WAKELAB_KSRC=$(wl_source_dir "$WK_BASE")"
	[ -z "$(wl_kernel_buildroot "$WK_NAME")" ] ||
		echo "WL_BUILDROOT=$(wl_kernel_buildroot "$WK_NAME")"
}

# wl_kernel_buildroot NAME: the Debian release whose build root
# (scripts/buildroot) builds modules for kernel NAME: that of its suite for
# a Debian image of another release than the host's, else nothing (the
# host's compiler: bookworm's images, and every kernel built here).
wl_kernel_buildroot() {
	wl_kernel "$1"
	[ "$WK_KIND" = image ] && [ "$WK_SUITE" != - ] || return 0
	echo "${WK_SUITE%%-*}"
}

# wl_kmodule_make NAME MAKE-ARGS...: make MAKE-ARGS for a module of kernel
# NAME, in its build root when it has one.
wl_kmodule_make() {
	local r
	r=$(wl_kernel_buildroot "$1")
	shift
	if [ -n "$r" ]; then
		"$WL_TOP/scripts/buildroot" --release "$r" -- make "$@"
	else
		make "$@"
	fi
}

# The programs the kselftest runner must report on every kernel: selftests/
# Makefile's TEST_GEN_PROGS and TEST_PROGS.
wl_expected_progs() {
	make -s -C "$WL_TOP/selftests" --no-print-directory -f Makefile -f - \
		wl-print-progs <<<'wl-print-progs: ; @echo $(notdir $(TEST_GEN_PROGS) $(TEST_PROGS))'
}

# wl_vm_bench NAME TIMEOUT VM-OPTION... -- GUEST-ARGS...: run
# scripts/guest/NAME in the VM (/wakelab/guest/NAME; WL_VM overrides
# scripts/vm) with GUEST-ARGS,
# quietly, and leave the lines starting "BENCH " that it writes to
# /wakelab/out/NAME.txt in $tmp/bench ($tmp: the caller's scratch
# directory).
wl_vm_bench() {
	local name=$1 timeout=$2 vmopts=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		vmopts+=("$1")
		shift
	done
	shift
	"${WL_VM:-$WL_TOP/scripts/vm}" --quiet --timeout "$timeout" \
		--out "$tmp/out" "${vmopts[@]}" -- \
		"sh /wakelab/guest/$name $(printf '%q ' "$@")" >&2 ||
		wl_die "the VM run failed"
	grep '^BENCH ' "$tmp/out/$name.txt" >"$tmp/bench" 2>/dev/null ||
		wl_die "no measurements"
}

# wl_boot_schedule SEED ROUNDS KERNEL...: the boot order of a kernel
# comparison, one kernel a line: ROUNDS rounds, each boots every kernel
# once.  The seed shuffles the kernels into a base order; even rounds run
# it forward, odd rounds backward (A B, B A: every kernel boots as often
# early as late in a pair of rounds, so drift falls on all alike), and
# each pair of rounds starts one kernel further along the base order.
# The same arguments give the same schedule.
wl_boot_schedule() {
	local seed=$1 rounds=$2
	shift 2
	# Park-Miller's generator, the same in every awk.
	awk -v seed="$seed" -v rounds="$rounds" '
	function lcg() { x = (x * 48271) % 2147483647; return x / 2147483647 }
	BEGIN {
		n = ARGC - 1
		for (i = 0; i < n; i++) k[i] = ARGV[i + 1]
		x = seed % 2147483646 + 1
		for (i = 0; i < 4; i++) lcg()
		for (i = n - 1; i > 0; i--) {
			j = int(lcg() * (i + 1)); t = k[i]; k[i] = k[j]; k[j] = t
		}
		for (r = 0; r < rounds; r++) {
			rot = int(r / 2) % n
			for (i = 0; i < n; i++) {
				pos = r % 2 ? n - 1 - i : i
				print k[(pos + rot) % n]
			}
		}
		exit
	}' "$@"
}

# wl_new_results_dir RESULTS: make and print a new directory
# RESULTS/<UTC timestamp>, with a -N suffix when one of that second exists.
wl_new_results_dir() {
	local base n=1 d
	base=$1/$(date -u +%Y%m%d-%H%M%S)
	d=$base
	mkdir -p "$1"
	until mkdir "$d" 2>/dev/null; do
		n=$((n + 1))
		d=$base-$n
	done
	echo "$d"
}

# wl_throttle N: wait until fewer than N of this shell's background jobs
# run (a pool of N: "task & wl_throttle N" in a loop, then wait).
wl_throttle() {
	while [ "$(jobs -rp | wc -l)" -ge "$1" ]; do
		wait -n || true
	done
}

# wl_own_group ARGS...: the calling script run again with ARGS as the
# leader of a process group of its own (setsid), this shell its guard:
# TERM, INT or HUP sent to this shell alone (a kill of its PID, a CI's
# timeout) becomes a TERM to the whole group, every build, git and guest
# harness the script started (TERM: a background job starts with INT
# ignored), and this shell exits 128 + the signal's number once none of
# them is left (those still running after 30 s are KILLed).  Otherwise it
# exits with the script's status.  bash runs no trap while it waits on a
# foreground child, and a child that outlives the script keeps its guests
# running and its locks held: hence the group, the background job and
# wait.  Returns only in the script run again.
wl_own_group() {
	local pid rc=0
	if [ "${WL_GROUP_OF:-}" = "$0" ]; then
		unset WL_GROUP_OF
		return 0
	fi
	# No input: none of these scripts reads any (a closed stdin would
	# otherwise fail the redirection of it).
	WL_GROUP_OF=$0 setsid "$BASH" "$0" "$@" < /dev/null &
	pid=$!
	# shellcheck disable=SC2064 # the group is known now
	trap "wl_group_stop $pid TERM 143" TERM
	# shellcheck disable=SC2064
	trap "wl_group_stop $pid INT 130" INT
	# shellcheck disable=SC2064
	trap "wl_group_stop $pid HUP 129" HUP
	wait "$pid" || rc=$?
	exit "$rc"
}

# wl_group_stop GROUP SIG STATUS: wl_own_group's trap.
wl_group_stop() {
	local i left=""
	trap '' TERM INT HUP
	kill -TERM -- -"$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
	for ((i = 0; i < 300; i++)); do
		left=$(ps -e -o pgid=,stat=,pid= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { print $3 }')
		[ -n "$left" ] || break
		sleep 0.1
	done
	if [ -n "$left" ]; then
		kill -KILL -- -"$1" 2>/dev/null || true
		echo "${0##*/}: KILLed what was still running 30 s after SIG$2: $(echo $left)" >&2
	fi
	echo "${0##*/}: stopped by SIG$2: every build, git and guest it started is stopped" >&2
	exit "$3"
}

# wl_kboot_cmd MODULE SPEC WORKLOAD INSTANCES TRIALS DURATION SEED
# STREAM_OPTS [PROFILE]: the guest command of one boot of a kernel
# comparison (compare --kernels, bisect): wakelab.ko loaded and enabled
# unless MODULE is 0, then wl_compare with the one SPEC, its results into
# /wakelab/out (with PROFILE 1, its profiles into /wakelab/out/profile).
wl_kboot_cmd() {
	local g="" o
	[ "$1" = 0 ] ||
		g="if insmod /wakelab/modules/wakelab.ko && echo 1 > /sys/kernel/debug/wakelab/enable; then :; else echo 'compare: wakelab.ko not loaded: no placement mix' >&2; fi; "
	g+="wl_compare -q -w $(printf %q "$3") -n $(printf %q "$4") -r $5 -l $6 -s $7 -O /wakelab/out"
	[ "${9:-0}" = 0 ] || g+=" --profile /wakelab/out/profile"
	g+=" $(printf %q "$2")"
	if [ -n "$8" ]; then
		g+=" --"
		for o in $8; do g+=" $(printf %q "$o")"; done
	fi
	echo "$g > /dev/null"
}

# wl_kboot DIR TIMEOUT GCMD VM-OPTION...: one boot of a kernel comparison
# (scripts/vm, or the stand-in WL_VM) running GCMD, its console.log,
# vm-exit and results.json in DIR; when no results came back, DIR/error.txt
# holds the reason.  Returns 0 when results came back.
wl_kboot() {
	local d=$1 timeout=$2 g=$3 rc why
	shift 3
	mkdir -p "$d"
	set +e
	"${WL_VM:-$WL_TOP/scripts/vm}" --quiet "$@" --timeout "$timeout" \
		--out "$d" -- "$g" > "$d/console.log" 2>&1
	rc=$?
	set -e
	echo "$rc" > "$d/vm-exit"
	[ ! -s "$d/results.json" ] || return 0
	why=$(grep -E 'wakelab-vm: FAIL|error:' "$d/console.log" | tail -n 1)
	echo "${why:-scripts/vm exit $rc, no results; see ${d#"$WL_TOP"/}/console.log}" > "$d/error.txt"
	return 1
}

# wl_perf_pick VERSION: Debian's linux-perf that make deps extracted into
# .cache/perf/ for kernel version VERSION (X.Y; '' for the newest there),
# else the nearest version there, and how to run it on this machine:
# perf_dir, perf_bin, perf_ver (the package's version), perf_root (the
# build root whose libraries it links, '' for the host's), perf_loader and
# perf_libpath (that root's loader and library directories), perf_libs
# (the files it loads, its loader among them).  Dies naming what is missing.
wl_perf_pick() {
	local d v best='' bestd='' n want list
	# No version: the newest there, as the nearest to a version beyond all.
	want=$(echo "${1:-999.0}" | awk -F. '{ print $1 * 1000 + $2 }')
	for d in "$WL_CACHE"/perf/*/; do
		d=${d%/}
		[ -x "$d/usr/bin/perf" ] && [ -s "$d/.wakelab-extracted" ] || continue
		v=${d##*/}
		n=$(echo "$v" | awk -F. -v w="$want" '{ d = $1 * 1000 + $2 - w; print d < 0 ? -d : d }')
		if [ -z "$bestd" ] || [ "$n" -lt "$bestd" ] ||
		   { [ "$n" -eq "$bestd" ] && [ "$(printf '%s\n' "$v" "${best##*/}" | sort -V | tail -n1)" = "$v" ]; }; then
			best=$d bestd=$n
		fi
	done
	[ -n "$best" ] || wl_die "no perf in ${WL_CACHE#"$WL_TOP"/}/perf/: run 'make deps' (Debian's linux-perf)"
	[ -z "$1" ] || [ "$bestd" = 0 ] ||
		wl_info "no perf $1 in ${WL_CACHE#"$WL_TOP"/}/perf/; the nearest: ${best##*/} ('make deps --kernel K' fetches a kernel's own)"
	perf_dir=$best
	perf_bin=$perf_dir/usr/bin/perf
	perf_ver=$(sed -n 1p "$perf_dir/.wakelab-extracted")
	perf_root=$(sed -n 's/^libs=//p' "$perf_dir/.wakelab-extracted")
	case $perf_root in
	host) perf_root='' ;;
	*) perf_root=$("$WL_TOP/scripts/buildroot" --release "$perf_root" --print-dir) ;;
	esac
	perf_loader=$perf_root/lib64/ld-linux-x86-64.so.2
	perf_libpath=$perf_root/lib/x86_64-linux-gnu:$perf_root/usr/lib/x86_64-linux-gnu
	[ -x "$perf_loader" ] ||
		wl_die "no loader at $perf_loader for perf $perf_ver: run 'make deps'"
	list=$("$perf_loader" --library-path "$perf_libpath" --list "$perf_bin" 2>&1) ||
		wl_die "perf $perf_ver's libraries do not resolve: $(echo "$list" | grep -m1 'not found')"
	! grep -q 'not found' <<<"$list" ||
		wl_die "perf $perf_ver needs $(grep -m1 'not found' <<<"$list" | awk '{print $1}'), missing from ${perf_root:-the host}: run 'make deps'"
	mapfile -t perf_libs < <( { echo "$perf_loader"
		awk '$2 == "=>" && $3 ~ /^\// { print $3 }' <<<"$list"; } | sort -u)
}

# wl_profile_hint WHERE DIR PERF: the lines a report ends with when it has
# raw profiles (wl_compare --profile): where they are (WHERE, a pattern),
# and the commands that read those of DIR with PERF, the perf that
# recorded them or a newer one.
wl_profile_hint() {
	cat <<EOF2

Raw profiles: $1/trial-SEQ/perf.data, SEQ a trial's seq in the
results.json beside profile/, the kernel's symbols in profile/kallsyms;
read them with the perf that recorded them (or a newer one):
  $3 report -i $2/trial-0001/perf.data --kallsyms $2/kallsyms
  $3 diff --kallsyms $2/kallsyms $2/trial-0001/perf.data $2/trial-0002/perf.data
EOF2
}
