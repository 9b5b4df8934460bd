// SPDX-License-Identifier: GPL-2.0
/*
 * wl_compare --merge: one kernel comparison out of the results.json of its
 * boots (see wl/compare/merge.h).  Each boot ran one spec on one kernel; its
 * trials become trials of that kernel's column, tagged with the boot.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wl/compare/merge.h"
#include "wl/core/json_read.h"

/* Largest results.json read (every trial keeps wl_stream's object). */
#define WL_MERGE_MAX_FILE	(64 << 20)

static char *wl_merge_slurp(const char *path, char *err, size_t len)
{
	struct stat st;
	char *buf;
	FILE *f;
	size_t n;

	f = fopen(path, "r");
	if (!f) {
		snprintf(err, len, "no results (%s: %s)", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) || st.st_size > WL_MERGE_MAX_FILE) {
		snprintf(err, len, "%s: unreadable or larger than %d MiB", path,
			 WL_MERGE_MAX_FILE >> 20);
		fclose(f);
		return NULL;
	}
	buf = malloc(st.st_size + 1);
	if (!buf) {
		fclose(f);
		snprintf(err, len, "%s: out of memory", path);
		return NULL;
	}
	n = fread(buf, 1, st.st_size, f);
	fclose(f);
	buf[n] = '\0';
	if (!wl_json_valid_object(buf)) {
		snprintf(err, len, "%s is not a JSON object (a boot cut short?)",
			 path);
		free(buf);
		return NULL;
	}
	return buf;
}

static void wl_merge_str(const char *obj, const char *key, char *buf,
			 size_t len)
{
	if (wl_json_string(wl_json_member(obj, key), buf, len))
		buf[0] = '\0';
}

static double wl_merge_num(const char *obj, const char *key)
{
	double v;

	return wl_json_number(wl_json_member(obj, key), &v) ? NAN : v;
}

/* The env's "sched_cache" object, or WL_SC_UNKNOWN from an older file. */
static void wl_merge_sched_cache(const char *o, struct wl_env *e)
{
	char state[16] = "";
	double v;

	e->sched_cache = WL_SC_UNKNOWN;
	if (!o || *o != '{')
		return;
	wl_merge_str(o, "state", state, sizeof(state));
	wl_merge_str(o, "tunables", e->sched_cache_tun,
		     sizeof(e->sched_cache_tun));
	if (!strcmp(state, "absent"))
		e->sched_cache = WL_SC_ABSENT;
	else if (!wl_json_number(wl_json_member(o, "enabled"), &v))
		e->sched_cache = v != 0;
}

static void wl_merge_env(const char *o, struct wl_env *e)
{
	const char *it = NULL, *v, *arr;

	memset(e, 0, sizeof(*e));
	if (!o)
		return;
	wl_merge_str(o, "kernel", e->release, sizeof(e->release));
	wl_merge_str(o, "version", e->version, sizeof(e->version));
	wl_merge_str(o, "preempt", e->preempt, sizeof(e->preempt));
	wl_merge_str(o, "machine", e->machine, sizeof(e->machine));
	wl_merge_str(o, "mode", e->mode, sizeof(e->mode));
	wl_merge_str(o, "mode_how", e->mode_how, sizeof(e->mode_how));
	wl_merge_str(o, "sched_features", e->features, sizeof(e->features));
	wl_merge_str(o, "module_caps", e->caps, sizeof(e->caps));
	wl_merge_str(o, "module_policy", e->policy, sizeof(e->policy));
	e->cpus = (int)wl_merge_num(o, "cpus");
	e->sockets = (int)wl_merge_num(o, "sockets");
	e->llc_level = (int)wl_merge_num(o, "llc_level");
	e->module = wl_json_true(wl_json_member(o, "module"));
	wl_merge_sched_cache(wl_json_member(o, "sched_cache"), e);
	arr = wl_json_member(o, "llcs");
	while (arr && e->nllc < WL_ENV_MAX_LLC &&
	       (v = wl_json_next_elem(&it, arr)))
		if (!wl_json_string(v, e->llc[e->nllc], sizeof(e->llc[0])))
			e->nllc++;
}

/* Index of the kernel labelled @label, added when new; -1 when full. */
static int wl_merge_kernel(struct wl_run *r, const char *label)
{
	int p;

	for (p = 0; p < r->npol; p++)
		if (!strcmp(r->spec[p].label, label))
			return p;
	if (r->npol >= WL_CMP_MAX_SPECS)
		return -1;
	snprintf(r->spec[p].label, sizeof(r->spec[p].label), "%s", label);
	r->npol++;
	return p;
}

/* Map the file's cells onto the run's (the first good boot sets them). */
static int wl_merge_cells(struct wl_run *r, const char *doc, int *map,
			  char *err, size_t len)
{
	const char *it = NULL, *c, *arr = wl_json_member(doc, "cells");
	int n = 0, k, first = r->ncell == 0;
	char inst[32], size[32];

	while (arr && (c = wl_json_next_elem(&it, arr))) {
		if (n >= WL_MAX_CELLS)
			break;
		wl_merge_str(c, "instances_arg", inst, sizeof(inst));
		wl_merge_str(c, "msg_size", size, sizeof(size));
		for (k = 0; k < r->ncell; k++)
			if (!strcmp(r->cell[k].inst, inst) &&
			    !strcmp(r->cell[k].size, size))
				break;
		if (k == r->ncell) {
			if (!first) {
				snprintf(err, len, "its cells (instances %s, size '%s') are not the first boot's",
					 inst, size);
				return -1;
			}
			snprintf(r->cell[k].inst, sizeof(r->cell[k].inst), "%s", inst);
			snprintf(r->cell[k].size, sizeof(r->cell[k].size), "%s", size);
			r->cell[k].instances = (int)wl_merge_num(c, "instances");
			r->ncell++;
		}
		map[n++] = k;
	}
	if (!n || n != r->ncell) {
		snprintf(err, len, "%d cells where the first boot had %d", n,
			 r->ncell);
		return -1;
	}
	return n;
}

static void wl_merge_trial(struct wl_run *r, const char *o, int p, int b,
			   const int *map, int ncell)
{
	struct wl_trial *t = &r->trial[r->ntrial];
	const char *pl, *it = NULL, *v, *raw;
	char key[WL_PLACE_KEY];
	double c = wl_merge_num(o, "cell");

	memset(t, 0, sizeof(*t));
	if (isnan(c) || c < 0 || c >= ncell)
		return;
	t->policy = p;
	t->cell = map[(int)c];
	t->boot = b + 1;
	t->round = (int)wl_merge_num(o, "round");
	t->seq = r->ntrial + 1;
	t->exit_code = (int)wl_merge_num(o, "exit");
	t->ok = wl_json_true(wl_json_member(o, "ok"));
	t->aggregate = wl_merge_num(o, "aggregate");
	t->instances = (int)wl_merge_num(o, "instances");
	t->start = wl_merge_num(o, "start_s");
	t->elapsed = wl_merge_num(o, "elapsed_s");
	wl_merge_str(o, "integrity", t->integrity, sizeof(t->integrity));
	wl_merge_str(o, "error", t->err, sizeof(t->err));
	/* A missing, negative or non-finite aggregate fails the trial. */
	if (t->ok && isnan(t->aggregate)) {
		t->ok = 0;
		snprintf(t->err, sizeof(t->err), "no numeric \"aggregate\"");
	} else if (t->ok && !wl_aggregate_ok(t->aggregate, t->err,
					      sizeof(t->err))) {
		t->ok = 0;
	}
	pl = wl_json_member(o, "placement");
	if (pl && *pl == '{') {
		t->has_wakelab = 1;
		while (t->nplace < WL_MAX_PLACE &&
		       (v = wl_json_next_member(&it, pl, key, sizeof(key)))) {
			if (wl_json_number(v, &t->place_val[t->nplace]))
				continue;
			snprintf(t->place_key[t->nplace], WL_PLACE_KEY, "%s", key);
			t->nplace++;
		}
	}
	raw = wl_json_member(o, "wl_stream");
	v = wl_json_value_end(raw);
	if (raw && v && *raw == '{') {
		t->raw = strndup(raw, v - raw);
		t->workload = wl_wakelab_workload(wl_json_member(raw,
								 "wakelab"));
	}
	if (t->ok && t->instances && !r->cell[t->cell].instances)
		r->cell[t->cell].instances = t->instances;
	r->ntrial++;
}

/*
 * Boot b of kernel p from its document: the run's settings from the first
 * good boot, the kernel's spec and environment from its first, the trials.
 * Returns 0, or -1 with @err when the boot is not like the others.
 */
static int wl_merge_doc(struct wl_run *r, const char *doc, int p, int b,
			char *err, size_t len)
{
	const char *it = NULL, *pol, *arr, *t;
	char text[WL_SPEC_TEXT], work[32];
	int map[WL_MAX_CELLS], ncell, first = r->ncell == 0;

	arr = wl_json_member(doc, "policies");
	pol = arr ? wl_json_next_elem(&it, arr) : NULL;
	if (!pol || wl_json_next_elem(&it, arr)) {
		snprintf(err, len, "a boot must run exactly one spec");
		return -1;
	}
	wl_merge_str(pol, "spec", text, sizeof(text));
	wl_merge_str(doc, "workload", work, sizeof(work));
	if (!first && strcmp(work, r->workload)) {
		snprintf(err, len, "workload %s, not %s", work, r->workload);
		return -1;
	}
	if (r->spec[p].text[0] && strcmp(r->spec[p].text, text)) {
		snprintf(err, len, "spec '%.60s', not the kernel's '%.60s'",
			 text, r->spec[p].text);
		return -1;
	}
	ncell = wl_merge_cells(r, doc, map, err, len);
	if (ncell < 0)
		return -1;
	if (!r->spec[p].text[0])
		snprintf(r->spec[p].text, sizeof(r->spec[p].text), "%s", text);
	if (first) {
		snprintf(r->workload, sizeof(r->workload), "%s", work);
		wl_merge_str(doc, "unit", r->unit, sizeof(r->unit));
		wl_merge_str(doc, "wl_stream_options", r->extra,
			     sizeof(r->extra));
		r->duration = wl_merge_num(doc, "duration_s");
		r->rounds = (int)wl_merge_num(doc, "rounds");
		wl_merge_env(wl_json_member(doc, "env"), &r->env);
	}
	if (!r->kenv[p].release[0])
		wl_merge_env(wl_json_member(doc, "env"), &r->kenv[p]);
	/* A file without it (or with null) adds nothing, not NaN. */
	if (isfinite(wl_merge_num(doc, "wall_s")))
		r->wall += wl_merge_num(doc, "wall_s");
	it = NULL;
	arr = wl_json_member(doc, "trials");
	while (arr && (t = wl_json_next_elem(&it, arr)) &&
	       r->ntrial < WL_MAX_TRIALS)
		wl_merge_trial(r, t, p, b, map, ncell);
	return 0;
}

/* A kernel's cell holds at most WL_STATS_MAX_N trials (its summary's). */
static int wl_merge_too_many(const struct wl_run *r)
{
	int p, c, i, n;

	for (p = 0; p < r->npol; p++)
		for (c = 0; c < r->ncell; c++) {
			for (i = n = 0; i < r->ntrial; i++)
				n += r->trial[i].policy == p &&
				     r->trial[i].cell == c;
			if (n > WL_STATS_MAX_N) {
				fprintf(stderr, "wl_compare: --merge: %s has %d trials in a cell, at most %d (fewer boots or trials)\n",
					r->spec[p].label, n, WL_STATS_MAX_N);
				return 1;
			}
		}
	return 0;
}

int wl_cmp_merge(struct wl_run *r, int n, char * const *args, int nk,
		 char * const *kernels)
{
	int i, p;

	for (i = 0; i < nk; i++) {
		char label[WL_SPEC_LABEL];

		snprintf(label, sizeof(label), "%.*s",
			 (int)strcspn(kernels[i], "="), kernels[i]);
		if (wl_merge_kernel(r, label) < 0) {
			fprintf(stderr, "wl_compare: --merge: at most %d kernels\n",
				WL_CMP_MAX_SPECS);
			return 2;
		}
	}

	if (n > WL_MAX_BOOTS) {
		fprintf(stderr, "wl_compare: --merge: at most %d boots\n",
			WL_MAX_BOOTS);
		return 2;
	}
	for (i = 0; i < n; i++) {
		struct wl_boot *b = &r->boot[i];
		const char *eq = strchr(args[i], '=');
		char label[WL_SPEC_LABEL], *doc;

		if (!eq || eq == args[i] || !eq[1] ||
		    eq - args[i] >= (int)sizeof(label)) {
			fprintf(stderr, "wl_compare: --merge: '%s' is not KERNEL=FILE\n",
				args[i]);
			return 2;
		}
		snprintf(label, sizeof(label), "%.*s", (int)(eq - args[i]),
			 args[i]);
		p = wl_merge_kernel(r, label);
		if (p < 0) {
			fprintf(stderr, "wl_compare: --merge: at most %d kernels\n",
				WL_CMP_MAX_SPECS);
			return 2;
		}
		b->kernel = p;
		b->seq = i + 1;
		snprintf(b->file, sizeof(b->file), "%s", eq + 1);
		r->nboot++;
		doc = wl_merge_slurp(b->file, b->err, sizeof(b->err));
		if (!doc)
			continue;
		b->ok = !wl_merge_doc(r, doc, p, i, b->err, sizeof(b->err));
		free(doc);
	}
	for (p = 0; p < r->npol; p++)
		if (!r->spec[p].text[0])
			snprintf(r->spec[p].text, sizeof(r->spec[p].text), "?");
	if (wl_merge_too_many(r))
		return 2;
	if (r->npol < 2) {
		fprintf(stderr, "wl_compare: --merge: boots of at least two kernels are needed (got %d)\n",
			r->npol);
		return 2;
	}
	if (!r->ncell) {
		fprintf(stderr, "wl_compare: --merge: no boot gave results\n");
		return 1;
	}
	if (!r->unit[0])
		snprintf(r->unit, sizeof(r->unit), "?");
	r->restored = -1;
	return 0;
}
