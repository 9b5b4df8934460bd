// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: control mode -- the policy table and the one hook.
 *
 * The module registers a single struct wake_affine_policy with the
 * patched kernel.  Its select() reads the index of the active table entry
 * once (READ_ONCE) and calls that entry, so a write to the policy file
 * switches every later wakeup at once, with no lock on the wakeup path.
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

static_assert(ARRAY_SIZE(wl_policies) <= WL_MAX_POLICIES);

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
 */
struct wl_args_seen {
	struct task_struct *p;
	int this_cpu;
	int prev_cpu;
	unsigned int imbalance_pct;
	bool have_in;
	struct wl_old_inputs in;
};

static DEFINE_PER_CPU(struct wl_args_seen, wl_seen);

static int wl_hook_select(const struct wake_affine_args *args)
{
	struct wl_args_seen *s = this_cpu_ptr(&wl_seen);

	s->p = args->p;
	s->this_cpu = args->this_cpu;
	s->prev_cpu = args->prev_cpu;
	s->imbalance_pct = args->imbalance_pct;
	/* Only the kernel's own rules can report WA_RULE_OLD. */
	s->have_in = !READ_ONCE(wl_active) && wl_tp_enabled() &&
		     wl_old_inputs_get(args, &s->in);
	return wl_policies[READ_ONCE(wl_active)]->select(args);
}

static struct wake_affine_policy wl_hook = {
	.name	= KBUILD_MODNAME,
	.select	= wl_hook_select,
};

int wl_policy_row(void)
{
	return READ_ONCE(wl_active);
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
		WRITE_ONCE(wl_active, i);
		ret = wake_affine_policy_register(&wl_hook);
		if (ret) {
			WRITE_ONCE(wl_active, 0);
			return ret;
		}
		wl_registered = true;
	} else if (!want_hook && wl_registered) {
		wake_affine_policy_unregister(&wl_hook);
		wl_registered = false;
	}
	WRITE_ONCE(wl_active, i);
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
 * same wakeup on this CPU.
 */
void wl_policy_check(struct task_struct *p, int this_cpu, int prev_cpu,
		     int sync, int target, int rule)
{
	struct wl_args_seen *s = this_cpu_ptr(&wl_seen);
	struct wl_counters *c = this_cpu_ptr(&wl_counters);
	struct wake_affine_args args;
	struct wl_old_inputs now;
	int mine;

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
	mine = wl_wa_old(&args) == this_cpu ? this_cpu : prev_cpu;
	c->check[WL_CHECK_OLD][mine == target ? WL_AGREE : WL_DISAGREE]++;
}

int wl_policy_init(void)
{
	int ret;

	if (strcmp(passthrough, "register") && !wl_unregister_idle()) {
		pr_err("wakelab: passthrough must be register or unregister\n");
		return -EINVAL;
	}
	mutex_lock(&wl_lock);
	ret = wl_policy_set("kernel");
	mutex_unlock(&wl_lock);
	if (ret)
		pr_err("wakelab: registering the wake-affine policy hook: %d\n",
		       ret);
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
