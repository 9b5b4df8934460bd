// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab.ko in observe mode, on any kernel: every debugfs file is there
 * with its documented mode and header, every table's first line is the
 * "# version N" this build reads, and caps has no schedstats row (the
 * module reads no /proc/sys file); the llc table covers each online
 * CPU exactly once and agrees with the sysfs cache topology (a skip when
 * sysfs has none); under a loopback workload the placement counters grow
 * and their categories add up, lb_migr counts a busy task's moves and
 * not a sleeper's moves at its wakeups, a ping-pong confined to two LLCs is
 * counted where the scheduler can put it and nowhere else, wakeups inside
 * one LLC stay in it after one of its CPUs went offline and came back
 * (the probes enabled in between),
 * reset zeroes them, every read
 * adds up while resets and reads race the probes, and a disabled module
 * keeps them still (for both observation methods); enable works after a
 * failed kretprobe registration; bad writes to every knob are rejected with the documented
 * errno and change nothing, also with concurrent writers; an open file
 * keeps the module from unloading until it is closed; and the module
 * survives 20 load/enable/unload cycles under 2 x CPUs tcp_stream
 * instances (scripts/vm fails the run on any dmesg splat).  A module that
 * is there but does not load fails every test.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "wl/core/clock.h"
#include "wl/core/file.h"
#include "wl/kernel/features.h"
#include "wl/kernel/load.h"
#include "wl/kernel/topo.h"
#include "wl/kernel/wakelab_module.h"

FIXTURE(wl) {
	const char *skip;
	bool loaded_here;
	bool hook;
	int delay_dequeue;	/* DELAY_DEQUEUE to restore, or -1 */
	struct wl_table *a, *b;
};

FIXTURE_VARIANT(wl) {
	const char *method;
};

FIXTURE_VARIANT_ADD(wl, tracepoint) {
	.method = "tracepoint",
};

FIXTURE_VARIANT_ADD(wl, kretprobe) {
	.method = "kretprobe",
};

FIXTURE_SETUP(wl)
{
	self->delay_dequeue = -1;
	self->a = wl_table_new();
	self->b = wl_table_new();
	ASSERT_TRUE(self->a && self->b);
	self->skip = wl_module_setup(_metadata, variant->method,
				     &self->loaded_here);
	if (self->skip)
		return;
	ASSERT_STREQ(variant->method, wl_cap("method"));
	self->hook = !strcmp(wl_cap("hook"), "yes");
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
}

FIXTURE_TEARDOWN(wl)
{
	if (self->delay_dequeue >= 0)
		EXPECT_EQ(0, wl_sched_feat_set("DELAY_DEQUEUE",
					       self->delay_dequeue));
	if (!access("/sys/module/wakelab/parameters/test_sum_delay_ms", W_OK))
		wl_write_str("/sys/module/wakelab/parameters/test_sum_delay_ms",
			     "0");
	if (!self->skip && wl_module_loaded())
		EXPECT_EQ(0, wl_knob_set("enable", "0"));
	/* Leave the default method loaded, with nothing running. */
	if (!self->skip && self->loaded_here &&
	    strcmp(variant->method, "tracepoint"))
		EXPECT_EQ(0, wl_module_unload_retry());
	free(self->a);
	free(self->b);
}

/* Sum of placement column @col over every row of @t. */
static unsigned long long col_sum(struct __test_metadata *_metadata,
				  const struct wl_table *t,
				  const char *col)
{
	unsigned long long v, sum = 0;
	int r, c = wl_table_col(t, col);

	EXPECT_LE(0, c) TH_LOG("no column %s", col);
	for (r = 0; c >= 0 && r < t->nrows; r++) {
		if (wl_table_u64(t, r, c, &v))
			continue;	/* "-": not observable */
		sum += v;
	}
	return sum;
}

/* Run a workload for @secs seconds with the probes enabled. */
static void enabled_load(struct __test_metadata *_metadata, int secs)
{
	pid_t pid;

	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	pid = wl_load_start("tcp_stream", "2*cpus", secs);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
}

struct file_spec {
	const char *name;
	mode_t mode;
	const char *header;	/* table columns, or NULL for a value file */
};

static const struct file_spec files[] = {
	{ "enable",		0600, NULL },
	{ "reset",		0200, NULL },
	{ "caps",		0400, WL_CAPS_HEADER },
	{ "placement",		0400, WL_PLACEMENT_HEADER },
	{ "placement_others",	0400, WL_PLACEMENT_HEADER },
	{ "workload",		0600, NULL },
	{ "llc",		0400, WL_LLC_HEADER },
	{ "decisions",		0400, WL_DECISIONS_HEADER },
	{ "decisions_others",	0400, WL_DECISIONS_HEADER },
	{ "oldcheck",		0400, WL_OLDCHECK_HEADER },
	{ "policy",		0600, NULL },
	{ "bias",		0600, NULL },
	{ "imbalance_pct",	0600, NULL },
};

TEST_F(wl, files_and_headers)
{
	struct wl_policy_list pol;
	char path[256], buf[4096];
	unsigned int i;
	struct stat st;

	WL_SKIP_IF(self->skip);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		ASSERT_EQ(0, stat(wl_path(path, sizeof(path), files[i].name),
				  &st)) TH_LOG("%s missing", files[i].name);
		EXPECT_EQ(files[i].mode, st.st_mode & 07777)
			TH_LOG("%s mode %o", files[i].name, st.st_mode & 07777);
		EXPECT_EQ(0U, st.st_uid);
		if (!files[i].header)
			continue;
		ASSERT_EQ(0, wl_module_table(files[i].name, self->a))
			TH_LOG("%s does not parse", files[i].name);
		wl_table_header(self->a, buf, sizeof(buf));
		EXPECT_STREQ(files[i].header, buf);
		ASSERT_LT(0, wl_knob_get(files[i].name, buf, sizeof(buf)));
		EXPECT_EQ(0, strncmp(buf, "# ", 2))
			TH_LOG("%s has no leading comment", files[i].name);
	}

	ASSERT_LT(0, wl_knob_get("llc", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "# source: "));
	ASSERT_LT(0, wl_knob_get("placement", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "# source: "));
	ASSERT_LT(0, wl_knob_get("enable", buf, sizeof(buf)));
	EXPECT_STREQ("0\n", buf);
	ASSERT_LT(0, wl_knob_get("bias", buf, sizeof(buf)));
	EXPECT_STREQ("1\n", buf);
	ASSERT_LT(0, wl_knob_get("imbalance_pct", buf, sizeof(buf)));
	EXPECT_STREQ("0\n", buf);
	ASSERT_LT(0, wl_knob_get("workload", buf, sizeof(buf)));
	EXPECT_STREQ("/\n", buf);

	ASSERT_LT(0, wl_knob_get("policy", buf, sizeof(buf)));
	ASSERT_EQ(0, wl_policy_parse(buf, &pol)) TH_LOG("policy: %s", buf);
	if (self->hook) {
		EXPECT_LE(8, pol.n);
		EXPECT_STREQ("kernel", pol.name[pol.active]);
	} else {
		EXPECT_EQ(1, pol.n);
		EXPECT_STREQ("observe", pol.name[0]);
		EXPECT_NE(NULL, strstr(buf, "hook: absent"));
	}

	/* One placement row per policy, keyed by the policy name. */
	ASSERT_EQ(0, wl_module_table("placement", self->a));
	EXPECT_EQ(pol.n, self->a->nrows);
	for (i = 0; i < (unsigned int)pol.n; i++)
		EXPECT_LE(0, wl_table_row(self->a, pol.name[i]));
	ASSERT_EQ(0, wl_module_table("placement_others", self->a));
	EXPECT_EQ(pol.n, self->a->nrows);
	for (i = 0; i < (unsigned int)pol.n; i++)
		EXPECT_LE(0, wl_table_row(self->a, pol.name[i]));

	ASSERT_EQ(0, wl_module_table("caps", self->a));
	EXPECT_LE(0, wl_table_row(self->a, "release"));
	/* The module reads no /proc/sys file: schedstats is userspace's. */
	EXPECT_GT(0, wl_table_row(self->a, "schedstats"));
	EXPECT_STREQ("yes", wl_cap("tp_sched_waking"));
	EXPECT_STREQ(self->hook ? "yes" : "no",
		     wl_cap("tp_sched_wake_affine_tp"));
}

/*
 * Every table starts with the format's version line, the one this build
 * of the tools reads (<linux/wakelab.h>).
 */
TEST_F(wl, tables_start_with_version)
{
	char buf[8192], want[64];
	unsigned int i;

	WL_SKIP_IF(self->skip);
	snprintf(want, sizeof(want), "%s%d\n", WAKELAB_VERSION_PREFIX,
		 WAKELAB_TABLE_VERSION);
	for (i = 0; i < WL_NR_TABLES; i++) {
		ASSERT_LT(0, wl_knob_get(wl_table_files[i], buf, sizeof(buf)));
		EXPECT_EQ(0, strncmp(buf, want, strlen(want)))
			TH_LOG("%s starts with '%.*s', not '%.*s'",
			       wl_table_files[i], (int)strcspn(buf, "\n"), buf,
			       (int)strlen(want) - 1, want);
		ASSERT_EQ(0, wl_module_table(wl_table_files[i], self->a));
		EXPECT_EQ(WAKELAB_TABLE_VERSION, self->a->version);
	}
}

TEST_F(wl, llc_matches_sysfs)
{
	unsigned long long v = 0;
	char why[256];
	int r, live, ret;

	WL_SKIP_IF(self->skip);
	ASSERT_EQ(0, wl_module_table("llc", self->a));
	ASSERT_LT(0, self->a->nrows);
	live = !strcmp(wl_cap("rq_located"), "yes") || self->hook;
	for (r = 0; r < self->a->nrows; r++) {
		EXPECT_EQ(0, wl_table_get(self->a, self->a->cell[r][0],
					"capacity", &v));
		EXPECT_LT(0ULL, v);
		if (live) {
			EXPECT_EQ(0, wl_table_get(self->a, self->a->cell[r][0],
						"nr_running", &v));
			EXPECT_EQ(0, wl_table_get(self->a, self->a->cell[r][0],
						"has_capacity", &v));
			EXPECT_GE(1ULL, v);
		}
	}
	/* Each online CPU once, in the LLC sysfs cacheinfo gives it. */
	ret = wl_llc_check(self->a, why, sizeof(why));
	if (ret == -ENODATA && _metadata->passed)
		SKIP(return, "llc rows cover the online CPUs, but %s: LLCs not compared",
		     why);
	EXPECT_EQ(0, ret) TH_LOG("llc: %s", why);
}

TEST_F_TIMEOUT(wl, counters_grow_and_add_up, 120)
{
	unsigned long long total, parts = 0, v;
	unsigned int i;
	int r;

	WL_SKIP_IF(self->skip);
	enabled_load(_metadata, 3);
	ASSERT_EQ(0, wl_module_table("placement", self->a));
	total = col_sum(_metadata, self->a, "wakeups");
	EXPECT_LT(100ULL, total) TH_LOG("only %llu wakeups counted", total);
	for (i = 0; i < ARRAY_SIZE(wl_place_parts); i++)
		parts += col_sum(_metadata, self->a, wl_place_parts[i]);
	EXPECT_EQ(total, parts);
	EXPECT_GE(total, col_sum(_metadata, self->a, "cross_llc"));
	/* Columns, not parts of the wakeups: each a number, the first bounds the second. */
	EXPECT_GE(col_sum(_metadata, self->a, "lb_migr"),
		  col_sum(_metadata, self->a, "lb_cross_llc"));
	for (r = 0; r < self->a->nrows; r++) {
		int c = wl_table_col(self->a, "sync");

		if (!strcmp(variant->method, "tracepoint")) {
			EXPECT_STREQ("-", self->a->cell[r][c]);
		} else {
			ASSERT_EQ(0, wl_table_u64(self->a, r, c, &v));
			EXPECT_GE(total, v);
		}
	}
	/* Rows add up one by one too. */
	for (r = 0; r < self->a->nrows; r++) {
		unsigned long long w, p = 0;

		ASSERT_EQ(0, wl_table_get(self->a, self->a->cell[r][0],
					"wakeups", &w));
		for (i = 0; i < ARRAY_SIZE(wl_place_parts); i++) {
			ASSERT_EQ(0, wl_table_get(self->a, self->a->cell[r][0],
						wl_place_parts[i], &v));
			p += v;
		}
		EXPECT_EQ(w, p) TH_LOG("row %s", self->a->cell[r][0]);
	}
}

/* Group @g of @t as a set of CPUs. */
static void llc_set(const struct wl_topo *t, int g, bool *set)
{
	int i;

	memset(set, 0, WL_MAX_CPUS * sizeof(*set));
	for (i = 0; i < t->llc_size[g]; i++)
		set[t->cpu[t->llc_start[g] + i]] = true;
}

/*
 * The two LLCs of the pinned ping-pong, the first online CPU's and the
 * next one, as online CPUs; NULL, or why there are no such two.
 */
static const char *two_llcs(bool *a, bool *b)
{
	static struct wl_topo t;

	if (wl_topo_load(WL_CPU_SYSFS, 0, &t))
		return "cannot read the online CPUs";
	if (!t.from_sysfs)
		return "sysfs has no cache information: LLCs unknown";
	if (t.nllc < 2)
		return "one LLC only: no cross-LLC wakeups";
	/* A task allowed on one CPU never reaches select_task_rq_fair(). */
	if (t.llc_size[0] < 2 || t.llc_size[1] < 2)
		return "needs two LLCs of at least two online CPUs";
	llc_set(&t, 0, a);
	llc_set(&t, 1, b);
	return NULL;
}

/*
 * The starter of the ping-pong: 3 s at least, and until it has slept 1500
 * times, which a slow (debug) kernel takes longer to reach.
 */
static const struct wl_pingpong_end pp_end = { 3, 1500, 60 };

/*
 * Fork a side of the pipe ping-pong (wl_pingpong_side()) allowed on @cpus
 * only, that reads pipe @in and writes pipe @out, the starter if @end; the
 * child closes the ends it does not use.
 */
static pid_t pp_fork(const bool *cpus, const int in[2], const int out[2],
		     int res, const struct wl_pingpong_end *end)
{
	pid_t pid = fork();
	cpu_set_t set;
	int cpu;

	if (!pid) {
		close(in[1]);
		close(out[0]);
		CPU_ZERO(&set);
		for (cpu = 0; cpu < WL_MAX_CPUS && cpu < CPU_SETSIZE; cpu++)
			if (cpus[cpu])
				CPU_SET(cpu, &set);
		wl_pingpong_side(&set, in[0], out[1], res, end);
	}
	return pid;
}

/*
 * Placement against a truth the module does not provide: two processes
 * ping-pong over pipes, each confined to the online CPUs of its own LLC.
 * The scheduler cannot put a wakee outside its allowed CPUs, so each of
 * their wakeups lands on the wakee's previous CPU or elsewhere in its
 * previous CPU's LLC, never on the waker's CPU, in the waker's LLC or
 * across LLCs; and the kernel's count of their voluntary sleeps says how
 * many wakeups there were.  Two CPUs per side keep select_task_rq_fair()
 * running (the kernel skips it for a task allowed on one CPU, which the
 * kretprobe method would then not see).  Other tasks' wakeups are counted
 * too, hence the bounds rather than exact zeros.
 */
/*
 * Take the last hotpluggable CPU of @llc offline, enable the probes, and
 * bring the CPU back, with nothing reading the llc file: the map the
 * placement counters use from CPU to LLC must follow the CPU by itself.
 */
static void hotplug_cycle(struct __test_metadata *_metadata, const bool *llc)
{
	int cpu, c = -1;

	for (cpu = 0; cpu < WL_MAX_CPUS; cpu++)
		if (llc[cpu] && wl_cpu_hotpluggable(cpu))
			c = cpu;
	ASSERT_LE(0, c) TH_LOG("no hotpluggable CPU in the second LLC");
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, wl_cpu_set_online(c, false));
	wl_msleep(200);
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	ASSERT_EQ(0, wl_cpu_set_online(c, true));
	wl_msleep(200);
	TH_LOG("cpu%d offline, probes enabled, cpu%d online again", c, c);
}

/*
 * Wakeups inside one LLC after one of its CPUs went offline and came back
 * (the probes enabled in between, the llc file unread): a pipe ping-pong
 * and a busy task that hops between two CPUs of that LLC every 5 ms, all
 * confined to it, so that the wakees keep moving away from it.  Every such wakeup stays in the LLC: none may count as cross_llc
 * or other (a stale CPU-to-LLC map counts each move so).  Other tasks'
 * wakeups are counted too, hence a bound of 0.1 %; at least 50 wakees must
 * have moved to a third CPU for the test to judge (up to four rounds, the
 * counts adding up, until they have).
 */
TEST_F_TIMEOUT(wl, one_llc_placement_after_hotplug, 300)
{
	static bool llc_a[WL_MAX_CPUS], llc_b[WL_MAX_CPUS];
	unsigned long long total, cross, other, moved;
	int ab[2], ba[2], res[2], st, i, round, first = -1, second = -1;
	struct wl_pingpong r;
	pid_t side[2], h;
	long sleeps = 0;
	const char *why;

	WL_SKIP_IF(self->skip);
	why = two_llcs(llc_a, llc_b);
	if (why)
		SKIP(return, "%s", why);
	for (i = 0; i < WL_MAX_CPUS; i++) {
		if (llc_b[i] && first < 0)
			first = i;
		else if (llc_b[i] && second < 0)
			second = i;
	}
	hotplug_cycle(_metadata, llc_b);
	/*
	 * With EEVDF's delayed dequeue (6.12) a wakee that is still queued
	 * is woken in place by ttwu_runnable(), without a placement, and
	 * few wakees move: the test needs moves, so DELAY_DEQUEUE is off
	 * while it runs (the teardown restores it).
	 */
	if (wl_sched_feat_get("DELAY_DEQUEUE") == 1) {
		ASSERT_EQ(0, wl_sched_feat_set("DELAY_DEQUEUE", false));
		self->delay_dequeue = 1;
	}
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	/*
	 * Rounds of the ping-pong beside the hog, the counters adding up,
	 * until 50 wakees have moved (at most 4 rounds): how many move in a
	 * round depends on how much CPU the emulator gets.
	 */
	for (round = 1; round <= 4; round++) {
		ASSERT_EQ(0, pipe(res));
		h = wl_roaming_hog(first, second);
		ASSERT_LT(0, h);
		ASSERT_EQ(0, pipe(ab));
		ASSERT_EQ(0, pipe(ba));
		side[0] = pp_fork(llc_b, ba, ab, res[1], &pp_end);
		ASSERT_LE(0, side[0]);
		side[1] = pp_fork(llc_b, ab, ba, res[1], NULL);
		ASSERT_LE(0, side[1]);
		close(ab[0]);
		close(ab[1]);
		close(ba[0]);
		close(ba[1]);
		close(res[1]);
		for (i = 0; i < 2; i++) {
			EXPECT_EQ(side[i], waitpid(side[i], &st, 0));
			EXPECT_EQ(0, st) TH_LOG("side %d: wait status %#x", i, st);
		}
		kill(h, SIGKILL);
		waitpid(h, NULL, 0);
		for (i = 0; i < 2; i++) {
			EXPECT_EQ((ssize_t)sizeof(r), read(res[0], &r, sizeof(r)));
			sleeps += r.sleeps;
		}
		close(res[0]);
		ASSERT_EQ(0, wl_module_table("placement", self->a));
		moved = col_sum(_metadata, self->a, "waker_llc") +
			col_sum(_metadata, self->a, "prev_llc") +
			col_sum(_metadata, self->a, "other");
		if (moved >= 50)
			break;
	}
	ASSERT_EQ(0, wl_knob_set("enable", "0"));

	ASSERT_EQ(0, wl_module_table("placement", self->a));
	total = col_sum(_metadata, self->a, "wakeups");
	cross = col_sum(_metadata, self->a, "cross_llc");
	other = col_sum(_metadata, self->a, "other");
	TH_LOG("%d round(s), %ld wakeups by the ping-pong; placement: %llu wakeups, %llu waker's LLC, %llu previous CPU's LLC, %llu cross-LLC, %llu other",
	       round > 4 ? 4 : round, sleeps, total,
	       col_sum(_metadata, self->a, "waker_llc"),
	       col_sum(_metadata, self->a, "prev_llc"), cross, other);
	ASSERT_LT(1000L, sleeps) TH_LOG("too few wakeups to judge");
	/* Wakees that moved to a CPU neither the waker's nor their own. */
	ASSERT_LE(50ULL, col_sum(_metadata, self->a, "waker_llc") +
		  col_sum(_metadata, self->a, "prev_llc") + other)
		TH_LOG("too few wakees moved to judge");
	EXPECT_GE(total, cross * 1000);
	EXPECT_GE(total, other * 1000);
}

static int pin_to(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

/* Wait (up to 2 s) until @pid sleeps ('S' in /proc/PID/stat). */
static bool wait_sleeping(pid_t pid)
{
	char p[64], buf[512], *r;
	int i;

	snprintf(p, sizeof(p), "/proc/%d/stat", pid);
	for (i = 0; i < 2000; i++) {
		if (wl_read_file(p, buf, sizeof(buf)) > 0) {
			r = strrchr(buf, ')');
			if (r && r[1] == ' ' && r[2] == 'S')
				return true;
		}
		usleep(1000);
	}
	return false;
}

/* Whether CPUs @a and @b share an LLC by sysfs; -1 when it cannot say. */
static int same_llc(int a, int b)
{
	static bool set[WL_MAX_CPUS];

	if (wl_cpu_llc(WL_CPU_SYSFS, a, set, NULL) <= 0 || b >= WL_MAX_CPUS)
		return -1;
	return set[b];
}

/*
 * Two CPUs this process may run on, in two LLCs when it may run in two:
 * the first, and the first outside its LLC (else the second); false with
 * one CPU only.
 */
static bool two_cpus(int *a, int *b)
{
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	*a = *b = -1;
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		if (*a < 0) {
			*a = c;
			continue;
		}
		if (*b < 0)
			*b = c;
		if (!same_llc(*a, c)) {
			*b = c;
			break;
		}
	}
	return *b >= 0;
}

#define LB_MOVES	40

/*
 * lb_migr counts the tasks moved while not waking, and only those.
 * Moves: a busy task's affinity flips between two CPUs LB_MOVES times;
 * each flip migrates it while it runs (the stopper's move_queued_task(),
 * the path load balancing's moves share: set_task_cpu() of a queued
 * task), so lb_migr >= LB_MOVES, and lb_cross_llc too when the two CPUs
 * are in different LLCs.  Wakeups: a sleeping task's affinity flips
 * before each of LB_MOVES wakeups, so each wakeup moves it (a wakeup
 * placement, sched_migrate_task with the task TASK_WAKING): lb_migr
 * must stay below LB_MOVES / 2 (other tasks' moves are counted too),
 * and the tracepoint method counts those wakeups as moved.
 * DELAY_DEQUEUE (6.12) is off: a sleeper it keeps queued would be moved
 * at the flip, not at its wakeup.
 */
TEST_F_TIMEOUT(wl, lb_migr_counts_moves_not_wakeups, 90)
{
	unsigned long long lb, x, w, prev;
	int a, b, i, p2c[2], c2p[2], share;
	char ch = 'x';
	pid_t pid;

	WL_SKIP_IF(self->skip);
	if (!two_cpus(&a, &b))
		SKIP(return, "needs two CPUs");
	if (wl_sched_feat_get("DELAY_DEQUEUE") == 1) {
		ASSERT_EQ(0, wl_sched_feat_set("DELAY_DEQUEUE", false));
		self->delay_dequeue = 1;
	}
	share = same_llc(a, b);

	/* Moves of a running task. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		pin_to(0, a);
		for (;;)
			;
	}
	wl_msleep(100);
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	for (i = 0; i < LB_MOVES; i++) {
		EXPECT_EQ(0, pin_to(pid, i & 1 ? a : b));
		usleep(5000);
	}
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ASSERT_EQ(0, wl_module_table("placement", self->a));
	lb = col_sum(_metadata, self->a, "lb_migr");
	x = col_sum(_metadata, self->a, "lb_cross_llc");
	TH_LOG("busy task flipped %d times between cpu%d and cpu%d (%s): lb_migr %llu, lb_cross_llc %llu",
	       LB_MOVES, a, b, share < 0 ? "LLCs unknown" : share ?
	       "one LLC" : "two LLCs", lb, x);
	EXPECT_LE((unsigned long long)LB_MOVES, lb);
	EXPECT_GE(lb, x);
	if (share == 0)
		EXPECT_LE((unsigned long long)LB_MOVES, x);

	/* Moves at wakeups. */
	ASSERT_EQ(0, pipe(p2c));
	ASSERT_EQ(0, pipe(c2p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		pin_to(0, a);
		while (read(p2c[0], &ch, 1) == 1 && ch != 'q')
			if (write(c2p[1], &ch, 1) != 1)
				break;
		_exit(0);
	}
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	for (i = 0; i < LB_MOVES; i++) {
		ASSERT_TRUE(wait_sleeping(pid));
		usleep(2000);
		EXPECT_EQ(0, pin_to(pid, i & 1 ? a : b));
		ASSERT_EQ(1, write(p2c[1], &ch, 1));
		ASSERT_EQ(1, read(c2p[0], &ch, 1));
	}
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ch = 'q';
	EXPECT_EQ(1, write(p2c[1], &ch, 1));
	waitpid(pid, NULL, 0);
	ASSERT_EQ(0, wl_module_table("placement", self->a));
	lb = col_sum(_metadata, self->a, "lb_migr");
	w = col_sum(_metadata, self->a, "wakeups");
	prev = col_sum(_metadata, self->a, "prev_cpu");
	TH_LOG("sleeper moved at %d wakeups: lb_migr %llu, wakeups %llu, not on prev %llu",
	       LB_MOVES, lb, w, w - prev);
	EXPECT_GT((unsigned long long)LB_MOVES / 2, lb);
	if (!strcmp(variant->method, "tracepoint"))
		EXPECT_LE((unsigned long long)LB_MOVES, w - prev);
}

TEST_F_TIMEOUT(wl, reset_zeroes, 60)
{
	unsigned long long v;
	int r, c;

	WL_SKIP_IF(self->skip);
	enabled_load(_metadata, 1);
	ASSERT_EQ(0, wl_module_table("placement", self->a));
	ASSERT_LT(0ULL, col_sum(_metadata, self->a, "wakeups"));
	ASSERT_EQ(0, wl_knob_set("reset", "1\n"));
	ASSERT_EQ(0, wl_module_table("placement", self->a));
	for (r = 0; r < self->a->nrows; r++)
		for (c = 1; c < self->a->ncols; c++)
			if (!wl_table_u64(self->a, r, c, &v))
				EXPECT_EQ(0ULL, v) TH_LOG("%s %s", self->a->cell[r][0],
						       self->a->col[c]);
	ASSERT_EQ(0, wl_module_table("decisions", self->a));
	for (r = 0; r < self->a->nrows; r++)
		for (c = 1; c < self->a->ncols; c++)
			if (!wl_table_u64(self->a, r, c, &v))
				EXPECT_EQ(0ULL, v);
}

#define WL_PARAM_DIR "/sys/module/wakelab/parameters/"

/* Check that every placement row adds up and holds no wrapped count. */
static void rows_add_up(struct __test_metadata *_metadata,
			const struct wl_table *t, int round)
{
	unsigned long long w, v, p;
	unsigned int i;
	int r;

	for (r = 0; r < t->nrows; r++) {
		ASSERT_EQ(0, wl_table_get(t, t->cell[r][0], "wakeups", &w));
		EXPECT_GT(1ULL << 62, w) TH_LOG("round %d row %s: wakeups %llu",
						round, t->cell[r][0], w);
		p = 0;
		for (i = 0; i < ARRAY_SIZE(wl_place_parts); i++) {
			ASSERT_EQ(0, wl_table_get(t, t->cell[r][0],
						wl_place_parts[i], &v));
			EXPECT_GT(1ULL << 62, v)
				TH_LOG("round %d row %s: %s %llu", round,
				       t->cell[r][0], wl_place_parts[i], v);
			p += v;
		}
		EXPECT_EQ(w, p) TH_LOG("round %d row %s: wakeups %llu, categories %llu",
				       round, t->cell[r][0], w, p);
	}
}

/*
 * Reset and read while the probes count on every CPU: each read must add
 * up (wakeups = waker_cpu + prev_cpu + waker_llc + prev_llc + other) and
 * no count may wrap below zero.  Single-threaded TCG runs one vCPU at a
 * time, so the test-only parameter test_sum_delay_ms widens the window:
 * reset and the tables pause that long in the middle of each CPU's
 * counters, long enough for the other vCPUs to run.
 */
TEST_F_TIMEOUT(wl, reset_under_load_adds_up, 120)
{
	pid_t pid;
	int i;

	WL_SKIP_IF(self->skip);
	ASSERT_EQ(0, wl_write_str(WL_PARAM_DIR "test_sum_delay_ms", "150"));
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	pid = wl_load_start("tcp_stream", "2*cpus", 30);
	ASSERT_LT(0, pid);
	wl_msleep(1000);
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(0, wl_knob_set("reset", "1"));
		ASSERT_EQ(0, wl_module_table("placement", self->a));
		rows_add_up(_metadata, self->a, i);
		ASSERT_EQ(0, wl_module_table("placement", self->a));
		rows_add_up(_metadata, self->a, i);
	}
	/*
	 * Counting goes on after the resets: a second of the load since the
	 * last one (the reads above each come right after a reset, a window
	 * a slow kernel may see no wakeup in).
	 */
	wl_msleep(1000);
	ASSERT_EQ(0, wl_module_table("placement", self->a));
	rows_add_up(_metadata, self->a, i);
	EXPECT_LT(0ULL, col_sum(_metadata, self->a, "wakeups"));
	wl_load_stop(pid);
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
}

TEST_F_TIMEOUT(wl, disabled_stays_still, 60)
{
	char before[8192], after[8192];
	pid_t pid;

	WL_SKIP_IF(self->skip);
	enabled_load(_metadata, 1);
	ASSERT_LT(0, wl_knob_get("placement", before, sizeof(before)));
	pid = wl_load_start("tcp_stream", "2*cpus", 2);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	ASSERT_LT(0, wl_knob_get("placement", after, sizeof(after)));
	EXPECT_STREQ(before, after);
}

struct bad_write {
	const char *data;
	size_t len;	/* 0: strlen(data) */
	const char *why;
};

static const struct bad_write bad_common[] = {
	{ "", 0, "empty" },
	{ " ", 0, "blank" },
	{ "\n", 0, "newline only" },
	{ "\t\n", 0, "whitespace" },
	{ " 1", 0, "leading blank" },
	{ "1 ", 0, "trailing blank" },
	{ "1\n\n", 0, "two newlines" },
	{ "1\0", 2, "trailing NUL" },
	{ "\0" "1", 2, "leading NUL" },
	{ "1\0" "0", 3, "embedded NUL" },
	{ "\x01\x02", 0, "control bytes" },
	{ "\xff\xfe\x80", 0, "binary" },
	{ "-1", 0, "negative" },
	{ "+1", 0, "plus sign" },
	{ "0x1", 0, "hex" },
	{ "4294967296", 0, "u32 overflow" },
	{ "99999999999999999999999999", 0, "overflow" },
	{ "yes", 0, "word" },
	{ "1.0", 0, "decimal point" },
	{ "0123456789012345678901234567890123456789", 0, "overlong" },
};

struct knob {
	const char *name;
	const char *extra[4];	/* further bad values for this knob */
	bool control;		/* needs the policy hook */
};

static const struct knob knobs[] = {
	{ "enable", { "2", "10", "on" }, false },
	{ "reset", { "0", "2", "reset" }, false },
	{ "bias", { "2", "100" }, true },
	{ "imbalance_pct", { "50", "99", "1001", "100000" }, true },
	{ "policy", { "nosuch", "KERNEL", "kernel old", "[old]" }, true },
	{ "workload", { "wakelab", "sys/fs/cgroup", "./", "~" }, false },
};

/* Everything a bad write must leave as it was. */
static void snapshot(char *buf, size_t len)
{
	static const char * const names[] = {
		"enable", "placement", "policy", "bias", "imbalance_pct",
		"workload",
	};
	size_t off = 0;
	ssize_t n;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names) && off < len - 1; i++) {
		n = wl_knob_get(names[i], buf + off, len - off);
		if (n > 0)
			off += n;
	}
}

TEST_F_TIMEOUT(wl, bad_writes_rejected, 90)
{
	static char before[16384], after[16384];
	const size_t big = 1 << 20;
	unsigned int k, i;
	char *mib;
	int err;

	WL_SKIP_IF(self->skip);
	/* Something for a wrongly accepted reset to wipe. */
	enabled_load(_metadata, 1);
	mib = malloc(big);
	ASSERT_NE(NULL, mib);
	memset(mib, '1', big);

	for (k = 0; k < ARRAY_SIZE(knobs); k++) {
		int want = knobs[k].control && !self->hook ?
			   -EOPNOTSUPP : -EINVAL;

		for (i = 0; i < ARRAY_SIZE(bad_common) + 5; i++) {
			const char *data;
			size_t len;
			const char *why;

			if (i < ARRAY_SIZE(bad_common)) {
				data = bad_common[i].data;
				len = bad_common[i].len ?: strlen(data);
				why = bad_common[i].why;
			} else if (i == ARRAY_SIZE(bad_common)) {
				data = mib;
				len = big;
				why = "1 MiB";
			} else {
				data = knobs[k].extra[i - ARRAY_SIZE(bad_common) - 1];
				if (!data)
					continue;
				len = strlen(data);
				why = data;
			}
			snapshot(before, sizeof(before));
			err = wl_knob_write(knobs[k].name, data, len);
			snapshot(after, sizeof(after));
			EXPECT_EQ(want, err) TH_LOG("%s: %s", knobs[k].name, why);
			EXPECT_STREQ(before, after)
				TH_LOG("%s: %s changed state", knobs[k].name, why);
		}
	}
	/* On a stock kernel even valid control writes are refused. */
	if (!self->hook) {
		EXPECT_EQ(-EOPNOTSUPP, wl_knob_set("policy", "kernel"));
		EXPECT_EQ(-EOPNOTSUPP, wl_knob_set("bias", "1"));
		EXPECT_EQ(-EOPNOTSUPP, wl_knob_set("imbalance_pct", "117"));
	}
	free(mib);
}

struct writer {
	int id;
	int bad_ok;	/* bad writes wrongly accepted */
	int good_err;	/* good writes wrongly refused */
};

static void *writer_fn(void *arg)
{
	static const char * const good[] = { "0", "1\n", "1", "0\n" };
	static const char * const bad[] = { "2", "", " 1", "1\0" };
	struct writer *w = arg;
	int i, err;

	for (i = 0; i < 12; i++) {
		err = wl_knob_set("enable", good[(i + w->id) % 4]);
		if (err)
			w->good_err++;
		err = wl_knob_write("enable", bad[(i + w->id) % 4],
				 (i + w->id) % 4 == 3 ? 2 : strlen(bad[(i + w->id) % 4]));
		if (err != -EINVAL)
			w->bad_ok++;
		if (i % 4 == 0)
			wl_knob_set("reset", "1");
	}
	return NULL;
}

TEST_F_TIMEOUT(wl, concurrent_writers, 120)
{
	struct writer w[4] = { { 0 } };
	pthread_t th[4];
	char buf[64];
	pid_t pid;
	int i;

	WL_SKIP_IF(self->skip);
	pid = wl_load_start("tcp_stream", "2", 30);
	ASSERT_LT(0, pid);
	for (i = 0; i < 4; i++) {
		w[i].id = i;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, writer_fn, &w[i]));
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, w[i].good_err);
		EXPECT_EQ(0, w[i].bad_ok);
	}
	wl_load_stop(pid);
	ASSERT_LT(0, wl_knob_get("enable", buf, sizeof(buf)));
	EXPECT_TRUE(!strcmp(buf, "0\n") || !strcmp(buf, "1\n"));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_LT(0, wl_knob_get("enable", buf, sizeof(buf)));
	EXPECT_STREQ("0\n", buf);
	EXPECT_EQ(0, wl_module_table("placement", self->a));
}

/* Users of the module (sysfs refcnt), or -1 when unreadable. */
static int module_refcnt(void)
{
	char buf[32];

	if (wl_read_file("/sys/module/wakelab/refcnt", buf, sizeof(buf)) <= 0)
		return -1;
	return atoi(buf);
}

/*
 * An open file of the module holds a reference: delete_module(O_NONBLOCK)
 * fails with EWOULDBLOCK and leaves the module in place, the open file
 * still reads its whole table, and once it is closed the unload succeeds.
 */
TEST_F_TIMEOUT(wl, unload_refused_while_file_open, 60)
{
	char params[64], path[256], buf[8192], hdr[256];
	ssize_t n, off = 0;
	int fd, ret, r;

	WL_SKIP_IF(self->skip);
	snprintf(params, sizeof(params), "method=%s", variant->method);
	ASSERT_EQ(0, module_refcnt())
		TH_LOG("/sys/module/wakelab/refcnt: unreadable, or another user holds wakelab");
	fd = open(wl_path(path, sizeof(path), "caps"), O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	EXPECT_EQ(1, module_refcnt());

	ret = wl_module_unload();
	EXPECT_EQ(-EWOULDBLOCK, ret) TH_LOG("unload with caps open: %s",
					   strerror(-ret));
	EXPECT_TRUE(wl_module_loaded());
	EXPECT_EQ(1, module_refcnt());

	while ((n = read(fd, buf + off, sizeof(buf) - 1 - off)) > 0)
		off += n;
	EXPECT_EQ(0, n) TH_LOG("reading the open caps: %s", strerror(errno));
	buf[off] = '\0';
	EXPECT_EQ(0, wl_table_parse(buf, path, self->a)) TH_LOG("caps: %s", buf);
	wl_table_header(self->a, hdr, sizeof(hdr));
	EXPECT_STREQ(WL_CAPS_HEADER, hdr);
	r = wl_table_row(self->a, "method");
	ASSERT_LE(0, r) TH_LOG("caps: %s", buf);
	EXPECT_STREQ(variant->method, self->a->cell[r][1]);
	EXPECT_LE(0, wl_table_row(self->a, "release"));

	ASSERT_EQ(0, close(fd));
	EXPECT_EQ(0, module_refcnt());
	ret = wl_module_unload();
	EXPECT_EQ(0, ret) TH_LOG("unload after close: %s", strerror(-ret));
	EXPECT_FALSE(wl_module_loaded());
	if (!wl_module_loaded()) {
		ret = wl_module_load(params);
		wl_assert_loaded(_metadata, ret, params);
	}
}

TEST_F_TIMEOUT(wl, load_enable_unload_cycles, 400)
{
	char params[64];
	pid_t pid;
	int i, ret;

	WL_SKIP_IF(self->skip);
	snprintf(params, sizeof(params), "method=%s", variant->method);
	pid = wl_load_start("tcp_stream", "2*cpus", 300);
	ASSERT_LT(0, pid);
	wl_msleep(500);
	for (i = 0; i < 20; i++) {
		if (wl_module_loaded()) {
			ret = wl_module_unload_retry();
			ASSERT_EQ(0, ret) TH_LOG("cycle %d unload: %s", i,
						 strerror(-ret));
		}
		ret = wl_module_load(params);
		ASSERT_EQ(0, ret) TH_LOG("cycle %d load: %s", i, strerror(-ret));
		ASSERT_EQ(0, wl_knob_set("enable", "1"));
		wl_msleep(50 + 10 * i);
		if (i % 2)
			ASSERT_EQ(0, wl_module_table("placement", self->a));
		/* Unload with the probes attached and the streams running. */
	}
	ASSERT_EQ(0, wl_module_unload_retry());
	EXPECT_FALSE(wl_module_loaded());
	wl_load_stop(pid);
	ASSERT_EQ(0, wl_module_load(params));
}

/*
 * A kretprobe registration that fails inside register_kprobe() (the
 * test-only parameter test_krp_blacklisted points the next one at a
 * kprobe-blacklisted function) must not spoil the next one: enable fails
 * once, then works and counts.
 */
FIXTURE(krp) {
};

FIXTURE_SETUP(krp)
{
}

FIXTURE_TEARDOWN(krp)
{
}

TEST_F_TIMEOUT(krp, retry_after_failure, 90)
{
	struct wl_table *t = wl_table_new();
	const char *skip;
	char buf[16] = "";
	bool here;
	pid_t pid;
	int ret;

	ASSERT_NE(NULL, t);
	skip = wl_module_setup(_metadata, "kretprobe", &here);
	WL_SKIP_IF(skip);
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, wl_write_str(WL_PARAM_DIR "test_krp_blacklisted", "1"));
	ret = wl_knob_set("enable", "1");
	EXPECT_NE(0, ret) TH_LOG("a kretprobe on a blacklisted function registered");
	TH_LOG("forced failure: %s", strerror(-ret));
	ASSERT_LT(0, wl_read_file(WL_PARAM_DIR "test_krp_blacklisted", buf,
				  sizeof(buf)));
	EXPECT_EQ('N', buf[0]) TH_LOG("the forced failure is not one-shot");
	ret = wl_knob_set("enable", "1");
	ASSERT_EQ(0, ret) TH_LOG("enable after a failed one: %s", strerror(-ret));
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	pid = wl_load_start("tcp_stream", "2*cpus", 2);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, wl_module_table("placement", t));
	EXPECT_LT(0ULL, col_sum(_metadata, t, "wakeups"));
	free(t);
	/* Leave the default method loaded. */
	ASSERT_EQ(0, wl_module_unload_retry());
	ASSERT_EQ(0, wl_module_load(NULL));
}

TEST_HARNESS_MAIN
