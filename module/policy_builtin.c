// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the built-in wake-affine policies.
 *
 * kernel, old, idle, weight, idle+weight, always and never, plus the
 * tunables (bias, imbalance_pct files) they share.  idle, weight and old
 * are wake_affine_idle(), wake_affine_weight() and wake_affine_old() of
 * the patched kernel's kernel/sched/fair.c, written with fair.c's names
 * (fair.h): only WA_IDLE's sync count is spelt differently, as
 * sched_cpu_nr_runnable(), the count 6.12 and 7.3 compare (6.1: its
 * nr_running).  The differential checks of policy.c evaluate the same
 * functions.  A policy answers args->this_cpu (pull the wakee to the
 * waker) or args->prev_cpu (leave it); "kernel" answers -1, leaving the
 * decision to the sched features.  Every select() runs in the context
 * policies.h describes: raw p->pi_lock held, interrupts off.
 */
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/sched/topology.h>

#include "fair.h"
#include "policies.h"
#include "policy.h"
#include "wa_old.h"

/* The imbalance_pct file's range (0: the domain's). */
#define WL_PCT_MIN	100
#define WL_PCT_MAX	1000

unsigned int wl_bias = WL_BIAS_DEFAULT;
static unsigned int wl_imbalance_pct;

unsigned int wl_policy_bias(void)
{
	return READ_ONCE(wl_bias);
}

/* Return: 0, or -EINVAL for anything but 0 and 1. */
int wl_policy_set_bias(unsigned int val)
{
	if (val > 1)
		return -EINVAL;
	WRITE_ONCE(wl_bias, val);
	return 0;
}

unsigned int wl_policy_imbalance_pct(void)
{
	return READ_ONCE(wl_imbalance_pct);
}

/* Return: 0, or -EINVAL for anything but 0 and 100 to 1000. */
int wl_policy_set_imbalance_pct(unsigned int val)
{
	if (val && (val < WL_PCT_MIN || val > WL_PCT_MAX))
		return -EINVAL;
	WRITE_ONCE(wl_imbalance_pct, val);
	return 0;
}

/**
 * wl_pct() - imbalance_pct a policy should use
 * @args: the question
 *
 * Return: the imbalance_pct file's value, or the domain's when it is 0.
 */
unsigned int wl_pct(const struct wake_affine_args *args)
{
	unsigned int pct = READ_ONCE(wl_imbalance_pct);

	return pct ? pct : args->imbalance_pct;
}

/**
 * wl_fair_answer() - a body's answer as a select() answer
 * @args: the question
 * @cpu: the body's answer
 * @none: the answer for no opinion (nr_cpumask_bits or anything else)
 *
 * Return: this_cpu or prev_cpu as the body answered, else @none.
 */
int wl_fair_answer(const struct wake_affine_args *args, int cpu, int none)
{
	return cpu == args->this_cpu || cpu == args->prev_cpu ? cpu : none;
}

static int
wake_affine_idle(int this_cpu, int prev_cpu, int sync)
{
	/*
	 * If this_cpu is idle, it implies the wakeup is from interrupt
	 * context. Only allow the move if cache is shared.
	 *
	 * If the prev_cpu is idle and cache affine then avoid a migration.
	 */
	if (available_idle_cpu(this_cpu) && cpus_share_cache(this_cpu, prev_cpu))
		return available_idle_cpu(prev_cpu) ? prev_cpu : this_cpu;

	if (sync && sched_cpu_nr_runnable(this_cpu) == 1)
		return this_cpu;

	if (available_idle_cpu(prev_cpu))
		return prev_cpu;

	return nr_cpumask_bits;
}

static int
wake_affine_weight(struct sched_domain *sd, struct task_struct *p,
		   int this_cpu, int prev_cpu, int sync)
{
	s64 this_eff_load, prev_eff_load;
	unsigned long task_load;

	this_eff_load = cpu_load(cpu_rq(this_cpu));

	if (sync) {
		unsigned long current_load = task_h_load(current);

		if (current_load > this_eff_load)
			return this_cpu;

		this_eff_load -= current_load;
	}

	task_load = task_h_load(p);

	this_eff_load += task_load;
	if (sched_feat(WA_BIAS))
		this_eff_load *= 100;
	this_eff_load *= capacity_of(prev_cpu);

	prev_eff_load = cpu_load(cpu_rq(prev_cpu));
	prev_eff_load -= task_load;
	if (sched_feat(WA_BIAS))
		prev_eff_load *= 100 + (sd->imbalance_pct - 100) / 2;
	prev_eff_load *= capacity_of(this_cpu);

	/*
	 * If sync, adjust the weight of prev_eff_load such that if
	 * prev_eff == this_eff that select_idle_sibling() will consider
	 * stacking the wakee on top of the waker if no other CPU is
	 * idle.
	 */
	if (sync)
		prev_eff_load += 1;

	return this_eff_load < prev_eff_load ? this_cpu : nr_cpumask_bits;
}

/* The three rules with one signature, for the table and policy.c. */
int wl_fair_old(struct sched_domain *sd, struct task_struct *p,
		int this_cpu, int prev_cpu, int sync)
{
	return wake_affine_old(sd, p, this_cpu, prev_cpu, sync);
}

int wl_fair_idle_rule(struct sched_domain *sd, struct task_struct *p,
		      int this_cpu, int prev_cpu, int sync)
{
	return wake_affine_idle(this_cpu, prev_cpu, sync);
}

int wl_fair_weight(struct sched_domain *sd, struct task_struct *p,
		   int this_cpu, int prev_cpu, int sync)
{
	return wake_affine_weight(sd, p, this_cpu, prev_cpu, sync);
}

/* The kernel's default: WA_IDLE, then WA_WEIGHT when it has no opinion. */
static int wl_fair_idle_weight(struct sched_domain *sd, struct task_struct *p,
			       int this_cpu, int prev_cpu, int sync)
{
	int target = wake_affine_idle(this_cpu, prev_cpu, sync);

	if (target == nr_cpumask_bits)
		target = wake_affine_weight(sd, p, this_cpu, prev_cpu, sync);
	return target;
}

/* A rule's answer as a decision: no opinion means the previous CPU. */
static int wl_decide(const struct wake_affine_args *args,
		     int (*fair)(struct sched_domain *sd,
				 struct task_struct *p, int this_cpu,
				 int prev_cpu, int sync))
{
	int cpu = fair(wl_fair_sd(wl_pct(args)), args->p, args->this_cpu,
		       args->prev_cpu, args->sync);

	return cpu == args->this_cpu ? cpu : args->prev_cpu;
}

static int wl_select_kernel(const struct wake_affine_args *args)
{
	return -1;
}

static int wl_select_old(const struct wake_affine_args *args)
{
	return wl_decide(args, wl_fair_old);
}

static int wl_select_idle(const struct wake_affine_args *args)
{
	return wl_decide(args, wl_fair_idle_rule);
}

static int wl_select_weight(const struct wake_affine_args *args)
{
	return wl_decide(args, wl_fair_weight);
}

static int wl_select_idle_weight(const struct wake_affine_args *args)
{
	return wl_decide(args, wl_fair_idle_weight);
}

/*
 * WA_ALWAYS: always wake the task on the waking CPU's side, whatever the
 * loads and idle states: the upper bound of wake-affine pulling, to
 * measure what WA_IDLE and WA_WEIGHT save by saying no.
 */
static int
wake_affine_always(struct sched_domain *sd, struct task_struct *p,
		   int this_cpu, int prev_cpu, int sync)
{
	return this_cpu;
}

/*
 * WA_NEVER: never pull the task to the waking CPU's side: the lower bound
 * of wake-affine pulling, as if SD_WAKE_AFFINE were clear.
 */
static int
wake_affine_never(struct sched_domain *sd, struct task_struct *p,
		  int this_cpu, int prev_cpu, int sync)
{
	return prev_cpu;
}

const struct wl_policy wl_policy_kernel = {
	.name	= "kernel",
	.select	= wl_select_kernel,
	.doc	= "pass-through: the sched features (WA_OLD, WA_IDLE, WA_WEIGHT) decide",
};

const struct wl_policy wl_policy_old = {
	.name	= "old",
	.select	= wl_select_old,
	.fair	= wl_fair_old,
	.doc	= "wake_affine_old(): LLC nr_running, load and capacity",
};

const struct wl_policy wl_policy_idle = {
	.name	= "idle",
	.select	= wl_select_idle,
	.fair	= wl_fair_idle_rule,
	.doc	= "wake_affine_idle(): idle waker or previous CPU, sync to a lone waker",
};

const struct wl_policy wl_policy_weight = {
	.name	= "weight",
	.select	= wl_select_weight,
	.fair	= wl_fair_weight,
	.doc	= "wake_affine_weight(): capacity-scaled CPU loads, bias file for WA_BIAS",
};

const struct wl_policy wl_policy_idle_weight = {
	.name	= "idle+weight",
	.select	= wl_select_idle_weight,
	.fair	= wl_fair_idle_weight,
	.doc	= "idle, then weight when idle has no opinion (the kernel's default)",
};

WL_FAIR_POLICY(always, "always the waker's CPU");

WL_FAIR_POLICY(never, "always the previous CPU");
