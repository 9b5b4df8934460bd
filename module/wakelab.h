/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: declarations shared by the module's files.
 *
 * The module has two modes.  Observe mode works on any 6.1 kernel: probes
 * on the wakeup path count where woken tasks land (placement counters) and
 * the LLC file reports per-LLC load.  Control mode needs the wake-affine
 * policy hook of the wakelab patch series (<linux/sched/wake_affine.h>,
 * detected by Kbuild, which then defines WAKELAB_HAVE_HOOK): a table of
 * policies, one of which decides every wake_affine() call.
 */
#ifndef WAKELAB_H
#define WAKELAB_H

#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/types.h>

#ifdef WAKELAB_HAVE_HOOK
#include <linux/sched/wake_affine.h>
#endif

struct dentry;
struct task_struct;

/* Columns of the placement table, in print order (see README). */
enum wl_col {
	WL_WAKEUPS,	/* wakeups placed */
	WL_WAKER_CPU,	/* placed on the waker's CPU */
	WL_PREV_CPU,	/* on the wakee's previous CPU (not the waker's) */
	WL_WAKER_LLC,	/* elsewhere in the waker's LLC */
	WL_PREV_LLC,	/* elsewhere in the previous CPU's LLC */
	WL_OTHER,	/* anywhere else */
	WL_CROSS_LLC,	/* target's LLC differs from the previous CPU's */
	WL_SYNC,	/* WF_SYNC wakeups (kretprobe method only) */
	WL_NR_COLS
};

/* Rows of the decisions table: enum wake_affine_rule values. */
#define WL_NR_RULES		5
/* Rows of the oldcheck table. */
enum wl_check {
	WL_CHECK_OLD,	/* rule == WA_RULE_OLD decisions */
	WL_CHECK_ROW,	/* every decision against its placement row */
	WL_NR_CHECKS
};

/* Columns of the oldcheck table. */
enum wl_check_col {
	WL_AGREE,	/* same answer as the kernel */
	WL_DISAGREE,	/* another answer, on the same inputs */
	WL_STALE,	/* inputs changed meanwhile: not compared */
	WL_NR_CHECK_COLS
};

/* Placement rows: one per policy of the table (policy.c), or "observe". */
#ifdef WAKELAB_HAVE_HOOK
#define WL_NR_ROWS		8
#else
#define WL_NR_ROWS		1
#endif

/**
 * struct wl_counters - one CPU's event counters
 * @place: placement counters per policy row, indexed by enum wl_col
 * @rule: wake_affine() decisions per rule: [rule][0] calls, [1] to waker
 * @check: differential check of the old policy: [check][0] agree, [1] not
 *
 * Only the owning CPU writes its copy, from probes that run with interrupts
 * disabled; readers copy each CPU's counters on that CPU (stats.c).  No
 * atomics and no locks on the wakeup path.  Allocated at load, like every
 * per-CPU variable of the module: static per-CPU data would come out of
 * the small reserve all modules share.
 */
struct wl_counters {
	unsigned long place[WL_NR_ROWS][WL_NR_COLS];
	unsigned long rule[WL_NR_RULES][2];
	unsigned long check[WL_NR_CHECKS][WL_NR_CHECK_COLS];
};

extern struct wl_counters __percpu *wl_counters;

/* Observation methods (module parameter "method"). */
enum wl_method {
	WL_METHOD_KRETPROBE,	/* kretprobe on select_task_rq_fair() */
	WL_METHOD_TRACEPOINT,	/* sched_waking + sched_migrate_task */
};

/* main.c */
extern struct mutex wl_lock;
extern int wl_method;

/* debugfs.c: control-mode tunables (files bias and imbalance_pct). */
extern unsigned int wl_bias;
extern unsigned int wl_imbalance_pct;

/* stats.c */
int wl_stats_init(void);
void wl_stats_exit(void);
void wl_stats_reset(void);
void wl_stats_sum(struct wl_counters *sum);
int wl_placement_show(struct seq_file *m, void *v);
int wl_decisions_show(struct seq_file *m, void *v);
int wl_oldcheck_show(struct seq_file *m, void *v);

/* llc.c: LLC grouping and per-LLC statistics. */
extern int *wl_llc_of;
int wl_llc_init(void);
void wl_llc_exit(void);
int wl_llc_show(struct seq_file *m, void *v);
void wl_llc_calib_rq(const void *rq, int change);
void wl_llc_calib_cfs(const void *cfs_rq);
int wl_llc_calibrate(void);
bool wl_llc_live(void);

/* tp.c: probes on the wakeup path. */
int wl_tp_init(void);
void wl_tp_exit(void);
int wl_tp_enable(void);
void wl_tp_disable(void);
bool wl_tp_enabled(void);
bool wl_tp_found(const char *name);
unsigned long wl_tp_missed(void);
bool wl_tp_kretprobe_ok(void);
int wl_tp_calib_attach(void);
void wl_tp_calib_detach(void);

/* debugfs.c */
int wl_debugfs_init(void);
void wl_debugfs_exit(void);

#ifdef WAKELAB_HAVE_HOOK
/**
 * struct wl_policy - one entry of the policy table
 * @name: what the policy file shows and accepts
 * @select: the decision, same contract as wake_affine_policy.select
 * @doc: one line for the README and the policy file's comment
 */
struct wl_policy {
	const char *name;
	int (*select)(const struct wake_affine_args *args);
	const char *doc;
};

extern const struct wl_policy wl_policy_kernel, wl_policy_old,
	wl_policy_idle, wl_policy_weight, wl_policy_idle_weight,
	wl_policy_always, wl_policy_never, wl_policy_idler_llc;

/* policy.c */
int wl_policy_begin(struct task_struct *p);
void wl_policy_forget(void);
int wl_policy_init(void);
void wl_policy_exit(void);
void wl_policy_free(void);
int wl_policy_show(struct seq_file *m, void *v);
int wl_policy_set(const char *name);
int wl_policy_count(void);
const char *wl_policy_name(int row);
void wl_policy_check(struct task_struct *p, int this_cpu, int prev_cpu,
		     int sync, int target, int rule);

#include "wa_old.h"

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

static inline bool wl_hook_present(void)
{
	return true;
}
#else
static inline int wl_policy_begin(struct task_struct *p)
{
	return 0;
}

static inline void wl_policy_forget(void)
{
}

static inline int wl_policy_init(void)
{
	return 0;
}

static inline void wl_policy_exit(void)
{
}

static inline void wl_policy_free(void)
{
}

static inline int wl_policy_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# hook: absent (this kernel has no wake_affine_policy_register())\n");
	seq_puts(m, "[observe]\n");
	return 0;
}

static inline int wl_policy_set(const char *name)
{
	return -EOPNOTSUPP;
}

static inline int wl_policy_count(void)
{
	return 1;
}

static inline const char *wl_policy_name(int row)
{
	return "observe";
}

static inline void wl_policy_check(struct task_struct *p, int this_cpu,
				   int prev_cpu, int sync, int target,
				   int rule)
{
}

static inline bool wl_hook_present(void)
{
	return false;
}
#endif /* WAKELAB_HAVE_HOOK */

#endif /* WAKELAB_H */
