// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the per-CPU event counters and the tables built from them.
 *
 * Probes bump their own CPU's struct wl_counters, with interrupts
 * disabled (under the wakee's pi_lock), so the wakeup path has no atomics
 * and no shared cache lines.  Readers and reset run on every CPU through
 * on_each_cpu(): each CPU copies (and for reset clears) its own counters
 * with interrupts disabled, between two wakeups, so a table never shows a
 * wakeup half counted, and after a reset the categories of every row add
 * up to its wakeups exactly.  Offline CPUs run no probes; their counters
 * are read where they are.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "wakelab.h"

struct wl_counters __percpu *wl_counters;

/* Each CPU's copy of its counters, made by wl_stats_collect(). */
static struct wl_counters __percpu *wl_copies;

static unsigned int test_sum_delay_ms;
module_param(test_sum_delay_ms, uint, 0644);
MODULE_PARM_DESC(test_sum_delay_ms,
		 "test only: pause this many ms within each CPU's counters while copying or clearing them (widens the window a torn read would need)");

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
	[WL_CHECK_ROW]	= "row",
};

#define WL_NR_WORDS (sizeof(struct wl_counters) / sizeof(unsigned long))

/* Copy @cpu's counters to its copy, clearing them when @clear. */
static void wl_stats_copy(int cpu, bool clear)
{
	unsigned long *c = (unsigned long *)per_cpu_ptr(wl_counters, cpu);
	unsigned long *d = (unsigned long *)per_cpu_ptr(wl_copies, cpu);
	unsigned int delay = READ_ONCE(test_sum_delay_ms);
	size_t i;

	for (i = 0; i < WL_NR_WORDS; i++) {
		d[i] = c[i];
		if (clear)
			c[i] = 0;
		if (!i && delay)
			mdelay(delay);
	}
}

/* on_each_cpu() callback: interrupts are off, no probe runs here. */
static void wl_stats_copy_local(void *clear)
{
	wl_stats_copy(smp_processor_id(), clear);
}

static void wl_stats_collect(bool clear)
{
	int cpu;

	cpus_read_lock();
	on_each_cpu(wl_stats_copy_local, clear ? (void *)1 : NULL, 1);
	for_each_possible_cpu(cpu) {
		if (!cpu_online(cpu))
			wl_stats_copy(cpu, clear);
	}
	cpus_read_unlock();
}

/**
 * wl_stats_sum() - counters summed over all CPUs since the last reset
 * @sum: result
 *
 * Context: process, wl_lock held.
 */
void wl_stats_sum(struct wl_counters *sum)
{
	unsigned long *s = (unsigned long *)sum;
	int cpu;
	size_t i;

	lockdep_assert_held(&wl_lock);
	wl_stats_collect(false);
	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const unsigned long *c =
			(const unsigned long *)per_cpu_ptr(wl_copies, cpu);

		for (i = 0; i < WL_NR_WORDS; i++)
			s[i] += c[i];
	}
}

/**
 * wl_stats_reset() - start counting from zero
 *
 * Context: process, wl_lock held.
 */
void wl_stats_reset(void)
{
	lockdep_assert_held(&wl_lock);
	wl_stats_collect(true);
}

/* Return: 0 or -ENOMEM. */
int wl_stats_init(void)
{
	wl_counters = alloc_percpu(struct wl_counters);
	wl_copies = alloc_percpu(struct wl_counters);
	if (!wl_counters || !wl_copies) {
		wl_stats_exit();
		return -ENOMEM;
	}
	return 0;
}

/* Once no probe runs any more. */
void wl_stats_exit(void)
{
	free_percpu(wl_copies);
	free_percpu(wl_counters);
	wl_copies = NULL;
	wl_counters = NULL;
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
		seq_puts(m, "# row: every wake_affine() decision against the placement row it is counted in (a module policy's row: rule policy; kernel: the features' rules); stale: not seen by the placement probes\n");
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
