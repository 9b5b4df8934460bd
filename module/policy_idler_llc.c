// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: idler_llc, a wake-affine policy no kernel has -- and the
 * template to copy when prototyping a new one.
 *
 * To prototype a policy:
 *  1. copy this file to policy_<name>.c, rename wake_affine_idler_llc()
 *     to wake_affine_<name>() and the WL_FAIR_POLICY() line;
 *  2. write the body as fair.c code, with fair.c's own helpers: it is
 *     what `make upstream POLICY=<name>` puts into kernel/sched/fair.c,
 *     unchanged, and the module compiles it against module/fair.h, which
 *     gives the same names the same meaning.  Return this_cpu to pull the
 *     wakee to the waker, prev_cpu to leave it, nr_cpumask_bits for no
 *     opinion: the sched features then decide (WA_IDLE, WA_WEIGHT), as in
 *     wake_affine().  What a body may use is listed in module/fair.h; it
 *     runs under the raw p->pi_lock with interrupts off, on PREEMPT_RT too:
 *     no sleeping, no spinlock_t, no allocation.  Anything of the module
 *     (wl_*, a static variable of this file, a module parameter) cannot be
 *     transplanted and makes `make upstream` refuse the policy;
 *  3. the comment block above the body is the feature's comment in
 *     kernel/sched/features.h and the changelog's description;
 *  4. declare wl_policy_<name> in policies.h, add it to wl_policies[] in
 *     policy.c, the object to module/Kbuild and one to WL_NR_PLACE_ROWS in
 *     place.h;
 *  5. make module, load it, echo <name> > /sys/kernel/debug/wakelab/policy,
 *     compare it with the kernel (make compare POLICIES='kernel;<name>',
 *     docs/wl_compare.md), then make upstream POLICY=<name>
 *     (docs/upstream.md).
 */
#include "fair.h"

/*
 * WA_IDLER_LLC: when the waking and the previous CPU are in different
 * LLCs, wake the task in the LLC with fewer runnable tasks per unit of
 * capacity, as the last load balance counted them; within one LLC, when
 * both are equally busy, or before the first balance, let WA_IDLE and
 * WA_WEIGHT decide.  The waker's LLC must be less busy by the domain's
 * imbalance_pct to pull the task over, as WA_BIAS asks of the waking CPU.
 * Srikar Dronamraju proposed the idea ("sched/fair: Prefer idle CPU to
 * cache affinity", 2021) with nr_busy_cpus; this uses the LLC statistics
 * of sched_domain_shared.
 */
static int
wake_affine_idler_llc(struct sched_domain *sd, struct task_struct *p,
		      int this_cpu, int prev_cpu, int sync)
{
	struct llc_stats this_stats, prev_stats;
	u64 this_busy, prev_busy;

	if (cpus_share_cache(this_cpu, prev_cpu))
		return nr_cpumask_bits;

	if (!read_llc_stats(&this_stats, this_cpu) ||
	    !read_llc_stats(&prev_stats, prev_cpu))
		return nr_cpumask_bits;

	if (!this_stats.capacity || !prev_stats.capacity)
		return nr_cpumask_bits;

	/* Runnable tasks per capacity, cross-multiplied. */
	this_busy = (u64)this_stats.nr_running * prev_stats.capacity;
	prev_busy = (u64)prev_stats.nr_running * this_stats.capacity;

	if (this_busy * sd->imbalance_pct < prev_busy * 100)
		return this_cpu;
	if (prev_busy < this_busy)
		return prev_cpu;

	return nr_cpumask_bits;
}

WL_FAIR_POLICY(idler_llc,
	       "across LLCs the one less busy, else the sched features (the template)");
