/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's own view of its runqueues and LLCs, as debugfs and procfs
 * print it: per CPU, rq->nr_running and the root cfs_rq's PELT load_avg and
 * util_avg from /sys/kernel/debug/sched/debug; and each CPU's LLC as the
 * scheduler built it (sd_llc: the highest sched domain whose flags, in
 * /sys/kernel/debug/sched/domains/cpuN/domainM/flags, include
 * SD_SHARE_PKG_RESOURCES (6.1) or SD_SHARE_LLC (6.9+)), with the domain's
 * span from /proc/schedstat.  Independent of wakelab.ko: what the module
 * reports is checked against these.
 */
#ifndef WL_KERNEL_SCHED_DEBUG_H
#define WL_KERNEL_SCHED_DEBUG_H

#include <stdbool.h>

#include "wl/kernel/topo.h"

#define WL_SCHED_DEBUG		"/sys/kernel/debug/sched/debug"
#define WL_SCHED_DOMAINS	"/sys/kernel/debug/sched/domains"
/* sched/domains is there only while this is on (6.3+). */
#define WL_SCHED_VERBOSE	"/sys/kernel/debug/sched/verbose"

/**
 * struct wl_rq_view - one CPU in sched/debug
 * @seen:	the CPU's "cpu#N" block was printed
 * @have_cfs:	its root cfs_rq ("cfs_rq[N]:/" or "cfs_rq[N]:") was printed
 * @nr_running:	.nr_running of the runqueue
 * @load_avg:	.load_avg of the root cfs_rq
 * @util_avg:	.util_avg of the root cfs_rq
 */
struct wl_rq_view {
	bool seen, have_cfs;
	unsigned long long nr_running, load_avg, util_avg;
};

/*
 * Parse a sched/debug text into @v (WL_MAX_CPUS entries, zeroed first):
 * number of CPUs seen, or -EINVAL when a CPU's block is malformed.
 */
int wl_sched_debug_parse(const char *text, struct wl_rq_view *v);

/* Read and parse WL_SCHED_DEBUG: CPUs seen, or -errno. */
int wl_sched_debug_read(struct wl_rq_view *v);

/**
 * wl_sd_llc() - the CPUs of @cpu's LLC sched domain
 * @cpu: an online CPU
 * @set: the domain's span (WL_MAX_CPUS entries); just @cpu when no domain
 *	 shares the LLC (a one-CPU LLC has none)
 * @name: the domain's name ("MC"), or "" when the kernel names none; may
 *	  be NULL
 * @len: size of @name
 *
 * Return: CPUs in @set; -ENOENT without sched/domains (no SCHED_DEBUG, or
 * sched/verbose off) or /proc/schedstat; -EINVAL for text that does not parse.
 */
int wl_sd_llc(int cpu, bool *set, char *name, int len);

#endif /* WL_KERNEL_SCHED_DEBUG_H */
