// SPDX-License-Identifier: GPL-2.0
/* perf_event counters: see wl/kernel/perf.h. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wl/kernel/perf.h"

const char * const wl_perf_names[WL_PERF_NR] = {
	"context_switches", "cpu_migrations", "cycles", "instructions",
};

void wl_perf_close(struct wl_perf *p)
{
	int ev, i;

	for (ev = 0; ev < WL_PERF_NR; ev++) {
		for (i = 0; p->fd[ev] && i < p->ncpus; i++)
			if (p->fd[ev][i] >= 0)
				close(p->fd[ev][i]);
		free(p->fd[ev]);
		p->fd[ev] = NULL;
		p->avail[ev] = false;
	}
}

int wl_perf_open(struct wl_perf *p, const int *cpus, int ncpus)
{
	static const struct { __u32 type; __u64 config; } evs[WL_PERF_NR] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	};
	struct perf_event_attr attr;
	int ev, i, nopen = 0;

	memset(p, 0, sizeof(*p));
	p->ncpus = ncpus;
	for (ev = 0; ev < WL_PERF_NR; ev++) {
		p->fd[ev] = malloc(sizeof(int) * ncpus);
		if (!p->fd[ev])
			continue;
		for (i = 0; i < ncpus; i++)
			p->fd[ev][i] = -1;
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = evs[ev].type;
		attr.config = evs[ev].config;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		p->avail[ev] = true;
		for (i = 0; i < ncpus; i++) {
			p->fd[ev][i] = syscall(SYS_perf_event_open, &attr, -1,
					       cpus[i], -1,
					       PERF_FLAG_FD_CLOEXEC);
			if (p->fd[ev][i] < 0) {
				p->avail[ev] = false;
				break;
			}
		}
		if (!p->avail[ev]) {
			for (i = 0; i < ncpus; i++)
				if (p->fd[ev][i] >= 0)
					close(p->fd[ev][i]);
			free(p->fd[ev]);
			p->fd[ev] = NULL;
			continue;
		}
		nopen++;
	}
	return nopen;
}

void wl_perf_read(struct wl_perf *p,
		  unsigned long long val[WL_PERF_NR])
{
	__u64 buf[3];
	int ev, i;

	for (ev = 0; ev < WL_PERF_NR; ev++) {
		val[ev] = 0;
		for (i = 0; p->avail[ev] && i < p->ncpus; i++) {
			if (read(p->fd[ev][i], buf, sizeof(buf)) !=
			    sizeof(buf)) {
				p->avail[ev] = false;
				break;
			}
			if (buf[2] && buf[2] < buf[1])
				buf[0] = (__u64)((double)buf[0] * buf[1] /
						 buf[2]);
			val[ev] += buf[0];
		}
	}
}
