// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the per-CPU event counters summed, and the tables built from
 * them (placement, decisions, oldcheck).
 *
 * Probes bump their own CPU's struct wl_event_counters (place.c), with
 * interrupts disabled (under the wakee's pi_lock), so the wakeup path has
 * no atomics and no shared cache lines.  Readers and reset run on every
 * CPU through on_each_cpu(): each CPU copies (for a reader, into the
 * reader's own buffer) or clears its own counters with interrupts
 * disabled, between two wakeups, so a table never shows a wakeup half
 * counted, and after a reset the categories of every row add up to its
 * wakeups exactly.  Offline CPUs run no probes; their counters are read
 * where they are.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/stddef.h>

#include "place.h"
#include "policy.h"
#include "probe.h"
#include "stats.h"
#include "table.h"
#include "workload.h"

static unsigned int test_sum_delay_ms;
module_param(test_sum_delay_ms, uint, 0644);
MODULE_PARM_DESC(test_sum_delay_ms,
		 "test only: pause this many ms within each CPU's counters while copying or clearing them (widens the window a torn read would need)");

static const char * const wl_col_names[] = {
	WAKELAB_PLACEMENT_COLUMNS(WL_TABLE_NAME)
};

static const char * const wl_decision_names[] = {
	WAKELAB_DECISIONS_COLUMNS(WL_TABLE_NAME)
};

static const char * const wl_rule_names[] = {
	WAKELAB_RULES(WL_TABLE_NAME)
};

static const char * const wl_check_col_names[] = {
	WAKELAB_OLDCHECK_COLUMNS(WL_TABLE_NAME)
};

static const char * const wl_check_names[] = {
	WAKELAB_OLDCHECK_ROWS(WL_TABLE_NAME)
};

static_assert(ARRAY_SIZE(wl_col_names) == WL_NR_COLS);
static_assert(ARRAY_SIZE(wl_rule_names) == WL_NR_RULES);
static_assert(ARRAY_SIZE(wl_check_names) == WL_NR_CHECKS);

#define WL_NR_WORDS (sizeof(struct wl_event_counters) / sizeof(unsigned long))

/* Copy @cpu's counters to @copy (NULL: clear them instead). */
static void wl_stats_copy(int cpu, struct wl_event_counters *copy)
{
	unsigned long *c = (unsigned long *)per_cpu_ptr(wl_place_counters(),
							cpu);
	unsigned long *d = (unsigned long *)copy;
	unsigned int delay = READ_ONCE(test_sum_delay_ms);
	size_t i;

	for (i = 0; i < WL_NR_WORDS; i++) {
		if (d)
			d[i] = c[i];
		else
			c[i] = 0;
		if (!i && delay)
			mdelay(delay);
	}
}

/*
 * The per-CPU destination of a collection, passed by address: a __percpu
 * pointer cast to and from void * crosses address spaces (x86's __seg_gs
 * per-CPU pointers since 6.15).
 */
struct wl_collect {
	struct wl_event_counters __percpu *copies;
};

/* on_each_cpu() callback: interrupts are off, no probe runs here. */
static void wl_stats_copy_local(void *arg)
{
	struct wl_event_counters __percpu *copies =
		((struct wl_collect *)arg)->copies;
	int cpu = smp_processor_id();

	wl_stats_copy(cpu, copies ? per_cpu_ptr(copies, cpu) : NULL);
}

/* Copy every CPU's counters to @copies, or clear them (NULL). */
static void wl_stats_collect(struct wl_event_counters __percpu *copies)
{
	struct wl_collect c = { .copies = copies };
	int cpu;

	cpus_read_lock();
	on_each_cpu(wl_stats_copy_local, &c, 1);
	for_each_possible_cpu(cpu) {
		if (!cpu_online(cpu))
			wl_stats_copy(cpu, copies ? per_cpu_ptr(copies, cpu) :
					    NULL);
	}
	cpus_read_unlock();
}

/**
 * wl_stats_sum() - counters summed over all CPUs since the last reset
 *
 * Context: process.
 * Return: the sum (kfree() it), or NULL when out of memory.
 */
static struct wl_event_counters *wl_stats_sum(void)
{
	struct wl_event_counters __percpu *copies;
	struct wl_event_counters *sum;
	unsigned long *s;
	int cpu;
	size_t i;

	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	copies = alloc_percpu(struct wl_event_counters);
	if (!sum || !copies) {
		free_percpu(copies);
		kfree(sum);
		return NULL;
	}
	wl_stats_collect(copies);
	s = (unsigned long *)sum;
	for_each_possible_cpu(cpu) {
		const unsigned long *c =
			(const unsigned long *)per_cpu_ptr(copies, cpu);

		for (i = 0; i < WL_NR_WORDS; i++)
			s[i] += c[i];
	}
	free_percpu(copies);
	return sum;
}

/* Start counting from zero.  Context: process. */
void wl_stats_reset(void)
{
	wl_stats_collect(NULL);
}

static const char *wl_method_name(void)
{
	return wl_place_method() == WL_METHOD_KRETPROBE ?
		"kretprobe select_task_rq_fair" :
		"tracepoints sched_waking+sched_migrate_task";
}

/* The placement table of set @set (enum wl_place_set). */
static int wl_place_set_show(struct seq_file *m, int set)
{
	bool sync = wl_place_sees_sync();
	struct wl_event_counters *sum = wl_stats_sum();
	int row, col;

	if (!sum)
		return -ENOMEM;
	wl_table_put_version(m);
	seq_printf(m, "# source: %s, per-CPU counters since the last reset\n",
		   wl_method_name());
	seq_printf(m, "# enabled: %d missed: %lu\n", wl_place_enabled(),
		   wl_krp_missed());
	wl_workload_put_comment(m);
	if (!sync)
		seq_puts(m, "# sync: not visible to this method, or WF_SYNC unknown (-)\n");
	wl_table_put_header(m, WAKELAB_PLACEMENT_KEY, wl_col_names, WL_NR_COLS);
	for (row = 0; row < wl_policy_count(); row++) {
		seq_puts(m, wl_policy_row_name(row));
		for (col = 0; col < WL_NR_COLS; col++)
			wl_table_put_value(m, col != WL_SYNC || sync,
					   sum->place[set][row][col]);
		seq_putc(m, '\n');
	}
	kfree(sum);
	return 0;
}

int wl_placement_show(struct seq_file *m, void *v)
{
	return wl_place_set_show(m, WL_SET_WORKLOAD);
}

int wl_placement_others_show(struct seq_file *m, void *v)
{
	return wl_place_set_show(m, WL_SET_OTHERS);
}

/**
 * struct wl_counts - a table of counters, one row per name
 * @key: name of the key column
 * @cols: column names
 * @nr_cols: how many
 * @rows: row names
 * @nr_rows: how many
 * @offset: where the counters are in struct wl_event_counters, @nr_cols per row
 * @comment: comment lines when the kernel reports these events
 * @comment_none: comment lines when it does not (and no rows)
 */
struct wl_counts {
	const char *key;
	const char * const *cols;
	int nr_cols;
	const char * const *rows;
	int nr_rows;
	size_t offset;
	const char *comment;
	const char *comment_none;
};

/* The decisions table of set @set, whose wakees @whose describes. */
#define WL_DECISIONS_TABLE(set, whose)					\
{									\
	.key		= WAKELAB_DECISIONS_KEY,			\
	.cols		= wl_decision_names,				\
	.nr_cols	= WL_NR_DECISION_COLS,				\
	.rows		= wl_rule_names,				\
	.nr_rows	= WL_NR_RULES,					\
	.offset		= offsetof(struct wl_event_counters, rule[set]), \
	.comment	=						\
		"# source: sched_wake_affine_tp, one event per "	\
		"wake_affine() call whose wakee is " whose "\n"	\
		"# waker: calls that returned the waker's CPU\n",	\
	.comment_none	=						\
		"# source: none (this kernel has no sched_wake_affine_tp)\n" \
		"# waker: calls that returned the waker's CPU\n",	\
}

static const struct wl_counts wl_decisions =
	WL_DECISIONS_TABLE(WL_SET_WORKLOAD,
			   "the workload's (workload file; every task by default)");

static const struct wl_counts wl_decisions_others =
	WL_DECISIONS_TABLE(WL_SET_OTHERS,
			   "outside the workload (workload file)");

static const struct wl_counts wl_oldcheck = {
	.key		= WAKELAB_OLDCHECK_KEY,
	.cols		= wl_check_col_names,
	.nr_cols	= WL_NR_CHECK_COLS,
	.rows		= wl_check_names,
	.nr_rows	= WL_NR_CHECKS,
	.offset		= offsetof(struct wl_event_counters, check),
	.comment	=
		"# source: sched_wake_affine_tp; the module's copy of the deciding rule recomputed for the same inputs\n"
		"# old: WA_OLD vs the old policy; idle, weight: WA_IDLE, WA_WEIGHT vs idle+weight (the default features, WA_BIAS on)\n"
		"# stale: the rule's inputs (LLC statistics, loads, capacities, idle states) changed between select() and the tracepoint: not compared\n"
		"# counted while the hook is registered (policy kernel, passthrough=register, or any other policy)\n"
		"# row: every wake_affine() decision against the placement row it is counted in (a module policy's row: rule policy; kernel: the features' rules); stale: not seen by the placement probes\n",
	.comment_none	=
		"# source: none (needs the policy hook and sched_wake_affine_tp)\n",
};

/* Table @t: its rows only when @have (the kernel reports the events). */
static int wl_counts_show(struct seq_file *m, const struct wl_counts *t,
			  bool have)
{
	struct wl_event_counters *sum = wl_stats_sum();
	const unsigned long *v;
	int row, col;

	if (!sum)
		return -ENOMEM;
	wl_table_put_version(m);
	seq_puts(m, have ? t->comment : t->comment_none);
	wl_table_put_header(m, t->key, t->cols, t->nr_cols);
	v = (const unsigned long *)((const char *)sum + t->offset);
	for (row = 0; have && row < t->nr_rows; row++) {
		seq_puts(m, t->rows[row]);
		for (col = 0; col < t->nr_cols; col++)
			seq_printf(m, " %lu", v[row * t->nr_cols + col]);
		seq_putc(m, '\n');
	}
	kfree(sum);
	return 0;
}

int wl_decisions_show(struct seq_file *m, void *v)
{
	return wl_counts_show(m, &wl_decisions, wl_place_has_decisions());
}

int wl_decisions_others_show(struct seq_file *m, void *v)
{
	return wl_counts_show(m, &wl_decisions_others,
			      wl_place_has_decisions());
}

int wl_oldcheck_show(struct seq_file *m, void *v)
{
	return wl_counts_show(m, &wl_oldcheck,
			      wl_policy_hook_present() &&
			      wl_place_has_decisions());
}
