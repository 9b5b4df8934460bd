// SPDX-License-Identifier: GPL-2.0
/*
 * wl_compare's statistics: throughput and placement shares per (policy,
 * cell), the permutation tests against the baseline, and Holm's
 * correction over every test of the report; see wl/compare/analysis.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wl/compare/analysis.h"
#include "wl/compare/profile.h"

/* Every test of the largest report fits one family. */
_Static_assert((WL_CMP_MAX_SPECS - 1) * WL_MAX_CELLS * (WL_NR_PM + 1) <=
	       WL_STATS_MAX_TESTS, "a report's family exceeds wl_holm()");

/*
 * Kernel p's boots in cell c: each boot's Hmean into xb (returns how many
 * boots had a successful trial), the CoeffVar of those Hmeans, the
 * pooled within-boot CoeffVar and the range of trials a boot into cs.
 */
static int wl_boot_means(const struct wl_run *r, int p, int c, double *xb,
			 struct wl_cellstat *cs)
{
	double x[WL_STATS_MAX_N], ss = 0, m, bss = 0, all = 0;
	int b, i, n, nb = 0, df = 0, nall = 0;

	cs->tmin = cs->tmax = 0;
	for (b = 0; b < r->nboot; b++) {
		if (r->boot[b].kernel != p || !r->boot[b].ok)
			continue;
		for (i = n = 0; i < r->ntrial; i++) {
			const struct wl_trial *t = &r->trial[i];

			if (t->boot == b + 1 && t->cell == c && t->ok &&
			    n < WL_STATS_MAX_N)
				x[n++] = t->aggregate;
		}
		if (!n)
			continue;
		cs->tmin = nb && cs->tmin < n ? cs->tmin : n;
		cs->tmax = nb && cs->tmax > n ? cs->tmax : n;
		xb[nb++] = wl_hmean(x, n);
		for (i = 0, m = 0; i < n; i++)
			m += x[i] / n;
		for (i = 0; i < n; i++)
			ss += (x[i] - m) * (x[i] - m);
		df += n - 1;
		all += m * n;
		nall += n;
	}
	cs->nboot = nb;
	for (b = 0, m = 0; b < nb; b++)
		m += xb[b] / nb;
	for (b = 0; b < nb; b++)
		bss += (xb[b] - m) * (xb[b] - m);
	cs->boot_cov = nb > 1 && m > 0 ? sqrt(bss / (nb - 1)) * 100 / m : NAN;
	cs->trial_cov = df > 0 && all > 0 ? sqrt(ss / df) * 100 / (all / nall) :
		       NAN;
	return nb;
}

/*
 * The sample of share k of (p, c): each trial's share, or in a kernel
 * comparison each boot's mean share.  Returns its size.
 */
static int wl_share_sample(const struct wl_run *r, int p, int c, int k,
			   double *x)
{
	int b, i, n = 0, nt;
	double v, sum;

	if (!r->nboot) {
		for (i = 0; i < r->ntrial && n < WL_STATS_MAX_N; i++) {
			const struct wl_trial *t = &r->trial[i];

			if (t->policy != p || t->cell != c)
				continue;
			v = wl_trial_share(t, k);
			if (!isnan(v))
				x[n++] = v;
		}
		return n;
	}
	for (b = 0; b < r->nboot; b++) {
		if (r->boot[b].kernel != p || !r->boot[b].ok)
			continue;
		for (i = nt = 0, sum = 0; i < r->ntrial; i++) {
			const struct wl_trial *t = &r->trial[i];

			if (t->boot != b + 1 || t->cell != c)
				continue;
			v = wl_trial_share(t, k);
			if (!isnan(v))
				sum += v, nt++;
		}
		if (nt && n < WL_STATS_MAX_N)
			x[n++] = sum / nt;
	}
	return n;
}

static void wl_share_summary(const double *x, int n, struct wl_pstat *ps)
{
	double ss = 0;
	int i;

	memset(ps, 0, sizeof(*ps));
	ps->n = n;
	ps->sd = NAN;
	ps->padj = NAN;
	ps->detect = NAN;
	ps->same_as = -1;
	ps->mean = n ? 0 : NAN;
	ps->min = n ? x[0] : NAN;
	ps->max = ps->min;
	for (i = 0; i < n; i++) {
		ps->mean += x[i] / n;
		ps->min = fmin(ps->min, x[i]);
		ps->max = fmax(ps->max, x[i]);
	}
	for (i = 0; i < n; i++)
		ss += (x[i] - ps->mean) * (x[i] - ps->mean);
	if (n > 1)
		ps->sd = sqrt(ss / (n - 1));
}

/* Whether the two samples pooled hold a single value (p = 1 by force). */
static int wl_constant(const double *a, int na, const double *b, int nb)
{
	int i;

	for (i = 1; i < na; i++)
		if (a[i] != a[0])
			return 0;
	for (i = 0; i < nb; i++)
		if (b[i] != a[0])
			return 0;
	return 1;
}

/*
 * Whether x and y (n values each) are, value by value, a constant minus
 * each other (sign -1) or a constant plus (sign 1): then the permutation
 * test of the difference of means is the same test on either.
 */
static int wl_affine(const double *x, const double *y, int n, int sign)
{
	double c, v;
	int i;

	c = sign < 0 ? x[0] + y[0] : x[0] - y[0];
	for (i = 1; i < n; i++) {
		v = sign < 0 ? x[i] + y[i] : x[i] - y[i];
		if (fabs(v - c) > 1e-9 * fmax(1, fabs(c)))
			return 0;
	}
	return 1;
}

/* The samples of every share of one cell: [share][policy][value]. */
static double wl_pl_x[WL_NR_PM][WL_CMP_MAX_SPECS][WL_STATS_MAX_N];
static int wl_pl_n[WL_NR_PM][WL_CMP_MAX_SPECS];

/*
 * Share k of policy p the same test as an earlier tested share j of the
 * same kind (a share of wakeups, or of wake_affine() calls; not a rate)?
 * Both samples, baseline and p's, pooled, must match value by value.
 */
static int wl_same_test(const struct wl_run *r, int c, int p, int k,
			int *sign)
{
	double x[2 * WL_STATS_MAX_N], y[2 * WL_STATS_MAX_N];
	int j, n0 = wl_pl_n[k][0], np = wl_pl_n[k][p];

	if (wl_pmetrics[k].per)
		return -1;
	memcpy(x, wl_pl_x[k][0], n0 * sizeof(*x));
	memcpy(x + n0, wl_pl_x[k][p], np * sizeof(*x));
	for (j = 0; j < k; j++) {
		const struct wl_pstat *pj = &r->st[p][c].pl[j];

		if (!pj->tested || pj->same_as >= 0 || wl_pmetrics[j].per ||
		    !wl_pmetrics[j].den != !wl_pmetrics[k].den ||
		    wl_pl_n[j][0] != n0 || wl_pl_n[j][p] != np)
			continue;
		memcpy(y, wl_pl_x[j][0], n0 * sizeof(*y));
		memcpy(y + n0, wl_pl_x[j][p], np * sizeof(*y));
		for (*sign = -1; *sign <= 1; *sign += 2)
			if (wl_affine(x, y, n0 + np, *sign))
				return j;
	}
	return -1;
}

static void wl_place_stats(struct wl_run *r, int c)
{
	int k, p;

	for (k = 0; k < WL_NR_PM; k++) {
		for (p = 0; p < r->npol; p++) {
			int n = wl_share_sample(r, p, c, k, wl_pl_x[k][p]);

			wl_pl_n[k][p] = n;
			wl_share_summary(wl_pl_x[k][p], n, &r->st[p][c].pl[k]);
			/* A rule that decided nothing anywhere is left out. */
			if (n && (wl_pmetrics[k].den ||
				  r->st[p][c].pl[k].max > 0))
				r->has_pm[k] = 1;
		}
		for (p = 1; p < r->npol; p++) {
			struct wl_pstat *ps = &r->st[p][c].pl[k];
			const double *x0 = wl_pl_x[k][0], *xp = wl_pl_x[k][p];
			int n0 = wl_pl_n[k][0], np = wl_pl_n[k][p];

			if (!n0 || !np || wl_constant(x0, n0, xp, np))
				continue;
			ps->tested = 1;
			ps->same_as = wl_same_test(r, c, p, k, &ps->same_sign);
			if (ps->same_as >= 0) {
				ps->perm = r->st[p][c].pl[ps->same_as].perm;
				continue;
			}
			wl_perm_test_mean(x0, n0, xp, np, r->max_exact,
					  r->nrand, r->seed + c * r->npol + p +
					  (uint64_t)(k + 1) * r->npol * r->ncell,
					  &ps->perm);
		}
	}
}

/* Smallest p a test could give: exact, or sampled (1 / (splits + 1)). */
static double wl_test_min_p(const struct wl_run *r,
			    const struct wl_perm_result *pr, int na, int nb)
{
	return pr->exact ? wl_perm_min_p(na, nb) : 1.0 / (r->nrand + 1);
}

/*
 * Holm over every distinct test of the report; also the smallest p any
 * test of the family could give, from its own sample sizes.
 */
static void wl_correct(struct wl_run *r)
{
	static double p[WL_STATS_MAX_TESTS], adj[WL_STATS_MAX_TESTS];
	double minp = 1;
	int c, k, q, m = 0;

	r->ndup = 0;
	for (c = 0; c < r->ncell; c++)
		for (q = 1; q < r->npol; q++) {
			struct wl_cellstat *cs = &r->st[q][c];

			if (cs->tested) {
				p[m++] = cs->perm.p;
				minp = fmin(minp, wl_test_min_p(r, &cs->perm,
								r->st[0][c].s.n,
								cs->s.n));
			}
			for (k = 0; k < WL_NR_PM; k++) {
				if (!cs->pl[k].tested)
					continue;
				if (cs->pl[k].same_as >= 0) {
					r->ndup++;
					continue;
				}
				p[m++] = cs->pl[k].perm.p;
				minp = fmin(minp, wl_test_min_p(r, &cs->pl[k].perm,
								r->st[0][c].pl[k].n,
								cs->pl[k].n));
			}
		}
	r->ntests = m;
	r->minp = m ? minp : NAN;
	wl_holm(p, m, adj);
	m = 0;
	for (c = 0; c < r->ncell; c++)
		for (q = 1; q < r->npol; q++) {
			struct wl_cellstat *cs = &r->st[q][c];

			if (cs->tested) {
				cs->padj = adj[m++];
				cs->sig = cs->padj <= r->alpha;
			}
			for (k = 0; k < WL_NR_PM; k++) {
				struct wl_pstat *ps = &cs->pl[k];

				if (!ps->tested)
					continue;
				if (ps->same_as >= 0) {
					ps->padj = cs->pl[ps->same_as].padj;
					ps->sig = cs->pl[ps->same_as].sig;
					continue;
				}
				ps->padj = adj[m++];
				ps->sig = ps->padj <= r->alpha;
			}
		}
}

/*
 * The throughput sample the test of (p, c) compares: the boots' Hmeans
 * (kernel comparison) or the successful trials' aggregates.
 */
static int wl_tput_sample(const struct wl_run *r, int p, int c, double *x)
{
	struct wl_cellstat scratch;
	int i, n = 0;

	if (r->nboot)
		return wl_boot_means(r, p, c, x, &scratch);
	for (i = 0; i < r->ntrial && n < WL_STATS_MAX_N; i++) {
		const struct wl_trial *t = &r->trial[i];

		if (t->policy == p && t->cell == c && t->ok &&
		    t->exit_code != -2)
			x[n++] = t->aggregate;
	}
	return n;
}

/* Whether any test of the report is marked. */
static int wl_any_sig(const struct wl_run *r)
{
	int c, p, k;

	for (c = 0; c < r->ncell; c++)
		for (p = 1; p < r->npol; p++) {
			if (r->st[p][c].sig)
				return 1;
			for (k = 0; k < WL_NR_PM; k++)
				if (r->st[p][c].pl[k].sig)
					return 1;
		}
	return 0;
}

/*
 * Nothing marked: what the run could have found, by simulating its own
 * tests (wl_perm_detectable()) at Holm's first threshold, for throughput
 * and for the waker-CPU share.
 */
static void wl_power(struct wl_run *r)
{
	double xa[WL_STATS_MAX_N], xb[WL_STATS_MAX_N], level;
	int c, p, na, nb, k = WL_PM_WAKER_CPU;
	uint64_t seed;

	if (!r->ntests || wl_any_sig(r))
		return;
	level = r->alpha / r->ntests;
	for (c = 0; c < r->ncell; c++)
		for (p = 1; p < r->npol; p++) {
			struct wl_cellstat *cs = &r->st[p][c];

			seed = r->seed ^ 0x706f776572ULL;	/* "power" */
			seed += c * r->npol + p;
			na = wl_tput_sample(r, 0, c, xa);
			nb = wl_tput_sample(r, p, c, xb);
			if (cs->tested)
				cs->detect = 100 *
					wl_perm_detectable(xa, na, xb, nb, 1,
							   level, WL_POWER,
							   r->max_exact,
							   r->nrand,
							   WL_POWER_SIMS, seed);
			if (!cs->pl[k].tested)
				continue;
			na = wl_share_sample(r, 0, c, k, xa);
			nb = wl_share_sample(r, p, c, k, xb);
			cs->pl[k].detect =
				wl_perm_detectable(xa, na, xb, nb, 0, level,
						   WL_POWER, r->max_exact,
						   r->nrand, WL_POWER_SIMS,
						   seed + 1);
		}
}

void wl_run_stats(struct wl_run *r)
{
	double x[WL_CMP_MAX_SPECS][WL_STATS_MAX_N];
	int p, c, i, n[WL_CMP_MAX_SPECS];

	memset(r->has_pm, 0, sizeof(r->has_pm));
	for (c = 0; c < r->ncell; c++) {
		for (p = 0; p < r->npol; p++) {
			struct wl_cellstat *cs = &r->st[p][c];

			memset(cs, 0, sizeof(*cs));
			cs->padj = NAN;
			cs->detect = NAN;
			for (i = 0; i < r->ntrial; i++) {
				const struct wl_trial *t = &r->trial[i];

				if (t->policy != p || t->cell != c ||
				    t->exit_code == -2)
					continue;
				if (!t->ok) {
					cs->failed++;
					continue;
				}
				cs->ntrials++;
				cs->zero += t->aggregate == 0;
			}
			/* The summary is of the test's sample. */
			if (r->nboot)
				n[p] = wl_boot_means(r, p, c, x[p], cs);
			else
				n[p] = wl_tput_sample(r, p, c, x[p]);
			wl_summarise(x[p], n[p], &cs->s);
			cs->avg_inst = n[p] && r->cell[c].instances > 0 ?
				       cs->s.hmean / r->cell[c].instances : NAN;
		}
		for (p = 1; p < r->npol; p++) {
			struct wl_cellstat *cs = &r->st[p][c];

			if (n[0] < 1 || n[p] < 1)
				continue;
			wl_perm_test(x[0], n[0], x[p], n[p], r->max_exact,
				     r->nrand, r->seed + c * r->npol + p,
				     &cs->perm);
			cs->tested = 1;
		}
		wl_place_stats(r, c);
	}
	wl_correct(r);
	wl_power(r);
	wl_prof_free(r->prof);
	r->prof = wl_prof_analyse(r);
}
