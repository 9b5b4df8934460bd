// SPDX-License-Identifier: GPL-2.0
/* wl_compare's profile: see wl/compare/profile.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl/compare/profile.h"
#include "wl/core/json_read.h"
#include "wl/core/json_write.h"

/* 0-day's names of perf stat's counters (perf-stat.i.*). */
static const char * const wl_prof_lkp[WL_CMP_PROF_NSTAT] = {
	[WL_PSTAT_CS]		 = "perf-stat.i.context-switches",
	[WL_PSTAT_MIGRATIONS]	 = "perf-stat.i.cpu-migrations",
	[WL_PSTAT_TASK_CLOCK]	 = "perf-stat.i.task-clock",
	[WL_PSTAT_CYCLES]	 = "perf-stat.i.cpu-cycles",
	[WL_PSTAT_INSTRUCTIONS]	 = "perf-stat.i.instructions",
	[WL_PSTAT_BRANCH_MISSES] = "perf-stat.i.branch-misses",
	[WL_PSTAT_CACHE_MISSES]	 = "perf-stat.i.cache-misses",
	[WL_CMP_PROF_IPC]	 = "perf-stat.i.ipc",
};

/* A trial's "profile" object, or NULL (none, null, or a failed trial). */
static const char *wl_trial_profile(const struct wl_trial *t)
{
	const char *p;

	if (!t->ok || !t->raw)
		return NULL;
	p = wl_json_member(t->raw, "profile");
	return p && *p == '{' ? p : NULL;
}

/* Index of symbol @s in @pr, added when new; -1 when the table is full. */
static int wl_prof_sym_index(struct wl_prof_run *pr, const char *s)
{
	int i;

	for (i = 0; i < pr->nsym; i++)
		if (!strcmp(pr->name[i], s))
			return i;
	if (pr->nsym == WL_CMP_PROF_MAX_SYMS)
		return -1;
	snprintf(pr->name[pr->nsym], WL_PROF_SYM_LEN, "%s", s);
	pr->sched[pr->nsym] = wl_prof_sched_symbol(s);
	return pr->nsym++;
}

/*
 * Trial @t's shares into @row (pr->nsym wide, 0 where absent), its
 * counters into @cnt (NAN where missing); new symbols join @pr.
 */
static void wl_prof_read_trial(struct wl_prof_run *pr, const char *prof,
			       double *row, double *cnt)
{
	const char *it = NULL, *e, *st;
	char name[WL_PROF_SYM_LEN];
	double v;
	int k;

	while ((e = wl_json_next_elem(&it, wl_json_member(prof, "symbols")))) {
		if (wl_json_string(wl_json_member(e, "symbol"), name, sizeof(name)) ||
		    wl_json_number(wl_json_member(e, "pct"), &v))
			continue;
		k = wl_prof_sym_index(pr, name);
		if (k >= 0)
			row[k] = v;
	}
	st = wl_json_member(prof, "stat");
	for (k = 0; k < WL_PSTAT_NR; k++)
		cnt[k] = st && !wl_json_number(wl_json_member(st, wl_pstat_events[k]), &v) ?
			 v : NAN;
	cnt[WL_CMP_PROF_IPC] = cnt[WL_PSTAT_CYCLES] > 0 ?
			       cnt[WL_PSTAT_INSTRUCTIONS] / cnt[WL_PSTAT_CYCLES] : NAN;
}

static void wl_mean_sd(const double *x, int n, double *mean, double *sd)
{
	double m = 0, ss = 0;
	int i;

	for (i = 0; i < n; i++)
		m += x[i] / n;
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = n ? m : NAN;
	*sd = n > 1 ? sqrt(ss / (n - 1)) : NAN;
}

/*
 * The test's sample of (policy @p, cell @c) for column @k of @val (@w
 * wide, one row per trial): each trial's value, or in a kernel comparison
 * each boot's mean; NAN values (a missing counter) left out, counted in
 * *@missing.  Returns the sample's size.
 */
static int wl_prof_sample(const struct wl_run *r, const double *val, int w,
			  const unsigned char *has, int p, int c, int k,
			  double *x, int *missing)
{
	int i, b, n = 0, m;
	double s;

	*missing = 0;
	if (!r->nboot) {
		for (i = 0; i < r->ntrial && n < WL_STATS_MAX_N; i++) {
			const struct wl_trial *t = &r->trial[i];

			if (t->policy != p || t->cell != c || !has[i])
				continue;
			if (isnan(val[(size_t)i * w + k]))
				(*missing)++;
			else
				x[n++] = val[(size_t)i * w + k];
		}
		return n;
	}
	for (b = 0; b < r->nboot && n < WL_STATS_MAX_N; b++) {
		if (r->boot[b].kernel != p || !r->boot[b].ok)
			continue;
		for (i = m = 0, s = 0; i < r->ntrial; i++) {
			const struct wl_trial *t = &r->trial[i];

			if (t->boot != b + 1 || t->cell != c || !has[i])
				continue;
			if (isnan(val[(size_t)i * w + k])) {
				(*missing)++;
				continue;
			}
			s += val[(size_t)i * w + k];
			m++;
		}
		if (m)
			x[n++] = s / m;
	}
	return n;
}

/* Holm over every tested share of @pr. */
static void wl_prof_correct(const struct wl_run *r, struct wl_prof_run *pr)
{
	double *p, *adj;
	int c, q, s, m = 0;

	p = malloc(sizeof(double) * (size_t)r->ncell * r->npol * pr->nsym + 1);
	adj = malloc(sizeof(double) * (size_t)r->ncell * r->npol * pr->nsym + 1);
	if (!p || !adj) {
		free(p);
		free(adj);
		pr->ntests = 0;
		return;
	}
	for (c = 0; c < r->ncell; c++)
		for (q = 1; q < r->npol; q++)
			for (s = 0; s < pr->nsym; s++)
				if (pr->sh[q][c][s].tested)
					p[m++] = pr->sh[q][c][s].perm.p;
	pr->ntests = m;
	wl_holm(p, m, adj);
	m = 0;
	for (c = 0; c < r->ncell; c++)
		for (q = 1; q < r->npol; q++)
			for (s = 0; s < pr->nsym; s++) {
				struct wl_prof_share *sh = &pr->sh[q][c][s];

				if (!sh->tested)
					continue;
				sh->padj = adj[m++];
				sh->sig = sh->padj <= r->alpha;
			}
	free(p);
	free(adj);
}

void wl_prof_free(struct wl_prof_run *pr)
{
	int p, c;

	if (!pr)
		return;
	for (p = 0; p < WL_CMP_MAX_SPECS; p++)
		for (c = 0; c < WL_MAX_CELLS; c++)
			free(pr->sh[p][c]);
	free(pr->name);
	free(pr->sched);
	free(pr);
}

/* Share of symbol @s over both samples of (policy @p, cell @c). */
static double wl_prof_pooled(const struct wl_prof_run *pr, int p, int c,
			     int s)
{
	const struct wl_prof_share *a = &pr->sh[0][c][s], *b = &pr->sh[p][c][s];

	return a->n + b->n ? (a->mean * a->n + b->mean * b->n) / (a->n + b->n) : 0;
}

static const struct wl_prof_run *wl_pool_pr;
static int wl_pool_p, wl_pool_c;

static int wl_pool_cmp(const void *a, const void *b)
{
	double x = wl_prof_pooled(wl_pool_pr, wl_pool_p, wl_pool_c, *(const int *)a);
	double y = wl_prof_pooled(wl_pool_pr, wl_pool_p, wl_pool_c, *(const int *)b);

	if (x != y)
		return x < y ? 1 : -1;
	return *(const int *)a - *(const int *)b;
}

/*
 * Which symbols of (policy @p, cell @c) are tested (@idx: scratch, nsym):
 * the WL_CMP_PROF_TEST_TOP largest by pooled share, and the scheduler's
 * at WL_CMP_PROF_TEST_PCT or more.
 */
static void wl_prof_choose(struct wl_prof_run *pr, int p, int c, int *idx)
{
	int s;

	for (s = 0; s < pr->nsym; s++)
		idx[s] = s;
	wl_pool_pr = pr;
	wl_pool_p = p;
	wl_pool_c = c;
	qsort(idx, pr->nsym, sizeof(*idx), wl_pool_cmp);
	for (s = 0; s < pr->nsym; s++)
		pr->sh[p][c][idx[s]].tested =
			wl_prof_pooled(pr, p, c, idx[s]) > 0 &&
			(s < WL_CMP_PROF_TEST_TOP ||
			 (pr->sched[idx[s]] &&
			  wl_prof_pooled(pr, p, c, idx[s]) >= WL_CMP_PROF_TEST_PCT));
}

/* Every (policy, cell)'s shares and counters, and the tests. */
static void wl_prof_stats(const struct wl_run *r, struct wl_prof_run *pr,
			  const double *share, const double *cnt,
			  const unsigned char *has, int *idx)
{
	double x[WL_CMP_MAX_SPECS][WL_STATS_MAX_N];
	int n[WL_CMP_MAX_SPECS], p, c, s, k, miss;

	for (c = 0; c < r->ncell; c++) {
		for (s = 0; s < pr->nsym; s++)
			for (p = 0; p < r->npol; p++) {
				struct wl_prof_share *sh = &pr->sh[p][c][s];

				n[p] = wl_prof_sample(r, share, pr->nsym, has,
						      p, c, s, x[p], &miss);
				sh->n = n[p];
				wl_mean_sd(x[p], n[p], &sh->mean, &sh->sd);
				sh->padj = NAN;
			}
		for (p = 1; p < r->npol; p++) {
			wl_prof_choose(pr, p, c, idx);
			for (s = 0; s < pr->nsym; s++) {
				struct wl_prof_share *sh = &pr->sh[p][c][s];

				if (!sh->tested)
					continue;
				n[0] = wl_prof_sample(r, share, pr->nsym, has,
						      0, c, s, x[0], &miss);
				n[p] = wl_prof_sample(r, share, pr->nsym, has,
						      p, c, s, x[p], &miss);
				if (n[0] < 1 || n[p] < 1) {
					sh->tested = 0;
					continue;
				}
				wl_perm_test_mean(x[0], n[0], x[p], n[p],
						  r->max_exact, r->nrand,
						  r->seed + 7919 * (uint64_t)(s + 1) +
						  c * r->npol + p, &sh->perm);
			}
		}
		for (p = 0; p < r->npol; p++)
			for (k = 0; k < WL_CMP_PROF_NSTAT; k++) {
				struct wl_prof_count *pc = &pr->cnt[p][c][k];

				pc->n = wl_prof_sample(r, cnt, WL_CMP_PROF_NSTAT,
						       has, p, c, k, x[0],
						       &pc->missing);
				wl_mean_sd(x[0], pc->n, &pc->mean, &pc->sd);
			}
	}
	wl_prof_correct(r, pr);
}

struct wl_prof_run *wl_prof_analyse(const struct wl_run *r)
{
	struct wl_prof_run *pr;
	double *share = NULL, *cnt = NULL;
	unsigned char *has = NULL;
	const char *prof;
	int i, p, c, *idx;
	char ev[16];

	for (i = 0; i < r->ntrial && !wl_trial_profile(&r->trial[i]); i++)
		;
	if (i == r->ntrial)
		return NULL;
	pr = calloc(1, sizeof(*pr));
	if (pr) {
		pr->name = calloc(WL_CMP_PROF_MAX_SYMS, sizeof(*pr->name));
		pr->sched = calloc(WL_CMP_PROF_MAX_SYMS, 1);
	}
	share = calloc((size_t)r->ntrial * WL_CMP_PROF_MAX_SYMS, sizeof(double));
	cnt = calloc((size_t)r->ntrial * WL_CMP_PROF_NSTAT, sizeof(double));
	has = calloc(r->ntrial, 1);
	if (!pr || !pr->name || !pr->sched || !share || !cnt || !has)
		goto oom;
	for (i = 0; i < r->ntrial; i++) {
		prof = wl_trial_profile(&r->trial[i]);
		if (!prof)
			continue;
		has[i] = 1;
		if (!pr->ntrials++) {
			wl_json_string(wl_json_member(prof, "perf"), pr->perf,
				       sizeof(pr->perf));
			wl_json_string(wl_json_member(prof, "event"), pr->event,
				       sizeof(pr->event));
		} else if (wl_json_string(wl_json_member(prof, "event"), ev, sizeof(ev)) ||
			   strcmp(ev, pr->event)) {
			snprintf(pr->event, sizeof(pr->event), "mixed");
		}
		wl_prof_read_trial(pr, prof, share + (size_t)i * WL_CMP_PROF_MAX_SYMS,
				   cnt + (size_t)i * WL_CMP_PROF_NSTAT);
	}
	/* Rows were WL_CMP_PROF_MAX_SYMS wide: pack them to nsym. */
	for (i = 1; i < r->ntrial; i++)
		memmove(share + (size_t)i * pr->nsym,
			share + (size_t)i * WL_CMP_PROF_MAX_SYMS,
			sizeof(double) * pr->nsym);
	for (p = 0; p < r->npol; p++)
		for (c = 0; c < r->ncell; c++) {
			pr->sh[p][c] = calloc(pr->nsym + 1, sizeof(struct wl_prof_share));
			if (!pr->sh[p][c])
				goto oom;
		}
	idx = malloc(sizeof(*idx) * (pr->nsym + 1));
	if (!idx)
		goto oom;
	wl_prof_stats(r, pr, share, cnt, has, idx);
	free(idx);
	free(share);
	free(cnt);
	free(has);
	return pr;
oom:
	fprintf(stderr, "wl_compare: out of memory for the profile of %d trials\n",
		r->ntrial);
	free(share);
	free(cnt);
	free(has);
	wl_prof_free(pr);
	return NULL;
}

/* Index order of (policy @p, cell @c)'s rows: by |change|, largest first. */
static const struct wl_prof_share *wl_sort_base;
static const struct wl_prof_share *wl_sort_pol;

static int wl_prof_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	double dx = fabs(wl_sort_pol[x].mean - wl_sort_base[x].mean);
	double dy = fabs(wl_sort_pol[y].mean - wl_sort_base[y].mean);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	return x - y;
}

/*
 * The rows (policy @p, cell @c) shows, into @idx: the WL_CMP_PROF_SHOW
 * largest changes, then every scheduler symbol; returns how many.
 */
static int wl_prof_rows(const struct wl_prof_run *pr, int p, int c, int *idx)
{
	int s, n = 0, k = 0;

	for (s = 0; s < pr->nsym; s++)
		idx[n++] = s;
	wl_sort_base = pr->sh[0][c];
	wl_sort_pol = pr->sh[p][c];
	qsort(idx, n, sizeof(*idx), wl_prof_cmp);
	for (s = 0; s < n; s++)
		if (s < WL_CMP_PROF_SHOW || pr->sched[idx[s]])
			idx[k++] = idx[s];
	return k;
}

static void wl_prof_put_p(FILE *f, double p)
{
	if (isnan(p))
		fprintf(f, " %8s", "-");
	else
		fprintf(f, " %8.4f", p);
}

/* "  4977 ± 2%" in 0-day's layout; @pc's mean and its %stddev. */
static void wl_prof_put_lkp(FILE *f, const struct wl_prof_count *pc)
{
	char v[32], sd[16] = "";

	if (pc->mean >= 1e7)
		snprintf(v, sizeof(v), "%.4g", pc->mean);
	else
		snprintf(v, sizeof(v), pc->mean >= 100 ? "%.0f" : "%.3g", pc->mean);
	if (!isnan(pc->sd) && pc->mean > 0 && pc->sd / pc->mean >= 0.01)
		snprintf(sd, sizeof(sd), " ± %2.0f%%", 100 * pc->sd / pc->mean);
	fprintf(f, " %14s%-6s", v, sd);
}

/* perf stat's counters of every (policy, cell), 0-day's layout. */
static void wl_prof_print_stat(FILE *f, const struct wl_run *r,
			       const struct wl_prof_run *pr)
{
	char cell[64];
	int c, p, k;

	fprintf(f, "\nperf stat (perf stat -a over each trial's window; mean ± %%stddev over %ss, %%change against %s):\n",
		r->nboot ? "boot" : "trial", r->spec[0].label);
	for (c = 0; c < r->ncell; c++) {
		wl_cell_name(r, c, cell, sizeof(cell), 0);
		for (p = 1; p < r->npol; p++) {
			fprintf(f, "\nperf stat, %s, %s against %s:\n", cell,
				r->spec[p].label, r->spec[0].label);
			for (k = 0; k < WL_CMP_PROF_NSTAT; k++) {
				const struct wl_prof_count *b = &pr->cnt[0][c][k];
				const struct wl_prof_count *q = &pr->cnt[p][c][k];

				if (!b->n || !q->n) {
					fprintf(f, "  %s: missing (%s)\n",
						wl_prof_lkp[k],
						k == WL_CMP_PROF_IPC ?
						"needs cycles and instructions" :
						"perf stat could not count it here: no PMU");
					continue;
				}
				wl_prof_put_lkp(f, b);
				fprintf(f, " %+8.1f%%", b->mean ?
					100 * (q->mean - b->mean) / b->mean : NAN);
				wl_prof_put_lkp(f, q);
				fprintf(f, "  %s\n", wl_prof_lkp[k]);
			}
		}
	}
}

/*
 * --profile's cost over the cells (@c -1) or in cell @c: the geometric
 * mean of profiled / unprofiled throughput over the pairs, their range,
 * and how many; NAN without a pair.
 */
static double wl_prof_cost_ratio(const struct wl_run *r, int c, double *lo,
				 double *hi, int *n)
{
	double s = 0, q;
	int i, k;

	*n = 0;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (k = c < 0 ? 0 : c; k < (c < 0 ? r->ncell : c + 1); k++)
		for (i = 0; i < r->cost[k].n; i++) {
			if (!(r->cost[k].off[i] > 0) || !(r->cost[k].on[i] > 0))
				continue;
			q = r->cost[k].on[i] / r->cost[k].off[i];
			s += log(q);
			*lo = fmin(*lo, q);
			*hi = fmax(*hi, q);
			(*n)++;
		}
	return *n ? exp(s / *n) : NAN;
}

/* The cost line of the Profile block. */
static void wl_prof_print_cost(FILE *f, const struct wl_run *r)
{
	double q, lo, hi;
	int n;

	q = wl_prof_cost_ratio(r, -1, &lo, &hi, &n);
	if (!n) {
		fprintf(f, "  Cost: not measured (no baseline trial ran again without perf).\n");
		return;
	}
	fprintf(f, "  Cost: the baseline's throughput with perf is %.1f %% of that without\n"
		"  (geometric mean of %d pairs, %.1f to %.1f %%: in the first %d rounds each\n"
		"  profiled baseline trial ran again at once without perf, in this boot).\n",
		100 * q, n, 100 * lo, 100 * hi, WL_CMP_PROF_COST_ROUNDS);
}

void wl_prof_print(FILE *f, const struct wl_run *r)
{
	const struct wl_prof_run *pr = r->prof;
	int c, p, i, n, *idx;
	char cell[64];

	if (!pr)
		return;
	idx = malloc(sizeof(*idx) * (pr->nsym + 1));
	if (!idx)
		return;
	fprintf(f, "\nProfile: perf %s record -a -g over each trial's window, %d trials, event %s.\n"
		"%s"
		"  Each kernel symbol's share of the samples (%%), mean over %ss; Diff in points.\n"
		"  p: permutation test of the mean against %s; Holm over the profile's own\n"
		"  family of %d tests (in each cell, the %d symbols with the largest share of\n"
		"  both samples together and the scheduler's at %.1f %% or more; '-': not\n"
		"  tested), * where Holm's p <= %g.  Listed: the %d largest changes, then every\n"
		"  scheduler symbol (s).\n",
		pr->perf, pr->ntrials, pr->event,
		!strcmp(pr->event, "cpu-clock") ?
		"  No PMU: a timer takes the samples, so time with interrupts off is charged\n"
		"  where they are enabled again (a scheduler symbol under a runqueue lock\n"
		"  shows as _raw_spin_unlock_irqrestore or finish_task_switch).\n" : "",
		r->nboot ? "boot" : "trial", r->spec[0].label, pr->ntests,
		WL_CMP_PROF_TEST_TOP, WL_CMP_PROF_TEST_PCT, r->alpha,
		WL_CMP_PROF_SHOW);
	wl_prof_print_cost(f, r);
	for (c = 0; c < r->ncell; c++) {
		wl_cell_name(r, c, cell, sizeof(cell), 0);
		for (p = 1; p < r->npol; p++) {
			fprintf(f, "\nProfile, %s, %s against %s:\n", cell,
				r->spec[p].label, r->spec[0].label);
			fprintf(f, "  %-40s %8s %8s %8s %8s %8s\n", "symbol",
				"base%", "this%", "Diff", "p", "Holm p");
			n = wl_prof_rows(pr, p, c, idx);
			for (i = 0; i < n; i++) {
				const struct wl_prof_share *b = &pr->sh[0][c][idx[i]];
				const struct wl_prof_share *q = &pr->sh[p][c][idx[i]];

				fprintf(f, "%c %-40.40s %8.2f %8.2f %+8.2f",
					pr->sched[idx[i]] ? 's' : ' ',
					pr->name[idx[i]], b->mean, q->mean,
					q->mean - b->mean);
				wl_prof_put_p(f, q->tested ? q->perm.p : NAN);
				wl_prof_put_p(f, q->tested ? q->padj : NAN);
				fprintf(f, "%s\n", q->sig ? " *" : "");
			}
		}
	}
	free(idx);
	wl_prof_print_stat(f, r, pr);
}

/* A JSON number, or null for NAN. */
static void wl_prof_put_num(FILE *f, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		fprintf(f, "\"%s\":null", key);
	else
		fprintf(f, "\"%s\":%.6g", key, v);
}

/* "cost": pooled and per cell, the ratio with perf to without. */
static void wl_prof_json_cost(FILE *f, const struct wl_run *r)
{
	double q, lo, hi;
	char cell[64];
	int c, n;

	q = wl_prof_cost_ratio(r, -1, &lo, &hi, &n);
	fprintf(f, "{\"pairs\":%d,", n);
	wl_prof_put_num(f, "ratio", q);
	fputc(',', f);
	wl_prof_put_num(f, "min", n ? lo : NAN);
	fputc(',', f);
	wl_prof_put_num(f, "max", n ? hi : NAN);
	fputs(",\"cells\":[", f);
	for (c = 0; c < r->ncell; c++) {
		q = wl_prof_cost_ratio(r, c, &lo, &hi, &n);
		wl_cell_name(r, c, cell, sizeof(cell), 0);
		fputs(c ? ",{\"cell\":" : "{\"cell\":", f);
		wl_json_put_string(f, cell);
		fprintf(f, ",\"pairs\":%d,", n);
		wl_prof_put_num(f, "ratio", q);
		fputc('}', f);
	}
	fputs("]}", f);
}

void wl_prof_json(FILE *f, const struct wl_run *r)
{
	const struct wl_prof_run *pr = r->prof;
	int c, p, s, k, first;

	if (!pr) {
		fputs(",\"profile\":null", f);
		return;
	}
	fputs(",\"profile\":{\"perf\":", f);
	wl_json_put_string(f, pr->perf);
	fputs(",\"event\":", f);
	wl_json_put_string(f, pr->event);
	fprintf(f, ",\"trials\":%d,\"correction\":{\"method\":\"holm\",\"family\":\"profile\",\"tests\":%d,\"top\":%d,\"sched_min_pct\":%g},\"cost\":",
		pr->ntrials, pr->ntests, WL_CMP_PROF_TEST_TOP, WL_CMP_PROF_TEST_PCT);
	wl_prof_json_cost(f, r);
	fputs(",\"cells\":[", f);
	for (c = 0; c < r->ncell; c++)
		for (p = 0; p < r->npol; p++) {
			char cell[64];

			wl_cell_name(r, c, cell, sizeof(cell), 0);
			fprintf(f, "%s{\"cell\":", c || p ? "," : "");
			wl_json_put_string(f, cell);
			fputs(",\"policy\":", f);
			wl_json_put_string(f, r->spec[p].label);
			fputs(",\"symbols\":[", f);
			for (s = 0, first = 1; s < pr->nsym; s++) {
				const struct wl_prof_share *sh = &pr->sh[p][c][s];

				if (!sh->n || (!sh->mean && !pr->sched[s]))
					continue;
				fputs(first ? "{\"symbol\":" : ",{\"symbol\":", f);
				first = 0;
				wl_json_put_string(f, pr->name[s]);
				fprintf(f, ",\"sched\":%s,\"n\":%d,", pr->sched[s] ?
					"true" : "false", sh->n);
				wl_prof_put_num(f, "mean_pct", sh->mean);
				fputc(',', f);
				wl_prof_put_num(f, "sd", sh->sd);
				fputc(',', f);
				wl_prof_put_num(f, "p", sh->tested ? sh->perm.p : NAN);
				fputc(',', f);
				wl_prof_put_num(f, "p_holm", sh->padj);
				fprintf(f, ",\"significant\":%s}", sh->sig ? "true" : "false");
			}
			fputs("],\"stat\":{", f);
			for (k = 0; k < WL_CMP_PROF_NSTAT; k++) {
				const struct wl_prof_count *pc = &pr->cnt[p][c][k];

				fprintf(f, "%s\"%s\":", k ? "," : "", wl_prof_lkp[k]);
				if (!pc->n) {
					fputs("null", f);
					continue;
				}
				fputc('{', f);
				fprintf(f, "\"n\":%d,", pc->n);
				wl_prof_put_num(f, "mean", pc->mean);
				fputc(',', f);
				wl_prof_put_num(f, "sd", pc->sd);
				fputc('}', f);
			}
			fputs("}}", f);
		}
	fputs("]}", f);
}

/*
 * The cells in the plot's order: first those with a marked result in the
 * report (throughput or a placement share, the headline's), then the
 * others, each in the table's order.  Returns how many (all).
 */
static int wl_prof_cell_order(const struct wl_run *r, int *order)
{
	int c, p, k, n = 0, pass, sig;

	for (pass = 0; pass < 2; pass++)
		for (c = 0; c < r->ncell; c++) {
			for (p = 1, sig = 0; p < r->npol; p++) {
				sig |= r->st[p][c].sig;
				for (k = 0; k < WL_NR_PM; k++)
					sig |= r->st[p][c].pl[k].sig;
			}
			if (sig == !pass)
				order[n++] = c;
		}
	return n;
}

/*
 * The symbols a cell's panel shows, into @idx: the WL_CMP_PROF_PLOT
 * largest by their largest mean share in any policy.
 */
static int wl_prof_plot_syms(const struct wl_run *r, int c, int *idx)
{
	const struct wl_prof_run *pr = r->prof;
	double best[WL_CMP_PROF_PLOT], m;
	int s, p, i, n = 0;

	for (s = 0; s < pr->nsym; s++) {
		for (p = 0, m = 0; p < r->npol; p++)
			m = fmax(m, pr->sh[p][c][s].mean);
		if (m <= 0)
			continue;
		for (i = n; i > 0 && best[i - 1] < m; i--)
			if (i < WL_CMP_PROF_PLOT) {
				best[i] = best[i - 1];
				idx[i] = idx[i - 1];
			}
		if (i < WL_CMP_PROF_PLOT) {
			best[i] = m;
			idx[i] = s;
			n += n < WL_CMP_PROF_PLOT;
		}
	}
	return n;
}

void wl_prof_plot_data(FILE *f, const struct wl_run *r)
{
	const struct wl_prof_run *pr = r->prof;
	int order[WL_MAX_CELLS], idx[WL_CMP_PROF_PLOT], nc, n, i, j, p;
	char cell[64];

	if (!pr)
		return;
	nc = wl_prof_cell_order(r, order);
	for (i = 0; i < nc; i++) {
		wl_cell_name(r, order[i], cell, sizeof(cell), 0);
		fprintf(f, "%s# %s: symbol, then mean share (%%) and stddev per policy\n",
			i ? "\n\n" : "", cell);
		n = wl_prof_plot_syms(r, order[i], idx);
		for (j = 0; j < n; j++) {
			fprintf(f, "\"%s\"", pr->name[idx[j]]);
			for (p = 0; p < r->npol; p++) {
				const struct wl_prof_share *sh = &pr->sh[p][order[i]][idx[j]];

				fprintf(f, " %.3f", sh->mean);
				if (isnan(sh->sd))
					fputs(" ?", f);
				else
					fprintf(f, " %.3f", sh->sd);
			}
			fputc('\n', f);
		}
	}
}

void wl_prof_plot_script(FILE *f, const struct wl_run *r)
{
	int order[WL_MAX_CELLS], nc, i, p, rows;
	char cell[64];

	if (!r->prof)
		return;
	nc = wl_prof_cell_order(r, order);
	rows = nc < WL_CMP_PROF_PANELS ? nc : WL_CMP_PROF_PANELS;
	fprintf(f, "# gnuplot script written by wl_compare; run: gnuplot profile.gp\n");
	fprintf(f, "set terminal pngcairo size 1200,%d\nset output 'profile.png'\n",
		360 * rows + 60);
	fprintf(f, "set datafile missing '?'\n");
	fprintf(f, "set multiplot layout %d,1 title \"%s %s: the kernel symbols' share of %s samples (perf %s), mean per %s, bars: stddev\" noenhanced\n",
		rows, r->env.release, r->env.mode, r->prof->event, r->prof->perf,
		r->nboot ? "boot" : "trial");
	fprintf(f, "set style data histogram\nset style histogram errorbars gap 1 lw 1\n");
	fprintf(f, "set style fill solid 0.5 border -1\nset boxwidth 0.9\n");
	fprintf(f, "set xtics rotate by -25 noenhanced\nset key top right noenhanced\n");
	fprintf(f, "set ylabel '%% of samples'\nset yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\nset grid ytics\n");
	for (i = 0; i < rows; i++) {
		wl_cell_name(r, order[i], cell, sizeof(cell), 0);
		fprintf(f, "set title \"%s%s\" noenhanced\n", cell,
			i ? "" : " (first: the cell the headline names, if any)");
		for (p = 0; p < r->npol; p++)
			fprintf(f, "%s'profile.dat' index %d using %d:%d%s title '%s'",
				p ? ", \\\n     " : "plot ", i, 2 + 2 * p, 3 + 2 * p,
				p ? "" : ":xtic(1)", r->spec[p].label);
		fputc('\n', f);
	}
	fprintf(f, "unset multiplot\n");
}
