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
bool wl_cpu_idle(int cpu);

#endif /* WAKELAB_POLICIES_H */
