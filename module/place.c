// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the placement probes -- where each woken task lands, and what
 * each wake_affine() call decided.
 *
 * Two observation methods feed the placement counters (module parameter
 * "method"; see docs/results.md for the measured cost of each):
 *
 *  - kretprobe: a kretprobe on select_task_rq_fair().  The entry handler
 *    keeps prev_cpu and WF_SYNC from the arguments (their order and
 *    WF_SYNC's value come from the target kernel, layout.h), the return
 *    handler reads the chosen CPU; both run on the waker's CPU with
 *    p->pi_lock held and interrupts off.  Sees exactly the fair-class
 *    wakeup placements (wakee TASK_WAKING).
 *  - tracepoint: sched_waking (waker CPU, previous CPU) and
 *    sched_migrate_task (the new CPU when the wakee moves), both fired on
 *    the waker's CPU inside try_to_wake_up().  Cheaper, but blind to
 *    WF_SYNC, and it also counts wakeups that never reached
 *    select_task_rq() (wakee still queued or still on its CPU).
 *
 * Either method also counts, in the lb_migr column, the fair tasks that
 * sched_migrate_task reports moving while not TASK_WAKING: those are not
 * wakeup placements but load balancing (periodic, idle, newidle, active,
 * and on 7.3 SCHED_CACHE's LLC migrations), exec and NUMA balancing,
 * affinity changes and hotplug; lb_cross_llc counts those into another
 * LLC.  A migration is rarer than a wakeup, and the probe costs a test of
 * the task's state, which the tracepoint method made anyway.
 *
 * On a patched kernel, sched_wake_affine_tp reports every wake_affine()
 * decision with its rule, counted in the set of its wakee.  A wakeup is
 * counted in the placement row of the policy that decides it: the probe
 * reads the active row once per wakeup (wl_place_begin()), the policy
 * hook's select() decides with that row (wl_place_row_of()), and the
 * "row" check of oldcheck compares every decision's rule with it.  The
 * "old", "idle", "weight" and "transplant" checks are the policy layer's:
 * it is called through the callback it registers
 * (wl_place_set_oldcheck()).  A rule above WA_RULE_POLICY is a
 * feature added after the series (make upstream), counted as "feature".
 *
 * Each wakeup is counted in one of two sets by its wakee (each migration by
 * the task moved): the workload's (a cgroup, workload.c), or every other
 * task's; with no workload set, every task is the workload's.
 *
 * Probes are attached only while the enable file reads 1; detaching waits
 * with tracepoint_synchronize_unregister() so no probe runs on return.
 */
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/rt.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "llc.h"
#include "place.h"
#include "probe.h"
#include "workload.h"

#include "layout.h"

/*
 * select_task_rq_fair()'s parameters (p, prev_cpu, wake_flags), in the
 * target kernel's order, and its WF_SYNC (kernel/sched/sched.h), both
 * from layout.h.  Without the parameters the kretprobe method is refused
 * at load; without WF_SYNC the sync column is "-".
 */
#if defined(WL_STRF_ARG_P) && defined(WL_STRF_ARG_PREV_CPU) && \
	defined(WL_STRF_ARG_WAKE_FLAGS)
#define WL_KRP_ARGS_KNOWN	true
#else
#define WL_KRP_ARGS_KNOWN	false
/* Placeholders that keep the handler compiled; it is never registered. */
#define WL_STRF_ARG_P		0
#define WL_STRF_ARG_PREV_CPU	0
#define WL_STRF_ARG_WAKE_FLAGS	0
#endif

#ifdef WL_WF_SYNC
#define WL_SYNC_FLAG		WL_WF_SYNC
#else
#define WL_SYNC_FLAG		0
#endif

static char *method = "tracepoint";
module_param(method, charp, 0444);
MODULE_PARM_DESC(method,
		 "placement observation: tracepoint (sched_waking + sched_migrate_task, default) or kretprobe (select_task_rq_fair; see docs/module.md before unloading it under load)");

static enum wl_method wl_method;

/* Serialises enable, disable and exit. */
static DEFINE_MUTEX(wl_place_lock);
static bool wl_enabled;

/* The row new wakeups are counted in (the active policy); 0 is "kernel". */
static int wl_active_row;

static void (*wl_oldcheck)(struct task_struct *p, int this_cpu,
			   int prev_cpu, int sync, int target, int rule,
			   unsigned long (*check)[WL_NR_CHECK_COLS]);

static struct wl_event_counters __percpu *wl_events;

/**
 * struct wl_place_cpu - a CPU's wakeup in progress
 * @p: the wakee seen at sched_waking, NULL when nothing is pending
 * @prev: its CPU at sched_waking
 * @set: placement set it was counted in (enum wl_place_set)
 * @row: placement row it was counted in
 * @cur_p: the wakee whose row wl_place_begin() read last
 * @cur_row: that row, the one select() decides its wakeup with
 */
struct wl_place_cpu {
	struct task_struct *p;
	int prev;
	int set;
	int row;
	struct task_struct *cur_p;
	int cur_row;
};

static struct wl_place_cpu __percpu *wl_cpu;

/* The row the wakeup of @p is counted in; select() then uses it too. */
static int wl_place_begin(struct task_struct *p)
{
	struct wl_place_cpu *s = this_cpu_ptr(wl_cpu);

	/* Pairs with wl_place_set_row(): a row read is a row registered. */
	s->cur_row = smp_load_acquire(&wl_active_row);
	s->cur_p = p;
	return s->cur_row;
}

/* The set @p's placement is counted in. */
static int wl_set_of(struct task_struct *p)
{
	return wl_workload_has(p) ? WL_SET_WORKLOAD : WL_SET_OTHERS;
}

static void wl_count(int set, int row, int waker, int prev, int target,
		     int sync, unsigned long d)
{
	struct wl_event_counters *c = this_cpu_ptr(wl_events);
	int tllc = wl_llc_of(target);
	int pllc = wl_llc_of(prev);
	unsigned long *p = c->place[set][row];

	p[WL_WAKEUPS] += d;
	if (target == waker)
		p[WL_WAKER_CPU] += d;
	else if (target == prev)
		p[WL_PREV_CPU] += d;
	else if (tllc == wl_llc_of(waker))
		p[WL_WAKER_LLC] += d;
	else if (tllc == pllc)
		p[WL_PREV_LLC] += d;
	else
		p[WL_OTHER] += d;
	if (tllc != pllc)
		p[WL_CROSS_LLC] += d;
	if (sync)
		p[WL_SYNC] += d;
}

static void wl_probe_waking(void *data, struct task_struct *p)
{
	struct wl_place_cpu *w = this_cpu_ptr(wl_cpu);
	int cpu = smp_processor_id();
	int row;

	w->p = NULL;
	/* Not a placement: self-wakeup or not fair class. */
	if (p == current || p->prio < MAX_RT_PRIO)
		return;
	/* The row select() decides with, counted here or not. */
	row = wl_place_begin(p);
	/* Not a placement either: still queued (a migrating one goes on). */
	if (READ_ONCE(p->on_rq))
		return;
	w->p = p;
	w->prev = task_cpu(p);
	w->set = wl_set_of(p);
	w->row = row;
	/* Counted as staying on prev until sched_migrate_task says else. */
	wl_count(w->set, w->row, cpu, w->prev, w->prev, 0, 1);
}

/*
 * A fair task moved while not waking (see the top): counted in the active
 * row of its set.  set_task_cpu() fires sched_migrate_task with the task's rq locked
 * (interrupts off) and before the move, so task_cpu(p) is the source.
 */
static void wl_count_lb(struct task_struct *p, int dest)
{
	struct wl_event_counters *c = this_cpu_ptr(wl_events);
	unsigned long *row;

	if (p->prio < MAX_RT_PRIO || dest < 0 || dest >= nr_cpu_ids)
		return;
	row = c->place[wl_set_of(p)][READ_ONCE(wl_active_row)];
	row[WL_LB_MIGR]++;
	if (wl_llc_of(dest) != wl_llc_of(task_cpu(p)))
		row[WL_LB_CROSS_LLC]++;
}

static void wl_probe_migrate(void *data, struct task_struct *p, int dest)
{
	struct wl_place_cpu *w = this_cpu_ptr(wl_cpu);
	int cpu = smp_processor_id();

	if (READ_ONCE(p->__state) != TASK_WAKING) {
		wl_count_lb(p, dest);
		return;
	}
	if (w->p != p)
		return;
	w->p = NULL;
	if (dest < 0 || dest >= nr_cpu_ids || dest == w->prev)
		return;
	wl_count(w->set, w->row, cpu, w->prev, w->prev, 0, -1UL);
	wl_count(w->set, w->row, cpu, w->prev, dest, 0, 1);
}

/*
 * A wake_affine() decision, right after the hook's select() saw the same
 * wakeup on this CPU.  The row check: a module policy's row must get
 * WA_RULE_POLICY decisions, row 0 ("kernel") the features' rules.
 */
static void wl_probe_wake_affine(void *data, struct task_struct *p,
				 int this_cpu, int prev_cpu, int sync,
				 int target, int rule)
{
	struct wl_place_cpu *s = this_cpu_ptr(wl_cpu);
	struct wl_event_counters *c = this_cpu_ptr(wl_events);
	unsigned long *row = c->check[WL_CHECK_ROW];
	typeof(wl_oldcheck) check = READ_ONCE(wl_oldcheck);
	unsigned long *dec;

	if (rule < 0)
		return;
	if (rule > WL_RULE_POLICY)
		rule = WL_RULE_FEATURE;
	dec = c->rule[wl_set_of(p)][rule];
	dec[WL_DECISION_CALLS]++;
	if (target == this_cpu)
		dec[WL_DECISION_WAKER]++;

	if (s->cur_p != p)
		row[WL_STALE]++;
	else if ((s->cur_row != 0) == (rule == WL_RULE_POLICY))
		row[WL_AGREE]++;
	else
		row[WL_DISAGREE]++;
	s->cur_p = NULL;

	if (check && rule != WL_RULE_NONE && rule != WL_RULE_POLICY)
		check(p, this_cpu, prev_cpu, sync, target, rule, c->check);
}

static struct wl_tp_probe wl_place_probes[] = {
	{ "sched_waking", wl_probe_waking },
	{ "sched_migrate_task", wl_probe_migrate },
};

/* The kretprobe method's view of the migrations that are not wakeups. */
static void wl_probe_lb(void *data, struct task_struct *p, int dest)
{
	if (READ_ONCE(p->__state) != TASK_WAKING)
		wl_count_lb(p, dest);
}

static struct wl_tp_probe wl_lb_probe = {
	"sched_migrate_task", wl_probe_lb
};

/* Optional: only a patched kernel has it. */
static struct wl_tp_probe wl_decision_probe = {
	"sched_wake_affine_tp", wl_probe_wake_affine
};

/**
 * struct wl_krp_data - what the entry handler keeps for the return handler
 * @set: placement set (enum wl_place_set)
 * @row: placement row, from wl_place_begin()
 * @prev: the wakee's previous CPU
 * @sync: WF_SYNC (and the waker not exiting)
 */
struct wl_krp_data {
	int set;
	int row;
	int prev;
	int sync;
};

/*
 * Entry of select_task_rq_fair(), p->pi_lock held, interrupts off.  A
 * wakeup is told from fork and exec balancing by the wakee's state:
 * try_to_wake_up() sets TASK_WAKING before it calls select_task_rq(),
 * which needs no WF_TTWU value.
 */
static int wl_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct wl_krp_data *d = (struct wl_krp_data *)ri->data;
	struct task_struct *p = (struct task_struct *)
		regs_get_kernel_argument(regs, WL_STRF_ARG_P);
	unsigned long flags;

	/* Disabled, or fork/exec balancing: no return handler. */
	if (!READ_ONCE(wl_enabled) || READ_ONCE(p->__state) != TASK_WAKING)
		return 1;
	flags = regs_get_kernel_argument(regs, WL_STRF_ARG_WAKE_FLAGS);
	d->row = wl_place_begin(p);
	d->set = wl_set_of(p);
	d->prev = regs_get_kernel_argument(regs, WL_STRF_ARG_PREV_CPU);
	d->sync = (flags & WL_SYNC_FLAG) && !(current->flags & PF_EXITING);
	return 0;
}

static int wl_krp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct wl_krp_data *d = (struct wl_krp_data *)ri->data;
	long target = regs_return_value(regs);

	if (target < 0 || target >= nr_cpu_ids ||
	    d->prev < 0 || d->prev >= nr_cpu_ids)
		return 0;
	wl_count(d->set, d->row, smp_processor_id(), d->prev, target,
		 d->sync, 1);
	return 0;
}

/* Detach the tracepoint probes and wait until none runs. */
static void wl_place_detach(void)
{
	wl_tp_detach(&wl_decision_probe, 1);
	wl_tp_detach(&wl_lb_probe, 1);
	wl_tp_detach(wl_place_probes, ARRAY_SIZE(wl_place_probes));
	tracepoint_synchronize_unregister();
}

/*
 * The kretprobe is registered at the first enable and stays armed until
 * module exit; while disabled its entry handler returns at once, so the
 * enable file toggles without patching kernel text each time.
 */
static int wl_place_attach(void)
{
	int ret;

	if (wl_method == WL_METHOD_KRETPROBE) {
		ret = wl_krp_attach("select_task_rq_fair", wl_krp_entry,
				    wl_krp_ret, sizeof(struct wl_krp_data));
		if (!ret)
			ret = wl_tp_attach(&wl_lb_probe, 1);
	} else {
		ret = wl_tp_attach(wl_place_probes,
				   ARRAY_SIZE(wl_place_probes));
	}
	if (ret)
		return ret;
	ret = wl_tp_attach(&wl_decision_probe, 1);
	return ret == -ENOENT ? 0 : ret;
}

/**
 * wl_place_enable() - attach the placement (and decision) probes
 *
 * Context: process.  Return: 0 or -errno, nothing attached on error.
 */
int wl_place_enable(void)
{
	int ret = 0;

	mutex_lock(&wl_place_lock);
	if (!wl_enabled) {
		ret = wl_place_attach();
		if (ret)
			wl_place_detach();
		else
			WRITE_ONCE(wl_enabled, true);
	}
	mutex_unlock(&wl_place_lock);
	return ret;
}

static void wl_place_disable_locked(void)
{
	int cpu;

	lockdep_assert_held(&wl_place_lock);
	if (!wl_enabled)
		return;
	WRITE_ONCE(wl_enabled, false);
	wl_place_detach();
	/* Forget the wakeups the probes saw. */
	for_each_possible_cpu(cpu) {
		struct wl_place_cpu *s = per_cpu_ptr(wl_cpu, cpu);

		s->p = NULL;
		WRITE_ONCE(s->cur_p, NULL);
	}
}

/**
 * wl_place_disable() - detach every placement probe and wait for them
 *
 * Context: process.
 */
void wl_place_disable(void)
{
	mutex_lock(&wl_place_lock);
	wl_place_disable_locked();
	mutex_unlock(&wl_place_lock);
}

bool wl_place_enabled(void)
{
	return READ_ONCE(wl_enabled);
}

enum wl_method wl_place_method(void)
{
	return wl_method;
}

/* Whether the method sees WF_SYNC (the sync column). */
bool wl_place_sees_sync(void)
{
	return wl_method == WL_METHOD_KRETPROBE && WL_SYNC_FLAG;
}

/* Whether select_task_rq_fair()'s parameter order is known. */
bool wl_place_krp_args_known(void)
{
	return WL_KRP_ARGS_KNOWN;
}

/* Whether WF_SYNC's value is known. */
bool wl_place_wf_sync_known(void)
{
	return WL_SYNC_FLAG;
}

/* Whether this kernel reports wake_affine() decisions. */
bool wl_place_has_decisions(void)
{
	return wl_tp_find(wl_decision_probe.name);
}

/* The counters; only stats.c reads and clears them, on their CPU. */
struct wl_event_counters __percpu *wl_place_counters(void)
{
	return wl_events;
}

/**
 * wl_place_set_row() - count the wakeups from now on in row @row
 * @row: a placement row (the index of the active policy)
 *
 * Pairs with the row readers: whatever the caller did before (registering
 * the hook) is visible to a wakeup that reads @row.
 */
void wl_place_set_row(int row)
{
	/* Pairs with smp_load_acquire() in the row readers. */
	smp_store_release(&wl_active_row, row);
}

/* The row new wakeups are counted in. */
int wl_place_row(void)
{
	return READ_ONCE(wl_active_row);
}

/**
 * wl_place_row_of() - the row the wakeup of @p on this CPU is counted in
 * @p: the wakee
 *
 * Called by select(), interrupts off, after the placement probe read the
 * row of the same wakeup (or, probes detached, the active row).
 * Return: the row.
 */
int wl_place_row_of(const struct task_struct *p)
{
	struct wl_place_cpu *s = this_cpu_ptr(wl_cpu);

	/* Pairs with wl_place_set_row(): a row read is a row registered. */
	return s->cur_p == p ? s->cur_row : smp_load_acquire(&wl_active_row);
}

/**
 * wl_place_set_oldcheck() - the check of the kernel rules' decisions
 * @check: called for each decision of a kernel rule (WA_RULE_OLD,
 *	WA_RULE_IDLE, WA_RULE_WEIGHT or a feature's), with the decision, its
 *	rule (enum wl_rule) and this CPU's oldcheck counters to count it in.
 *	NULL for none.
 *
 * Context: process, probes detached.
 */
void wl_place_set_oldcheck(void (*check)(struct task_struct *p, int this_cpu,
					 int prev_cpu, int sync, int target,
					 int rule,
					 unsigned long (*counts)[WL_NR_CHECK_COLS]))
{
	WRITE_ONCE(wl_oldcheck, check);
}

/**
 * wl_place_init() - check the method, allocate the counters
 *
 * Return: 0, -EINVAL for an unknown method, -ENOENT when the method's
 * tracepoints are missing, or -ENOMEM.
 */
int wl_place_init(void)
{
	size_t i;

	if (!strcmp(method, "kretprobe")) {
		if (!WL_KRP_ARGS_KNOWN) {
			pr_err("method kretprobe needs select_task_rq_fair()'s parameters from the kernel's BTF (build with WAKELAB_BTF)\n");
			return -EOPNOTSUPP;
		}
		wl_method = WL_METHOD_KRETPROBE;
	} else if (!strcmp(method, "tracepoint")) {
		wl_method = WL_METHOD_TRACEPOINT;
	} else {
		pr_err("unknown method '%s' (kretprobe or tracepoint)\n",
		       method);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(wl_place_probes); i++) {
		if (wl_method == WL_METHOD_TRACEPOINT &&
		    !wl_tp_find(wl_place_probes[i].name)) {
			pr_err("tracepoints for method %s not found\n", method);
			return -ENOENT;
		}
	}
	if (!wl_tp_find(wl_lb_probe.name)) {
		pr_err("tracepoint %s not found\n", wl_lb_probe.name);
		return -ENOENT;
	}
	wl_events = alloc_percpu(struct wl_event_counters);
	wl_cpu = alloc_percpu(struct wl_place_cpu);
	if (!wl_events || !wl_cpu) {
		wl_place_exit();
		return -ENOMEM;
	}
	return 0;
}

/* Detach everything; then free the counters. */
void wl_place_exit(void)
{
	mutex_lock(&wl_place_lock);
	wl_place_disable_locked();
	wl_krp_detach();
	mutex_unlock(&wl_place_lock);
	free_percpu(wl_cpu);
	free_percpu(wl_events);
	wl_cpu = NULL;
	wl_events = NULL;
}
