/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for wl_compare: the summary mmtests prints for a rate (Min,
 * Hmean, Stddev, CoeffVar, Max, with mmtests' harmonic-mean standard
 * deviation), its percentage changes against a baseline, and a two-sided
 * permutation test on the difference of harmonic means.  The test is exact
 * (every split of the pooled trials) while that is at most a given number of
 * splits, otherwise it draws a fixed number of random splits from a seeded
 * splitmix64 generator, so every verdict can be reproduced.  No special
 * functions are needed.
 */
#ifndef WL_CORE_STATS_H
#define WL_CORE_STATS_H

#include <stdint.h>

/* Largest sample one (policy, instances) cell may hold. */
#define WL_STATS_MAX_N		64
/* Most tests one family-wise correction takes (wl_holm()). */
#define WL_STATS_MAX_TESTS	8192
/* Relative tolerance when comparing a permuted statistic to the observed. */
#define WL_STATS_TIE_EPS	1e-9

/**
 * struct wl_summary - mmtests "Multiops" summary of one sample of rates
 * @n:		number of values
 * @min:	smallest value
 * @max:	largest value
 * @hmean:	harmonic mean (0 when a value is 0, NAN when n == 0)
 * @amean:	arithmetic mean
 * @stddev:	mmtests' standard deviation for a harmonic mean,
 *		sqrt(sum((1/x - 1/H)^2) * H^4 / n); NAN when n <= 1
 * @coeffvar:	stddev * 100 / hmean (0 when stddev is NAN, as mmtests;
 *		NAN when the Hmean is 0 or NAN: no relative spread)
 */
struct wl_summary {
	int	n;
	double	min;
	double	max;
	double	hmean;
	double	amean;
	double	stddev;
	double	coeffvar;
};

/**
 * struct wl_perm_result - outcome of wl_perm_test()
 * @p:		two-sided p-value
 * @stat:	observed |Hmean(a) - Hmean(b)|
 * @count:	permutations whose statistic reached the observed one
 * @total:	permutations evaluated
 * @exact:	1 when every split was enumerated, 0 when sampled
 */
struct wl_perm_result {
	double		p;
	double		stat;
	uint64_t	count;
	uint64_t	total;
	int		exact;
};

/* Uniform integer in [0, bound) without modulo bias. */
uint64_t wl_rand_below(uint64_t *state, uint64_t bound);

/* Harmonic mean; 0 if some value is 0, NAN if empty or a value is < 0. */
double wl_hmean(const double *x, int n);

void wl_summarise(const double *x, int n, struct wl_summary *s);

/* mmtests pdiff: change of a higher-is-better figure, + = better. */
double wl_pdiff(double base, double val);

/* mmtests pndiff: for Stddev and CoeffVar, lower is better, + = better. */
double wl_pndiff(double base, double val);

/* Binomial coefficient, saturating at UINT64_MAX. */
uint64_t wl_choose(int n, int k);

/*
 * Smallest two-sided p-value wl_perm_test() or wl_perm_test_mean() can
 * give, exact, for samples of na and nb values: the observed split is
 * always counted, and with na == nb so is its mirror (the samples
 * swapped, the same |difference|), so 2/C(2n, n); with na != nb there is
 * no mirror and the extreme split can be the only one, 1/C(na+nb, na).
 * Three trials a side give 2/20 = 0.1, so no difference can ever be
 * called significant at 95 %; four 2/70, five 2/252; 3 against 4 1/35.
 */
double wl_perm_min_p(int na, int nb);

/**
 * wl_perm_test() - two-sided permutation test of Hmean(a) == Hmean(b)
 * @a:		first sample (na values, 1..WL_STATS_MAX_N)
 * @na:		its size
 * @b:		second sample
 * @nb:		its size
 * @max_exact:	enumerate every split when there are at most this many
 * @nrand:	otherwise, number of random splits to draw
 * @seed:	seed of the random splits
 * @res:	result
 *
 * Exact: p = (splits with statistic >= observed) / C(na+nb, na).  Sampled:
 * p = (1 + count) / (1 + nrand), which never gives p = 0.  A statistic
 * that is NaN (a NaN or negative value) gives p = 1: no evidence.
 *
 * Return: 0, or -1 when a size is out of range.
 */
int wl_perm_test(const double *a, int na, const double *b,
		 int nb, uint64_t max_exact, uint64_t nrand,
		 uint64_t seed, struct wl_perm_result *res);

/*
 * wl_perm_test_mean() - the same test on the difference of arithmetic
 * means (for shares, which may be 0, where a harmonic mean is not apt)
 */
int wl_perm_test_mean(const double *a, int na, const double *b,
		      int nb, uint64_t max_exact, uint64_t nrand,
		      uint64_t seed, struct wl_perm_result *res);

/*
 * wl_holm() - Holm's step-down adjusted p-values
 * @p:		raw p-values of the family
 * @m:		family size (at most WL_STATS_MAX_TESTS)
 * @adj:	adjusted p-values, in @p's order: with the raw values sorted
 *		ascending, adj(i) = max over j <= i of min(1, (m - j + 1) p(j))
 *
 * Rejecting every hypothesis whose adjusted p is at most alpha controls
 * the family-wise error rate at alpha whatever the dependence between the
 * tests (Holm 1979).
 */
void wl_holm(const double *p, int m, double *adj);

/* Standard normal quantile (bisection on erfc); NAN outside (0, 1). */
double wl_norm_quantile(double q);

/*
 * Smallest true difference of means a two-sided test at level @alpha
 * detects with probability @power, samples of @na and @nb values with
 * standard deviation @sd (normal approximation):
 * (z(1 - alpha/2) + z(power)) * sd * sqrt(1/na + 1/nb).  Optimistic for
 * the small exact permutation tests wl_compare runs; its headline uses
 * wl_perm_detectable() instead.
 */
double wl_detectable(double sd, int na, int nb, double alpha, double power);

/**
 * wl_perm_power() - how often the test finds a planted shift
 * @a:		first sample of the run (na values)
 * @na:		its size
 * @b:		second sample (nb values)
 * @nb:		its size
 * @hmean:	1: wl_perm_test() with @shift relative (0.05: b 5 % higher);
 *		0: wl_perm_test_mean() with @shift added (points)
 * @shift:	the planted shift
 * @level:	a simulated run finds it when its p <= @level
 * @max_exact:	the test as the run ran it
 * @nrand:	likewise
 * @nsim:	simulated runs
 * @stop_at:	> 0: stop once the rate is known to be at least or below it
 * @seed:	seed of the draws (the same draws at every @shift)
 *
 * Each simulated run draws na and nb values with replacement from the
 * run's own centred spread (each value as a ratio to its side's Hmean,
 * or its difference to its side's mean; pooled; widened by
 * sqrt(N / (N - 2)) for the two centres), plants @shift on the second,
 * and runs the same permutation test.
 *
 * Return: the fraction of the runs that found it; NAN when the samples
 * have no spread (or a value that is not finite, or not positive for an
 * Hmean).
 */
double wl_perm_power(const double *a, int na, const double *b, int nb,
		     int hmean, double shift, double level, uint64_t max_exact,
		     uint64_t nrand, int nsim, double stop_at, uint64_t seed);

/*
 * wl_perm_detectable() - the smallest shift wl_perm_power() finds with
 * @power (bisection to 1/4096 of the first bracket, the same draws at
 * every shift); NAN when none can be: no spread, or no p of these sizes
 * reaches @level.
 */
double wl_perm_detectable(const double *a, int na, const double *b, int nb,
			  int hmean, double level, double power,
			  uint64_t max_exact, uint64_t nrand, int nsim,
			  uint64_t seed);

#endif /* WL_CORE_STATS_H */
