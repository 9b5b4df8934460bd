/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: fair.c's names, for a policy body written as fair.c code.
 *
 * A policy's body is a function with the signature of fair.c's
 * wake_affine_weight():
 *
 *	static int
 *	wake_affine_<name>(struct sched_domain *sd, struct task_struct *p,
 *			   int this_cpu, int prev_cpu, int sync)
 *
 * returning this_cpu, prev_cpu or nr_cpumask_bits (no opinion), and using
 * only the names below.  The same text then compiles here, against the
 * series' exported helpers, and in kernel/sched/fair.c, where `make
 * upstream` puts it unchanged (docs/upstream.md):
 *
 *   name                        fair.c                     here
 *   cpu_rq(cpu)                 the CPU's runqueue         a handle naming the CPU
 *   cpu_load(rq)                cpu_load()                 sched_cpu_load()
 *   capacity_of(cpu)            capacity_of()              sched_cpu_capacity()
 *   available_idle_cpu(cpu)     available_idle_cpu()       sched_cpu_idle() (7.x),
 *                                                          available_idle_cpu() (6.x)
 *   cpus_share_cache(a, b)      cpus_share_cache()         the same function
 *   task_h_load(p)              task_h_load()              sched_task_load()
 *   struct llc_stats,           the series' LLC statistics sched_llc_stats_get()
 *   read_llc_stats(&s, cpu)     (patch 2)
 *   sched_cpu_nr_running(cpu),  the series' exports        the same functions
 *   sched_cpu_nr_runnable(cpu)  (rq->nr_running, less      (6.1: nr_running)
 *                               delayed dequeues)
 *   sd->imbalance_pct           the wake domain's          the same, or the
 *                                                          imbalance_pct file's
 *   sched_feat(WA_BIAS)         the feature                the bias file
 *
 * and current, nr_cpumask_bits, min()/max()/min_t()/max_t() and the
 * kernel's integer types, which mean the same in both.  sd carries nothing
 * but imbalance_pct here; a struct rq nothing but its CPU's number.
 *
 * While a read log is open on this CPU (wl_fair_log_open()), every value
 * read through these names is noted in it: two evaluations of a body whose
 * logs are equal read the same scheduler state in the same order, so they
 * decided alike (the differential checks of policy.c).
 */
#ifndef WAKELAB_FAIR_H
#define WAKELAB_FAIR_H

#include <linux/cpumask.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/topology.h>
#include <linux/sched/wake_affine.h>

#include "policies.h"

/* What a read log noted: which name, and its argument. */
enum wl_fair_read {
	WL_READ_CPU_LOAD = 1,
	WL_READ_CAPACITY,
	WL_READ_IDLE,
	WL_READ_SHARE_CACHE,
	WL_READ_TASK_LOAD,
	WL_READ_LLC,
	WL_READ_NR_RUNNING,
	WL_READ_NR_RUNNABLE,
};

/* Words a log holds (three a reading): a policy, then idle and weight. */
#define WL_FAIR_LOG_LEN		120

/**
 * struct wl_fair_log - the scheduler state one evaluation read
 * @n: words noted
 * @overflow: more were read than @v holds (the log compares unequal)
 * @v: for each reading, what was read (enum wl_fair_read, argument), then
 *	the value
 */
struct wl_fair_log {
	unsigned int n;
	bool overflow;
	unsigned long v[WL_FAIR_LOG_LEN];
};

/* A CPU's runqueue, as a policy body sees it here: the CPU's number. */
struct rq {
	int cpu;
};

/* The struct llc_stats of fair.c (the series' patch 2). */
struct llc_stats {
	unsigned long nr_running;
	unsigned long load;
	unsigned long capacity;
	int has_capacity;
};

int wl_fair_init(void);
void wl_fair_exit(void);
struct rq *wl_fair_cpu_rq(int cpu);
struct sched_domain *wl_fair_sd(unsigned int imbalance_pct);
unsigned long wl_fair_note(enum wl_fair_read what, long arg,
			   unsigned long val);
void wl_fair_log_open(struct wl_fair_log *log);
void wl_fair_log_close(void);
bool wl_fair_log_same(const struct wl_fair_log *a,
		      const struct wl_fair_log *b);
bool wl_fair_read_llc_stats(struct llc_stats *stats, int cpu);

static inline unsigned long cpu_load(struct rq *rq)
{
	return wl_fair_note(WL_READ_CPU_LOAD, rq->cpu, sched_cpu_load(rq->cpu));
}

static inline unsigned long capacity_of(int cpu)
{
	return wl_fair_note(WL_READ_CAPACITY, cpu, sched_cpu_capacity(cpu));
}

static inline unsigned long wl_fair_task_h_load(struct task_struct *p)
{
	return wl_fair_note(WL_READ_TASK_LOAD, (long)p, sched_task_load(p));
}

static inline int wl_fair_idle(int cpu)
{
#ifdef sched_cpu_idle
	return wl_fair_note(WL_READ_IDLE, cpu, sched_cpu_idle(cpu));
#else
	return wl_fair_note(WL_READ_IDLE, cpu, available_idle_cpu(cpu));
#endif
}

static inline bool wl_fair_share_cache(int a, int b)
{
	return wl_fair_note(WL_READ_SHARE_CACHE, a * nr_cpu_ids + b,
			    cpus_share_cache(a, b));
}

static inline unsigned int wl_fair_nr_running(int cpu)
{
	return wl_fair_note(WL_READ_NR_RUNNING, cpu, sched_cpu_nr_running(cpu));
}

/* Where the kernel has no delayed dequeue, its nr_running. */
static inline unsigned int wl_fair_nr_runnable(int cpu)
{
#ifdef sched_cpu_nr_runnable
	return wl_fair_note(WL_READ_NR_RUNNABLE, cpu, sched_cpu_nr_runnable(cpu));
#else
	return wl_fair_note(WL_READ_NR_RUNNABLE, cpu, sched_cpu_nr_running(cpu));
#endif
}

static inline bool wl_fair_feat_WA_BIAS(void)
{
	return READ_ONCE(wl_bias);
}

/*
 * The names whose kernel declarations differ (6.x declares
 * available_idle_cpu(), the series sched_cpu_nr_running() and
 * sched_cpu_nr_runnable()): macros over the noting versions above.
 */
#undef available_idle_cpu
#undef cpus_share_cache
#undef sched_cpu_nr_running
#undef sched_cpu_nr_runnable
#define cpu_rq(cpu)			wl_fair_cpu_rq(cpu)
#define task_h_load(p)			wl_fair_task_h_load(p)
#define available_idle_cpu(cpu)		wl_fair_idle(cpu)
#define cpus_share_cache(a, b)		wl_fair_share_cache(a, b)
#define sched_cpu_nr_running(cpu)	wl_fair_nr_running(cpu)
#define sched_cpu_nr_runnable(cpu)	wl_fair_nr_runnable(cpu)
#define read_llc_stats(stats, cpu)	wl_fair_read_llc_stats(stats, cpu)
#define sched_feat(x)			wl_fair_feat_##x()

/**
 * WL_FAIR_POLICY() - a policy of the table from a body in fair.c form
 * @pname: the policy's name; its body is wake_affine_@pname()
 * @pdoc: one line for the policy file and docs/module.md
 *
 * The policy answers the body's this_cpu or prev_cpu; for no opinion it
 * answers -1, and the sched features decide, as after WA_<NAME> in the
 * fair.c wake_affine() of `make upstream`.
 */
#define WL_FAIR_POLICY(pname, pdoc)					\
static int wl_select_##pname(const struct wake_affine_args *args)	\
{									\
	return wl_fair_answer(args,					\
		wake_affine_##pname(wl_fair_sd(wl_pct(args)), args->p,	\
				    args->this_cpu, args->prev_cpu,	\
				    args->sync), -1);			\
}									\
const struct wl_policy wl_policy_##pname = {				\
	.name	= #pname,						\
	.select	= wl_select_##pname,					\
	.fair	= wake_affine_##pname,					\
	.doc	= pdoc,							\
}

#endif /* WAKELAB_FAIR_H */
