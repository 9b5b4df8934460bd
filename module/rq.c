// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the runqueues of a stock kernel, located at load.
 *
 * A stock kernel keeps no per-LLC statistics and struct rq is private, so
 * the module reads the per-CPU figures it needs live from the runqueues,
 * which it locates once at load time:
 *
 *  - the runqueue address: at the first sched_update_nr_running_tp event
 *    of the loading task's own dequeue (it sleeps on purpose), the event's
 *    rq is that CPU's runqueue, so rq - per_cpu_offset(cpu) is the per-CPU
 *    address of runqueues, valid for every CPU;
 *  - nr_running: the field that follows the lock at the head of struct rq
 *    (unchanged since v2.6);
 *  - the root cfs_rq: the one pelt_cfs_tp argument that lies inside the
 *    CPU's own runqueue; its PELT averages sit at the offset of "avg" in
 *    struct cfs_rq, mirrored below from kernel/sched/sched.h of 6.1.
 *
 * Every figure is checked for sanity after calibration; the accessors
 * below are only meaningful when wl_rq_located() (nr_running) and
 * wl_rq_pelt_located() (the averages) say so.
 */
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/rbtree_types.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/smp.h>
#include <linux/spinlock_types.h>
#include <linux/tracepoint.h>

#include "probe.h"
#include "rq.h"

/* Head of struct rq in kernel/sched/sched.h. */
struct wl_rq_head {
	raw_spinlock_t	__lock;
	unsigned int	nr_running;
};

/* Head of struct cfs_rq in kernel/sched/sched.h (6.1), up to avg. */
struct wl_cfs_rq_head {
	struct load_weight	load;
	unsigned int		nr_running;
	unsigned int		h_nr_running;
	unsigned int		idle_nr_running;
	unsigned int		idle_h_nr_running;
	u64			exec_clock;
	u64			min_vruntime;
#ifdef CONFIG_SCHED_CORE
	unsigned int		forceidle_seq;
	u64			min_vruntime_fi;
#endif
#ifndef CONFIG_64BIT
	u64			min_vruntime_copy;
#endif
	struct rb_root_cached	tasks_timeline;
	struct sched_entity	*curr;
	struct sched_entity	*next;
	struct sched_entity	*last;
	struct sched_entity	*skip;
#ifdef CONFIG_SCHED_DEBUG
	unsigned int		nr_spread_over;
#endif
	struct sched_avg	avg;
};

/* struct rq is a few KiB; its cfs_rq member is near the start. */
#define WL_RQ_SPAN		SZ_8K
/* x86-64 links per-CPU variables at small zero-based addresses. */
#define WL_PERCPU_SPAN		SZ_16M
#define WL_SANE_NR_RUNNING	BIT(20)
#define WL_SANE_UTIL		(4 * SCHED_CAPACITY_SCALE)

static struct task_struct *wl_calib_task;
static unsigned long wl_rq_base;
static long wl_cfs_off = -1;
static bool wl_have_nr, wl_have_pelt;

struct rq;
struct cfs_rq;

/*
 * Calibration probe on sched_update_nr_running_tp.  The loading task
 * sleeps during calibration; the first nr_running decrement while it is
 * off its runqueue is its own dequeue in __schedule(), on its own CPU's
 * runqueue.
 */
static void wl_rq_probe_nr(void *data, struct rq *rq, int change)
{
	if (current != READ_ONCE(wl_calib_task) || change >= 0 ||
	    READ_ONCE(current->on_rq))
		return;
	WRITE_ONCE(wl_rq_base, (unsigned long)rq -
		   per_cpu_offset(smp_processor_id()));
	WRITE_ONCE(wl_calib_task, NULL);
}

/*
 * Calibration probe on pelt_cfs_tp.  Group cfs_rqs are allocated
 * separately; the only cfs_rq inside a runqueue is its root cfs_rq.
 */
static void wl_rq_probe_cfs(void *data, struct cfs_rq *cfs_rq)
{
	unsigned long base = READ_ONCE(wl_rq_base);
	unsigned long x = (unsigned long)cfs_rq, rq;

	if (!base || READ_ONCE(wl_cfs_off) >= 0)
		return;
	rq = base + per_cpu_offset(smp_processor_id());
	if (x > rq && x - rq < WL_RQ_SPAN)
		WRITE_ONCE(wl_cfs_off, x - rq);
}

static struct wl_tp_probe wl_rq_probes[] = {
	{ "sched_update_nr_running_tp", wl_rq_probe_nr },
	{ "pelt_cfs_tp", wl_rq_probe_cfs },
};

static const void *wl_rq(int cpu)
{
	return (const void *)(wl_rq_base + per_cpu_offset(cpu));
}

/* rq->nr_running of @cpu (all classes). */
unsigned int wl_rq_nr_running(int cpu)
{
	const struct wl_rq_head *rq = wl_rq(cpu);

	return READ_ONCE(rq->nr_running);
}

static const struct sched_avg *wl_cfs_avg(int cpu)
{
	const struct wl_cfs_rq_head *cfs = wl_rq(cpu) + wl_cfs_off;

	return &cfs->avg;
}

/* PELT load_avg of @cpu's root cfs_rq. */
unsigned long wl_rq_load_avg(int cpu)
{
	return READ_ONCE(wl_cfs_avg(cpu)->load_avg);
}

/* PELT util_avg of @cpu's root cfs_rq. */
unsigned long wl_rq_util_avg(int cpu)
{
	return READ_ONCE(wl_cfs_avg(cpu)->util_avg);
}

static bool wl_nr_sane(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (wl_rq_nr_running(cpu) >= WL_SANE_NR_RUNNING)
			return false;
	}
	return true;
}

static bool wl_pelt_sane(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (wl_rq_util_avg(cpu) > WL_SANE_UTIL)
			return false;
	}
	return true;
}

/**
 * wl_rq_init() - locate the runqueues
 *
 * Attaches the two calibration probes for a few milliseconds.  What
 * cannot be located is reported and left out of the llc table.
 * Context: process, may sleep; once, at load.
 * Return: 0.
 */
int wl_rq_init(void)
{
	int i, ret;

	ret = wl_tp_attach(wl_rq_probes, ARRAY_SIZE(wl_rq_probes));
	if (ret) {
		pr_info("LLC calibration probes unavailable (%d)\n", ret);
		return 0;
	}
	WRITE_ONCE(wl_calib_task, current);
	for (i = 0; i < 50 && READ_ONCE(wl_calib_task); i++)
		schedule_timeout_uninterruptible(1);
	WRITE_ONCE(wl_calib_task, NULL);
	for (i = 0; i < 100 && READ_ONCE(wl_rq_base) &&
	     READ_ONCE(wl_cfs_off) < 0; i++)
		schedule_timeout_uninterruptible(1);
	wl_tp_detach(wl_rq_probes, ARRAY_SIZE(wl_rq_probes));
	tracepoint_synchronize_unregister();

	wl_have_nr = wl_rq_base && wl_rq_base < WL_PERCPU_SPAN && wl_nr_sane();
	wl_have_pelt = wl_have_nr && wl_cfs_off > 0 && wl_pelt_sane();
	if (!wl_have_nr)
		pr_info("runqueues not located: nr_running unavailable\n");
	else if (!wl_have_pelt)
		pr_info("root cfs_rq not located: load/util unavailable\n");
	return 0;
}

/* True when nr_running can be read from the runqueues. */
bool wl_rq_located(void)
{
	return wl_have_nr;
}

/* True when the root cfs_rq's PELT averages can be read. */
bool wl_rq_pelt_located(void)
{
	return wl_have_pelt;
}
