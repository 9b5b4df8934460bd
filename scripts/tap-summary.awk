# SPDX-License-Identifier: GPL-2.0
#
# The program behind scripts/tap-summary (its usage is there), run with
# awk -f and the variable expect.  Counts the leaf results of a TAP stream
# of `make check` or `make check-debug` (a test program's own "ok"/"not ok"
# lines, one "# " deep under the kselftest runner's lines) and ends with
# one line "N passed, N failed, N skipped"; exits 1 when anything failed.
#
# Nothing that did not run reads as a pass:
#  - a program's plan ("# 1..N") must match the results it printed: fewer
#    or more is one failure; a program (runner line "selftests: ...") that
#    printed no plan at all is one failure;
#  - the kselftest runner's own plan ("1..N" at the top level) must match
#    the programs it reported;
#  - with expect="prog1 prog2 ..." (--expect), every runner block (one
#    per kernel) must report each of these programs, once;
#  - a top-level "ok N # SKIP why" (a skipped stage or program) is a skip;
#  - a "not ok" line is a failure whatever its directive ("# skip" in the
#    description of a failing test does not make it a skip);
#  - a top-level "not ok" whose program reported no failing leaf (it
#    crashed, timed out, or is a harness stage) is one failure of its own,
#    except a stage's line right after a kselftest runner block in which a
#    program failed: that failure is already counted.
# Each failure that no "not ok" line shows is explained on a line of its
# own, "tap-summary: ...", before the counts.

function problem(msg) {
	printf "tap-summary: %s\n", msg
	failed++
}

# "ok 3 name # SKIP why": the directive, for an "ok" line only.
function is_skip(line) {
	return line ~ /^ok [0-9]+[^#]*#[ \t]*[Ss][Kk][Ii][Pp]([^A-Za-z]|$)/
}

function flush_group(name, top_failed, top_skip,   why) {
	why = ""
	if (plan >= 0 && leaves != plan)
		why = sprintf("planned %d results, printed %d", plan, leaves)
	else if (plan < 0 && name ~ /^selftests: / && !top_skip)
		why = "printed no TAP plan"
	if (top_failed && !leaf_failed) {
		failed++
		if (why != "")
			printf "tap-summary: %s: %s\n", name, why
	} else if (why != "")
		problem(name ": " why)
	else if (top_skip && !leaves)
		skipped++
	else if (!top_failed && !leaves && plan < 0)
		passed++
	leaves = 0
	leaf_failed = 0
	plan = -1
}

function close_runner(   n, i, names, why) {
	if (!runner_open)
		return
	if (runner_ran != runner_plan)
		problem(sprintf("kselftest runner block %d: planned %d programs, reported %d",
				runner_blocks, runner_plan, runner_ran))
	if (expect != "") {
		n = split(expect, names, " ")
		for (i = 1; i <= n; i++) {
			why = ""
			if (!(names[i] in seen))
				why = "did not run"
			else if (seen[names[i]] > 1)
				why = "ran " seen[names[i]] " times"
			if (why != "")
				problem(sprintf("kselftest runner block %d: %s %s",
						runner_blocks, names[i], why))
		}
	}
	delete seen
	runner_open = 0
}

BEGIN {
	plan = -1
}

# A serial console ends its lines with CR LF.
{
	sub(/\r$/, "")
}

# A program's plan, one level down: "# 1..8" (or "# 1..0 # SKIP why").
/^# 1\.\.[0-9]+/ {
	plan = substr($2, 4) + 0
	next
}

# A leaf: "# ok 3 name", "# not ok 3 name", "# ok 3 name # SKIP why".
/^# (ok|not ok) [0-9]+/ {
	leaves++
	line = substr($0, 3)
	if (line ~ /^not ok/) {
		failed++
		leaf_failed = 1
		runner_failed = 1
	} else if (is_skip(line))
		skipped++
	else
		passed++
	next
}

# The kselftest runner's plan: a block of program results follows.
/^1\.\.[0-9]+/ {
	close_runner()
	runner_open = 1
	runner_blocks++
	runner_plan = substr($1, 4) + 0
	runner_ran = 0
	runner_failed = 0
	next
}

# Top level: closes the group of leaves above it.
/^(ok|not ok) [0-9]+/ {
	name = $0
	sub(/^(ok|not ok) [0-9]+ */, "", name)
	if (name ~ /^selftests: /) {
		prog = name
		sub(/^selftests: [^:]*: /, "", prog)
		sub(/ .*/, "", prog)
		seen[prog]++
		runner_ran++
		if ($0 ~ /^not ok/)
			runner_failed = 1
	} else if (runner_open && runner_failed && $0 ~ /^not ok/ &&
		   !leaves && plan < 0) {
		# The stage that ran the block fails because of it.
		close_runner()
		next
	} else {
		close_runner()
	}
	flush_group(name, $0 ~ /^not ok/, is_skip($0))
	next
}

END {
	close_runner()
	if (plan >= 0 || leaves)
		flush_group("results after the last runner line", 0, 0)
	printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
	exit failed ? 1 : 0
}
