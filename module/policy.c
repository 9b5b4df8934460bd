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
 * The differential checks: while the probes are enabled and "kernel"
 * decides, select() evaluates, per CPU, the module's versions of the
 * kernel's rules (fair.h's bodies: wake_affine_old(), and
 * wake_affine_idle() then wake_affine_weight() as wake_affine() runs them
 * by default) on the domain's imbalance_pct, each with a read log of the
 * scheduler state it read, and so does, with transplant=<policy>, that
 * policy's body followed by idle and weight, as wake_affine() runs a
 * feature that `make upstream` added.  When sched_wake_affine_tp then
 * reports the decision of the same wakeup (the placement probe calls
 * wl_policy_oldcheck()), the evaluation the rule calls for is run again:
 * if its log differs, the state changed and the wakeup counts as stale;
 * if not, the kernel decided between two readings of the same state, and
 * the module's evaluation must give its CPU and rule.  A WA_RULE_OLD
 * decision is checked against "old", a WA_RULE_IDLE or WA_RULE_WEIGHT one
 * against idle then weight (the idle copy must have an opinion exactly
 * when the rule is WA_RULE_IDLE), and, with transplant=, every decision
 * of the feature, idle or weight against the policy's evaluation too (row
 * "transplant").  WA_BIAS is read from the bias file, on by default like
 * the feature.  WA_RULE_NONE (all rules off) leaves nothing to recompute.
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

#include "fair.h"
#include "place.h"
#include "policies.h"
#include "policy.h"

/* The decisions table's rows are the kernel's rules, in its order. */
static_assert((int)WL_RULE_NONE == (int)WA_RULE_NONE &&
	      (int)WL_RULE_IDLE == (int)WA_RULE_IDLE &&
	      (int)WL_RULE_WEIGHT == (int)WA_RULE_WEIGHT &&
	      (int)WL_RULE_OLD == (int)WA_RULE_OLD &&
	      (int)WL_RULE_POLICY == (int)WA_RULE_POLICY &&
	      (int)WL_RULE_FEATURE == (int)WA_RULE_POLICY + 1 &&
	      (int)WL_NR_RULES == (int)WL_RULE_FEATURE + 1);

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

static_assert(ARRAY_SIZE(wl_policies) == WL_NR_PLACE_ROWS);

/* Serialises switches, and the registration the policy file shows. */
static DEFINE_MUTEX(wl_policy_lock);
static bool wl_registered;

static char *passthrough = "unregister";
module_param(passthrough, charp, 0444);
MODULE_PARM_DESC(passthrough,
		 "while policy is kernel: unregister (no hook, default) or register (hook answers -1; needed by oldcheck)");

static char *transplant = "";
module_param(transplant, charp, 0444);
MODULE_PARM_DESC(transplant,
		 "a policy with a fair.c body to check against every decision of the feature, idle and weight (needs passthrough=register)");

/* The policy transplant= names, NULL for none. */
static const struct wl_policy *wl_transplant;

/**
 * struct wl_eval - one evaluation of rules as wake_affine() runs them
 * @target: this_cpu or prev_cpu
 * @rule: the rule that gave the last answer (enum wl_rule)
 * @log: what it read
 */
struct wl_eval {
	int target;
	int rule;
	struct wl_fair_log log;
};

/**
 * struct wl_args_seen - the last select() arguments on a CPU
 * @p: wakee
 * @this_cpu: waker CPU
 * @prev_cpu: previous CPU
 * @imbalance_pct: the domain's imbalance_pct
 * @have_in: the evaluations were made
 * @old: "old"
 * @dflt: idle, then weight
 * @plant: the transplant= policy, then idle and weight
 * @now: the probe's evaluation
 */
struct wl_args_seen {
	struct task_struct *p;
	int this_cpu;
	int prev_cpu;
	unsigned int imbalance_pct;
	bool have_in;
	struct wl_eval old, dflt, plant, now;
};

static struct wl_args_seen __percpu *wl_seen;

/*
 * Evaluate @first (WA_RULE_OLD or the transplanted feature) if given, and,
 * when @then_default and it has no opinion, idle then weight, with the
 * domain's imbalance_pct, noting what was read in @e's log.
 */
static void wl_eval(const struct wake_affine_args *args, struct wl_eval *e,
		    int (*first)(struct sched_domain *sd,
				 struct task_struct *p, int this_cpu,
				 int prev_cpu, int sync),
		    int first_rule, bool then_default)
{
	struct sched_domain *sd = wl_fair_sd(args->imbalance_pct);
	int this_cpu = args->this_cpu, prev_cpu = args->prev_cpu;
	int target = nr_cpumask_bits, rule = WL_RULE_NONE;

	wl_fair_log_open(&e->log);
	if (first) {
		target = first(sd, args->p, this_cpu, prev_cpu, args->sync);
		rule = first_rule;
	}
	if (then_default && target == nr_cpumask_bits) {
		target = wl_fair_idle_rule(sd, args->p, this_cpu, prev_cpu,
					   args->sync);
		rule = WL_RULE_IDLE;
	}
	if (then_default && target == nr_cpumask_bits) {
		target = wl_fair_weight(sd, args->p, this_cpu, prev_cpu,
					args->sync);
		rule = WL_RULE_WEIGHT;
	}
	wl_fair_log_close();
	e->target = target == this_cpu ? this_cpu : prev_cpu;
	e->rule = rule;
}

static void wl_eval_old(const struct wake_affine_args *args,
			struct wl_eval *e)
{
	wl_eval(args, e, wl_fair_old, WL_RULE_OLD, false);
}

static void wl_eval_dflt(const struct wake_affine_args *args,
			 struct wl_eval *e)
{
	wl_eval(args, e, NULL, WL_RULE_NONE, true);
}

static void wl_eval_plant(const struct wake_affine_args *args,
			  struct wl_eval *e)
{
	wl_eval(args, e, wl_transplant->fair, WL_RULE_FEATURE, true);
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
		wl_eval_old(args, &s->old);
		wl_eval_dflt(args, &s->dflt);
		if (wl_transplant)
			wl_eval_plant(args, &s->plant);
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

const char *wl_policy_row_name(int row)
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

/*
 * Run @eval again into @s->now and count the decision in @row: stale if
 * it read another state than @seen, else agree when it gives the kernel's
 * CPU and rule.
 */
static void wl_check(struct wl_args_seen *s, const struct wake_affine_args *args,
		     void (*eval)(const struct wake_affine_args *args,
				  struct wl_eval *e),
		     const struct wl_eval *seen, int target, int rule,
		     unsigned long *row)
{
	eval(args, &s->now);
	if (!wl_fair_log_same(&seen->log, &s->now.log))
		row[WL_STALE]++;
	else if (seen->target == target && seen->rule == rule)
		row[WL_AGREE]++;
	else
		row[WL_DISAGREE]++;
}

/**
 * wl_policy_oldcheck() - recompute a kernel rule's decision with the
 *	module's versions
 * @p: wakee
 * @this_cpu: waker CPU
 * @prev_cpu: previous CPU
 * @sync: WF_SYNC
 * @target: the kernel's answer (this_cpu or prev_cpu)
 * @rule: the rule that decided (enum wl_rule): old, idle, weight or
 *	feature
 * @counts: this CPU's oldcheck counters
 *
 * Called by the placement probe for such a decision, right after the hook
 * saw the same wakeup on this CPU.  The evaluations use the domain's
 * imbalance_pct, as the kernel did; the imbalance_pct file only steers the
 * module's own policies.  A wakeup select() did not see is not counted.
 */
static void wl_policy_oldcheck(struct task_struct *p, int this_cpu,
			       int prev_cpu, int sync, int target, int rule,
			       unsigned long (*counts)[WL_NR_CHECK_COLS])
{
	struct wl_args_seen *s = this_cpu_ptr(wl_seen);
	struct wake_affine_args args;

	if (s->p != p || s->this_cpu != this_cpu || s->prev_cpu != prev_cpu)
		return;
	s->p = NULL;
	args.p = p;
	args.this_cpu = this_cpu;
	args.prev_cpu = prev_cpu;
	args.sync = sync;
	args.imbalance_pct = s->imbalance_pct;

	if (rule == WL_RULE_OLD) {
		if (!s->have_in)
			counts[WL_CHECK_OLD][WL_STALE]++;
		else
			wl_check(s, &args, wl_eval_old, &s->old, target, rule,
				 counts[WL_CHECK_OLD]);
	} else if (rule == WL_RULE_IDLE || rule == WL_RULE_WEIGHT) {
		int row = rule == WL_RULE_IDLE ? WL_CHECK_IDLE : WL_CHECK_WEIGHT;

		if (!s->have_in)
			counts[row][WL_STALE]++;
		else
			wl_check(s, &args, wl_eval_dflt, &s->dflt, target,
				 rule, counts[row]);
	}
	if (!wl_transplant || rule == WL_RULE_OLD)
		return;
	if (!s->have_in)
		counts[WL_CHECK_TRANSPLANT][WL_STALE]++;
	else
		wl_check(s, &args, wl_eval_plant, &s->plant, target, rule,
			 counts[WL_CHECK_TRANSPLANT]);
}

/* Once the hook is gone: the placement probe's check goes too. */
static void wl_policy_free(void)
{
	wl_place_set_oldcheck(NULL);
	tracepoint_synchronize_unregister();
	free_percpu(wl_seen);
	wl_seen = NULL;
	wl_fair_exit();
}

int wl_policy_init(void)
{
	int i, ret;

	if (strcmp(passthrough, "register") && !wl_unregister_idle()) {
		pr_err("passthrough must be register or unregister\n");
		return -EINVAL;
	}
	if (*transplant) {
		for (i = 0; i < ARRAY_SIZE(wl_policies); i++)
			if (!strcmp(transplant, wl_policies[i]->name))
				wl_transplant = wl_policies[i];
		if (!wl_transplant || !wl_transplant->fair) {
			pr_err("transplant=%s: not a policy with a fair.c body\n",
			       transplant);
			return -EINVAL;
		}
		if (wl_unregister_idle()) {
			pr_err("transplant= needs passthrough=register\n");
			return -EINVAL;
		}
	}
	ret = wl_fair_init();
	if (ret)
		return ret;
	wl_seen = alloc_percpu(struct wl_args_seen);
	if (!wl_seen) {
		wl_fair_exit();
		return -ENOMEM;
	}
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
