// SPDX-License-Identifier: GPL-2.0
/*
 * The patched kernel's LLC statistics under pinned load (wakelab series,
 * patch 1): tasks pinned to one CPU of an LLC are counted in every value
 * the kernel publishes for that LLC.  Load balancing that finds all tasks
 * of the busiest CPU pinned drops that CPU and redoes its pass over the
 * others; a statistic published from that partial pass would say the LLC
 * is idle.  Needs the policy hook (for the llc file to show the kernel's
 * statistics) and an LLC of at least three CPUs: in a two-CPU LLC the
 * pass is never redone (make check runs it in a one-socket, four-core VM).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "wl/core/clock.h"
#include "wl/kernel/load.h"
#include "wl/kernel/topo.h"
#include "wl/kernel/wakelab_module.h"

#define PINNED		3	/* busy tasks on the pinned CPU */
#define SAMPLES		25

FIXTURE(llc) {
	const char *skip;
	bool loaded_here;
	struct wl_table *t;
};

FIXTURE_SETUP(llc)
{
	self->t = wl_table_new();
	ASSERT_NE(NULL, self->t);
	self->skip = wl_module_setup(_metadata, "", &self->loaded_here);
	if (self->skip)
		return;
	if (strcmp(wl_cap("hook"), "yes"))
		self->skip = "kernel has no LLC statistics (stock kernel)";
}

FIXTURE_TEARDOWN(llc)
{
	free(self->t);
}

/*
 * An LLC of at least three online CPUs: its first CPU in @first, another
 * in @pin; NULL, or why there is none.
 */
static const char *big_llc(int *first, int *pin)
{
	static bool online[WL_MAX_CPUS], set[WL_MAX_CPUS];
	int cpu, c, n;

	if (wl_online_cpus(WL_CPU_SYSFS, online) <= 0)
		return "cannot read the online CPUs";
	for (cpu = 0; cpu < WL_MAX_CPUS; cpu++) {
		if (!online[cpu] || wl_cpu_llc(WL_CPU_SYSFS, cpu, set, NULL) <= 0)
			continue;
		*first = -1;
		for (c = 0, n = 0; c < WL_MAX_CPUS; c++) {
			if (!set[c] || !online[c])
				continue;
			if (*first < 0)
				*first = c;
			else
				*pin = c;
			n++;
		}
		if (n >= 3 && *first == cpu)
			return NULL;
	}
	return "no LLC of three or more online CPUs (a two-CPU LLC never redoes a balance pass)";
}

TEST_F_TIMEOUT(llc, pinned_tasks_counted, 90)
{
	unsigned long long v, lo = ~0ULL, hi = 0;
	pid_t pids[PINNED];
	int first = -1, pin = -1, i, below = 0;
	char key[16];
	const char *why;

	WL_SKIP_IF(self->skip);
	why = big_llc(&first, &pin);
	if (why)
		SKIP(return, "%s", why);
	snprintf(key, sizeof(key), "%d", first);
	for (i = 0; i < PINNED; i++) {
		pids[i] = wl_hog(pin);
		ASSERT_LT(0, pids[i]);
	}
	/* Balancing publishes every few hundred milliseconds at most. */
	wl_msleep(1500);
	for (i = 0; i < SAMPLES; i++) {
		ASSERT_EQ(0, wl_module_table("llc", self->t));
		ASSERT_EQ(0, wl_table_get(self->t, key, "nr_running", &v))
			TH_LOG("no llc row %s", key);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		below += v < PINNED;
		wl_msleep(200);
	}
	for (i = 0; i < PINNED; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	TH_LOG("llc %s, %d tasks pinned to cpu%d: nr_running %llu..%llu, %d of %d samples below %d",
	       key, PINNED, pin, lo, hi, below, SAMPLES, PINNED);
	EXPECT_EQ(0, below);
}

TEST_HARNESS_MAIN
