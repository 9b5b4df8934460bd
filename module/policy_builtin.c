// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the built-in wake-affine policies.
 *
 * kernel, old, idle, weight, idle+weight, always and never, plus the
 * helpers and the tunables (bias, imbalance_pct files) they share.  idle,
 * weight and old are module copies of wake_affine_idle(),
 * wake_affine_weight() and wake_affine_old() in
 * kernel/sched/fair.c of the patched 6.1 kernel, built on the helpers the
 * series exports.  A policy answers args->this_cpu (pull the wakee to the
 * waker) or args->prev_cpu (leave it); "kernel" answers -1, leaving the
 * decision to the sched features.  Every select() runs in the context
 * policies.h describes: raw p->pi_lock held, interrupts off.
 */
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/sched/topology.h>

#include "policies.h"
#include "policy.h"

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
 * wl_cpu_idle() - available_idle_cpu(), as wake_affine_idle() tests it
 * @cpu: CPU
 *
 * Idle, no wakeup queued for it, and (in a guest) its vCPU not preempted.
 * The 6.1 and 6.12 series export available_idle_cpu() itself; from 7.3 on
 * it is private to kernel/sched/, and the series exports sched_cpu_idle()
 * instead, also defined as a macro to test for.
 */
bool wl_cpu_idle(int cpu)
{
#ifdef sched_cpu_idle
	return sched_cpu_idle(cpu);
#else
	return available_idle_cpu(cpu);
#endif
}

/*
 * The count wake_affine_idle()'s sync test compares with 1: where the
 * kernel has delayed dequeue, its header provides sched_cpu_nr_runnable()
 * (rq->nr_running less the delayed-dequeue tasks, as the kernel's own test
 * reads it); elsewhere rq->nr_running.
 */
#ifdef sched_cpu_nr_runnable
#define wl_cpu_nr_sync(cpu)	sched_cpu_nr_runnable(cpu)
#else
#define wl_cpu_nr_sync(cpu)	sched_cpu_nr_running(cpu)
#endif

/**
 * wl_wa_idle() - wake_affine_idle() of the kernel built for
 * @args: the question
 *
 * Return: this_cpu, prev_cpu, or -1 for no opinion.
 */
int wl_wa_idle(const struct wake_affine_args *args)
{
	int this_cpu = args->this_cpu, prev_cpu = args->prev_cpu;

	if (wl_cpu_idle(this_cpu) && cpus_share_cache(this_cpu, prev_cpu))
		return wl_cpu_idle(prev_cpu) ? prev_cpu : this_cpu;
	if (args->sync && wl_cpu_nr_sync(this_cpu) == 1)
		return this_cpu;
	if (wl_cpu_idle(prev_cpu))
		return prev_cpu;
	return -1;
}

/**
 * wl_wa_weight() - wake_affine_weight(), WA_BIAS read from the bias file
 * @args: the question
 *
 * Return: this_cpu, or -1 for no opinion.
 */
int wl_wa_weight(const struct wake_affine_args *args)
{
	int this_cpu = args->this_cpu, prev_cpu = args->prev_cpu;
	bool bias = READ_ONCE(wl_bias);
	s64 this_eff_load, prev_eff_load;
	unsigned long task_load;

	this_eff_load = sched_cpu_load(this_cpu);
	if (args->sync) {
		unsigned long current_load = sched_task_load(current);

		if (current_load > this_eff_load)
			return this_cpu;
		this_eff_load -= current_load;
	}

	task_load = sched_task_load(args->p);
	this_eff_load += task_load;
	if (bias)
		this_eff_load *= 100;
	this_eff_load *= sched_cpu_capacity(prev_cpu);

	prev_eff_load = sched_cpu_load(prev_cpu);
	prev_eff_load -= task_load;
	if (bias)
		prev_eff_load *= 100 + (wl_pct(args) - 100) / 2;
	prev_eff_load *= sched_cpu_capacity(this_cpu);

	/* A tie stacks the wakee on a sync waker. */
	if (args->sync)
		prev_eff_load += 1;

	return this_eff_load < prev_eff_load ? this_cpu : -1;
}

/**
 * wl_old_inputs_get() - read what wl_wa_old() would read now
 * @args: the question
 * @in: the inputs
 *
 * Return: false when an LLC has no statistics.
 */
bool wl_old_inputs_get(const struct wake_affine_args *args,
		       struct wl_old_inputs *in)
{
	if (!sched_llc_stats_get(args->prev_cpu, &in->prev_llc) ||
	    !sched_llc_stats_get(args->this_cpu, &in->this_llc))
		return false;
	in->cur_load = args->sync ? sched_task_load(current) : 0;
	in->task_load = sched_task_load(args->p);
	return true;
}

static bool wl_llc_stats_same(const struct sched_llc_stats *a,
			      const struct sched_llc_stats *b)
{
	return a->nr_running == b->nr_running && a->load == b->load &&
	       a->capacity == b->capacity &&
	       a->has_capacity == b->has_capacity;
}

/* Whether two readings of wl_wa_old()'s inputs would decide alike. */
bool wl_old_inputs_same(const struct wl_old_inputs *a,
			const struct wl_old_inputs *b)
{
	return wl_llc_stats_same(&a->this_llc, &b->this_llc) &&
	       wl_llc_stats_same(&a->prev_llc, &b->prev_llc) &&
	       a->cur_load == b->cur_load && a->task_load == b->task_load;
}

/**
 * wl_wa_old() - wake_affine_old(): compare the two LLCs' statistics
 * @args: the question
 *
 * Return: this_cpu, or -1 for no opinion.
 */
int wl_wa_old(const struct wake_affine_args *args)
{
	struct wl_old_inputs in;

	if (!wl_old_inputs_get(args, &in))
		return -1;
	return wl_old_pull(&in, args->sync, wl_pct(args)) ? args->this_cpu : -1;
}

/* A helper's answer as a decision: no opinion means the previous CPU. */
static int wl_decide(const struct wake_affine_args *args, int cpu)
{
	return cpu == args->this_cpu ? cpu : args->prev_cpu;
}

static int wl_select_kernel(const struct wake_affine_args *args)
{
	return -1;
}

static int wl_select_old(const struct wake_affine_args *args)
{
	return wl_decide(args, wl_wa_old(args));
}

static int wl_select_idle(const struct wake_affine_args *args)
{
	return wl_decide(args, wl_wa_idle(args));
}

static int wl_select_weight(const struct wake_affine_args *args)
{
	return wl_decide(args, wl_wa_weight(args));
}

static int wl_select_idle_weight(const struct wake_affine_args *args)
{
	int cpu = wl_wa_idle(args);

	if (cpu < 0)
		cpu = wl_wa_weight(args);
	return wl_decide(args, cpu);
}

static int wl_select_always(const struct wake_affine_args *args)
{
	return args->this_cpu;
}

static int wl_select_never(const struct wake_affine_args *args)
{
	return args->prev_cpu;
}

const struct wl_policy wl_policy_kernel = {
	.name	= "kernel",
	.select	= wl_select_kernel,
	.doc	= "pass-through: the sched features (WA_OLD, WA_IDLE, WA_WEIGHT) decide",
};

const struct wl_policy wl_policy_old = {
	.name	= "old",
	.select	= wl_select_old,
	.doc	= "wake_affine_old(): LLC nr_running, load and capacity",
};

const struct wl_policy wl_policy_idle = {
	.name	= "idle",
	.select	= wl_select_idle,
	.doc	= "wake_affine_idle(): idle waker or previous CPU, sync to a lone waker",
};

const struct wl_policy wl_policy_weight = {
	.name	= "weight",
	.select	= wl_select_weight,
	.doc	= "wake_affine_weight(): capacity-scaled CPU loads, bias file for WA_BIAS",
};

const struct wl_policy wl_policy_idle_weight = {
	.name	= "idle+weight",
	.select	= wl_select_idle_weight,
	.doc	= "idle, then weight when idle has no opinion (the kernel's default)",
};

const struct wl_policy wl_policy_always = {
	.name	= "always",
	.select	= wl_select_always,
	.doc	= "always the waker's CPU",
};

const struct wl_policy wl_policy_never = {
	.name	= "never",
	.select	= wl_select_never,
	.doc	= "always the previous CPU",
};
