// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: LLC grouping and the per-LLC statistics of the llc file.
 *
 * CPUs are grouped by get_llc_id(), the cacheinfo-derived id the x86
 * topology code also uses to build the scheduler's LLC domain; an LLC is
 * named by its first online CPU, like the scheduler's sd_llc_id.  The map
 * from CPU to LLC (wl_llc_of, read by the placement probes) is computed at
 * load and again by a CPU hotplug callback whenever a CPU comes or goes;
 * nothing else writes it.
 *
 * On a patched kernel the figures are the kernel's own: the
 * sched_domain_shared statistics that load balancing keeps
 * (sched_llc_stats_get()).  A stock kernel keeps no per-LLC statistics and
 * struct rq is private, so the module reads the per-CPU figures it needs
 * live from the runqueues, which it locates once at load time:
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
 * Every figure is checked for sanity after calibration; what cannot be
 * located prints as "-".
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock_types.h>
#include <linux/rbtree_types.h>

#include "wakelab.h"

/* LLC of each CPU (its first online CPU; an offline CPU's is itself). */
int *wl_llc_of;
static int wl_llc_hp_state;

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

/**
 * wl_llc_calib_rq() - calibration probe on sched_update_nr_running_tp
 * @rq: runqueue whose nr_running changed
 * @change: the change
 *
 * The loading task sleeps during calibration; the first nr_running
 * decrement while it is off its runqueue is its own dequeue in
 * __schedule(), on its own CPU's runqueue.
 */
void wl_llc_calib_rq(const void *rq, int change)
{
	if (current != READ_ONCE(wl_calib_task) || change >= 0 ||
	    READ_ONCE(current->on_rq))
		return;
	WRITE_ONCE(wl_rq_base, (unsigned long)rq -
		   per_cpu_offset(smp_processor_id()));
	WRITE_ONCE(wl_calib_task, NULL);
}

/**
 * wl_llc_calib_cfs() - calibration probe on pelt_cfs_tp
 * @cfs_rq: cfs_rq whose PELT averages were updated
 *
 * Group cfs_rqs are allocated separately; the only cfs_rq inside a
 * runqueue is its root cfs_rq.
 */
void wl_llc_calib_cfs(const void *cfs_rq)
{
	unsigned long base = READ_ONCE(wl_rq_base);
	unsigned long x = (unsigned long)cfs_rq, rq;

	if (!base || READ_ONCE(wl_cfs_off) >= 0)
		return;
	rq = base + per_cpu_offset(smp_processor_id());
	if (x > rq && x - rq < WL_RQ_SPAN)
		WRITE_ONCE(wl_cfs_off, x - rq);
}

static const void *wl_rq(int cpu)
{
	return (const void *)(wl_rq_base + per_cpu_offset(cpu));
}

static unsigned int wl_nr_running(int cpu)
{
	const struct wl_rq_head *rq = wl_rq(cpu);

	return READ_ONCE(rq->nr_running);
}

static const struct sched_avg *wl_cfs_avg(int cpu)
{
	const struct wl_cfs_rq_head *cfs = wl_rq(cpu) + wl_cfs_off;

	return &cfs->avg;
}

static bool wl_calib_sane(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (wl_nr_running(cpu) >= WL_SANE_NR_RUNNING)
			return false;
	}
	return true;
}

static bool wl_pelt_sane(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (READ_ONCE(wl_cfs_avg(cpu)->util_avg) > WL_SANE_UTIL)
			return false;
	}
	return true;
}

/**
 * wl_llc_calibrate() - locate the runqueues (stock kernel figures)
 *
 * Attaches the two calibration probes for a few milliseconds.
 * Context: process, may sleep, wl_lock held.
 * Return: 0, or -errno when the probes could not be attached.
 */
int wl_llc_calibrate(void)
{
	int i, ret;

	ret = wl_tp_calib_attach();
	if (ret)
		return ret;
	WRITE_ONCE(wl_calib_task, current);
	for (i = 0; i < 50 && READ_ONCE(wl_calib_task); i++)
		schedule_timeout_uninterruptible(1);
	WRITE_ONCE(wl_calib_task, NULL);
	for (i = 0; i < 100 && READ_ONCE(wl_rq_base) &&
	     READ_ONCE(wl_cfs_off) < 0; i++)
		schedule_timeout_uninterruptible(1);
	wl_tp_calib_detach();

	wl_have_nr = wl_rq_base && wl_rq_base < WL_PERCPU_SPAN &&
		     wl_calib_sane();
	wl_have_pelt = wl_have_nr && wl_cfs_off > 0 && wl_pelt_sane();
	if (!wl_have_nr)
		pr_info("wakelab: runqueues not located: nr_running unavailable\n");
	else if (!wl_have_pelt)
		pr_info("wakelab: root cfs_rq not located: load/util unavailable\n");
	return 0;
}

/* True when per-CPU figures can be read from the runqueues. */
bool wl_llc_live(void)
{
	return wl_have_nr;
}

/*
 * Recompute each CPU's LLC, @gone counted as offline (-1 for none).
 * Context: hotplug lock held (read or write).  Readers on the wakeup path
 * may see a mix of old and new values while it runs.
 */
static void wl_llc_map(int gone)
{
	int cpu, first, other;

	for_each_possible_cpu(cpu) {
		first = cpu;
		if (cpu_online(cpu) && cpu != gone &&
		    get_llc_id(cpu) != BAD_APICID) {
			for_each_online_cpu(other) {
				if (other != gone &&
				    get_llc_id(other) == get_llc_id(cpu)) {
					first = other;
					break;
				}
			}
		}
		WRITE_ONCE(wl_llc_of[cpu], first);
	}
}

/* CPUHP_AP_ONLINE_DYN: @cpu is online, or still online on the way down. */
static int wl_llc_cpu_online(unsigned int cpu)
{
	wl_llc_map(-1);
	return 0;
}

static int wl_llc_cpu_offline(unsigned int cpu)
{
	wl_llc_map(cpu);
	return 0;
}

/**
 * wl_llc_init() - map CPUs to LLCs, and keep the map across hotplug
 *
 * Return: 0, or -errno.
 */
int wl_llc_init(void)
{
	int ret;

	wl_llc_of = kcalloc(nr_cpu_ids, sizeof(*wl_llc_of), GFP_KERNEL);
	if (!wl_llc_of)
		return -ENOMEM;
	cpus_read_lock();
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "sched/wakelab:online",
						   wl_llc_cpu_online,
						   wl_llc_cpu_offline);
	if (ret >= 0) {
		wl_llc_hp_state = ret;
		wl_llc_map(-1);
	}
	cpus_read_unlock();
	if (ret < 0) {
		kfree(wl_llc_of);
		wl_llc_of = NULL;
		return ret;
	}
	return 0;
}

/* Once no probe runs any more. */
void wl_llc_exit(void)
{
	cpuhp_remove_state_nocalls(wl_llc_hp_state);
	kfree(wl_llc_of);
	wl_llc_of = NULL;
}

/**
 * struct wl_llc_row - one line of the llc file
 * @nr_running: sum of rq->nr_running, or the LLC's statistic
 * @load: sum of root cfs_rq load_avg, or the LLC's statistic
 * @util: sum of root cfs_rq util_avg
 * @capacity: sum of CPU capacities, or the LLC's statistic
 * @nr_cpus: CPUs in the LLC
 * @have_nr: nr_running (and has_capacity) known
 * @have_load: load known
 * @have_util: util known
 */
struct wl_llc_row {
	unsigned long nr_running, load, util, capacity;
	unsigned int nr_cpus;
	bool have_nr, have_load, have_util;
};

static void wl_llc_live_row(const struct cpumask *cpus, struct wl_llc_row *r)
{
	int cpu;

	memset(r, 0, sizeof(*r));
	for_each_cpu(cpu, cpus) {
		r->nr_cpus++;
		r->capacity += arch_scale_cpu_capacity(cpu);
		if (wl_have_nr)
			r->nr_running += wl_nr_running(cpu);
		if (wl_have_pelt) {
			r->load += READ_ONCE(wl_cfs_avg(cpu)->load_avg);
			r->util += READ_ONCE(wl_cfs_avg(cpu)->util_avg);
		}
	}
	r->have_nr = wl_have_nr;
	r->have_load = wl_have_pelt;
	r->have_util = wl_have_pelt;
}

#ifdef WAKELAB_HAVE_HOOK
static bool wl_llc_kernel_row(int first, struct wl_llc_row *r)
{
	struct sched_llc_stats s;
	bool ok;

	rcu_read_lock();
	ok = sched_llc_stats_get(first, &s);
	rcu_read_unlock();
	if (!ok)
		return false;
	r->nr_running = s.nr_running;
	r->load = s.load;
	r->capacity = s.capacity;
	r->have_nr = true;
	r->have_load = true;
	return true;
}

static void wl_llc_source(struct seq_file *m)
{
	seq_puts(m, "# source: sched_domain_shared (the kernel's LLC statistics, refreshed by load balancing): nr_running load capacity has_capacity\n");
	seq_puts(m, "# source: util: sum of the CPUs' root cfs_rq util_avg, read live\n");
}
#else
static bool wl_llc_kernel_row(int first, struct wl_llc_row *r)
{
	return false;
}

static void wl_llc_source(struct seq_file *m)
{
	seq_puts(m, "# source: tracepoint-fed per-CPU cache: per-CPU figures read live from runqueues located through sched_update_nr_running_tp and pelt_cfs_tp at load time\n");
	seq_puts(m, "# nr_running: sum of rq->nr_running (all classes)\n");
	seq_puts(m, "# load, util: sums of the root cfs_rq PELT load_avg and util_avg\n");
	seq_puts(m, "# capacity: sum of arch_scale_cpu_capacity() (not reduced by RT/IRQ pressure)\n");
}
#endif

static void wl_put(struct seq_file *m, bool have, unsigned long v)
{
	if (have)
		seq_printf(m, " %lu", v);
	else
		seq_puts(m, " -");
}

int wl_llc_show(struct seq_file *m, void *v)
{
	struct wl_llc_row r, live;
	cpumask_var_t seen, cpus;
	int cpu, other;

	if (!zalloc_cpumask_var(&seen, GFP_KERNEL))
		return -ENOMEM;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL)) {
		free_cpumask_var(seen);
		return -ENOMEM;
	}
	wl_llc_source(m);
	seq_puts(m, "# has_capacity: nr_running < CPUs in the LLC\n");
	seq_puts(m, "llc cpus nr_running load util capacity has_capacity\n");
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (cpumask_test_cpu(cpu, seen))
			continue;
		cpumask_clear(cpus);
		for_each_online_cpu(other) {
			if (READ_ONCE(wl_llc_of[other]) == cpu)
				cpumask_set_cpu(other, cpus);
		}
		cpumask_or(seen, seen, cpus);
		wl_llc_live_row(cpus, &live);
		r = live;
		if (wl_llc_kernel_row(cpu, &r)) {
			r.util = live.util;
			r.have_util = live.have_util;
		}
		seq_printf(m, "%d %*pbl", cpu, cpumask_pr_args(cpus));
		wl_put(m, r.have_nr, r.nr_running);
		wl_put(m, r.have_load, r.load);
		wl_put(m, r.have_util, r.util);
		wl_put(m, true, r.capacity);
		wl_put(m, r.have_nr, r.nr_running < r.nr_cpus);
		seq_putc(m, '\n');
	}
	cpus_read_unlock();
	free_cpumask_var(cpus);
	free_cpumask_var(seen);
	return 0;
}
