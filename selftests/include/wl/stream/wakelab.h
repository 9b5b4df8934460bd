/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's view of wakelab.ko: the workload's cgroup, and snapshots of
 * the counter tables in /sys/kernel/debug/wakelab/ (placement,
 * placement_others, decisions, decisions_others, oldcheck) at the window
 * edges, read with the shared reader (wl/kernel/wakelab_tables.h), and
 * their deltas -- every numeric column of every record -- for the JSON
 * object and the table.  Nothing here when the module is not loaded ("wakelab": null).
 */
#ifndef WL_STREAM_WAKELAB_H
#define WL_STREAM_WAKELAB_H

#include <stdbool.h>
#include <stdio.h>

#include "wl/kernel/cgroup.h"
#include "wl/kernel/wakelab_tables.h"
#include "wl/core/json_write.h"

#define WL_WAKELAB_NTABLES	5

/**
 * struct wl_wakelab - one snapshot of the module's counter tables
 * @present:	the debugfs directory exists
 * @t:		parsed tables, allocated at the first sample
 * @err:	-errno of each table's read
 */
struct wl_wakelab {
	bool present;
	struct wl_table *t[WL_WAKELAB_NTABLES];
	int err[WL_WAKELAB_NTABLES];
};

/**
 * struct wl_wakelab_filter - the workload's cgroup as wakelab.ko sees it
 * @cg:		the cgroup ("wakelab.PID" below the controller's own)
 * @old:	the module's workload file before the run, restored after
 * @set:	the workload file names @cg: placement counts the workers'
 *		wakeups, placement_others every other task's
 * @why:	why not, when the module is loaded and @set is false
 */
struct wl_wakelab_filter {
	struct wl_cgroup cg;
	char old[WL_CGROUP_PATH];
	bool set;
	char why[200];
};

/*
 * Create the workload's cgroup and point wakelab.ko's workload file at it,
 * unless @all_tasks, @two_hosts (--remote or --serve), the module is not
 * loaded, or the machine cannot (then @f->why, and the module counts every
 * task as before): 0.  -1 with @why when the file names the cgroup of
 * another run still alive, which changes nothing; a killed run's is taken
 * over (a note on stderr).
 */
int wl_wakelab_filter_begin(struct wl_wakelab_filter *f, bool all_tasks,
			    bool two_hosts, char *why, size_t len);

/* Move process @pid into the workload: 0, or -1 with @why. */
int wl_wakelab_filter_add(struct wl_wakelab_filter *f, pid_t pid, char *why,
			  size_t len);

/*
 * Restore the workload file and remove the cgroup (once its processes
 * have been reaped).  Idempotent.
 */
void wl_wakelab_filter_end(struct wl_wakelab_filter *f);

/* Read the tables into @w (zeroed before its first sample). */
void wl_wakelab_sample(struct wl_wakelab *w);

/*
 * "wakelab": null, or {"workload":"<cgroup>"|null,"workload_off":"<why>",
 * "placement":{"<key>":{"<col>":delta,..},..},..}.
 */
void wl_wakelab_json(struct wl_jsonw *j, const struct wl_wakelab_filter *f,
		     const struct wl_wakelab *a, const struct wl_wakelab *b);

/*
 * "# wakelab workload: ..." then one "# wakelab <table> <key>: col delta
 * ..." line per record.
 */
void wl_wakelab_print(FILE *out, const struct wl_wakelab_filter *f,
		      const struct wl_wakelab *a, const struct wl_wakelab *b);

#endif /* WL_STREAM_WAKELAB_H */
