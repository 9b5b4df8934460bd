// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the per-CPU event counters and the tables built from them.
 *
 * Probes bump their own CPU's struct wl_counters; readers sum every
 * possible CPU's copy and subtract the sums taken at the last reset, so
 * the wakeup path has no atomics and no shared cache lines.  A sum taken
 * while probes run may see a wakeup half counted (total bumped, category
 * not yet); sums taken with the probes detached always add up.
 */
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "wakelab.h"

DEFINE_PER_CPU(struct wl_counters, wl_counters);

/* Sums at the last reset (protected by wl_lock). */
static struct wl_counters wl_base;

static const char * const wl_col_names[WL_NR_COLS] = {
	[WL_WAKEUPS]	= "wakeups",
	[WL_WAKER_CPU]	= "waker_cpu",
	[WL_PREV_CPU]	= "prev_cpu",
	[WL_WAKER_LLC]	= "waker_llc",
	[WL_PREV_LLC]	= "prev_llc",
	[WL_OTHER]	= "other",
	[WL_CROSS_LLC]	= "cross_llc",
	[WL_SYNC]	= "sync",
};

static const char * const wl_rule_names[WL_NR_RULES] = {
	"none", "idle", "weight", "old", "policy",
};

static const char * const wl_check_names[WL_NR_CHECKS] = {
	[WL_CHECK_OLD]	= "old",
};

#define WL_NR_WORDS (sizeof(struct wl_counters) / sizeof(unsigned long))

static void wl_stats_raw(struct wl_counters *sum)
{
	unsigned long *s = (unsigned long *)sum;
	int cpu;
	size_t i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const unsigned long *c =
			(const unsigned long *)per_cpu_ptr(&wl_counters, cpu);

		for (i = 0; i < WL_NR_WORDS; i++)
			s[i] += READ_ONCE(c[i]);
	}
}

/**
 * wl_stats_sum() - counters summed over all CPUs since the last reset
 * @sum: result
 *
 * Context: process, wl_lock held.
 */
void wl_stats_sum(struct wl_counters *sum)
{
	const unsigned long *b = (const unsigned long *)&wl_base;
	unsigned long *s = (unsigned long *)sum;
	size_t i;

	lockdep_assert_held(&wl_lock);
	wl_stats_raw(sum);
	for (i = 0; i < WL_NR_WORDS; i++)
		s[i] -= b[i];
}

/**
 * wl_stats_reset() - start counting from zero
 *
 * Context: process, wl_lock held.
 */
void wl_stats_reset(void)
{
	lockdep_assert_held(&wl_lock);
	wl_stats_raw(&wl_base);
}

static const char *wl_method_name(void)
{
	return wl_method == WL_METHOD_KRETPROBE ?
		"kretprobe select_task_rq_fair" :
		"tracepoints sched_waking+sched_migrate_task";
}

int wl_placement_show(struct seq_file *m, void *v)
{
	struct wl_counters *sum;
	int row, col;

	sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	mutex_lock(&wl_lock);
	wl_stats_sum(sum);
	seq_printf(m, "# source: %s, per-CPU counters since the last reset\n",
		   wl_method_name());
	seq_printf(m, "# enabled: %d missed: %lu\n", wl_tp_enabled(),
		   wl_tp_missed());
	if (wl_method != WL_METHOD_KRETPROBE)
		seq_puts(m, "# sync: not visible to this method (-)\n");
	seq_puts(m, "policy");
	for (col = 0; col < WL_NR_COLS; col++)
		seq_printf(m, " %s", wl_col_names[col]);
	seq_putc(m, '\n');
	for (row = 0; row < wl_policy_count(); row++) {
		seq_puts(m, wl_policy_name(row));
		for (col = 0; col < WL_NR_COLS; col++) {
			if (col == WL_SYNC && wl_method != WL_METHOD_KRETPROBE)
				seq_puts(m, " -");
			else
				seq_printf(m, " %lu", sum->place[row][col]);
		}
		seq_putc(m, '\n');
	}
	mutex_unlock(&wl_lock);
	kfree(sum);
	return 0;
}

int wl_decisions_show(struct seq_file *m, void *v)
{
	struct wl_counters *sum;
	int rule;

	sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	mutex_lock(&wl_lock);
	wl_stats_sum(sum);
	if (wl_tp_found("sched_wake_affine_tp"))
		seq_puts(m, "# source: sched_wake_affine_tp, one event per wake_affine() call\n");
	else
		seq_puts(m, "# source: none (this kernel has no sched_wake_affine_tp)\n");
	seq_puts(m, "# waker: calls that returned the waker's CPU\n");
	seq_puts(m, "rule calls waker\n");
	if (wl_tp_found("sched_wake_affine_tp")) {
		for (rule = 0; rule < WL_NR_RULES; rule++)
			seq_printf(m, "%s %lu %lu\n", wl_rule_names[rule],
				   sum->rule[rule][0], sum->rule[rule][1]);
	}
	mutex_unlock(&wl_lock);
	kfree(sum);
	return 0;
}

int wl_oldcheck_show(struct seq_file *m, void *v)
{
	struct wl_counters *sum;
	int i;

	sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	mutex_lock(&wl_lock);
	wl_stats_sum(sum);
	if (wl_hook_present() && wl_tp_found("sched_wake_affine_tp")) {
		seq_puts(m, "# source: sched_wake_affine_tp; the module's old policy recomputed for the same inputs\n");
		seq_puts(m, "# stale: LLC statistics or loads changed between select() and the tracepoint: not compared\n");
		seq_puts(m, "# counted while the hook is registered (policy kernel, passthrough=register, or any other policy)\n");
	} else {
		seq_puts(m, "# source: none (needs the policy hook and sched_wake_affine_tp)\n");
	}
	seq_puts(m, "rule agree disagree stale\n");
	if (wl_hook_present() && wl_tp_found("sched_wake_affine_tp")) {
		for (i = 0; i < WL_NR_CHECKS; i++)
			seq_printf(m, "%s %lu %lu %lu\n", wl_check_names[i],
				   sum->check[i][WL_AGREE],
				   sum->check[i][WL_DISAGREE],
				   sum->check[i][WL_STALE]);
	}
	mutex_unlock(&wl_lock);
	kfree(sum);
	return 0;
}
