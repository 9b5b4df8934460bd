// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab.ko's workload file: with a cgroup v2 set, the placement table
 * counts the wakeups of that cgroup's tasks and placement_others every
 * other task's; "/" (the default) is every task, and placement_others
 * stays at zero.
 *
 * The workload is two processes that ping-pong a byte over two pipes
 * inside a cgroup of the test's own, at least PINGS times and until,
 * beside it and outside the cgroup, a bystander has woken NAPS times from
 * a 1 ms sleep (about 1000 wakeups a second).  Every wakeup of the
 * workload follows a sleep of one side (its voluntary context switches:
 * mostly blocking on its pipe, about two per exchange, fewer on two CPUs
 * where a side may find its byte there already, more where a side blocks
 * on a lock the other holds, as on PREEMPT_RT), so the workload's row has
 * one for each time a side slept and none more but its start, and the
 * bystander's sleeps land in placement_others.  A sleep is a placement
 * when it takes the task off its runqueue: DELAY_DEQUEUE (6.12) keeps it
 * there, and is cleared for the test and restored.  A waker that reads its wakee still queued just
 * before the wakee leaves its runqueue does not count that wakeup
 * (wakelab_agree_test bounds those), so each count is checked to 90 %.
 * Any kernel; skips without cgroup v2.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "wl/kernel/cgroup.h"
#include "wl/kernel/wakelab_module.h"

#define PINGS		1000
#define NAPS		300
/* Wakeups of the workload besides its ping-pong: start, exit, slack. */
#define START_SLACK	20

FIXTURE(workload) {
	const char *skip;
	bool loaded_here;
	char was_enable[8];
	char was_workload[WL_CGROUP_PATH];
	int delay_dequeue;	/* DELAY_DEQUEUE to restore, or -1 */
	struct wl_cgroup cg;
	struct wl_table *t;
	char why[256];
};

FIXTURE_SETUP(workload)
{
	char name[32];

	self->delay_dequeue = -1;
	self->t = wl_table_new();
	ASSERT_NE(NULL, self->t);
	self->skip = wl_module_setup(_metadata, "", &self->loaded_here);
	if (self->skip)
		return;
	ASSERT_LT(0, wl_knob_get("enable", self->was_enable,
				 sizeof(self->was_enable)));
	ASSERT_LT(0, wl_knob_get("workload", self->was_workload,
				 sizeof(self->was_workload)));
	self->was_workload[strcspn(self->was_workload, "\n")] = '\0';
	snprintf(name, sizeof(name), "wakelab-test.%d", (int)getpid());
	if (wl_cgroup_create(&self->cg, name, self->why, sizeof(self->why))) {
		self->skip = self->why;
		return;
	}
	self->delay_dequeue = wl_sched_feat_get("DELAY_DEQUEUE");
	if (self->delay_dequeue == 1)
		ASSERT_EQ(0, wl_sched_feat_set("DELAY_DEQUEUE", false));
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
}

FIXTURE_TEARDOWN(workload)
{
	if (self->delay_dequeue == 1)
		EXPECT_EQ(0, wl_sched_feat_set("DELAY_DEQUEUE", true));
	if (!self->skip) {
		EXPECT_EQ(0, wl_knob_set("workload", self->was_workload));
		EXPECT_EQ(0, wl_knob_set("enable", self->was_enable));
	}
	EXPECT_EQ(0, wl_cgroup_remove(&self->cg));
	if (self->loaded_here)
		EXPECT_EQ(0, wl_module_unload_retry());
	free(self->t);
}

/* The sum of column @col over every row of table @name. */
static double table_sum(struct wl_table *t, const char *name,
			const char *col)
{
	unsigned long long v;
	double sum = 0;
	int r, c;

	if (wl_module_table(name, t))
		return -1;
	c = wl_table_col(t, col);
	for (r = 0; c > 0 && r < t->nrows; r++)
		if (!wl_table_u64(t, r, c, &v))
			sum += v;
	return c > 0 ? sum : -1;
}

/*
 * The ping-pong's first side: an exchange at a time, at least PINGS and
 * until the bystander has slept NAPS times; then 'q' ends the other side.
 */
static void __attribute__((noreturn)) ping(int in, int out,
					  volatile long *naps,
					  volatile long *pings)
{
	char c = 'x';
	long i;

	for (i = 0; i < PINGS || *naps < NAPS; i++)
		if (write(out, &c, 1) != 1 || read(in, &c, 1) != 1)
			_exit(1);
	*pings = i;
	c = 'q';
	_exit(write(out, &c, 1) != 1);
}

/* The other side: every byte back until 'q'. */
static void __attribute__((noreturn)) pong(int in, int out)
{
	char c;

	while (read(in, &c, 1) == 1 && c != 'q')
		if (write(out, &c, 1) != 1)
			_exit(1);
	_exit(c != 'q');
}

/* Sleep 1 ms at a time until @stop is set; the count in @n. */
static void __attribute__((noreturn)) bystander(volatile int *stop,
					       volatile long *n)
{
	struct timespec ms = { 0, 1000000 };

	while (!*stop) {
		nanosleep(&ms, NULL);
		(*n)++;
	}
	_exit(0);
}

/*
 * The ping-pong pair in @cg beside a bystander outside it, from a reset;
 * the exchanges in *@pings, the times the pair slept (each woken after
 * the reset) in *@sleeps, the bystander's sleeps in *@naps.
 */
static void run_pair(struct __test_metadata *_metadata,
		     const struct wl_cgroup *cg, long *pings, long *sleeps,
		     long *naps)
{
	struct rusage ru;
	int ab[2], ba[2], go[2], st, i;
	struct {
		int stop;
		long n;
		long pings;
	} *sh;
	pid_t pid[3];
	char c;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	ASSERT_EQ(0, pipe(ab));
	ASSERT_EQ(0, pipe(ba));
	ASSERT_EQ(0, pipe(go));
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i]) {
			close(go[1]);
			if (read(go[0], &c, 1) != 0)
				_exit(1);
			if (i == 0)
				ping(ba[0], ab[1], &sh->n, &sh->pings);
			pong(ab[0], ba[1]);
		}
		ASSERT_EQ(0, wl_cgroup_enter(cg, pid[i]));
	}
	pid[2] = fork();
	ASSERT_LE(0, pid[2]);
	if (!pid[2]) {
		close(go[1]);
		bystander(&sh->stop, &sh->n);
	}
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	close(go[1]);
	*sleeps = 0;
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pid[i], wait4(pid[i], &st, 0, &ru));
		EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
		*sleeps += ru.ru_nvcsw;
	}
	/* Stop counting before the bystander and the test wake for the end. */
	*naps = sh->n;
	*pings = sh->pings;
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	sh->stop = 1;
	ASSERT_EQ(pid[2], waitpid(pid[2], &st, 0));
	close(go[0]);
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	munmap(sh, sizeof(*sh));
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
}

/* The bystander's wakeups are counted apart from the workload's. */
TEST_F(workload, bystander_counted_apart)
{
	double mine, others;
	char buf[WL_CGROUP_PATH + 2];
	long pings, sleeps, naps;

	WL_SKIP_IF(self->skip);
	ASSERT_EQ(0, wl_knob_set("workload", self->cg.path));
	ASSERT_LT(0, wl_knob_get("workload", buf, sizeof(buf)));
	buf[strcspn(buf, "\n")] = '\0';
	EXPECT_STREQ(self->cg.path, buf);
	run_pair(_metadata, &self->cg, &pings, &sleeps, &naps);
	ASSERT_LE(NAPS, naps);
	ASSERT_LE(PINGS, pings);
	mine = table_sum(self->t, "placement", "wakeups");
	others = table_sum(self->t, "placement_others", "wakeups");
	ASSERT_LE(0, mine);
	ASSERT_LE(0, others);
	TH_LOG("workload %.0f wakeups (%ld exchanges, %ld sleeps), others %.0f (bystander %ld sleeps)",
	       mine, pings, sleeps, others, naps);
	/* Each time a side slept, its wakeup is in the workload's row. */
	EXPECT_LT(0, sleeps);
	EXPECT_LE(0.9 * sleeps, mine);
	/*
	 * Nothing of the bystander's in the workload's row: no more wakeups
	 * than the pair's sleeps (the bystander's 300 would be over).
	 */
	EXPECT_GE(sleeps + START_SLACK, mine);
	EXPECT_LE(0.9 * naps, others);
}

/* "/" is every task: the bystander is in placement, others see nothing. */
TEST_F(workload, root_counts_every_task)
{
	double all, others;
	char buf[WL_CGROUP_PATH + 2];
	long pings, sleeps, naps;

	WL_SKIP_IF(self->skip);
	ASSERT_EQ(0, wl_knob_set("workload", self->cg.path));
	ASSERT_EQ(0, wl_knob_set("workload", "/"));
	ASSERT_LT(0, wl_knob_get("workload", buf, sizeof(buf)));
	EXPECT_STREQ("/\n", buf);
	ASSERT_LT(0, wl_knob_get("placement", buf, sizeof(buf)));
	run_pair(_metadata, &self->cg, &pings, &sleeps, &naps);
	all = table_sum(self->t, "placement", "wakeups");
	others = table_sum(self->t, "placement_others", "wakeups");
	TH_LOG("every task %.0f wakeups: the pair slept %ld times in %ld exchanges, the bystander %ld times",
	       all, sleeps, pings, naps);
	EXPECT_EQ(0, others);
	EXPECT_LT(0, sleeps);
	EXPECT_LE(0.9 * (sleeps + naps), all);
}

/*
 * Paths that name no cgroup are refused with the errno that says why, and
 * change nothing; a removed cgroup stays set (no task can join it).
 */
TEST_F(workload, bad_paths_refused)
{
	char path[WL_CGROUP_PATH + 16], buf[WL_CGROUP_PATH + 2];
	char *lng;

	WL_SKIP_IF(self->skip);
	ASSERT_EQ(0, wl_knob_set("workload", self->cg.path));
	EXPECT_EQ(-EINVAL, wl_knob_set("workload", "wakelab"));
	EXPECT_EQ(-ENOENT, wl_knob_set("workload", "/wakelab-no-such-cgroup"));
	snprintf(path, sizeof(path), "%s/cgroup.procs", self->cg.path);
	EXPECT_EQ(-ENOTDIR, wl_knob_set("workload", path));
	lng = malloc(300);
	ASSERT_NE(NULL, lng);
	memset(lng, 'a', 299);
	lng[0] = '/';
	lng[299] = '\0';
	EXPECT_EQ(-EINVAL, wl_knob_set("workload", lng));
	free(lng);
	ASSERT_LT(0, wl_knob_get("workload", buf, sizeof(buf)));
	buf[strcspn(buf, "\n")] = '\0';
	EXPECT_STREQ(self->cg.path, buf);
	/* Removed while set: still readable, then replaced. */
	ASSERT_EQ(0, wl_cgroup_remove(&self->cg));
	ASSERT_LT(0, wl_knob_get("placement", buf, sizeof(buf)));
	EXPECT_EQ(0, wl_knob_set("workload", "/"));
}

TEST_HARNESS_MAIN
