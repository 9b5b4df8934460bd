// SPDX-License-Identifier: GPL-2.0
/*
 * wl_compare's statistics: throughput and placement shares per (policy,
 * cell), the permutation tests against the baseline, and Holm's
 * correction over every test of the report; see wl/compare_report.h.
 */
#include <math.h>
#include <string.h>

#include "wl/compare_report.h"

/* Every test of the largest report fits one family. */
_Static_assert((WL_CMP_MAX_SPECS - 1) * WL_MAX_CELLS * (WL_NR_PM + 1) <=
	       WL_STATS_MAX_TESTS, "a report's family exceeds wl_holm()");

const struct wl_pmetric_def wl_pmetrics[WL_NR_PM] = {
	[WL_PM_WAKER_CPU] = { "WakerCPU%", "waker_cpu", "waker_cpu",
			      WL_PLACE_TOTAL, "on the waker's CPU", "wakeups" },
	[WL_PM_PREV_CPU] = { "PrevCPU%", "prev_cpu", "prev_cpu",
			     WL_PLACE_TOTAL, "on its previous CPU", "wakeups" },
	[WL_PM_WAKER_LLC] = { "WakerLLC%", "waker_llc", "waker_llc",
			      WL_PLACE_TOTAL, "elsewhere in the waker's LLC",
			      "wakeups" },
	[WL_PM_PREV_LLC] = { "PrevLLC%", "prev_llc", "prev_llc",
			     WL_PLACE_TOTAL,
			     "elsewhere in its previous CPU's LLC", "wakeups" },
	[WL_PM_CROSS_LLC] = { "CrossLLC%", "cross_llc", "cross_llc",
			      WL_PLACE_TOTAL,
			      "in another LLC than its previous CPU's",
			      "wakeups" },
	[WL_PM_RULE_NONE] = { "RuleNone%", "rule_none", WL_PLACE_RULE "none",
			      NULL, "decided with every rule off",
			      "wake_affine() calls" },
	[WL_PM_RULE_IDLE] = { "RuleIdle%", "rule_idle", WL_PLACE_RULE "idle",
			      NULL, "decided by WA_IDLE",
			      "wake_affine() calls" },
	[WL_PM_RULE_WEIGHT] = { "RuleWgt%", "rule_weight",
				WL_PLACE_RULE "weight", NULL,
				"decided by WA_WEIGHT", "wake_affine() calls" },
	[WL_PM_RULE_OLD] = { "RuleOld%", "rule_old", WL_PLACE_RULE "old",
			     NULL, "decided by WA_OLD", "wake_affine() calls" },
	[WL_PM_RULE_POLICY] = { "RulePol%", "rule_policy",
				WL_PLACE_RULE "policy", NULL,
				"decided by the module's policy",
				"wake_affine() calls" },
	[WL_PM_LB_MIGR] = { "LBMigr/1k", "lb_migr", "lb_migr", WL_PLACE_TOTAL,
			    "load-balance migrations (tasks moved while not waking)",
			    "wakeups", 1000 },
};

static double wl_trial_place(const struct wl_trial *t, const char *k)
{
	int i;

	for (i = 0; i < t->nplace; i++)
		if (!strcmp(t->place_key[i], k))
			return t->place_val[i];
	return NAN;
}

double wl_trial_share(const struct wl_trial *t, int k)
{
	const struct wl_pmetric_def *d = &wl_pmetrics[k];
	double num, den = 0;
	int i, rules = 0;

	if (!t->ok || !t->has_wakelab)
		return NAN;
	if (d->den) {
		den = wl_trial_place(t, d->den);
	} else {
		for (i = 0; i < t->nplace; i++)
			if (!strncmp(t->place_key[i], WL_PLACE_RULE,
				     strlen(WL_PLACE_RULE))) {
				den += t->place_val[i];
				rules = 1;
			}
		if (!rules)
			return NAN;
	}
	if (isnan(den) || den <= 0)
		return NAN;
	num = wl_trial_place(t, d->num);
	if (isnan(num))		/* a rule that decided nothing has no row */
		num = d->den ? NAN : 0;
	return num * (d->per ? d->per : 100) / den;
}

/*
 * Kernel p's boots in cell c: each boot's Hmean into xb (returns how many
 * boots had a successful trial), the CoeffVar of those Hmeans and the
 * pooled within-boot CoeffVar into cs.
 */
static int wl_boot_means(const struct wl_run *r, int p, int c, double *xb,
			 struct wl_cellstat *cs)
{
	double x[WL_STATS_MAX_N], ss = 0, m, bss = 0, all = 0;
	int b, i, n, nb = 0, df = 0, nall = 0;

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

static void wl_place_stats(struct wl_run *r, int c)
{
	double x[WL_CMP_MAX_SPECS][WL_STATS_MAX_N];
	int k, p, n[WL_CMP_MAX_SPECS];

	for (k = 0; k < WL_NR_PM; k++) {
		for (p = 0; p < r->npol; p++) {
			n[p] = wl_share_sample(r, p, c, k, x[p]);
			wl_share_summary(x[p], n[p], &r->st[p][c].pl[k]);
			/* A rule that decided nothing anywhere is left out. */
			if (n[p] && (wl_pmetrics[k].den ||
				     r->st[p][c].pl[k].max > 0))
				r->has_pm[k] = 1;
		}
		for (p = 1; p < r->npol; p++) {
			struct wl_pstat *ps = &r->st[p][c].pl[k];

			if (!n[0] || !n[p] || wl_constant(x[0], n[0], x[p], n[p]))
				continue;
			wl_perm_test_mean(x[0], n[0], x[p], n[p], r->max_exact,
					  r->nrand, r->seed + c * r->npol + p +
					  (uint64_t)(k + 1) * r->npol * r->ncell,
					  &ps->perm);
			ps->tested = 1;
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
 * Holm over every test of the report; also the smallest p any test of the
 * family could give.
 */
static void wl_correct(struct wl_run *r)
{
	static double p[WL_STATS_MAX_TESTS], adj[WL_STATS_MAX_TESTS];
	double minp = 1;
	int c, k, q, m = 0, na, nb;

	for (c = 0; c < r->ncell; c++)
		for (q = 1; q < r->npol; q++) {
			struct wl_cellstat *cs = &r->st[q][c];

			na = r->nboot ? r->st[0][c].nboot : r->st[0][c].s.n;
			nb = r->nboot ? cs->nboot : cs->s.n;
			if (cs->tested) {
				p[m++] = cs->perm.p;
				minp = fmin(minp, wl_test_min_p(r, &cs->perm, na,
								nb));
			}
			for (k = 0; k < WL_NR_PM; k++) {
				if (!cs->pl[k].tested)
					continue;
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
				if (!cs->pl[k].tested)
					continue;
				cs->pl[k].padj = adj[m++];
				cs->pl[k].sig = cs->pl[k].padj <= r->alpha;
			}
		}
}

void wl_run_stats(struct wl_run *r)
{
	double x[WL_CMP_MAX_SPECS][WL_STATS_MAX_N];
	double xb[WL_CMP_MAX_SPECS][WL_STATS_MAX_N];
	int p, c, i, n[WL_CMP_MAX_SPECS], nb[WL_CMP_MAX_SPECS];

	memset(r->has_pm, 0, sizeof(r->has_pm));
	for (c = 0; c < r->ncell; c++) {
		for (p = 0; p < r->npol; p++) {
			struct wl_cellstat *cs = &r->st[p][c];
			double avg = 0;

			memset(cs, 0, sizeof(*cs));
			cs->padj = NAN;
			n[p] = 0;
			for (i = 0; i < r->ntrial; i++) {
				const struct wl_trial *t = &r->trial[i];

				if (t->policy != p || t->cell != c ||
				    t->exit_code == -2)
					continue;
				if (!t->ok) {
					cs->failed++;
					continue;
				}
				if (n[p] < WL_STATS_MAX_N)
					x[p][n[p]++] = t->aggregate;
				avg += t->instances ?
				       t->aggregate / t->instances : NAN;
			}
			wl_summarise(x[p], n[p], &cs->s);
			cs->avg_inst = n[p] ? avg / n[p] : NAN;
			if (r->nboot)
				nb[p] = wl_boot_means(r, p, c, xb[p], cs);
		}
		for (p = 1; p < r->npol; p++) {
			struct wl_cellstat *cs = &r->st[p][c];

			if (r->nboot && (nb[0] < 1 || nb[p] < 1))
				continue;
			if (n[0] < 1 || n[p] < 1)
				continue;
			if (r->nboot)
				wl_perm_test(xb[0], nb[0], xb[p], nb[p],
					     r->max_exact, r->nrand,
					     r->seed + c * r->npol + p, &cs->perm);
			else
				wl_perm_test(x[0], n[0], x[p], n[p],
					     r->max_exact, r->nrand,
					     r->seed + c * r->npol + p,
					     &cs->perm);
			cs->tested = 1;
		}
		wl_place_stats(r, c);
	}
	wl_correct(r);
}
