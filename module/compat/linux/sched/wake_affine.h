/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copy of the pinned kernel <-> module interface of the wakelab patch
 * series (include/linux/sched/wake_affine.h), as of its 6.12 version,
 * used only by `make module WAKELAB_FAKE_HOOK=1` to compile control mode
 * against a stock kernel's headers.  A module built that way does not
 * load; real builds use the patched kernel's own header.  The 6.12 series
 * adds sched_cpu_nr_runnable() to the 6.1 API; the 6.1 series lacks it,
 * and the module then uses sched_cpu_nr_running().
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
unsigned long sched_task_load(struct task_struct *p);

#endif /* _LINUX_SCHED_WAKE_AFFINE_H */
