// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream's snapshots of wakelab.ko's counter tables and their deltas;
 * see include/wl/stream/wakelab.h.
 */
#include <errno.h>
#include <unistd.h>

#include "wl/kernel/wakelab_module.h"
#include "wl/stream/wakelab.h"

static const char * const wl_wakelab_tables[WL_WAKELAB_NTABLES] = {
	"placement", "decisions", "oldcheck",
};

void wl_wakelab_sample(struct wl_wakelab *w)
{
	int i;

	w->present = !access(WL_MODULE_DIR, F_OK);
	for (i = 0; i < WL_WAKELAB_NTABLES; i++) {
		w->err[i] = -ENOENT;
		if (!w->present)
			continue;
		if (!w->t[i])
			w->t[i] = wl_table_new();
		if (!w->t[i]) {
			w->err[i] = -ENOMEM;
			continue;
		}
		w->err[i] = wl_module_table(wl_wakelab_tables[i], w->t[i]);
	}
}

/*
 * Delta of cell (@r, @c) of @b against the record with the same key and
 * column in @a; false when either is not a number.
 */
static bool wl_wakelab_delta(const struct wl_table *a,
			     const struct wl_table *b, int r, int c,
			     long long *d)
{
	unsigned long long va, vb;
	int ra, ca;

	ra = wl_table_row(a, b->cell[r][0]);
	ca = wl_table_col(a, b->col[c]);
	if (wl_table_u64(b, r, c, &vb) || wl_table_u64(a, ra, ca, &va))
		return false;
	*d = (long long)(vb - va);
	return true;
}

/* Whether table @i was read at both edges. */
static bool wl_wakelab_both(const struct wl_wakelab *a,
			    const struct wl_wakelab *b, int i)
{
	return a->present && b->present && !a->err[i] && !b->err[i];
}

/*
 * The deltas of every table read at both edges: into @j's open object
 * when @j is set, else as "# wakelab <table> <key>: col delta ..." lines
 * on @f.
 */
static void wl_wakelab_walk(struct wl_jsonw *j, FILE *f,
			    const struct wl_wakelab *a,
			    const struct wl_wakelab *b)
{
	const struct wl_table *tb;
	long long d;
	int i, r, c;

	for (i = 0; i < WL_WAKELAB_NTABLES; i++) {
		if (!wl_wakelab_both(a, b, i)) {
			if (j && i == 0)	/* The one table users rely on. */
				wl_jsonw_null(j, wl_wakelab_tables[i]);
			continue;
		}
		tb = b->t[i];
		if (j)
			wl_jsonw_obj(j, wl_wakelab_tables[i]);
		for (r = 0; r < tb->nrows; r++) {
			if (j)
				wl_jsonw_obj(j, tb->cell[r][0]);
			else
				fprintf(f, "# wakelab %s %s:",
					wl_wakelab_tables[i], tb->cell[r][0]);
			for (c = 1; c < tb->ncols; c++) {
				if (!wl_wakelab_delta(a->t[i], tb, r, c, &d))
					continue;
				if (j)
					wl_jsonw_int(j, tb->col[c], d);
				else
					fprintf(f, " %s %lld", tb->col[c], d);
			}
			if (j)
				wl_jsonw_obj_end(j);
			else
				fprintf(f, "\n");
		}
		if (j)
			wl_jsonw_obj_end(j);
	}
}

void wl_wakelab_json(struct wl_jsonw *j, const struct wl_wakelab *a,
		     const struct wl_wakelab *b)
{
	if (!a->present || !b->present) {
		wl_jsonw_null(j, "wakelab");
		return;
	}
	wl_jsonw_obj(j, "wakelab");
	wl_wakelab_walk(j, NULL, a, b);
	wl_jsonw_obj_end(j);
}

void wl_wakelab_print(FILE *f, const struct wl_wakelab *a,
		      const struct wl_wakelab *b)
{
	if (!a->present || !b->present)
		fprintf(f, "# wakelab: module not loaded\n");
	else
		wl_wakelab_walk(NULL, f, a, b);
}
