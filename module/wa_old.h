/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the arithmetic of wake_affine_old() (WA_OLD, patch 2 of the
 * series) on inputs already read.
 *
 * Nothing here reads the scheduler, so the module decides from a snapshot
 * (its "old" policy reads one just before; the oldcheck differential check
 * reuses the one it compared), and tests/test_wa_old.sh compiles the same
 * code for 64-bit and 32-bit hosts.  The includer provides s64 and struct
 * sched_llc_stats (<linux/sched/wake_affine.h> in the kernel).
 */
#ifndef WAKELAB_WA_OLD_H
#define WAKELAB_WA_OLD_H

/**
 * struct wl_old_inputs - everything wake_affine_old() reads besides its
 *	arguments
 * @this_llc: statistics of the waker's LLC
 * @prev_llc: statistics of the previous CPU's LLC
 * @cur_load: the waker's load (sync wakeups only)
 * @task_load: the wakee's load
 */
struct wl_old_inputs {
	struct sched_llc_stats this_llc, prev_llc;
	unsigned long cur_load, task_load;
};

/**
 * wl_old_pull() - wake_affine_old()'s answer for inputs @in
 * @in: the LLC statistics and loads
 * @sync: WF_SYNC wakeup
 * @pct: imbalance_pct (at least 100)
 *
 * Loads are subtracted as signed 64-bit values: a previous LLC lighter
 * than the wakee's load makes its effective load negative on every
 * architecture (in unsigned long it wraps, which only gives the same
 * answer where long has 64 bits).
 *
 * Return: true to pull the wakee to the waker's CPU, false for no opinion.
 */
static inline bool wl_old_pull(const struct wl_old_inputs *in, int sync,
			       unsigned int pct)
{
	const struct sched_llc_stats *this = &in->this_llc;
	const struct sched_llc_stats *prev = &in->prev_llc;
	s64 this_load = this->load, this_eff_load, prev_eff_load;

	if (sync) {
		if (in->cur_load > this->load)
			return true;
		this_load -= in->cur_load;
	}

	if (prev->has_capacity && prev->nr_running < this->nr_running + 1)
		return false;

	if (this->has_capacity && this->nr_running + 1 < prev->nr_running)
		return true;

	this_eff_load = 100;
	this_eff_load *= prev->capacity;

	prev_eff_load = 100 + (pct - 100) / 2;
	prev_eff_load *= this->capacity;

	this_eff_load *= this_load + (s64)in->task_load;
	prev_eff_load *= (s64)prev->load - (s64)in->task_load;

	return this_eff_load <= prev_eff_load;
}

#endif /* WAKELAB_WA_OLD_H */
