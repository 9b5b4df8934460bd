// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: control mode -- the policy table and the one hook.
 *
 * The module registers a single struct wake_affine_policy with the
 * patched kernel.  Its select() calls the active table entry, so a write
 * to the policy file switches every later wakeup at once, with no lock on
 * the wakeup path.
 *
 * A wakeup is counted in the placement row of the policy that decided it
 * (place.c): a switch publishes the new row with wl_place_set_row(), and
 * select() decides with the row the placement probe read for the same
 * wakeup (wl_place_row_of()).  A switch that registers the hook does so
 * while row 0 ("kernel", which answers -1) is active and publishes the new
 * row after; a switch that unregisters it publishes row 0 first and waits
 * for every wakeup that may still have read the old row (they run with
 * interrupts off, so synchronize_rcu() waits for them) before the hook
 * goes.
 * By default (passthrough=unregister) the hook is unregistered while
 * "kernel" is active, so the kernel runs without it (make bench-hook);
 * with passthrough=register it stays registered and answers -1, which lets
 * the differential check below see the sched domain's imbalance_pct.
 *
 * The differential check: select() records its arguments per CPU and,
 * while the probes are enabled and "kernel" decides, the inputs of
 * wl_wa_old() (LLC statistics and loads, which other CPUs keep changing)
 * and of wl_wa_idle() (idle states, the waker CPU's runnable count), and
 * of wl_wa_weight() (CPU loads and capacities, the waker's and the
 * wakee's loads) when the idle copy has no opinion on them.  When
 * sched_wake_affine_tp then reports the decision of the same wakeup (the
 * placement probe calls wl_policy_oldcheck()), the inputs of the rule
 * that decided are read again.  If they are unchanged, the kernel decided
 * between the two readings on the same inputs, and the module's copy,
 * recomputed on them, must agree; if they changed, the wakeup counts as
 * stale (oldcheck).  A WA_RULE_OLD decision is checked against the
 * module's "old"; a WA_RULE_IDLE or WA_RULE_WEIGHT one against
 * "idle+weight" with WA_BIAS, which is wake_affine() with the default
 * features: the idle copy must have an opinion exactly when the rule is
 * WA_RULE_IDLE and then answer the kernel's CPU, the weight copy
 * otherwise.  WA_RULE_NONE (all rules off) leaves nothing to recompute.
 */
#include <linux/build_bug.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "place.h"
#include "policies.h"
#include "policy.h"

/* The decisions table's rows are the kernel's rules, in its order. */
static_assert((int)WL_RULE_NONE == (int)WA_RULE_NONE &&
	      (int)WL_RULE_IDLE == (int)WA_RULE_IDLE &&
	      (int)WL_RULE_WEIGHT == (int)WA_RULE_WEIGHT &&
	      (int)WL_RULE_OLD == (int)WA_RULE_OLD &&
	      (int)WL_RULE_POLICY == (int)WA_RULE_POLICY &&
	      (int)WL_NR_RULES == (int)WA_RULE_POLICY + 1);

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

/* Serialises switches, and the registration the policy file shows. */
static DEFINE_MUTEX(wl_policy_lock);
static bool wl_registered;

static char *passthrough = "unregister";
module_param(passthrough, charp, 0444);
MODULE_PARM_DESC(passthrough,
		 "while policy is kernel: unregister (no hook, default) or register (hook answers -1; needed by oldcheck)");

/**
 * struct wl_aff_inputs - the inputs of wake_affine()'s default rules
 * @idle: wl_wa_idle()'s
 * @idle_cpu: the idle copy's answer on @idle (this_cpu, prev_cpu or -1)
 * @weight: wl_wa_weight()'s, read only when @idle_cpu is -1
 */
struct wl_aff_inputs {
	struct wl_idle_inputs idle;
	int idle_cpu;
	struct wl_weight_inputs weight;
};

/**
 * struct wl_args_seen - the last select() arguments on a CPU
 * @p: wakee
 * @this_cpu: waker CPU
 * @prev_cpu: previous CPU
 * @imbalance_pct: the domain's imbalance_pct
 * @have_in: @in and @aff were read
 * @old_ok: @in has both LLCs' statistics
 * @in: wl_wa_old()'s inputs when select() ran
 * @aff: wl_wa_idle()'s and wl_wa_weight()'s inputs when select() ran
 */
struct wl_args_seen {
	struct task_struct *p;
	int this_cpu;
	int prev_cpu;
	unsigned int imbalance_pct;
	bool have_in;
	bool old_ok;
	struct wl_old_inputs in;
	struct wl_aff_inputs aff;
};

static struct wl_args_seen __percpu *wl_seen;

/* Read the idle copy's inputs, and the weight copy's if idle has none. */
static void wl_aff_inputs_get(const struct wake_affine_args *args,
			      struct wl_aff_inputs *in)
{
	wl_idle_inputs_get(args, &in->idle);
	in->idle_cpu = wl_idle_decide(args, &in->idle);
	if (in->idle_cpu < 0)
		wl_weight_inputs_get(args, &in->weight);
}

static int wl_hook_select(const struct wake_affine_args *args)
{
	struct wl_args_seen *s = this_cpu_ptr(wl_seen);
	int row = wl_place_row_of(args->p);

	s->p = args->p;
	s->this_cpu = args->this_cpu;
	s->prev_cpu = args->prev_cpu;
	s->imbalance_pct = args->imbalance_pct;
	/* Only the kernel's own rules can report WA_RULE_{OLD,IDLE,WEIGHT}. */
	s->have_in = !row && wl_place_enabled();
	if (s->have_in) {
		s->old_ok = wl_old_inputs_get(args, &s->in);
		wl_aff_inputs_get(args, &s->aff);
	}
	return wl_policies[row]->select(args);
}

static struct wake_affine_policy wl_hook = {
	.name	= KBUILD_MODNAME,
	.select	= wl_hook_select,
	.owner	= THIS_MODULE,
};

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

static int wl_policy_set_locked(const char *name)
{
	bool want_hook;
	int i, ret;

	lockdep_assert_held(&wl_policy_lock);
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
		wl_place_set_row(0);
		/* Wakeups that read the old row decide with the hook. */
		synchronize_rcu();
		wake_affine_policy_unregister(&wl_hook);
		wl_registered = false;
	}
	/* After the registration: pairs with the row readers. */
	wl_place_set_row(i);
	return 0;
}

/**
 * wl_policy_set() - make policy @name the active one
 * @name: a policy name
 *
 * Context: process.
 * Return: 0, -EINVAL for an unknown name, or the registration error (the
 * previous policy stays active).
 */
int wl_policy_set(const char *name)
{
	int ret;

	mutex_lock(&wl_policy_lock);
	ret = wl_policy_set_locked(name);
	mutex_unlock(&wl_policy_lock);
	return ret;
}

int wl_policy_show(struct seq_file *m, void *v)
{
	int i, active;

	mutex_lock(&wl_policy_lock);
	active = wl_place_row();
	seq_printf(m, "# hook: present, %s\n",
		   wl_registered ? "registered" : "not registered");
	for (i = 0; i < ARRAY_SIZE(wl_policies); i++)
		seq_printf(m, "# %s: %s\n", wl_policies[i]->name,
			   wl_policies[i]->doc);
	for (i = 0; i < ARRAY_SIZE(wl_policies); i++)
		seq_printf(m, i == active ? "%s[%s]" : "%s%s", i ? " " : "",
			   wl_policies[i]->name);
	seq_putc(m, '\n');
	mutex_unlock(&wl_policy_lock);
	return 0;
}

/* A WA_RULE_OLD decision against the old policy on @s's inputs. */
static int wl_check_old(struct wl_args_seen *s,
			const struct wake_affine_args *args, int target)
{
	struct wl_old_inputs now;
	int mine;

	if (!s->old_ok || !wl_old_inputs_get(args, &now) ||
	    !wl_old_inputs_same(&s->in, &now))
		return WL_STALE;
	mine = wl_old_pull(&s->in, args->sync, args->imbalance_pct) ?
	       args->this_cpu : args->prev_cpu;
	return mine == target ? WL_AGREE : WL_DISAGREE;
}

/*
 * A WA_RULE_IDLE or WA_RULE_WEIGHT decision against idle+weight on @s's
 * inputs, WA_BIAS on: the rule and the CPU must both be the kernel's.
 * The weight inputs are compared only where the idle copy has no opinion.
 */
static int wl_check_aff(struct wl_args_seen *s,
			const struct wake_affine_args *args, int rule,
			int target)
{
	struct wl_aff_inputs *in = &s->aff;
	struct wl_aff_inputs now;
	int mine;

	wl_aff_inputs_get(args, &now);
	if (!wl_idle_inputs_same(&in->idle, &now.idle))
		return WL_STALE;
	if (in->idle_cpu >= 0)
		return rule == WA_RULE_IDLE && in->idle_cpu == target ?
		       WL_AGREE : WL_DISAGREE;
	if (!wl_weight_inputs_same(&in->weight, &now.weight))
		return WL_STALE;
	if (rule != WA_RULE_WEIGHT)
		return WL_DISAGREE;
	mine = wl_weight_decide(args, &in->weight, true, args->imbalance_pct);
	mine = mine == args->this_cpu ? mine : args->prev_cpu;
	return mine == target ? WL_AGREE : WL_DISAGREE;
}

/**
 * wl_policy_oldcheck() - recompute a kernel rule's decision with the
 *	module's copy
 * @p: wakee
 * @this_cpu: waker CPU
 * @prev_cpu: previous CPU
 * @sync: WF_SYNC
 * @target: the kernel's answer (this_cpu or prev_cpu)
 * @rule: the rule that decided: WA_RULE_OLD, WA_RULE_IDLE or
 *	WA_RULE_WEIGHT
 *
 * Called by the placement probe for such a decision, right after the hook
 * saw the same wakeup on this CPU.  The recomputation uses the inputs
 * select() read (unchanged since, or the check is stale) and the domain's
 * imbalance_pct, as the kernel did; the imbalance_pct and bias files only
 * steer the module's own policies.
 *
 * Return: the oldcheck column to count the decision in, or -1 when
 * select() did not see this wakeup.
 */
static int wl_policy_oldcheck(struct task_struct *p, int this_cpu,
			      int prev_cpu, int sync, int target, int rule)
{
	struct wl_args_seen *s = this_cpu_ptr(wl_seen);
	struct wake_affine_args args;

	if (s->p != p || s->this_cpu != this_cpu || s->prev_cpu != prev_cpu)
		return -1;
	s->p = NULL;
	if (!s->have_in)
		return WL_STALE;
	args.p = p;
	args.this_cpu = this_cpu;
	args.prev_cpu = prev_cpu;
	args.sync = sync;
	args.imbalance_pct = s->imbalance_pct;
	if (rule == WA_RULE_OLD)
		return wl_check_old(s, &args, target);
	return wl_check_aff(s, &args, rule, target);
}

/* Once the hook is gone: the placement probe's check goes too. */
static void wl_policy_free(void)
{
	wl_place_set_oldcheck(NULL);
	tracepoint_synchronize_unregister();
	free_percpu(wl_seen);
	wl_seen = NULL;
}

int wl_policy_init(void)
{
	int ret;

	if (strcmp(passthrough, "register") && !wl_unregister_idle()) {
		pr_err("passthrough must be register or unregister\n");
		return -EINVAL;
	}
	wl_seen = alloc_percpu(struct wl_args_seen);
	if (!wl_seen)
		return -ENOMEM;
	wl_place_set_oldcheck(wl_policy_oldcheck);
	ret = wl_policy_set("kernel");
	if (ret) {
		pr_err("registering the wake-affine policy hook: %d\n",
		       ret);
		wl_policy_free();
	}
	return ret;
}

void wl_policy_exit(void)
{
	mutex_lock(&wl_policy_lock);
	if (wl_registered)
		wake_affine_policy_unregister(&wl_hook);
	wl_registered = false;
	mutex_unlock(&wl_policy_lock);
	wl_policy_free();
}
