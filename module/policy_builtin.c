// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the built-in wake-affine policies.
 *
 * kernel, old, idle, weight, idle+weight, always and never, plus the
 * helpers and the tunables (bias, imbalance_pct files) they share.  idle,
 * weight and old are module copies of wake_affine_idle(),
 * wake_affine_weight() and wake_affine_old() in
 * kernel/sched/fair.c of the patched kernel (6.1, 6.12 and 7.3 differ only
 * in WA_IDLE's sync count), built on the helpers the series exports.  Each
 * reads its inputs first and decides on them, so the oldcheck differential
 * check (policy.c) recomputes it on the inputs it compared.  A policy
 * answers args->this_cpu (pull the wakee to the waker) or args->prev_cpu
 * (leave it); "kernel" answers -1, leaving the decision to the sched
 * features.  Every select() runs in the context policies.h describes: raw
 * p->pi_lock held, interrupts off.
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
 * wl_idle_inputs_get() - read what wl_wa_idle() decides on, now
 * @args: the question
 * @in: the inputs
 */
void wl_idle_inputs_get(const struct wake_affine_args *args,
			struct wl_idle_inputs *in)
{
	int this_cpu = args->this_cpu, prev_cpu = args->prev_cpu;

	in->this_idle = wl_cpu_idle(this_cpu);
	in->share_cache = in->this_idle && cpus_share_cache(this_cpu, prev_cpu);
	in->this_nr = args->sync ? wl_cpu_nr_sync(this_cpu) : 0;
	in->prev_idle = wl_cpu_idle(prev_cpu);
}

/* Whether two readings of wl_wa_idle()'s inputs are the same. */
bool wl_idle_inputs_same(const struct wl_idle_inputs *a,
			 const struct wl_idle_inputs *b)
{
	return a->this_idle == b->this_idle &&
	       a->share_cache == b->share_cache &&
	       a->prev_idle == b->prev_idle && a->this_nr == b->this_nr;
}

/**
 * wl_idle_decide() - wake_affine_idle() of the kernel built for, on inputs
 *	already read
 * @args: the question
 * @in: its inputs (wl_idle_inputs_get())
 *
 * Return: this_cpu, prev_cpu, or -1 for no opinion.
 */
int wl_idle_decide(const struct wake_affine_args *args,
		   const struct wl_idle_inputs *in)
{
	int this_cpu = args->this_cpu, prev_cpu = args->prev_cpu;

	if (in->this_idle && in->share_cache)
		return in->prev_idle ? prev_cpu : this_cpu;
	if (args->sync && in->this_nr == 1)
		return this_cpu;
	if (in->prev_idle)
		return prev_cpu;
	return -1;
}

/**
 * wl_wa_idle() - wake_affine_idle() of the kernel built for
 * @args: the question
 *
 * Return: this_cpu, prev_cpu, or -1 for no opinion.
 */
int wl_wa_idle(const struct wake_affine_args *args)
{
	struct wl_idle_inputs in;

	wl_idle_inputs_get(args, &in);
	return wl_idle_decide(args, &in);
}

/**
 * wl_weight_inputs_get() - read what wl_wa_weight() decides on, now
 * @args: the question
 * @in: the inputs
 */
void wl_weight_inputs_get(const struct wake_affine_args *args,
			  struct wl_weight_inputs *in)
{
	int this_cpu = args->this_cpu, prev_cpu = args->prev_cpu;

	in->this_load = sched_cpu_load(this_cpu);
	in->cur_load = args->sync ? sched_task_load(current) : 0;
	in->task_load = sched_task_load(args->p);
	in->prev_load = sched_cpu_load(prev_cpu);
	in->this_cap = sched_cpu_capacity(this_cpu);
	in->prev_cap = sched_cpu_capacity(prev_cpu);
}

/* Whether two readings of wl_wa_weight()'s inputs are the same. */
bool wl_weight_inputs_same(const struct wl_weight_inputs *a,
			   const struct wl_weight_inputs *b)
{
	return a->this_load == b->this_load &&
	       a->prev_load == b->prev_load &&
	       a->cur_load == b->cur_load && a->task_load == b->task_load &&
	       a->this_cap == b->this_cap && a->prev_cap == b->prev_cap;
}

/**
 * wl_weight_decide() - wake_affine_weight() on inputs already read
 * @args: the question
 * @in: its inputs (wl_weight_inputs_get())
 * @bias: WA_BIAS
 * @pct: imbalance_pct (at least 100)
 *
 * The arithmetic and its types are the kernel's: the loads are unsigned
 * long, the effective loads s64.
 *
 * Return: this_cpu, or -1 for no opinion.
 */
int wl_weight_decide(const struct wake_affine_args *args,
		     const struct wl_weight_inputs *in, bool bias,
		     unsigned int pct)
{
	s64 this_eff_load, prev_eff_load;

	this_eff_load = in->this_load;
	if (args->sync) {
		if (in->cur_load > this_eff_load)
			return args->this_cpu;
		this_eff_load -= in->cur_load;
	}

	this_eff_load += in->task_load;
	if (bias)
		this_eff_load *= 100;
	this_eff_load *= in->prev_cap;

	prev_eff_load = in->prev_load;
	prev_eff_load -= in->task_load;
	if (bias)
		prev_eff_load *= 100 + (pct - 100) / 2;
	prev_eff_load *= in->this_cap;

	/* A tie stacks the wakee on a sync waker. */
	if (args->sync)
		prev_eff_load += 1;

	return this_eff_load < prev_eff_load ? args->this_cpu : -1;
}

/**
 * wl_wa_weight() - wake_affine_weight(), WA_BIAS read from the bias file
 * @args: the question
 *
 * Return: this_cpu, or -1 for no opinion.
 */
int wl_wa_weight(const struct wake_affine_args *args)
{
	struct wl_weight_inputs in;

	wl_weight_inputs_get(args, &in);
	return wl_weight_decide(args, &in, READ_ONCE(wl_bias), wl_pct(args));
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
