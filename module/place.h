/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the placement probes, which classify every wakeup placement and
 * wake_affine() decision into per-CPU counters.
 */
#ifndef WAKELAB_PLACE_H
#define WAKELAB_PLACE_H

#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/wakelab.h>

struct task_struct;

/* Columns of the placement table (WL_WAKEUPS, WL_WAKER_CPU, ...). */
#define WL_PLACE_ENUM(id, ...)		WL_##id,
enum wl_place_col {
	WAKELAB_PLACEMENT_COLUMNS(WL_PLACE_ENUM)
	WL_NR_COLS
};

/* Columns of the decisions table. */
#define WL_DECISION_ENUM(id, ...)	WL_DECISION_##id,
enum wl_decision_col {
	WAKELAB_DECISIONS_COLUMNS(WL_DECISION_ENUM)
	WL_NR_DECISION_COLS
};

/* Rows of the decisions table: the kernel's enum wake_affine_rule. */
#define WL_RULE_ENUM(id, ...)		WL_RULE_##id,
enum wl_rule {
	WAKELAB_RULES(WL_RULE_ENUM)
	WL_NR_RULES
};

/* Columns of the oldcheck table (WL_AGREE, WL_DISAGREE, WL_STALE). */
#define WL_CHECK_COL_ENUM(id, ...)	WL_##id,
enum wl_check_col {
	WAKELAB_OLDCHECK_COLUMNS(WL_CHECK_COL_ENUM)
	WL_NR_CHECK_COLS
};

/* Rows of the oldcheck table. */
#define WL_CHECK_ENUM(id, ...)		WL_CHECK_##id,
enum wl_check {
	WAKELAB_OLDCHECK_ROWS(WL_CHECK_ENUM)
	WL_NR_CHECKS
};

/*
 * The two sets of placement counters: the workload's tasks (the placement
 * table) and every other task (placement_others), workload.c telling them
 * apart.
 */
enum wl_place_set {
	WL_SET_WORKLOAD,
	WL_SET_OTHERS,
	WL_NR_SETS
};

/* Placement rows: one per policy of the table (policy.c), or "observe". */
#ifdef WAKELAB_HAVE_HOOK
#define WL_NR_PLACE_ROWS	8
#else
#define WL_NR_PLACE_ROWS	1
#endif

/**
 * struct wl_event_counters - one CPU's event counters
 * @place: placement counters per set (enum wl_place_set) and row, indexed
 *	by enum wl_place_col
 * @rule: wake_affine() decisions per set and rule, indexed by enum
 *	wl_decision_col
 * @check: checks of the decisions, indexed by enum wl_check_col
 *
 * Only the owning CPU writes its copy, from probes that run with interrupts
 * disabled; readers copy each CPU's counters on that CPU (stats.c).  No
 * atomics and no locks on the wakeup path.  Allocated at load, like every
 * per-CPU variable of the module: static per-CPU data would come out of
 * the small reserve all modules share.
 */
struct wl_event_counters {
	unsigned long place[WL_NR_SETS][WL_NR_PLACE_ROWS][WL_NR_COLS];
	unsigned long rule[WL_NR_SETS][WL_NR_RULES][WL_NR_DECISION_COLS];
	unsigned long check[WL_NR_CHECKS][WL_NR_CHECK_COLS];
};

/* Observation methods (module parameter "method"). */
enum wl_method {
	WL_METHOD_KRETPROBE,	/* kretprobe on select_task_rq_fair() */
	WL_METHOD_TRACEPOINT,	/* sched_waking + sched_migrate_task */
};

int wl_place_init(void);
void wl_place_exit(void);
int wl_place_enable(void);
void wl_place_disable(void);
bool wl_place_enabled(void);
enum wl_method wl_place_method(void);
bool wl_place_has_decisions(void);
bool wl_place_sees_sync(void);
bool wl_place_krp_args_known(void);
bool wl_place_wf_sync_known(void);
struct wl_event_counters __percpu *wl_place_counters(void);

void wl_place_set_row(int row);
int wl_place_row(void);
int wl_place_row_of(const struct task_struct *p);
void wl_place_set_oldcheck(void (*check)(struct task_struct *p, int this_cpu,
					 int prev_cpu, int sync, int target,
					 int rule,
					 unsigned long (*counts)[WL_NR_CHECK_COLS]));

#endif /* WAKELAB_PLACE_H */
