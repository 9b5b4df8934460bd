/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copy of the pinned kernel <-> module interface of the wakelab patch
 * series (include/linux/sched/wake_affine.h), as of its 7.3 version,
 * used only by `make module WAKELAB_FAKE_HOOK=1` to compile control mode
 * against a stock kernel's headers.  A module built that way does not
 * load; real builds use the patched kernel's own header.  The 6.12 series
 * adds sched_cpu_nr_runnable() to the 6.1 API; the 6.1 series lacks it,
 * and the module then uses sched_cpu_nr_running().  The 7.3 series adds
 * sched_cpu_idle(), because available_idle_cpu() became private to
 * kernel/sched/ in 7.3; the 6.1 and 6.12 series lack it and export
 * available_idle_cpu(), which the module then calls.  With this copy the
 * module calls sched_cpu_idle() on every kernel, so that control mode
 * still compiles against 6.1's and 6.12's headers as well as 7.3's.
 */
#ifndef _LINUX_SCHED_WAKE_AFFINE_H
#define _LINUX_SCHED_WAKE_AFFINE_H

#include <linux/types.h>

struct module;
struct task_struct;

enum wake_affine_rule {
	WA_RULE_NONE = 0,
	WA_RULE_IDLE,
	WA_RULE_WEIGHT,
	WA_RULE_OLD,
	WA_RULE_POLICY,
};

struct wake_affine_args {
	struct task_struct *p;
	int this_cpu;
	int prev_cpu;
	int sync;
	unsigned int imbalance_pct;
};

struct wake_affine_policy {
	const char *name;
	int (*select)(const struct wake_affine_args *args);
	struct module *owner;
};

int wake_affine_policy_register(struct wake_affine_policy *policy);
void wake_affine_policy_unregister(struct wake_affine_policy *policy);

struct sched_llc_stats {
	unsigned long nr_running;
	unsigned long load;
	unsigned long capacity;
	int has_capacity;
	unsigned int nr_cpus;
	int id;
};

bool sched_llc_stats_get(int cpu, struct sched_llc_stats *stats);
unsigned long sched_cpu_load(int cpu);
unsigned long sched_cpu_capacity(int cpu);
unsigned int sched_cpu_nr_running(int cpu);
/* rq->nr_running less the delayed-dequeue tasks (wake_affine_idle()). */
unsigned int sched_cpu_nr_runnable(int cpu);
#define sched_cpu_nr_runnable sched_cpu_nr_runnable
/* available_idle_cpu(), which 7.3 no longer exports (wake_affine_idle()). */
bool sched_cpu_idle(int cpu);
#define sched_cpu_idle sched_cpu_idle
unsigned long sched_task_load(struct task_struct *p);

#endif /* _LINUX_SCHED_WAKE_AFFINE_H */
