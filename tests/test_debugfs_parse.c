// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for selftests/wakelab_debugfs.h, the one parser of the
 * tables and the policy file in /sys/kernel/debug/wakelab/: real module
 * output parses to the right cells, and every malformed input (no header,
 * ragged records, repeated keys, oversized fields, bad policy lines) is
 * rejected as a whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "wakelab_debugfs.h"

static const char placement[] =
	"# source: kretprobe select_task_rq_fair, per-CPU counters since the last reset\n"
	"# enabled: 1 missed: 0\n"
	"policy wakeups waker_cpu prev_cpu waker_llc prev_llc other cross_llc sync\n"
	"observe 21 15 4 2 0 0 0 7\n";

static const char llc[] =
	"# source: tracepoint-fed per-CPU cache\n"
	"llc cpus nr_running load util capacity has_capacity\n"
	"0 0-1 1 1638 1241 2048 1\n"
	"\n"
	"  # an indented comment\n"
	"2\t2-3 - - - 2048 -\n";

struct bad_case {
	const char *name;
	const char *text;
	int err;
};

static const struct bad_case bad[] = {
	{ "empty", "", -EINVAL },
	{ "comments only", "# a\n# b\n", -EINVAL },
	{ "short record", "k a b\nx 1\n", -EINVAL },
	{ "long record", "k a\nx 1 2\n", -EINVAL },
	{ "repeated key", "k a\nx 1\nx 2\n", -EINVAL },
	{ "oversized field",
	  "k a\nx 0123456789012345678901234567890123456789012345678901234567890123456789\n",
	  -E2BIG },
};

static const struct bad_case bad_policy[] = {
	{ "no line", "# only a comment\n", -EINVAL },
	{ "none active", "kernel old never\n", -EINVAL },
	{ "two active", "[kernel] [old]\n", -EINVAL },
	{ "empty brackets", "kernel [] old\n", -EINVAL },
	{ "unclosed", "kernel [old\n", -EINVAL },
	{ "stray bracket", "ker]nel [old]\n", -EINVAL },
	{ "repeated", "old [old]\n", -EINVAL },
};

int main(void)
{
	struct wl_dbg_table *t = wl_dbg_table_new();
	struct wl_dbg_policy pol;
	unsigned long long v;
	unsigned int i;

	ksft_print_header();
	ksft_set_plan(9 + ARRAY_SIZE(bad) + ARRAY_SIZE(bad_policy));
	if (!t)
		ksft_exit_fail_msg("out of memory\n");

	ksft_test_result(!wl_dbg_table_parse(placement, t) && t->ncols == 9 &&
			 t->nrows == 1 && !strcmp(t->cell[0][0], "observe"),
			 "placement table parses\n");
	ksft_test_result(!wl_dbg_get(t, "observe", "sync", &v) && v == 7 &&
			 !wl_dbg_get(t, "observe", "wakeups", &v) && v == 21,
			 "placement cells by key and column\n");
	ksft_test_result(wl_dbg_get(t, "observe", "nosuch", &v) == -ENOENT &&
			 wl_dbg_get(t, "kernel", "sync", &v) == -ENOENT,
			 "missing row or column is -ENOENT\n");

	ksft_test_result(!wl_dbg_table_parse(llc, t) && t->nrows == 2 &&
			 t->ncols == 7 && !strcmp(t->cell[1][1], "2-3"),
			 "llc table with blank line, tab, indented comment\n");
	ksft_test_result(wl_dbg_get(t, "2", "load", &v) == -EINVAL &&
			 !wl_dbg_get(t, "2", "capacity", &v) && v == 2048,
			 "'-' is not a number, its neighbour is\n");
	ksft_test_result(!wl_dbg_table_parse("k a\n", t) && t->nrows == 0,
			 "header without records is an empty table\n");

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ksft_test_result(wl_dbg_table_parse(bad[i].text, t) ==
				 bad[i].err, "rejects table: %s\n",
				 bad[i].name);

	ksft_test_result(!wl_dbg_policy_parse("# hook: yes\nkernel [old] idle idle+weight\n",
					      &pol) && pol.n == 4 &&
			 pol.active == 1 && !strcmp(pol.name[1], "old") &&
			 !strcmp(pol.name[3], "idle+weight"),
			 "policy line parses, active in brackets\n");
	ksft_test_result(!wl_dbg_policy_parse("# hook: absent\n[observe]\n",
					      &pol) && pol.n == 1 &&
			 pol.active == 0, "stock policy file parses\n");
	ksft_test_result(!wl_dbg_policy_parse("[kernel]", &pol) && pol.n == 1,
			 "policy line without newline\n");
	for (i = 0; i < ARRAY_SIZE(bad_policy); i++)
		ksft_test_result(wl_dbg_policy_parse(bad_policy[i].text, &pol) ==
				 bad_policy[i].err, "rejects policy: %s\n",
				 bad_policy[i].name);
	free(t);
	ksft_finished();
}
