/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linux's own perf over one window (lib/kernel/perf_tool.c): `perf record
 * -a` (a sample profile, with call graphs) and `perf stat -a` started as
 * children with their events disabled (-D -1) and driven through their
 * --control pipes, enabled at the window's opening and disabled at its
 * close; then each kernel symbol's share of the samples from `perf
 * report`, and the counters from `perf stat`'s CSV.  Under TCG there is no
 * PMU: the profile samples the cpu-clock event, and the hardware counters
 * are named missing, never 0.
 */
#ifndef WL_KERNEL_PERF_TOOL_H
#define WL_KERNEL_PERF_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Samples a second and CPU (off the tick's 1000 and 250 Hz). */
#define WL_PROF_HZ		999
/* Kernel symbols below this share (percent) are left out of the list. */
#define WL_PROF_MIN_PCT		0.01
/* How long perf has to answer a control command, or to end. */
#define WL_PROF_ACK_S		60
#define WL_PROF_SYM_LEN		128

/* perf stat's counters, by the names of 0-day's perf-stat.i.* metrics. */
enum wl_pstat_ev {
	WL_PSTAT_CS,
	WL_PSTAT_MIGRATIONS,
	WL_PSTAT_TASK_CLOCK,
	WL_PSTAT_CYCLES,
	WL_PSTAT_INSTRUCTIONS,
	WL_PSTAT_BRANCH_MISSES,
	WL_PSTAT_CACHE_MISSES,
	WL_PSTAT_NR,
};

/* perf's event name of each counter ("context-switches", ...). */
extern const char * const wl_pstat_events[WL_PSTAT_NR];

/**
 * struct wl_psym - one kernel symbol of a profile
 * @name:	the symbol ("find_busiest_group"), as perf report names it
 * @pct:	its share of the window's samples, percent (by period)
 * @samples:	samples in it
 */
struct wl_psym {
	char name[WL_PROF_SYM_LEN];
	double pct;
	long samples;
};

/**
 * struct wl_pchild - a perf child and its control pipes
 * @pid:	its process, 0 when none
 * @ctl:	the pipe end its commands go to, -1 when closed
 * @ack:	the pipe end its acknowledgements come from, -1 when closed
 */
struct wl_pchild {
	pid_t pid;
	int ctl;
	int ack;
};

/**
 * struct wl_profile - a window's profile and counters
 * @on:	perf runs (wl_prof_start() to wl_prof_finish() or _abort())
 * @dir:	where perf.data, stat.csv, kallsyms and perf's logs go
 * @perf:	the perf program (found on PATH without a '/')
 * @event:	the sampled event: "cycles" with a PMU, else "cpu-clock"
 * @version:	`perf --version`'s words after "perf version "
 * @rec:	perf record
 * @stat:	perf stat
 * @sym:	kernel symbols, by share (largest first), @nsym of them
 * @samples:	samples in the window, every symbol's (user ones too)
 * @val:	the counters (@have: read; else missing here)
 * @ipc:	instructions per cycle, when both were counted
 */
struct wl_profile {
	bool on;
	char dir[256];
	char perf[256];
	char event[16];
	char version[48];
	struct wl_pchild rec, stat;
	struct wl_psym *sym;
	int nsym;
	long samples;
	double val[WL_PSTAT_NR];
	bool have[WL_PSTAT_NR];
	double ipc;
};

/* Whether a hardware cycles counter opens here (a PMU). */
bool wl_prof_has_pmu(void);

/*
 * Start perf record and perf stat, events disabled, writing into @p->dir
 * (made when missing) with @p->perf; both have answered when this returns.
 * 0, or -1 with @why (nothing left running).
 */
int wl_prof_start(struct wl_profile *p, char *why, size_t len);
/* Enable (@on) or disable both; 0 once both acknowledged, else -1 and @why. */
int wl_prof_enable(struct wl_profile *p, bool on, char *why, size_t len);
/*
 * End both, then read the symbols (perf report) and the counters (stat.csv)
 * and copy /proc/kallsyms beside perf.data.  0, or -1 with @why.
 */
int wl_prof_finish(struct wl_profile *p, char *why, size_t len);
/* Kill whatever still runs (nothing unless @p->on) and free the symbols. */
void wl_prof_abort(struct wl_profile *p);

/*
 * Parse `perf report --stdio -q -F overhead,sample,dso,sym` text: the
 * kernel ("[k]") symbols at WL_PROF_MIN_PCT or more into a malloc()ed array
 * by share, the samples of every line summed.  0, or -1 (out of memory).
 */
int wl_prof_parse_report(const char *text, struct wl_psym **sym, int *nsym,
			 long *samples);
/*
 * Parse `perf stat -x,` output into @val and @have (a counter perf marks
 * "<not supported>" or "<not counted>", or does not print, is missing).
 * How many counters were read.
 */
int wl_prof_parse_stat(const char *text, double val[WL_PSTAT_NR],
		       bool have[WL_PSTAT_NR]);

/*
 * Whether @sym (a ".isra.0"-like suffix aside) is one of the scheduler's
 * placement and balancing symbols a profile always lists: wake_affine*,
 * select_idle_*, select_task_rq*, try_to_wake_up, ttwu_*, enqueue_task*,
 * dequeue_task*, enqueue_entit* and dequeue_entit*, and the balancer's
 * find_busiest_group, load_balance, rebalance_domains, newidle_balance
 * (6.1) or sched_balance_* (their names from 6.10).
 */
bool wl_prof_sched_symbol(const char *sym);

#endif /* WL_KERNEL_PERF_TOOL_H */
