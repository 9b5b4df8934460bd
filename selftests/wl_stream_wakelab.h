/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's view of wakelab.ko: snapshots of the counter tables in
 * /sys/kernel/debug/wakelab/ (placement, decisions, oldcheck) at the window
 * edges, read with the shared wakelab_debugfs.h parser, and their deltas --
 * every numeric column of every record -- for the JSON object and the
 * table.  Nothing here when the module is not loaded ("wakelab": null).
 */
#ifndef WL_STREAM_WAKELAB_H
#define WL_STREAM_WAKELAB_H

#include <stdbool.h>
#include <stdio.h>

#include "wakelab_debugfs.h"
#include "wl_jsonw.h"

#define WS_WL_NTABLES	3

static const char * const ws_wl_tables[WS_WL_NTABLES] = {
	"placement", "decisions", "oldcheck",
};

/**
 * struct ws_wakelab - one snapshot of the module's counter tables
 * @present:	the debugfs directory exists
 * @t:		parsed tables, NULL when absent or unparsable
 * @err:	-errno of each table's read
 */
struct ws_wakelab {
	bool present;
	struct wl_dbg_table *t[WS_WL_NTABLES];
	int err[WS_WL_NTABLES];
};

static inline void ws_wakelab_sample(struct ws_wakelab *w)
{
	char path[256];
	int i;

	w->present = !access(WL_DBG_ROOT, F_OK);
	for (i = 0; i < WS_WL_NTABLES; i++) {
		w->err[i] = -ENOENT;
		if (!w->present)
			continue;
		if (!w->t[i])
			w->t[i] = wl_dbg_table_new();
		if (!w->t[i]) {
			w->err[i] = -ENOMEM;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", WL_DBG_ROOT,
			 ws_wl_tables[i]);
		w->err[i] = wl_dbg_table_read(path, w->t[i]);
	}
}

/*
 * Delta of cell (@r, @c) of @b against the record with the same key and
 * column in @a; false when either is not a number.
 */
static inline bool ws_wl_delta(const struct wl_dbg_table *a,
			       const struct wl_dbg_table *b, int r, int c,
			       long long *d)
{
	unsigned long long va, vb;
	int ra, ca;

	ra = wl_dbg_row(a, b->cell[r][0]);
	ca = wl_dbg_col(a, b->col[c]);
	if (wl_dbg_u64(b, r, c, &vb) || wl_dbg_u64(a, ra, ca, &va))
		return false;
	*d = (long long)(vb - va);
	return true;
}

/* Whether table @i was read at both edges. */
static inline bool ws_wl_both(const struct ws_wakelab *a,
			      const struct ws_wakelab *b, int i)
{
	return a->present && b->present && !a->err[i] && !b->err[i];
}

/* "wakelab": null, or {"placement":{"<key>":{"<col>":delta,..},..},..}. */
static inline void ws_wakelab_json(struct ws_json *j,
				   const struct ws_wakelab *a,
				   const struct ws_wakelab *b)
{
	const struct wl_dbg_table *tb;
	long long d;
	int i, r, c;

	if (!a->present || !b->present) {
		ws_json_null(j, "wakelab");
		return;
	}
	ws_json_obj(j, "wakelab");
	for (i = 0; i < WS_WL_NTABLES; i++) {
		if (!ws_wl_both(a, b, i)) {
			if (i == 0)	/* The one table users rely on. */
				ws_json_null(j, ws_wl_tables[i]);
			continue;
		}
		tb = b->t[i];
		ws_json_obj(j, ws_wl_tables[i]);
		for (r = 0; r < tb->nrows; r++) {
			ws_json_obj(j, tb->cell[r][0]);
			for (c = 1; c < tb->ncols; c++)
				if (ws_wl_delta(a->t[i], tb, r, c, &d))
					ws_json_int(j, tb->col[c], d);
			ws_json_obj_end(j);
		}
		ws_json_obj_end(j);
	}
	ws_json_obj_end(j);
}

/* One "# wakelab <table> <key>: col delta ..." line per record. */
static inline void ws_wakelab_print(FILE *f, const struct ws_wakelab *a,
				    const struct ws_wakelab *b)
{
	const struct wl_dbg_table *tb;
	long long d;
	int i, r, c;

	if (!a->present || !b->present) {
		fprintf(f, "# wakelab: module not loaded\n");
		return;
	}
	for (i = 0; i < WS_WL_NTABLES; i++) {
		if (!ws_wl_both(a, b, i))
			continue;
		tb = b->t[i];
		for (r = 0; r < tb->nrows; r++) {
			fprintf(f, "# wakelab %s %s:", ws_wl_tables[i],
				tb->cell[r][0]);
			for (c = 1; c < tb->ncols; c++)
				if (ws_wl_delta(a->t[i], tb, r, c, &d))
					fprintf(f, " %s %lld", tb->col[c], d);
			fprintf(f, "\n");
		}
	}
}

#endif /* WL_STREAM_WAKELAB_H */
