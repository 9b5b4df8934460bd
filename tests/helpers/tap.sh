# SPDX-License-Identifier: GPL-2.0
#
# TAP for the host tests written in shell: `ok STATUS DESCRIPTION` prints
# one numbered result (STATUS 0 passes) and counts it; `check DESCRIPTION
# WANT GOT` passes when the two are equal and says both when not; `tap_done` prints
# the tally and returns non-zero when a result failed.  Sourced, never
# executed.

n=0
fails=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fails=$((fails + 1))
	fi
}

check() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1 (expected $2, got $3)"
		fails=$((fails + 1))
	fi
}

tap_done() {
	echo "# $fails of $n failed"
	[ "$fails" -eq 0 ]
}

# tap_need_wl_compare TOP: the selftests and the test build's wl_compare
# (.cache/tests/wl_compare, which honours WL_FAKE_DEBUGFS) built, or the
# test ends with a kselftest SKIP that says why.
tap_need_wl_compare() {
	if ! make -s -C "$1/selftests" >/dev/null 2>&1 ||
	   ! make -s -C "$1/tests" "$1/.cache/tests/wl_compare" >/dev/null 2>&1 ||
	   [ ! -x "$1/.cache/tests/wl_compare" ]; then
		echo "1..0 # SKIP wl_compare does not build"
		exit 4
	fi
}

# tap_term_alone PID MARK PATTERN: once a process runs "sleep MARK" (a
# stand-in's trial under the script PID; MARK the test's own, as 37.$$,
# so that no other test's sleep matches), SIGTERM to PID alone, not its
# process group; sets term_measuring (those processes just before),
# term_rc (PID's exit status) and term_left (the PIDs that still match
# "sleep MARK" or PATTERN, space-separated).
tap_term_alone() {
	local i
	for ((i = 0; i < 600; i++)); do
		pgrep -f "sleep $2" > /dev/null && break
		sleep 0.1
	done
	term_measuring=$(pgrep -fc "sleep $2")
	kill -TERM "$1"
	wait "$1"
	term_rc=$?
	term_left=$(pgrep -f "sleep $2|$3" | tr '\n' ' ')
}
