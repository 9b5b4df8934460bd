// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of the "detectable" sizes wl_compare prints when nothing
 * differs (issue 37): wl_perm_detectable() simulates the permutation test
 * the report ran, resampling the run's own values with a planted shift,
 * and returns the shift found in 80 % of the runs.  For samples drawn
 * from a known distribution (log-normal, CoeffVar 5 %; n = 5, 7 and 8 a
 * side; Holm's first threshold for families of 1, 6, 22 and 85 tests),
 * each of 8 data sets a case:
 *
 *  - the printed size, simulated afresh (another seed, 400 runs): the
 *    rate must be 0.8 +- 0.05 on average over the data sets (catches a
 *    search or a power estimate that does not find what it claims);
 *  - the same size against fresh samples of the true distribution (400
 *    runs): the coverage a user gets, printed (docs/wl_compare.md quotes
 *    it), and checked to be above 0.6;
 *  - the normal approximation's size (the old figure), against the true
 *    distribution: printed, for comparison.
 *
 * TAP via kselftest.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kselftest.h"
#include "wl/core/stats.h"

#define SETS	8
#define RUNS	400
#define CV	0.05

static uint64_t rng = 37;

static double normal(void)
{
	double u = ((double)wl_rand_below(&rng, 1ULL << 52) + 0.5) / (1ULL << 52);
	double v = ((double)wl_rand_below(&rng, 1ULL << 52) + 0.5) / (1ULL << 52);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static double draw(void)
{
	return 1000 * exp(CV * normal() - CV * CV / 2);
}

/* The rate at which fresh true samples with the shift are found. */
static double true_rate(int n, double shift, double level)
{
	double a[WL_STATS_MAX_N], b[WL_STATS_MAX_N];
	struct wl_perm_result r;
	int i, k, found = 0;

	for (k = 0; k < RUNS; k++) {
		for (i = 0; i < n; i++) {
			a[i] = draw();
			b[i] = draw() * (1 + shift);
		}
		wl_perm_test(a, n, b, n, 100000, 20000, k, &r);
		found += r.p <= level;
	}
	return (double)found / RUNS;
}

static void one_case(int n, int m)
{
	double a[WL_STATS_MAX_N], b[WL_STATS_MAX_N], level = 0.05 / m;
	double d, sim = 0, cov = 0, ncov = 0, size = 0, nsize = 0;
	struct wl_summary sa, sb;
	int i, k, sets = 0;

	for (k = 0; k < SETS; k++) {
		for (i = 0; i < n; i++) {
			a[i] = draw();
			b[i] = draw();
		}
		d = wl_perm_detectable(a, n, b, n, 1, level, 0.8, 100000,
				       20000, 200, k + 1);
		if (isnan(d))
			continue;
		sets++;
		size += d;
		sim += wl_perm_power(a, n, b, n, 1, d, level, 100000, 20000,
				     RUNS, 0, 1000 + k);
		cov += true_rate(n, d, level);
		/* The old headline's figure: mmtests' n-divided CoeffVar. */
		wl_summarise(a, n, &sa);
		wl_summarise(b, n, &sb);
		d = wl_detectable(sqrt((sa.coeffvar * sa.coeffvar +
					sb.coeffvar * sb.coeffvar) / 2) / 100,
				  n, n, level, 0.8);
		nsize += d;
		ncov += true_rate(n, d, level);
	}
	if (!sets) {
		ksft_test_result_skip("n %d, %d tests: no p reaches %.5f\n", n,
				      m, level);
		return;
	}
	sim /= sets;
	cov /= sets;
	ksft_print_msg("n %d a side, %2d tests (level %.5f): simulated size %.2f %% found %.3f afresh, %.3f on the true distribution; normal approximation %.2f %% found %.3f\n",
		       n, m, level, 100 * size / sets, sim, cov,
		       100 * nsize / sets, ncov / sets);
	ksft_test_result(fabs(sim - 0.8) <= 0.05 && cov > 0.6,
			 "n %d, %d tests: the printed size is found in %.3f of %d simulated runs (0.8 +- 0.05), %.3f of true ones\n",
			 n, m, sim, sets * RUNS, cov);
}

int main(void)
{
	static const int ns[] = { 5, 7, 8 }, ms[] = { 1, 6, 22, 85 };
	int i, j;

	ksft_print_header();
	ksft_set_plan(12);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			one_case(ns[i], ms[j]);
	ksft_finished();
}
