/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the policies of the table and what they share (control mode
 * only: policy.c, policy_builtin.c and policy_<name>.c).
 */
#ifndef WAKELAB_POLICIES_H
#define WAKELAB_POLICIES_H

#include <linux/sched/wake_affine.h>
#include <linux/types.h>

struct sched_domain;
struct task_struct;

/**
 * struct wl_policy - one entry of the policy table
 * @name: what the policy file shows and accepts
 * @select: the decision, same contract as wake_affine_policy.select
 * @fair: the body in fair.c form (fair.h) that @select answers with,
 *	this_cpu, prev_cpu or nr_cpumask_bits, for the differential checks;
 *	NULL for a policy without one
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
	int (*fair)(struct sched_domain *sd, struct task_struct *p,
		    int this_cpu, int prev_cpu, int sync);
	const char *doc;
};

extern const struct wl_policy wl_policy_kernel, wl_policy_old,
	wl_policy_idle, wl_policy_weight, wl_policy_idle_weight,
	wl_policy_always, wl_policy_never, wl_policy_idler_llc;

/* The bias file: WA_BIAS for the module's weight policies. */
extern unsigned int wl_bias;

/* policy_builtin.c: the kernel's rules in fair.c form, and their glue. */
unsigned int wl_pct(const struct wake_affine_args *args);
int wl_fair_answer(const struct wake_affine_args *args, int cpu, int none);
int wl_fair_old(struct sched_domain *sd, struct task_struct *p,
		int this_cpu, int prev_cpu, int sync);
int wl_fair_idle_rule(struct sched_domain *sd, struct task_struct *p,
		      int this_cpu, int prev_cpu, int sync);
int wl_fair_weight(struct sched_domain *sd, struct task_struct *p,
		   int this_cpu, int prev_cpu, int sync);

#endif /* WAKELAB_POLICIES_H */
