/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the policies of the table and what they share (control mode
 * only: policy.c, policy_builtin.c and policy_<name>.c).
 */
#ifndef WAKELAB_POLICIES_H
#define WAKELAB_POLICIES_H

#include <linux/sched/wake_affine.h>
#include <linux/types.h>

#include "wa_old.h"

/**
 * struct wl_policy - one entry of the policy table
 * @name: what the policy file shows and accepts
 * @select: the decision, same contract as wake_affine_policy.select
 * @doc: one line for docs/module.md and the policy file's comment
 *
 * Context of @select: wake_affine(), inside select_task_rq_fair() on the
 * waker's CPU, with the wakee's p->pi_lock (a raw spinlock) held and
 * interrupts off, inside rcu_read_lock(); on PREEMPT_RT too.  So: no
 * sleeping, no spinlock_t, mutex or rwlock_t (they sleep on PREEMPT_RT),
 * no memory allocation (it may take a spinlock_t on PREEMPT_RT, even with
 * GFP_ATOMIC), no printk; only this CPU's per-CPU data, READ_ONCE() of
 * shared values and the lockless helpers of <linux/sched/wake_affine.h>.
 * The placement and decision probes (place.c) run in the same context.
 */
struct wl_policy {
	const char *name;
	int (*select)(const struct wake_affine_args *args);
	const char *doc;
};

extern const struct wl_policy wl_policy_kernel, wl_policy_old,
	wl_policy_idle, wl_policy_weight, wl_policy_idle_weight,
	wl_policy_always, wl_policy_never, wl_policy_idler_llc;

/**
 * struct wl_idle_inputs - what wake_affine_idle() reads besides its
 *	arguments
 * @this_idle: wl_cpu_idle() of the waker's CPU
 * @share_cache: cpus_share_cache() of the two CPUs (read when @this_idle)
 * @prev_idle: wl_cpu_idle() of the previous CPU
 * @this_nr: the waker CPU's count the sync test compares with 1 (sync
 *	wakeups only, else 0)
 */
struct wl_idle_inputs {
	bool this_idle;
	bool share_cache;
	bool prev_idle;
	unsigned int this_nr;
};

/**
 * struct wl_weight_inputs - what wake_affine_weight() reads besides its
 *	arguments and WA_BIAS
 * @this_load: sched_cpu_load() of the waker's CPU
 * @prev_load: sched_cpu_load() of the previous CPU
 * @cur_load: the waker's load (sync wakeups only, else 0)
 * @task_load: the wakee's load
 * @this_cap: sched_cpu_capacity() of the waker's CPU
 * @prev_cap: sched_cpu_capacity() of the previous CPU
 */
struct wl_weight_inputs {
	unsigned long this_load;
	unsigned long prev_load;
	unsigned long cur_load;
	unsigned long task_load;
	unsigned long this_cap;
	unsigned long prev_cap;
};

/* The bias file: WA_BIAS for the module's weight policies. */
extern unsigned int wl_bias;

/* policy_builtin.c: helpers the policies share (and the template uses). */
unsigned int wl_pct(const struct wake_affine_args *args);
int wl_wa_idle(const struct wake_affine_args *args);
int wl_wa_weight(const struct wake_affine_args *args);
int wl_wa_old(const struct wake_affine_args *args);

bool wl_old_inputs_get(const struct wake_affine_args *args,
		       struct wl_old_inputs *in);
bool wl_old_inputs_same(const struct wl_old_inputs *a,
			const struct wl_old_inputs *b);

void wl_idle_inputs_get(const struct wake_affine_args *args,
			struct wl_idle_inputs *in);
bool wl_idle_inputs_same(const struct wl_idle_inputs *a,
			 const struct wl_idle_inputs *b);
int wl_idle_decide(const struct wake_affine_args *args,
		   const struct wl_idle_inputs *in);
void wl_weight_inputs_get(const struct wake_affine_args *args,
			  struct wl_weight_inputs *in);
bool wl_weight_inputs_same(const struct wl_weight_inputs *a,
			   const struct wl_weight_inputs *b);
int wl_weight_decide(const struct wake_affine_args *args,
		     const struct wl_weight_inputs *in, bool bias,
		     unsigned int pct);
bool wl_cpu_idle(int cpu);

#endif /* WAKELAB_POLICIES_H */
