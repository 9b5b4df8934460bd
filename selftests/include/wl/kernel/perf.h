/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System-wide event counts over a window with perf_event_open(): one
 * counter per online CPU (pid -1) for context switches and CPU migrations
 * (software events, always there), cycles and instructions (hardware
 * events, absent under TCG or without a PMU).  An event that does not open
 * on every CPU is reported as unavailable rather than as a partial sum.
 */
#ifndef WL_KERNEL_PERF_H
#define WL_KERNEL_PERF_H

#include <stdbool.h>
#include <linux/perf_event.h>

enum wl_perf_ev {
	WL_PERF_CS,
	WL_PERF_MIGRATIONS,
	WL_PERF_CYCLES,
	WL_PERF_INSTRUCTIONS,
	WL_PERF_NR,
};

extern const char * const wl_perf_names[WL_PERF_NR];

/**
 * struct wl_perf - per-CPU counter fds for each event
 * @ncpus:	CPUs counted
 * @fd:		fd[ev][i], -1 when closed
 * @avail:	whether @ev opened on every CPU
 */
struct wl_perf {
	int ncpus;
	int *fd[WL_PERF_NR];
	bool avail[WL_PERF_NR];
};

void wl_perf_close(struct wl_perf *p);

/* Open what can be opened on @cpus; returns how many events opened. */
int wl_perf_open(struct wl_perf *p, const int *cpus, int ncpus);

/*
 * Current totals into @val (scaled when the PMU multiplexed); events that
 * are unavailable, or fail to read, leave avail[] false.
 */
void wl_perf_read(struct wl_perf *p,
		  unsigned long long val[WL_PERF_NR]);

#endif /* WL_KERNEL_PERF_H */
