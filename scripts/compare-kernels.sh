# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154
#
# scripts/compare --kernels: a comparison of kernels across boots.  Sourced
# by scripts/compare once its options are parsed (kernels, boots, jobs,
# kdir, module, policies, sockets, cores, workload, instances, trials,
# duration, seed, stream_opts, results); never executed.
#
# Every kernel is resolved and checked before anything boots: a name of
# scripts/kernels (an image is fetched; a built kernel must be built), or
# a path to a bzImage whose build tree (--kdir, else the tree the image
# lies in) wakelab.ko is built against -- without one the run stops here,
# unless --no-module asks for a guest without the module.  The boots run
# in wl_boot_schedule's order, --jobs at a time, each in its own
# directory (boots/NN-KERNEL/: console.log, results.json, report.txt);
# then wl_compare --merge, built for the host, makes the report with the
# boot as the unit, and scripts/lkp-table adds the per-metric table.

read -r -a knames <<<"$kernels"
nk=${#knames[@]}
[ "$nk" -ge 2 ] || wl_usage_error "--kernels needs two or more kernels, got '$kernels'"
[ "$nk" -le 16 ] || wl_usage_error "--kernels: at most 16 kernels"
[ $((nk * boots)) -le 64 ] ||
	wl_usage_error "at most 64 boots in all ($nk kernels x $boots boots)"
[ $((boots * trials)) -le 64 ] ||
	wl_usage_error "at most 64 trials of a kernel in a cell ($boots boots x $trials trials)"

IFS=';' read -r -a specs <<<"${policies:-default}"
case ${#specs[@]} in
1) for ((i = 1; i < nk; i++)); do specs[i]=${specs[0]}; done ;;
"$nk") ;;
*) wl_usage_error "--policies: one spec for all kernels or one per kernel ($nk), got ${#specs[@]}" ;;
esac

# config_preempt CONFIG: the preemption options a .config sets, or nothing.
config_preempt() {
	[ -f "$1" ] || return 0
	sed -n 's/^CONFIG_\(PREEMPT_RT\|PREEMPT_DYNAMIC\|PREEMPT_LAZY\|PREEMPT\|PREEMPT_VOLUNTARY\|PREEMPT_NONE\)=y$/\1/p' "$1" |
		paste -sd+ -
}

# --- the kernels ----------------------------------------------------------------
labels=() kargs=() kdirs=() descs=()
for ((i = 0; i < nk; i++)); do
	k=${knames[i]}
	wl_kernel "$k"
	[ "$WK_KIND" != image ] || wl_kernel_fetch "$k"
	wl_kernel_paths "$k"
	[ -z "$WK_MISSING" ] || wl_die "$WK_MISSING"
	kd=""
	case $WK_KIND in
	image)
		label=$WK_NAME
		pkg=linux-image-$WK_RELEASE
		case $WK_PKG in *-unsigned) pkg+=-unsigned ;; esac
		desc="Debian's $pkg$(wl_suite_in "$WK_SUITE" from) and its configuration; wakelab.ko $WK_MODE mode" ;;
	patched|base|debug)
		label=$WK_NAME
		desc="built from linux-source-$WK_BASE $(wl_source_version "$WK_BASE")"
		[ "$WK_KIND" = base ] && desc+=" without the series" ||
			desc+=" + patches/$WK_BASE"
		desc+=", tinyconfig + scripts/kernel/wakelab.config"
		[ "$WK_PKG" = - ] || desc+=" + ${WK_PKG//,/.config + }.config"
		desc+="; wakelab.ko $WK_MODE mode" ;;
	file)
		label=${WK_RELEASE:-kernel}
		kd=${kdir:-$WK_KDIR}
		if [ "$module" = 1 ] && [ ! -f "$kd/Makefile" ]; then
			wl_die "$k: no kernel build tree at '$kd' to build wakelab.ko against: name it with KDIR=/path/to/build (--kdir), or compare without the module with NO_MODULE=1 (--no-module)"
		fi
		desc="bzImage $WK_IMAGE ($WK_RELEASE)"
		if [ -f "$kd/.config" ]; then
			desc+=", configuration $kd/.config"
		else
			desc+=", configuration unknown"
		fi ;;
	esac
	case $WK_KIND in
	image) cfg=${WK_IMAGE/\/vmlinuz-//config-} ;;
	file) cfg=$kd/.config ;;
	*) cfg=$WK_KDIR/.config ;;
	esac
	pre=$(config_preempt "$cfg")
	[ -z "$pre" ] || desc+="; .config: $pre"
	[ "$module" = 1 ] || desc+="; no wakelab.ko (--no-module): no placement mix"
	# Labels are the report's column heads and wl_compare's KERNEL=FILE.
	label=${label//[= ]/_}
	for ((j = 0; j < i; j++)); do
		[ "${labels[j]}" != "$label" ] || label+="#$((i + 1))"
	done
	labels[i]=$label
	kargs[i]=$k
	kdirs[i]=$kd
	descs[i]=$desc
done

# --- the schedule ---------------------------------------------------------------
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
mapfile -t order < <(wl_boot_schedule "$seed" "$boots" $(seq 0 $((nk - 1))))
nboot=${#order[@]}

ncpus=$((sockets * cores))
ncell=$(tr -s ', ' '\n' <<<"$instances" | grep -c .)
per=$(awk -v d="$duration" 'BEGIN { printf "%d", d + 4 }')
timeout=$(( ncell * trials * per * 2 + 600 ))
dir=$(wl_new_results_dir "$results")
stamp=${dir##*/}
mkdir -p "$dir/boots"

# run_boot B: boot B of the schedule, into its directory; one line when done.
run_boot() {
	local b=$1 i=${order[$1]} d t0 vm=()
	d=$dir/boots/$(printf %02d $((b + 1)))-${labels[i]}
	vm=(--kernel "${kargs[i]}")
	[ -z "${kdirs[i]}" ] || vm+=(--kdir "${kdirs[i]}")
	[ "$module" = 1 ] || vm+=(--no-module)
	[ "$profile" = 0 ] || vm+=(--perf)
	t0=$(date +%s)
	if wl_kboot "$d" "$timeout" "$(wl_kboot_cmd "$module" "${specs[i]}" \
			"$workload" "$instances" "$trials" "$duration" "$seed" \
			"$stream_opts" "$profile")" "${vm[@]}" --sockets "$sockets" --cores "$cores"; then
		wl_info "boot $((b + 1))/$nboot ${labels[i]}: done in $(( $(date +%s) - t0 )) s (exit $(cat "$d/vm-exit"))"
	else
		wl_info "boot $((b + 1))/$nboot ${labels[i]}: FAILED (exit $(cat "$d/vm-exit")): $(cat "$d/error.txt")"
	fi
}

wl_info "kernels: ${labels[*]} (baseline ${labels[0]}); $boots boots each, $nboot in all, $jobs at a time, seed $seed"
for ((i = 0; i < nk; i++)); do
	wl_info "  ${labels[i]}: ${descs[i]}; spec ${specs[i]}"
done
wl_info "boot order: $(for b in "${order[@]}"; do printf '%s ' "${labels[b]}"; done)"
wl_info "each boot: $workload over [$instances] x $trials trials of ${duration} s, ${sockets} sockets x ${cores} cores ($ncpus CPUs); results in $dir"
start=$(date +%s)
for ((b = 0; b < nboot; b++)); do
	run_boot "$b" &
	wl_throttle "$jobs"
done
wait
wall=$(( $(date +%s) - start ))

# --- the report -------------------------------------------------------------------
make -s -C "$WL_TOP/selftests" >"$dir/host-build.log" 2>&1 ||
	{ cat "$dir/host-build.log" >&2; wl_die "building wl_compare for the host failed"; }
args=()
for ((i = 0; i < nk; i++)); do
	args+=(--describe "${labels[i]}=${descs[i]}")
done
for d in "$dir"/boots/*/; do
	d=${d%/}
	b=${d##*/}
	args+=("${b#*-}=$d/results.json")
done
set +e
"${WL_COMPARE:-$WL_TOP/selftests/wl_compare}" --merge -q -s "$seed" -O "$dir" "${args[@]}" > /dev/null
rc=$?
set -e
[ -s "$dir/report.txt" ] || wl_die "wl_compare --merge made no report (exit $rc)"
{
	for e in "$dir"/boots/*/error.txt; do
		[ -f "$e" ] || continue
		b=${e%/error.txt}
		b=${b##*/}
		printf '# boot %d (%s) failed: %s\n' "$((10#${b%%-*}))" "${b#*-}" "$(cat "$e")"
	done
	echo
	"$WL_TOP/scripts/lkp-table" "$dir/results.json"
	# The newest perf of make deps reads every boot's profiles.
	for p in "$dir"/boots/*/profile; do
		[ "$profile" = 1 ] && [ -d "$p" ] || continue
		wl_profile_hint "$dir/boots/NN-KERNEL/profile" "$p" "$WL_TOP/scripts/perf"
		break
	done
} >> "$dir/report.txt"
ln -sfn "$stamp" "$results/latest"
echo
cat "$dir/report.txt"
echo
wl_info "wall time ${wall}s for $nboot boots; merge exit $rc; results: $dir (also $results/latest)"
exit "$rc"
