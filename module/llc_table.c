// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the llc table -- one row per LLC, keyed by its first CPU.
 *
 * On a patched kernel the figures are the kernel's own: the
 * sched_domain_shared statistics that load balancing keeps
 * (sched_llc_stats_get()), and util, which it does not keep, read live.
 * On a stock kernel every figure is read live from the runqueues (rq.c):
 * nr_running counts runnable tasks, not the delayed-dequeue ones a 6.12
 * kernel keeps queued; what could not be read prints as "-".
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/rcupdate.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#ifdef WAKELAB_HAVE_HOOK
#include <linux/sched/wake_affine.h>
#endif

#include "llc.h"
#include "llc_table.h"
#include "rq.h"
#include "table.h"

static const char * const wl_llc_col_names[] = {
	WAKELAB_LLC_COLUMNS(WL_TABLE_NAME)
};

/**
 * struct wl_llc_row - one line of the llc file
 * @nr_running: sum of the CPUs' runnable tasks, or the LLC's statistic
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
	bool have = wl_rq_located();
	int cpu;

	memset(r, 0, sizeof(*r));
	for_each_cpu(cpu, cpus) {
		r->nr_cpus++;
		r->capacity += arch_scale_cpu_capacity(cpu);
		if (have) {
			r->nr_running += wl_rq_nr_runnable(cpu);
			r->load += wl_rq_load_avg(cpu);
			r->util += wl_rq_util_avg(cpu);
		}
	}
	r->have_nr = have;
	r->have_load = have;
	r->have_util = have;
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
	seq_printf(m, "# source: per-CPU figures read live from the runqueues through the kernel's own layout (%s), confirmed through sched_update_nr_running_tp at load (%s)\n",
		   wl_rq_layout(), wl_rq_reason());
	seq_printf(m, "# nr_running: sum of runnable tasks, all classes, delayed-dequeue ones not counted (%s)\n",
		   wl_rq_nr_source());
	seq_puts(m, "# load, util: sums of the root cfs_rq PELT load_avg and util_avg\n");
	seq_puts(m, "# capacity: sum of arch_scale_cpu_capacity() (not reduced by RT/IRQ pressure)\n");
}
#endif

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
	wl_table_put_version(m);
	wl_llc_source(m);
	seq_puts(m, "# has_capacity: nr_running < CPUs in the LLC\n");
	wl_table_put_header(m, WAKELAB_LLC_KEY, wl_llc_col_names,
			    ARRAY_SIZE(wl_llc_col_names));
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (cpumask_test_cpu(cpu, seen))
			continue;
		cpumask_clear(cpus);
		for_each_online_cpu(other) {
			if (wl_llc_of(other) == cpu)
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
		wl_table_put_value(m, r.have_nr, r.nr_running);
		wl_table_put_value(m, r.have_load, r.load);
		wl_table_put_value(m, r.have_util, r.util);
		wl_table_put_value(m, true, r.capacity);
		wl_table_put_value(m, r.have_nr, r.nr_running < r.nr_cpus);
		seq_putc(m, '\n');
	}
	cpus_read_unlock();
	free_cpumask_var(cpus);
	free_cpumask_var(seen);
	return 0;
}
