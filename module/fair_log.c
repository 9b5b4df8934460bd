// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: what fair.h's names need behind them -- the CPUs' runqueue
 * handles, this CPU's copy of the wake domain, and the read log.
 *
 * Everything here is used from select() and the decision probe, which run
 * with interrupts off on the waking CPU: the per-CPU data needs no lock.
 */
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fair.h"

/* cpu_rq(): one handle per possible CPU, naming it; one for no CPU. */
static struct rq *wl_rqs;
static struct rq wl_rq_invalid = { .cpu = -1 };

/* wl_fair_sd(): a domain that carries the imbalance_pct asked for. */
static struct sched_domain __percpu *wl_sd;

/* The log open on this CPU, if any. */
static struct wl_fair_log * __percpu *wl_log;

int wl_fair_init(void)
{
	int cpu;

	wl_rqs = kcalloc(nr_cpu_ids, sizeof(*wl_rqs), GFP_KERNEL);
	wl_sd = alloc_percpu(struct sched_domain);
	wl_log = alloc_percpu(struct wl_fair_log *);
	if (!wl_rqs || !wl_sd || !wl_log) {
		wl_fair_exit();
		return -ENOMEM;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		wl_rqs[cpu].cpu = cpu;
	return 0;
}

void wl_fair_exit(void)
{
	free_percpu(wl_log);
	free_percpu(wl_sd);
	kfree(wl_rqs);
	wl_log = NULL;
	wl_sd = NULL;
	wl_rqs = NULL;
}

/*
 * Return: the handle of @cpu; for an invalid CPU one that the helpers
 * answer 0 for, as they do for an invalid CPU number.
 */
struct rq *wl_fair_cpu_rq(int cpu)
{
	if ((unsigned int)cpu >= nr_cpu_ids)
		return &wl_rq_invalid;
	return &wl_rqs[cpu];
}

/**
 * wl_fair_sd() - this CPU's domain, for a body's sd
 * @imbalance_pct: what sd->imbalance_pct must read
 *
 * Return: a sched_domain whose only meaningful field is imbalance_pct.
 */
struct sched_domain *wl_fair_sd(unsigned int imbalance_pct)
{
	struct sched_domain *sd = this_cpu_ptr(wl_sd);

	sd->imbalance_pct = imbalance_pct;
	return sd;
}

static void wl_fair_put(struct wl_fair_log *log, unsigned long word)
{
	if (log->n < WL_FAIR_LOG_LEN)
		log->v[log->n++] = word;
	else
		log->overflow = true;
}

/**
 * wl_fair_note() - note a reading in the log open on this CPU
 * @what: the name read
 * @arg: its argument (a CPU, CPU pair or task)
 * @val: the value read
 *
 * Return: @val.
 */
unsigned long wl_fair_note(enum wl_fair_read what, long arg,
			   unsigned long val)
{
	struct wl_fair_log *log = *this_cpu_ptr(wl_log);

	if (log) {
		wl_fair_put(log, what);
		wl_fair_put(log, arg);
		wl_fair_put(log, val);
	}
	return val;
}

/* From now on, note this CPU's readings in @log (emptied). */
void wl_fair_log_open(struct wl_fair_log *log)
{
	log->n = 0;
	log->overflow = false;
	*this_cpu_ptr(wl_log) = log;
}

void wl_fair_log_close(void)
{
	*this_cpu_ptr(wl_log) = NULL;
}

/* Whether two logs hold the same readings, in the same order. */
bool wl_fair_log_same(const struct wl_fair_log *a,
		      const struct wl_fair_log *b)
{
	return !a->overflow && !b->overflow && a->n == b->n &&
	       !memcmp(a->v, b->v, a->n * sizeof(a->v[0]));
}

/**
 * wl_fair_read_llc_stats() - fair.c's read_llc_stats(), noted
 * @stats: the LLC statistics of @cpu
 * @cpu: CPU
 *
 * Return: false when @cpu's LLC has no statistics.
 */
bool wl_fair_read_llc_stats(struct llc_stats *stats, int cpu)
{
	struct sched_llc_stats s;
	bool ok = sched_llc_stats_get(cpu, &s);

	wl_fair_note(WL_READ_LLC, cpu, ok);
	if (!ok)
		return false;
	stats->nr_running = wl_fair_note(WL_READ_LLC, cpu, s.nr_running);
	stats->load = wl_fair_note(WL_READ_LLC, cpu, s.load);
	stats->capacity = wl_fair_note(WL_READ_LLC, cpu, s.capacity);
	stats->has_capacity = wl_fair_note(WL_READ_LLC, cpu, s.has_capacity);
	return true;
}
