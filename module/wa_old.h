/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: wake_affine_old() (WA_OLD, patch 2 of the series), the text of
 * the patched kernel's fair.c.
 *
 * The includer provides fair.c's names: module/fair.h in the module,
 * stubs in tests/helpers/wa_old_check.c, which builds the same code for 64-bit
 * and 32-bit hosts.  The loads are subtracted as signed 64-bit values: a
 * previous LLC lighter than the wakee's load makes its effective load
 * negative on every architecture.
 */
#ifndef WAKELAB_WA_OLD_H
#define WAKELAB_WA_OLD_H

static int
wake_affine_old(struct sched_domain *sd, struct task_struct *p,
		int this_cpu, int prev_cpu, int sync)
{
	struct llc_stats prev_stats, this_stats;
	s64 this_eff_load, prev_eff_load;
	unsigned long task_load;

	if (!read_llc_stats(&prev_stats, prev_cpu) ||
	    !read_llc_stats(&this_stats, this_cpu))
		return nr_cpumask_bits;

	if (sync) {
		unsigned long current_load = task_h_load(current);

		if (current_load > this_stats.load)
			return this_cpu;

		this_stats.load -= current_load;
	}

	if (prev_stats.has_capacity &&
	    prev_stats.nr_running < this_stats.nr_running + 1)
		return nr_cpumask_bits;

	if (this_stats.has_capacity &&
	    this_stats.nr_running + 1 < prev_stats.nr_running)
		return this_cpu;

	task_load = task_h_load(p);

	this_eff_load = 100;
	this_eff_load *= prev_stats.capacity;

	prev_eff_load = 100 + (sd->imbalance_pct - 100) / 2;
	prev_eff_load *= this_stats.capacity;

	this_eff_load *= this_stats.load + task_load;
	prev_eff_load *= (s64)prev_stats.load - (s64)task_load;

	return this_eff_load <= prev_eff_load ? this_cpu : nr_cpumask_bits;
}

#endif /* WAKELAB_WA_OLD_H */
