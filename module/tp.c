// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the probes on the wakeup path and their attach/detach.
 *
 * Two observation methods feed the placement counters (module parameter
 * "method"; see README for the measured cost of each):
 *
 *  - kretprobe: a kretprobe on select_task_rq_fair().  The entry handler
 *    keeps prev_cpu and WF_SYNC from the arguments, the return handler
 *    reads the chosen CPU; both run on the waker's CPU with p->pi_lock
 *    held.  Sees exactly the fair-class wakeup placements (WF_TTWU).
 *  - tracepoint: sched_waking (waker CPU, previous CPU) and
 *    sched_migrate_task (the new CPU when the wakee moves), both fired on
 *    the waker's CPU inside try_to_wake_up().  Cheaper, but blind to
 *    WF_SYNC, and it also counts wakeups that never reached
 *    select_task_rq() (wakee still queued or still on its CPU).
 *
 * The trace events are not exported, so every tracepoint is found by name
 * with for_each_kernel_tracepoint().  Probes are attached only while the
 * enable file reads 1; detaching waits with
 * tracepoint_synchronize_unregister() so no probe runs on return.
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

#include "wakelab.h"

/* From kernel/sched/sched.h (not in the headers modules see). */
#define WL_WF_TTWU	0x08
#define WL_WF_SYNC	0x10

struct rq;
struct cfs_rq;

/**
 * struct wl_pending - a wakeup seen at sched_waking, per waker CPU
 * @p: the wakee, NULL when nothing is pending
 * @prev: its CPU at sched_waking
 * @row: placement row it was counted in
 */
struct wl_pending {
	struct task_struct *p;
	int prev;
	int row;
};

static struct wl_pending __percpu *wl_pending;

static void wl_count(int row, int waker, int prev, int target, int sync,
		     unsigned long d)
{
	struct wl_counters *c = this_cpu_ptr(wl_counters);
	int tllc = READ_ONCE(wl_llc_of[target]);
	int pllc = READ_ONCE(wl_llc_of[prev]);
	unsigned long *p = c->place[row];

	p[WL_WAKEUPS] += d;
	if (target == waker)
		p[WL_WAKER_CPU] += d;
	else if (target == prev)
		p[WL_PREV_CPU] += d;
	else if (tllc == READ_ONCE(wl_llc_of[waker]))
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
	struct wl_pending *w = this_cpu_ptr(wl_pending);
	int cpu = smp_processor_id();
	int row;

	w->p = NULL;
	/* Not a placement: self-wakeup or not fair class. */
	if (p == current || p->prio < MAX_RT_PRIO)
		return;
	/* The row select() decides with, counted here or not. */
	row = wl_policy_begin(p);
	/* Not a placement either: still queued (a migrating one goes on). */
	if (READ_ONCE(p->on_rq))
		return;
	w->p = p;
	w->prev = task_cpu(p);
	w->row = row;
	/* Counted as staying on prev until sched_migrate_task says else. */
	wl_count(w->row, cpu, w->prev, w->prev, 0, 1);
}

static void wl_probe_migrate(void *data, struct task_struct *p, int dest)
{
	struct wl_pending *w = this_cpu_ptr(wl_pending);
	int cpu = smp_processor_id();

	if (w->p != p || READ_ONCE(p->__state) != TASK_WAKING)
		return;
	w->p = NULL;
	if (dest < 0 || dest >= nr_cpu_ids || dest == w->prev)
		return;
	wl_count(w->row, cpu, w->prev, w->prev, 0, -1UL);
	wl_count(w->row, cpu, w->prev, dest, 0, 1);
}

static void wl_probe_wake_affine(void *data, struct task_struct *p,
				 int this_cpu, int prev_cpu, int sync,
				 int target, int rule)
{
	struct wl_counters *c = this_cpu_ptr(wl_counters);

	if (rule < 0 || rule >= WL_NR_RULES)
		return;
	c->rule[rule][0]++;
	if (target == this_cpu)
		c->rule[rule][1]++;
	wl_policy_check(p, this_cpu, prev_cpu, sync, target, rule);
}

static void wl_probe_nr_running(void *data, struct rq *rq, int change)
{
	wl_llc_calib_rq(rq, change);
}

static void wl_probe_pelt_cfs(void *data, struct cfs_rq *cfs_rq)
{
	wl_llc_calib_cfs(cfs_rq);
}

/* Which probes belong to which use. */
enum wl_tp_use {
	WL_USE_TRACEPOINT,	/* method=tracepoint placement */
	WL_USE_DECISIONS,	/* wake_affine() decisions (patched kernel) */
	WL_USE_CALIB,		/* LLC calibration at load */
};

/**
 * struct wl_tp - a tracepoint the module may attach to
 * @name: tracepoint name
 * @probe: probe function
 * @use: when it is attached
 * @tp: the tracepoint, NULL if this kernel has none by that name
 * @attached: probe currently registered
 */
struct wl_tp {
	const char *name;
	void *probe;
	enum wl_tp_use use;
	struct tracepoint *tp;
	bool attached;
};

static struct wl_tp wl_tps[] = {
	{ "sched_waking", wl_probe_waking, WL_USE_TRACEPOINT },
	{ "sched_migrate_task", wl_probe_migrate, WL_USE_TRACEPOINT },
	{ "sched_wake_affine_tp", wl_probe_wake_affine, WL_USE_DECISIONS },
	{ "sched_update_nr_running_tp", wl_probe_nr_running, WL_USE_CALIB },
	{ "pelt_cfs_tp", wl_probe_pelt_cfs, WL_USE_CALIB },
};

static void wl_tp_lookup(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(wl_tps); i++)
		if (!strcmp(tp->name, wl_tps[i].name))
			wl_tps[i].tp = tp;
}

bool wl_tp_found(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(wl_tps); i++)
		if (!strcmp(name, wl_tps[i].name))
			return wl_tps[i].tp;
	return false;
}

static bool wl_enabled;

/**
 * struct wl_krp_data - what the entry handler keeps for the return handler
 * @row: placement row, from wl_policy_begin()
 * @prev: the wakee's previous CPU
 * @sync: WF_SYNC (and the waker not exiting)
 */
struct wl_krp_data {
	int row;
	int prev;
	int sync;
};

static int wl_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct wl_krp_data *d = (struct wl_krp_data *)ri->data;
	unsigned long flags = regs_get_kernel_argument(regs, 2);

	/* Disabled, or fork/exec balancing: no return handler. */
	if (!READ_ONCE(wl_enabled) || !(flags & WL_WF_TTWU))
		return 1;
	d->row = wl_policy_begin((struct task_struct *)
				 regs_get_kernel_argument(regs, 0));
	d->prev = regs_get_kernel_argument(regs, 1);
	d->sync = (flags & WL_WF_SYNC) && !(current->flags & PF_EXITING);
	return 0;
}

static int wl_krp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct wl_krp_data *d = (struct wl_krp_data *)ri->data;
	long target = regs_return_value(regs);

	if (target < 0 || target >= nr_cpu_ids ||
	    d->prev < 0 || d->prev >= nr_cpu_ids)
		return 0;
	wl_count(d->row, smp_processor_id(), d->prev, target,
		 d->sync, 1);
	return 0;
}

static bool test_krp_blacklisted;
module_param(test_krp_blacklisted, bool, 0644);
MODULE_PARM_DESC(test_krp_blacklisted,
		 "test only: point the next kretprobe registration at notify_die(), which kprobes refuse, to test enable after a failed registration");

static struct kretprobe wl_krp;
static bool wl_krp_registered;
static unsigned long wl_krp_missed;

bool wl_tp_enabled(void)
{
	return READ_ONCE(wl_enabled);
}

unsigned long wl_tp_missed(void)
{
	unsigned long n = wl_krp_missed;

	if (wl_krp_registered)
		n += wl_krp.nmissed;
	return n;
}

/*
 * The kretprobe is registered at the first enable and stays armed until
 * module exit; while disabled its entry handler returns at once, so the
 * enable file toggles without patching kernel text each time.  A failed
 * register_kprobe() leaves the address it resolved in the struct (and
 * kprobes refuse an address and a symbol together), so every attempt
 * starts from a cleared one.
 */
static int wl_krp_register(void)
{
	int ret;

	if (wl_krp_registered)
		return 0;
	memset(&wl_krp, 0, sizeof(wl_krp));
	wl_krp.kp.symbol_name = "select_task_rq_fair";
	if (READ_ONCE(test_krp_blacklisted)) {
		WRITE_ONCE(test_krp_blacklisted, false);
		wl_krp.kp.symbol_name = "notify_die";
	}
	wl_krp.entry_handler = wl_krp_entry;
	wl_krp.handler = wl_krp_ret;
	wl_krp.data_size = sizeof(struct wl_krp_data);
	wl_krp.maxactive = 4 * num_possible_cpus();
	ret = register_kretprobe(&wl_krp);
	if (ret)
		return ret;
	wl_krp_registered = true;
	return 0;
}

static void wl_krp_unregister(void)
{
	if (!wl_krp_registered)
		return;
	unregister_kretprobe(&wl_krp);
	wl_krp_missed += wl_krp.nmissed;
	wl_krp_registered = false;
}

static int wl_attach(enum wl_tp_use use)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(wl_tps); i++) {
		struct wl_tp *t = &wl_tps[i];

		if (t->use != use || t->attached)
			continue;
		if (!t->tp) {
			if (use == WL_USE_DECISIONS)
				continue;	/* optional */
			return -ENOENT;
		}
		ret = tracepoint_probe_register(t->tp, t->probe, NULL);
		if (ret)
			return ret;
		t->attached = true;
	}
	return 0;
}

/* Detach; the caller waits with tracepoint_synchronize_unregister(). */
static void wl_detach(enum wl_tp_use use)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(wl_tps); i++) {
		struct wl_tp *t = &wl_tps[i];

		if (t->use != use || !t->attached)
			continue;
		tracepoint_probe_unregister(t->tp, t->probe, NULL);
		t->attached = false;
	}
}

/**
 * wl_tp_calib_attach() - attach the LLC calibration probes
 *
 * Context: process, wl_lock held.  Return: 0 or -errno.
 */
int wl_tp_calib_attach(void)
{
	int ret = wl_attach(WL_USE_CALIB);

	if (ret)
		wl_tp_calib_detach();
	return ret;
}

/* Detach the calibration probes and wait until none runs. */
void wl_tp_calib_detach(void)
{
	wl_detach(WL_USE_CALIB);
	tracepoint_synchronize_unregister();
}

/**
 * wl_tp_enable() - attach the placement (and decision) probes
 *
 * Context: process, wl_lock held.  Return: 0 or -errno, nothing attached
 * on error.
 */
int wl_tp_enable(void)
{
	int ret;

	lockdep_assert_held(&wl_lock);
	if (wl_enabled)
		return 0;
	if (wl_method == WL_METHOD_KRETPROBE)
		ret = wl_krp_register();
	else
		ret = wl_attach(WL_USE_TRACEPOINT);
	if (ret)
		goto out_detach;
	ret = wl_attach(WL_USE_DECISIONS);
	if (ret)
		goto out_detach;
	WRITE_ONCE(wl_enabled, true);
	return 0;

out_detach:
	wl_detach(WL_USE_DECISIONS);
	wl_detach(WL_USE_TRACEPOINT);
	tracepoint_synchronize_unregister();
	return ret;
}

/**
 * wl_tp_disable() - detach every placement probe and wait for them
 *
 * Context: process, wl_lock held.
 */
void wl_tp_disable(void)
{
	int cpu;

	lockdep_assert_held(&wl_lock);
	if (!wl_enabled)
		return;
	WRITE_ONCE(wl_enabled, false);
	wl_detach(WL_USE_DECISIONS);
	wl_detach(WL_USE_TRACEPOINT);
	tracepoint_synchronize_unregister();
	for_each_possible_cpu(cpu)
		per_cpu_ptr(wl_pending, cpu)->p = NULL;
	wl_policy_forget();
}

/**
 * wl_tp_init() - find the tracepoints this kernel has
 *
 * Return: 0, -ENOMEM, or -ENOENT when the method's tracepoints are missing.
 */
int wl_tp_init(void)
{
	wl_pending = alloc_percpu(struct wl_pending);
	if (!wl_pending)
		return -ENOMEM;
	for_each_kernel_tracepoint(wl_tp_lookup, NULL);
	if (wl_method == WL_METHOD_TRACEPOINT &&
	    (!wl_tp_found("sched_waking") ||
	     !wl_tp_found("sched_migrate_task"))) {
		free_percpu(wl_pending);
		wl_pending = NULL;
		return -ENOENT;
	}
	return 0;
}

void wl_tp_exit(void)
{
	mutex_lock(&wl_lock);
	wl_tp_disable();
	wl_krp_unregister();
	mutex_unlock(&wl_lock);
	free_percpu(wl_pending);
	wl_pending = NULL;
}

bool wl_tp_kretprobe_ok(void)
{
	return IS_ENABLED(CONFIG_KRETPROBES);
}
