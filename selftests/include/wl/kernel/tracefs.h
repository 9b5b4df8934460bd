/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's trace events through tracefs: find (or mount) tracefs,
 * write its control files, count what the ring buffer lost, and parse the
 * text lines of the scheduler events the wakelab tests compare with
 * (sched_waking, sched_wakeup, sched_migrate_task, sched_switch) and of
 * trace_marker
 * writes.  Lines are those of the "trace" file with the default options:
 * "COMM-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS"; the file is merged by
 * timestamp, so line order is event order when the clock is global.
 */
#ifndef WL_KERNEL_TRACEFS_H
#define WL_KERNEL_TRACEFS_H

#include <stddef.h>
#include <sys/types.h>

#define WL_TRACEFS		"/sys/kernel/tracing"
#define WL_TRACEFS_DEBUGFS	"/sys/kernel/debug/tracing"
#define WL_TEV_MARK_LEN		32

/* The tracefs directory (mounting it at WL_TRACEFS if needed), or NULL. */
const char *wl_tracefs_dir(void);

/* Write @s to tracefs file @rel: 0 or -errno. */
int wl_tracefs_write(const char *rel, const char *s);

/* Read tracefs file @rel into @buf: length or -errno. */
ssize_t wl_tracefs_read(const char *rel, char *buf, size_t len);

/* The selected trace clock (the bracketed one of trace_clock): 0, -errno. */
int wl_tracefs_clock(char *name, size_t len);

/*
 * Events the ring buffer lost since the last clear: the sum over CPUs of
 * per_cpu/cpuN/stats "overrun" and "dropped events"; -errno when
 * unreadable.
 */
long long wl_tracefs_lost(void);

enum wl_tev_type {
	WL_TEV_WAKING,		/* sched_waking */
	WL_TEV_WAKEUP,		/* sched_wakeup */
	WL_TEV_MIGRATE,		/* sched_migrate_task */
	WL_TEV_SWITCH,		/* sched_switch */
	WL_TEV_MARK,		/* tracing_mark_write (trace_marker) */
};

/**
 * struct wl_tev - one parsed event line
 * @type:	enum wl_tev_type
 * @cpu:	CPU the event fired on
 * @cur:	pid of the task current there
 * @pid:	the event's task: wakee, migrated task, or switched-out task
 * @prio:	its prio field (waking, wakeup, migrate; prev_prio for switch)
 * @a:		waking, wakeup: target_cpu (the wakee's CPU then); migrate:
 *		orig_cpu; switch: next_pid
 * @b:		migrate: dest_cpu; switch: 1 when the switched-out task
 *		left in a sleeping state (prev_state not "R"), else 0
 * @mark:	the trace_marker text (WL_TEV_MARK)
 */
struct wl_tev {
	int type;
	int cpu;
	int cur;
	int pid;
	int prio;
	int a, b;
	char mark[WL_TEV_MARK_LEN];
};

/*
 * Parse a line of the trace file: 0 (@e filled), 1 for a comment or an
 * event of another type, -EINVAL for a line of one of these events that
 * does not parse.
 */
int wl_tev_parse(const char *line, struct wl_tev *e);

#endif /* WL_KERNEL_TRACEFS_H */
