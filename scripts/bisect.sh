# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154
# (the settings of WL_BISECT_VARS come from the state's config)
#
# What scripts/bisect and scripts/bisect-step share: the state directory
# of one bisection (results/<stamp>/bisect/), building a commit's kernel,
# booting kernels for measurement, the tests of a step against the ends
# and the decision rule (docs/bisect.md).  Sourced after scripts/lib.sh,
# never executed.
#
# The state directory D:
#   config              the run's settings (wl_bisect_save / wl_bisect_load)
#   kernels/<hash>/     bzImage and build.log of every commit built
#   boots/NNN-<label>/  one boot each (console.log, results.json, vm-exit,
#                       error.txt when it failed); label good, bad or the
#                       commit's 12-digit hash
#   ends/               GOOD against BAD (wl_compare --merge: report.txt,
#                       results.json)
#   signature.tsv       the (cell, metric) pairs that differ between the ends
#   steps/<hash>/       a step's tests: vs-good/ and vs-bad/ merges
#   steps.tsv           one line per step decided (wl_bisect_step_row)
#   log                 every line printed, with times

WL_BISECT_STATE_VERSION=1
# The settings of a bisection, in the order they are saved.
WL_BISECT_VARS="ksrc clone good bad kconfig spec workload instances trials
duration sockets cores stream_opts seed jobs boots step_boots max_boots alpha
nsteps alpha_step build_dir"

# wl_bisect_save D: write the settings (the variables of WL_BISECT_VARS).
wl_bisect_save() {
	local v
	{
		echo "# wakelab bisect state $WL_BISECT_STATE_VERSION"
		for v in $WL_BISECT_VARS; do
			printf '%s=%q\n' "$v" "${!v}"
		done
	} > "$1/config"
}

# wl_bisect_load D: read D/config back, refusing a file that is not one
# (another version, a line that is not NAME=VALUE of a known setting).
wl_bisect_load() {
	local d=$1 line name
	[ -f "$d/config" ] ||
		wl_die "'$d' is not a bisection's state directory (no config): make bisect writes one"
	[ "$(head -n 1 "$d/config")" = "# wakelab bisect state $WL_BISECT_STATE_VERSION" ] ||
		wl_die "$d/config: not a wakelab bisect state of version $WL_BISECT_STATE_VERSION"
	while IFS= read -r line; do
		case $line in '#'*) continue ;; esac
		name=${line%%=*}
		case " ${WL_BISECT_VARS//$'\n'/ } " in
		*" $name "*) ;;
		*) wl_die "$d/config: unknown line '$line'" ;;
		esac
	done < "$d/config"
	# shellcheck disable=SC1091
	. "$d/config"
	WL_BISECT_DIR=$(cd "$d" && pwd)
}

# wl_bisect_log MESSAGE: print MESSAGE and append it, timed, to D/log.
wl_bisect_log() {
	wl_info "$*"
	printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >> "$WL_BISECT_DIR/log"
}

# wl_bisect_build SRC HASH: build the work tree SRC (at commit HASH) out
# of tree (scripts/kernel/build --ksrc, or the stand-in WL_KBUILD): the
# bisection's clone in its build directory beside it, another tree (git
# bisect run by hand) in that tree's own; keep its bzImage in
# kernels/HASH/.
# Returns 1, the reason in kernels/HASH/error.txt, when it does not build.
wl_bisect_build() {
	local src=$1 h=$2 k out
	k=$WL_BISECT_DIR/kernels/$h
	mkdir -p "$k"
	rm -f "$k/error.txt"
	set -- "${WL_KBUILD:-$WL_TOP/scripts/kernel/build}" --ksrc "$src"
	[ -z "$kconfig" ] || set -- "$@" --kconfig "$kconfig"
	# The clone's build beside it: .cache/bisect/<id>/{src,build}, laid
	# out as a table kernel's, so that ccache finds that kernel's objects.
	[ "$src" != "$clone" ] || set -- "$@" --build-dir "${clone%/*}/build"
	if ! "$@" > "$k/build.log" 2>&1; then
		out=$(grep -m 2 -E 'error|Error' "$k/build.log" | tr '\n' ' ')
		echo "does not build: ${out:-see ${k#"$WL_TOP"/}/build.log}" > "$k/error.txt"
		return 1
	fi
	build_dir=$("$@" --print-dir)
	cp "$build_dir/arch/x86/boot/bzImage" "$k/bzImage"
	cp "$build_dir/.config" "$k/config" 2>/dev/null || true
}

# wl_bisect_timeout: the wall-clock limit of one measurement boot.
wl_bisect_timeout() {
	local ncell per
	ncell=$(tr -s ', ' '\n' <<<"$instances" | grep -c .)
	per=$(awk -v d="$duration" 'BEGIN { printf "%d", d + 4 }')
	echo $(( ncell * trials * per * 2 + 600 ))
}

# wl_bisect_vm_opts HASH: scripts/vm's options for the kernel of HASH.
wl_bisect_vm_opts() {
	printf '%s\n' --kernel "$WL_BISECT_DIR/kernels/$1/bzImage" \
		--sockets "$sockets" --cores "$cores"
}

# wl_bisect_prepare HASH: boot the kernel of HASH once with wakelab.ko
# built against the build directory (which holds HASH's build now) and
# loaded; later boots of it reuse that module (scripts/vm --no-build).
# Returns 1, the reason in kernels/HASH/error.txt, when it does not boot
# or the module does not build or load.
wl_bisect_prepare() {
	local h=$1 d why
	d=$WL_BISECT_DIR/kernels/$h/prepare
	mkdir -p "$d"
	mapfile -t vmo < <(wl_bisect_vm_opts "$h")
	if "${WL_VM:-$WL_TOP/scripts/vm}" --quiet "${vmo[@]}" --kdir "$build_dir" \
		--timeout 600 --out "$d" -- \
		'insmod /wakelab/modules/wakelab.ko && echo 1 > /sys/kernel/debug/wakelab/enable' \
		> "$d/console.log" 2>&1; then
		return 0
	fi
	why=$(grep -E 'wakelab-vm: FAIL|error:|insmod|Kernel panic' "$d/console.log" | tail -n 1)
	echo "does not boot or load wakelab.ko: ${why:-see ${d#"$WL_TOP"/}/console.log}" \
		> "$WL_BISECT_DIR/kernels/$h/error.txt"
	return 1
}

# wl_bisect_boots LABEL=HASH...: one measurement boot per operand, $jobs
# at a time, numbered on from the boots made so far; one line each.
wl_bisect_boots() {
	local a n timeout g
	timeout=$(wl_bisect_timeout)
	g=$(wl_kboot_cmd 1 "$spec" "$workload" "$instances" "$trials" \
		"$duration" "$seed" "$stream_opts")
	mkdir -p "$WL_BISECT_DIR/boots"
	n=$(find "$WL_BISECT_DIR/boots" -mindepth 1 -maxdepth 1 -type d | wc -l)
	for a in "$@"; do
		n=$((n + 1))
		wl_bisect_boot1 "$n" "${a%%=*}" "${a#*=}" "$timeout" "$g" &
		wl_throttle "$jobs"
	done
	wait
}

# wl_bisect_boot1 N LABEL HASH TIMEOUT GCMD: measurement boot N.
wl_bisect_boot1() {
	local d t0 vmo
	d=$WL_BISECT_DIR/boots/$(printf %03d "$1")-$2
	mapfile -t vmo < <(wl_bisect_vm_opts "$3")
	t0=$(date +%s)
	if wl_kboot "$d" "$4" "$5" "${vmo[@]}" --no-build; then
		wl_bisect_log "boot $1 ($2): done in $(( $(date +%s) - t0 )) s"
	else
		wl_bisect_log "boot $1 ($2): FAILED: $(cat "$d/error.txt")"
	fi
}

# wl_bisect_all LABEL...: the KERNEL=FILE operands of wl_compare --merge
# for every boot of these labels that has results, oldest first; with
# WL_BISECT_FROM set, only the boots numbered above it.
wl_bisect_all() {
	local l d b
	for l in "$@"; do
		for d in "$WL_BISECT_DIR"/boots/*-"$l"; do
			b=${d##*/}
			[ "$((10#${b%%-*}))" -gt "${WL_BISECT_FROM:-0}" ] || continue
			[ -s "$d/results.json" ] && echo "$l=$d/results.json"
		done
	done
	return 0
}

# wl_bisect_cap: the most boots of one kernel a merge takes (wl_compare
# holds at most 64 trials of a kernel in a cell).
wl_bisect_cap() {
	echo $(( 64 / trials ))
}

# wl_bisect_operands LABEL...: as wl_bisect_all, each label's newest
# wl_bisect_cap boots: an end measured again at every step keeps its
# latest boots.
wl_bisect_operands() {
	local l
	for l in "$@"; do
		wl_bisect_all "$l" | tail -n "$(wl_bisect_cap)"
	done
}

# wl_bisect_nboots LABEL: the boots of LABEL with results (a merge takes
# at most wl_bisect_cap of them).
wl_bisect_nboots() {
	wl_bisect_all "$1" | grep -c . || true
}

# wl_bisect_merge OUT BASE OTHER [FROM]: wl_compare --merge of the boots
# of BASE (the baseline) and OTHER (wl_bisect_operands; with FROM, only
# those numbered above it) into OUT (report.txt, results.json).
wl_bisect_merge() {
	local out=$1 args WL_BISECT_FROM=${4:-0}
	mapfile -t args < <(wl_bisect_operands "$2" "$3")
	mkdir -p "$out"
	"${WL_COMPARE:-$WL_TOP/selftests/wl_compare}" --merge -q -s "$seed" \
		-O "$out" --describe "$2=$2" --describe "$3=$3" "${args[@]}" \
		> /dev/null 2> "$out/merge.err" || true
	[ -s "$out/results.json" ]
}

# wl_bisect_tests RESULTS LABEL: per pair of signature.tsv, LABEL's figures
# in a merge's results.json: "cell metric value spread p diff", where
# value is the Hmean (spread its CoeffVar %) or the mean share (spread its
# stddev in points), p the permutation test's raw p against the baseline
# and diff LABEL's value minus the baseline's.  A share that neither side
# has (wl_compare leaves out a kind of wakeup that did not occur) is 0 on
# both, p 1.
wl_bisect_tests() {
	local results=$1 label=$2 cell metric
	while read -r cell _ metric _; do
		case $cell in '#'*|'') continue ;; esac
		jq -r --arg l "$label" --argjson c "$cell" --arg m "$metric" '
		  [.stats[] | select(.cell == $c)] as $cs |
		  ($cs[] | select(.policy == $l)) as $s |
		  ($cs[] | select(.policy != $l)) as $b |
		  if $m == "throughput" then
		    [$c, $m, $s.hmean, $s.coeffvar, $s.p_value,
		     (if $s.hmean and $b.hmean then $s.hmean - $b.hmean else null end)]
		  elif ($s.placement // {})[$m] == null and ($b.placement // {})[$m] == null then
		    # No wakeup of this kind on either side: both shares 0, equal.
		    [$c, $m, 0, 0, 1, 0]
		  else
		    ((($s.placement // {})[$m]) // {}) as $p |
		    [$c, $m, $p.mean, $p.stddev, $p.p_value, $p.diff]
		  end | map(if . == null then "nan" else tostring end) | join(" ")' \
			"$results" | awk 'NR == 1'
	done < "$WL_BISECT_DIR/signature.tsv"
}

# wl_bisect_decide ALPHA: the decision rule (docs/bisect.md).  Reads lines
# "dir pG dG pB dB", one per signature pair: the direction of BAD against
# GOOD (+1/-1), the step's raw p and difference against GOOD and against
# BAD.  Holm's procedure at ALPHA over all 2k tests; prints "good", "bad"
# or "inconclusive" and the adjusted p of the smallest test against each
# end ("pG pB").  A step is bad when it differs from GOOD, every such
# difference in BAD's direction, and from BAD not at all; good the other
# way round.
wl_bisect_decide() {
	awk -v alpha="$1" '
	function sgn(x) { return x > 0 ? 1 : x < 0 ? -1 : 0 }
	{ n++; dir[n] = $1; p[2 * n - 1] = $2 + 0; d[2 * n - 1] = $3 + 0
	  p[2 * n] = $4 + 0; d[2 * n] = $5 + 0
	  if ($2 == "nan") p[2 * n - 1] = 1; if ($4 == "nan") p[2 * n] = 1 }
	END {
		m = 2 * n
		for (i = 1; i <= m; i++) o[i] = i
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (p[o[j]] < p[o[i]]) { t = o[i]; o[i] = o[j]; o[j] = t }
		run = 0
		for (r = 1; r <= m; r++) {
			a = p[o[r]] * (m - r + 1); if (a > 1) a = 1
			if (a < run) a = run; run = a; adj[o[r]] = a
		}
		sg = sb = 0; wrongg = wrongb = 0; ming = minb = 1
		for (i = 1; i <= n; i++) {
			g = 2 * i - 1; b = 2 * i
			if (adj[g] < ming) ming = adj[g]
			if (adj[b] < minb) minb = adj[b]
			if (adj[g] <= alpha) { sg++; if (sgn(d[g]) != dir[i]) wrongg++ }
			if (adj[b] <= alpha) { sb++; if (sgn(d[b]) != -dir[i]) wrongb++ }
		}
		v = "inconclusive"
		if (sg > 0 && !wrongg && sb == 0) v = "bad"
		if (sb > 0 && !wrongb && sg == 0) v = "good"
		printf "%s %.4g %.4g\n", v, ming, minb
	}'
}

# wl_bisect_min_boots M K ALPHA: the fewest boots a step needs so that an
# exact permutation test against M boots of an end can pass Holm's first
# step over 2K tests at ALPHA: the smallest n with 2 / C(n + M, n) <=
# ALPHA / 2K; 0 when even 64 cannot.
wl_bisect_min_boots() {
	awk -v m="$1" -v k="$2" -v a="$3" 'BEGIN {
		for (n = 2; n <= 64; n++) {
			c = 1
			for (i = 1; i <= n; i++) c = c * (m + i) / i
			if (2 / c <= a / (2 * k)) { print n; exit }
		}
		print 0 }'
}

# wl_bisect_step_rows DECISION WHY: a step's lines of steps.tsv, one per
# signature pair: step, commit, decision, boots, cell, metric, GOOD's,
# the step's and BAD's value +- spread, the raw p against GOOD and BAD,
# the smallest adjusted p against each, build and boot seconds, subject,
# reason.  Uses the step's variables (nstep short subject t_build t_boots
# pg pb).
wl_bisect_step_rows() {
	local t=$WL_BISECT_DIR/steps/$short n
	n=$(wl_bisect_nboots "$short")
	if [ ! -s "$t/vs-bad/results.json" ]; then
		printf '%s\t%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t%s\t%s\t%s\t%s\n' \
			"$nstep" "$short" "$1" "$n" "${t_build:-0}" "${t_boots:-0}" \
			"$subject" "$2"
		return
	fi
	paste -d ' ' <(grep -v '^#' "$WL_BISECT_DIR/signature.tsv" | cut -f1-3) \
		<(wl_bisect_tests "$t/vs-good/results.json" good | cut -d' ' -f3,4) \
		<(wl_bisect_tests "$t/vs-good/results.json" "$short" | cut -d' ' -f3-5) \
		<(wl_bisect_tests "$t/vs-bad/results.json" bad | cut -d' ' -f3,4) \
		<(wl_bisect_tests "$t/vs-bad/results.json" "$short" | cut -d' ' -f5) |
	awk -v s="$nstep" -v h="$short" -v d="$1" -v n="$n" -v pg="${pg:-nan}" \
	    -v pb="${pb:-nan}" -v tb="${t_build:-0}" -v tt="${t_boots:-0}" \
	    -v subj="$subject" -v why="$2" '
	# p "nan": wl_compare found every value equal and ran no test.
	function pv(x) { return x == "nan" ? "equal" : sprintf("%.4g", x) }
	{ printf "%s\t%s\t%s\t%s\t%s\t%s\t%.2f+-%.2f\t%.2f+-%.2f\t%.2f+-%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
		s, h, d, n, $2, $3, $4, $5, $6, $7, $9, $10, pv($8), pv($11), pg, pb,
		tb, tt, subj, why }'
}
