/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's view of wakelab.ko: snapshots of the counter tables in
 * /sys/kernel/debug/wakelab/ (placement, decisions, oldcheck) at the window
 * edges, read with the shared reader (wl/kernel/wakelab_tables.h), and
 * their deltas -- every numeric column of every record -- for the JSON
 * object and the table.  Nothing here when the module is not loaded ("wakelab": null).
 */
#ifndef WL_STREAM_WAKELAB_H
#define WL_STREAM_WAKELAB_H

#include <stdbool.h>
#include <stdio.h>

#include "wl/kernel/wakelab_tables.h"
#include "wl/core/json_write.h"

#define WL_WAKELAB_NTABLES	3

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

/* Read the tables into @w (zeroed before its first sample). */
void wl_wakelab_sample(struct wl_wakelab *w);

/* "wakelab": null, or {"placement":{"<key>":{"<col>":delta,..},..},..}. */
void wl_wakelab_json(struct wl_jsonw *j, const struct wl_wakelab *a,
		     const struct wl_wakelab *b);

/* One "# wakelab <table> <key>: col delta ..." line per record. */
void wl_wakelab_print(FILE *f, const struct wl_wakelab *a,
		      const struct wl_wakelab *b);

#endif /* WL_STREAM_WAKELAB_H */
