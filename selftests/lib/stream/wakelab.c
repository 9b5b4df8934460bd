// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream's snapshots of wakelab.ko's counter tables and their deltas;
 * see include/wl/stream/wakelab.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wl/core/proc.h"
#include "wl/core/text.h"
#include "wl/kernel/wakelab_module.h"
#include "wl/stream/wakelab.h"

static const char * const wl_wakelab_tables[WL_WAKELAB_NTABLES] = {
	"placement", "placement_others", "decisions", "decisions_others",
	"oldcheck",
};

/*
 * Whether workload cgroup @path is one a killed wl_stream left:
 * "wakelab.PID" with no wl_stream PID running (gone, or a zombie nobody
 * reaped).
 */
static bool wl_wakelab_stale(const char *path)
{
	const char *base = strrchr(path, '/');
	char end;
	int pid;

	if (!base || sscanf(base, "/wakelab.%d%c", &pid, &end) != 1 ||
	    pid <= 0)
		return false;
	return !wl_proc_running(pid, "wl_stream");
}

int wl_wakelab_filter_begin(struct wl_wakelab_filter *f, bool all_tasks,
			    bool two_hosts, char *why, size_t len)
{
	char name[32];
	ssize_t n;
	int ret;

	if (f->set)
		return 0;
	f->why[0] = '\0';
	if (all_tasks) {
		wl_err(f->why, sizeof(f->why), "--all-tasks");
		return 0;
	}
	/* Both ends may share one machine, and one workload file. */
	if (two_hosts) {
		wl_err(f->why, sizeof(f->why),
		       "two hosts (--remote, --serve): not counted apart");
		return 0;
	}
	if (!wl_module_loaded())
		return 0;
	n = wl_knob_get("workload", f->old, sizeof(f->old));
	if (n <= 0) {
		wl_err(f->why, sizeof(f->why),
		       "this wakelab.ko has no workload file");
		return 0;
	}
	wl_trim(f->old);
	/* One workload at a time: another run's would be counted as ours. */
	if (strcmp(f->old, "/") && !wl_wakelab_stale(f->old))
		return wl_err(why, len, "wakelab.ko's workload file names %s, not /: another run is measuring (echo / > %s/workload to take it over)",
			      f->old, WL_MODULE_DIR);
	if (strcmp(f->old, "/")) {
		fprintf(stderr, "wl_stream: wakelab.ko's workload file named %s, the cgroup of a run that was killed: removed, / restored after this run\n",
			f->old);
		wl_cgroup_rmdir(f->old);
		snprintf(f->old, sizeof(f->old), "/");
	}
	snprintf(name, sizeof(name), "wakelab.%d", (int)getpid());
	if (wl_cgroup_create(&f->cg, name, f->why, sizeof(f->why)))
		return 0;
	ret = wl_knob_set("workload", f->cg.path);
	if (ret) {
		wl_err(f->why, sizeof(f->why), "writing %s to wakelab's workload file: %s",
		       f->cg.path, strerror(-ret));
		wl_cgroup_remove(&f->cg);
		return 0;
	}
	f->set = true;
	return 0;
}

int wl_wakelab_filter_add(struct wl_wakelab_filter *f, pid_t pid, char *why,
			  size_t len)
{
	int ret;

	if (!f->set)
		return 0;
	ret = wl_cgroup_enter(&f->cg, pid);
	if (ret)
		return wl_err(why, len, "moving process %d into cgroup %s: %s",
			      (int)pid, f->cg.path, strerror(-ret));
	return 0;
}

void wl_wakelab_filter_end(struct wl_wakelab_filter *f)
{
	if (f->set) {
		wl_knob_set("workload", f->old[0] ? f->old : "/");
		f->set = false;
	}
	wl_cgroup_remove(&f->cg);
}

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

void wl_wakelab_json(struct wl_jsonw *j, const struct wl_wakelab_filter *f,
		     const struct wl_wakelab *a, const struct wl_wakelab *b)
{
	if (!a->present || !b->present) {
		wl_jsonw_null(j, "wakelab");
		return;
	}
	wl_jsonw_obj(j, "wakelab");
	if (f->cg.path[0])
		wl_jsonw_str(j, "workload", f->cg.path);
	else
		wl_jsonw_null(j, "workload");
	if (f->why[0])
		wl_jsonw_str(j, "workload_off", f->why);
	wl_wakelab_walk(j, NULL, a, b);
	wl_jsonw_obj_end(j);
}

void wl_wakelab_print(FILE *out, const struct wl_wakelab_filter *f,
		      const struct wl_wakelab *a, const struct wl_wakelab *b)
{
	if (!a->present || !b->present) {
		fprintf(out, "# wakelab: module not loaded\n");
		return;
	}
	if (f->cg.path[0])
		fprintf(out, "# wakelab workload: cgroup %s (placement: its tasks; placement_others: every other task)\n",
			f->cg.path);
	else
		fprintf(out, "# wakelab workload: every task (%s)\n",
			f->why[0] ? f->why : "no workload cgroup");
	wl_wakelab_walk(NULL, out, a, b);
}
