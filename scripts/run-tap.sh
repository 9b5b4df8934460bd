# SPDX-License-Identifier: GPL-2.0
#
# One TAP producer as one top-level result, kselftest-runner style (sourced
# by scripts/check, and by tests/test_run_tap.sh).  wl_run_tap NAME CMD...
# runs CMD, prints its output indented with "# " (and copies it to
# $WL_TAP_LOGDIR/host-N.tap), then "ok N NAME" or "not ok N NAME", N
# counted in wl_tap_n.  The top line is "ok" only when CMD exited 0 AND
# none of its results, at any depth, is "not ok" without a TODO directive:
# a producer that forgets to return its failures cannot pass.

wl_tap_n=0

# wl_tap_failed FILE: the first "not ok" line of FILE, at any depth of
# "# " (a CR at the end ignored), that counts: without a TODO directive;
# status 0 when there is one.
wl_tap_failed() {
	awk '/^(# )*not ok [0-9]/ && !/#[ \t]*[Tt][Oo][Dd][Oo]([^A-Za-z]|$)/ {
		sub(/\r$/, ""); print; found = 1; exit } END { exit !found }' "$1"
}

wl_run_tap() {
	local name=$1 rc line log
	shift
	wl_tap_n=$((wl_tap_n + 1))
	log=${WL_TAP_LOGDIR:-/tmp}/host-$wl_tap_n.tap
	"$@" 2>&1 | sed -u 's/^/# /' | tee "$log"
	rc=${PIPESTATUS[0]}
	if line=$(wl_tap_failed "$log"); then
		[ "$rc" != 0 ] ||
			echo "# $name exited 0, but printed a failure: ${line#\# }"
		rc=1
	fi
	if [ "$rc" = 0 ]; then
		echo "ok $wl_tap_n $name"
	else
		echo "not ok $wl_tap_n $name"
	fi
}
