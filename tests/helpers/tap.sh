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
