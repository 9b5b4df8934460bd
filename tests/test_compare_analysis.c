// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of wl_compare's statistics (selftests/lib/core/stats.c) and
 * its JSON reader (selftests/lib/core/json_read.c): Hmean, mmtests'
 * harmonic-mean Stddev and CoeffVar against values computed independently
 * (Python, the mmtests Stat.pm formulas), mmtests' pdiff/pndiff, exact permutation p-values
 * against brute-force enumeration, the sampled test's reproducibility and
 * agreement with the exact one, the same test on arithmetic means, Holm's
 * adjusted p-values and the normal quantile against hand-computed values,
 * the placement shares of a made-up run (means, extremes, standard
 * deviations, a cell without wakeups, a share equal on both sides, the
 * report's family), strict JSON parsing of wl_stream-like
 * objects, and the schema check (exactly these members: missing,
 * unexpected and duplicate ones named).  TAP via kselftest.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kselftest.h"
#include "wl/compare/analysis.h"
#include "wl/core/json_read.h"
#include "wl/core/stats.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol * (fabs(b) > 1 ? fabs(b) : 1);
}

#define CHECK(cond, ...) ksft_test_result((cond), __VA_ARGS__)

static void test_summary(void)
{
	const double x[] = { 1, 2, 4 };
	/* Peter's NO_WA_OLD figures from seed 000, as one sample. */
	const double pz[] = { 44139.8, 27301.6, 12701.5, 5711.62, 2870.16 };
	const double one[] = { 5 };
	struct wl_summary s;

	wl_summarise(x, 3, &s);
	CHECK(near(s.hmean, 1.7142857142857142, 1e-12), "hmean {1,2,4}\n");
	CHECK(near(s.stddev, 0.9163242579854549, 1e-12),
	      "mmtests hmean stddev {1,2,4}\n");
	CHECK(near(s.coeffvar, 53.452248382484875, 1e-12),
	      "coeffvar {1,2,4}\n");
	CHECK(s.min == 1 && s.max == 4 && near(s.amean, 7.0 / 3, 1e-12),
	      "min max amean {1,2,4}\n");
	wl_summarise(pz, 5, &s);
	CHECK(near(s.hmean, 7558.483613820031, 1e-12) &&
	      near(s.stddev, 6883.224933756622, 1e-12) &&
	      near(s.coeffvar, 91.0662149372295, 1e-12),
	      "hmean/stddev/coeffvar of seed 000 figures\n");
	wl_summarise(one, 1, &s);
	CHECK(s.hmean == 5 && isnan(s.stddev) && s.coeffvar == 0,
	      "n=1: stddev NaN, coeffvar 0 (as mmtests)\n");
	CHECK(wl_hmean((const double[]){ 3, 0 }, 2) == 0 &&
	      isnan(wl_hmean((const double[]){ 3, -1 }, 2)) &&
	      isnan(wl_hmean(x, 0)), "hmean of 0, negative, empty\n");
	CHECK(near(wl_pdiff(100, 90), -10, 1e-12) &&
	      near(wl_pndiff(10, 5), 50, 1e-12) && isnan(wl_pdiff(0, 5)),
	      "pdiff/pndiff as mmtests\n");
}

static void test_perm(void)
{
	const double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	const double a4[] = { 1, 2, 3, 4 }, b4[] = { 5, 6, 7, 8 };
	const double a5[] = { 10, 11, 12, 13, 14 };
	const double b5[] = { 12, 13, 14, 15, 16 };
	const double a6[] = { 100, 98, 103, 101, 99, 102 };
	const double b6[] = { 104, 97, 100, 103, 101, 99 };
	struct wl_perm_result r, r2;

	CHECK(wl_choose(10, 5) == 252 && wl_choose(12, 6) == 924 &&
	      wl_choose(3, 4) == 0 && wl_choose(200, 100) == UINT64_MAX,
	      "binomial coefficients, saturation\n");
	CHECK(near(wl_perm_min_p(3, 3), 0.1, 1e-12) &&
	      near(wl_perm_min_p(5, 5), 2.0 / 252, 1e-12),
	      "smallest attainable p\n");
	wl_perm_test(a3, 3, b3, 3, 1000, 0, 1, &r);
	CHECK(r.exact && r.total == 20 && r.count == 2 && near(r.p, 0.1, 1e-12),
	      "exact 3v3 separated: p = 2/20\n");
	wl_perm_test(a4, 4, b4, 4, 1000, 0, 1, &r);
	CHECK(r.exact && near(r.p, 2.0 / 70, 1e-12),
	      "exact 4v4 separated: p = 2/70\n");
	wl_perm_test(a5, 5, b5, 5, 1000, 0, 1, &r);
	CHECK(r.exact && r.count == 30 && r.total == 252,
	      "exact 5v5 overlapping: 30/252 as brute force\n");
	wl_perm_test(a6, 6, b6, 6, 1000, 0, 1, &r);
	CHECK(r.exact && r.count == 900 && r.total == 924,
	      "exact 6v6 A/A-like: 900/924 as brute force\n");
	wl_perm_test(a3, 3, a3, 3, 1000, 0, 1, &r);
	CHECK(near(r.p, 1, 1e-12), "identical samples: p = 1\n");
	wl_perm_test(a6, 6, b6, 6, 10, 20000, 42, &r);
	wl_perm_test(a6, 6, b6, 6, 10, 20000, 42, &r2);
	CHECK(!r.exact && r.total == 20000 && r.count == r2.count,
	      "sampled test is reproducible from its seed\n");
	CHECK(fabs(r.p - 900.0 / 924) < 0.01,
	      "sampled p within 0.01 of the exact p (%.4f)\n", r.p);
	wl_perm_test(a4, 4, b4, 4, 10, 20000, 7, &r);
	CHECK(!r.exact && fabs(r.p - 2.0 / 70) < 0.006,
	      "sampled 4v4 near 2/70 (%.4f)\n", r.p);
	CHECK(wl_perm_test(a3, 0, b3, 3, 10, 10, 1, &r) == -1,
	      "empty sample rejected\n");
}

static void test_holm(void)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	const double a[] = { 20, 25, 30 }, b[] = { 90, 95, 100 };
	const double c[] = { 0, 10, 20, 30 }, d[] = { 10, 20, 30, 40 };
	struct wl_perm_result r;
	double adj[4];

	wl_holm(p, 4, adj);
	/* Sorted 0.005 0.01 0.03 0.04 -> x4 x3 x2 x1: 0.02 0.03 0.06 0.04->0.06. */
	CHECK(near(adj[0], 0.03, 1e-12) && near(adj[1], 0.06, 1e-12) &&
	      near(adj[2], 0.06, 1e-12) && near(adj[3], 0.02, 1e-12),
	      "Holm adjusted p (hand-computed), in input order\n");
	wl_holm((const double[]){ 0.5, 0.9 }, 2, adj);
	CHECK(adj[0] == 1 && adj[1] == 1, "Holm caps at 1\n");
	CHECK(near(wl_norm_quantile(0.975), 1.959963984540054, 1e-9) &&
	      near(wl_norm_quantile(0.8), 0.8416212335729143, 1e-9) &&
	      isnan(wl_norm_quantile(0)), "normal quantile\n");
	CHECK(near(wl_detectable(10, 8, 8, 0.05, 0.8),
		   (1.959963984540054 + 0.8416212335729143) * 10 * 0.5, 1e-9),
	      "detectable difference, normal approximation\n");
	wl_perm_test_mean(a, 3, b, 3, 1000, 0, 1, &r);
	CHECK(r.exact && r.total == 20 && r.count == 2 && near(r.stat, 70, 1e-12),
	      "mean test 3v3 separated: p = 2/20, statistic 70\n");
	/* Brute force: 32 of the 70 splits differ in mean by >= 10. */
	wl_perm_test_mean(c, 4, d, 4, 1000, 0, 1, &r);
	CHECK(r.exact && r.total == 70 && r.count == 32,
	      "mean test 4v4 overlapping: 32/70 as brute force (%llu)\n",
	      (unsigned long long)r.count);
}

static struct wl_run run;

/* A made-up trial of (policy, cell) with these placement counters. */
static void add_trial(int p, int c, double wakeups, double waker,
		      double prev, double agg)
{
	struct wl_trial *t = &run.trial[run.ntrial++];

	memset(t, 0, sizeof(*t));
	t->policy = p;
	t->cell = c;
	t->ok = 1;
	t->aggregate = agg;
	t->instances = 1;
	t->has_wakelab = 1;
	t->nplace = 3;
	snprintf(t->place_key[0], WL_PLACE_KEY, "wakeups");
	snprintf(t->place_key[1], WL_PLACE_KEY, "waker_cpu");
	snprintf(t->place_key[2], WL_PLACE_KEY, "prev_cpu");
	t->place_val[0] = wakeups;
	t->place_val[1] = waker;
	t->place_val[2] = prev;
}

/* An empty run of two policies over @ncell cells, alpha 0.05, exact tests. */
static void new_run(int ncell)
{
	memset(&run, 0, sizeof(run));
	run.npol = 2;
	run.ncell = ncell;
	run.alpha = 0.05;
	run.max_exact = 100000;
	run.seed = 1;
}

static void test_shares(void)
{
	const struct wl_pstat *a, *b;
	int i;

	new_run(2);
	/* Cell 0: waker shares 90 95 100 85 vs 10 20 30 40 (of 200 wakeups). */
	for (i = 0; i < 4; i++) {
		add_trial(0, 0, 200, 2 * (90 + 5 * i) - (i == 3) * 40, 0,
			  1000 + i);
		add_trial(1, 0, 200, 2 * (10 + 10 * i), 100, 1000 + i);
	}
	/* Cell 1: no wakeups on either side. */
	for (i = 0; i < 4; i++) {
		add_trial(0, 1, 0, 0, 0, 500 + i);
		add_trial(1, 1, 0, 0, 0, 500 + 2 * i);
	}
	wl_run_stats(&run);
	a = &run.st[0][0].pl[WL_PM_WAKER_CPU];
	b = &run.st[1][0].pl[WL_PM_WAKER_CPU];
	/* 90 95 100 85: mean 92.5, sd sqrt(41.666..) = 6.4550; 10..40: 25, 12.9099. */
	CHECK(a->n == 4 && near(a->mean, 92.5, 1e-12) && a->min == 85 &&
	      a->max == 100 && near(a->sd, 6.454972243679028, 1e-12) &&
	      b->n == 4 && near(b->mean, 25, 1e-12) &&
	      near(b->sd, 12.909944487358056, 1e-12),
	      "waker-CPU share: mean, min, max, sample stddev by hand\n");
	CHECK(b->tested && b->perm.exact && near(b->perm.p, 2.0 / 70, 1e-12),
	      "waker-CPU share tested: exact p 2/70\n");
	CHECK(run.st[0][0].pl[WL_PM_PREV_CPU].mean == 0 &&
	      run.st[1][0].pl[WL_PM_PREV_CPU].mean == 50 &&
	      run.st[1][0].pl[WL_PM_PREV_CPU].tested,
	      "previous-CPU share 0 vs 50 %%\n");
	CHECK(run.st[0][1].pl[WL_PM_WAKER_CPU].n == 0 &&
	      isnan(run.st[1][1].pl[WL_PM_WAKER_CPU].mean) &&
	      !run.st[1][1].pl[WL_PM_WAKER_CPU].tested &&
	      isnan(run.st[1][1].pl[WL_PM_WAKER_CPU].padj),
	      "a cell without wakeups has no share and no test\n");
	CHECK(!run.has_pm[WL_PM_CROSS_LLC] && !run.has_pm[WL_PM_RULE_IDLE] &&
	      !run.has_pm[WL_PM_LB_MIGR] &&
	      !run.st[1][0].pl[WL_PM_CROSS_LLC].tested,
	      "counters no trial has give no share (no lb_migr: no LBMigr/1k)\n");
	/* Family: throughput x 2 cells, waker and prev shares of cell 0. */
	CHECK(run.ntests == 4 && near(run.minp, 2.0 / 70, 1e-12),
	      "the report's family: 4 tests, smallest p 2/70 (%d)\n",
	      run.ntests);
	CHECK(near(b->padj, 4 * 2.0 / 70, 1e-12) && !b->sig,
	      "Holm: 2/70 x 4 = 0.114, not significant with 4 trials a side\n");
	run.st[1][0].pl[WL_PM_WAKER_CPU].sig = 0;
	add_trial(1, 0, 1, 0, 1, 999);	/* a fifth trial: share 0 */
	add_trial(0, 0, 10, 9, 0, 999);	/* and 90 */
	wl_run_stats(&run);
	b = &run.st[1][0].pl[WL_PM_WAKER_CPU];
	CHECK(b->n == 5 && near(b->perm.p, 2.0 / 252, 1e-12) &&
	      near(b->padj, 4 * 2.0 / 252, 1e-12) && b->sig,
	      "five trials a side: 2/252 x 4 = 0.032, significant\n");
}

/* lb_migr is a rate per 1000 wakeups, not a share in %. */
static void test_lb_rate(void)
{
	struct wl_trial *t;
	int i;

	new_run(1);
	for (i = 0; i < 10; i++) {
		add_trial(i & 1, 0, 2000, 500, 500, 1000);
		t = &run.trial[run.ntrial - 1];
		snprintf(t->place_key[t->nplace], WL_PLACE_KEY, "lb_migr");
		t->place_val[t->nplace++] = i & 1 ? 10 + i : 60 + i;
	}
	wl_run_stats(&run);
	CHECK(run.has_pm[WL_PM_LB_MIGR] &&
	      near(wl_trial_share(&run.trial[0], WL_PM_LB_MIGR), 30, 1e-12) &&
	      near(run.st[0][0].pl[WL_PM_LB_MIGR].mean, 32, 1e-12) &&
	      near(run.st[1][0].pl[WL_PM_LB_MIGR].mean, 7.5, 1e-12) &&
	      run.st[1][0].pl[WL_PM_LB_MIGR].sig &&
	      near(run.st[1][0].pl[WL_PM_WAKER_CPU].mean, 25, 1e-12),
	      "lb_migr 60 of 2000 wakeups: 30 per 1000; 32 vs 7.5, significant\n");
}

/* A kernel comparison: the shares' unit is the boot (its mean share). */
static void test_boot_shares(void)
{
	const struct wl_pstat *a, *b;
	int i;

	new_run(1);
	run.nboot = 4;
	for (i = 0; i < 4; i++) {
		run.boot[i].kernel = i == 1 || i == 2;
		run.boot[i].ok = 1;
		run.boot[i].seq = i + 1;
	}
	/* Boot 1 (A): 10, 30 -> 20; boot 2 (B): 50; boot 3 (B): 60, 80 -> 70;
	 * boot 4 (A): 40 and a trial without wakeups. */
	for (i = 0; i < 7; i++) {
		static const int boot[] = { 1, 1, 2, 3, 3, 4, 4 };
		static const double waker[] = { 10, 30, 50, 60, 80, 40, 0 };

		add_trial(boot[i] == 2 || boot[i] == 3, 0, i < 6 ? 100 : 0,
			  waker[i], 0, 1);
		run.trial[run.ntrial - 1].boot = boot[i];
	}
	wl_run_stats(&run);
	a = &run.st[0][0].pl[WL_PM_WAKER_CPU];
	b = &run.st[1][0].pl[WL_PM_WAKER_CPU];
	CHECK(a->n == 2 && near(a->mean, 30, 1e-12) && a->min == 20 &&
	      a->max == 40 && b->n == 2 && near(b->mean, 60, 1e-12) &&
	      b->min == 50 && b->max == 70 && b->tested &&
	      near(b->perm.p, 2.0 / 6, 1e-12),
	      "kernel comparison: one mean share per boot, tested across boots\n");
}

/*
 * Issue 37 in memory: the smallest attainable p, NaN statistics, a zero
 * Hmean's CoeffVar, the printed Hmean of a kernel comparison with lost
 * trials, and complementary shares in Holm's family.
 */
static void test_issue37(void)
{
	const double a3[] = { 1, 2, 3 }, b4[] = { 1000, 1001, 1002, 1003 };
	const double nanv[] = { 1, NAN, 3 }, neg[] = { 1, -2, 3 };
	uint64_t st = 37;
	struct wl_perm_result r;
	struct wl_summary s;
	int i, k, c, below = 0, hit = 0;

	/* Catches 2/C for unequal sides: 3 against 4 has no mirror split. */
	wl_perm_test(a3, 3, b4, 4, 1000, 0, 1, &r);
	CHECK(near(wl_perm_min_p(3, 4), 1.0 / 35, 1e-12) &&
	      near(wl_perm_min_p(3, 3), 0.1, 1e-12) && r.exact &&
	      r.count == 1 && near(r.p, 1.0 / 35, 1e-12),
	      "smallest p: 1/35 for 3 vs 4 (reached by the test), 2/20 for 3 vs 3\n");
	/*
	 * Catches a minimum the test can undercut, or never reach: random
	 * samples of 1..5 a side, exact test, against wl_perm_min_p().
	 */
	for (k = 0; k < 400; k++) {
		double x[10];
		int na = 1 + (int)wl_rand_below(&st, 5);
		int nb = 1 + (int)wl_rand_below(&st, 5);

		for (i = 0; i < na + nb; i++)
			x[i] = 1 + (double)wl_rand_below(&st, 1000) +
			       (i < na ? 0 : 1000 * (k & 1));
		wl_perm_test(x, na, x + na, nb, 1000, 0, 1, &r);
		below += r.p < wl_perm_min_p(na, nb) * (1 - 1e-12);
		hit += near(r.p, wl_perm_min_p(na, nb), 1e-12);
	}
	CHECK(!below && hit > 100,
	      "400 random samples: no p below the smallest attainable, %d reach it\n",
	      hit);
	/* Catches "+nan %, significant (p 0.0000)". */
	wl_perm_test(nanv, 3, b4, 4, 1000, 0, 1, &r);
	CHECK(r.p == 1 && r.count == r.total, "a NaN value: p = 1\n");
	wl_perm_test_mean(neg, 3, b4, 4, 10, 100, 1, &r);
	k = r.p < 1;	/* a mean of negatives is a number: tested */
	wl_perm_test(neg, 3, b4, 4, 10, 100, 1, &r);
	CHECK(r.p == 1 && k, "a negative value: its Hmean is NaN, p = 1 (sampled too)\n");
	/* Catches CoeffVar 0.00 printed as 100 % better for a zero Hmean. */
	wl_summarise((const double[]){ 0, 5, 10 }, 3, &s);
	CHECK(s.hmean == 0 && isnan(s.coeffvar), "Hmean 0: CoeffVar NaN, not 0\n");

	/*
	 * A kernel comparison where 2 of 3 trials were lost in 5 of A's 7
	 * boots: boots of 1 trial at 100, two of 3 at 150; B 7 boots of 3 at
	 * 115.  The pooled trials would print B -5.9 %; the boots' Hmeans,
	 * what the test compares, +4.1 %.  Catches the pooled figure.
	 */
	new_run(1);
	run.nboot = 14;
	for (i = 0; i < 14; i++) {
		run.boot[i].kernel = i >= 7;
		run.boot[i].ok = 1;
		run.boot[i].seq = i + 1;
		for (k = 0; k < 3; k++) {
			add_trial(i >= 7, 0, 0, 0, 0, i >= 7 ? 115 :
				  i >= 5 ? 150 : 100);
			run.trial[run.ntrial - 1].boot = i + 1;
			run.trial[run.ntrial - 1].has_wakelab = 0;
			if (i < 5 && k)
				run.trial[run.ntrial - 1].ok = 0;
		}
	}
	wl_run_stats(&run);
	CHECK(near(run.st[0][0].s.hmean, 7 / (5 / 100.0 + 2 / 150.0), 1e-12) &&
	      near(wl_pdiff(run.st[0][0].s.hmean, run.st[1][0].s.hmean),
		   115 * (5 / 100.0 + 2 / 150.0) / 7 * 100 - 100, 1e-9) &&
	      wl_pdiff(run.st[0][0].s.hmean, run.st[1][0].s.hmean) > 0 &&
	      run.st[0][0].s.n == 7 && run.st[0][0].tmin == 1 &&
	      run.st[0][0].tmax == 3 && run.st[0][0].ntrials == 11 &&
	      run.st[0][0].failed == 10 && run.st[1][0].tested &&
	      near(run.st[1][0].perm.stat, fabs(run.st[1][0].s.hmean -
						run.st[0][0].s.hmean), 1e-9),
	      "lost trials: the printed Hmean is the boots' Hmean of Hmeans, B +4.1 %% (tested), not -5.9 %%\n");

	/*
	 * 3 cells, 5 trials a side, perfectly separated, every wakeup on
	 * the waker's or the previous CPU: 9 tests would give Holm 0.071
	 * and no mark; PrevCPU% counted once, 6 tests, 0.048, all marked.
	 */
	new_run(3);
	for (c = 0; c < 3; c++)
		for (i = 0; i < 5; i++) {
			add_trial(0, c, 100, 30 + i, 70 - i, 100 + i);
			add_trial(1, c, 100, 60 + i, 40 - i, 200 + i);
		}
	wl_run_stats(&run);
	k = 1;
	for (c = 0; c < 3; c++) {
		const struct wl_cellstat *cs = &run.st[1][c];

		k &= cs->sig && cs->pl[WL_PM_WAKER_CPU].sig &&
		     cs->pl[WL_PM_PREV_CPU].sig &&
		     cs->pl[WL_PM_PREV_CPU].same_as == WL_PM_WAKER_CPU &&
		     cs->pl[WL_PM_PREV_CPU].same_sign == -1 &&
		     cs->pl[WL_PM_WAKER_CPU].same_as == -1;
	}
	CHECK(k && run.ntests == 6 && run.ndup == 3,
	      "PrevCPU%% = 100 - WakerCPU%%: one test, 6 in the family (%d), all marked\n",
	      run.ntests);
	/* Catches a share taken for a duplicate that is not one. */
	run.trial[1].place_val[2] += 1;	/* one trial's prev share off */
	wl_run_stats(&run);
	CHECK(run.ntests == 7 && run.st[1][0].pl[WL_PM_PREV_CPU].same_as == -1,
	      "one value off the complement: tested on its own (7 tests)\n");
}

/*
 * The simulated detectable size: larger for a larger family, none where
 * no p can reach the level.  (Its 80 % is checked by
 * tests/test_core_stats_power.c.)  Catches a search that ignores the level.
 */
static void test_power(void)
{
	const double a[] = { 990, 1010, 1003, 997, 1020, 985, 1001, 1008 };
	const double b[] = { 1012, 996, 989, 1015, 1000, 993, 1006, 1002 };
	double d6, d85;

	d6 = wl_perm_detectable(a, 8, b, 8, 1, 0.05 / 6, 0.8, 100000, 20000,
				200, 1);
	d85 = wl_perm_detectable(a, 8, b, 8, 1, 0.05 / 85, 0.8, 100000,
				 20000, 200, 1);
	CHECK(d6 > 0.005 && d6 < 0.1 && d85 > d6,
	      "detectable: %.2f %% at 6 tests, %.2f %% at 85\n", 100 * d6,
	      100 * d85);
	CHECK(isnan(wl_perm_detectable(a, 3, b, 3, 1, 0.05, 0.8, 100000,
				       20000, 200, 1)) &&
	      isnan(wl_perm_detectable(a, 8, a, 8, 0, 0.05, 0.8, 100000,
				       20000, 200, 1)) == 0,
	      "3 a side cannot reach 0.05: no detectable size\n");
}

static void test_json(void)
{
	const char *o = "{\"aggregate\":5534.28,\"unit\":\"Mbit\\/s\",\"instances\":2,"
			"\"per_instance\":[{\"id\":0},{\"id\":1}],\"integrity\":\"ok\","
			"\"wakelab\":{\"placement\":{\"default\":{\"wakeups\":10,\"sync\":null}}}}";
	const char *v, *it = NULL, *pl;
	char buf[64];
	double d;
	int n = 0;

	CHECK(wl_json_valid_object(o), "valid wl_stream-like object\n");
	CHECK(!wl_json_number(wl_json_member(o, "aggregate"), &d) &&
	      d == 5534.28, "number member\n");
	CHECK(!wl_json_string(wl_json_member(o, "unit"), buf, sizeof(buf)) &&
	      !strcmp(buf, "Mbit/s"), "string member with escape\n");
	CHECK(!wl_json_member(o, "missing") && !wl_json_member(o, "id"),
	      "absent and nested-only keys not found at top level\n");
	pl = wl_json_member(wl_json_member(o, "wakelab"), "placement");
	while ((v = wl_json_next_member(&it, pl, buf, sizeof(buf))))
		n++;
	CHECK(n == 1 && !strcmp(buf, "default"), "member iteration\n");
	it = NULL;
	n = 0;
	while ((v = wl_json_next_elem(&it, wl_json_member(o, "per_instance"))))
		n++;
	CHECK(n == 2, "array iteration\n");
	CHECK(!wl_json_valid_object("{\"a\":1,}") &&
	      !wl_json_valid_object("{\"a\":01}") &&
	      !wl_json_valid_object("{\"a\":1} x") &&
	      !wl_json_valid_object("{\"a\":\"\x01\"}") &&
	      !wl_json_valid_object("{a:1}") &&
	      !wl_json_valid_object("[1]") &&
	      !wl_json_valid_object("{\"a\":tru}") &&
	      !wl_json_valid_object("{\"a\":1.}") &&
	      !wl_json_valid_object(""), "malformed JSON rejected\n");
	CHECK(wl_json_valid_object(" {\"a\":-1.5e+3,\"b\":[true,false,null,{}],\"c\":\"\\u00e9\"}\n"),
	      "full grammar accepted\n");
}

/* The schema check: exactly these members, in any order. */
static void test_json_members(void)
{
	static const char * const want[] = { "a", "b", "c", NULL };
	static const char * const more[] = { "d", NULL };
	char msg[256];

	CHECK(!wl_json_members_exact("{\"c\":1,\"a\":{\"x\":1},\"b\":[]}",
				     want, NULL, msg, sizeof(msg)) &&
	      !wl_json_members_exact("{\"d\":0,\"c\":1,\"a\":2,\"b\":3}",
				     want, more, msg, sizeof(msg)),
	      "members: exact sets, any order, nested keys not counted\n");
	CHECK(wl_json_members_exact("{\"a\":1,\"c\":2}", want, NULL, msg,
				    sizeof(msg)) == -1 &&
	      !strcmp(msg, "missing 'b'"), "members: %s\n", msg);
	CHECK(wl_json_members_exact("{\"a\":1,\"b\":1,\"c\":2,\"e\":3}", want,
				    NULL, msg, sizeof(msg)) == -1 &&
	      !strcmp(msg, "unexpected 'e'"), "members: %s\n", msg);
	CHECK(wl_json_members_exact("{\"a\":1,\"b\":1,\"c\":2,\"a\":3}", want,
				    NULL, msg, sizeof(msg)) == -1 &&
	      !strcmp(msg, "duplicate 'a'"), "members: %s\n", msg);
	CHECK(wl_json_members_exact("{\"a\":1,\"b\":1,\"c\":2}", want, more,
				    msg, sizeof(msg)) == -1 &&
	      !strcmp(msg, "missing 'd'") &&
	      wl_json_members_exact("null", want, NULL, msg, sizeof(msg)) == -1,
	      "members: a workload's extra member missing; not an object\n");
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(32 + 6 + 8 + 1 + 1 + 8 + 2);
	test_summary();
	test_perm();
	test_holm();
	test_shares();
	test_lb_rate();
	test_boot_shares();
	test_issue37();
	test_power();
	test_json();
	test_json_members();
	ksft_finished();
}
