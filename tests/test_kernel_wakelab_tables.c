// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for selftests/lib/kernel/wakelab_tables.c, the one reader
 * of the tables and the policy file in /sys/kernel/debug/wakelab/: real
 * module output parses to the right cells, also a placement table from
 * before lb_migr and lb_cross_llc were added; the "# version N" first line
 * is required and a newer version is refused with a message naming the file
 * and both versions; every malformed input (no header, ragged records,
 * repeated keys, oversized fields, bad policy lines) is rejected as a whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "wl/kernel/wakelab_tables.h"

#define V1	WAKELAB_VERSION_PREFIX "1\n"

static const char placement[] = V1
	"# source: kretprobe select_task_rq_fair, per-CPU counters since the last reset\n"
	"# enabled: 1 missed: 0\n"
	"policy wakeups waker_cpu prev_cpu waker_llc prev_llc other cross_llc sync lb_migr lb_cross_llc\n"
	"observe 21 15 4 2 0 0 0 7 9 3\n";

/* Written before lb_migr and lb_cross_llc were added, at the end. */
static const char placement_8[] = V1
	"# source: tracepoints sched_waking+sched_migrate_task, per-CPU counters since the last reset\n"
	"policy wakeups waker_cpu prev_cpu waker_llc prev_llc other cross_llc sync\n"
	"observe 21 15 4 2 0 0 0 -\n";

static const char llc[] = V1
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
	{ "no header", V1, -EINVAL },
	{ "comments only", V1 "# a\n# b\n", -EINVAL },
	{ "short record", V1 "k a b\nx 1\n", -EINVAL },
	{ "long record", V1 "k a\nx 1 2\n", -EINVAL },
	{ "repeated key", V1 "k a\nx 1\nx 2\n", -EINVAL },
	{ "oversized field",
	  V1 "k a\nx 0123456789012345678901234567890123456789012345678901234567890123456789\n",
	  -E2BIG },
	{ "empty", "", -EBADMSG },
	{ "no version line", "# a comment\nk a\nx 1\n", -EBADMSG },
	{ "version line not first", "k a\n" V1 "x 1\n", -EBADMSG },
	{ "version 0", WAKELAB_VERSION_PREFIX "0\nk a\n", -EBADMSG },
	{ "version not a number", WAKELAB_VERSION_PREFIX "one\nk a\n",
	  -EBADMSG },
	{ "version with trailing text", WAKELAB_VERSION_PREFIX "1 beta\nk a\n",
	  -EBADMSG },
	{ "indented version line", " " V1 "k a\n", -EBADMSG },
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

/* A table of version WAKELAB_TABLE_VERSION + 1 is refused by name. */
static void newer_version(struct wl_table *t)
{
	char text[128], v_new[16], v_ours[16];
	int ret;

	snprintf(text, sizeof(text), "%s%d\nk a\nx 1\n",
		 WAKELAB_VERSION_PREFIX, WAKELAB_TABLE_VERSION + 1);
	snprintf(v_new, sizeof(v_new), "%d", WAKELAB_TABLE_VERSION + 1);
	snprintf(v_ours, sizeof(v_ours), "%d", WAKELAB_TABLE_VERSION);
	ret = wl_table_parse(text, "/d/wakelab/placement", t);
	ksft_print_msg("%s\n", t->err);
	ksft_test_result(ret == -EPROTONOSUPPORT && t->nrows == 0 &&
			 t->ncols == 0 &&
			 strstr(t->err, "/d/wakelab/placement") &&
			 strstr(t->err, v_new) && strstr(t->err, v_ours),
			 "newer version refused, message names file and both versions\n");
}

int main(void)
{
	struct wl_table *t = wl_table_new();
	struct wl_policy_list pol;
	unsigned long long v;
	unsigned int i;

	ksft_print_header();
	ksft_set_plan(15 + ARRAY_SIZE(bad) + ARRAY_SIZE(bad_policy));
	if (!t)
		ksft_exit_fail_msg("out of memory\n");

	ksft_test_result(!strcmp(WL_PLACEMENT_HEADER,
				 "policy wakeups waker_cpu prev_cpu waker_llc prev_llc other cross_llc sync lb_migr lb_cross_llc") &&
			 !strcmp(WL_LLC_HEADER,
				 "llc cpus nr_running load util capacity has_capacity") &&
			 !strcmp(WL_CAPS_HEADER, "cap value") &&
			 !strcmp(WL_DECISIONS_HEADER, "rule calls waker") &&
			 !strcmp(WL_OLDCHECK_HEADER, "rule agree disagree stale"),
			 "header lines from <linux/wakelab.h>\n");
	ksft_test_result(!wl_table_parse(placement_8, "placement", t) &&
			 t->ncols == 9 && !wl_table_get(t, "observe", "wakeups", &v) &&
			 v == 21 && wl_table_get(t, "observe", "lb_migr", &v) == -ENOENT,
			 "placement of 8 columns (before lb_migr) still parses\n");
	ksft_test_result(!wl_table_parse(placement, "placement", t) &&
			 t->ncols == 11 && t->nrows == 1 &&
			 !strcmp(t->cell[0][0], "observe"),
			 "placement table parses\n");
	ksft_test_result(t->version == WAKELAB_TABLE_VERSION && !t->err[0],
			 "version line equal to the reader's: ok\n");
	ksft_test_result(!wl_table_get(t, "observe", "sync", &v) && v == 7 &&
			 !wl_table_get(t, "observe", "wakeups", &v) && v == 21 &&
			 !wl_table_get(t, "observe", "lb_migr", &v) && v == 9 &&
			 !wl_table_get(t, "observe", "lb_cross_llc", &v) && v == 3,
			 "placement cells by key and column\n");
	ksft_test_result(wl_table_get(t, "observe", "nosuch", &v) == -ENOENT &&
			 wl_table_get(t, "kernel", "sync", &v) == -ENOENT,
			 "missing row or column is -ENOENT\n");

	ksft_test_result(!wl_table_parse(llc, "llc", t) && t->nrows == 2 &&
			 t->ncols == 7 && !strcmp(t->cell[1][1], "2-3"),
			 "llc table with blank line, tab, indented comment\n");
	ksft_test_result(wl_table_get(t, "2", "load", &v) == -EINVAL &&
			 !wl_table_get(t, "2", "capacity", &v) && v == 2048,
			 "'-' is not a number, its neighbour is\n");
	ksft_test_result(!wl_table_parse(V1 "k a\n", "t", t) && t->nrows == 0,
			 "header without records is an empty table\n");

	ksft_test_result(wl_table_parse("k a\nx 1\n", "/d/wakelab/llc", t) ==
			 -EBADMSG && strstr(t->err, "/d/wakelab/llc") &&
			 t->ncols == 0,
			 "missing version line refused, message names the file\n");
	newer_version(t);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ksft_test_result(wl_table_parse(bad[i].text, "t", t) ==
				 bad[i].err, "rejects table: %s\n",
				 bad[i].name);

	ksft_test_result(!wl_policy_parse("# hook: yes\nkernel [old] idle idle+weight\n",
					  &pol) && pol.n == 4 &&
			 pol.active == 1 && !strcmp(pol.name[1], "old") &&
			 !strcmp(pol.name[3], "idle+weight"),
			 "policy line parses, active in brackets\n");
	ksft_test_result(!wl_policy_parse("# hook: absent\n[observe]\n",
					  &pol) && pol.n == 1 &&
			 pol.active == 0, "stock policy file parses\n");
	ksft_test_result(!wl_policy_parse("[kernel]", &pol) && pol.n == 1,
			 "policy line without newline\n");
	ksft_test_result(!wl_policy_parse("\r\n[kernel] old\r\n", &pol) &&
			 pol.n == 2 && !strcmp(pol.name[1], "old"),
			 "policy line after a blank CR line, CR at the end\n");
	for (i = 0; i < ARRAY_SIZE(bad_policy); i++)
		ksft_test_result(wl_policy_parse(bad_policy[i].text, &pol) ==
				 bad_policy[i].err, "rejects policy: %s\n",
				 bad_policy[i].name);
	free(t);
	ksft_finished();
}
