/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System-wide CPU use from the aggregate "cpu" line of /proc/stat, as
 * netperf's procstat method does: two snapshots, and the share of each
 * state in the ticks between them.  Used by wl_stream for the usr/sys/
 * softirq/idle percentages and for service demand (CPU time per KB).
 */
#ifndef WL_CPUSTAT_H
#define WL_CPUSTAT_H

#include <stdio.h>
#include <string.h>

/**
 * struct ws_cpustat - one snapshot of the "cpu" line, USER_HZ ticks
 */
struct ws_cpustat {
	unsigned long long user, nice, system, idle, iowait, irq, softirq,
			   steal;
};

/**
 * struct ws_cpuuse - CPU use between two snapshots
 * @usr:	user + nice, percent of all ticks
 * @sys:	system, percent
 * @irq:	hard interrupts, percent
 * @softirq:	soft interrupts, percent
 * @idle:	idle + iowait, percent
 * @steal:	stolen by the hypervisor, percent
 * @busy_ticks:	ticks not idle, summed over all CPUs
 * @total_ticks: all ticks, summed over all CPUs
 */
struct ws_cpuuse {
	double usr, sys, irq, softirq, idle, steal;
	unsigned long long busy_ticks, total_ticks;
};

/* Parse the "cpu " line out of a /proc/stat text; 0 or -1. */
static inline int ws_cpustat_parse(const char *text, struct ws_cpustat *st)
{
	const char *p = text;
	int n;

	memset(st, 0, sizeof(*st));
	while (p && *p) {
		if (!strncmp(p, "cpu ", 4)) {
			/* Fields after iowait appeared over time: need 4. */
			n = sscanf(p + 4, "%llu %llu %llu %llu %llu %llu %llu %llu",
				   &st->user, &st->nice, &st->system, &st->idle,
				   &st->iowait, &st->irq, &st->softirq,
				   &st->steal);
			return n >= 4 ? 0 : -1;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static inline int ws_cpustat_read(const char *path, struct ws_cpustat *st)
{
	char buf[1024];
	size_t n;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -1;
	/* The aggregate line comes first; 1 KiB always holds it. */
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return ws_cpustat_parse(buf, st);
}

static inline unsigned long long ws_tick_delta(unsigned long long a,
					       unsigned long long b)
{
	return b > a ? b - a : 0;
}

/* CPU use from snapshot @a to @b; all zero when no tick passed. */
static inline void ws_cpustat_delta(const struct ws_cpustat *a,
				    const struct ws_cpustat *b,
				    struct ws_cpuuse *u)
{
	unsigned long long usr, sys, irq, sirq, idle, steal, total;

	usr = ws_tick_delta(a->user, b->user) + ws_tick_delta(a->nice, b->nice);
	sys = ws_tick_delta(a->system, b->system);
	irq = ws_tick_delta(a->irq, b->irq);
	sirq = ws_tick_delta(a->softirq, b->softirq);
	idle = ws_tick_delta(a->idle, b->idle) +
	       ws_tick_delta(a->iowait, b->iowait);
	steal = ws_tick_delta(a->steal, b->steal);
	total = usr + sys + irq + sirq + idle + steal;

	memset(u, 0, sizeof(*u));
	u->total_ticks = total;
	u->busy_ticks = total - idle - steal;
	if (!total)
		return;
	u->usr = 100.0 * usr / total;
	u->sys = 100.0 * sys / total;
	u->irq = 100.0 * irq / total;
	u->softirq = 100.0 * sirq / total;
	u->idle = 100.0 * idle / total;
	u->steal = 100.0 * steal / total;
}

#endif /* WL_CPUSTAT_H */
