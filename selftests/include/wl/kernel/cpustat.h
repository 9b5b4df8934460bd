/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System-wide CPU use from the aggregate "cpu" line of /proc/stat, as
 * netperf's procstat method does: two snapshots, and the share of each
 * state in the ticks between them.  Used by wl_stream for the usr/sys/
 * softirq/idle percentages and for service demand (CPU time per KB).
 */
#ifndef WL_KERNEL_CPUSTAT_H
#define WL_KERNEL_CPUSTAT_H

/**
 * struct wl_cpustat - one snapshot of the "cpu" line, USER_HZ ticks
 */
struct wl_cpustat {
	unsigned long long user, nice, system, idle, iowait, irq, softirq,
			   steal;
};

/**
 * struct wl_cpuuse - CPU use between two snapshots
 * @usr:	user + nice, percent of all ticks
 * @sys:	system, percent
 * @irq:	hard interrupts, percent
 * @softirq:	soft interrupts, percent
 * @idle:	idle + iowait, percent
 * @steal:	stolen by the hypervisor, percent
 * @busy_ticks:	ticks not idle, summed over all CPUs
 * @total_ticks: all ticks, summed over all CPUs
 */
struct wl_cpuuse {
	double usr, sys, irq, softirq, idle, steal;
	unsigned long long busy_ticks, total_ticks;
};

/* Parse the "cpu " line out of a /proc/stat text; 0 or -1. */
int wl_cpustat_parse(const char *text, struct wl_cpustat *st);

int wl_cpustat_read(const char *path, struct wl_cpustat *st);

/* CPU use from snapshot @a to @b; all zero when no tick passed. */
void wl_cpustat_delta(const struct wl_cpustat *a,
		      const struct wl_cpustat *b,
		      struct wl_cpuuse *u);

#endif /* WL_KERNEL_CPUSTAT_H */
