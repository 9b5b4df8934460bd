/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for wl_compare: the summary mmtests prints for a rate (Min,
 * Hmean, Stddev, CoeffVar, Max, with mmtests' harmonic-mean standard
 * deviation), its percentage changes against a baseline, and a two-sided
 * permutation test on the difference of harmonic means.  The test is exact
 * (every split of the pooled trials) while that is at most a given number of
 * splits, otherwise it draws a fixed number of random splits from a seeded
 * splitmix64 generator, so every verdict can be reproduced.  No special
 * functions are needed.  Header-only; libc and libm.
 */
#ifndef WL_STATS_H
#define WL_STATS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Largest sample one (policy, instances) cell may hold. */
#define WL_STATS_MAX_N		64
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
 * @coeffvar:	stddev * 100 / hmean (0 when stddev is NAN, as mmtests)
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

/* splitmix64: small, well-known, good enough to draw permutations. */
static inline uint64_t wl_rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform integer in [0, bound) without modulo bias. */
static inline uint64_t wl_rand_below(uint64_t *state, uint64_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound, v;

	do {
		v = wl_rand_next(state);
	} while (v >= limit);
	return v % bound;
}

/* Harmonic mean; 0 if some value is 0, NAN if empty or a value is < 0. */
static inline double wl_hmean(const double *x, int n)
{
	double inv = 0;
	int i;

	if (n <= 0)
		return NAN;
	for (i = 0; i < n; i++) {
		if (x[i] < 0 || isnan(x[i]))
			return NAN;
		if (x[i] == 0)
			return 0;
		inv += 1.0 / x[i];
	}
	return n / inv;
}

static inline double wl_amean(const double *x, int n)
{
	double sum = 0;
	int i;

	if (n <= 0)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

/* mmtests Stat.pm calc_stddev("hmean"): note the division by n, not n-1. */
static inline double wl_stddev_hmean(const double *x, int n)
{
	double h = wl_hmean(x, n), diff = 0;
	int i;

	if (n <= 1 || isnan(h) || h == 0)
		return NAN;
	for (i = 0; i < n; i++)
		diff += (1.0 / x[i] - 1.0 / h) * (1.0 / x[i] - 1.0 / h);
	return sqrt(diff * h * h * h * h / n);
}

static inline void wl_summarise(const double *x, int n, struct wl_summary *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->min = n ? x[0] : NAN;
	s->max = n ? x[0] : NAN;
	for (i = 1; i < n; i++) {
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->hmean = wl_hmean(x, n);
	s->amean = wl_amean(x, n);
	s->stddev = wl_stddev_hmean(x, n);
	if (isnan(s->hmean) || s->hmean == 0)
		s->coeffvar = 0;
	else
		s->coeffvar = (isnan(s->stddev) ? 0 : s->stddev) * 100 /
			      s->hmean;
}

/* mmtests pdiff: change of a higher-is-better figure, + = better. */
static inline double wl_pdiff(double base, double val)
{
	if (base == 0 || isnan(base) || isnan(val))
		return NAN;
	return val * 100 / base - 100;
}

/* mmtests pndiff: for Stddev and CoeffVar, lower is better, + = better. */
static inline double wl_pndiff(double base, double val)
{
	if (base == 0 || isnan(base) || isnan(val))
		return NAN;
	return 100 - val * 100 / base;
}

/* Binomial coefficient, saturating at UINT64_MAX. */
static inline uint64_t wl_choose(int n, int k)
{
	uint64_t r = 1;
	int i;

	if (k < 0 || k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++) {
		/* r * (n - k + i) / i is exact at every step. */
		if (r > UINT64_MAX / (uint64_t)(n - k + i))
			return UINT64_MAX;
		r = r * (n - k + i) / i;
	}
	return r;
}

/*
 * Smallest two-sided p-value an exact test can give for samples of na and
 * nb distinct values: the two extreme splits out of C(na+nb, na).  With
 * three trials per policy it is 2/20 = 0.1, so no difference can ever be
 * called significant at 95 %; four trials give 2/70, five 2/252.
 */
static inline double wl_perm_min_p(int na, int nb)
{
	uint64_t c = wl_choose(na + nb, na);

	if (!c)
		return 1;
	return c >= 2 ? 2.0 / (double)c : 1;
}

/* Statistic of the split given by mask[i] (1 = group a) over pooled x. */
static inline double wl_perm_stat(const double *x, const unsigned char *mask,
				  int n)
{
	double a[WL_STATS_MAX_N * 2], b[WL_STATS_MAX_N * 2];
	int i, na = 0, nb = 0;

	for (i = 0; i < n; i++) {
		if (mask[i])
			a[na++] = x[i];
		else
			b[nb++] = x[i];
	}
	return fabs(wl_hmean(a, na) - wl_hmean(b, nb));
}

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
 * p = (1 + count) / (1 + nrand), which never gives p = 0.
 *
 * Return: 0, or -1 when a size is out of range.
 */
static inline int wl_perm_test(const double *a, int na, const double *b,
			       int nb, uint64_t max_exact, uint64_t nrand,
			       uint64_t seed, struct wl_perm_result *res)
{
	unsigned char mask[WL_STATS_MAX_N * 2];
	double x[WL_STATS_MAX_N * 2], obs, thr;
	int idx[WL_STATS_MAX_N * 2];
	int i, j, n = na + nb;
	uint64_t total, k;

	memset(res, 0, sizeof(*res));
	if (na < 1 || nb < 1 || na > WL_STATS_MAX_N || nb > WL_STATS_MAX_N)
		return -1;
	memcpy(x, a, na * sizeof(*x));
	memcpy(x + na, b, nb * sizeof(*x));
	obs = fabs(wl_hmean(a, na) - wl_hmean(b, nb));
	thr = obs * (1 - WL_STATS_TIE_EPS);
	res->stat = obs;
	total = wl_choose(n, na);

	if (total <= max_exact) {
		/* Walk every na-subset in lexicographic order. */
		for (i = 0; i < na; i++)
			idx[i] = i;
		for (;;) {
			memset(mask, 0, n);
			for (i = 0; i < na; i++)
				mask[idx[i]] = 1;
			if (wl_perm_stat(x, mask, n) >= thr)
				res->count++;
			res->total++;
			for (i = na - 1; i >= 0 && idx[i] == n - na + i; i--)
				;
			if (i < 0)
				break;
			idx[i]++;
			for (j = i + 1; j < na; j++)
				idx[j] = idx[j - 1] + 1;
		}
		res->exact = 1;
		res->p = (double)res->count / (double)res->total;
		return 0;
	}

	for (k = 0; k < nrand; k++) {
		/* Partial Fisher-Yates: the first na of a shuffle form a. */
		for (i = 0; i < n; i++)
			idx[i] = i;
		for (i = 0; i < na; i++) {
			int t;

			j = i + (int)wl_rand_below(&seed, n - i);
			t = idx[i];
			idx[i] = idx[j];
			idx[j] = t;
		}
		memset(mask, 0, n);
		for (i = 0; i < na; i++)
			mask[idx[i]] = 1;
		if (wl_perm_stat(x, mask, n) >= thr)
			res->count++;
	}
	res->total = nrand;
	res->exact = 0;
	res->p = (double)(res->count + 1) / (double)(nrand + 1);
	return 0;
}

#endif /* WL_STATS_H */
