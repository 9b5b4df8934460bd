// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: idler_llc, a wake-affine policy no kernel has -- and the
 * template to copy when prototyping a new one.
 *
 * The idea is Srikar Dronamraju's unmerged WA_IDLER_LLC proposal
 * ("sched/fair: Prefer idle CPU to cache affinity", 2021): when the waker
 * and the previous CPU sit in different LLCs, wake the task in the LLC
 * with fewer busy CPUs, comparing the fraction of each LLC that is busy.
 * Within one LLC, or on a tie, wake_affine_idle() and then
 * wake_affine_weight() decide as in 6.1.  The proposal counted busy CPUs
 * with nr_busy_cpus; this uses the patched kernel's LLC statistics
 * (nr_running per LLC, from load balancing), which is what a module can
 * read.
 *
 * To prototype a policy:
 *  1. copy this file to policy_<name>.c and rename wl_policy_idler_llc;
 *  2. write select(): return args->this_cpu to pull the wakee to the
 *     waker, args->prev_cpu to leave it, -1 to let the sched features
 *     decide.  It runs under the raw p->pi_lock with interrupts off, on
 *     PREEMPT_RT too (policies.h): no sleeping, no spinlock_t, no
 *     allocation.  Read the scheduler through sched_llc_stats_get(),
 *     sched_cpu_load(), sched_cpu_capacity(), sched_cpu_nr_running(),
 *     sched_cpu_nr_runnable() (where defined), sched_task_load(),
 *     cpus_share_cache() and the helpers in policy_builtin.c; the tunables
 *     bias and imbalance_pct are wl_bias and wl_pct(args);
 *  3. declare it in policies.h, add it to wl_policies[] in policy.c, the
 *     object to module/Kbuild and one to WL_NR_ROWS in place.h;
 *  4. make module, load it, echo <name> > /sys/kernel/debug/wakelab/policy
 *     and compare it with wl_compare (docs/wl_compare.md).
 */
#include <linux/sched/topology.h>

#include "policies.h"

static int wl_select_idler_llc(const struct wake_affine_args *args)
{
	int this_cpu = args->this_cpu, prev_cpu = args->prev_cpu;
	struct sched_llc_stats this_llc, prev_llc;
	u64 this_busy, prev_busy;
	int cpu;

	if (!cpus_share_cache(this_cpu, prev_cpu) &&
	    sched_llc_stats_get(this_cpu, &this_llc) &&
	    sched_llc_stats_get(prev_cpu, &prev_llc) &&
	    this_llc.nr_cpus && prev_llc.nr_cpus) {
		/* Busy fractions, cross-multiplied: busy/nr_cpus. */
		this_busy = (u64)min_t(unsigned long, this_llc.nr_running,
				       this_llc.nr_cpus) * prev_llc.nr_cpus;
		prev_busy = (u64)min_t(unsigned long, prev_llc.nr_running,
				       prev_llc.nr_cpus) * this_llc.nr_cpus;
		/* The imbalance margin favours staying, as WA_BIAS does. */
		if (this_busy * wl_pct(args) < prev_busy * 100)
			return this_cpu;
		if (prev_busy < this_busy)
			return prev_cpu;
	}

	cpu = wl_wa_idle(args);
	if (cpu < 0)
		cpu = wl_wa_weight(args);
	return cpu == this_cpu ? this_cpu : prev_cpu;
}

const struct wl_policy wl_policy_idler_llc = {
	.name	= "idler_llc",
	.select	= wl_select_idler_llc,
	.doc	= "across LLCs the one less busy, else idle+weight (the template)",
};
