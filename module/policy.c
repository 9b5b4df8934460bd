// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: control mode -- the policy table and the one hook.
 *
 * The module registers a single struct wake_affine_policy with the
 * patched kernel.  Its select() calls the active table entry, so a write
 * to the policy file switches every later wakeup at once, with no lock on
 * the wakeup path.
 *
 * A wakeup is counted in the placement row of the policy that decided it.
 * While the probes run, the placement probe reads the active row once per
 * wakeup (wl_policy_begin()) and select() uses that row, not a second
 * reading.  A switch that registers the hook does so while row 0
 * ("kernel", which answers -1) is active and publishes the new row after;
 * a switch that unregisters it publishes row 0 first and waits for every
 * wakeup that may still have read the old row (they run with interrupts
 * off, so synchronize_rcu() waits for them) before the hook goes.  The
 * "row" line of oldcheck checks every wake_affine() decision against the
 * row it is counted in.
 * By default (passthrough=unregister) the hook is unregistered while
 * "kernel" is active, so the kernel runs without it (make bench-hook);
 * with passthrough=register it stays registered and answers -1, which lets
 * the differential check below see the sched domain's imbalance_pct.
 *
 * The differential check: select() records its arguments per CPU and,
 * while the probes are enabled, the inputs of wl_wa_old() (LLC statistics
 * and loads, which other CPUs keep changing); when sched_wake_affine_tp
 * then reports a WA_RULE_OLD decision for the same wakeup, the inputs are
 * read again.  If they are unchanged, the kernel decided between the two
 * readings on the same inputs, and the module's "old" policy, recomputed,
 * must agree; if they changed, the wakeup counts as stale (oldcheck).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "wakelab.h"

static const struct wl_policy * const wl_policies[] = {
	&wl_policy_kernel,
	&wl_policy_old,
	&wl_policy_idle,
	&wl_policy_weight,
	&wl_policy_idle_weight,
	&wl_policy_always,
	&wl_policy_never,
	&wl_policy_idler_llc,
};

static_assert(ARRAY_SIZE(wl_policies) == WL_NR_ROWS);

/* Index of the active policy; row 0 is "kernel". */
static int wl_active;
static bool wl_registered;

static char *passthrough = "unregister";
module_param(passthrough, charp, 0444);
MODULE_PARM_DESC(passthrough,
		 "while policy is kernel: unregister (no hook, default) or register (hook answers -1; needed by oldcheck)");

/**
 * struct wl_args_seen - the last select() arguments on a CPU
 * @p: wakee
 * @this_cpu: waker CPU
 * @prev_cpu: previous CPU
 * @imbalance_pct: the domain's imbalance_pct
 * @have_in: @in was read
 * @in: wl_wa_old()'s inputs when select() ran
 * @cur_p: the wakee of the wakeup the placement probe saw last
 * @cur_row: the row it counts that wakeup in
 */
struct wl_args_seen {
	struct task_struct *p;
	int this_cpu;
	int prev_cpu;
	unsigned int imbalance_pct;
	bool have_in;
	struct wl_old_inputs in;
	struct task_struct *cur_p;
	int cur_row;
};

static struct wl_args_seen __percpu *wl_seen;

static int wl_hook_select(const struct wake_affine_args *args)
{
	struct wl_args_seen *s = this_cpu_ptr(wl_seen);
	int row;

	/* Pairs with wl_policy_set(): a row read is a row registered. */
	row = s->cur_p == args->p ? s->cur_row : smp_load_acquire(&wl_active);
	s->p = args->p;
	s->this_cpu = args->this_cpu;
	s->prev_cpu = args->prev_cpu;
	s->imbalance_pct = args->imbalance_pct;
	/* Only the kernel's own rules can report WA_RULE_OLD. */
	s->have_in = !row && wl_tp_enabled() &&
		     wl_old_inputs_get(args, &s->in);
	return wl_policies[row]->select(args);
}

static struct wake_affine_policy wl_hook = {
	.name	= KBUILD_MODNAME,
	.select	= wl_hook_select,
	.owner	= THIS_MODULE,
};

/**
 * wl_policy_begin() - the placement row of the wakeup of @p on this CPU
 * @p: the wakee
 *
 * Called by the placement probes, interrupts off, before select() runs for
 * the same wakeup; select() then decides with the same row.
 * Return: the row.
 */
int wl_policy_begin(struct task_struct *p)
{
	struct wl_args_seen *s = this_cpu_ptr(wl_seen);

	/* Pairs with wl_policy_set(): a row read is a row registered. */
	s->cur_row = smp_load_acquire(&wl_active);
	s->cur_p = p;
	return s->cur_row;
}

/* The probes are detached: forget the wakeups they saw. */
void wl_policy_forget(void)
{
	int cpu;

	if (!wl_seen)
		return;
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(wl_seen, cpu)->cur_p, NULL);
}

int wl_policy_count(void)
{
	return ARRAY_SIZE(wl_policies);
}

const char *wl_policy_name(int row)
{
	return wl_policies[row]->name;
}

static bool wl_unregister_idle(void)
{
	return !strcmp(passthrough, "unregister");
}

/**
 * wl_policy_set() - make policy @name the active one
 * @name: a policy name
 *
 * Context: process, wl_lock held.
 * Return: 0, -EINVAL for an unknown name, or the registration error (the
 * previous policy stays active).
 */
int wl_policy_set(const char *name)
{
	bool want_hook;
	int i, ret;

	lockdep_assert_held(&wl_lock);
	for (i = 0; i < ARRAY_SIZE(wl_policies); i++)
		if (!strcmp(name, wl_policies[i]->name))
			break;
	if (i == ARRAY_SIZE(wl_policies))
		return -EINVAL;

	want_hook = i || !wl_unregister_idle();
	if (want_hook && !wl_registered) {
		/* Row 0 is active: the hook answers -1 until the row moves. */
		ret = wake_affine_policy_register(&wl_hook);
		if (ret)
			return ret;
		wl_registered = true;
	} else if (!want_hook && wl_registered) {
		/* Wakeups that read row 0 from here on decide without it. */
		smp_store_release(&wl_active, 0);
		/* Wakeups that read the old row decide with the hook. */
		synchronize_rcu();
		wake_affine_policy_unregister(&wl_hook);
		wl_registered = false;
	}
	/* After the registration: pairs with the row readers. */
	smp_store_release(&wl_active, i);
	return 0;
}

int wl_policy_show(struct seq_file *m, void *v)
{
	int i;

	mutex_lock(&wl_lock);
	seq_printf(m, "# hook: present, %s\n",
		   wl_registered ? "registered" : "not registered");
	for (i = 0; i < ARRAY_SIZE(wl_policies); i++)
		seq_printf(m, "# %s: %s\n", wl_policies[i]->name,
			   wl_policies[i]->doc);
	for (i = 0; i < ARRAY_SIZE(wl_policies); i++)
		seq_printf(m, i == wl_active ? "%s[%s]" : "%s%s", i ? " " : "",
			   wl_policies[i]->name);
	seq_putc(m, '\n');
	mutex_unlock(&wl_lock);
	return 0;
}

/**
 * wl_policy_check() - recompute a WA_OLD decision with the old policy
 * @p: wakee
 * @this_cpu: waker CPU
 * @prev_cpu: previous CPU
 * @sync: WF_SYNC
 * @target: the kernel's answer (this_cpu or prev_cpu)
 * @rule: the rule that gave it
 *
 * Called from the sched_wake_affine_tp probe, right after the hook saw the
 * same wakeup on this CPU.  Also checks the decision against the row the
 * placement probe counts the wakeup in: a module policy's row must get
 * WA_RULE_POLICY decisions, row 0 ("kernel") the features' rules.  The
 * recomputation uses the inputs select() read (unchanged since, or the
 * check is stale) and the domain's imbalance_pct, as the kernel did; the
 * imbalance_pct file only steers the module's own policies.
 */
void wl_policy_check(struct task_struct *p, int this_cpu, int prev_cpu,
		     int sync, int target, int rule)
{
	struct wl_args_seen *s = this_cpu_ptr(wl_seen);
	struct wl_counters *c = this_cpu_ptr(wl_counters);
	unsigned long *row = c->check[WL_CHECK_ROW];
	struct wake_affine_args args;
	struct wl_old_inputs now;
	int mine;

	if (s->cur_p != p)
		row[WL_STALE]++;
	else if ((s->cur_row != 0) == (rule == WA_RULE_POLICY))
		row[WL_AGREE]++;
	else
		row[WL_DISAGREE]++;
	s->cur_p = NULL;

	if (rule != WA_RULE_OLD || s->p != p || s->this_cpu != this_cpu ||
	    s->prev_cpu != prev_cpu)
		return;
	s->p = NULL;
	args.p = p;
	args.this_cpu = this_cpu;
	args.prev_cpu = prev_cpu;
	args.sync = sync;
	args.imbalance_pct = s->imbalance_pct;
	if (!s->have_in || !wl_old_inputs_get(&args, &now) ||
	    !wl_old_inputs_same(&s->in, &now)) {
		c->check[WL_CHECK_OLD][WL_STALE]++;
		return;
	}
	mine = wl_old_pull(&s->in, sync, s->imbalance_pct) ? this_cpu : prev_cpu;
	c->check[WL_CHECK_OLD][mine == target ? WL_AGREE : WL_DISAGREE]++;
}

int wl_policy_init(void)
{
	int ret;

	if (strcmp(passthrough, "register") && !wl_unregister_idle()) {
		pr_err("wakelab: passthrough must be register or unregister\n");
		return -EINVAL;
	}
	wl_seen = alloc_percpu(struct wl_args_seen);
	if (!wl_seen)
		return -ENOMEM;
	mutex_lock(&wl_lock);
	ret = wl_policy_set("kernel");
	mutex_unlock(&wl_lock);
	if (ret) {
		pr_err("wakelab: registering the wake-affine policy hook: %d\n",
		       ret);
		wl_policy_free();
	}
	return ret;
}

void wl_policy_exit(void)
{
	mutex_lock(&wl_lock);
	if (wl_registered)
		wake_affine_policy_unregister(&wl_hook);
	wl_registered = false;
	mutex_unlock(&wl_lock);
}

/* Once no probe runs any more. */
void wl_policy_free(void)
{
	free_percpu(wl_seen);
	wl_seen = NULL;
}
