// SPDX-License-Identifier: GPL-2.0
/* CPU use from /proc/stat: see wl/kernel/cpustat.h. */
#include <stdio.h>
#include <string.h>

#include "wl/kernel/cpustat.h"

int wl_cpustat_parse(const char *text, struct wl_cpustat *st)
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

int wl_cpustat_read(const char *path, struct wl_cpustat *st)
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
	return wl_cpustat_parse(buf, st);
}

static unsigned long long wl_tick_delta(unsigned long long a,
					unsigned long long b)
{
	return b > a ? b - a : 0;
}

void wl_cpustat_delta(const struct wl_cpustat *a,
		      const struct wl_cpustat *b,
		      struct wl_cpuuse *u)
{
	unsigned long long usr, sys, irq, sirq, idle, steal, total;

	usr = wl_tick_delta(a->user, b->user) + wl_tick_delta(a->nice, b->nice);
	sys = wl_tick_delta(a->system, b->system);
	irq = wl_tick_delta(a->irq, b->irq);
	sirq = wl_tick_delta(a->softirq, b->softirq);
	idle = wl_tick_delta(a->idle, b->idle) +
	       wl_tick_delta(a->iowait, b->iowait);
	steal = wl_tick_delta(a->steal, b->steal);
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
